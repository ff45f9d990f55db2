"""Which values a condition can take: interval analysis of DSL expressions, for the warning
that a filter or a consequence can never hold (or always holds, so it decides nothing).

Contract: `ValueRange(bounds).visit(ast)` returns, for a number, an `Interval` that holds
every value the expression can take, and for a condition the frozenset of the truth values
it can take (a subset of {True, False}); it never claims less than is possible, so a
condition found to take one value really always takes it. `bounds` maps a function name
(a count such as `home`, a fact such as `bumps`) to the interval its value lies in for one
colour; a call over a group multiplies that by the group's largest size. Names and nodes it
does not know (counters, later constructs) may take any value.
`variant_bounds(v, asts)` gives those bounds for a track variant;
`condition_warnings(v, asts, bounds, group_size, out)` warns (SR529) of each `filters:` condition and
each `after:` `when:` that can never hold, of a filter that always holds, and of a `win:` that
can never hold, and of a `geometry:` turn's `when:` that never or always holds;
`turn_masks(v, asts, group_size)` gives the sets of those turns their conditions may make
(`engine.routes.Routes.mask_of`'s masks). A count over a group word is bounded by the most
colours the word holds (`group_sizes`: `player` one, `team` the largest team, ...).
"""

from __future__ import annotations

import math
from itertools import product
from typing import NamedTuple

from sorry_rules import dsl
from sorry_rules.base.errors import ProblemCollector
from sorry_rules.compiler.geometry import geometry_texts
from sorry_rules.compiler.vocabulary import COUNTS, FACTS

BOTH = frozenset((True, False))
_INF = math.inf


class Interval(NamedTuple):
    lo: float
    hi: float


ANY = Interval(-_INF, _INF)
_NEVER = {"must": "the filter removes every move it judges", "prefer": "the filter never prefers a move",
          "when": "the consequence never follows"}


def _product(a: float, b: float) -> float:
    return 0.0 if a == 0 or b == 0 else a * b


def _compare(op: str, a: Interval, b: Interval) -> frozenset:
    """The truth values `a op b` can take for values drawn from the two intervals."""
    can_be = {
        "<": (a.lo < b.hi, a.hi >= b.lo), "<=": (a.lo <= b.hi, a.hi > b.lo),
        ">": (a.hi > b.lo, a.lo <= b.hi), ">=": (a.hi >= b.lo, a.lo < b.hi),
        "==": (a.lo <= b.hi and b.lo <= a.hi, not (a.lo == a.hi == b.lo == b.hi)),
        "!=": (not (a.lo == a.hi == b.lo == b.hi), a.lo <= b.hi and b.lo <= a.hi),
    }[op]
    return frozenset(value for value, possible in zip((True, False), can_be) if possible)


#: the group word of `sizes` that holds the most colours a selector's owner word may choose (`other`: every
#: colour but one, as many as `opponents` may hold)
_OWNER_GROUP = {"own": "player", "partner": "partners", "opponent": "opponents", "other": "opponents",
                "controlled": "team", "any": "players"}


class ValueRange(dsl.Visitor):
    covers = dsl.EXPRESSION_NODES

    def __init__(self, bounds: dict, group_size: int, sizes: dict | None = None, names: dict | None = None):
        self.bounds = bounds
        self.group_size = group_size
        self.sizes = sizes or {}  # group word -> the most colours it holds (`player`: 1, `team`: ...)
        self.names = names or {}  # a name read as a number (a grid's `sides`) -> its interval

    def generic(self, node, *args):
        return ANY

    def visit_Number(self, node):
        return Interval(node.value, node.value)

    def visit_Bool(self, node):
        return frozenset((node.value,))

    def visit_Can(self, node):
        return BOTH

    def visit_Call(self, node):
        unit = self.bounds.get(node.function)
        if unit is None:
            return ANY
        size = self.sizes.get(node.argument.name, self.group_size) if isinstance(node.argument, dsl.Name) else \
            self.group_size
        if node.function == "pawns":  # a group's pawns: its colours' pawns all, for one colour at least
            return Interval(unit.lo, _product(unit.hi, size))
        return Interval(_product(unit.lo, size), _product(unit.hi, size))

    def visit_Name(self, node):
        return BOTH if node.name in ("true", "false") else self.names.get(node.name, ANY)

    def visit_CountPawns(self, node):
        """`count(pawns SEL)`: between none and every pawn of the colours SEL's owner may choose."""
        unit = self.bounds.get("pawns")
        if unit is None:
            return ANY
        group = self.sizes.get(_OWNER_GROUP[node.selector.owner or "controlled"], self.group_size)
        return Interval(0, _product(unit.hi, group))

    def visit_Aggregate(self, node):
        body = self.visit(node.body)
        if node.kind == "count":
            return Interval(0, self.group_size)
        if isinstance(body, frozenset) or node.kind != "sum":
            return body if isinstance(body, Interval) else ANY
        return Interval(min(0.0, _product(body.lo, self.group_size)), max(0.0, _product(body.hi, self.group_size)))

    def visit_Not(self, node):
        operand = self.visit(node.operand)
        return frozenset(not value for value in operand) if isinstance(operand, frozenset) else BOTH

    def visit_Neg(self, node):
        operand = self.visit(node.operand)
        return Interval(-operand.hi, -operand.lo) if isinstance(operand, Interval) else ANY

    def visit_BinOp(self, node):
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op in ("and", "or"):
            return self._logic(node.op, left, right)
        if not (isinstance(left, Interval) and isinstance(right, Interval)):
            return BOTH if node.op in ("==", "!=", "<", "<=", ">", ">=") else ANY
        if node.op == "+":
            return Interval(left.lo + right.lo, left.hi + right.hi)
        if node.op == "-":
            return Interval(left.lo - right.hi, left.hi - right.lo)
        if node.op == "*":
            corners = [_product(a, b) for a in left for b in right]
            return Interval(min(corners), max(corners))
        return _compare(node.op, left, right)

    @staticmethod
    def _logic(op: str, left, right) -> frozenset:
        left = left if isinstance(left, frozenset) else BOTH
        right = right if isinstance(right, frozenset) else BOTH
        if op == "and":
            return frozenset(a and b for a in left for b in right)
        return frozenset(a or b for a in left for b in right)


def throw_names(v) -> dict:
    """The values the facts of a throw read as names may take (`total`: the faces added up, 0
    for a card; `doubles`: two or more dice showing one face, never with one die or a card)."""
    turn = v.turn
    if getattr(turn, "source", "draw") != "dice":
        return {"total": Interval(0, 0), "doubles": frozenset((False,))}
    dice, faces = turn.dice, [int(f) for f in turn.faces]
    return {"total": Interval(dice * min(faces), dice * max(faces)),
            "doubles": frozenset((False,)) if dice == 1 else BOTH}


def group_sizes(v) -> dict:
    """The most colours each group word of the DSL holds in track variant `v`."""
    colours = len(v.colours)
    team = max((len(t) for t in v.teams or ()), default=1)
    return {"player": 1, "team": team, "partners": team - 1, "opponents": colours - 1, "players": colours}


def condition_warnings(v, asts: dict, bounds: dict, group_size: int, out: ProblemCollector) -> None:
    """A warning (SR529) for each `filters:` condition of `v` that can never hold or always
    holds, each `after:` `when:` that can never hold, and a `win:` that can never hold; `asts`
    maps each DSL text's path to its tree (absent where it failed)."""
    paths = [("filters", name, "must" if f.must is not None else "prefer") for name, f in v.filters.items()]
    paths += [("after", name, "when") for name in v.after]
    sizes, throw = group_sizes(v), throw_names(v)
    win = asts.get(("win",))
    if win is not None and ValueRange(bounds, group_size, sizes).visit(win) == frozenset((False,)):
        held = getattr(v.board, "home_hold", None)
        home = f", a Home holds {held} (board.home_hold)" if held is not None and held < v.pawns else ""
        out.at(("win",), "SR529", f"win: this condition can never hold ({v.pawns} pawns a colour{home}), so no one "
               "ever wins: every game runs to its move limit", severity="warning")
    for path, values in _turn_values(v, asts, bounds, group_size):
        if values == frozenset((False,)):
            out.at(path, "SR529", f"geometry.turns.{path[2]}: this condition can never hold, so the turn is never there",
                   severity="warning")
        elif values == frozenset((True,)):
            out.at(path, "SR529", f"geometry.turns.{path[2]}: this condition always holds, so the turn is always there "
                   "(leave when: out)", severity="warning")
    for path in paths:
        ast = asts.get(path)
        if ast is None:
            continue
        values = ValueRange(bounds, group_size, sizes, throw).visit(ast)
        if values == frozenset((False,)):
            out.at(path, "SR529", f"{path[0]}.{path[1]}: this condition can never hold, so {_NEVER[path[2]]}",
                   severity="warning")
        elif values == frozenset((True,)) and path[0] == "filters":
            out.at(path, "SR529", f"filters.{path[1]}: this condition always holds, so the filter removes "
                   "no move", severity="warning")


def _turn_values(v, asts: dict, bounds: dict, group_size: int) -> list:
    """[(path, truth values), ...] of each `geometry:` turn's `when:`, in the order of the
    turns (both values where its text failed or is no condition)."""
    sizes, throw, out = group_sizes(v), throw_names(v), []
    for path, _, _ in geometry_texts(v):
        ast = asts.get(path)
        values = ValueRange(bounds, group_size, sizes, throw).visit(ast) if ast is not None else None
        out.append((path, values if isinstance(values, frozenset) and values else frozenset((False, True))))
    return out


def turn_masks(v, asts: dict, group_size: int) -> tuple:
    """The masks (bit j: the j-th turn with a `when:` is there) the conditions of the
    `geometry:` turns may give: a turn whose condition always holds is always there, one whose
    condition never holds never is, any other may be there or not."""
    if not geometry_texts(v):
        return (0,)
    choices = [[bit for bit, value in ((0, False), (1, True)) if value in values]
               for _, values in _turn_values(v, asts, variant_bounds(v, asts), group_size)]
    return tuple(sum(bit << j for j, bit in enumerate(combo)) for combo in product(*choices))


def grid_win_warning(v, win, grid, out: ProblemCollector) -> None:
    """A warning (SR529) when `win`, the parsed `win:` of grid variant `v` (board `grid`),
    can never hold: a side's sequences lie between none and the lines of `length` cells the
    board has, its chips between none and the cells that take chips, and `sides` between the
    fewest and the most colours a seating has."""
    segments = sum(max(0, len(straight) - grid.length + 1) for straight in grid.straights)
    sides = [len(set(names)) for names in v.seating.values()] or [grid.C]
    bounds = {"sequences": Interval(0, segments), "chips": Interval(0, grid.size - len(grid.free))}
    sizes = {"player": 1, "team": 1, "opponents": grid.C - 1, "players": grid.C}
    values = ValueRange(bounds, grid.C, sizes, {"sides": Interval(min(sides), max(sides))}).visit(win)
    if values == frozenset((False,)):
        out.at(("win",), "SR529", f"win: this condition can never hold ({segments} lines of {grid.length} cells on the "
               f"board, {grid.size - len(grid.free)} cells for chips, "
               f"{min(sides) if min(sides) == max(sides) else f'{min(sides)} to {max(sides)}'} sides), so no one "
               "ever wins: every game ends in a draw or at its move limit", severity="warning")


def variant_bounds(v, asts: dict) -> dict:
    """The interval of each count and fact for one colour of the track variant `v`: between
    none and all of its pawns (in Home, no more than a Home holds: `board.home_hold`), and
    none at all for slides on a board without slides or for switches where no card effect
    switches."""
    pawns = Interval(0, v.pawns)
    bounds = {name: pawns for name in COUNTS + FACTS}
    bounds["pawns"] = Interval(v.pawns, v.pawns)  # every pawn a colour has
    home_hold = getattr(v.board, "home_hold", None)
    if home_hold is not None:
        bounds["home"] = Interval(0, min(v.pawns, home_hold))
    if not getattr(v.board, "slides", None):
        bounds["slides"] = Interval(0, 0)
    card_nodes = (node for path, ast in asts.items() if path[0] == "cards" and ast is not None for node in dsl.walk(ast))
    if not any(isinstance(node, dsl.Switch) for node in card_nodes):
        bounds["switches"] = Interval(0, 0)
    return bounds
