"""`sorry-play explain`, `sorry-play variants` and `sorry-play moves --why`."""

from __future__ import annotations

import re

import json
from pathlib import Path

from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.authoring.explain import explain_text, load_explained
from sorry_rules.authoring.oracle import moves_report
from sorry_rules.records.position import parse_position
from sorry_rules.base.resources import variants_dir
from sorry_rules import dsl
from sorry_rules.authoring.explain import source_text
from sorry_rules.authoring.why import add_why, format_why_text

STANDARD = (variants_dir() / "standard.yaml").read_text(encoding="utf-8").splitlines()

OPTIONS = Path(__file__).parent / "rules" / "options"


def where(prefix: str, fragment: str, file: str = "standard.yaml", lines=STANDARD) -> str:
    """file:line:col of `fragment` on the first line starting with `prefix` (computed from
    the rule file, so the test does not copy the program's output)."""
    for number, line in enumerate(lines, 1):
        if line.startswith(prefix):
            return f"{file}:{number}:{line.index(fragment) + 1}"
    raise AssertionError(prefix)


def card_line(prefix: str) -> int:
    return next(n for n, line in enumerate(STANDARD, 1) if line.startswith(prefix))


# ---- explain ------------------------------------------------------------------------------
def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_explain_says_what_each_card_does_and_where():
    result = invoke("explain", "--variant", "standard")
    assert result.exit_code == 0, result.output
    text = result.stdout
    # R18, R21, R20, R25 in words
    one = card_line('  "1": enter')
    assert f"Card 1 (5 in the deck) - standard.yaml:{one}\n  Start a pawn, or move one pawn forward 1.\n" in text
    assert "Card 4 (4 in the deck)" in text and "  Move one pawn backward 4.\n" in text
    assert "  Move one pawn forward 12.\n" in text
    flat = " ".join(text.split())
    assert "Take a pawn from Start and put it on a track square held by an opponent's pawn, which goes back to its Start." in flat
    # R19: the 2 draws again whatever it did
    assert "  Either start a pawn or move one pawn forward 2, then draw again.\n" in text
    # every option of a choice, with its position
    ten_back = where('  "10": forward', "backward 1")
    assert f"    option 2: backward 1  ({ten_back})" in text
    assert "To win" in text and "The number of your team's pawns in Home equals the number of your team's pawns." in flat


def test_explain_one_card_with_an_overlay(tmp_path, monkeypatch):
    """H1 as an overlay: the Sorry! card's text and position come from the overlay."""
    monkeypatch.chdir(tmp_path)
    Path("h1.yaml").write_text("extends: standard\ncards:\n  sorry: sorry opponent | forward 4\n")
    result = invoke("explain", "--rule", "h1.yaml", "--card", "sorry")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Card sorry (4 in the deck) - h1.yaml:3"
    assert " ".join(" ".join(lines[1:-2]).split()) == ("Take a pawn from Start and put it on a track square held by an "
                                                      "opponent's pawn, which goes back to its Start; or move one pawn forward 4.")
    assert lines[-2:] == ["    option 1: sorry opponent  (h1.yaml:3:10)", "    option 2: forward 4  (h1.yaml:3:27)"]


def test_a_marks_label_names_it_in_every_sentence(tmp_path, monkeypatch):
    """REFERENCE marks: `label` is how the mark is named in `explain`: in the card that puts
    it (H31's freeze on the Sorry!), in its selectors and in `also:`, not only its heading."""
    monkeypatch.chdir(tmp_path)
    Path("ice.yaml").write_text("extends: house/freeze.yaml\nname: ice\nmarks: {frozen: {label: ice block}}\n")
    result = invoke("explain", "--variant", "ice.yaml")
    assert result.exit_code == 0, result.output
    words = " ".join(line.strip() for line in result.stdout.splitlines() if not line.strip().startswith("option"))
    assert "put the mark 'ice block' on an opponent's pawn on the track, alone on its square, not marked 'ice block'" \
        in words
    assert "mark 'frozen'" not in words and "marked 'frozen'" not in words


def test_a_stuck_turn_of_several_cards_drawn_is_said_in_the_plural(tmp_path, monkeypatch):
    """REFERENCE `redraw`: with `take`, the turn is stuck when none of the cards drawn can
    move (H25 with H26); explain says so, not "the card drawn"."""
    monkeypatch.chdir(tmp_path)
    Path("three.yaml").write_text("extends: standard\nname: three\nturn:\n  take: 3\n"
                                  "  redraw: {when: start(player) == pawns(player), at_most: 1}\n")
    result = invoke("explain", "--variant", "three.yaml")
    assert result.exit_code == 0, result.output
    words = " ".join(result.stdout.split())
    assert "If none of the 3 cards drawn can move a pawn and" in words and "discard them and draw again" in words


def test_explain_unknown_card_is_a_usage_error():
    result = invoke("explain", "--card", "13")
    assert result.exit_code == 2
    assert "unknown card '13'" in result.stderr


def test_explain_broken_variant_reports_problems(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text("extends: standard\ncards:\n  '3': forward\n")
    result = invoke("explain", "--variant", "bad.yaml")
    assert result.exit_code == 1
    assert "bad.yaml:3:15: error: unexpected end of text; expected one of '(', a number [SR301]" in result.stderr


# ---- variants -----------------------------------------------------------------------------
def test_variants_lists_kind_and_own_description(tmp_path, monkeypatch):
    import sorry_rules.rules.locate as locate
    import sorry_rules.base.resources as resources

    bundle = tmp_path / "variants"
    (bundle / "house").mkdir(parents=True)
    (bundle / "standard.yaml").write_text((variants_dir() / "standard.yaml").read_text())
    (bundle / "house" / "h2.yaml").write_text("extends: standard\ndescription: H2 - the 2 does not draw again.\n"
                                              "cards:\n  '2': enter | forward 2\n")
    (bundle / "house" / "broken.yaml").write_text("extends: standard\npawns: many\n")
    monkeypatch.setattr(resources, "variants_dir", lambda: bundle)
    monkeypatch.setattr(locate, "variants_dir", lambda: bundle)  # where rule files are found by name
    result = invoke("variants")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "house/broken.yaml  ?        (does not load; run `sorry-play validate` on it)",
        "house/h2.yaml      overlay  H2 - the 2 does not draw again. (over standard)",
        "standard.yaml      variant  Standard Sorry! for 2-4 players, 45-card deck, draw one card per turn.",
    ]


# ---- moves --why --------------------------------------------------------------------------
def why(position: dict, rules=(), card=None):
    explained = load_explained("standard", rules)
    game = explained.game
    parsed = parse_position(game, position, card)
    return add_why(game, explained.cards, parsed, moves_report(game, parsed))


def blocked(report) -> dict:
    """(colour, square) -> the short text of each reason (each reason is structured: see
    test_reasons_are_structured)."""
    return {(b["colour"], b["at"]): [r["text"] for r in b["reasons"]] for b in report["blocked"]}


def pos(card, red, others=None, players=("red", "blue", "yellow", "green")):
    pawns = {"red": red, **(others or {})}
    return {"players": list(players), "turn": "red", "card": card, "pawns": pawns}


def test_each_move_names_the_option_that_gives_it():
    """R23: a 10 moves forward 10 (option 1) or backward 1 (option 2)."""
    report = why(pos("10", ["track:30", "start", "start", "start"]))
    by_text = {m["text"]: m["why"] for m in report["moves"]}
    assert by_text["Red pawn track:30 -> track:40"] == [
        {"card": "10", "option": 1, "text": "forward 10", "where": where('  "10": forward', "forward 10")}]
    assert by_text["Red pawn track:30 -> track:29"] == [
        {"card": "10", "option": 2, "text": "backward 1", "where": where('  "10": forward', "backward 1")}]
    assert blocked(report) == {("red", "start"): ["card 10 cannot start a pawn"]}


def test_why_names_what_stops_a_send_a_move_and_held_pawns_in_start(tmp_path):
    """`send` and `move` say what stops them (a square not free, an own pawn there, the pawn
    already there), not that the card cannot start a pawn; pawns in Start that all carry an
    immobile mark are said to be held by it (REFERENCE `marks`, `send`, `move`)."""
    rule = tmp_path / "put.yaml"
    rule.write_text("extends: standard\nmarks:\n  stuck: {immobile: true}\ncards:\n"
                    "  '5': move own in start to track:30\n  '8': send own in start to track:30\n"
                    "  '12': move own in track to track:30\n", encoding="utf-8")
    rules = (str(rule),)
    report = why(pos("8", ["start", "home", "home", "home"], {"blue": ["track:30"]}), rules)
    assert blocked(report)[("red", "start")] == [
        "send own in start to track:30: track:30 is not free (a pawn is sent only to a free square)"]
    report = why(pos("5", ["start", "track:30", "home", "home"]), rules)
    assert blocked(report)[("red", "start")] == ["move own in start to track:30: own pawn on track:30"]
    report = why(pos("12", ["track:30", "home", "home", "home"]), rules)
    assert blocked(report)[("red", "track:30")] == ["move own in track to track:30: it stands on track:30 already"]
    held = dict(pos("5", ["start", "start", "home", "home"]), marks={"stuck": [{"colour": "red", "square": "start"}] * 2})
    assert blocked(why(held, rules))[("red", "start")] == ["marked 'stuck': a stuck pawn cannot move"]
    one_held = dict(held, marks={"stuck": [{"colour": "red", "square": "start"}]})
    assert ("red", "start") not in blocked(why(one_held, rules))  # the other pawn in Start moves


def test_an_effect_on_other_colours_says_nothing_of_the_players_own_pawns(tmp_path):
    """`send opponent ...` never moves the player's pawns: a red pawn no move of the card takes
    is not said to be 'not one' of the opponents' pawns, but what the card does for it."""
    rule = tmp_path / "leader.yaml"
    rule.write_text("extends: standard\nalso:\n  lead: {cards: [sorry], effect: send opponent in track farthest to start}\n",
                    encoding="utf-8")
    report = why(pos("sorry", ["track:40", "home", "home", "home"], {"blue": ["track:10"]}), (str(rule),))
    assert blocked(report)[("red", "track:40")] == ["card sorry only moves pawns out of Start"]


def test_why_a_switch_on_squares_that_hold_several_pawns_is_refused(tmp_path):
    """A switch takes only pawns alone on their squares (REFERENCE, squares that hold several
    pawns): --why names that, not a blocked slide (the board has no slides)."""
    from sorry_rules.authoring.explain import load_explained

    rule = tmp_path / "pairs.yaml"
    rule.write_text("extends: ludo\nboard: {squares: null}\ncards: {'6': enter | switch opponent}\n", encoding="utf-8")
    explained = load_explained(str(rule), ())

    def reasons(red, green):
        position = {"players": ["red", "green"], "turn": "red", "card": "6", "pawns": {"red": red, "green": green}}
        parsed = parse_position(explained.game, position, None)
        return blocked(add_why(explained.game, explained.cards, parsed, moves_report(explained.game, parsed)))

    assert reasons(["track:30", "track:30", "home", "home"], ["track:40"])[("red", "track:30")] == [
        "switch opponent: it shares track:30 with other pawns (a switch takes only pawns alone on their squares)"]
    assert reasons(["track:30", "home", "home", "home"], ["track:40", "track:40"])[("red", "track:30")] == [
        "switch opponent: no opponent pawn stands alone on its square (a switch takes only pawns alone there)"]


def test_geometry_is_wrapped_once_and_its_labels_are_said(tmp_path):
    """explain wraps geometry's lines once (no word left alone on a line), and a turn's or a
    blocker's `label` is said by explain, and a blocker's by moves --why (REFERENCE
    `geometry`: "Words for `explain` and `moves --why`")."""
    from sorry_rules.authoring.explain import load_explained

    bounce = explain_text(load_explained("standard", ("house/bounce-back.yaml",)))
    assert all(len(line.split()) > 1 for line in bounce.splitlines() if line.strip())
    assert "counted back down the safety zone" in " ".join(bounce.split())
    rule = tmp_path / "walls.yaml"
    rule.write_text("extends: standard\ngeometry:\n  turns:\n    cut: {at: 5, moving: forward, onto: safety, label: "
                    "THE CUT}\n  blockers:\n    wall: {pawns: opponent, pass: false, label: THE WALL}\n", encoding="utf-8")
    explained = load_explained("standard", (str(rule),))
    text = explain_text(explained)
    assert '"THE CUT"' in text and '"THE WALL"' in text
    report = why(pos("2", ["track:29", "home", "home", "home"], {"blue": ["track:30"]}), (str(rule),))
    assert blocked(report)[("red", "track:29")] == [
        "forward 2: would pass the opponent pawn (blue) on track:30, which may not be passed (THE WALL)"]


def test_why_names_the_mark_of_the_pawn_that_blocks_a_slide(tmp_path):
    """R26 with an untouchable mark (REFERENCE `marks`): a slide that would end on a marked
    pawn cannot be taken, and --why names the mark."""
    rule = tmp_path / "shield.yaml"
    rule.write_text("extends: standard\nmarks:\n  shield: {untouchable: true}\ncards:\n  '3': forward 3 | mark shield own"
                    "\n", encoding="utf-8")
    held = dict(pos("3", ["track:21", "home", "home", "home"], {"blue": ["track:28"]}),
                marks={"shield": [{"colour": "blue", "square": "track:28"}]})
    assert blocked(why(held, (str(rule),)))[("red", "track:21")] == [
        "forward 3: the slide from track:24 ends on track:28, held by a pawn marked 'shield', which the slide may not "
        "sweep"]


def test_explain_places_an_entry_an_overlay_changed_in_the_overlay(tmp_path):
    """AUTHORING section 4: each line says which file and line the rule comes from, so an
    entry the overlay changed (a square, a mark, a consequence) is placed in the overlay, one
    it inherited unchanged in its own file."""
    from sorry_rules.authoring.explain import load_explained

    rule = tmp_path / "mine.yaml"
    rule.write_text("extends: [ludo]\nboard:\n  squares:\n    star: {capture: true, safe: [own]}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained(str(rule), ())).split())
    assert f"Square 'star' (star, shown *) at offset 3 of every side - {rule}:4" in text
    assert "Square 'start square' (start_square, shown o) at offset 8 of every side - ludo.yaml:" in text
    frozen = tmp_path / "frozen.yaml"
    frozen.write_text("extends: standard\nmarks:\n  frozen: {until: removed}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained("standard", ("house/freeze.yaml", str(frozen)))).split())
    assert f"Mark 'frozen' (frozen, shown #) - {frozen}:3" in text


def test_the_eleven_pass_comes_from_its_guarded_option():
    """R24, A14: no forward 11 but a switch exists: switch or pass; the pass is option 3."""
    report = why(pos("11", ["safety:1", "track:0", "home", "home"], {"blue": ["track:20"]}))
    passes = [m for m in report["moves"] if m.get("pass")]
    assert len(passes) == 1
    assert [w["option"] for w in passes[0]["why"]] == [3]
    assert passes[0]["why"][0]["text"] == "pass if can(switch opponent) and not can(forward 11)"
    reasons = blocked(report)
    # R31, R33: track:0 is 2 + 5 + 1 = 8 steps from Home and safety:1 is 5: both overshoot with 11;
    # R24: a pawn in its safety zone cannot switch
    assert reasons[("red", "safety:1")] == [
        "forward 11: would overshoot Home (5 steps to Home)",
        "switch opponent: in its safety zone (a switch needs a track pawn)"]
    assert reasons[("red", "home")] == ["pawns in Home never move"]
    assert ("red", "track:0") not in reasons  # it switches


def test_a_partner_pawn_a_listed_switch_moves_is_not_said_to_have_no_move():
    """H15 in partnership (T2: red moves yellow's pawns too): red on 59 and yellow on 29 may
    switch with each other, one result whichever pawn is said to switch (A24). Yellow's pawn
    moves by that move, so `--why` does not list it among the pawns with no move (it said
    "every switch ends in a blocked slide", though neither square is a triangle)."""
    explained = load_explained("partnership", ("house/switch-partner.yaml",))
    position = {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "11",
                "pawns": {"red": ["track:59", "home", "home", "home"], "yellow": ["track:29", "home", "home", "home"]}}
    parsed = parse_position(explained.game, position)
    report = add_why(explained.game, explained.cards, parsed, moves_report(explained.game, parsed))
    assert [m["text"] for m in report["moves"]] == ["Red pawn track:59 <-> Yellow pawn track:29", "pass (play nothing)"]
    assert blocked(report) == {("red", "home"): ["pawns in Home never move"],
                               ("yellow", "home"): ["pawns in Home never move"]}


def test_own_pawn_on_the_target_square_and_overshooting_home():
    """R16: never end on your own pawn; R33: Home by exact count only."""
    report = why(pos("5", ["track:10", "track:15", "safety:3", "home"]))
    reasons = blocked(report)
    assert reasons[("red", "track:10")] == ["forward 5: own pawn on track:15"]
    assert reasons[("red", "safety:3")] == ["forward 5: would overshoot Home (3 steps to Home)"]


def test_start_blocked_by_own_pawn_on_the_start_exit():
    """R9: a pawn cannot leave Start while its own colour holds the start exit."""
    report = why(pos("1", ["start", "start", "track:4", "home"]))
    assert blocked(report) == {("red", "start"): ["enter: own pawn on track:4 (the start exit)"],
                               ("red", "home"): ["pawns in Home never move"]}
    start = [b for b in report["blocked"] if b["at"] == "start"][0]
    assert start["pawns"] == 2


def test_sorry_without_a_target():
    """R25: no opponent pawn on the track: the Sorry! is forfeit."""
    report = why(pos("sorry", ["start", "track:3", "start", "start"], {"blue": ["safety:2"]}))
    assert report["forfeit"] is True and report["moves"] == []
    assert blocked(report) == {("red", "start"): ["sorry opponent: no opponent pawn on the track to replace"],
                               ("red", "track:3"): ["card sorry only moves pawns out of Start"]}


def test_a_split_that_cannot_be_completed():
    """R22: a 7 split needs a second pawn that can use the exact rest."""
    report = why(pos("7", ["track:10", "safety:5", "home", "home"]))
    reasons = blocked(report)
    # forward 7 from track:10 is legal; safety:5 is 1 step from Home, so every 7 overshoots it
    # and the 1-step part would leave 6 for track:10 (legal) - so the split IS possible:
    assert ("red", "safety:5") not in reasons
    report = why(pos("7", ["safety:5", "safety:4", "home", "home"]))
    reasons = blocked(report)
    assert reasons[("red", "safety:5")][0] == "forward 7: would overshoot Home (1 step to Home)"
    assert reasons[("red", "safety:5")][1].startswith("split 7 among 2: no other pawn can move the rest of the 7 steps")


def test_partner_pawn_that_may_not_be_bumped(tmp_path, monkeypatch):
    """H13: partners cannot bump each other (their squares block like your own)."""
    monkeypatch.chdir(tmp_path)
    Path("h13.yaml").write_text("extends: standard\nteams: [[red, yellow], [blue, green]]\nrules: {bump: [opponent]}\n")
    report = why(pos("3", ["track:20", "start", "start", "start"], {"yellow": ["track:23"]}), rules=("h13.yaml",))
    assert report["forfeit"] is True
    assert blocked(report)[("red", "track:20")] == ["forward 3: partner pawn (yellow) on track:23, which may not be bumped"]


def test_slide_whose_end_is_held_by_a_pawn_it_may_not_sweep(tmp_path, monkeypatch):
    """H12: slides do not bump your own pawns; a slide ending on one cannot be taken."""
    monkeypatch.chdir(tmp_path)
    Path("h12.yaml").write_text("extends: standard\nrules: {slide_sweep: bumpable}\n")
    # blue's short slide: triangle 16, end circle 19 (RULES section 1)
    report = why(pos("4", ["track:20", "track:19", "start", "start"]), rules=("h12.yaml",))
    reasons = blocked(report)
    assert reasons[("red", "track:20")] == [
        "backward 4: the slide from track:16 ends on track:19, held by a pawn the slide may not sweep"]


def test_a_switch_ending_in_a_blocked_slide_names_the_slide(tmp_path, monkeypatch):
    """H12 with R24/R27: red's pawn on 5 may switch only with blue's on 16, a triangle whose
    slide ends on 19 under red's own pawn, which the slide may not sweep, so the switch is
    out; --why names that slide as for the 11's forward move (it said 'every switch ends in
    a blocked slide'). Red's pawn on 19 switches: the slide then bumps blue's pawn traded
    onto 19."""
    monkeypatch.chdir(tmp_path)
    Path("h12.yaml").write_text("extends: standard\nrules: {slide_sweep: bumpable}\n")
    report = why(pos("11", ["track:5", "track:19", "home", "home"], {"blue": ["track:16"]}), rules=("h12.yaml",))
    slide = "the slide from track:16 ends on track:19, held by a pawn the slide may not sweep"
    assert blocked(report)[("red", "track:5")] == [f"forward 11: {slide}", f"switch opponent: {slide}"]
    assert "Red pawn track:19 <-> Blue pawn track:16, bumps Blue (track:19), slides to track:19" in \
        [m["text"] for m in report["moves"]]


def test_a_landing_blocker_is_named_by_its_label(tmp_path, monkeypatch):
    """REFERENCE `geometry.blockers.NAME.label`: --why quotes the label of the blocker that
    stops a landing, also for a `land: false` blocker that may be passed (folded into who may
    be bumped, with no routes behind it)."""
    monkeypatch.chdir(tmp_path)
    Path("walls.yaml").write_text("extends: standard\ngeometry:\n  blockers:\n"
                                  "    walls: {colours: [blue], land: false, label: blue walls stand firm}\n")
    report = why(pos("3", ["track:20", "home", "home", "home"], {"blue": ["track:23"]}), rules=("walls.yaml",))
    assert blocked(report)[("red", "track:20")] == [
        "forward 3: opponent pawn (blue) on track:23, which may not be bumped (blue walls stand firm)"]


def test_a_sequence_played_only_whole_says_so(tmp_path, monkeypatch):
    """REFERENCE `both (A then B)`: every pawn in Start, so a start has no other pawn to move 6
    after it; --why says the sequence is played only whole (it said the pawns' moves gave the
    same result as a listed move, though none was listed), and names a part that stops it."""
    monkeypatch.chdir(tmp_path)
    Path("both.yaml").write_text('extends: standard\ncards:\n  "7": "forward 7 | split 7 | both (enter then forward 6 '
                                 'unmoved)"\n')
    whole = "both (enter then forward 6 unmoved): played only whole, and here its parts cannot all be played"
    assert blocked(why(pos("7", ["start", "start", "start", "home"]), rules=("both.yaml",)))[("red", "start")] == [whole]
    assert blocked(why(pos("7", ["track:4", "start", "start", "start"]), rules=("both.yaml",)))[("red", "start")] == [
        "enter: own pawn on track:4 (the start exit)"]


def test_must_bump_explains_the_pawns_it_rules_out(tmp_path, monkeypatch):
    """H17: when a move bumps an opponent, a bumping move must be taken."""
    monkeypatch.chdir(tmp_path)
    Path("h17.yaml").write_text("extends: standard\nrules: {must_bump: true}\n")
    report = why(pos("3", ["track:20", "track:40", "start", "start"], {"blue": ["track:23"]}), rules=("h17.yaml",))
    assert [m["text"] for m in report["moves"]] == ["Red pawn track:20 -> track:23, bumps Blue (track:23)"]
    assert blocked(report)[("red", "track:40")] == [
        "its moves are not allowed (rules.must_bump: a move that bumps an opponent is required)"]
    assert report["filtered"] == [{"text": "Red pawn track:40 -> track:43",
                                   "filter": "rules.must_bump: a move that bumps an opponent is required"}]


def test_hand_play_names_the_card_in_each_reason(tmp_path, monkeypatch):
    """P4, P5: in hand play every card of the hand is tried."""
    monkeypatch.chdir(tmp_path)
    Path("hand.yaml").write_text("extends: standard\nturn: {source: hand, hand_size: 2}\n")
    position = {"players": ["red", "blue"], "turn": "red", "hand": ["3", "sorry"],
                "pawns": {"red": ["start", "safety:4", "home", "home"]}}
    report = why(position, rules=("hand.yaml",))
    assert {m.get("discard") for m in report["moves"]} == {"3", "sorry"}
    assert all(m["why"] == [] for m in report["moves"])
    assert blocked(report) == {
        ("red", "safety:4"): ["card 3: forward 3: would overshoot Home (2 steps to Home)", "card sorry only moves pawns out of Start"],
        ("red", "start"): ["card 3 cannot start a pawn", "card sorry: sorry opponent: no opponent pawn on the track to replace"],
        ("red", "home"): ["pawns in Home never move"],
    }


def test_moves_why_cli_text_and_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("p.json").write_text(json.dumps(pos("1", ["start", "track:4", "home", "home"])))
    text = invoke("moves", "--state", "p.json", "--why")
    one_forward = where('  "1": enter', "forward 1")
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines() == [
        "red to play, card 1:",
        "   1. Red pawn track:4 -> track:5",
        f"      from card 1, option 2: forward 1  ({one_forward})",
        "no move for:",
        "  red pawn start: enter: own pawn on track:4 (the start exit)",
        "  red pawns home: pawns in Home never move",
    ]
    data = json.loads(invoke("moves", "--state", "p.json", "--why", "--format", "json").stdout)
    assert data["moves"][0]["why"][0]["option"] == 2
    assert data["blocked"][0] == {"colour": "red", "at": "start", "pawns": 1, "reasons": [
        {"card": "1", "option": 1, "effect": "enter", "code": "own_pawn", "text": "enter: own pawn on track:4 (the start exit)"}]}
    assert data["conditions"] == []
    plain = json.loads(invoke("moves", "--state", "p.json", "--format", "json").stdout)
    assert "blocked" not in plain and "why" not in plain["moves"][0]


def test_a_guard_that_does_not_hold(tmp_path, monkeypatch):
    """A house rule whose 1 starts a pawn only once the player has a pawn Home."""
    monkeypatch.chdir(tmp_path)
    Path("late.yaml").write_text("extends: standard\ncards:\n  '1': enter if home(player) > 0 | forward 1\n")
    report = why(pos("1", ["start", "start", "start", "start"]), rules=("late.yaml",))
    assert report["forfeit"] is True
    assert blocked(report) == {("red", "start"): ["enter: only if home(player) > 0 (false)"]}
    assert report["blocked"][0]["reasons"][0]["condition"] == [{"part": "home(player) > 0", "holds": False}]
    report = why(pos("1", ["start", "start", "start", "home"]), rules=("late.yaml",))
    assert [m["why"][0]["text"] for m in report["moves"]] == ["enter if home(player) > 0"]


def test_reasons_are_structured_and_guards_show_each_part():
    """Issue 11: the standard 11's guarded pass, as short structured reasons (R24, A14)."""
    report = why(pos("11", ["track:10", "start", "start", "start"], {"blue": ["track:20"]}))
    assert report["conditions"] == [{
        "card": "11", "option": 3, "text": "pass if can(switch opponent) and not can(forward 11)",
        "where": where('  "11": forward', "pass if"), "effect": "pass", "holds": False,
        "condition": [{"part": "can(switch opponent)", "holds": True}, {"part": "not can(forward 11)", "holds": False}]}]
    assert report["blocked"] == [{"colour": "red", "at": "start", "pawns": 3, "reasons": [
        {"card": "11", "option": None, "effect": None, "code": "cannot_start", "text": "card 11 cannot start a pawn"}]}]
    report = why(pos("11", ["safety:1", "track:0", "home", "home"], {"blue": ["track:20"]}))
    safety = [b for b in report["blocked"] if b["at"] == "safety:1"][0]["reasons"]
    assert [(r["option"], r["effect"], r["code"]) for r in safety] == [
        (1, "forward 11", "overshoot"), (2, "switch opponent", "not_on_track")]
    assert all(len(r["text"].split()) <= 12 for r in safety)
    assert report["conditions"][0]["holds"] is True


def test_a_pass_whose_guard_holds_but_that_a_hand_does_not_offer_says_why():
    """A21: the 11's pass holds (a switch, no forward 11) but the hand's 1, 5 and 8 move a
    pawn otherwise, so the 11 is not declined; --why says so under the condition. With only
    the 11 and cards that cannot move, the pass is offered and nothing is noted."""
    explained = load_explained("points")
    game = explained.game
    pawns = {"red": ["safety:5", "track:58", "home", "home"], "blue": ["track:30"]}

    def report(hand):
        parsed = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "pawns": pawns,
                                       "hand": hand}, None)
        return add_why(game, explained.cards, parsed, moves_report(game, parsed))

    held = report(["11", "1", "12", "5", "8"])
    assert not any(m.get("pass") for m in held["moves"])
    assert [g["note"] for g in held["conditions"] if g["effect"] == "pass"] == [
        "not offered: the cards here have a play that is no switch (another card's move or a hand action), and a "
        "card is declined only when every play is a switch (A21)"]
    assert "    not offered: the cards here have a play" in format_why_text(held)
    offered = report(["11", "12", "12", "12", "12"])
    assert any(m.get("pass") for m in offered["moves"])
    assert not any("note" in g for g in offered["conditions"])


def test_a_pass_is_worded_with_the_hand_rule_where_cards_come_from_a_hand():
    """A21: from a hand, the 11 is declined only when every card that can move may pass too;
    drawing one card (A14 alone), the pass has only its guard."""
    hand = " ".join(explain_text(load_explained("points"), only=("11",)).split())
    drawn = " ".join(explain_text(load_explained("standard"), only=("11",)).split())
    assert "or pass (play nothing; from a hand, only when every card in it that can move may pass too, A21), only if" in hand
    assert "or pass (play nothing), only if" in drawn


def test_a_compound_guard_names_each_part(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("both.yaml").write_text(
        "extends: standard\ncards:\n  '1': enter if home(player) > 0 and start(player) < 4 | forward 1\n")
    report = why(pos("1", ["start", "start", "start", "track:30"]), rules=("both.yaml",))
    assert blocked(report)[("red", "start")] == ["enter: only if home(player) > 0 (false) and start(player) < 4 (true)"]
    text = format_why_text(report)
    assert "  card 1, option 1 (enter): does not hold\n    home(player) > 0: no\n    start(player) < 4: yes" in text


def test_source_text_round_trips_every_bundled_card():
    """explain.source_text prints DSL that parses back to the same tree (positions aside)."""
    for name in ("standard", "partnership", "points"):
        for rule in load_explained(name).cards.values():
            text = source_text(rule.effect)
            assert source_text(dsl.parse_effect(text)) == text
    for text in ("(forward 2 then draw_again) if 1 - (2 - 3) * (4 + 5) > -(1 + 2) and not not true",
                 "(forward 1 | backward 1) then enter if home(player) > 0 or start(team) == 4",
                 "(forward 1 then backward 1 | enter) if true",
                 "split 10 into forward 9, backward 1 other", "split 7 into forward 3 any, forward",
                 "enter then forward 6 own unmoved", "enter then forward 3 moved",
                 "forward 12 then send every opponent bumped to start_exit"):
        assert source_text(dsl.parse_effect(text)) == text


def test_explain_words_filters_consequences_and_counters():
    """H20, H21, H22 and H17 in words, each located in its overlay."""
    text = " ".join(explain_text(load_explained("points", ("house/revenge-7.yaml", "house/bump-bonus.yaml",
                                                           "house/bump-points.yaml", "house/must-bump.yaml"))).split())
    assert "Filter 'revenge_7' on cards 7 - house/revenge-7.yaml:8" in text
    assert ("When, for some move, the number of your opponents' pawns this move sends back to Start is more than 0, "
            "only the moves for which it holds are legal.") in text
    assert "Filter on every card - house/must-bump.yaml:8" in text
    assert "Counter 'bumps made' (bumps_made), per player, starts at 0, never below 0 - house/bump-points.yaml:7" in text
    assert "to your counter 'bumps made'." in text
    assert "Your counter 'bumps made'." in text


def test_explain_words_whose_pawns_a_named_square_spares(tmp_path):
    """`board.squares.*.safe` (REFERENCE, named squares) is said by relation to the side's colour."""
    rule = tmp_path / "safe.yaml"
    rule.write_text("extends: ludo\nboard:\n  squares:\n    start_square: {at: [8], capture: true, safe: [own, partner]}\n",
                    encoding="utf-8")
    text = " ".join(explain_text(load_explained(str(rule))).split())
    assert "The side's own colour's and its partners' pawns are never captured there" in text


def test_a_slide_into_the_next_side_and_a_one_square_safety_zone_are_said_plainly(tmp_path):
    """A slide's offsets past the side's last square are counted on into the next side (REFERENCE,
    Slide); one safety square is 'a safety zone of 1 square'."""
    rule = tmp_path / "cross.yaml"
    rule.write_text("extends: standard\nboard:\n  side_length: 8\n  start_exit: 3\n  safety_entry: 1\n  safety_length: 1\n"
                    "  slides:\n    - {from: 5, to: 10}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained(str(rule))).split())
    assert "Slides from offset 5 to 10 (offset 2 of the next side) of every side" in text
    assert "a safety zone of 1 square, then Home" in text


def test_a_slides_own_takers_are_said_and_a_word_listed_twice_is_refused(tmp_path):
    """`board.slides.*.slide_on` (REFERENCE, Slide) is said slide by slide, by relation to the
    side's colour, with where it is written; a word listed twice there is SR516 at it."""
    rule = tmp_path / "takers.yaml"
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 1, to: 4, slide_on: [own, opponent]}\n"
                    "    - {from: 9, to: 13, slide_on: []}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained(str(rule))).split())
    assert f"The slide from 1 to 4 is taken by the side's own colour's and its opponents' pawns, whatever " \
           f"rules.slide_on says - {rule}:4" in text
    assert f"The slide from 9 to 13 is taken by no pawn, whatever rules.slide_on says - {rule}:5" in text
    assert "(when rules.slide_on, or the slide's own slide_on below, lets it)" in text
    rule.write_text("extends: standard\nboard:\n  slides:\n    - {from: 1, to: 4}\n"
                    "    - {from: 9, to: 13, slide_on: [own, own]}\n", encoding="utf-8")
    result = invoke("validate", str(rule))
    assert result.exit_code == 1 and f"{rule}:5:" in result.output and "board.slides.1.slide_on: 'own' is listed twice [SR516]" \
        in result.output, result.output


def test_explain_words_dice_squares_and_follow_ups():
    """The constructs of the race games in words: the dice and how a throw is spent, what the
    squares hold, named squares, a throw's whole total, blockades, the facts of a throw,
    consequences of forfeits and the moves that follow a move (after: then:)."""
    text = explain_text(load_explained("parcheesi"))
    assert "throw 2 dice each turn (faces 1, 2, 3, 4, 5, 6), spent die by die" in " ".join(text.split())
    assert "A square holds up to 2 pawns" in text
    assert "Square 'safety space' (safe, shown o) at offset 4, 8 of every side" in text
    assert "Only a pawn that moves by enter captures there" in text
    assert "A throw adding up to 5 may be spent whole" in text
    assert "A die showing 5" in text
    assert "2 or more pawns of one colour together (any) cannot be passed over or landed on" in text
    assert "After a move or a forfeit ('third_doubles')" in text
    assert "the dice thrown show one face (doubles)" in text
    assert "then, as part of the move, move one pawn forward 20" in text
    assert "the one nearest Home back to its Start" in text
    ludo = " ".join(explain_text(load_explained("ludo")).split())
    assert "If the throw cannot move a pawn and" in ludo and "throw again, at most 2 extra throw(s) a turn" in ludo
    exits = explain_text(load_explained("standard", ["house/start-exit-penalty.yaml"]))
    assert "on an opponent's start exit that this move moved (where its count ended)" in exits
    soft = " ".join(explain_text(load_explained("standard", [str(OPTIONS / "bumped-start-exit.yaml")])).split())
    assert ("If the number of any pawns that this move sent back to Start is more than 0: then, as part of the move, send "
            "any pawn that this move sent back to Start (every one at once) to its start exit") in soft


def test_explain_words_a_grid_game():
    """Sequence in words: seats and hands per player count (S1, S4), what a line is and how
    lines share (S10, S11), the free corners, the dead-card exchange (S6) and the pass (S9)."""
    text = " ".join(explain_text(load_explained("sequence")).split())
    assert text.startswith("sequence: 2, 3, 4, 6, 8, 9, 10, 12 players in 3 chip colours (blue, green, red), 104 cards")
    assert "a hand of 7 with 2 players, 6 with 3 players" in text and "3 with 12 players" in text
    assert "a line is 5 cells in a row along rows, columns and diagonals; two lines counted together share at most " \
           "1 cell" in text
    assert "Cells marked ** are free" in text
    assert "a dead card (one with no play) may be exchanged" in text
    assert "a full round of passes ends the game without a winner" in text
    assert "pawns each" not in text


def test_explain_names_the_teams_and_every_switch_set_away_from_its_default():
    """An overlay that changes only `rules:` or `setup:` (H10, H5) shows what it changed, with
    the field's meaning; partnership names its teams (T1) and its control (T2)."""
    own = " ".join(explain_text(load_explained("standard", ("house/slide-own-colour.yaml",))).split())
    assert "Rule rules.slide_on: own, partner, opponent (default partner, opponent) - house/slide-own-colour.yaml:" in own
    assert "Whose slides a pawn takes when it ends a move on their triangle" in own
    quick = " ".join(explain_text(load_explained("standard", ("house/quick-start.yaml",))).split())
    assert "Rule setup.on_start_exit: 1 (default 0) - house/quick-start.yaml:" in quick
    teams = " ".join(explain_text(load_explained("partnership")).split())
    assert "Teams (partners play together): red and yellow; blue and green - partnership.yaml:" in teams
    assert "Rule rules.control: team (default own)" in teams
    plain = explain_text(load_explained("standard"))
    assert "Rule " not in plain and "Teams" not in plain


def test_explain_shows_the_labels_authors_give():
    """A filter's, a consequence's and an added alternative's `label` are the author's words:
    explain quotes them under each."""
    text = explain_text(load_explained("standard", ("house/mercy-start.yaml", "house/revenge-7.yaml")))
    assert '"H27 mercy start: a marked pawn leaves Start with any card that moves forward"' in text
    assert '"H27 mercy: a pawn sent back to Start is marked"' in text
    assert '"H20 revenge: a way of playing the 7 bumps an opponent, so the 7 must bump"' in " ".join(text.split())


def test_an_added_alternative_is_said_apart_from_the_pass_it_widens():
    """A14 with H27: the 11's pass (whose condition the overlay widened) and the added mercy
    start read as separate alternatives, and the pass says where its condition was widened;
    in partnership the 11 switches any pawn the player controls (T2)."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    explained = load_explained("standard", ("house/mercy-start.yaml",))
    text = " ".join(explain_text(explained, only=("11",)).split())
    assert "you could not bring out of Start a pawn you control, marked 'mercy'; or bring out of Start" in text
    assert "(standard.yaml:42:40; its condition widened by house/mercy-start.yaml:" in text
    partners = " ".join(explain_text(load_explained("partnership"), only=("11",)).split())
    assert "switch a pawn you control on the track with an opponent's pawn" in partners


def test_an_alternative_the_card_has_already_is_said_once(tmp_path):
    """H6 written as `also: {having: [forward], effect: enter}` gives the 1 and the 2 a
    second `enter`: the options list both, where each is written; the sentence says it once."""
    overlay = tmp_path / "h6.yaml"
    overlay.write_text("extends: standard\nalso:\n  starts: {having: [forward], effect: enter}\n")
    text = explain_text(load_explained("standard", (str(overlay),)), only=("1",))
    assert "  Start a pawn, or move one pawn forward 1.\n" in text
    assert text.count(": enter  (") == 2


def test_aggregates_and_then_are_worded_plainly():
    """An aggregate names the colours it runs over ("among the players", not "of the all
    players"), and `A then B` says that either plays alone where the other cannot (REFERENCE
    section 2.1); a draw again after it needs no such words (R19)."""
    from sorry_rules.authoring.explain import effect_words, expr_words

    assert expr_words(dsl.parse_expr("max(p in players: home(p)) == home(player)")) == (
        "the largest, over each p among the players, of the number of p's pawns in Home equals the number of your "
        "pawns in Home")
    assert "how many o among your opponents have" in expr_words(dsl.parse_expr("count(o in opponents: home(o) > 0) > 1"))
    assert effect_words(dsl.parse_effect("enter then forward 1")).endswith("(either alone where the other cannot be played)")
    assert "cannot be played" not in effect_words(dsl.parse_effect("forward 2 then draw_again"))


def test_explain_says_the_board_and_groups_either_or():
    """AUTHORING: without --card, explain starts with the board: the sides' start exits and
    safety zones and the slides (R6, R26, R31); a win of two `and`s joined by `or` says which
    goes with which (S13), and `sides` is said in words."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    standard = " ".join(explain_text(load_explained("standard")).split())
    assert ("Each side has 15 squares (offsets 0 to 14, clockwise): pawns leave Start onto offset 4; after offset 2 a "
            "pawn of the side's colour turns into a safety zone of 5 squares, then Home") in standard
    assert "Slides from offset 1 to 4 and 9 to 13 of every side" in standard
    sequence = " ".join(explain_text(load_explained("sequence")).split())
    assert ("Either (the number of sides (chip colours) in the game equals 2 and the number of your team's sequences is "
            "at least 2), or (the number of sides") in sequence


def test_alternatives_inside_a_condition_are_not_taken_for_the_cards_own():
    """H27 and H28 together: the 11's pass condition names both added plays with ', or'
    inside it; only the card's own alternatives are parted by '; or'."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    text = " ".join(explain_text(load_explained("standard", ("house/mercy-start.yaml", "house/safety-sprint.yaml")),
                                 only=("11",)).split())
    assert ("you could not either bring out of Start a pawn you control, marked 'mercy', or move a pawn you control in "
            "its safety zone straight to its Home; or bring out of Start") in text


def test_a_condition_in_brackets_keeps_them_in_every_word_of_it(tmp_path):
    """`A and (B or C)`: `moves --why` shows the part in brackets, explain says it in
    brackets, and the board's line is located where the overlay wrote its board."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    path = tmp_path / "paren.yaml"
    path.write_text('extends: standard\nboard: {side_length: 12, start_exit: 3, safety_entry: 1, safety_length: 4, '
                    'slides: []}\ncards:\n  "3": forward 3 if home(player) > 0 and (start(player) == 0 or '
                    'track(player) > 1)\n')
    explained = load_explained(str(path))
    text = " ".join(explain_text(explained).split())
    assert ("and (the number of your pawns in Start equals 0 or the number of your pawns on the track is more than 1)"
            in text)
    assert re.search(r"safety zone of 4 squares, then Home - \S*paren\.yaml:2 ", text)
    from sorry_rules.authoring.why import Explainer
    from sorry_rules.records.position import parse_position

    state = parse_position(explained.game, {"players": ["red", "blue"], "turn": "red", "card": "3",
                                            "pawns": {"red": ["track:10"]}}).state
    guard = explained.cards["3"].effect
    _, parts = Explainer(explained.game, explained.cards).condition(guard.condition, 0, explained.game.board(state))
    assert [part["part"] for part in parts] == ["home(player) > 0", "(start(player) == 0 or track(player) > 1)"]


def test_one_card_is_explained_with_what_follows_its_moves(tmp_path):
    """`explain --card 2` says the filters and consequences that apply to the 2 (not those
    of other cards), a consequence with no condition as "Always", a counter's bounds when
    the file sets them, and wraps every long line."""
    overlay = tmp_path / "twos.yaml"
    overlay.write_text("extends: standard\ncounters:\n  twos: {max: 3}\nafter:\n  count_two: {cards: ['2'], add: {twos: 1}}\n"
                       "  other: {cards: ['5'], when: twos(player) > 0, add: {twos: 0 - twos(player)}}\n"
                       "filters:\n  two_not_home: {cards: ['2'], must: reaches_home(player) == 0}\n")
    explained = load_explained("standard", (str(overlay),))
    card = explain_text(explained, only=("2",))
    assert "Filter 'two_not_home' on cards 2" in card and "After a move of cards 2 ('count_two')" in card
    assert "  Always: add 1 to your counter 'twos'." in card and "'other'" not in card
    cards = explain_text(explained, only=("2", "5", "7"))  # several cards: what applies to one of them, once
    assert cards.count("Filter 'two_not_home'") == cards.count("('count_two')") == cards.count("('other')") == 1
    whole = explain_text(explained)
    assert "Counter 'twos' (twos), per player, starts at 0, never above 3 -" in " ".join(whole.split())
    assert all(len(line) <= 90 or line.startswith("    option ") for line in whole.splitlines())


def test_why_shows_the_counter_guard_of_a_cards_second_part(tmp_path):
    """`A then (draw_again if twos(player) < 2)`: --why lists the guard of B among the
    conditions (read after A, on counters A does not change), so an author sees why a 2
    did not draw again; a guard of B that reads the board is not listed (it is judged on
    the board A leaves)."""
    rules = tmp_path / "twos.yaml"
    rules.write_text('extends: standard\ncounters: {twos: {min: 0}}\n'
                     'cards: {"2": "(enter | forward 2) then (draw_again if twos(player) < 2)",\n'
                     '        "3": "forward 3 then (draw_again if home(player) > 0)"}\n'
                     'after: {c: {cards: ["2"], add: {twos: 1}}}\n')
    explained = load_explained(str(rules))
    game = explained.game
    for card, twos, conditions in (("2", 2, [("draw_again", False)]), ("2", 0, [("draw_again", True)]), ("3", 0, [])):
        parsed = parse_position(game, {"players": ["red", "blue"], "turn": "red", "card": card,
                                       "counters": {"red": {"twos": twos}}, "pawns": {"red": ["track:20"]}}, None)
        report = add_why(game, explained.cards, parsed, moves_report(game, parsed))
        assert [(g["effect"], g["holds"]) for g in report["conditions"]] == conditions
        assert all(g["note"].startswith("after the first part") for g in report["conditions"])


def test_a_count_of_pawns_reads_its_qualities_without_commas(tmp_path):
    """H31's mark in a count (a filter) reads as one noun phrase; the effect that places it on
    one pawn keeps its qualities after commas."""
    rule = tmp_path / "counted.yaml"
    rule.write_text("extends: house/freeze.yaml\nfilters:\n  f: {cards: [\"1\"], prefer: "
                    "\"count(pawns opponent marked frozen alone) > 0\"}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained(str(rule))).split())
    assert "the number of opponents' pawns alone on their squares marked 'frozen' is more than 0" in text
    assert "on an opponent's pawn on the track, alone on its square, not marked 'frozen'" in text


def test_a_counter_is_named_by_its_label_wherever_it_is_read(tmp_path):
    """A counter with a `label` is named by it in the filters, conditions and additions of
    `explain`, as in its own heading (they named it by its key: 'lose turn')."""
    overlay = tmp_path / "lose.yaml"
    overlay.write_text("extends: standard\ncounters:\n  lose_turn: {max: 1, label: turns to lose}\nafter:\n"
                       "  victim: {when: bumps(opponents) > 0, add: {lose_turn: 1}, to: bumped opponent}\n"
                       "filters:\n  lost: {must: lose_turn(player) == 0}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained("standard", (str(overlay),))).split())
    assert "Counter 'turns to lose' (lose_turn)" in text
    assert "Only moves for which your counter 'turns to lose' equals 0 are legal." in text
    assert "add 1 to the counter 'turns to lose' of the owner of each opponent's pawn" in text
    assert "'lose turn'" not in text
