"""An independent Sorry!: the results a card allows in a position, written from RULES.md alone
(the board of section 1, R6-R33, A1-A14, A21, A24, partnership T2, T4-T6, T9, T10, and the
hands and scores of play for points P4, P5, P7), sharing no code with the engine.
`test_sorry_reference.py` compares the engine's moves oracle with it.

A position is in the notation of position files: per colour its pawns' positions (`start`,
`track:N`, `safety:K`, `home`). A result is the placement after the move: per colour the
sorted tuple of its positions (`placement`); an 11 that may be declined (R24, A14) has the
unchanged placement among its results."""

from __future__ import annotations

COLOURS = ("red", "blue", "yellow", "green")
TRACK = 60
TEAMS = (("red", "yellow"), ("blue", "green"))  # T1


def start_exit(c: int) -> int:
    return 15 * c + 4


def safety_entry(c: int) -> int:
    return 15 * c + 2


def slide_at(square: int) -> tuple | None:
    """(owner colour, end circle) of the slide whose triangle is `square` (R26)."""
    side, offset = divmod(square, 15)
    if offset == 1:
        return side, square + 3
    if offset == 9:
        return side, square + 4
    return None


def placement(pawns: dict) -> tuple:
    return tuple((colour, tuple(sorted(pawns[colour]))) for colour in sorted(pawns))


class Sorry:
    """One position's moves (module docstring); `teams` plays partnership (T2, T4-T6, T10)."""

    def __init__(self, pawns: dict, turn: str, teams: bool = False):
        self.pawns = {colour: list(mine) for colour, mine in pawns.items()}
        self.turn = turn
        self.teams = teams
        team = next((t for t in TEAMS if turn in t), (turn,)) if teams else (turn,)
        self.movers = [colour for colour in team if colour in pawns]  # T2: whose pawns the player moves

    def opponent(self, a: str, b: str) -> bool:
        """Whether colours a and b play against each other (T10)."""
        return a != b and not (self.teams and any(a in t and b in t for t in TEAMS))

    # ---- one pawn ---------------------------------------------------------------------------
    def forward(self, colour: str, where: str, n: int) -> str | None:
        """Where n steps forward take a pawn (R13, R31, R33), or None."""
        c = COLOURS.index(colour)
        if where.startswith("track:"):
            square = int(where[6:])
            to_entry = (safety_entry(c) - square) % TRACK
            if n <= to_entry:
                return f"track:{(square + n) % TRACK}"
            k = n - to_entry
        elif where.startswith("safety:"):
            k = int(where[7:]) + n
        else:
            return None
        return f"safety:{k}" if k <= 5 else "home" if k == 6 else None

    def backward(self, colour: str, where: str, n: int) -> str | None:
        """Where n steps backward take a pawn (R13, R30, A12), or None."""
        c = COLOURS.index(colour)
        if where.startswith("track:"):
            return f"track:{(int(where[6:]) - n) % TRACK}"
        if where.startswith("safety:"):
            k = int(where[7:])
            return f"safety:{k - n}" if n < k else f"track:{(safety_entry(c) - (n - k)) % TRACK}"
        return None

    def at(self, pawns: dict, where: str, colour: str | None = None) -> str | None:
        """The colour of the pawn on `where` (a safety square: of `colour`'s zone; Home holds
        any number and blocks nobody: None)."""
        if where == "home":
            return None
        if where.startswith("safety:"):
            return colour if where in pawns[colour] else None
        return next((other for other, mine in pawns.items() if where in mine), None)

    def send_home(self, pawns: dict, where: str) -> None:
        """The pawn on track square `where` goes back to its Start (R15)."""
        for mine in pawns.values():
            if where in mine:
                mine[mine.index(where)] = "start"

    def arrive(self, pawns: dict, colour: str, i: int, target: str) -> dict | None:
        """Pawn i of `colour` ends its move on `target`: blocked by its own colour (R16), a
        bump (R15, T5), then a slide of another colour (R26, T9). A new dict, or None."""
        if self.at(pawns, target, colour) == colour and pawns[colour][i] != target:
            return None
        after = {other: list(mine) for other, mine in pawns.items()}
        after[colour][i] = "moving"
        if target.startswith("track:"):
            self.send_home(after, target)
            after[colour][i] = target
            self.slide(after, colour, i)
        else:
            after[colour][i] = target
        return after

    def slide(self, pawns: dict, colour: str, i: int) -> None:
        """R26, T9: on another colour's triangle the pawn slides to the end circle, every pawn
        on the slide's other squares (own included) going back to Start."""
        where = pawns[colour][i]
        found = slide_at(int(where[6:])) if where.startswith("track:") else None
        if found is None or COLOURS[found[0]] == colour:
            return
        square = int(where[6:])
        pawns[colour][i] = "moving"
        for k in range(square + 1, found[1] + 1):
            self.send_home(pawns, f"track:{k}")
        pawns[colour][i] = f"track:{found[1]}"

    # ---- cards ------------------------------------------------------------------------------
    def pawns_of(self, pawns: dict):
        """(colour, index, where) of every pawn the player moves (T2)."""
        return [(colour, i, where) for colour in self.movers for i, where in enumerate(pawns[colour])]

    def step(self, pawns: dict, n: int, backward: bool = False) -> list:
        """One pawn n forward (or backward): every (colour, index, pawns after)."""
        out = []
        for colour, i, where in self.pawns_of(pawns):
            target = (self.backward if backward else self.forward)(colour, where, n)
            if target is not None:
                after = self.arrive(pawns, colour, i, target)
                if after is not None:
                    out.append((colour, i, after))
        return out

    def enter(self, pawns: dict) -> list:
        """R6, R9, R10: a pawn from Start onto its start exit."""
        out = []
        for colour, i, where in self.pawns_of(pawns):
            if where == "start":
                after = self.arrive(pawns, colour, i, f"track:{start_exit(COLOURS.index(colour))}")
                if after is not None:
                    out.append(after)
        return out

    def split(self, total: int) -> list:
        """R22, A1-A3, T4: forward `total` split between two different pawns, one part after
        the other, both parts legal exact moves on the board the first part left."""
        out = []
        for first in range(1, total):
            for colour, i, after in self.step(self.pawns, first):
                for other, j, where in self.pawns_of(self.pawns):
                    if (other, j) == (colour, i) or where in ("start", "home"):
                        continue
                    now = after[other][j]
                    if now == "start":
                        continue  # A2: the first part sent the second pawn back
                    target = self.forward(other, now, total - first)
                    if target is not None:
                        done = self.arrive(after, other, j, target)
                        if done is not None:
                            out.append(done)
        return out

    def switch(self) -> list:
        """R24, A4, T10: one of the player's pawns on the track trades places with an opposing
        pawn on the track; then each slides, the mover first."""
        out = []
        for colour, i, where in self.pawns_of(self.pawns):
            if not where.startswith("track:"):
                continue
            for other, mine in self.pawns.items():
                if not self.opponent(colour, other) or other in self.movers:
                    continue
                for j, theirs in enumerate(mine):
                    if theirs.startswith("track:"):
                        after = {o: list(m) for o, m in self.pawns.items()}
                        after[colour][i], after[other][j] = theirs, where
                        self.slide(after, colour, i)
                        if after[other][j] == where:
                            self.slide(after, other, j)
                        out.append(after)
        return out

    def sorry(self) -> list:
        """R25, A6, T6: a pawn from Start onto a track square held by a pawn of another colour
        (an opponent's; with partners, any colour but the placed pawn's), which goes back."""
        out = []
        for colour in self.movers:
            if "start" not in self.pawns[colour]:
                continue
            i = self.pawns[colour].index("start")
            for other, mine in self.pawns.items():
                if other == colour or not (self.teams or self.opponent(colour, other)):
                    continue
                for theirs in mine:
                    if theirs.startswith("track:"):
                        out.append(self.arrive(self.pawns, colour, i, theirs))
        return out

    def results(self, card: str) -> set:
        """Every distinct placement `card` leads to (A24); empty: the card is forfeit."""
        pawns = self.pawns
        ways = []
        number = {"1": 1, "2": 2, "3": 3, "5": 5, "8": 8, "12": 12}.get(card)
        if number is not None:
            ways = [after for _, _, after in self.step(pawns, number)]
            if card in ("1", "2"):
                ways += self.enter(pawns)
        elif card == "4":
            ways = [after for _, _, after in self.step(pawns, 4, backward=True)]
        elif card == "7":
            ways = [after for _, _, after in self.step(pawns, 7)] + self.split(7)
        elif card == "10":
            ways = [after for _, _, after in self.step(pawns, 10)] + \
                   [after for _, _, after in self.step(pawns, 1, backward=True)]
        elif card == "11":
            ways = [after for _, _, after in self.step(pawns, 11)]
            switches = self.switch()
            if switches and not ways:
                switches.append(pawns)  # R24, A14: with no forward 11, the switch may be declined
            ways += switches
        elif card == "sorry":
            ways = self.sorry()
        return {placement(after) for after in ways}


def hand_moves(pawns: dict, turn: str, hand) -> set:
    """Play for points (P4, P5, A21): {(card, placement, kind)} of a hand, kind "move",
    "pass" (declining an 11: only when every card that moves offers only switches) or
    "discard" (no card can move: any card, the placement unchanged)."""
    game = Sorry(pawns, turn)
    unchanged = placement(game.pawns)
    plays, declinable = set(), True
    for card in set(hand):
        results = game.results(card)
        moving = results - {unchanged} if card == "11" and not game.step(game.pawns, 11) else results
        if not moving:
            continue
        declinable = declinable and card == "11" and not game.step(game.pawns, 11)
        plays |= {(card, result, "move") for result in moving}
    if not plays:
        return {(card, unchanged, "discard") for card in set(hand)}
    if declinable:
        plays.add(("11", unchanged, "pass"))
    return plays


def points(pawns: dict, winner: str) -> dict:
    """P7: 5 per own pawn Home for everyone; the winner also 5 per opponent pawn not Home and
    the highest shut-out bonus that applies (100, 50, 25)."""
    home = {colour: list(mine).count("home") for colour, mine in pawns.items()}
    scores = {colour: 5 * n for colour, n in home.items()}
    others = [n for colour, n in home.items() if colour != winner]
    scores[winner] += 5 * sum(len(pawns[colour]) - home[colour] for colour in pawns if colour != winner)
    best = max(others, default=0)
    scores[winner] += 100 if best == 0 else 50 if best <= 1 else 25 if best <= 2 else 0
    return scores
