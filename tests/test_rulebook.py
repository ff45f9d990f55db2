"""The rule books live in the repository: docs/RULES.md (Sorry!) and docs/SEQUENCE.md
(Sequence). Each statement is a list item that begins with its id in bold (`- **R22** ...`).
Every id is defined once, every id a rule book refers to is defined, and every id a test
cites (in tests/**/*.py and tests/**/*.yaml) is defined in the right book.

Sequence cells are named like Sorry! ids (`A10`, `H7`), so files whose path mentions
"sequence" are checked for S ids only.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
RULES = ROOT / "docs" / "RULES.md"
SEQUENCE = ROOT / "docs" / "SEQUENCE.md"
#: the rule books of the race games, each with the prefix of its ids
RACE_BOOKS = {"LU": ROOT / "docs" / "LUDO.md", "TR": ROOT / "docs" / "TROUBLE.md", "PA": ROOT / "docs" / "PARCHEESI.md"}

DEFINITION = re.compile(r"^\s*[-*]\s+\*\*([A-Z]+\d+)\*\*(?=\s)", re.MULTILINE)
SORRY_ID = re.compile(r"\b[RATPH]\d+\b")
SEQUENCE_ID = re.compile(r"\bS\d+\b")
#: The section of docs/RULES.md that holds each series of ids (H: sections 7 and 8).
SECTIONS = {"R": {"3"}, "A": {"4"}, "T": {"5"}, "P": {"6"}, "H": {"7", "8"}}


def definitions(path: Path) -> list[str]:
    return DEFINITION.findall(path.read_text(encoding="utf-8"))


def _test_files() -> list[Path]:
    here = Path(__file__).resolve()
    files = [*TESTS.rglob("*.py"), *TESTS.rglob("*.yaml")]
    return sorted(path for path in files if path.resolve() != here)


def _cited(pattern: re.Pattern, skip_sequence_files: bool) -> dict[str, list[str]]:
    cited: dict[str, list[str]] = {}
    for path in _test_files():
        relative = path.relative_to(ROOT).as_posix()
        if skip_sequence_files and "sequence" in relative.lower():
            continue
        for rule in sorted(set(pattern.findall(path.read_text(encoding="utf-8", errors="replace")))):
            cited.setdefault(rule, []).append(relative)
    return cited


@pytest.mark.parametrize("path", [RULES, SEQUENCE, *RACE_BOOKS.values()], ids=lambda p: p.name)
def test_ids_are_defined_once(path):
    ids = definitions(path)
    assert ids, f"{path.name} defines no statement ids"
    twice = sorted(rule for rule, n in Counter(ids).items() if n > 1)
    assert not twice, f"{path.name} defines these ids more than once: {twice}"


def test_rules_ids_are_sorry_ids_in_their_sections():
    text = RULES.read_text(encoding="utf-8")
    section, misplaced = None, []
    for line in text.splitlines():
        heading = re.match(r"^## (\d+)\.", line)
        if heading:
            section = heading.group(1)
        match = DEFINITION.match(line)
        if match:
            rule = match.group(1)
            if not SORRY_ID.fullmatch(rule) or section not in SECTIONS[rule[0]]:
                misplaced.append(f"{rule} (section {section})")
    assert not misplaced, f"docs/RULES.md: ids that are not Sorry! ids or sit in the wrong section: {misplaced}"
    assert {"R1", "R35", "A1", "A24", "T1", "T10", "P1", "P7", "H1", "H32"} <= set(definitions(RULES))


def test_sequence_defines_s1_to_s14():
    ids = definitions(SEQUENCE)
    assert set(ids) == {f"S{i}" for i in range(1, 15)}, f"docs/SEQUENCE.md defines {ids}"


@pytest.mark.parametrize("path, pattern", [(RULES, SORRY_ID), (SEQUENCE, SEQUENCE_ID)], ids=["RULES", "SEQUENCE"])
def test_rule_books_refer_only_to_their_own_ids(path, pattern):
    defined = set(definitions(path))
    referred = set(pattern.findall(path.read_text(encoding="utf-8")))
    assert not referred - defined, f"{path.name} refers to ids it does not define: {sorted(referred - defined)}"


def test_every_sorry_id_cited_by_a_test_is_defined():
    defined = set(definitions(RULES))
    cited = _cited(SORRY_ID, skip_sequence_files=True)
    assert cited, "no test cites a docs/RULES.md id"
    unknown = {rule: files for rule, files in cited.items() if rule not in defined}
    assert not unknown, f"tests cite ids docs/RULES.md does not define: {unknown}"


def test_every_sequence_id_cited_by_a_test_is_defined():
    defined = set(definitions(SEQUENCE))
    unknown = {rule: files for rule, files in _cited(SEQUENCE_ID, skip_sequence_files=False).items()
               if rule not in defined}
    assert not unknown, f"tests cite ids docs/SEQUENCE.md does not define: {unknown}"


@pytest.mark.parametrize("prefix", sorted(RACE_BOOKS))
def test_race_rule_books_number_their_ids_in_order_and_refer_only_to_them(prefix):
    path = RACE_BOOKS[prefix]
    ids = definitions(path)
    assert ids == [f"{prefix}{i}" for i in range(1, len(ids) + 1)], f"{path.name} numbers its ids {ids}"
    referred = set(re.findall(rf"\b{prefix}\d+\b", path.read_text(encoding="utf-8")))
    assert referred <= set(ids), f"{path.name} refers to ids it does not define: {sorted(referred - set(ids))}"


@pytest.mark.parametrize("prefix", sorted(RACE_BOOKS))
def test_every_race_id_cited_by_a_test_or_rule_file_is_defined(prefix):
    defined = set(definitions(RACE_BOOKS[prefix]))
    pattern = re.compile(rf"\b{prefix}\d+\b")
    cited = _cited(pattern, skip_sequence_files=False)
    for rule_file in (ROOT / "variants").rglob("*.yaml"):
        for rule in set(pattern.findall(rule_file.read_text(encoding="utf-8"))):
            cited.setdefault(rule, []).append(rule_file.relative_to(ROOT).as_posix())
    assert cited, f"no test cites a {prefix} id"
    unknown = {rule: files for rule, files in cited.items() if rule not in defined}
    assert not unknown, f"tests or rule files cite ids {RACE_BOOKS[prefix].name} does not define: {unknown}"
