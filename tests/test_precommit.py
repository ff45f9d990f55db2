"""The pre-commit hook other repositories use to validate their rule files."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.rules.yamlsafe import load_yaml_file

ROOT = Path(__file__).resolve().parent.parent


def hook() -> dict:
    hooks, _ = load_yaml_file(ROOT / ".pre-commit-hooks.yaml")
    assert isinstance(hooks, list) and len(hooks) == 1
    return hooks[0]


def test_hook_definition():
    h = hook()
    assert h["id"] == "sorry-rules-validate"
    assert h["entry"] == "sorry-play validate"
    assert h["language"] == "python"
    assert set(h) <= {"id", "name", "description", "entry", "language", "files", "exclude", "types", "args",
                      "require_serial", "pass_filenames", "minimum_pre_commit_version"}


def test_hook_files_pattern_picks_rule_files_only():
    pattern = re.compile(hook()["files"])  # pre-commit matches with re.search
    for path in ("variants/standard.yaml", "variants/house/sorry-forward-4.yaml", "rules/quick.yml",
                 "games/house/mine.yaml", "my.sorry.yaml", "deep/er/x.sorry.yml"):
        assert pattern.search(path), path
    for path in (".pre-commit-config.yaml", ".pre-commit-hooks.yaml", ".github/workflows/ci.yml", "docker-compose.yaml",
                 "tests/scenarios/standard/cards.yaml", "variants/README.md", "mkdocs.yml", "myvariants/x.yaml"):
        assert not pattern.search(path), path


def test_hook_entry_runs_on_the_files_pre_commit_passes(monkeypatch):
    """pre-commit appends the matching file names to the entry."""
    monkeypatch.chdir(ROOT)
    pattern = re.compile(hook()["files"])
    files = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "variants").rglob("*") if p.is_file())
    matching = [f for f in files if pattern.search(f)]
    assert matching
    program, *args = shlex.split(hook()["entry"])
    assert program == "sorry-play"
    result = CliRunner().invoke(main, args + matching, env={"GITHUB_ACTIONS": "false"})
    assert result.exit_code == 0, result.output
    broken = CliRunner().invoke(main, args + ["tests/broken/wrong-type.yaml"], env={"GITHUB_ACTIONS": "false"})
    assert broken.exit_code == 1
