"""Independent Ludo and Trouble: the results a throw allows in a position, written from
docs/LUDO.md and docs/TROUBLE.md alone, sharing no code with the engine.
`test_race_reference.py` compares the engine's moves oracle with them.

A position is in the notation of position files: per colour its pieces' positions
(`start` for the yard, `track:N`, `safety:K`, `home`). A result is the placement after the
move: per colour the sorted tuple of its positions (`placement`)."""

from __future__ import annotations

# ---- Ludo: the board of section 1, LU5, LU7-LU13, LU17, LU18, LU21 --------------------------
COLOURS = ("red", "green", "yellow", "blue")
TRACK = 52
HOME_STEPS = 56  # from the start square: 50 to the tip, five up the home column, one into Home


def start_square(c: int) -> int:
    return 13 * c + 8


def safe(square: int) -> bool:
    """LU10: the start squares (offset 8 of an arm) and the stars (offset 3)."""
    return square % 13 in (3, 8)


def steps_of(c: int, where: str) -> int | None:
    """Steps from colour c's start square to `where` (None: in the yard)."""
    if where == "start":
        return None
    if where == "home":
        return HOME_STEPS
    kind, _, n = where.partition(":")
    if kind == "safety":
        return 50 + int(n)
    return (int(n) - start_square(c)) % TRACK


def where_of(c: int, steps: int) -> str:
    if steps == HOME_STEPS:
        return "home"
    if steps > 50:
        return f"safety:{steps - 50}"
    return f"track:{(start_square(c) + steps) % TRACK}"


def placement(pawns: dict) -> tuple:
    return tuple((colour, tuple(sorted(pawns[colour]))) for colour in sorted(pawns))


def results(pawns: dict, turn: str, throw: int, blocks: bool = False, sixes: int = 0) -> set:
    """The placements a throw of `throw` may lead to (LU5, LU7-LU12; LU17 when `blocks`);
    empty when the throw is lost (no token can use it, or a third six, LU13)."""
    if throw == 6 and sixes >= 2:
        return set()
    c = COLOURS.index(turn)
    on_track: dict = {}  # track square -> {colour: tokens}
    for colour, tokens in pawns.items():
        for t in tokens:
            if t.startswith("track:"):
                square = int(t.partition(":")[2])
                on_track.setdefault(square, {}).setdefault(colour, 0)
                on_track[square][colour] += 1

    def blocked(square: int) -> bool:
        """LU17, LU21: two or more tokens of one other colour stand there."""
        return blocks and any(n >= 2 for colour, n in on_track.get(square, {}).items() if colour != turn)

    out = set()
    for i, token in enumerate(pawns[turn]):
        here = steps_of(c, token)
        if here is None:
            if throw != 6:
                continue
            to = start_square(c)  # LU5: onto the start square, the whole throw used; LU18: no capture there
            if blocked(to):
                continue
            target = where_of(c, 0)
        else:
            end = here + throw
            if end > HOME_STEPS:  # LU12
                continue
            passed = [(start_square(c) + s) % TRACK for s in range(here + 1, min(end, 50) + 1)]
            if any(blocked(square) for square in passed):  # LU17: a block is not passed nor landed on
                continue
            target = where_of(c, end)
        after = {colour: list(tokens) for colour, tokens in pawns.items()}
        after[turn][i] = target
        if target.startswith("track:") and here is not None:
            square = int(target.partition(":")[2])
            if not safe(square):  # LU8, LU9: every token of another colour there goes back
                for colour in after:
                    if colour != turn:
                        after[colour] = ["start" if t == target else t for t in after[colour]]
        out.add(placement(after))
    return out


# ---- Trouble: the board of section 1, TR5, TR6, TR8-TR11, TR13 ---------------------------------
TROUBLE_COLOURS = ("red", "blue", "green", "yellow")
TROUBLE_TRACK = 28
TROUBLE_HOME = 31  # from the START space: 27 round the track, then safety:1-3 and home (the fourth finish space)


def trouble_where(c: int, steps: int) -> str:
    if steps == TROUBLE_HOME:
        return "home"
    if steps > 27:
        return f"safety:{steps - 27}"
    return f"track:{(7 * c + 1 + steps) % TROUBLE_TRACK}"


def trouble_steps(c: int, where: str) -> int | None:
    if where == "start":
        return None
    if where == "home":
        return TROUBLE_HOME
    kind, _, n = where.partition(":")
    return 27 + int(n) if kind == "safety" else (int(n) - 7 * c - 1) % TROUBLE_TRACK


def trouble_results(pegs: dict, turn: str, pop: int) -> set:
    """The placements a pop of `pop` may lead to (TR5, TR6, TR8-TR11, TR13); empty when the
    pop is lost."""
    c = TROUBLE_COLOURS.index(turn)
    out = set()
    for i, peg in enumerate(pegs[turn]):
        here = trouble_steps(c, peg)
        if here is None:
            if pop != 6:
                continue
            end = 0  # TR5: onto the START space, the whole pop used
        else:
            end = here + pop
            if end > TROUBLE_HOME:  # TR11: never past the fourth finish space
                continue
        target = trouble_where(c, end)
        if target in pegs[turn]:  # TR8, TR11: not onto the own colour's peg
            continue
        after = {colour: list(p) for colour, p in pegs.items()}
        after[turn][i] = target
        if target.startswith("track:"):  # TR8: another colour's peg there goes back
            for colour in after:
                if colour != turn:
                    after[colour] = ["start" if p == target else p for p in after[colour]]
        out.add(placement(after))
    return out
