"""An independent Sorry!: the results a card allows in a position, written from RULES.md alone
(the board of section 1, R6-R33, A1-A14, A21, A24, partnership T2, T4-T6, T9, T10, the
hands and scores of play for points P4, P5, P7, and the house rules that change moves,
named as the bundled overlays: `HOUSE`), sharing no code with the engine.
`test_sorry_reference.py` compares the engine's moves oracle with it.

A position is in the notation of position files: per colour its pawns' positions (`start`,
`track:N`, `safety:K`, `home`). A result is the placement after the move: per colour the
sorted tuple of its positions (`placement`); an 11 that may be declined (R24, A14) has the
unchanged placement among its results."""

from __future__ import annotations

import itertools

COLOURS = ("red", "blue", "yellow", "green")
TRACK = 60
TEAMS = (("red", "yellow"), ("blue", "green"))  # T1
FORWARD = {"1": 1, "2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "12": 12}
#: the house rules (overlay names) this reference plays, with the rule book's ids
HOUSE = {
    "sorry-forward-4": "H1", "start-on-any-forward": "H6", "slide-own-colour": "H10",
    "slide-spares-own": "H12", "partners-safe": "H13", "split-7-any": "H14", "switch-partner": "H15",
    "must-bump": "H17", "overshoot-home": "H19", "revenge-7": "H20", "safety-sprint": "H28",
    "sorry-safety": "H29", "backward-into-safety": "H30", "bounce-back": "H32", "deck-55": "H24",
    "freeze": "H31", "mercy-start": "H27", "start-exit-penalty": "H34", "blockade": "H33",
    "no-passing-opponents": "no jumping over opponents (invented)", "seven-both-ways": "a 7 split back and forth (invented)",
    "bump-bonus": "H21", "two-no-draw-again": "H2", "quick-game": "quick game (two pawns Home win)", "three-pawns": "H3",
}
#: the rule book's options, and rules written another way, this reference plays (no bundled
#: file: an overlay in tests/rules/options/)
OPTIONS = {"a4-mover-only": "A4 option: after a switch only the mover's pawn slides",
           "a6-no-slide": "A6 option: a pawn a Sorry! places does not slide",
           "revenge-7-11": "H20 with the author's list of the 7 and the 11: each must bump where it can",
           "a2-simultaneous": "A2 option: the parts of a split judged on the board before it, then landed in order",
           "bump-own": "a pawn that ends its move on a pawn of its own colour sends that one back to Start (invented; "
                       "REFERENCE rules.bump own)",
           "ten-nine-one": "the 10 may also be split as 9 forward with one pawn, then 1 back with another (a split "
                           "of fixed sizes; invented)",
           "slide-optional": "a slide may be declined: a pawn ending on a triangle it takes may stay there (invented; "
                             "REFERENCE rules.slide_optional)",
           "overshoot-start": "a move counting past Home sends the pawn back to its Start (invented; REFERENCE "
                              "geometry.past_home start)",
           "bumped-start-exit": "of the pawns of a colour a move sends back to Start, one goes on to its start exit "
                                "when no pawn stands there after the move (invented; REFERENCE selector bumped)"}
class Board:
    """A Sorry! board as section 1 draws it, with the numbers a rule file may change: the
    colours clockwise (colour c owns side c), the squares of a side, the offsets of the start
    exit and the safety entry on every side, the safety zone's length (Home one step after
    its last square; with none, one step after the safety entry), the slides `(from, to)`
    of every side (the triangle at `from`, the end circle `to - from` squares on), or
    `(from, to, takers)` for a slide only pawns of those relations to its colour take
    (`own`, `partner`, `opponent`; REFERENCE, Slide `slide_on`)."""

    def __init__(self, colours=("red", "blue", "yellow", "green"), side: int = 15, start_exit: int = 4,
                 safety_entry: int = 2, safety: int = 5, slides=((1, 4), (9, 13))):
        self.colours, self.side, self.safety = tuple(colours), side, safety
        self.exit_offset, self.entry_offset, self.slides = start_exit, safety_entry, tuple(slides)
        self.track = side * len(self.colours)

    def start_exit(self, c: int) -> int:
        return self.side * c + self.exit_offset

    def safety_entry(self, c: int) -> int:
        return self.side * c + self.entry_offset

    def slide_at(self, square: int) -> tuple | None:
        """(owner colour, the squares swept: triangle + 1 .. end circle, who takes it: the
        relations of a slide's own takers, or None) of the slide whose triangle is `square`
        (R26)."""
        side, offset = divmod(square, self.side)
        for start, end, *takers in self.slides:
            if offset == start:
                return side, [(square + k) % self.track for k in range(1, end - start + 1)], (takers or [None])[0]
        return None


STANDARD = Board()


def start_exit(c: int) -> int:
    return STANDARD.start_exit(c)


def safety_entry(c: int) -> int:
    return STANDARD.safety_entry(c)


def placement(pawns: dict) -> tuple:
    """Per colour the sorted positions (a pawn in Start carrying H27's mark, `start+BY`,
    is in Start)."""
    return tuple((colour, tuple(sorted(p.partition("+")[0] for p in pawns[colour]))) for colour in sorted(pawns))


def in_start(where: str) -> bool:
    return where.partition("+")[0] == "start"


def mercy_marks(pawns: dict) -> tuple:
    """H27: (colour, by) of every marked pawn in Start, sorted."""
    return tuple(sorted((colour, p.partition("+")[2]) for colour, mine in pawns.items() for p in mine if "+" in p))


def _copy(pawns: dict) -> dict:
    return {colour: list(mine) for colour, mine in pawns.items()}


class Sorry:
    """One position's moves (module docstring); `teams` plays partnership (T2, T4-T6, T10),
    `house` the house rules named (keys of `HOUSE`)."""

    def __init__(self, pawns: dict, turn: str, teams: bool = False, house=(), frozen=(), board: Board = STANDARD):
        self.board = board
        self.pawns = _copy(pawns)
        self.turn = turn
        self.teams = teams
        self.house = frozenset(house)
        #: H31: (colour, square, by) of the frozen pawns (on the track)
        self.frozen = frozenset(frozen)
        self.still = {(colour, where) for colour, where, _ in self.frozen}
        #: H34: per board made, (that board, the (colour, index, square) where counts ended on the way to it)
        self.ends: dict = {}
        #: bumped-start-exit: per board made, (that board, {colour: its pawns sent back to Start on the way to it})
        self.sent: dict = {}
        team = next((t for t in TEAMS if turn in t), (turn,)) if teams else (turn,)
        self.movers = [colour for colour in team if colour in pawns]  # T2: whose pawns the player moves

    def partners(self, a: str, b: str) -> bool:
        return a == b or (self.teams and any(a in t and b in t for t in TEAMS))

    # ---- one pawn ---------------------------------------------------------------------------
    def zone(self, k: int, start: int = 0) -> tuple | None:
        """(square, squares passed in the zone) of the k-th step into the zone from its
        `start`-th square (0: from the track): safety:1-5 (the board's length), Home at 6
        (R33), past it H19 or H32 (counted back down)."""
        length = self.board.safety
        ups = [f"safety:{j}" for j in range(start + 1, min(k, length + 1))]
        if k <= length:
            return f"safety:{k}", ups
        if k == length + 1 or "overshoot-home" in self.house:
            return "home", ups
        if "overshoot-start" in self.house:
            return "start", ups
        back = 2 * (length + 1) - k
        if "bounce-back" in self.house and back >= 1:
            return f"safety:{back}", ups + ["home"] + [f"safety:{j}" for j in range(length, back, -1)]
        return None

    def forward(self, colour: str, where: str, n: int) -> list:
        """[(square, squares passed)] n steps forward take a pawn to (R13, R31, R33, H19, H32)."""
        board = self.board
        c, track_length = board.colours.index(colour), board.track
        if where.startswith("track:"):
            square = int(where[6:])
            to_entry = (board.safety_entry(c) - square) % track_length
            track = [f"track:{(square + j) % track_length}" for j in range(1, min(n, to_entry) + 1)]
            if n <= to_entry:
                return [(track[-1], track[:-1])]
            k = n - to_entry
        elif where.startswith("safety:"):
            k, track = int(where[7:]) + n, []
        else:
            return []
        end = self.zone(k, int(where[7:]) if where.startswith("safety:") else 0)
        return [] if end is None else [(end[0], track + end[1])]

    def backward(self, colour: str, where: str, n: int) -> list:
        """[(square, squares passed)] n steps backward take a pawn to (R13, R30, A12; H30:
        turning into the zone at the safety entry reached along the track with steps to go)."""
        board = self.board
        c, track_length = board.colours.index(colour), board.track
        if where.startswith("safety:"):
            k = int(where[7:])
            down = [f"safety:{j}" for j in range(k - 1, max(k - n, 0), -1)]
            if n < k:
                return [(f"safety:{k - n}", down)]
            track = [f"track:{(board.safety_entry(c) - j) % track_length}" for j in range(0, n - k + 1)]
            return [(track[-1], down + track[:-1])]
        if not where.startswith("track:"):
            return []
        square = int(where[6:])
        track = [f"track:{(square - j) % track_length}" for j in range(1, n + 1)]
        out = [(track[-1], track[:-1])]
        if "backward-into-safety" in self.house:
            for k in range(n):
                if (square - k) % track_length == board.safety_entry(c):
                    turned = self.zone(n - k)
                    if turned is not None:
                        out.append((turned[0], track[:k] + turned[1]))
        return out

    def at(self, pawns: dict, where: str, colour: str) -> str | None:
        """The colour of the pawn on `where` (a safety square: of `colour`'s zone; Home holds
        any number and blocks nobody: None)."""
        if where == "home":
            return None
        if where.startswith("safety:"):
            return colour if where in pawns[colour] else None
        return next((other for other, mine in pawns.items() if where in mine), None)

    def send_home(self, pawns: dict, where: str) -> None:
        """The pawns on track square `where` go back to their Start (R15; both of an H33
        blockade a slide sweeps); H27 marks them, by the player who moves."""
        for mine in pawns.values():
            while where in mine:
                mine[mine.index(where)] = f"start+{self.turn}" if "mercy-start" in self.house else "start"

    def occupants(self, pawns: dict, where: str, colour: str) -> list:
        """The colours of the pawns on `where`, one entry a pawn (a safety square: `colour`'s zone)."""
        if where.startswith("safety:"):
            return [colour] * pawns[colour].count(where)
        return [other for other, mine in pawns.items() for p in mine if p == where]

    def alone(self, pawns: dict, where: str) -> bool:
        """H33: a switch and a Sorry! take only pawns alone on their track squares."""
        return "blockade" not in self.house or len(self.occupants(pawns, where, "")) == 1

    def passable(self, pawns: dict, colour: str, i: int, passed) -> bool:
        """Whether pawn i of `colour` may pass these squares: not an H33 blockade (two pawns
        of one colour, any colour; the pawn itself has left its square), not an opposing pawn
        on the track (no-passing-opponents)."""
        if passed:
            pawns = _copy(pawns)
            pawns[colour][i] = "moving"
        for where in passed:
            here = self.occupants(pawns, where, colour) if where != "home" else []
            if "blockade" in self.house and len(here) >= 2:
                return False
            if "no-passing-opponents" in self.house and where.startswith("track:") and \
                    any(not self.partners(self.turn, other) for other in here):
                return False
        return True

    def leaving(self, mine: list, marked_only: bool = False) -> list:
        """The indices of the pawns in Start that may leave it, one of each kind (A24): an
        unmarked one and a marked one (H27; of its marks the one whose placer comes first
        in seat order, the engine's choice when two differ only in who marked them)."""
        out = [] if marked_only or "start" not in mine else [mine.index("start")]
        marked = [i for i, p in enumerate(mine) if p.startswith("start+")]
        if marked:
            out.append(min(marked, key=lambda i: self.board.colours.index(mine[i].partition("+")[2])))
        return out

    def blocks(self, colour: str, other: str) -> bool:
        """Whether a pawn of `other` keeps a `colour` pawn from landing on it: its own (R16; not
        under bump-own, which sends it back to Start), and a partner's under H13."""
        return (other == colour and "bump-own" not in self.house) or \
            ("partners-safe" in self.house and self.partners(colour, other))

    def arrivals(self, pawns: dict, colour: str, i: int, target: str, slides: bool = True) -> list:
        """`arrive`, and under slide-optional also with the slide declined when the pawn ends
        on a triangle it takes: the boards after each legal way."""
        ways = [self.arrive(pawns, colour, i, target, slides)]
        if slides and "slide-optional" in self.house and self.takes_slide(colour, target) is not None:
            ways.append(self.arrive(pawns, colour, i, target, False))
        return [after for after in ways if after is not None]

    def arrive(self, pawns: dict, colour: str, i: int, target: str, slides: bool = True) -> dict | None:
        """Pawn i of `colour` ends its move on `target`: blocked (R16, H13), a bump (R15,
        T5), then a slide (R26, T9, H10, H12; none when not `slides`). A new dict, or None.
        Its own Start (overshoot-start) holds any number of its pawns."""
        if target == "start":
            after = _copy(pawns)
            after[colour][i] = "start"
            self.ended(pawns, after, (colour, i, target))
            self.bumped_on(pawns, after, into=colour)
            return after
        other = self.at(pawns, target, colour)
        if "blockade" in self.house and other is not None and pawns[colour][i] != target:
            here = self.occupants(pawns, target, colour)  # H33: onto an own lone pawn (a blockade then), never onto two
            if len(here) >= 2 or (other != colour and self.blocks(colour, other)):
                return None
        elif other is not None and (self.blocks(colour, other) or (other, target) in self.still) and \
                pawns[colour][i] != target:
            return None  # H31: nothing lands on a frozen pawn
        after = _copy(pawns)
        after[colour][i] = "moving"
        if target.startswith("track:"):
            if other is not None and (other != colour or "bump-own" in self.house):
                self.send_home(after, target)
            after[colour][i] = target
            if slides and not self.slide(after, colour, i):
                return None
        else:
            if "bump-own" in self.house and target in after[colour] and target != "home":  # bump-own: an own pawn in the zone goes back to Start
                after[colour][after[colour].index(target)] = f"start+{self.turn}" if "mercy-start" in self.house else "start"
            after[colour][i] = target
        self.ended(pawns, after, (colour, i, target))
        self.bumped_on(pawns, after, left=colour if in_start(pawns[colour][i]) else None)
        return after

    def ended(self, before: dict, after: dict, end: tuple) -> None:
        """Note that a count ended on `end`'s square on the way from `before` to `after` (H34)."""
        if "start-exit-penalty" in self.house:
            self.ends[id(after)] = (after, self.ends.get(id(before), (None, ()))[1] + (end,))

    def bumped_on(self, before: dict, after: dict, left: str | None = None, into: str | None = None) -> None:
        """Note the pawns sent back to Start on the way from `before` to `after`
        (bumped-start-exit): per colour, the pawns more in Start, one more for `left` (the colour
        whose pawn left Start in the move), one fewer for `into` (whose pawn counted into its
        Start, overshoot-start)."""
        if "bumped-start-exit" not in self.house:
            return
        sent = dict(self.sent.get(id(before), (None, {}))[1])
        for colour in after:
            n = sum(map(in_start, after[colour])) - sum(map(in_start, before[colour])) + (colour == left) - (colour == into)
            if n:
                sent[colour] = sent.get(colour, 0) + n
        self.sent[id(after)] = (after, sent)

    def start_exits(self, after: dict) -> dict:
        """bumped-start-exit: of each colour's pawns the move sent back to Start, one goes on to
        its start exit when no pawn stands there after the move (all of them at once)."""
        sent = self.sent.get(id(after), (None, {}))[1]
        out = None
        for colour, n in sent.items():
            square = f"track:{self.board.start_exit(self.board.colours.index(colour))}"
            if n > 0 and self.at(after, square, colour) is None:
                out = out or _copy(after)
                out[colour][next(i for i, p in enumerate(out[colour]) if in_start(p))] = square
        if out is None:
            return after
        self.sent[id(out)] = (out, sent)
        return out

    def settled(self, after: dict) -> dict:
        """The board once the consequences of the move that made `after` are played: H34's
        `off_limits`, then bumped-start-exit's `start_exits`."""
        after = self.off_limits(after) if "start-exit-penalty" in self.house else after
        return self.start_exits(after) if "bumped-start-exit" in self.house else after

    def off_limits(self, after: dict) -> dict:
        """H34: the player's pawns whose count ended on an opposing colour's start exit, and
        are still there once the move is made, go back to Start (the bumps they made stand)."""
        exits = {f"track:{self.board.start_exit(c)}" for c, colour in enumerate(self.board.colours)
                 if not self.partners(self.turn, colour)}
        back = [(colour, i) for colour, i, square in self.ends.get(id(after), (None, ()))[1]
                if square in exits and after[colour][i] == square]
        if not back:
            return after
        after = _copy(after)
        for colour, i in back:
            after[colour][i] = "start"
        return after

    def takes_slide(self, colour: str, where: str):
        """The slide ((owner, swept, takers) of `Board.slide_at`) a `colour` pawn ending on
        `where` takes (R26, T9; any colour's under H10; a slide's own takers), or None."""
        found = self.board.slide_at(int(where[6:])) if where.startswith("track:") else None
        if found is None:
            return None
        owner, takers = self.board.colours[found[0]], found[2]
        if takers is None and owner == colour and "slide-own-colour" not in self.house:
            return None
        relation = "own" if owner == colour else "partner" if self.partners(colour, owner) else "opponent"
        if takers is not None and relation not in takers:
            return None
        return found

    def slide(self, pawns: dict, colour: str, i: int, declined: bool = False) -> bool:
        """R26, T9: on a triangle of another colour (any under H10) the pawn slides to the end
        circle, the pawns on the slide's other squares going back to Start (H12: not those
        the slider may not bump; such a pawn on the end circle makes the move illegal);
        `declined` (slide-optional): it stays."""
        found = None if declined else self.takes_slide(colour, pawns[colour][i])
        if found is None:
            return True
        swept = found[1]
        pawns[colour][i] = "moving"
        spared = "slide-spares-own" in self.house
        for k in swept:
            other = self.at(pawns, f"track:{k}", colour)
            if other is None:
                continue
            if (spared and self.blocks(colour, other)) or (other, f"track:{k}") in self.still:
                if k == swept[-1]:
                    return False
                continue
            self.send_home(pawns, f"track:{k}")
        pawns[colour][i] = f"track:{swept[-1]}"
        return True

    # ---- cards ------------------------------------------------------------------------------
    def pawns_of(self, pawns: dict):
        """(colour, index, where) of every pawn the player moves (T2)."""
        return [(colour, i, where) for colour in self.movers for i, where in enumerate(pawns[colour])
                if (colour, where) not in self.still]

    def step(self, pawns: dict, n: int, backward: bool = False) -> list:
        """One pawn n forward (or backward): every (colour, index, pawns after)."""
        out = []
        for colour, i, where in self.pawns_of(pawns):
            for target, passed in (self.backward if backward else self.forward)(colour, where, n):
                if self.passable(pawns, colour, i, passed):
                    out += [(colour, i, after) for after in self.arrivals(pawns, colour, i, target)]
        return out

    def enter(self, pawns: dict, marked_only: bool = False) -> list:
        """R6, R9, R10: a pawn from Start onto its start exit (H27: `marked_only`)."""
        out = []
        for colour in self.movers:
            for i in self.leaving(pawns[colour], marked_only):
                out += self.arrivals(pawns, colour, i, f"track:{self.board.start_exit(self.board.colours.index(colour))}")
        return out

    def split(self, pawns: dict, total: int, parts: int, used: tuple = (), known: dict | None = None) -> list:
        """R22, A1-A3, T4, H14: forward `total` split among 2 .. `parts` different pawns, one
        part after the other, each a legal exact move on the board the parts before left
        (`known`: the ways found from a board, pawns used and steps left, met in another order)."""
        known = {} if known is None else known
        key = (placement(pawns), frozenset(used), total, self.ends.get(id(pawns), (None, ()))[1],
               tuple(sorted(self.sent.get(id(pawns), (None, {}))[1].items())))
        if key in known:
            return known[key]
        out = known[key] = []
        for colour, i, where in self.pawns_of(pawns):
            if (colour, i) in used:
                continue
            last = len(used) + 1 == parts
            for n in ([total] if last else range(1, total + (len(used) >= 1))):
                if n == total and not used:
                    continue
                for target, passed in self.forward(colour, where, n):
                    if not self.passable(pawns, colour, i, passed):
                        continue
                    for after in self.arrivals(pawns, colour, i, target):
                        if n == total:
                            out.append(after)
                        else:
                            out += self.split(after, total - n, parts, used + ((colour, i),), known)
        return out

    def split_together(self, pawns: dict, total: int, parts: int) -> list:
        """The A2 option as REFERENCE.md words it (`rules.split: simultaneous`): forward `total`
        split among 2 .. `parts` different pawns, each part an exact forward move from where
        its pawn stands before the split, no two parts ending on one square but Home (R33) or
        Start (overshoot-start), which hold any number;
        then the pawns land one by one in the order they stand (the player's colours in board
        order, each colour's track squares then its safety squares, ascending), but a pawn
        leaving a square another part lands on lands before that part; each bumps and slides
        as a move does (A3): an own pawn where a part lands, one that stayed or one an earlier
        part slid there, makes the split illegal (R16)."""
        def order(pawn):
            colour, _, where = pawn
            return self.board.colours.index(colour), where.startswith("safety:"), int(where.partition(":")[2])
        mine = sorted((pawn for pawn in self.pawns_of(pawns) if pawn[2].startswith(("track:", "safety:"))), key=order)
        out = []
        for k in range(2, parts + 1):
            for chosen in itertools.combinations(mine, k):
                for cuts in itertools.combinations(range(1, total), k - 1):
                    sizes = [b - a for a, b in zip((0,) + cuts, cuts + (total,))]
                    ends = [self.forward(colour, where, n) for (colour, _, where), n in zip(chosen, sizes)]
                    if not all(ends):
                        continue
                    ends = [way[0][0] for way in ends]
                    squares = [end if end.startswith("track:") else (colour, end)
                               for (colour, _, _), end in zip(chosen, ends) if end not in ("home", "start")]
                    if len(set(squares)) != len(squares):
                        continue
                    parts = list(zip(chosen, ends))
                    landing = []
                    while parts:  # first a part whose target no other part's pawn still stands on
                        first = next((n for n, part in enumerate(parts)
                                      if not any(self.stands_on(other, part) for j, other in enumerate(parts) if j != n)), 0)
                        landing.append(parts.pop(first))
                    board = _copy(pawns)
                    for colour, i, _ in chosen:
                        board[colour][i] = "lifted"
                    boards = [board]
                    for (colour, i, _), end in landing:  # each part in every way it lands (slide-optional)
                        boards = [after for board in boards for after in self.arrivals(board, colour, i, end)]
                    out += boards
        return out

    @staticmethod
    def stands_on(other: tuple, part: tuple) -> bool:
        """Whether the pawn of the split part `other` ((colour, index, where), end) stands on
        the square `part` ends on (a track square, or a safety square of its own colour)."""
        (colour, _, where), _ = other
        (mover, _, _), end = part
        return where == end and (end.startswith("track:") or colour == mover)

    def split_into(self, pawns: dict, total: int, directions: tuple, used: tuple = (), sizes: tuple = ()) -> list:
        """`split N into D1, D2`: the parts in the order written, each one step or more in its
        direction with a pawn no earlier part moved, all N used (seven-both-ways); `sizes`:
        each part's own steps, or None (ten-nine-one: 9 forward, then 1 back)."""
        out = []
        for colour, i, where in self.pawns_of(pawns):
            if (colour, i) in used:
                continue
            last = len(used) + 1 == len(directions)
            size = sizes[len(used)] if sizes else None
            for n in [total] if last else range(1, total - (len(directions) - len(used) - 1) + 1):
                if (n == total and not last) or (size is not None and n != size):
                    continue
                way = self.backward if directions[len(used)] == "backward" else self.forward
                for target, passed in way(colour, where, n):
                    if not self.passable(pawns, colour, i, passed):
                        continue
                    for after in self.arrivals(pawns, colour, i, target):
                        out += [after] if last else self.split_into(after, total - n, directions, used + ((colour, i),),
                                                                    sizes)
        return out

    def switch(self) -> list:
        """R24, A4, T10 (H15: a partner's pawn too): one of the player's pawns on the track
        trades places with another colour's pawn on the track; then each slides, the mover
        first."""
        out = []
        for colour, i, where in self.pawns_of(self.pawns):
            if not where.startswith("track:"):
                continue
            for other, mine in self.pawns.items():
                if other == colour or (self.partners(self.turn, other) and "switch-partner" not in self.house):
                    continue
                for j, theirs in enumerate(mine):
                    if theirs.startswith("track:") and (other, theirs) not in self.still and \
                            self.alone(self.pawns, where) and self.alone(self.pawns, theirs):
                        optional = (False, True) if "slide-optional" in self.house else (False,)
                        for mine_declined, theirs_declined in itertools.product(optional, optional):
                            if (mine_declined and self.takes_slide(colour, theirs) is None) or \
                                    (theirs_declined and self.takes_slide(other, where) is None):
                                continue  # no slide to decline there: the same way as taking it
                            after = _copy(self.pawns)
                            after[colour][i], after[other][j] = theirs, where
                            self.ended(self.pawns, after, (colour, i, theirs))
                            if not self.slide(after, colour, i, mine_declined):
                                continue
                            if after[other][j] == where and "a4-mover-only" not in self.house and \
                                    not self.slide(after, other, j, theirs_declined):
                                continue  # A4 (its option: the mover's pawn alone slides)
                            self.bumped_on(self.pawns, after)
                            out.append(after)
        return out

    def sorry(self) -> list:
        """R25, A6, T6 (H13: never onto the own team): a pawn from Start onto a track square
        held by a pawn of another colour, which goes back; H29: or an opposing pawn in its
        safety zone back to Start."""
        out = []
        for colour in self.movers:
            for i in self.leaving(self.pawns[colour]):
                for other, mine in self.pawns.items():
                    if other == colour or (self.partners(self.turn, other) and (not self.teams or "partners-safe" in self.house)):
                        continue
                    for theirs in mine:
                        if theirs.startswith("track:") and self.alone(self.pawns, theirs):
                            out += self.arrivals(self.pawns, colour, i, theirs, "a6-no-slide" not in self.house)
        if "sorry-safety" in self.house:
            for other, mine in self.pawns.items():
                if not self.partners(self.turn, other):
                    for j, theirs in enumerate(mine):
                        if theirs.startswith("safety:"):
                            after = _copy(self.pawns)
                            after[other][j] = f"start+{self.turn}" if "mercy-start" in self.house else "start"
                            self.bumped_on(self.pawns, after)
                            out.append(after)
        return out

    def bumps(self, after: dict) -> bool:
        """Whether a move bumped an opposing pawn (H17, H20): more of them in Start (or, under
        bumped-start-exit, sent there on the way)."""
        if id(after) in self.sent:
            return any(n > 0 for colour, n in self.sent[id(after)][1].items() if not self.partners(self.turn, colour))
        return any(sum(map(in_start, after[other])) > sum(map(in_start, self.pawns[other]))
                   for other in self.pawns if not self.partners(self.turn, other))

    def alternative_ways(self, alternative: tuple) -> list:
        """The pawns after each way to play one alternative of a card written as data:
        ("forward", N), ("backward", N), ("enter",), ("split", N, K) (2 .. K pawns),
        ("switch",) or ("sorry",), as R6-R33, A1-A14 and T2-T10 say them of the cards that have them."""
        kind, numbers, pawns = alternative[0], alternative[1:], self.pawns
        if kind in ("forward", "backward"):
            return [after for _, _, after in self.step(pawns, numbers[0], backward=kind == "backward")]
        if kind == "split":
            return (self.split_together if "a2-simultaneous" in self.house else self.split)(pawns, numbers[0], numbers[1])
        return {"enter": self.enter, "switch": self.switch, "sorry": self.sorry}[kind](*((pawns,) if kind == "enter" else ()))

    def card_outcomes(self, alternatives: tuple, declinable: bool = False, draw_again: bool = False) -> set:
        """`outcomes` of a card whose effect is `alternatives` (`alternative_ways`); with
        `declinable`, the switches may be declined when no other alternative can be played
        (R24, A14); with `draw_again`, every way draws again (R19) but one that wins (R35)."""
        ways = [after for alternative in alternatives for after in self.alternative_ways(alternative)]
        others = [alternative for alternative in alternatives if alternative[0] != "switch"]
        if declinable and self.switch() and not any(self.alternative_ways(alternative) for alternative in others):
            ways.append(self.pawns)
        return {(placement(after), self.won(after), int(draw_again and not self.won(after))) for after in ways}

    def results(self, card: str) -> set:
        """Every distinct placement `card` leads to (A24); empty: the card is forfeit."""
        return {placement(after) for after, _ in self.ways(card)}

    def results_and_mercy(self, card: str) -> set:
        """H27: every distinct (placement, marked pawns in Start after) `card` leads to."""
        return {(placement(after), mercy_marks(after)) for after, _ in self.ways(card)}

    def side(self) -> tuple:
        """The colours that win together with the player (T8)."""
        return tuple(colour for colour in self.pawns if self.partners(self.turn, colour))

    def won(self, pawns: dict) -> bool:
        """R35, T8: every pawn of the player's side Home (quick-game: two of them)."""
        home = [p == "home" for colour in self.side() for p in pawns[colour]]
        return sum(home) >= 2 if "quick-game" in self.house else all(home)

    def outcomes(self, card: str) -> set:
        """Every distinct (placement, whether it wins, extra cards it earns) of `card`: a 2
        draws again (R19; not under H2), a move that bumps an opposing pawn earns one more
        (H21); a move that wins earns none, the game ending at once (R35)."""
        out = set()
        for after, _ in self.ways(card):
            extra = (card == "2" and "two-no-draw-again" not in self.house) + \
                ("bump-bonus" in self.house and self.bumps(after))
            wins = self.won(after)
            out.add((placement(after), wins, 0 if wins else int(extra)))
        return out

    def results_and_freezes(self, card: str, seats) -> set:
        """H31: every distinct (placement, frozen pawns after) `card` leads to, the frozen
        pawns as (colour, square, by): a freeze of the player replaces an older one of its
        own, and the freezes of the player whose turn begins next end (`seats` in turn order;
        after a 2 the turn goes on and none ends; after a winning move the game is over, R35,
        and no turn begins)."""
        after_turn = None if card == "2" else seats[(seats.index(self.turn) + 1) % len(seats)]  # a 2: the turn goes on
        out = set()
        for after, freeze in self.ways(card):
            frozen = self.frozen
            if freeze is not None:
                frozen = {mark for mark in frozen if mark[2] != self.turn} | {freeze}
            ending = None if self.won(after) else after_turn
            out.add((placement(after), frozenset(mark for mark in frozen if mark[2] != ending)))
        return out

    def ways(self, card: str) -> list:
        """(pawns after, the freeze it makes or None) of every way to play `card`."""
        pawns, house = self.pawns, self.house
        ways, forward = [], False
        if card in FORWARD and (card in ("1", "2", "3", "5", "8", "12") or "deck-55" in house):
            ways, forward = [after for _, _, after in self.step(pawns, FORWARD[card])], True
        elif card == "4":
            ways = [after for _, _, after in self.step(pawns, 4, backward=True)]
        elif card == "7":
            ways = [after for _, _, after in self.step(pawns, 7)]
            ways += (self.split_together if "a2-simultaneous" in house else self.split)(
                pawns, 7, 7 if "split-7-any" in house else 2)
            if "seven-both-ways" in house:
                ways += self.split_into(pawns, 7, ("forward", "backward")) + self.split_into(pawns, 7, ("backward", "forward"))
            forward = True
        elif card == "10":
            ways = [after for _, _, after in self.step(pawns, 10)] + \
                   [after for _, _, after in self.step(pawns, 1, backward=True)]
            if "ten-nine-one" in house:
                ways += self.split_into(pawns, 10, ("forward", "backward"), sizes=(9, 1))
            forward = True
        elif card == "11":
            ways, forward = [after for _, _, after in self.step(pawns, 11)], True
        elif card == "sorry":
            ways = self.sorry()
            if "sorry-forward-4" in house:
                ways += [after for _, _, after in self.step(pawns, 4)]
                forward = True
        if card in ("1", "2") or ("start-on-any-forward" in house and forward):  # H6: every card with a forward move
            ways += self.enter(pawns)
        if "mercy-start" in house and (forward or card == "7"):  # H27: a marked pawn leaves Start with any forward card
            ways += self.enter(pawns, marked_only=True)
        if forward and "safety-sprint" in house:
            for colour, i, where in self.pawns_of(pawns):
                if where.startswith("safety:"):
                    after = _copy(pawns)
                    after[colour][i] = "home"
                    ways.append(after)
        if card == "11":
            switches = self.switch()
            if switches and not ways:
                ways.append(pawns)  # R24, A14, R17: the switch may be declined when the 11 has no other play
            ways += switches
        if "start-exit-penalty" in house:
            ways = [self.off_limits(after) for after in ways]
        ways = [(after, None) for after in ways]
        if card == "sorry" and "freeze" in house:  # H31: or freeze a lone opposing pawn on the track, not frozen yet
            for other, mine in pawns.items():
                if not self.partners(self.turn, other):
                    ways += [(pawns, (other, where, self.turn)) for where in set(mine)
                             if where.startswith("track:") and (other, where) not in self.still]
        if "must-bump" in house or (card == "7" and "revenge-7" in house) or \
                (card in ("7", "11") and "revenge-7-11" in house):
            bumping = [way for way in ways if self.bumps(way[0])]
            ways = bumping or ways  # H17, H20: a bump there must be taken (a pass is no bump)
        if "bumped-start-exit" in house:
            ways = [(self.start_exits(after), freeze) for after, freeze in ways]
        return ways


def mulligans(hand) -> set:
    """H23: the kinds ("mulligan", other cards sorted) of the 8 played with one or two other
    cards of `hand` (another 8 among them)."""
    if "8" not in hand:
        return set()
    rest = list(hand)
    rest.remove("8")
    return {("mulligan", tuple(sorted(rest[i] for i in chosen)))
            for k in (1, 2) for chosen in itertools.combinations(range(len(rest)), k)}


def hand_moves(pawns: dict, turn: str, hand, house=(), board: Board = STANDARD) -> set:
    """Play for points (P4, P5, A21): {(card, placement, kind)} of a hand, kind "move",
    "pass" (declining an 11: only when every card that moves offers only switches) or
    "discard" (no card can move: any card, the placement unchanged). H17 applies across the
    hand (a bump with any card must be taken), H20 to each listed card's own moves. H23 (mulligan-8)
    adds the 8 played with others, kind ("mulligan", others), placement unchanged; a hand
    with an 8 is then never stuck (no P5 discard)."""
    game = Sorry(pawns, turn, house=tuple(h for h in house if h != "must-bump"), board=board)
    unchanged = placement(game.pawns)
    plays, declinable = [], True
    for card in set(hand):
        ways = [after for after, _ in game.ways(card)]
        declines = card == "11" and any(placement(after) == unchanged for after in ways)  # the 11 offers a pass
        moving = [after for after in ways if placement(after) != unchanged] if declines else ways
        if not moving:
            continue
        switches = {placement(game.settled(after)) for after in game.switch()} if declines else set()
        declinable = declinable and declines and all(placement(after) in switches for after in moving)
        plays += [(card, after) for after in moving]
    actions = {("8", unchanged, kind) for kind in mulligans(hand)} if "mulligan-8" in house else set()
    if not plays and not actions:
        return {(card, unchanged, "discard") for card in set(hand)}
    if "must-bump" in house and any(game.bumps(after) for _, after in plays):
        return {(card, placement(after), "move") for card, after in plays if game.bumps(after)}
    out = {(card, placement(after), "move") for card, after in plays} | actions
    if declinable and plays and not actions:  # A21: a mulligan (H23) is a play that is no switch
        out.add(("11", unchanged, "pass"))
    return out


def drawn_moves(pawns: dict, turn: str, cards, house=()) -> set:
    """H25, draw two and keep one: {(card, placement, kind)} of the two cards drawn, played
    as a hand of two for A21 (kind "move" or "pass"); neither can move: empty (both are
    discarded and the turn ends)."""
    plays = hand_moves(pawns, turn, cards, house)
    return {play for play in plays if play[2] != "discard"}


def redraws(pawns: dict, turn: str, card: str, redrawn: int, teams: bool = False, house=()) -> bool:
    """H26, no start no cry: the card cannot move, every pawn of the player is in Start or
    Home and fewer than two cards were redrawn this turn: the card is discarded for another."""
    return redrawn < 2 and all(p in ("start", "home") for p in pawns[turn]) and \
        not Sorry(pawns, turn, teams, house).outcomes(card)


def bumps_made(pawns: dict, after: dict, turn: str) -> int:
    """H22: the opposing pawns a move sent back to Start (R15, R26, R25)."""
    game = Sorry(pawns, turn)
    return sum(max(0, sum(map(in_start, after[other])) - sum(map(in_start, pawns[other])))
               for other in pawns if not game.partners(turn, other))


def points(pawns: dict, winner: str, cumulative: bool = False) -> dict:
    """P7: 5 per own pawn Home for everyone; the winner also 5 per opponent pawn not Home and
    the highest shut-out bonus that applies (100, 50, 25), or all that apply (`cumulative`,
    the P7 option)."""
    home = {colour: list(mine).count("home") for colour, mine in pawns.items()}
    scores = {colour: 5 * n for colour, n in home.items()}
    others = [n for colour, n in home.items() if colour != winner]
    scores[winner] += 5 * sum(len(pawns[colour]) - home[colour] for colour in pawns if colour != winner)
    best = max(others, default=0)
    if cumulative:
        scores[winner] += 100 * (best == 0) + 50 * (best <= 1) + 25 * (best <= 2)
    else:
        scores[winner] += 100 if best == 0 else 50 if best <= 1 else 25 if best <= 2 else 0
    return scores
