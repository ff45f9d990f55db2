"""Invariants every state and every move of every variant must satisfy (used by the game,
property and fuzz tests). Each check raises AssertionError with a message naming the rule.

  check_state(game, state)             pawns, occupancy, colours in safety/Home, cards, hands
  check_step(game, before, move, after) one applied move: events, Home, turn, plies, winner
  check_outcome(game, state)           a finished game: winner, team, score lines and totals
"""

from __future__ import annotations

import weakref

_TABLES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class _Tables:
    """Per-game facts the checks need, computed once per game object."""

    def __init__(self, game):
        layout = game.layout
        # allowed[c]: squares a colour-c pawn may stand on (track, own safety, own Home, own Start)
        self.allowed = tuple(
            frozenset(sq for sq in range(layout.size) if layout.colour_of_square(sq) in (None, c))
            for c in range(layout.C)
        )
        self.deck = sorted(game.deck)


def _tables(game) -> _Tables:
    tables = _TABLES.get(game)
    if tables is None:
        tables = _TABLES[game] = _Tables(game)
    return tables


def check_state(game, state) -> None:
    """Raise AssertionError when `state` breaks a rule that holds in every game."""
    layout = game.layout
    facts = _tables(game)
    on_square: dict = {}  # square below X -> the colours of the pawns there
    seats = state.seats
    for c, squares in enumerate(state.placement):
        if c in seats:
            assert len(squares) == game.pawns, f"{game.colours[c]} has {len(squares)} pawns, not {game.pawns}"
        else:
            assert not squares, f"{game.colours[c]} is not playing but has pawns"
        assert list(squares) == sorted(squares), f"{game.colours[c]}'s squares are not sorted (canonical placement)"
        allowed = facts.allowed[c]
        for sq in squares:
            assert sq in allowed, f"{game.colours[c]} pawn on square {sq} ({'off the board' if not 0 <= sq < layout.size else 'another colour' + chr(39) + 's ' + layout.name(sq)})"
            if sq < layout.X:
                on_square.setdefault(sq, []).append(c)
    for sq, colours in on_square.items():
        if layout.hold[sq] == 1:
            assert len(colours) == 1, "two pawns on one track or safety square (R16)"
        assert len(colours) <= layout.hold[sq], f"{len(colours)} pawns on {layout.name(sq)}, which holds {layout.hold[sq]}"
        assert len(set(colours)) == 1 or layout.share[sq], f"pawns of two colours on {layout.name(sq)}, which they may not share"
    if getattr(game, "dice", None) is not None:  # throws come from the dice: no pile, no discards, no hands
        assert not state.pile and not state.discard and state.hands is None, "a dice game keeps no cards"
        assert state.card is None or 0 <= state.card < len(game.dice.throws), "the throw is one of the dice's"
        assert 0 <= state.turn < len(seats), "turn is not a seat"
        assert state.winner is None or 0 <= state.winner < len(seats), "winner is not a seat"
        check_marks(game, state)
        return
    cards = list(state.pile) + list(state.discard)
    if state.card is not None:
        cards.append(state.card)
    cards.extend(state.drawn)
    assert len(state.drawn) < game.take if state.card is not None else not state.drawn, "more cards drawn than turn.take"
    assert 0 <= state.redraws <= (game.redraw.at_most if game.redraw is not None else 0), "redraws beyond turn.redraw"
    if state.hands is not None:
        assert len(state.hands) == len(seats), "one hand per seat"
        for hand in state.hands:
            cards.extend(hand)
            if state.pile or state.discard:
                assert len(hand) == game.hand_size, f"a hand holds {len(hand)} cards while cards remain to draw (P4)"
    assert sorted(cards) == facts.deck, "cards are not conserved (pile + discards + hands + cards drawn = deck)"
    assert 0 <= state.turn < len(seats), "turn is not a seat"
    check_marks(game, state)
    assert state.winner is None or 0 <= state.winner < len(seats), "winner is not a seat"


def check_marks(game, state) -> None:
    """Marks (engine.marks) sit on pawns: one per kind on a pawn of a square below X, at most
    as many as the pawns on Start or Home; a kind with one_per_player has one per placer; a
    kind that ends when its pawn leaves a zone is only on pawns in that zone."""
    if not game.marks:
        assert state.marks == (), "a variant without marks has none"
        return
    assert len(state.marks) == len(game.marks), "one entry per mark kind"
    for kind, entries in zip(game.marks, state.marks):
        assert list(entries) == sorted(entries), f"mark {kind.name}: entries not sorted"
        for c, sq, by in set(entries):
            here = state.placement[c].count(sq)
            assert here >= sum(1 for e in entries if e[:2] == (c, sq)), \
                f"mark {kind.name} on {game.colours[c]} {game.layout.name(sq)} without a pawn to carry it"
            assert by in state.seats, f"mark {kind.name} placed by a colour not seated"
            if kind.until.startswith("leaves_"):
                zone = kind.until[len("leaves_"):]
                assert game_zone(game, c, sq) == zone, f"mark {kind.name} outlived its pawn leaving {zone}"
        if kind.one_per_player:
            bys = [e[2] for e in entries]
            assert len(bys) == len(set(bys)), f"mark {kind.name}: a player has two"


def game_zone(game, c: int, sq: int) -> str:
    layout = game.layout
    if sq < layout.T:
        return "track"
    if sq < layout.X:
        return "safety"
    return "home" if sq == layout.home[c] else "start"


def placement_after_events(game, placement, events) -> tuple:
    """Apply a move's events to `placement` one by one (mechanics.py event contract)."""
    start = game.layout.start
    pos = [list(squares) for squares in placement]

    def move(c, frm, to, event):
        assert frm in pos[c], f"event {event} moves a {game.colours[c]} pawn that is not on {frm}"
        pos[c].remove(frm)
        pos[c].append(to)

    for event in events:
        if event[0] == "bump":
            _, o, at = event
            move(o, at, start[o], event)
        elif event[0] == "switch":
            _, a, sa, b, sb = event
            move(a, sa, sb, event)
            move(b, sb, sa, event)
        elif event[0] in ("mark", "unmark", "carry"):
            assert len(event) == 5 and event[3] < len(game.marks), f"bad mark event {event}"
        else:
            assert len(event) == 4, f"unknown event {event}"
            _, c, frm, to = event
            move(c, frm, to, event)
    return tuple(tuple(sorted(squares)) for squares in pos)


def _wins(game, state, colour) -> bool:
    return game.win_holds(colour, state.placement, state.counters, state.marks)


def check_step(game, before, move, after) -> None:
    """One applied move: the move is data that explains the new placement (events replay to
    it), Home pawns never move (R33), plies count moves, the turn passes unless the move
    draws again or ends the game, and the game ends exactly when a win condition holds.
    Played for places (`places` > 1): a side finishes exactly when its win condition holds,
    finished seats stay finished and never move, the turn passes over them, a side that
    finishes ends its turn, and the game ends exactly when `places` sides finished or one is
    left, its winner the first to finish."""
    assert after.plies == before.plies + 1, "plies count applied moves"
    assert after.seats == before.seats, "seats never change"
    assert after.placement == move.placement, "the new placement is the move's placement"
    if move.kind == "move":
        assert move.events, "a move that moves has events"
    elif move.kind == "forfeit" and move.events:  # the effect of a consequence that follows forfeits (after: then:)
        assert any(c.forfeits and c.then is not None for c in game.after), "a forfeit moves pawns only by after: then:"
    else:
        assert not move.events and move.placement == before.placement, f"a {move.kind} changes nothing on the board"
    assert placement_after_events(game, before.placement, move.events) == move.placement, \
        f"the events {move.events} do not lead to the move's placement"
    for c, squares in enumerate(before.placement):
        home = game.layout.home[c]
        assert after.placement[c].count(home) >= squares.count(home), f"a {game.colours[c]} pawn left Home (R33)"
    finished = after.finished
    assert finished[:len(before.finished)] == before.finished and before.turn not in before.finished, \
        "a seat that finished stays finished and never moves"
    assert (game.places > 1 or not finished) and len(set(finished)) == len(finished)
    if after.winner is None:
        fired = game.consequences(before, move)
        extra = any(c.draw_again for c in fired)  # after: extra cards (H21)
        ends = any(c.ends_turn for c in fired) or before.turn in finished  # a side that finished ends its turn
        stays = (move.draw_again or extra or before.bonus > 0) and not ends
        expected = before.turn
        if not stays:
            expected = (before.turn + 1) % len(before.seats)
            while expected in finished:
                expected = (expected + 1) % len(before.seats)
        assert after.turn == expected, "the turn passes clockwise (over the seats that finished) unless the move (or a " \
            "consequence) draws again (R3, R19) and no consequence ends the turn"
        assert after.turn == before.turn or after.bonus == 0, "extra cards are not handed to the next player"
        if move.kind == "move":
            for seat, colour in enumerate(after.seats):
                assert not _wins(game, after, colour) or seat in finished, \
                    f"{game.colours[colour]}'s win condition holds but the game goes on (R35)"
    else:
        assert _wins(game, after, after.seats[after.winner]), "the winner's win condition does not hold"
        assert game.places == 1 or after.winner == finished[0], "played for places, the first to finish wins"
    if game.places > 1:
        sides = {game.team_of[c] for c in after.seats}
        done = {game.team_of[after.seats[s]] for s in finished}
        assert all(_wins(game, after, after.seats[s]) for s in finished[len(before.finished):]), \
            "a side finishes when its win condition holds"
        assert (after.winner is not None) == (bool(done) and (len(done) >= game.places or len(sides) - len(done) <= 1)), \
            "played for places, the game ends once that many sides finished or one is left (a game of one side: once it finishes)"


def check_outcome(game, state) -> None:
    """Outcome of a state: None while the game runs; once over, the winner's team wins and
    every seat's total is the sum of its score lines, one line per scoring component
    (winner-only components only for the winning seats), in the rule file's order."""
    outcome = game.outcome(state)
    if state.winner is None:
        assert outcome is None, "an unfinished game has no outcome"
        return
    assert outcome.winner == state.winner
    team = game.team_of[state.seats[state.winner]]
    assert outcome.winning_seats == tuple(i for i, c in enumerate(state.seats) if c in team), "winning seats = the winner's team"
    assert state.winner in outcome.winning_seats
    assert set(outcome.scores) == set(range(len(state.seats))), "every seat has a score"
    for seat, (total, lines) in outcome.scores.items():
        assert total == sum(line.points for line in lines), f"seat {seat}: total {total} is not the sum of its lines"
        expected = [label for label, for_winner, _ in game.scoring if not for_winner or seat in outcome.winning_seats]
        assert [line.label for line in lines] == expected, f"seat {seat}: score lines {lines} do not follow the rule file"
        assert all(isinstance(line.points, int) and not isinstance(line.points, bool) for line in lines), "points are integers"


def _followed(game, state, move) -> tuple:
    """The counters and the extra cards still due once `move` is played (`after:`)."""
    after = game.apply(state, move)
    return after.counters, after.bonus if after.turn == state.turn else 0


def check_moves(game, state, moves) -> None:
    """The legal moves of a running game: at least one; one move per distinct result (A24;
    with marks, the marks after it are part of the result, with consequences the counters
    and extra cards they give);
    every move plays the drawn card (draw play) or a card of the hand (hand play); a
    forfeit or the discards only when nothing else is possible (R11, P5)."""
    assert moves, "a running game always offers at least one move (a forfeit or a discard when stuck)"
    keys = [(m.card, m.placement, m.kind, m.draw_again, m.cards, m.label, m.marks) for m in moves]  # marks: A24 with marked pawns in Start
    if getattr(game, "after", ()) and len(keys) != len(set(keys)):  # ways of one placement apart by what follows them
        keys = [key + _followed(game, state, m) for key, m in zip(keys, moves)]
    assert len(keys) == len(set(keys)), "the same move is offered twice (A24)"
    kinds = {m.kind for m in moves}
    assert kinds <= {"move", "pass", "forfeit", "discard", "redraw", "action"}, f"unknown move kinds {kinds}"
    if "forfeit" in kinds:
        assert kinds == {"forfeit"}, "a forfeit is offered only when nothing else is"
        assert len(moves) == 1 or all(m.events for m in moves), "a forfeit is one move (its after: then: ways aside)"
    if "discard" in kinds:
        assert kinds == {"discard"}, "discards only when no card can move (P5)"
    if "redraw" in kinds:
        assert kinds == {"redraw"} and game.redraw is not None, "a redraw only when stuck, under turn.redraw"
        assert state.redraws < game.redraw.at_most, "no more redraws than turn.redraw.at_most"
    if "action" in kinds:
        assert game.actions and state.hands is not None, "hand actions only in hand play, under turn.actions"
    if state.hands is None:
        drawn = (state.card,) + state.drawn
        assert all(m.card in drawn for m in moves), "every move plays a card drawn this turn"
    else:
        hand = state.hands[state.turn]
        for m in moves:
            rest = list(hand)
            for card in (m.card, *m.cards) if m.card is not None else ():
                assert card in rest, "an action plays cards of the hand only"
                rest.remove(card)
        assert all(m.card is None and not hand or m.card in hand for m in moves), "every move plays a card of the hand"
