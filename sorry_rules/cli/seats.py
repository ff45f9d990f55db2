"""Who plays each seat: parse `--seat COLOUR=KIND`, `--humans N`, `--auto` and `--bot KIND`.

A seat kind is `human` or `bot:<name>` (a name from `bots.BOTS`). On the command line a
kind may also be written `bot` (the default computer player) or just the bot's name.

Contract: `seat_kinds` returns one kind per seat or raises `UsageError` saying what is wrong
(an unknown colour or kind, a colour that does not play, people with --auto, ...).
"""

from __future__ import annotations

from sorry_rules.players.registry import BOTS, bot_names
from sorry_rules.base.errors import IllegalMoveError, UsageError
from sorry_rules.base.words import plural

HUMAN = "human"


def check_player_count(game, players: int | None) -> None:
    """A usage error (exit 2) for `--players N` the variant does not seat (None: its default)."""
    if players is None:
        return
    try:
        game.seats_for(players)
    except IllegalMoveError as error:
        raise UsageError(f"--players {players}: {error}") from None


def parse_kind(text: str, default_bot: str) -> str:
    """`human`, `bot`, `bot:NAME` or `NAME` -> `human` or `bot:NAME`."""
    word = text.strip().lower()
    if word in (HUMAN, "person", "me"):
        return HUMAN
    if word == "bot":
        word = default_bot
    elif word.startswith("bot:"):
        word = word[4:]
    if word not in BOTS:
        raise UsageError(f"unknown player kind {text!r}: use human, bot, or bot:NAME with NAME one of {', '.join(bot_names())}")
    return f"bot:{word}"


def bot_of(kind: str) -> str | None:
    """The bot name of a `bot:NAME` kind, None for people."""
    return kind[4:] if kind.startswith("bot:") else None


def seat_kinds(colours, seats, seat_specs=(), humans: int | None = None, auto: bool = False,
               default_bot: str = "greedy") -> list:
    """One kind per seat. `colours`: the variant's colour names; `seats`: colour indices in
    seat order. By default the first seat is a person and the others are `default_bot`;
    `humans` makes the first N seats people (hot-seat); `auto` makes every seat a bot;
    `seat_specs` ("colour=kind") override single seats: where a colour sits at several seats
    (a grid side), its first spec is its first seat, the next its second, and so on."""
    if default_bot not in BOTS:
        raise UsageError(f"--bot {default_bot!r}: computer players are {', '.join(bot_names())}")
    n = len(seats)
    if humans is not None and not 0 <= humans <= n:
        raise UsageError(f"--humans {humans}: give 0 to {n} (this game has {n} seats)")
    if auto and humans:
        raise UsageError("--auto plays computer players only; leave out --humans, or leave out --auto to play")
    people = 0 if auto else (1 if humans is None else humans)
    kinds = [HUMAN if seat < people else f"bot:{default_bot}" for seat in range(n)]
    names = [c.lower() for c in colours]
    seen: list = []
    for spec in seat_specs:
        colour, sep, kind = spec.partition("=")
        colour = colour.strip().lower()
        if not sep or not colour or not kind.strip():
            raise UsageError(f"--seat {spec!r}: write COLOUR=KIND, e.g. --seat {names[seats[0]]}=human "
                             f"or --seat {names[seats[-1]]}=bot:greedy")
        if colour not in names:
            raise UsageError(f"--seat {spec!r}: no colour {colour!r} (colours: {', '.join(names)})")
        c = names.index(colour)
        if c not in seats:
            playing = ", ".join(names[s] for s in seats)
            raise UsageError(f"--seat {spec!r}: {colour} does not play in a {n}-player game (seats: {playing})")
        places = [seat for seat, sc in enumerate(seats) if sc == c]  # several when a side's colour has several seats
        if seen.count(c) >= len(places):
            raise UsageError(f"--seat {spec!r}: {colour} is given twice" if len(places) == 1 else
                             f"--seat {spec!r}: {colour} is given more often than its {len(places)} seats")
        seat, kinds_given = places[seen.count(c)], parse_kind(kind, default_bot)
        if humans is not None and (kinds_given == HUMAN) != (seat < humans):
            raise UsageError(f"--seat {spec!r} contradicts --humans {humans}, which makes the first {plural(humans, 'seat')} "
                             f"people and the others computer players; leave out one of them")
        kinds[seat] = kinds_given
        seen.append(c)
    if auto and HUMAN in kinds:
        raise UsageError("--auto plays computer players only; leave out --auto to play a seat yourself")
    return kinds
