"""Every problem code is real: `CODES` (errors.py) = the codes docs/REFERENCE.md lists = the
codes the package can raise, and each of them is raised here by real input. Also: one message
format for every problem (no doubled prefix), usage-level unknown names with suggestions, and
the broken position files (tests/broken/positions/) with their exact output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import sorry_rules
from sorry_rules.authoring.validate import validate_file
from sorry_rules.base.errors import CODES, PositionError, ProblemCollector, RuleFileError, UsageError
from sorry_rules.cli.app import main
from sorry_rules.compiler import load_game
from sorry_rules.records.position import parse_position, read_position_file
from sorry_rules.rules import yamlsafe
from sorry_rules.rules.loader import load_variant, overlay_conflicts

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).parent / "broken"
POSITIONS = BROKEN / "positions"
REFERENCE = (ROOT / "docs" / "REFERENCE.md").read_text(encoding="utf-8")

#: For each code, a broken rule file (tests/broken/) or position file (tests/broken/positions/)
#: that gives it; the three codes that need a file made at test time are in MADE below.
SHOWN_BY = {
    "SR520": "counter-reserved-name.yaml", "SR521": "counter-unknown.yaml", "SR522": "counter-never-read.yaml",
    "SR529": "condition-never-holds.yaml",
    "SR550": "geometry-bounce-and-stop.yaml", "SR551": "geometry-no-effect.yaml", "SR552": "geometry-simultaneous-split.yaml",
    "SR560": "mark-reserved-name.yaml", "SR561": "mark-unknown.yaml", "SR562": "mark-never-read.yaml",
    "SR563": "mark-every-one-per-player.yaml",
    "SR570": "square-reserved-name.yaml", "SR571": "marks-on-shared-squares.yaml",
    "SR101": "invalid-utf8.yaml", "SR103": "yaml-syntax.yaml", "SR104": "yaml-duplicate-key.yaml",
    "SR105": "yaml-alias-bomb.yaml", "SR106": "deep-nesting.yaml", "SR107": "yaml-tag.yaml",
    "SR108": "yaml-two-documents.yaml", "SR201": "missing-field.yaml", "SR202": "unknown-field.yaml",
    "SR203": "wrong-type.yaml", "SR204": "invalid-value.yaml", "SR301": "dsl-syntax.yaml",
    "SR302": "dsl-unknown-function.yaml", "SR303": "dsl-number-too-large.yaml", "SR304": "dsl-switch-own.yaml",
    "SR401": "extends-missing.yaml", "SR402": "extends-cycle-a.yaml", "SR403": "extends-outside.yaml",
    "SR404": "not-a-rule-file.yaml", "SR501": "unknown-colour-in-teams.yaml",
    "SR502": "unused-effects-unknown.yaml", "SR503": "deck-card-without-effect.yaml",
    "SR504": "effect-without-card.yaml", "SR505": "slide-backwards.yaml", "SR506": "colour-in-two-teams.yaml",
    "SR507": "no-card-starts.yaml", "SR508": "hand-too-big.yaml", "SR509": "home-unreachable-exact.yaml",
    "SR510": "players-min-above-max.yaml", "SR511": "slides-overlap.yaml", "SR512": "track-stuck-pass.yaml",
    "SR601": "positions/squares.json", "SR602": "positions/squares.json", "SR603": "positions/squares.json",
    "SR604": "positions/hand-in-draw.json", "SR513": "turn-actions-in-draw-play.yaml",
    "SR514": "turn-action-never-offered.yaml", "SR515": "grid-card-on-no-cell.yaml",
    "SR516": "word-listed-twice.yaml", "SR517": "draw-again-twice.yaml", "SR606": "positions/turn-state.json",
    "SR608": "positions/already-won.json",
}


def _made_sr100(tmp_path):
    return validate_file(tmp_path / "missing.yaml")


def _made_sr102(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (yamlsafe.MAX_BYTES + 1))
    return validate_file(path)


def _made_sr109(tmp_path):
    """Over the node limit, lowered to 1,000 here (tests/test_limits.py checks the real one)."""
    path = tmp_path / "many.yaml"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yamlsafe, "MAX_NODES", 1_000)
        path.write_text("[" + ", ".join(["x"] * (yamlsafe.MAX_NODES + 1)) + "]\n")
        return validate_file(path)


def _made_sr605(tmp_path):
    """A mark on a square without a pawn to carry it needs a variant with marks (the broken
    positions are read with standard, where any mark is SR561: positions/marks.json)."""
    game = load_game("standard", ("house/freeze.yaml",))
    data = {"players": ["red", "blue"], "card": "5", "pawns": {"blue": ["track:20"]},
            "marks": {"frozen": [{"colour": "blue", "square": "track:21", "by": "red"}]}}
    try:
        parse_position(game, data)
    except PositionError as error:
        return error.problems
    raise AssertionError("a valid position")


def _made_sr607(tmp_path):
    """A `one_per_player` mark placed twice by one player (house/freeze.yaml's `frozen`)."""
    game = load_game("standard", ("house/freeze.yaml",))
    data = {"players": ["red", "blue"], "card": "5", "pawns": {"blue": ["track:20", "track:30"]},
            "marks": {"frozen": [{"colour": "blue", "square": "track:20", "by": "red"},
                                 {"colour": "blue", "square": "track:30", "by": "red"}]}}
    try:
        parse_position(game, data)
    except PositionError as error:
        return error.problems
    raise AssertionError("a valid position")


def _made_sr609(tmp_path):
    """LU2, LU11: red's route runs from its start square (track:8) round to track:6 and into its
    home column; track:7 never holds a red token (every Ludo move goes forward)."""
    game = load_game("ludo")
    data = {"players": ["red", "green"], "card": "6", "pawns": {"red": ["track:7"], "green": ["track:20"]}}
    try:
        parse_position(game, data)
    except PositionError as error:
        assert sorted(p.message for p in error.problems) == [
            "pawns.green: a green pawn never stands on track:20: every move of this game goes forward, and green's route "
            "from track:21 does not pass it",
            "pawns.red: a red pawn never stands on track:7: every move of this game goes forward, and red's route from "
            "track:8 does not pass it"]
        assert load_game("standard").reaches(0, 3) and load_game("parcheesi").reaches(1, 45)  # backward moves; on the route
        return error.problems
    raise AssertionError("a valid position")


def _made_sr405(tmp_path):
    """Two overlays that set one field differently (REFERENCE section 3): the later one wins."""
    (tmp_path / "mine.yaml").write_text('extends: standard\ncards:\n  "7": forward 7\n')
    return overlay_conflicts("standard", ("house/split-7-any.yaml", str(tmp_path / "mine.yaml")))


def _made_sr610(tmp_path):
    """H31: a frozen mark is put on an opponent's pawn (`mark frozen opponent ...`), so blue
    never freezes its own pawn, and `by` left out (the pawn's colour) says so too; H27's
    mercy mark goes on every pawn a move bumps, own pawns included (a slide's sweep)."""
    game = load_game("standard", ("house/freeze.yaml",))
    problems = []
    for by in ("blue", None):
        entry = {"colour": "blue", "square": "track:20"} | ({"by": by} if by else {})
        try:
            parse_position(game, {"players": ["red", "blue", "yellow"], "card": "5", "pawns": {"blue": ["track:20"]},
                                  "marks": {"frozen": [entry]}})
        except PositionError as error:
            problems += error.problems
    assert [p.message for p in problems] == [
        "marks.frozen[0]: blue never puts a frozen mark on a blue pawn; red or yellow may",
        "marks.frozen[0]: a frozen mark on a blue pawn is placed by red or yellow, not blue (`by`, the player who placed "
        "it, left out, is the pawn's colour)"]
    for by in ("red", "yellow"):
        parse_position(game, {"players": ["red", "blue", "yellow"], "card": "5", "pawns": {"blue": ["track:20"]},
                              "marks": {"frozen": [{"colour": "blue", "square": "track:20", "by": by}]}})
    parse_position(load_game("standard", ("house/mercy-start.yaml",)),
                   {"players": ["red", "blue"], "card": "5", "marks": {"mercy": [{"colour": "red", "square": "start"}]}})
    return problems


MADE = {"SR100": _made_sr100, "SR405": _made_sr405, "SR610": _made_sr610, "SR102": _made_sr102, "SR109": _made_sr109, "SR605": _made_sr605, "SR607": _made_sr607,
        "SR609": _made_sr609}


def _position_problems(name: str):
    game = _standard()
    source = None
    try:
        source = read_position_file(str(POSITIONS / name))
        parse_position(game, source.data, None, source.origins)
    except PositionError as error:
        return error.problems
    raise AssertionError(f"{name} is a valid position")


_GAME = []


def _standard():
    if not _GAME:
        _GAME.append(load_game("standard"))
    return _GAME[0]


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_is_raised_by_real_input(code, tmp_path, monkeypatch):
    if code in MADE:
        problems = MADE[code](tmp_path)
    else:
        name = SHOWN_BY[code]
        if name.startswith("positions/"):
            problems = _position_problems(name.removeprefix("positions/"))
        else:
            monkeypatch.chdir(BROKEN)
            problems = validate_file(Path(name))
    assert code in {p.code for p in problems}, [p.format() for p in problems]


def test_every_code_has_a_case():
    assert set(SHOWN_BY) | set(MADE) == set(CODES)


def _documented() -> set[str]:
    section = REFERENCE[REFERENCE.index("## 6. Errors"):]
    return set(re.findall(r"\bSR\d{3}\b", section))


def _in_source() -> set[str]:
    package = Path(sorry_rules.__file__).parent
    found = set()
    for source in package.rglob("*.py"):
        if source.name != "errors.py":
            found |= set(re.findall(r'"(SR\d{3})"', source.read_text(encoding="utf-8")))
    return found


def test_codes_documented_are_exactly_the_codes_raised():
    """CODES = the codes docs/REFERENCE.md section 6 lists = the codes the package uses."""
    assert _documented() == set(CODES), sorted(_documented() ^ set(CODES))
    assert _in_source() == set(CODES), sorted(_in_source() ^ set(CODES))


# ---- one format ---------------------------------------------------------------------------
def test_one_collector_locates_through_the_source_map():
    data, smap = yamlsafe.load_yaml("a:\n  b: 1\n", "x.yaml")
    from sorry_rules.rules.loader import Origins

    out = ProblemCollector(Origins(maps={(): smap}, fallback="x.yaml"))
    out.at(("a", "b"), "SR204", "bad")
    out.at(("a", "b"), "SR202", "bad key", "warning", key=True)
    assert [p.format() for p in out.problems] == ["x.yaml:2:6: error: bad [SR204]", "x.yaml:2:3: warning: bad key [SR202]"]
    assert len(out.errors) == 1 and len(out.warnings) == 1


def test_a_single_load_problem_has_one_prefix(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: standard\npawns: many\n")
    result = CliRunner().invoke(main, ["--variant", str(bad), "--auto", "--seed", "1"])
    assert result.exit_code == 1
    assert result.stderr == (f"{bad}:2:8: error: pawns: Input should be a valid integer "
                             "(write a whole number, e.g. 3, not 'many') [SR203]\n")


@pytest.mark.parametrize("args, words", [
    (["--variant", "standart", "--auto", "--seed", "1"],
     "error: no variant 'standart': not a file, and not a bundled name; did you mean 'standard'? "
     "(bundled variants: grid/mini-grid, grid/sequence-four, grid/sequence-quick, ludo, parcheesi, partnership, "
     "points, sequence, six-colours, standard, three-colours, trouble; see `sorry-play variants`)\n"),
    (["--rule", "house/must-bmp", "--auto", "--seed", "1"], "did you mean 'house/must-bump'?"),
    (["--rule", "nothing.yaml", "--auto", "--seed", "1"], "(bundled rule overlays: house/backward-into-safety, "),  # as `variants` says
    (["explain", "--variant", "partnrship"], "did you mean 'partnership'"),
    (["validate", "standart"],
     "error: standart: no such file or folder, and not a bundled variant name; did you mean 'standard'?\n"),
])
def test_unknown_names_are_usage_errors_with_suggestions(args, words):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert words in result.stderr
    assert ":1:1:" not in result.stderr  # no made-up location


def test_unknown_variant_from_the_api_is_a_usage_error():
    with pytest.raises(UsageError, match="did you mean 'points'"):
        load_variant("pionts")


def test_unknown_card_option_suggests_the_close_name(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text('{"players": ["red", "blue"], "card": "1"}')
    result = CliRunner().invoke(main, ["moves", "--state", str(path), "--card", "Sorry"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --card: unknown card 'Sorry'; did you mean 'sorry'? (cards: 1, 2, ")


# ---- an effect for a card no deck holds --------------------------------------------------------
def test_effect_without_card_is_an_error_unless_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("drop.yaml").write_text('extends: standard\nname: no-fives\ndeck: {"5": null}\n')
    found = [(p.line, p.code, p.severity) for p in validate_file(Path("drop.yaml"))]
    assert ("SR504", "error") in {(c, s) for _, c, s in found}
    with pytest.raises(RuleFileError, match="SR504"):
        load_game("drop.yaml")
    Path("keep.yaml").write_text('extends: standard\nname: no-fives\ndeck: {"5": null}\nunused_effects: ["5"]\n')
    assert validate_file(Path("keep.yaml")) == []
    game = load_game("keep.yaml")
    assert "5" not in game.card_names
    Path("gone.yaml").write_text('extends: standard\nname: no-fives\ndeck: {"5": null}\ncards: {"5": null}\n')
    assert validate_file(Path("gone.yaml")) == []


def test_misspelt_effect_suggests_the_deck_name(monkeypatch):
    monkeypatch.chdir(BROKEN)
    [problem] = validate_file(Path("effect-name-case.yaml"))
    assert problem.code == "SR504" and problem.severity == "error"
    assert "did you mean 'sorry'?" in problem.message


# ---- position files ---------------------------------------------------------------------------
POSITION_CASES = sorted(p.name for p in POSITIONS.iterdir() if p.suffix in (".json", ".yaml"))


@pytest.mark.parametrize("name", POSITION_CASES)
def test_broken_position_file_gives_exactly_the_expected_problems(name, monkeypatch):
    monkeypatch.chdir(POSITIONS)
    expected = (POSITIONS / name).with_suffix(".expected").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["moves", "--state", name])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert result.stderr == expected
    assert all(re.fullmatch(rf"{re.escape(name)}:\d+:\d+: error: .+ \[SR\d{{3}}\]", line) for line in expected.splitlines())


def test_every_position_problem_is_reported_at_once():
    problems = _position_problems("squares.json")
    assert [(p.line, p.code) for p in problems] == [(2, "SR603"), (3, "SR603"), (6, "SR602"), (6, "SR601"),
                                                     (6, "SR601"), (7, "SR508")]


def test_too_many_pawns_do_not_hide_the_squares_that_are_wrong():
    """A colour with more pawns than the variant gives (SR508) still has each of its squares
    checked (SR601): every problem of a position file at once."""
    with pytest.raises(PositionError) as caught:
        parse_position(_standard(), {"players": ["red", "blue"], "turn": "red", "card": "1",
                                     "pawns": {"red": ["start", "track:60", "safety:6", "hme", "track:3"]}})
    assert sorted(p.code for p in caught.value.problems) == ["SR508", "SR601", "SR601", "SR601"]


def test_position_data_without_a_file_is_located_at_its_start():
    with pytest.raises(PositionError) as caught:
        parse_position(_standard(), {"players": ["red", "pink"], "card": "1"})
    assert [p.format() for p in caught.value.problems] == [
        "<position>:1:1: error: players[1]: unknown colour 'pink' (colours: red, blue, yellow, green) [SR501]"]


def test_too_many_pawns_in_a_small_home_say_it_is_a_home():
    """SR602 on a Home that holds fewer pawns than a colour has (`board.home_hold`) speaks of
    the Home, not of 'a square'."""
    game = load_game("trouble")
    with pytest.raises(PositionError) as caught:
        parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": "3",
                              "pawns": {"red": ["home", "home", "home"]}})
    assert any(p.code == "SR602" and "a Home holds" in p.message for p in caught.value.problems)
