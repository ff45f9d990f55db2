"""Marks on pawns and pawn selectors (docs/REFERENCE.md `marks`, `also` and section 2.4):
what the scenarios cannot show. Marks survive save and resume, follow their lifetimes over
whole games (every invariant, tests/invariants.py `check_marks`), are written and refused in
position files with located codes, and `count(pawns ...)` reads them in conditions."""

from __future__ import annotations

import pytest

from sorry_rules.base.errors import PositionError, RuleFileError
from sorry_rules.compiler import load_game
from sorry_rules.engine import marks as engine_marks
from sorry_rules.authoring.oracle import moves_report
from sorry_rules.players.registry import make_player
from sorry_rules.players.runner import GameRecord, play_game
from sorry_rules.records.position import parse_position
from sorry_rules.records.savefile import new_save, read_save, restore, state_digest, write_save

from .randomplay import play_random
from .sizes import short_and_full

OVERLAYS = ["house/mercy-start.yaml", "house/safety-sprint.yaml", "house/sorry-safety.yaml", "house/freeze.yaml"]
ALL_FOUR = tuple(OVERLAYS)


@pytest.mark.parametrize("games", short_and_full(1, 40))
@pytest.mark.parametrize("variant", ["standard", "partnership", "points"])
@pytest.mark.parametrize("rule", OVERLAYS)
def test_random_games_keep_every_invariant(variant, rule, games):
    game = load_game(variant, (rule,))
    for seed in range(games):
        played = play_random(game, seed, game.players_max, spec=variant, rules=(rule,))
        assert played.final.winner is not None


@pytest.mark.parametrize("games", short_and_full(2, 40))
def test_all_four_together_in_partnership(games):
    game = load_game("partnership", ALL_FOUR)
    for seed in range(games):
        assert play_random(game, seed, 4, spec="partnership", rules=ALL_FOUR).final.winner is not None


def _saved(game, spec, rules, seed, plies):
    state = game.new_game(seed, players=4)
    record = GameRecord(seed, state.seats, state.turn)
    kinds = ("bot:random", "bot:greedy", "bot:random", "bot:greedy")
    players = [make_player(k[4:], seed, seat) for seat, k in enumerate(kinds)]
    final = play_game(game, state, players, max_plies=plies, record=record)
    saved = new_save(game, spec, rules, seed, state, kinds, 20_000)
    saved.choices = list(record.choices)
    saved.reached(final)
    return saved, final


def test_marks_survive_save_and_resume(tmp_path):
    """A game with freezes and mercy marks, saved while marks are on the board, resumes to the
    same state, marks and who placed them included (H27, H31)."""
    rules = ("house/freeze.yaml", "house/mercy-start.yaml")
    game = load_game("standard", rules)
    for seed in range(40):
        for plies in range(20, 300, 7):
            saved, final = _saved(game, "standard", list(rules), seed, plies)
            if final.winner is None and all(final.marks):
                break
        else:
            continue
        break
    else:
        pytest.fail("no seed gave a game with both kinds of mark on the board")
    path = tmp_path / "game.json"
    write_save(path, saved)
    again = read_save(path)
    restored_game, state = restore(again)
    assert state == final and state.marks == final.marks
    assert state_digest(state) == saved.state_digest
    # the digest covers the marks: the same state without them is another state
    assert state_digest(state._replace(marks=engine_marks.empty(game.marks))) != saved.state_digest


def test_freeze_ends_when_the_freezer_turn_begins():
    """Red freezes blue; blue, yellow and green play; when red's turn begins the freeze is gone
    (and at most one freeze per player is ever on the board: check_marks)."""
    game = load_game("standard", ("house/freeze.yaml",))
    pos = parse_position(game, {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "sorry",
                                "pawns": {"red": ["track:10"], "blue": ["track:20"], "yellow": ["track:40"],
                                          "green": ["track:50"]}})
    state = pos.state
    freeze = [m for m in game.legal_moves(state) if m.events and m.events[0][0] == "mark"
              and m.events[0][1:3] == (1, 20)]
    assert len(freeze) == 1
    state = game.apply(state, freeze[0])
    assert state.marks == (((1, 20, 0),),)
    for _ in range(3):  # blue, yellow and green play a card each
        state = game.draw(state)
        moves = game.legal_moves(state)
        assert all((1, 20) not in {(e[1], e[2]) for e in m.events if e[0] in ("forward", "backward", "split")}
                   for m in moves), "the frozen pawn never moves"
        before = state.turn
        state = game.apply(state, moves[0])
        if state.turn == before:  # a 2 draws again: play on until the turn passes
            continue
    while state.turn != 0:
        state = game.apply(game.draw(state), game.legal_moves(game.draw(state))[0])
    assert state.marks == ((),), "red's turn began: red's freeze ended"


def _position(game, data):
    base = {"players": ["red", "blue", "yellow", "green"], "turn": "red", "card": "5"}
    return parse_position(game, {**base, **data})


def test_position_marks_refused_with_located_codes():
    game = load_game("standard", ("house/freeze.yaml",))
    with pytest.raises(PositionError) as caught:
        _position(game, {"pawns": {"blue": ["track:20"]},
                         "marks": {"frozen": [{"colour": "blue", "square": "track:21", "by": "red"},
                                              {"colour": "purple", "square": "track:20"},
                                              {"colour": "blue", "square": "track:99", "by": "red"}],
                                   "frosen": []}})
    codes = sorted(p.code for p in caught.value.problems)
    assert codes == ["SR501", "SR561", "SR601", "SR605"]
    text = str(caught.value)
    assert "did you mean 'frozen'" in text and "<position>:1:1" in text


def test_position_counts_marked_pawns_in_start():
    """A24: Start holds alike pawns; a position lists each marked one; more marks than pawns
    there is SR605."""
    game = load_game("standard", ("house/mercy-start.yaml",))
    ok = _position(game, {"pawns": {"red": ["track:30"]}, "marks": {"mercy": [{"colour": "red", "square": "start"}] * 3}})
    assert ok.state.marks == (((0, game.layout.start[0], 0),) * 3,)
    with pytest.raises(PositionError) as caught:
        _position(game, {"pawns": {"red": ["track:30"]}, "marks": {"mercy": [{"colour": "red", "square": "start"}] * 4}})
    assert [p.code for p in caught.value.problems] == ["SR605"]


def test_moves_report_lists_marks_after_each_move():
    game = load_game("standard", ("house/freeze.yaml",))
    report = moves_report(game, _position(game, {"card": "sorry", "pawns": {"red": ["track:10"], "blue": ["track:20"]}}))
    assert report["marks"] == {"frozen": []}
    after = sorted(str(m["marks"]) for m in report["moves"])
    assert after == sorted([str({"frozen": []}), str({"frozen": [{"colour": "blue", "square": "track:20", "by": "red"}]})])


COUNTING = """\
extends: standard
marks:
  hunted: {until: moves, label: hunted}
after:
  hunt: {when: bumps(opponents) > 0, mark: {hunted: moved}}
cards:
  "3": forward 3 | forward 13 if count(pawns opponent marked hunted) > 0
"""


def test_count_pawns_reads_marks_in_a_guard(tmp_path):
    """`count(pawns SELECTOR)` with marks in a card's guard: the 3 may go 13 while an
    opponent's pawn is marked; the mark is placed by an `after:` consequence on the moved pawn."""
    path = tmp_path / "counting.yaml"
    path.write_text(COUNTING)
    game = load_game(str(path))
    plain = _position(game, {"card": "3", "pawns": {"red": ["track:30"]}})
    assert len(game.legal_moves(plain.state)) == 1
    marked = _position(game, {"card": "3", "pawns": {"red": ["track:30"], "blue": ["track:50"]},
                              "marks": {"hunted": [{"colour": "blue", "square": "track:50"}]}})
    assert sorted(m.placement[0] for m in game.legal_moves(marked.state)) == [(33, 84, 84, 84), (43, 84, 84, 84)]
    bump = _position(game, {"card": "5", "pawns": {"red": ["track:30"], "blue": ["track:35"]}})
    move = game.legal_moves(bump.state)[0]
    assert game.apply(bump.state, move).marks == (((0, 35, 0),),), "the pawn that bumped is hunted"


@pytest.mark.parametrize("text, code", [
    ("cards: {sorry: mark frosty opponent in track}", "SR302"),
    ("cards: {sorry: send opponent in safety to track:99}", "SR508"),
    ("cards: {sorry: send opponent opponent to start}", "SR304"),
    ("cards: {sorry: send opponent marked frozen unmarked frozen to start}", "SR304"),
    ("cards: {sorry: move every controlled in safety to home}", "SR304"),
    ("cards: {sorry: enter every marked frozen}", "SR304"),
    ("cards: {\"3\": forward 3 every}", "SR304"),
    ("cards: {sorry: sorry if count(pawns every opponent) > 0}", "SR304"),
])
def test_selector_errors_are_located(tmp_path, text, code):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: house/freeze.yaml\n" + text + "\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    assert code in [p.code for p in caught.value.problems]
    assert all(p.line == 2 for p in caught.value.problems if p.code == code)


@pytest.mark.parametrize("destination", ["track:99", "safety:0", "safety:6"])
def test_a_square_off_the_board_is_located_at_the_square(tmp_path, destination):
    """SR508 points at the destination written, not at the `send` or `move` before it."""
    line = f"cards: {{sorry: sorry | move own in track to {destination}}}"
    path = tmp_path / "bad.yaml"
    path.write_text("extends: standard\n" + line + "\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    [problem] = [p for p in caught.value.problems if p.code == "SR508"]
    assert (problem.line, problem.col) == (2, line.index(destination) + 1)


def test_play_screen_shows_marked_pawns_with_and_without_colour():
    """A frozen pawn is drawn with the mark's symbol (no colour needed) and the panel lists
    who froze which pawn; mercy pawns in Start are counted there."""
    from sorry_rules.cli import screen

    game = load_game("standard", ("house/freeze.yaml", "house/mercy-start.yaml"))
    position = _position(game, {"pawns": {"blue": ["track:20"], "red": ["track:10"]},
                                "marks": {"frozen": [{"colour": "blue", "square": "track:20", "by": "red"}],
                                          "mercy": [{"colour": "green", "square": "start"}] * 2}})
    scene = screen.state_scene(game, position.state, "test", ("you", "bot", "bot", "bot"))
    text = "\n".join(line.plain for line in screen.render_scene(scene, 120))
    assert "B#" in text
    assert "frozen #: Blue track:20 (by Red)" in text
    assert "mercy +: Green start x2 (by Green)" in text
    plain = screen.state_scene(game, position.state._replace(marks=engine_marks.empty(game.marks)), "test",
                               ("you", "bot", "bot", "bot"))
    assert "B#" not in "\n".join(line.plain for line in screen.render_scene(plain, 120))


def test_win_condition_reads_marks(tmp_path):
    """`count(pawns ...)` in `win:` sees the marks after the move (consequences included), and
    such a win is judged after every move, not only when a pawn reaches Home."""
    path = tmp_path / "bounty-win.yaml"
    path.write_text(COUNTING.replace('cards:\n  "3": forward 3 | forward 13 if count(pawns opponent marked hunted) > 0\n',
                                     "win: home(team) == pawns(team) or count(pawns own marked hunted) >= 1\n"))
    game = load_game(str(path))
    bump = _position(game, {"card": "5", "pawns": {"red": ["track:30"], "blue": ["track:35"]}})
    after = game.apply(bump.state, game.legal_moves(bump.state)[0])
    assert after.winner == 0, "red's pawn is hunted after its bump: red's win condition holds"
    quiet = _position(game, {"card": "5", "pawns": {"red": ["track:30"]}})
    assert game.apply(quiet.state, game.legal_moves(quiet.state)[0]).winner is None


def test_why_names_the_mark_that_stops_a_pawn_and_the_option_of_also():
    """`moves --why`: a frozen pawn cannot move (its mark is named), a landing on a frozen pawn
    is forbidden by its mark, and a freeze comes from the Sorry!'s added alternative."""
    from sorry_rules.authoring.explain import load_explained
    from sorry_rules.authoring.why import add_why

    explained = load_explained("standard", ("house/freeze.yaml",))
    game = explained.game
    position = _position(game, {"pawns": {"red": ["track:15", "track:30", "track:40"], "green": ["track:20"]},
                                "marks": {"frozen": [{"colour": "green", "square": "track:20", "by": "yellow"},
                                                     {"colour": "red", "square": "track:40", "by": "blue"}]}})
    report = add_why(game, explained.cards, position, moves_report(game, position))
    reasons = {pawn["at"]: [r["text"] for r in pawn["reasons"]] for pawn in report["blocked"]}
    assert reasons["track:40"] == ["marked 'frozen': a frozen pawn cannot move"]
    assert reasons["track:15"] == ["forward 5: the green pawn on track:20 is marked 'frozen': no move may land on it or take it"]
    sorry = _position(game, {"card": "sorry", "pawns": {"red": ["track:10"], "blue": ["track:20"]}})
    report = add_why(game, explained.cards, sorry, moves_report(game, sorry))
    freeze = next(m for m in report["moves"] if m["text"].startswith("marks"))
    assert [(w["card"], w["option"]) for w in freeze["why"]] == [("sorry", 2)]
    assert freeze["why"][0]["where"].startswith("house/freeze.yaml:")


def test_why_judges_a_guard_that_reads_marks():
    """`moves --why` judges every guarded option now: the 11's pass under H27 reads
    `not can(enter marked mercy)` (A21, H27)."""
    from sorry_rules.authoring.explain import load_explained
    from sorry_rules.authoring.why import add_why

    explained = load_explained("standard", ("house/mercy-start.yaml",))
    game = explained.game
    position = _position(game, {"card": "11", "pawns": {"red": ["track:58"], "blue": ["track:20"]},
                                "marks": {"mercy": [{"colour": "red", "square": "start"}]}})
    report = add_why(game, explained.cards, position, moves_report(game, position))
    (guard,) = [c for c in report["conditions"] if c["card"] == "11"]
    assert guard["holds"] is False  # the marked pawn can leave Start: the 11 may not be declined
    assert guard["condition"][-1] == {"part": "not can(enter marked mercy)", "holds": False}


def test_why_names_what_stops_an_added_enter():
    """H27 on a 5 (`also:` adds `enter marked mercy`): a marked pawn in Start is stopped by
    the own pawn on its start exit (R9), an unmarked one because the selector does not choose
    it; not "the card cannot start a pawn"."""
    from sorry_rules.authoring.explain import load_explained
    from sorry_rules.authoring.why import add_why

    explained = load_explained("standard", ("house/mercy-start.yaml",))
    game = explained.game

    def reasons(pawns, marks):
        position = _position(game, {"card": "5", "pawns": {"red": pawns}, "marks": {"mercy": marks}})
        report = add_why(game, explained.cards, position, moves_report(game, position))
        return {pawn["at"]: [r["text"] for r in pawn["reasons"]] for pawn in report["blocked"]}

    marked = [{"colour": "red", "square": "start", "by": "blue"}]
    assert reasons(["track:4", "start", "start", "start"], marked)["start"] == \
        ["enter marked mercy: own pawn on track:4 (the start exit)"]
    assert reasons(["track:10", "start", "start", "start"], [])["start"] == \
        ["enter marked mercy: it moves a pawn you control, marked 'mercy', and this pawn is not one"]


def test_explain_words_each_card_with_its_added_alternatives():
    """The card's sentence is the card as played; under a 2's trailing `then draw_again` an
    added alternative draws again too (A13, H27), and its option says so."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    explained = load_explained("standard", ("house/mercy-start.yaml",))
    two = explained.cards["2"].options
    assert [o.text for o in two] == ["(enter | forward 2) then draw_again", "(enter marked mercy) then draw_again"]
    text = " ".join(explain_text(explained).split())
    assert ("Either start a pawn, or move one pawn forward 2, or bring out of Start a pawn you control, marked "
            "'mercy', then draw again.") in text
    assert explained.cards["4"].options[0].text == "backward 4"


def test_explain_words_marks_and_added_alternatives():
    from sorry_rules.authoring.explain import explain_text, load_explained

    text = " ".join(explain_text(load_explained("standard", ("house/freeze.yaml", "house/mercy-start.yaml"))).split())
    assert "Mark 'frozen' (frozen, shown #) - house/freeze.yaml:" in text
    assert "a marked pawn cannot move" in text and "Until the pawn leaves its Start." in text
    assert "Also on cards sorry ('freeze')" in text
    assert "Also on every card whose effect has forward or split ('mercy_start')" in text
    assert "mark every pawn it bumped 'mercy'" in text
    assert "option 2: enter marked mercy (house/mercy-start.yaml:" in text


def test_explain_words_the_relation_that_narrows_a_consequences_mark(tmp_path):
    """`after: mark:` with a relation (REFERENCE, Consequence `mark`) is said with it."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    rule = tmp_path / "rel.yaml"
    rule.write_text("extends: partnership\nmarks:\n  hit: {until: leaves_start}\n  ran: {until: moves}\n"
                    "after:\n  one: {mark: {hit: bumped opponent, ran: moved partner}}\n"
                    "  two: {mark: {hit: bumped own, ran: moved other}}\n", encoding="utf-8")
    text = " ".join(explain_text(load_explained(str(rule), ())).split())
    assert "Always: mark every opponent's pawn it bumped 'hit'; mark every partner's pawn it moved 'ran'." in text
    assert "Always: mark every pawn of your own it bumped 'hit'; mark every pawn of another colour it moved 'ran'." in text


def test_an_added_alternative_joins_the_condition_of_the_elevens_pass():
    """R17, A21: an `also:` alternative is a move that must be made if nothing else is, so the
    11's `pass if C` is played as `C and not can(the alternative)`, and explain says so at
    the pass's own place in standard.yaml; a card without a pass is left as written."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    explained = load_explained("standard", ("house/safety-sprint.yaml",))
    eleven = explained.cards["11"].options
    assert eleven[2].text == ("pass if can(switch opponent) and not can(forward 11) "
                              "and not can(move controlled in safety to home)")
    assert eleven[2].where.startswith("standard.yaml:")
    assert explained.cards["3"].options[0].text == "forward 3"
    assert "and you could not move a pawn you control in its safety zone straight to its Home" in \
        " ".join(explain_text(explained).split())


def test_selectors_narrow_forward_backward_and_split(tmp_path):
    """The same selector after `forward N`, `backward N` and `split N`: only the chosen pawns
    move (here: the 3 goes forward in the safety zone only, or back on the track; the 7's
    parts only for pawns on the track)."""
    path = tmp_path / "zones.yaml"
    path.write_text('extends: standard\ncards:\n  "3": forward 3 in safety | backward 3 in track\n'
                    '  "7": split 7 in track\n')
    game = load_game(str(path))
    pos = _position(game, {"card": "3", "pawns": {"red": ["safety:1", "track:30"]}})
    names = sorted(tuple(game.layout.name(sq) for sq in m.placement[0]) for m in game.legal_moves(pos.state))
    assert names == [("track:27", "safety:1", "start", "start"), ("track:30", "safety:4", "start", "start")]
    pos = _position(game, {"card": "7", "pawns": {"red": ["safety:1", "track:30", "track:40"]}})
    for move in game.legal_moves(pos.state):
        assert all(e[2] in (30, 40) for e in move.events if e[0] == "split"), move.events


def test_pawns_in_home_are_never_sent_or_moved(tmp_path):
    """Regression (fuzzing): `send`/`move` never take a pawn out of Home (R33); a `marked`
    selector in a variant whose marks are all off the board chooses nothing."""
    path = tmp_path / "home.yaml"
    path.write_text('extends: house/freeze.yaml\ncards:\n  "3": send any in home to start | move any in home to track:30\n'
                    '  "5": forward 5 marked frozen\n')
    game = load_game(str(path))
    pos = _position(game, {"card": "3", "pawns": {"red": ["home", "track:10"], "blue": ["home"]}})
    assert [m.kind for m in game.legal_moves(pos.state)] == ["forfeit"]
    pos = _position(game, {"card": "5", "pawns": {"red": ["track:10"]}})
    assert [m.kind for m in game.legal_moves(pos.state)] == ["forfeit"]


def test_every_acts_on_all_the_chosen_pawns_at_once(tmp_path):
    """`send every S` and `mark M every S`: one move acting on every pawn S chooses (none: no
    move), where `send S` and `mark M S` offer one move per pawn; pawns that cannot be sent
    are left out."""
    path = tmp_path / "every.yaml"
    path.write_text('extends: house/freeze.yaml\ncards:\n  "3": send every opponent in track to start\n'
                    '  "5": send opponent in track to start\n  "8": mark frozen every opponent in track\n')
    game = load_game(str(path))
    pawns = {"red": ["track:10"], "blue": ["track:20", "track:30", "safety:2"], "yellow": ["track:40"]}
    every = game.legal_moves(_position(game, {"card": "3", "pawns": pawns}).state)
    names = [[[game.layout.name(sq) for sq in squares] for squares in m.placement[1:3]] for m in every]
    assert names == [[["safety:2", "start", "start", "start"], ["start"] * 4]], "blue's two and yellow's one"
    one = game.legal_moves(_position(game, {"card": "5", "pawns": pawns}).state)
    assert len(one) == 3
    marked = game.legal_moves(_position(game, {"card": "8", "pawns": pawns}).state)
    assert len(marked) == 1 and sorted(e[1:3] for e in marked[0].events) == [(1, 20), (1, 30), (2, 40)]
    alone = game.legal_moves(_position(game, {"card": "3", "pawns": {"red": ["track:10"], "blue": ["safety:1"]}}).state)
    assert [m.kind for m in alone] == ["forfeit"]


def test_unmark_every_takes_each_mark_once_in_start(tmp_path):
    """`unmark KIND every own in start` with two pawns in Start, one marked: one unmark of the
    marked pawn (the unmarked one carries nothing to take off)."""
    path = tmp_path / "cure.yaml"
    path.write_text("extends: standard\nmarks:\n  sick: {until: removed}\nafter:\n  sicken: {when: bumps(players) > 0, "
                    "mark: {sick: bumped}}\nalso:\n  cure: {cards: ['2'], effect: unmark sick every own in start}\n")
    game = load_game(str(path))
    pos = _position(game, {"card": "2", "pawns": {"red": ["start", "start", "track:10", "track:20"]},
                           "marks": {"sick": [{"colour": "red", "square": "start", "by": "blue"}]}})
    cures = [m for m in game.legal_moves(pos.state) if any(e[0] == "unmark" for e in m.events)]
    assert len(cures) == 1 and [e[0] for e in cures[0].events] == ["unmark"]
    assert game.apply(pos.state, cures[0]).marks == ((),)


@pytest.mark.parametrize("name", ["moved", "every", "farthest", "nearest", "alone", "card"])
def test_a_mark_named_like_any_word_of_the_dsl_is_refused(tmp_path, name):
    """REFERENCE: a mark may not be named like a DSL word (SR560): the selector words
    `moved`, `every`, `farthest`, `nearest` too (`mark every every opponent in track` would
    read two ways), not only some of them."""
    from sorry_rules.rules.loader import load_variant
    from sorry_rules.compiler import compile_variant

    path = tmp_path / "mine.yaml"
    path.write_text(f"extends: standard\nmarks:\n  {name}: {{immobile: true}}\n"
                    f"also:\n  stun: {{cards: [sorry], effect: mark {name} opponent in track}}\n")
    with pytest.raises(RuleFileError) as refused:
        compile_variant(load_variant(str(path)))
    assert "SR560" in {p.code for p in refused.value.problems}


def test_every_pawn_in_start_marked_or_sent_is_said_once_with_their_number(tmp_path):
    """`mark M every own in start` on three pawns is one move: said once, with how many."""
    path = tmp_path / "every.yaml"
    path.write_text("extends: standard\nmarks:\n  vip: {}\ncards:\n  '5': mark vip every own in start\n"
                    "  '8': send every own in start to home\n  '3': forward 3 marked vip\n")
    game = load_game(str(path))
    report = moves_report(game, _position(game, {"card": "5", "pawns": {"red": ["start", "start", "start", "track:10"]}}))
    assert [m["text"] for m in report["moves"]] == ["marks Red pawn start vip (3 pawns)"]
    report = moves_report(game, _position(game, {"card": "8", "pawns": {"red": ["start", "start", "track:10", "home"]}}))
    assert [m["text"] for m in report["moves"]] == ["sends Red pawn start to home (2 pawns)"]
