"""Every statement of RULES.md sections 5-7 (partnership T1-T10, points P1-P7, the house
rules) is cited by at least one rule scenario, and every cited id is one the rule book has."""

from __future__ import annotations

import re
from pathlib import Path

from sorry_rules.rules.yamlsafe import load_yaml_file

SCENARIOS = Path(__file__).parent / "scenarios"

PARTNERSHIP = [f"T{i}" for i in range(1, 11)]
POINTS = [f"P{i}" for i in range(1, 8)]
HOUSE = ["H1", "H2", "H3", "H5", "H6", "H10", "H12", "H13", "H14", "H15", "H17", "H19", "H24",
         "H27", "H28", "H29", "H30", "H31", "H32"]


def _cites() -> dict:
    cites: dict = {}
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        data, _ = load_yaml_file(path, str(path))
        for scenario in data["scenarios"]:
            for rule in scenario["cites"]:
                cites.setdefault(rule, []).append(f"{path.relative_to(SCENARIOS)}::{scenario['id']}")
    return cites


def test_sections_5_to_7_are_covered_by_scenarios():
    cites = _cites()
    missing = [rule for rule in PARTNERSHIP + POINTS + HOUSE if rule not in cites]
    assert not missing, f"no scenario cites {missing}"


def test_cited_ids_exist():
    """Every id a scenario cites is defined in the rule book (docs/RULES.md)."""
    book = (Path(__file__).parent.parent / "docs" / "RULES.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"^- \*\*([RATPH]\d+)\*\*", book, flags=re.M))
    assert len(defined) > 80
    bad = sorted(rule for rule in _cites() if rule not in defined)
    assert not bad, f"cites that are no RULES.md id: {bad}"
