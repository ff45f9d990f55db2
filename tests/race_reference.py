"""Independent Ludo and Trouble: the results a throw allows in a position, written from
docs/LUDO.md and docs/TROUBLE.md alone, sharing no code with the engine.
`test_race_reference.py` compares the engine's moves oracle with them.

A position is in the notation of position files: per colour its pieces' positions
(`start` for the yard, `track:N`, `safety:K`, `home`). A result is the placement after the
move: per colour the sorted tuple of its positions (`placement`)."""

from __future__ import annotations

# ---- Ludo: the board of section 1, LU5, LU7-LU13, LU17, LU18, LU21 --------------------------
class LudoBoard:
    """A Ludo board with the numbers a rule file may change: the colours clockwise (colour c
    owns arm c), the squares of an arm, the offsets of the start square and of the arm's tip
    (the last square before the home column), the home column's length and the offsets of
    the stars (safe squares, as the start squares are: LU10); `own_start`: the published
    variant where a start square is safe for its own colour only (LU22): a token of another
    colour there is captured, by a token coming out of the yard too."""

    def __init__(self, colours=("red", "green", "yellow", "blue"), side: int = 13, start: int = 8, tip: int = 6,
                 column: int = 5, stars=(3,), own_start: bool = False):
        self.colours, self.side, self.start, self.tip = tuple(colours), side, start, tip
        self.column, self.stars, self.own_start = column, tuple(stars), own_start
        self.track = side * len(self.colours)
        self.to_tip = (tip - start) % self.track  # steps from the start square to the tip
        self.home = self.to_tip + column + 1      # steps from the start square to Home

    def start_square(self, c: int) -> int:
        return self.side * c + self.start

    def safe(self, square: int) -> bool:
        """LU10: the start squares and the stars."""
        return square % self.side in (self.start, *self.stars)

    def kept(self, square: int, entering: bool) -> tuple | None:
        """The colours whose tokens stay when a token lands on `square` (LU8-LU10, LU18), the
        others going back to the yard; None: every token stays (a safe square)."""
        offset = square % self.side
        if offset == self.start and self.own_start:
            return (self.colours[square // self.side],)
        if entering or self.safe(square):
            return None
        return ()

    def steps_of(self, c: int, where: str) -> int | None:
        """Steps from colour c's start square to `where` (None: in the yard)."""
        if where == "start":
            return None
        if where == "home":
            return self.home
        kind, _, n = where.partition(":")
        if kind == "safety":
            return self.to_tip + int(n)
        return (int(n) - self.start_square(c)) % self.track

    def where_of(self, c: int, steps: int) -> str:
        if steps == self.home:
            return "home"
        if steps > self.to_tip:
            return f"safety:{steps - self.to_tip}"
        return f"track:{(self.start_square(c) + steps) % self.track}"


LUDO = LudoBoard()
COLOURS = LUDO.colours
TRACK = LUDO.track
start_square, safe, steps_of, where_of = LUDO.start_square, LUDO.safe, LUDO.steps_of, LUDO.where_of


def placement(pawns: dict) -> tuple:
    return tuple((colour, tuple(sorted(pawns[colour]))) for colour in sorted(pawns))


def results(pawns: dict, turn: str, throw: int, blocks: bool = False, sixes: int = 0, board: LudoBoard = LUDO,
            closed: bool = False) -> set:
    """The placements a throw of `throw` may lead to (LU5, LU7-LU12; LU17 when `blocks`; LU25
    when `closed`: the mover has captured nothing, its home column is closed); empty when the
    throw is lost (no token can use it, or a third six, LU13)."""
    return {result for result, _ in outcomes(pawns, turn, throw, blocks, sixes, board=board, closed=closed)}


def stuck_throw(pawns: dict, turn: str, throw: int, sixes: int = 0, redraws: int = 0, blocks: bool = False,
                board: LudoBoard = LUDO) -> str | None:
    """What a throw that moves no token is (None when one can move): thrown again ("redraw",
    LU6) while every token of the player is in the yard or Home and fewer than two throws of
    the turn were thrown again, unless it is a third six in a row (LU13: that one ends the
    turn); else lost ("forfeit")."""
    if results(pawns, turn, throw, blocks, sixes, board):
        return None
    third_six = throw == 6 and sixes >= 2
    return "redraw" if all(t in ("start", "home") for t in pawns[turn]) and redraws < 2 and not third_six else "forfeit"


def outcomes(pawns: dict, turn: str, throw: int, blocks: bool = False, sixes: int = 0, capture_throw: bool = False,
             home_throw: bool = False, board: LudoBoard = LUDO, closed: bool = False) -> set:
    """`results` with the extra throws each earns: a six (LU13, not the third), a capture
    (LU15 when `capture_throw`), a token reaching Home (LU16 when `home_throw`); they add up
    (LU20); a move that wins earns none (LU14). `closed` (LU25): a token on the track goes on
    round it past the tip of its arm, never into the home column."""
    if throw == 6 and sixes >= 2:
        return set()
    c = board.colours.index(turn)
    start_square, steps_of, where_of = board.start_square, board.steps_of, board.where_of
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
            # (unless `own_start`)
            if blocked(to):
                continue
            target = where_of(c, 0)
        elif closed and token.startswith("track:"):  # LU25: round the track again, whatever the steps
            square = int(token.partition(":")[2])
            passed = [(square + s) % board.track for s in range(1, throw + 1)]
            if any(blocked(at) for at in passed):
                continue
            target = f"track:{passed[-1]}"
        else:
            end = here + throw
            if end > board.home:  # LU12
                continue
            passed = [(start_square(c) + s) % board.track for s in range(here + 1, min(end, board.to_tip) + 1)]
            if any(blocked(square) for square in passed):  # LU17: a block is not passed nor landed on
                continue
            target = where_of(c, end)
        after = {colour: list(tokens) for colour, tokens in pawns.items()}
        after[turn][i] = target
        captured = False
        if target.startswith("track:"):
            square = int(target.partition(":")[2])
            kept = board.kept(square, here is None)
            if kept is not None:  # LU8, LU9: every token of another colour there goes back
                for colour in after:
                    if colour != turn and colour not in kept:
                        captured = captured or target in after[colour]
                        after[colour] = ["start" if t == target else t for t in after[colour]]
        extra = (throw == 6) + (capture_throw and captured) + (home_throw and target == "home")
        if all(t == "home" for t in after[turn]):
            extra = 0  # LU14: the game ends at once, no throw follows
        out.add((placement(after), int(extra)))
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


#: TR15: the warp spaces, offset 4 of every side, each joined to the one two sides on
TROUBLE_WARP_OFFSET, TROUBLE_SIDE = 4, 7


def trouble_warp(square: int) -> int | None:
    """The warp space opposite track square `square` (TR15), or None: no warp space."""
    return (square + 2 * TROUBLE_SIDE) % TROUBLE_TRACK if square % TROUBLE_SIDE == TROUBLE_WARP_OFFSET else None


def trouble_results(pegs: dict, turn: str, pop: int, warps: bool = False) -> set:
    """The placements a pop of `pop` may lead to (TR5, TR6, TR8-TR11, TR13; with `warps`, the
    warp spaces of TR15 and TR17-TR20); empty when the pop is lost."""
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
        landings = [target]
        far = trouble_warp(int(target[6:])) if warps and target.startswith("track:") else None
        if far is not None:  # TR15: on to the warp space opposite, TR17: once; TR20: wherever it lies
            landings.append(f"track:{far}")
            if landings[-1] in pegs[turn][:i] + pegs[turn][i + 1:]:  # TR19: not onto an own peg
                continue
        after = {colour: list(p) for colour, p in pegs.items()}
        after[turn][i] = landings[-1]
        for square in landings:
            if square.startswith("track:"):  # TR8, TR18: another colour's peg there goes back
                for colour in after:
                    if colour != turn:
                        after[colour] = ["start" if p == square else p for p in after[colour]]
        out.add(placement(after))
    return out


# ---- Parcheesi: the board of section 1, PA5, PA6, PA8-PA14, PA16, PA17 --------------------------
PARCHEESI_COLOURS = ("yellow", "blue", "red", "green")
PARCHEESI_TRACK = 68
PARCHEESI_HOME = 72  # from the entry space: 64 to the tip, seven up the home path, one into Home


def parcheesi_safe(square: int) -> bool:
    """PA10: the safety spaces, offsets 4, 8 (the tip) and 12 (the entry space) of every arm."""
    return square % 17 in (4, 8, 12)


def parcheesi_entry(c: int) -> int:
    return 17 * c + 12


def parcheesi_steps(c: int, where: str) -> int | None:
    if where == "start":
        return None
    if where == "home":
        return PARCHEESI_HOME
    kind, _, n = where.partition(":")
    return 64 + int(n) if kind == "safety" else (int(n) - parcheesi_entry(c)) % PARCHEESI_TRACK


def parcheesi_where(c: int, steps: int) -> str:
    if steps == PARCHEESI_HOME:
        return "home"
    if steps > 64:
        return f"safety:{steps - 64}"
    return f"track:{(parcheesi_entry(c) + steps) % PARCHEESI_TRACK}"


class _Parcheesi:
    """One throw of a Parcheesi position worked out move by move."""

    def __init__(self, turn: str):
        self.turn = turn
        self.c = PARCHEESI_COLOURS.index(turn)

    def occupants(self, pawns: dict, where: str) -> list:
        """The colours of the pawns on `where` (a home path space: the mover's own)."""
        if where.startswith("safety:"):
            return [self.turn] * pawns[self.turn].count(where)
        return [colour for colour, mine in pawns.items() for p in mine if p == where]

    def blockade(self, pawns: dict, where: str) -> bool:
        """PA9: two pawns of one colour stand there."""
        here = self.occupants(pawns, where)
        return len(here) == 2 and here[0] == here[1]

    def land(self, pawns: dict, i: int, target: str) -> tuple | None:
        """(pawns after, pawns captured) once pawn i of the mover stands on `target`, or
        None when it may not end there (PA9, PA10)."""
        here = self.occupants(pawns, target)
        after = {colour: list(mine) for colour, mine in pawns.items()}
        after[self.turn][i] = target
        if target == "home":
            return after, 0
        others = [colour for colour in here if colour != self.turn]
        if pawns[self.turn][i] == "start":
            # PA10's exception, PA21: coming out captures each single pawn of another colour on the
            # entry space (a blockade is no single pawn), then the space holds two at most
            if len(set(others)) < len(others) or here.count(self.turn) >= 2:
                return None
            for victim in others:
                after[victim][after[victim].index(target)] = "start"
            return after, len(others)
        if len(here) >= 2:
            return None  # a blockade, or two colours sharing a safety space: full
        if not others or parcheesi_safe(int(target.partition(":")[2])):
            return after, 0  # PA10: a safety space shares
        after[others[0]][after[others[0]].index(target)] = "start"  # PA8
        return after, 1

    def step(self, pawns: dict, i: int, n: int) -> tuple | None:
        """Pawn i of the mover moved n forward (PA5, PA9, PA12, PA13): (pawns after, captures,
        reached Home) or None."""
        here = parcheesi_steps(self.c, pawns[self.turn][i])
        if here is None or here + n > PARCHEESI_HOME:
            return None
        for s in range(here + 1, here + n):
            if self.blockade(pawns, parcheesi_where(self.c, s)):
                return None  # PA9: nobody passes a blockade
        target = parcheesi_where(self.c, here + n)
        landed = self.land(pawns, i, target)
        return None if landed is None else (*landed, target == "home")

    def enter(self, pawns: dict, i: int) -> tuple | None:
        """PA6: pawn i of the mover from its nest onto its entry space."""
        if pawns[self.turn][i] != "start":
            return None
        landed = self.land(pawns, i, parcheesi_where(self.c, 0))
        return None if landed is None else (*landed, False)

    def die(self, pawns: dict, face: int) -> list:
        """Every (pawns after, captures, homes) of one die (`5: enter | forward 5`)."""
        out = []
        for i in range(len(pawns[self.turn])):
            moved = self.step(pawns, i, face)
            if moved is not None:
                out.append(moved)
            if face == 5:
                entered = self.enter(pawns, i)
                if entered is not None:
                    out.append(entered)
        return out

    def bonus(self, pawns: dict, n: int) -> list:
        """PA11, PA14, PA16: n spaces by one pawn of the mover's choice (captures there earn
        nothing more); [pawns] unchanged when no pawn can take them."""
        ways = [moved[0] for i in range(len(pawns[self.turn])) if (moved := self.step(pawns, i, n)) is not None]
        return ways or [pawns]


def parcheesi_results(pawns: dict, turn: str, dice: tuple) -> set:
    """The placements a throw of `dice` (two faces) may lead to: the dice die by die in
    either order, or a total of five entering (PA5, PA6); only the ways using the most dice;
    then the bonuses, captures first (PA11, PA14, PA16, PA17). Empty when the throw is lost."""
    game = _Parcheesi(turn)
    pawns = {colour: list(mine) for colour, mine in pawns.items()}
    ways = []  # (dice used, pawns after, captures, homes)
    for first, second in {dice, dice[::-1]}:
        for after, caught, home in game.die(pawns, first):
            then = game.die(after, second)
            ways += [(2, p, caught + c2, home + h2) for p, c2, h2 in then] or [(1, after, caught, home)]
    if sum(dice) == 5:
        ways += [(2, *moved) for i in range(len(pawns[turn])) if (moved := game.enter(pawns, i)) is not None]
    most = max((used for used, *_ in ways), default=0)
    out = set()
    for used, after, caught, homes in ways:
        if used != most:
            continue
        bonuses = [20] * caught + [10] * min(homes, 2)  # PA11, PA21: 20 for each capture
        states = [after]
        for n in bonuses:
            states = [p for state in states for p in game.bonus(state, n)]
        out.update(placement({colour: tuple(mine) for colour, mine in state.items()}) for state in states)
    return out


def parcheesi_third_doubles(pawns: dict, turn: str) -> set:
    """PA7, PA19: a third doubles moves nothing; the mover's pawn fewest steps from Home on the
    track or the home path goes back to the nest (each of the nearest, when several are)."""
    c = PARCHEESI_COLOURS.index(turn)
    steps = [parcheesi_steps(c, p) for p in pawns[turn]]
    out = [p for p in steps if p is not None and p < PARCHEESI_HOME]
    if not out:
        return {placement({colour: tuple(mine) for colour, mine in pawns.items()})}
    results = set()
    for i, s in enumerate(steps):
        if s == max(out):
            after = {colour: list(mine) for colour, mine in pawns.items()}
            after[turn][i] = "start"
            results.add(placement({colour: tuple(mine) for colour, mine in after.items()}))
    return results
