"""Moves and positions in plain words, for front ends and the moves oracle.

Contract: pure functions of a compiled game and engine data; they never print.
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH

STEPS = STEP_KINDS  # the pawn's own moves (engine.events)


def colour_name(game, c: int) -> str:
    name = game.colours[c]
    return name[:1].upper() + name[1:]


def square_name(game, sq: int) -> str:
    return game.layout.name(sq)


def describe_events(game, events) -> str:
    """'Red pawn track:12 -> track:19, bumps Blue' style text of resolved events."""
    segments: list[list[str]] = []
    carried: list[str] = []  # labels of the marks the next pawn leaving Start or Home carries
    for event in events:
        kind = event[0]
        if kind in STEPS:
            _, c, frm, to = event
            which = f" ({', '.join(carried)})" if carried else ""
            carried = []
            segments.append([f"{colour_name(game, c)} pawn{which} {square_name(game, frm)} -> {square_name(game, to)}"])
        elif kind == "carry":
            carried.append(game.marks[event[3]].label)
        elif kind == SWITCH:
            _, c, a, o, b = event
            mine = f"{colour_name(game, c)} pawn {square_name(game, a)}"
            theirs = f"{colour_name(game, o)} pawn {square_name(game, b)}"
            segments.append([f"{mine} <-> {theirs}"])
        elif kind == SLIDE:
            _, c, frm, to = event
            text = f"slides to {square_name(game, to)}"
            if segments and not segments[-1][0].startswith(colour_name(game, c)):
                text = f"{colour_name(game, c)} pawn {text}"
            (segments[-1] if segments else segments.append([]) or segments[-1]).append(text)
        elif kind == BUMP:
            _, c, at = event
            text = f"bumps {colour_name(game, c)} ({square_name(game, at)})"
            if not segments:
                text = f"sends {colour_name(game, c)} pawn {square_name(game, at)} back to start"
            (segments[-1] if segments else segments.append([]) or segments[-1]).append(text)
        elif kind in MARK_WORDS:
            segments.append([_mark_words(game, event)])
    return "; then ".join(", ".join(parts) for parts in segments)


#: the words of the mark events (engine.marks) and of a pawn sent elsewhere than its Start
MARK_WORDS = {"mark": "marks", "unmark": "unmarks", "send": "sends"}


def _mark_words(game, event) -> str:
    kind, c, sq = event[0], event[1], event[2]
    pawn = f"{colour_name(game, c)} pawn {square_name(game, sq)}"
    if kind == "send":
        return f"sends {pawn} to {square_name(game, event[3])}"
    label = game.marks[event[3]].label
    return f"{MARK_WORDS[kind]} {pawn} {label}"


def describe_move(game, move) -> str:
    """A move in words, including what kind of move it is when it moves nothing."""
    if move.kind == "forfeit":
        if move.card is None:
            text = "no card to play"
        elif getattr(game, "dice", None) is not None:
            text = "no legal move: the throw is lost"
        else:
            text = "no legal move: the cards drawn are discarded" if game.take > 1 else "no legal move: the card is forfeited"
        if move.events:  # what the consequences of a forfeit do (after: then:)
            text += "; then " + describe_events(game, move.events)
    elif move.kind == "pass":
        text = "pass (play nothing)"
    elif move.kind == "discard":
        text = f"discard {game.card_names[move.card]} (no card in the hand can move)"
    elif move.kind == "redraw":
        return describe_redraw(game, move)
    elif move.kind == "action":
        return describe_action(game, move)
    else:
        text = describe_events(game, move.events)
    if move.draw_again:
        text += again_words(game)
    return text


def again_words(game) -> str:
    """What a move that keeps the turn adds to its words: "; draws again" (cards), "; throws
    again" (dice)."""
    return "; throws again" if getattr(game, "dice", None) is not None else "; draws again"


def describe_redraw(game, move) -> str:
    """A `redraw` move (turn.redraw): the stuck card discarded, another card taken."""
    what = game.card_names[move.card]
    if getattr(game, "dice", None) is not None:
        return f"throw {what} moves no pawn: throw again ({move.label})"
    if game.hand_play:
        return f"discard {what} (no card in the hand can move) and play again from the refilled hand ({move.label})"
    cards = "the cards drawn" if game.take > 1 else what
    return f"discard {cards} (no pawn can move) and draw again ({move.label})"


def describe_action(game, move) -> str:
    """An `action` move (turn.actions): a card played with other cards, all discarded, as many drawn."""
    others = ", ".join(game.card_names[c] for c in move.cards)
    played = f"{game.card_names[move.card]} with {others}" if move.cards else game.card_names[move.card]
    text = f"{move.label}: discard {played}, draw {1 + len(move.cards)}"
    return text + "; plays again" if move.draw_again else text


def seated_teams(game, seats) -> list[tuple]:
    """The teams among the seated colours, in seat order of their first member."""
    teams: list[tuple] = []
    for c in seats:
        team = tuple(o for o in game.team_of[c] if o in seats)
        if team not in teams:
            teams.append(team)
    return teams


def placement_names(game, placement, seats) -> dict:
    """{colour name: [position, ...]} for the seated colours, in a stable order."""
    return {game.colours[c]: [square_name(game, sq) for sq in placement[c]] for c in seats}


def marks_data(game, marks) -> dict:
    """{mark name: [{"colour", "square", "by"}, ...]} of `State.marks` (every declared mark,
    an empty list when none is placed); {} for a variant without marks."""
    return {kind.name: [{"colour": game.colours[c], "square": square_name(game, sq), "by": game.colours[by]}
                        for c, sq, by in entries]
            for kind, entries in zip(game.marks, marks or ((),) * len(game.marks))}
