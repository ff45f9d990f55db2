"""Movement geometry in words, for `explain` and `moves --why` (docs/REFERENCE.md `geometry`).

Contract:
- `geometry_words(v, where, condition_words)` gives `explain`'s lines for a rule file's
  `geometry:` (empty when it has none; a turn's or blocker's `label` quoted under its name),
  unwrapped; `where(path)` places a field in its file, `condition_words(text)` says a turn's
  `when` condition in words.
- `route_notes(game, rules, move, mask)` gives, for one legal move, a line per step that left
  the plain edges of the board (a turn taken, a bounce, a stop in Home), naming the rule, from
  the engine's public `Routes.notes_of` (with the turns under a condition that are there,
  `mask`: `Game.turn_mask`); empty without geometry. It only explains: the
  engine decided the move.
"""

from __future__ import annotations

from itertools import product

from sorry_rules import dsl
from sorry_rules.authoring.analysis import primitives, rules_of

RELATION_WORDS = {"own": "an own", "partner": "a partner's", "opponent": "an opponent's", "other": "another colour's",
                  "any": "any"}
PAST_HOME = {"illegal": "a move that would count past Home is illegal (Home by exact count)",
             "stop": "a move that would count past Home stops in Home",
             "bounce": "a move that would count past Home bounces: the steps left at Home are counted back down the "
                       "safety zone; a bounce out of the zone is illegal, one may end on the square the pawn left",
             "start": "a move that would count past Home sends the pawn back to its Start"}


def geometry_words(v, where, condition_words=str) -> list[str]:
    g = getattr(v, "geometry", None)
    if g is None or (g.past_home is None and not g.turns and not g.blockers):
        return []
    lines = []
    if g.past_home is not None:
        lines.append(f"Past Home - {where(('geometry', 'past_home'))}")
        lines.append(f"  {PAST_HOME[g.past_home][:1].upper()}{PAST_HOME[g.past_home][1:]}.")
    for name, t in g.turns.items():
        at = {"safety_entry": "its own safety entry", "start_exit": "its own start exit"}.get(
            t.at, f"offset {t.at} of its own side")
        onto = ("onto its safety zone (safety:1, then up the zone towards Home)" if t.onto == "safety"
                else "on along the track, past the safety zone")
        how, tail = ("must turn", "") if t.must else ("may turn", "; the plain way and the turn are separate moves")
        lines.append(f"Turn '{name}' - {where(('geometry', 'turns', name))}")
        lines.extend([f'  "{t.label}"'] if t.label else [])
        lines.append(f"  A pawn moving {t.moving} that stands on {at} with steps still to go {how} {onto}{tail}.")
        if t.onto == "safety" and t.moving == "backward":
            lines.append("  A pawn backing out of its safety zone goes on along the track: it never turns back in.")
        if getattr(t, "when", None) is not None:
            lines.append(f"  Only while {condition_words(t.when)} (judged before each move, for the player to move).")
    for name, b in g.blockers.items():
        who = RELATION_WORDS[b.pawns] + " pawn" + (f" of colour {', '.join(b.colours)}" if b.colours else "")
        if getattr(b, "group", 1) > 1:
            who = f"{b.group} or more pawns of one colour together ({who.replace(' pawn', '')})"
        place = {"track": " on the track", "safety": " in a safety zone", "any": ""}[b.on]
        cannot = [verb for verb, flag in (("passed over", b.pass_), ("landed on", b.land)) if not flag]
        lines.append(f"Blocker '{name}' - {where(('geometry', 'blockers', name))}")
        lines.extend([f'  "{b.label}"'] if b.label else [])
        lines.append(f"  {who[:1].upper()}{who[1:]}{place} cannot be {' or '.join(cannot) or 'stopped by'}.")
    return lines


def _step_counts(game, rules: dict, card: int | None) -> dict:
    """direction -> the step counts the card's effect can move a pawn ("split" -> totals)."""
    counts: dict = {"forward": set(), "backward": set(), "split": set()}
    if card is None:
        return counts
    for node in (n for rule in rules_of(game, rules, card) for n in primitives(rule.effect)):
        if type(node) in _COUNTED:
            counts[_COUNTED[type(node)]].add(node.steps)
        elif type(node) in _COUNTED_BY:  # any count it may read (the route of the step made tells which)
            counts[_COUNTED_BY[type(node)]].update(range(1, game.layout.T + game.layout.L + 2))
    return counts


#: The primitives that move a pawn by a count of steps, and the direction each counts for.
_COUNTED = {dsl.Forward: "forward", dsl.Backward: "backward", dsl.Split: "split"}
#: The primitives that move a pawn by a count read on the board.
_COUNTED_BY = {dsl.ForwardBy: "forward", dsl.BackwardBy: "backward"}


def route_notes(game, rules: dict, move, mask: int = -1) -> list[str]:
    routes = game.mechanics.routes
    if routes is None:
        return []
    counts = _step_counts(game, rules, move.card)
    name = game.layout.name
    notes = []
    steps = [e for e in move.events if e[0] in ("forward", "backward")]
    most = game.layout.T + game.layout.L + 1
    for kind, c, frm, to in steps:
        # the card's counts first; a step of another count (a follow-up of `after:` `then:`): any count that leads there
        found = (routes.notes_of(kind, n, c, frm, to, mask) for n in (*sorted(counts[kind]), *range(1, most + 1)))
        notes.extend(_words(routes, next((f for f in found if f is not None), ()), c, frm, to, name, game))
    parts = [e for e in move.events if e[0] == "split"]
    if parts:
        notes.extend(_split_notes(routes, counts["split"], parts, name, game, mask))
    return notes


def _split_notes(routes, totals, parts, name, game, mask: int = -1) -> list[str]:
    """The notes of each split part, for part sizes that add up to the split's steps."""
    top = max(totals, default=1)
    options = [[(n, routes.notes_of(d, n, c, frm, to, mask)) for d in ("forward", "backward") for n in range(1, top)]
               for _, c, frm, to in parts]
    options = [[(n, notes) for n, notes in part if notes is not None] for part in options]
    for combo in product(*options):
        if sum(n for n, _ in combo) in totals:
            return [note for (_, c, frm, to), (_, notes) in zip(parts, combo)
                    for note in _words(routes, notes, c, frm, to, name, game)]
    return []


def _words(routes, notes: tuple, c: int, frm: int, to: int, name, game) -> list[str]:
    if not notes:
        return []
    pawn = f"{game.layout.colours[c]} pawn {name(frm)} -> {name(to)}"
    return [f"{pawn}: " + "; then ".join(routes.note_words(note) for note in notes)]
