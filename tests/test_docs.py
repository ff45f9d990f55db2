"""The examples in docs/*.md work.

Conventions (stated in docs/AUTHORING.md too):
  * a ```yaml block is a rule file and must validate without errors; a block that is not
    a complete variant and has no `extends:` is a fragment, checked as an overlay of the
    bundled standard variant;
  * a ```yaml broken block must give at least one error; ```yaml no-check is not a rule file;
  * `<!-- file: NAME -->` on the line before a block names the file it is (AUTHORING.md);
  * in docs/AUTHORING.md every `sorry-play` command of a ```sh block is run, in order, in a
    scratch folder holding the named files written so far (a `simulate` line is only
    described there, not run); it must not be a usage error, and a ```text block right after
    a block with one command is that command's exact output.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.base.errors import CODES, RuleFileError
from sorry_rules.authoring.validate import validate_file
from sorry_rules.rules.yamlsafe import load_yaml

DOCS = Path(__file__).resolve().parent.parent / "docs"
AUTHORING = DOCS / "AUTHORING.md"
FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")
FILE_COMMENT = re.compile(r"^<!--\s*file:\s*(\S+)\s*-->$")
REQUIRED = ("name", "colours", "players", "pawns", "board", "deck", "cards", "win")
NOT_RUN = {"simulate", "compare"}  # described in the tutorial (too slow to run here); tested in test_simulate.py


@dataclass
class Block:
    lang: str
    flags: str
    text: str
    line: int           # line of the opening fence
    end: int            # line of the closing fence
    file: str | None    # from a preceding <!-- file: NAME --> comment


def blocks(path: Path) -> list[Block]:
    found, lines = [], path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match and lines[i].strip() != "```":
            start = i
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            named = FILE_COMMENT.match(lines[start - 1].strip()) if start else None
            found.append(Block(match.group(1), match.group(2), "\n".join(body) + "\n", start + 1, i + 1,
                               named.group(1) if named else None))
        i += 1
    return found


def yaml_examples():
    for doc in sorted(DOCS.glob("*.md")):
        for block in blocks(doc):
            if block.lang == "yaml" and "no-check" not in block.flags.split():
                yield pytest.param(doc, block, id=f"{doc.name}:{block.line}")


def _problems_of_example(block: Block, folder: Path) -> list:
    try:
        data, _ = load_yaml(block.text, "example.yaml")
    except RuleFileError as error:
        return error.problems
    text = block.text
    if isinstance(data, dict) and "extends" not in data and not all(k in data for k in REQUIRED):
        text = "extends: standard\n" + text  # a fragment: an overlay of the standard variant
    path = folder / (block.file or "example.yaml")
    path.write_text(text, encoding="utf-8")
    return validate_file(path)


@pytest.mark.parametrize("doc, block", list(yaml_examples()))
def test_yaml_example_validates(doc, block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    problems = _problems_of_example(block, tmp_path)
    errors = [p.format() for p in problems if p.severity == "error"]
    if "broken" in block.flags.split():
        assert errors, f"{doc.name}:{block.line}: a ```yaml broken example that validates"
    else:
        assert errors == [], (f"{doc.name}:{block.line}: this YAML example has problems (mark an example that is "
                              "not a rule file ```yaml no-check)")


def test_docs_have_yaml_examples():
    assert len(list(yaml_examples())) >= 3


# ---- the tutorial, run in order ------------------------------------------------------------
def _commands(block: Block) -> list[list[str]]:
    commands = []
    for raw in block.text.replace("\\\n", " ").splitlines():
        line = raw.strip()
        if line.startswith("$ "):
            line = line[2:]
        if not line.startswith("sorry-play"):
            continue
        words = shlex.split(line, comments=True)
        commands.append(words)
    return commands


def _split_redirect(words: list[str]) -> tuple[list[str], str | None]:
    if ">" in words:
        at = words.index(">")
        return words[:at], words[at + 1]
    for op in ("|", "&&", ";"):
        if op in words:
            return words[:words.index(op)], None
    return words, None


def test_tutorial_commands_run_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = blocks(AUTHORING)
    ran = compared = 0
    for index, block in enumerate(doc):
        if block.file:
            (tmp_path / block.file).write_text(block.text, encoding="utf-8")
        if block.lang not in ("sh", "console", "shell", "bash"):
            continue
        commands = _commands(block)
        following = doc[index + 1] if index + 1 < len(doc) else None
        for words in commands:
            args, redirect = _split_redirect(words[1:])
            if args and args[0] in NOT_RUN:
                continue
            result = CliRunner().invoke(main, args, env={"GITHUB_ACTIONS": "false", "COLUMNS": "100"})
            where = f"AUTHORING.md:{block.line}: {' '.join(words)}"
            assert result.exit_code in (0, 1), f"{where}: exit {result.exit_code}\n{result.output}"
            assert result.exception is None or isinstance(result.exception, SystemExit), f"{where}: {result.exception!r}"
            if redirect:
                (tmp_path / redirect).write_text(result.stdout, encoding="utf-8")
            if len(commands) == 1 and following is not None and following.lang == "text" and following.line - block.end <= 2:
                assert result.output == following.text, f"{where}: output differs from the documented one"
                compared += 1
            ran += 1
    assert ran >= 8 and compared >= 6


def test_tutorial_lists_every_problem_code():
    text = AUTHORING.read_text(encoding="utf-8")
    for code, meaning in CODES.items():
        assert f"| {code} | {meaning} |" in text, f"docs/AUTHORING.md: the codes table lacks {code}"


def test_tutorial_links_the_reference():
    assert "(REFERENCE.md)" in AUTHORING.read_text(encoding="utf-8")
