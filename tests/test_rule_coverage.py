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
         "H23", "H25", "H26", "H27", "H28", "H29", "H30", "H31", "H32", "H33", "H34"]


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


DOCS = Path(__file__).parent.parent / "docs"
#: the race games' rule books (their scenarios are in tests/scenarios/ludo, trouble, parcheesi)
RACE_BOOKS = {"LU": "LUDO.md", "TR": "TROUBLE.md", "PA": "PARCHEESI.md"}
#: race ids shown by full games rather than by a position (tests/test_race_games.py cites them), and the
#: lists of what is not played
BY_GAMES = {"LU1", "LU3", "LU4", "LU22", "TR1", "TR3", "TR4", "TR14", "PA1", "PA3", "PA4", "PA20"}


def _race_ids(prefix: str) -> list:
    return re.findall(rf"^- \*\*({prefix}\d+)\*\*", (DOCS / RACE_BOOKS[prefix]).read_text(encoding="utf-8"), flags=re.M)


def test_cited_ids_exist():
    """Every id a scenario cites is defined in a rule book (docs/RULES.md, or a race game's)."""
    book = (DOCS / "RULES.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"^- \*\*([RATPH]\d+)\*\*", book, flags=re.M))
    assert len(defined) > 80
    for prefix in RACE_BOOKS:
        defined |= set(_race_ids(prefix))
    bad = sorted(rule for rule in _cites() if rule not in defined)
    assert not bad, f"cites that are no rule book's id: {bad}"


def test_every_race_rule_is_covered_by_a_scenario_or_a_game():
    cites = _cites()
    games = (Path(__file__).parent / "test_race_games.py").read_text(encoding="utf-8")
    for rule in BY_GAMES:
        assert rule in games, f"{rule} is said to be shown by tests/test_race_games.py, which does not cite it"
    missing = [rule for prefix in RACE_BOOKS for rule in _race_ids(prefix) if rule not in cites and rule not in BY_GAMES]
    assert not missing, f"no scenario cites {missing}"
