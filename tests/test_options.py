"""The shared command-line options (sorry_rules/cli/options.py) are declared once: every
command that takes one has the same names, type, default and help; the limits come from
base.limits; and the cli modules import nothing inside functions except the marked lazy
imports that keep start-up fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sorry_rules.base import limits
from sorry_rules.cli import options
from sorry_rules.cli.app import main

CLI = Path(__file__).resolve().parent.parent / "sorry_rules" / "cli"


def _option(command: click.Command, name: str) -> click.Option:
    found = [p for p in command.params if isinstance(p, click.Option) and name in p.opts]
    assert len(found) == 1, f"{command.name}: {name} declared {len(found)} times"
    return found[0]


def _commands():
    return {"play": main, **{name: main.commands[name] for name in ("moves", "explain", "simulate", "compare")}}


@pytest.mark.parametrize("name", ["play", "moves", "explain", "simulate"])
def test_variant_and_rule_are_the_same_everywhere(name):
    command = _commands()[name]
    variant, rule = _option(command, "--variant"), _option(command, "--rule")
    assert variant.opts == ["--variant", "-v"] and variant.default == "standard" and variant.help == options.VARIANT_HELP
    assert rule.opts == ["--rule", "-r"] and rule.multiple and rule.name == "rules" and rule.help == options.RULE_HELP


@pytest.mark.parametrize("name", ["play", "simulate", "compare"])
def test_players_seed_and_max_plies_are_the_same_everywhere(name):
    command = _commands()[name]
    players, seed, plies = _option(command, "--players"), _option(command, "--seed"), _option(command, "--max-plies")
    assert players.opts == ["--players", "-p"] and players.default is None and players.help == options.PLAYERS_HELP
    assert seed.opts == ["--seed", "-s"] and seed.default == (None if name == "play" else 1)
    assert plies.default == limits.DEFAULT_MAX_PLIES
    assert plies.type.min == 1 and plies.type.max == limits.MAX_CHOICES


def test_compare_rule_is_the_shared_option_with_its_own_help():
    rule = _option(main.commands["compare"], "--rule")
    assert rule.opts == ["--rule", "-r"] and rule.multiple and "both sides" in rule.help


@pytest.mark.parametrize("name", ["simulate", "compare"])
def test_passes_per_game_is_explained_in_the_help(name):
    result = CliRunner().invoke(main, [name, "--help"], terminal_width=100)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "pass" in text and "declined" in text, text


def test_cli_function_level_imports_are_marked_lazy():
    """Issue 11: no function-level import to dodge an import cycle. The ones left load heavy
    machinery only when a command runs, and each says so."""
    for path in sorted(CLI.glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if not re.match(r"^\s+(from \S+ )?import ", line) or line.strip().startswith("from __future__"):
                continue
            above = number - 2  # the comment may head a block of imports
            while above >= 0 and re.match(r"^\s+(from \S+ )?import ", lines[above]):
                above -= 1
            assert "# lazy:" in line or lines[above].strip().startswith("# lazy:"), \
                f"{path.name}:{number}: a function-level import without a '# lazy: why' comment: {line.strip()}"


def test_version_loads_no_heavy_module():
    """`sorry-play --version` stays fast: no compiler, pydantic, lark, yaml or rich."""
    code = ("import sys; from sorry_rules.cli.app import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pydantic', 'lark', 'yaml', 'rich') or m.startswith(('sorry_rules.compiler', 'sorry_rules.engine')))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "", f"--version imports {done.stdout.splitlines()[-1]}"
