"""The moves oracle: every legal move in a position, as data and as text.

Contract: `moves_report(game, position)` returns plain JSON-ready data:
  {"variant", "turn", "card" | "hand", "moves": [{"text", "result", ...}], "forfeit", "draw_again"}
`result` is the whole placement after the move (bumps and slides applied); with dice the
report also gives the faces of the `"throw"` (its `"card"` is the throw's name, "3+5"). A forfeit is
`"moves": []` with `"forfeit": true` (where `after:` consequences follow forfeits, each way the
forfeit can go is listed as a move with `"forfeit": true`, its consequences and counters with
it); a legal pass carries `"pass": true`; in hand play each
move names its `"card"`, and a stuck hand's moves are `"discard"` choices (placement
unchanged). In team play `"turn"` is the player; its moves may move the partners' pawns.
A move that ends the game carries `"wins": true`, `"winner"` (the colour whose win
condition held, the mover first: another may win by the mover's move), `"winners"` (every
colour that wins with it: its partners too in team play, T8), never `"draw_again"` (no
card follows it), and, when the variant scores, `"scores": {colour: points}` for every seated colour;
played for `places`, a move after which a side finishes carries `"finishes"` (its colours; the
mover's turn ends there) and one that ends the game `"places": {colour: place}`. The
report's `"draw_again"` is true when some move listed draws again, or when the card
forfeited still does (a 2). Under `after:` consequences or
`counters:` every move also carries `"after"` (the labels of the consequences it triggers),
`"extra_cards"` (the cards its player takes next, the card's own extra draw included) and,
with counters, `"counters": {colour: {name: value}}` after it (the report's `"counter_labels"`,
{name: label}, name them in the text). A position with cards still due (`cards_due`) reports
`"cards_due"`, and a forfeit that lists no move, `"extra_cards"` (they come all the same). Under `marks:` every move
carries `"marks": {mark: [{"colour", "square", "by"}]}`, the marks once it is played (its
consequences and the next turn's beginning included), and the report carries the
position's own `"marks"`.
Turn policies (`turn.take`, `turn.redraw`, `turn.actions`): a position with several cards
drawn reports `"cards"` (in the order drawn) instead of `"card"`, and each move names the
`"card"` it plays and the `"discards"` that go with it; a `redraw` move carries
`"redraw": label` and `"discard"` (the card it discards; with several drawn, the rest in
`"discards"`); an `action` carries
`"action": label`, its `"card"` and the other cards it plays, `"with"`. Under any turn
policy every move also says what it does to the turn: `"next"` (the colour to play next;
left out after a winning move) and, with `turn.redraw`, `"redraws"` (extra cards taken this turn after it); the report
gives the position's `"redraws"`.
"""

from __future__ import annotations

from sorry_rules.base.words import and_list
from sorry_rules.engine.describe import describe_move, marks_data, placement_names


def moves_report(game, position) -> dict:
    state = position.state
    moves = game.legal_moves(state)
    report: dict = {"variant": game.name, "turn": game.colours[state.seats[state.turn]]}
    policy = game.take > 1 or game.redraw is not None or bool(game.actions)
    report.update(_what_is_played(game, position))
    if game.marks:
        report["marks"] = marks_data(game, state.marks)
    if game.redraw is not None:
        report["redraws"] = state.redraws
    if game.counters:
        report["counter_labels"] = {name: label for name, _, label in game.counters}
    if state.bonus:
        report["cards_due"] = state.bonus
    listed, forfeit, draw_again = [], False, False
    for move in moves:
        if move.kind == "forfeit":
            forfeit = True
            draw_again = move.draw_again
            if not move.events and not getattr(game, "after_forfeit", ()):
                if state.bonus:  # the cards still due come all the same
                    report["extra_cards"] = _extra_cards(state, move, game.apply(state, move))
                continue  # listed only where consequences follow a forfeit (after: forfeits: true)
        entry = _entry(game, position, move, policy)
        draw_again = draw_again or entry.get("draw_again", False)
        listed.append(entry)
    report.update(moves=listed, forfeit=forfeit, draw_again=draw_again)
    return report


def _entry(game, position, move, policy: bool) -> dict:
    """One move of the report (module contract)."""
    state, seats = position.state, position.state.seats
    after = game.apply(state, move)  # the state the move leads to, read by every mark below
    if after.winner is not None and move.draw_again:
        move = move._replace(draw_again=False)  # the game ends at once (R35): no card follows a winning move
    entry: dict = {"text": describe_move(game, move), "result": placement_names(game, move.placement, seats)}
    if (position.hand is not None or position.drawn) and move.kind not in ("discard", "redraw"):
        entry["card"] = game.card_names[move.card]
    if move.kind == "pass":
        entry["pass"] = True
    if move.kind == "forfeit":  # a forfeit that consequences follow (after: forfeits: true)
        entry["forfeit"] = True
    if move.kind in ("discard", "redraw"):
        entry["discard"] = game.card_names[move.card]
    if policy:
        _mark_turn(game, state, move, after, entry)
    if move.draw_again:
        entry["draw_again"] = True
    if move.kind == "move" or game.after:  # with consequences a pass or a forfeit may win too (counters)
        _mark_game_end(game, state, after, entry)
    if game.after or game.counters:
        _mark_consequences(game, state, move, after, entry)
    if game.marks:
        entry["marks"] = marks_data(game, game.marks_after(state, move))
    return entry


def _what_is_played(game, position) -> dict:
    """The report's "hand", "cards" (drawn together) or "card" (with dice, also the faces of
    the "throw")."""
    if position.hand is not None:
        return {"hand": [game.card_names[c] for c in position.hand]}
    if position.drawn:
        return {"cards": [game.card_names[c] for c in (position.card,) + position.drawn]}
    if getattr(game, "dice", None) is not None:
        return {"card": game.card_names[position.card], "throw": list(game.dice.throws[position.card])}
    return {"card": game.card_names[position.card]}


def _mark_turn(game, state, move, after, entry: dict) -> None:
    """What a move does to the turn under a turn policy: the cards discarded with it, the
    redraw or action it is, who plays next and the extra cards taken this turn after it."""
    names = game.card_names
    if state.drawn:
        unplayed = list((state.card,) + state.drawn)
        unplayed.remove(move.card)
        entry["discards"] = [names[c] for c in unplayed]
    if move.kind == "redraw":
        entry["redraw"] = move.label
    if move.kind == "action":
        entry["action"] = move.label
        entry["with"] = [names[c] for c in move.cards]
    if after.winner is None:  # a winning move ends the game: no one plays next
        entry["next"] = game.colours[after.seats[after.turn]]
    if game.redraw is not None:
        entry["redraws"] = after.redraws


def _mark_consequences(game, state, move, after, entry: dict) -> None:
    """What follows the move under `after:`: the labels of the consequences it triggers
    ("after"; after a winning or finishing move, not those that would only give an extra card, and
    those listed for their counters, marks or effect whose extra card is void, "no_extra"), those
    whose `then:` effect had no way to be played ("unplayed", when there are some), the
    extra cards the player takes next, the card's own included ("extra_cards"), and, when
    the variant declares counters, every seated colour's counters after it ("counters")."""
    fired, unplayed = game.followed_by(state, move)
    if after.winner is not None or state.turn in after.finished:  # the game (R35) or the mover's part ends at once:
        # an extra card alone gives nothing; one that also counts, marks or moves is listed, its extra card said void
        fired = [c for c in fired if c.adds or c.marks or c.then is not None or not c.draw_again]
        void = [c.label for c in fired if c.draw_again]
        if void:
            entry["no_extra"] = void
    entry["after"] = [c.label for c in fired]
    if unplayed:
        entry["unplayed"] = [c.label for c in unplayed]
    entry["extra_cards"] = _extra_cards(state, move, after)
    if game.counters:
        entry["counters"] = {game.colours[c]: {name: after.counters[c][i] for i, (name, _, _) in enumerate(game.counters)}
                             for c in state.seats}


def _extra_cards(state, move, after) -> int:
    """The cards the mover takes next, as the game played it: the move's own extra draw, its
    consequences' and those still due from earlier moves of the turn (`State.bonus`, a
    position's `cards_due`); none after a win; a redraw is one."""
    if after.winner is not None or (len(state.seats) > 1 and after.turn != state.turn):
        return 0  # the game or the turn ended (`ends_turn` drops the extra cards still due)
    kept = int(move.draw_again) if len(state.seats) == 1 else 1
    return after.bonus + kept


def _mark_game_end(game, state, after, entry: dict) -> None:
    newly = after.finished[len(state.finished):]
    if newly:  # played for places: the sides whose win condition now holds finish
        entry["finishes"] = [game.colours[after.seats[seat]] for seat in newly]
    if after.winner is None:
        return
    entry["wins"] = True
    entry["winner"] = game.colours[after.seats[after.winner]]
    outcome = game.outcome(after)
    entry["winners"] = [game.colours[after.seats[seat]] for seat in outcome.winning_seats]
    if game.scoring:
        entry["scores"] = {game.colours[after.seats[seat]]: total for seat, (total, _) in outcome.scores.items()}
    if game.places > 1:
        entry["places"] = {game.colours[c]: place for c, place in zip(after.seats, outcome.places)}


def _end_words(report: dict, move: dict) -> str:
    """'  (wins: red 12, blue 3)', '  (blue finishes; the game ends; places: red 1, ...)' or
    '  (blue finishes)' after a move's text, or ''."""
    finishes = f"{and_list(move['finishes'])} finish{'es' if len(move['finishes']) == 1 else ''}" \
        if move.get("finishes") else ""
    if move.get("wins"):
        if "places" in move:
            ranked = sorted(move["places"].items(), key=lambda item: item[1])
            return f"  ({finishes + '; ' if finishes else ''}the game ends; places: " + \
                ", ".join(f"{c} {p}" for c, p in ranked) + ")"
        scores = ": " + ", ".join(f"{c} {p}" for c, p in move["scores"].items()) if "scores" in move else ""
        who = "" if move["winner"] == report["turn"] else f"{move['winner']} "  # a rule may make another win
        return f"  ({who}wins{scores})"
    return f"  ({finishes})" if finishes else ""


def marks_text(marks: dict) -> str:
    """`frozen: blue track:20 (by red); mercy: none` for a `marks` entry of the report."""
    return "; ".join(f"{name}: " + (", ".join(f"{e['colour']} {e['square']} (by {e['by']})" for e in entries) or "none")
                     for name, entries in marks.items())


def _heading(report: dict, noun: str) -> str:
    """What the player to move plays ('card 5', 'throw 3+5', 'hand ...'), and where the
    position has them, its redraws (where some were taken, or a move is one) and the cards
    still due."""
    if "throw" in report:
        what = f"throw {report['card']}"
    elif "card" in report:
        what = f"card {report['card']}"
    elif "cards" in report:
        what = f"cards {', '.join(report['cards'])} (play one, discard the rest)"
    else:
        what = f"hand {', '.join(report['hand'])}"
    if "redraws" in report and (report["redraws"] or any("redraw" in move for move in report.get("moves", ()))):
        taken = report["redraws"]  # redraws under turn.redraw (each takes as many cards as a draw): said where they count
        again = f"{taken} extra throw{'' if taken == 1 else 's'}" if "throw" in report else \
            f"{taken} redraw{'' if taken == 1 else 's'}"
        what += f"; {again} (turn.redraw) already this turn"
    if report.get("cards_due"):
        due = report["cards_due"]
        what += f"; {due} extra {noun}{'' if due == 1 else 's'} still due this turn"
    return what


def _forfeit_line(report: dict) -> str:
    """A forfeit that lists no move, and whether a card follows it (its own, or one still due)."""
    lost = "the cards are discarded" if "cards" in report else "the throw is lost" if "throw" in report else \
        "the card is forfeited"
    verb = "throws" if "throw" in report else "draws"
    if report["draw_again"]:
        return f"  no legal move: {lost} (then {verb} again)"
    if report.get("extra_cards"):
        return f"  no legal move: {lost} (then {verb} again: still due this turn)"
    return f"  no legal move: {lost}"


def format_report_text(report: dict, details=None) -> str:
    """The report as text; `details(move)` may add indented lines under each move."""
    noun = "throw" if "throw" in report else "card"
    lines = [f"{report['turn']} to play, {_heading(report, noun)}:"]
    if report.get("marks") is not None:
        lines.append(f"  marks: {marks_text(report['marks'])}")
    if report["forfeit"] and not report["moves"]:  # a forfeit that consequences follow is listed as its ways
        lines.append(_forfeit_line(report))
    for i, move in enumerate(report["moves"], 1):
        prefix = f"[{move['card']}] " if "card" in move else ""
        lines.append(f"  {i:2}. {prefix}{move['text']}{_end_words(report, move)}")
        void, ended = move.get("no_extra", ()), "the game is won" if move.get("wins") else f"{report['turn']} has finished"
        lines.extend(f"      after: {label}" + (f" (no extra {noun}: {ended})" if label in void else "")
                     for label in move.get("after", []))
        lines.extend(f"      not played (no way): {label}" for label in move.get("unplayed", []))
        if move.get("discards") or move.get("redraw"):  # a redraw discards its own card too
            own = [move["discard"]] if move.get("redraw") and move.get("discard") else []
            lost = "throw lost" if "throw" in report else "discards"
            lines.append(f"      {lost}: {', '.join(own + move.get('discards', []))}")
        if "next" in move:
            word = "extra throw" if "throw" in report else "redraw"
            taken = f" ({move['redraws']} {word}{'' if move['redraws'] == 1 else 's'} this turn)" if move.get("redraws") else ""
            lines.append(f"      next: {move['next']}{taken}")
        if move.get("extra_cards"):
            lines.append(f"      extra {noun}s: {move['extra_cards']}")
        if move.get("marks") is not None:
            lines.append(f"      marks after: {marks_text(move['marks'])}")
        if "counters" in move:
            labels = report.get("counter_labels", {})
            values = "; ".join(f"{colour} " + ", ".join(f"{labels.get(name) or name} {value}" for name, value in named.items())
                               for colour, named in move["counters"].items())
            lines.append(f"      counters after: {values}")
        if details is not None:
            lines.extend(details(move))
    return "\n".join(lines)
