"""An independent Sequence: the legal moves and winners of a position, written from
docs/SEQUENCE.md alone (the board of section 1, S7, S10-S13), sharing no code with the
engine. `test_sequence_reference.py` compares the engine's moves oracle with it.

`Rules(length, shared, directions, targets)` is the rule book's game with its options: a
line of `length` cells along the `directions` given, lines counted together sharing at
most `shared` cells, and `targets` = (sequences to win with two sides, with three).
A position is (players, turn, hand, chips {cell: colour}, exchanged), in the names of
the position files (section 5)."""

from __future__ import annotations

BOARD = """
 1   **  2S  3S  4S  5S  6S  7S  8S  9S  **
 2   6C  5C  4C  3C  2C  AH  KH  QH  TH  TS
 3   7C  AS  2D  3D  4D  5D  6D  7D  9H  QS
 4   8C  KS  6C  5C  4C  3C  2C  8D  8H  KS
 5   9C  QS  7C  6H  5H  4H  AH  9D  7H  AS
 6   TC  TS  8C  7H  2H  3H  KH  TD  6H  2D
 7   QC  9S  9C  8H  9H  TH  QH  QD  5H  3D
 8   KC  8S  TC  QC  KC  AC  AD  KD  4H  4D
 9   AC  7S  6S  5S  4S  3S  2S  2H  3H  5D
10   **  AD  KD  QD  TD  9D  8D  7D  6D  **
"""
COLUMNS = "ABCDEFGHIJ"
FACE = {f"{col}{line.split()[0]}": face
        for line in BOARD.strip().splitlines() for col, face in zip(COLUMNS, line.split()[1:])}
CELLS = list(FACE)
CORNERS = frozenset(cell for cell, face in FACE.items() if face == "**")
CELLS_OF: dict = {}
for _cell, _face in FACE.items():
    if _face != "**":
        CELLS_OF.setdefault(_face, []).append(_cell)
TWO_EYED = frozenset({"JD", "JC"})
ONE_EYED = frozenset({"JH", "JS"})
#: S3: two decks without jokers
DECK = tuple(face for face in CELLS_OF for _ in range(2)) + ("JS", "JH", "JD", "JC") * 2


def _name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def straights(directions, length: int) -> list:
    """Every row, column and diagonal (both ways) of the 10x10 board along `directions`
    long enough for a line."""
    out = []
    if "row" in directions:
        out += [[_name(x, y) for x in range(10)] for y in range(10)]
    if "column" in directions:
        out += [[_name(x, y) for y in range(10)] for x in range(10)]
    if "diagonal" in directions:
        out += [[_name(x, x - d) for x in range(10) if 0 <= x - d < 10] for d in range(-9, 10)]
        out += [[_name(x, t - x) for x in range(10) if 0 <= t - x < 10] for t in range(19)]
    return [s for s in out if len(s) >= length]


class Rules:
    """Sequence with the options of S10, S11 and S13 (module docstring)."""

    def __init__(self, length=5, shared=1, directions=("row", "column", "diagonal"), targets=(2, 1)):
        self.length, self.shared, self.targets = length, shared, targets
        self.straights = straights(directions, length)

    def lines(self, chips: dict, colour: str) -> list:
        """S10: per straight, (its cells, the first index of each line of `colour` on it)."""
        L = self.length

        def owns(cell):
            return cell in CORNERS or chips.get(cell) == colour
        return [(s, [i for i in range(len(s) - L + 1) if all(owns(c) for c in s[i:i + L])]) for s in self.straights]

    def count(self, chips: dict, colour: str) -> int:
        """S11: the most lines that pairwise share at most `shared` cells, by trying every
        subset of each straight's lines (lines of two straights share at most one cell)."""
        gap = self.length - self.shared  # lines i < j of one straight share length - (j - i) cells
        total = 0
        for _, starts in self.lines(chips, colour):
            best = 0
            for mask in range(1 << len(starts)):
                chosen = [a for k, a in enumerate(starts) if mask >> k & 1]
                if len(chosen) > best and all(b - a >= gap for a, b in zip(chosen, chosen[1:])):
                    best = len(chosen)
            total += best
        return total

    def protected(self, chips: dict, cell: str) -> bool:
        """S10: the chip on `cell` lies in a line of its colour."""
        for s, starts in self.lines(chips, chips[cell]):
            if cell in s and any(a <= s.index(cell) < a + self.length for a in starts):
                return True
        return False

    def target(self, players) -> int:
        return self.targets[0] if len(players) == 2 else self.targets[1]

    def moves(self, players, turn: str, hand, chips: dict, exchanged: bool) -> dict:
        """{(card, kind, frozenset of (cell, colour) after): winner or None} (S6, S7, S12, S13)."""
        empty = [c for c in CELLS if c not in CORNERS and c not in chips]
        removable = [c for c, colour in chips.items() if colour != turn and not self.protected(chips, c)]
        out = {}
        for card in set(hand):
            if card in TWO_EYED:
                plays = [("place", c) for c in empty]
            elif card in ONE_EYED:
                plays = [("remove", c) for c in removable]
            else:
                plays = [("place", c) for c in CELLS_OF[card] if c not in chips]
            for kind, cell in plays:
                after = dict(chips)
                if kind == "place":
                    after[cell] = turn
                else:
                    del after[cell]
                wins = kind == "place" and self.count(after, turn) >= self.target(players)
                out[(card, kind, frozenset(after.items()))] = turn if wins else None
            dead = not plays
            if dead and not exchanged:
                out[(card, "exchange", frozenset(chips.items()))] = None
        return out
