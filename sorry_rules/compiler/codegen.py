"""Generate specialised Python for the legal moves of a race-track variant's cards.

For every card and player colour one function `m<card>_<colour>(P) -> (moves, spare_flags)`
is written from fixed templates (`engine.fastmoves` describes its contract: exactly what
`Game._moves_of` returns). The card's alternatives are unrolled in their order; `forward N`,
`backward N` and `enter` are inlined per controlled colour with that colour's destination
table and slide marks bound as constants, and a landing that neither bumps nor slides builds
its placement directly; other landings, and slides after `switch` and `sorry`, run lean
helpers of the interpreter's rules (`fastmoves.Helpers`). What is generated beyond that:
- `geometry:` (turns, bounces, pawns that cannot be passed): a step is a lookup in route
  tables (`compiler.routetables`: per colour and square, each way's end and the squares it
  passes that some pawn could block), with a per-square check of the blockers;
- `split N among 2` and `split N into D1, D2` (two different pawns) unrolled; any other
  `split N among K` and every split along routes searched by `Helpers.split_many` on integer
  placement keys;
- `send` / `move` with a pawn selector: owner and zone static per colour, `alone` checked;
- marks: when no mark kind can stop a move (not immobile, not untouchable) the functions
  take the marks too, `m<card>_<colour>(P, M)`: a pawn leaving Start is one move per kind
  of pawn there (the "carry" events), `enter marked K` is generated, and each move carries
  the marks after it (`MK`); otherwise they play only positions with no mark set (the
  interpreter plays the others, `Game._play_board`). `mark`/`unmark`, and every other
  primitive, run the primitive's compiled closure on a board built once per call.
Guards call their compiled condition unless made of `can(...)`, not, and, or.

Security contract: the source is built from the templates below and integers only (card
and colour indices, squares, flags); tables, closures and conditions are passed in the
module's namespace under generated names (`F7_2`, `PRIM0`, `COND1`, `ZONE3_0_1`), so no
text of a rule file (a name, a string, DSL text, a mark's name) can reach the source. Each
function is compiled on its first call (`fast_moves`) and executed in one namespace holding
no builtins beyond list, tuple, set, bool, range and len.

Coverage: a variant is generated only when every feature `Game.features()` names is in
`COVERED` (a construct added later falls back to the interpreter until it is covered here)
and its source stays within `limits.MAX_GENERATED_LINES`;
a card whose effect uses `A then B` with B other than draw_again/pass, or a grid primitive,
is played by the interpreter (its entry is None), the other cards still by generated code.
"""

from __future__ import annotations

import functools

from sorry_rules import dsl
from sorry_rules.base.limits import MAX_GENERATED_LINES
from sorry_rules.compiler import routetables
from sorry_rules.compiler.programs import CompileError
from sorry_rules.compiler.selectors import compile_selector
from sorry_rules.engine.marks import zone
from sorry_rules.engine.pawns import destination
from sorry_rules.engine.fastmoves import FastMoves, namespace, placement_key, placement_weights
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS

#: The features of `Game.features()` the generated code reproduces exactly. The turn
#: policies ("actions", "turn.take", "turn.redraw") change the turn flow, not a card's moves:
#: the engine runs them around the same move functions (`Game.legal_moves`).
COVERED = frozenset({
    "board:track", "turn:draw", "turn:hand", "filters", "after", "counters", "actions", "turn.take", "turn.redraw",
    "rules.control", "rules.bump", "rules.slide_on", "rules.slide_sweep", "rules.slide_after_switch",
    "rules.slide_after_sorry", "rules.split", "rules.overshoot_home", "rules.must_bump",
    "geometry", "marks",
})


def takes_marks(kinds: tuple) -> bool:
    """Whether the generated functions of a variant with these mark kinds take the marks (`m(P, M)`)."""
    return bool(kinds)


class Unsupported(Exception):
    """A card effect the generator does not cover (the interpreter plays the card)."""


class TooLarge(Exception):
    """The variant's generated source would exceed MAX_GENERATED_LINES (the interpreter plays)."""


class GeneratedModule:
    """The constants a generated module's namespace binds, and its counter of fresh names
    (`loopgen` extends it)."""

    def __init__(self, mechanics, kinds: tuple = ()):
        # the variant has marks: the functions take them too, `m(P, M)`, and give each move its marks
        self.full = takes_marks(kinds)
        # some kind can stop a move (immobile, untouchable): ST, GU are the (colour, square) of the
        # pawns that may not move and of those that may not be moved (`marks.shields`)
        self.shielded = any(k.immobile or k.untouchable for k in kinds)
        layout = mechanics.layout
        self.count = 0
        self.constants: dict[str, object] = {"EMPTY": [-1] * layout.size}
        for c in range(layout.C):
            # SLIDE<c>[sq]: a colour-c pawn ending a move on exclusive square sq takes a slide
            slides = tuple(0 if info is None else 1 for info in mechanics.slide_here[c])
            self.constants[f"SLIDE{c}"] = slides + (0,) * (layout.X - len(slides))

    def fresh(self) -> int:
        self.count += 1
        return self.count

    def constant(self, name: str, value) -> str:
        self.constants[name] = value
        return name


class CardWriter(dsl.Visitor):
    """Writes the body of one (card, player colour) function; `visit(node)` appends the
    lines of `node`'s outcomes under the flags of the enclosing `then draw_again/pass`."""

    def __init__(self, module: GeneratedModule, mechanics, programs, card: int, player: int, probe: bool = False,
                 select: bool = False):
        self.probe = probe  # write `can(...)`: return True at the first outcome, False after the last
        self.select = select  # write the candidates flavour (`engine.fastmoves`), not Moves
        self.extra: list[str] = []  # the probe functions this function calls
        self.module = module
        self.m = mechanics
        self.programs = programs
        self.card = card
        self.player = player
        self.colours = tuple(mechanics.control_of[player])
        self.flags = 0
        self.depth = 1
        self.counter = 0
        self.body: list[str] = []
        self.uses_occ = False
        self.sets: set[str] = set()
        # Move.marks of a pass (the marks before it), and of every move of a variant without marks
        self.no_marks = "M" if module.full else "()"
        # (colour, Start square, name of the selector's (marked, unmarked) or "") while writing
        # a primitive whose pawn leaves Start
        self.carry = None
        self.plain_shields = False  # writing the block for positions where no pawn is shielded

    # ---- writing -----------------------------------------------------------------------------
    def line(self, text: str) -> None:
        self.body.append("    " * self.depth + text)

    def indent(self, by: int) -> None:
        self.depth += by

    def fresh(self) -> int:
        self.counter += 1
        return self.counter

    def emit_move(self, result: str, events: str, key: str = "", payload: str = "") -> None:
        """Lines adding one outcome that moves a pawn, under the current static flags: a
        `Move(result, events)`, or in the candidates flavour `(key, draw_again, payload...)`
        keyed by the exact placement key `key` (default: computed from `result`)."""
        if self.probe:
            self.line("return True")
            return
        da = "True" if self.flags & DRAW_AGAIN else "False"
        seen = self.seen_set("m", self.flags & DRAW_AGAIN)
        if self.module.full:
            self.emit_marked(result, events, da, seen)
            return
        self.line("n += 1")
        if self.select:
            if not key:
                key, payload = f"KEY({result})", f"1, {result}, {events}"
            self.line(f"key = {key}")
            self.line(f"k0 = len({seen})")
            self.line(f"{seen}.add(key)")
            self.line(f"if len({seen}) != k0:")
            self.line(f"    out.append((key, {da}, {payload}))")
            return
        self.line(f"k0 = len({seen})")
        self.line(f"{seen}.add({result})")
        self.line(f"if len({seen}) != k0:")
        self.line(f"    out.append(NEW(Move, ({self.card}, {result}, {events}, {da}, K_MOVE, (), NO_LABEL, {self.no_marks})))")

    def emit_marked(self, result: str, events: str, da: str, seen: str) -> None:
        """`emit_move` for a variant with marks (`GeneratedModule.full`): the move
        carries the marks after it, MK(M, events, result), and is told apart by them too; a
        pawn leaving Start (`self.carry`: colour and square) is one outcome per kind of pawn
        there (`CARRIES`: the "carry" events of each, as `MarkedMechanics.from_start`)."""
        if self.carry is not None:
            c, sq, chosen = self.carry
            self.line(f"for cr in CARRIES(M, {int(c)}, {sq}, P{int(c)}{', ' + chosen if chosen else ''}):")
            self.indent(1)
            self.line(f"ev = cr + {events}")
            events = "ev"
        self.line("n += 1")
        self.line(f"mk = MK(M, {events}, {result})")
        self.line(f"key = ({result}, mk)")
        self.line(f"k0 = len({seen})")
        self.line(f"{seen}.add(key)")
        self.line(f"if len({seen}) != k0:")
        self.line(f"    out.append(NEW(Move, ({self.card}, {result}, {events}, {da}, K_MOVE, (), NO_LABEL, mk)))")
        if self.carry is not None:
            self.indent(-1)

    def emit_bare(self, flags: int) -> None:
        """Lines adding one outcome that moves nothing (draw_again, pass) with `flags`."""
        if self.probe:
            self.line("return True")
            return
        self.line("n += 1")
        if flags & PASS:
            da = "True" if flags & DRAW_AGAIN else "False"
            seen = self.seen_set("p", flags & DRAW_AGAIN)
            self.line(f"if P not in {seen}:")
            self.line(f"    {seen}.add(P)")
            if self.select:
                self.line(f"    out.append((KP, {da}, 5))")
            else:
                self.line(f"    out.append(NEW(Move, ({self.card}, P, (), {da}, K_PASS, (), NO_LABEL, {self.no_marks})))")
        else:
            self.line(f"spare |= {int(flags)}")

    def seen_set(self, kind: str, draw_again: int) -> str:
        """The name of the set of results already listed with this kind ("m" move, "p" pass)
        and draw-again flag: `_moves_of`'s key (result, kind, draw_again), one set per kind and flag."""
        name = f"seen_{kind}{1 if draw_again else 0}"
        self.sets.add(name)
        return name

    def need_board(self) -> None:
        self.line("if B is None:")
        if self.module.full:
            self.line("    B = MB(P, M)")
        else:
            self.line(f"    B = Board.of(P, {int(self.m.X)})")

    # ---- unsupported -----------------------------------------------------------------------
    def generic(self, node):
        """Any other primitive of the race track runs as the interpreter's closure."""
        try:
            self.primitive(node)
        except CompileError:
            raise Unsupported(type(node).__name__) from None

    # ---- inlined primitives --------------------------------------------------------------------
    def plain_landing(self, c: int, frm: str, step: str) -> None:
        """Lines for colour c's pawn moving `frm` -> `to` (a local) with no bump and no slide."""
        if self.probe:
            self.emit_move("", "")
            return
        if self.select:
            self.emit_move("", "", f"KP - E{int(c)}[{frm}] + E{int(c)}[to]", f"0, {int(c)}, {frm}, to, {step}")
            return
        parts = ", ".join("tuple(s)" if i == c else f"P{i}" for i in range(self.m.layout.C))
        self.line(f"s = list(P{int(c)})")
        self.line(f"s[s.index({frm})] = to")
        self.line("s.sort()")
        self.line(f"r = ({parts},)")
        self.emit_move("r", f"(({step}, {int(c)}, {frm}, to),)")

    def full_landing(self, c: int, frm: str, step: str) -> None:
        """Lines for a landing that may bump or slide (the interpreter's `land`)."""
        if self.select:
            self.line(f"rl = land_key({int(c)}, {frm}, to, {step}, P, occ, (), KP)")
        else:
            self.line(f"rl = land({int(c)}, {frm}, to, {step}, P, occ{', (), GU' if self.module.shielded else ''})")
        self.line("if rl is not None:")
        self.indent(1)
        self.emit_move("rl[0]", "rl[1]", "rl[2]" if self.select else "", "1, rl[0], rl[1]")
        self.indent(-1)

    def landing(self, c: int, frm: str, step: str) -> None:
        self.line("o = occ[to]")
        self.line(f"if o != {int(c)}{' and (o < 0 or (o, to) not in GU)' if self.module.shielded else ''}:")
        self.indent(1)
        self.line(f"if o < 0 and not SLIDE{int(c)}[to]:")
        self.indent(1)
        self.plain_landing(c, frm, step)
        self.indent(-1)
        self.line("else:")
        self.indent(1)
        self.full_landing(c, frm, step)
        self.indent(-2)

    def movable(self, c: int) -> str:
        """The condition (after `sq < X`) that colour c's pawn on `sq` may move."""
        return f" and ({int(c)}, sq) not in ST" if self.module.shielded else ""

    def step(self, node, direction: str, kind: str, step: str) -> None:
        """`forward N` / `backward N` of every pawn the player controls: along the plain
        destination table, or along the route tables when the variant has `geometry:`."""
        if node.selector is not None:
            self.primitive(node)
            return
        if self.m.routes is not None:
            self.route_step(node, direction, kind, step)
            return
        self.uses_occ = True
        X, steps = int(self.m.X), int(node.steps)
        table = (self.m.layout.forward if direction == "forward" else self.m.layout.backward)(steps)
        for c in self.colours:
            name = self.module.constant(f"{kind}{steps}_{int(c)}", table[c])
            self.line(f"row = {name}")
            self.line(f"for sq in P{int(c)}:")
            self.line(f"    if sq < {X}{self.movable(c)}:")
            self.line("        to = row[sq]")
            self.line(f"        if to >= {X}:")
            self.indent(3)
            self.plain_landing(c, "sq", step)
            self.indent(-3)
            self.line("        elif to >= 0:")
            self.indent(3)
            self.landing(c, "sq", step)
            self.indent(-3)

    def route_step(self, node, direction: str, kind: str, step: str) -> None:
        """A step along `geometry:` routes (turns, bounces, pawns that cannot be passed) as
        table lookups (`compiler.routetables`): the ways of each square, each with the
        squares passed that some pawn could block, checked against BLOCK<c>[s][o]."""
        ways = routetables.step_ways(self.m, direction, int(node.steps))
        if ways is None:
            self.primitive(node)
            return
        self.uses_occ = True
        X = int(self.m.X)
        for c in self.colours:
            name = self.module.constant(f"W{kind}{int(node.steps)}_{int(c)}", ways[c])
            block = self.module.constant(f"BLOCK{int(c)}", routetables.blockers(self.m, c))
            self.line(f"for sq in P{int(c)}:")
            self.line(f"    if sq < {X}{self.movable(c)}:")
            self.line(f"        for to, passed in {name}[sq]:")
            self.line("            for s in passed:")
            self.line("                o = occ[s]")
            self.line(f"                if o >= 0 and {block}[s][o]:")
            self.line("                    break")
            self.line("            else:")
            self.line(f"                if to >= {X} or to == sq:")
            self.indent(5)
            self.plain_landing(c, "sq", step)
            self.indent(-5)
            self.line("                else:")
            self.indent(5)
            self.landing(c, "sq", step)
            self.indent(-5)

    def visit_Forward(self, node):
        self.step(node, "forward", "F", "E_FORWARD")

    def visit_Backward(self, node):
        self.step(node, "backward", "R", "E_BACKWARD")

    def visit_Enter(self, node):
        layout = self.m.layout
        colours, chosen, alone = self.colours, "", False
        if node.selector is not None:
            if not self.module.full:
                self.primitive(node)
                return
            sel = compile_selector(self.programs, node.selector)
            colours = [c for c in self.colours if sel.owner[self.player][c] and (not sel.zones or "start" in sel.zones)]
            chosen = self.module.constant(f"CHOSEN{self.module.fresh()}_{int(self.player)}",
                                          (tuple(int(k) for k in sel.marked), tuple(int(k) for k in sel.unmarked)))
            alone = sel.alone
        self.uses_occ = True
        for c in colours:
            start, exit_ = int(layout.start[c]), int(layout.start_exit[c])
            only = f" and P{int(c)}.count({start}) == 1" if alone else ""
            self.line(f"if {start} in P{int(c)}{only}:")
            self.indent(1)
            self.line(f"to = {exit_}")
            self.carry = (c, str(start), chosen)
            self.landing(c, str(start), "E_ENTER")
            self.carry = None
            self.indent(-1)

    # ---- pawn selectors: send, move ---------------------------------------------------------
    def selected(self, node) -> list:
        """(colour, ZONE-table name, alone, destination) per colour the node's selector may
        choose for this player, in colour order; Unsupported when it reads marks or the
        variant has marks (run then by the primitive, on the marked board: pawns in Start
        leave by kinds, shielded pawns stay). ZONE<n>_<c>[sq]: a colour-c pawn on sq is in one
        of its zones."""
        sel = compile_selector(self.programs, node.selector)
        if sel.marked or sel.unmarked or self.module.full:
            raise Unsupported("marks")
        layout = self.m.layout
        out = []
        for c in range(layout.C):
            if not sel.owner[self.player][c]:
                continue
            inside = tuple(not sel.zones or zone(layout, c, sq) in sel.zones
                           or ("start_exit" in sel.zones and sq == layout.start_exit[c]) for sq in range(layout.size))
            name = self.module.constant(f"ZONE{self.module.fresh()}_{int(self.player)}_{int(c)}", inside)
            out.append((c, name, sel.alone, int(destination(layout, node.destination, c))))
        return out

    def chosen(self, c: int, zones: str, alone: bool) -> None:
        """Lines opening the loop over colour c's chosen pawns `sq` (pawns in Start or Home
        once per pawn: the same outcome again is dropped as the interpreter drops it)."""
        X = int(self.m.X)
        self.line(f"for sq in P{int(c)}:")
        self.line(f"    if {zones}[sq]" + (f" and (sq < {X} or P{int(c)}.count(sq) == 1):" if alone else ":"))
        self.indent(2)

    def visit_MovePawn(self, node):
        """`move SELECTOR to DEST`: the pawn's own move, landing as a step does (`pawns.move`)."""
        try:
            chosen = self.selected(node)
        except Unsupported:
            self.primitive(node)
            return
        self.uses_occ = True
        X, home = int(self.m.X), self.m.layout.home
        for c, zones, alone, to in chosen:
            self.chosen(c, zones, alone)
            self.line(f"if sq != {to} and sq != {int(home[c])}:")
            self.indent(1)
            self.line(f"to = {to}")
            if to >= X:
                self.plain_landing(c, "sq", "E_MOVE")
            else:
                self.landing(c, "sq", "E_MOVE")
            self.indent(-3)

    def visit_Send(self, node):
        """`send SELECTOR to DEST`: the pawn is put there, a bump when it goes to its Start (`pawns.send`)."""
        try:
            chosen = self.selected(node)
        except Unsupported:
            self.primitive(node)
            return
        self.uses_occ = True
        X, home, start = int(self.m.X), self.m.layout.home, self.m.layout.start
        for c, zones, alone, to in chosen:
            self.chosen(c, zones, alone)
            free = f" and occ[{to}] < 0" if to < X else ""
            self.line(f"if sq != {to} and sq != {int(home[c])}{free}:")
            self.indent(1)
            event = f"((E_BUMP, {int(c)}, sq),)" if to == int(start[c]) else f"((E_SEND, {int(c)}, sq, {to}),)"
            if not (self.probe or self.select):
                parts = ", ".join("tuple(s)" if i == c else f"P{i}" for i in range(self.m.layout.C))
                self.line(f"s = list(P{int(c)})")
                self.line(f"s[s.index(sq)] = {to}")
                self.line("s.sort()")
                self.line(f"r = ({parts},)")
            elif self.select:
                self.line(f"r = MOVED(P, {int(c)}, sq, {to})")
            self.emit_move("r", event, f"KP - E{int(c)}[sq] + E{int(c)}[{to}]", f"1, r, {event}")
            self.indent(-3)

    # ---- sorry, switch, split --------------------------------------------------------------
    def track_pawns(self) -> None:
        """`tp`: (square, colour) of every pawn on the track, in square order (as `_track_pawns`)."""
        T = int(self.m.T)
        self.line("tp = []")
        for o in range(self.m.layout.C):
            self.line(f"for s in P{o}:")
            self.line(f"    if s < {T}:")
            self.line(f"        tp.append((s, {o}))")
        self.line("tp.sort()")

    def swap_result(self, c: int, frm: str, to: str, other: str, other_frm: str, other_to: str) -> None:
        """`r`: the placement with colour c's pawn frm -> to and colour `other`'s other_frm -> other_to."""
        if self.probe or self.select:
            return
        self.line("L = list(P)")
        self.line(f"s = list(P{int(c)})")
        self.line(f"s[s.index({frm})] = {to}")
        self.line("s.sort()")
        self.line(f"L[{int(c)}] = tuple(s)")
        self.line(f"s = list(L[{other}])")
        self.line(f"s[s.index({other_frm})] = {other_to}")
        self.line("s.sort()")
        self.line(f"L[{other}] = tuple(s)")
        self.line("r = tuple(L)")

    def shielded(self, node) -> bool:
        """In a variant whose marks may stop a move, lines running `node`'s primitive when
        some pawn is shielded (ST, GU), then an `else:` block with the plain template; False
        (nothing written) otherwise, or while writing that block."""
        if not self.module.shielded or self.plain_shields:
            return False
        self.line("if ST or GU:")
        self.indent(1)
        self.primitive(node)
        self.indent(-1)
        self.line("else:")
        self.indent(1)
        self.plain_shields = True
        self.visit(node)
        self.plain_shields = False
        self.indent(-1)
        return True

    def visit_Sorry(self, node):
        if self.shielded(node):  # marks may stop the pawn or its target, or the slide after
            return
        m = self.m
        self.track_pawns()
        self.module.constant("STARTS", tuple(int(x) for x in m.start))
        for c in self.colours:
            ok = tuple(bool(m.bumpable[c][o] and (node.relation is None or m.matches(c, o, node.relation)))
                       for o in range(m.layout.C))
            name = self.module.constant(f"SORRY{self.module.fresh()}_{int(c)}", ok)
            start = int(m.start[c])
            self.carry = (c, str(start), "")
            self.line(f"if {start} in P{int(c)}:")
            self.line("    for sq, o in tp:")
            self.line(f"        if {name}[o]:")
            self.indent(3)
            if m.slide_after_sorry:
                self.line(f"if SLIDE{int(c)}[sq]:")
                self.line(f"    rl = sorry_slide({int(c)}, o, {start}, sq, P)")
                self.line("    if rl is not None:")
                self.indent(2)
                self.emit_move("rl[0]", "rl[1]")
                self.indent(-2)
                self.line("else:")
                self.indent(1)
            self.swap_result(c, str(start), "sq", "o", "sq", "STARTS[o]")
            key = f"KP - E{int(c)}[{start}] + E{int(c)}[sq] - ES[o][sq] + ES[o][STARTS[o]]"
            self.emit_move("r", f"((E_SORRY, {int(c)}, {start}, sq), (E_BUMP, o, sq))", key,
                           f"2, {int(c)}, {start}, sq, o, STARTS[o]")
            self.indent(-4 if m.slide_after_sorry else -3)
            self.carry = None

    def visit_Switch(self, node):
        if self.shielded(node):
            return
        m = self.m
        T = int(m.T)
        after = m.slide_after_switch
        self.track_pawns()
        self.module.constant("SLIDES", tuple(self.module.constants[f"SLIDE{o}"] for o in range(m.layout.C)))
        for c in self.colours:
            ok = tuple(bool(o != c and m.matches(c, o, node.relation)) for o in range(m.layout.C))
            name = self.module.constant(f"SWITCH{self.module.fresh()}_{int(c)}", ok)
            self.line(f"for mine in P{int(c)}:")
            self.line(f"    if mine < {T}:")
            self.line("        for sq, o in tp:")
            self.line(f"            if {name}[o]:")
            self.indent(4)
            plain = {"none": "True", "mover": f"not SLIDE{int(c)}[sq]",
                     "both": f"not SLIDE{int(c)}[sq] and not SLIDES[o][mine]"}[after]
            self.line(f"if {plain}:")
            self.indent(1)
            self.swap_result(c, "mine", "sq", "o", "sq", "mine")
            self.emit_move("r", f"((E_SWITCH, {int(c)}, mine, o, sq),)",
                           f"KP - E{int(c)}[mine] + E{int(c)}[sq] - ES[o][sq] + ES[o][mine]", f"3, {int(c)}, mine, o, sq")
            self.indent(-1)
            self.line("else:")
            self.line(f"    rl = switch_slide({int(c)}, mine, o, sq, P)")
            self.line("    if rl is not None:")
            self.indent(2)
            self.emit_move("rl[0]", "rl[1]")
            self.indent(-6)

    def visit_Split(self, node):
        """A sequential split between two different pawns of the player's colours (`split N`
        among 2, or `split N into D1, D2` with no pawn words), each part >= 1: unrolled with
        the two parts' tables; any other split runs its primitive."""
        parts = tuple(d for d, _ in node.parts)
        if node.parts and (len(parts) != 2 or any(who is not None for _, who in node.parts)):
            parts = ()
        elif not node.parts and node.among == 2:
            parts = ("forward", "forward")
        if self.shielded(node):
            return
        if node.selector is not None or self.m.simultaneous_split or (self.m.routes is not None and node.parts):
            self.primitive(node)
            return
        if self.m.routes is not None:
            self.split_many(node)
            return
        if node.parts and not parts:
            self.primitive(node)
            return
        if not parts:
            self.split_many(node)
            return
        m = self.m
        X, steps, C = int(m.X), int(node.steps), m.layout.C
        first = m.layout.forward if parts[0] == "forward" else m.layout.backward
        second = m.layout.forward if parts[1] == "forward" else m.layout.backward
        t1, t2 = ("F" if d == "forward" else "R" for d in parts)
        rows = {c: self.module.constant(f"SPLIT{steps}{t1}_{int(c)}", (None,) + tuple(first(k)[c] for k in range(1, steps)))
                for c in self.colours}
        rest = {c: f"REST{steps}{t2}_{int(c)}" for c in self.colours}
        last = {c: f"LAST{steps}{t2}_{int(c)}" for c in self.colours}
        control = self.module.constant(f"CONTROL{int(self.player)}", tuple(int(c) for c in self.colours))
        for c1 in self.colours:
            c1 = int(c1)
            self.line("i1 = -1")
            self.line(f"for sq1 in P{c1}:")
            self.line("    i1 += 1")
            self.line(f"    if sq1 < {X}:")
            self.line(f"        for part in range(1, {steps}):")
            self.line(f"            to1 = {rows[c1]}[part][sq1]")
            self.line("            if to1 < 0:")
            self.line("                continue")
            self.line(f"            if to1 < {X}:")
            self.line("                o1 = occ[to1]")
            self.line(f"                if o1 == {c1}:")
            self.line("                    continue")
            self.line(f"                if o1 >= 0 or SLIDE{c1}[to1]:")
            self.line(f"                    for rl in split_second({c1}, i1, sq1, to1, {control}, "
                      f"{rest[c1]}[part], P):")
            self.indent(6)
            self.emit_move("rl[0]", "rl[1]")
            self.indent(-6)
            self.line("                    continue")
            self.indent(3)
            self.line(f"s = list(P{c1})")
            self.line("s[i1] = to1")
            self.line("s.sort()")
            self.line("Q = tuple(s)")
            self.line("occ[sq1] = -1")
            self.line(f"if to1 < {X}:")
            self.line(f"    occ[to1] = {c1}")
            self.line(f"e1 = (E_SPLIT, {c1}, sq1, to1)")
            for c2 in self.colours:
                c2 = int(c2)
                base = "Q" if c2 == c1 else f"P{c2}"
                self.line(f"row = {last[c2]}[part]")
                self.line("i2 = -1")
                self.line(f"for sq2 in P{c2}:")
                self.line("    i2 += 1")
                self.line(f"    if sq2 < {X}{' and i2 != i1' if c2 == c1 else ''}:")
                self.line("        to2 = row[sq2]")
                self.line("        if to2 >= 0:")
                self.line(f"            if to2 < {X}:")
                self.line("                o2 = occ[to2]")
                self.line(f"                if o2 == {c2}:")
                self.line("                    continue")
                self.line(f"                if o2 >= 0 or SLIDE{c2}[to2]:")
                self.line(f"                    PQ = ({', '.join('Q' if i == c1 else f'P{i}' for i in range(C))},)")
                if self.select:
                    self.line(f"                    rl = land_key({c2}, sq2, to2, E_SPLIT, PQ, occ, (e1,), "
                              f"KP - E{c1}[sq1] + E{c1}[to1])")
                else:
                    self.line(f"                    rl = land({c2}, sq2, to2, E_SPLIT, PQ, occ, (e1,))")
                self.line("                    if rl is not None:")
                self.indent(6)
                self.emit_move("rl[0]", "rl[1]", "rl[2]" if self.select else "", "1, rl[0], rl[1]")
                self.indent(-6)
                self.line("                    continue")
                if not self.select:
                    self.line(f"            s = list({base})")
                    self.line("            s[s.index(sq2)] = to2")
                    self.line("            s.sort()")
                    parts = ", ".join("tuple(s)" if i == c2 else ("Q" if i == c1 else f"P{i}") for i in range(C))
                    self.line(f"            r = ({parts},)")
                self.indent(3)
                self.emit_move("r", f"(e1, (E_SPLIT, {c2}, sq2, to2))",
                               f"KP - E{c1}[sq1] + E{c1}[to1] - E{c2}[sq2] + E{c2}[to2]", f"4, {c1}, sq1, to1, {c2}, sq2, to2")
                self.indent(-3)
            self.line(f"if to1 < {X}:")
            self.line("    occ[to1] = -1")
            self.line(f"occ[sq1] = {c1}")
            self.indent(-3)
        for c in range(C):
            # REST<steps>_<c>[part][c'] / LAST<steps>_<c>[part][sq]: the forward tables of the second part
            self.module.constant(f"REST{steps}{t2}_{c}", (None,) + tuple(second(steps - k) for k in range(1, steps)))
            self.module.constant(f"LAST{steps}{t2}_{c}", (None,) + tuple(second(steps - k)[c] for k in range(1, steps)))
        self.uses_occ = True

    def split_many(self, node) -> None:
        """`split N among K` (K > 2 or any; any K along `geometry:` routes): the search of `fastmoves.Helpers.split_many`
        on integer keys, each outcome (key, events) listed as a move."""
        steps = int(node.steps)
        limit = steps if node.among is None else int(node.among)
        if self.m.routes is not None:
            ways = routetables.split_ways(self.m, steps)
            if ways is None:
                self.primitive(node)
                return
            tables = self.module.constant(f"WSPLIT{steps}", ways)
            blocks = self.module.constant("BLOCKS", tuple(routetables.blockers(self.m, c) for c in range(self.m.layout.C)))
        else:
            forward, blocks = self.m.layout.forward, "()"
            rows = [forward(k) for k in range(1, steps + 1)]  # rows[k - 1][c][sq]: the one way of k steps, or none
            tables = self.module.constant(f"FWD{steps}", tuple(
                tuple(((),) + tuple(((row[c][sq], ()),) if row[c][sq] >= 0 else () for row in rows)
                      for sq in range(int(self.m.X)))
                for c in range(self.m.layout.C)))
        control = self.module.constant(f"CONTROL{int(self.player)}", tuple(int(c) for c in self.colours))
        self.module.constant("STARTS", tuple(int(x) for x in self.m.start))
        self.uses_occ = True
        key = "KP" if self.select else "KEY(P)"
        self.line(f"for k, ev in split_many({control}, {steps}, {limit}, {tables}, P, occ, {key}, {blocks}):")
        self.indent(1)
        if not (self.probe or self.select):
            self.line("r = REPLAYED(P, ev)")
        self.emit_move("r", "ev", "k", "6, ev, STARTS")
        self.indent(-1)

    # ---- primitives run by the interpreter ---------------------------------------------------
    def primitive(self, node) -> None:
        index = len([k for k in self.module.constants if k.startswith("PRIM")])
        name = self.module.constant(f"PRIM{index}", self.programs.effect(node))
        self.need_board()
        self.line(f"for r, e, f in {name}({int(self.player)}, B):")
        self.indent(1)
        if self.probe:
            self.line("return True")
            self.indent(-1)
            return
        self.line("n += 1")
        if self.flags:
            self.line(f"f |= {int(self.flags)}")
        self.line("da = bool(f & DRAW_AGAIN)")
        moves = (self.seen_set("m", 0), self.seen_set("m", 1))
        passes = (self.seen_set("p", 0), self.seen_set("p", 1))
        self.line("if e:")
        self.line(f"    S = {moves[1]} if da else {moves[0]}")
        if self.select:
            self.line("    key = KEY(r)")
            self.line("    if key not in S:")
            self.line("        S.add(key)")
            self.line("        out.append((key, da, 1, r, e))")
        elif self.module.full:
            self.line("    mk = MK(M, e, r)")
            self.line("    key = (r, mk)")
            self.line("    if key not in S:")
            self.line("        S.add(key)")
            self.line(f"        out.append(NEW(Move, ({self.card}, r, e, da, K_MOVE, (), NO_LABEL, mk)))")
        else:
            self.line("    if r not in S:")
            self.line("        S.add(r)")
            self.line(f"        out.append(NEW(Move, ({self.card}, r, e, da, K_MOVE, (), NO_LABEL, ())))")
        self.line("elif f & PASS:")
        self.line(f"    S = {passes[1]} if da else {passes[0]}")
        self.line("    if P not in S:")
        self.line("        S.add(P)")
        if self.select:
            self.line("        out.append((KP, da, 5))")
        else:
            self.line(f"        out.append(NEW(Move, ({self.card}, P, (), da, K_PASS, (), NO_LABEL, {self.no_marks})))")
        self.line("else:")
        self.line("    spare |= f")
        self.indent(-1)

    # ---- flags and combinators -----------------------------------------------------------------
    def visit_DrawAgain(self, node):
        self.emit_bare(self.flags | DRAW_AGAIN)

    def visit_Pass(self, node):
        self.emit_bare(self.flags | PASS)

    def visit_Choice(self, node):
        for option in node.options:
            self.visit(option)

    def visit_Then(self, node):
        if not isinstance(node.second, (dsl.DrawAgain, dsl.Pass)):
            raise Unsupported("then")
        flag = DRAW_AGAIN if isinstance(node.second, dsl.DrawAgain) else PASS
        mark = f"n{self.fresh()}"
        self.line(f"{mark} = n")
        outer = self.flags
        self.flags = outer | flag
        self.visit(node.first)
        self.flags = outer
        self.line(f"if n == {mark}:")
        self.indent(1)
        self.visit(node.second)
        self.indent(-1)

    def visit_Guard(self, node):
        try:
            test = self.condition(node.condition)
        except Unsupported:
            index = len([k for k in self.module.constants if k.startswith("COND")])
            name = self.module.constant(f"COND{index}", self.programs.expression(node.condition, bool, allow_can=True))
            self.need_board()
            test = f"{name}({int(self.player)}, B, None)"
        self.line(f"if {test}:")
        self.indent(1)
        self.line("pass")
        self.visit(node.effect)
        self.indent(-1)

    def condition(self, node) -> str:
        """A guard's condition as a Python expression of `can(...)` probes, not, and, or and
        constants; Unsupported for anything else (the compiled condition is called then)."""
        if isinstance(node, dsl.Bool):
            return "True" if node.value else "False"
        if isinstance(node, dsl.Not):
            return f"(not {self.condition(node.operand)})"
        if isinstance(node, dsl.BinOp) and node.op in ("and", "or"):
            return f"({self.condition(node.left)} {'and' if node.op == 'and' else 'or'} {self.condition(node.right)})"
        if isinstance(node, dsl.Can):
            name = f"can{self.module.fresh()}_{int(self.player)}"
            probe = CardWriter(self.module, self.m, self.programs, self.card, self.player, probe=True)
            self.extra += probe.function(node.effect, name)
            return f"{name}(P, M)" if self.module.full else f"{name}(P)"
        raise Unsupported(type(node).__name__)

    # ---- the function ----------------------------------------------------------------------------
    def function(self, ast, name: str | None = None) -> list[str]:
        """The lines of the function `name` (default `m<card>_<player>`) and of its probes."""
        self.visit(ast)
        C = self.m.layout.C
        default = f"s{self.card}_{self.player}(P, KP)" if self.select else \
            f"m{self.card}_{self.player}(P, M)" if self.module.full else f"m{self.card}_{self.player}(P)"
        args = "(P, M)" if self.module.full else "(P)"
        head = [f"def {name + args if name else default}:"]
        head.append("    " + ", ".join(f"P{i}" for i in range(C)) + (", = P" if C == 1 else " = P"))
        if not self.probe:
            head += ["    out = []", "    spare = 0"] + [f"    {name} = set()" for name in sorted(self.sets)]
        head += ["    n = 0", "    B = None"]
        if self.module.shielded:
            head.append("    ST, GU = SHIELDS(M)")
        if self.uses_occ:
            head.append("    occ = EMPTY[:]")
            for i in range(C):
                head.append(f"    for s in P{i}:")
                head.append(f"        occ[s] = {i}")
        tail = ["    return False", ""] if self.probe else ["    return out, spare", ""]
        return head + self.body + tail + self.extra


def generate(mechanics, programs, card_asts, pawns: int, kinds: tuple = ()) -> tuple[str, dict, tuple]:
    """(source, constants, covered) for the cards' ASTs, in card order: `covered[card]`
    says whether the card got generated functions (both flavours: `m<card>_<colour>(P)`
    giving Moves, `s<card>_<colour>(P, KP)` giving candidates; a variant with mark `kinds`
    gets the first only: `m<card>_<colour>(P, M)` when no kind can stop a move, else
    `m<card>_<colour>(P)` for positions with no mark set, `Game._play_board`)."""
    chunks, constants, covered = generate_functions(mechanics, programs, card_asts, pawns, kinds)
    return "".join(chunks.values()), constants, covered


def generate_functions(mechanics, programs, card_asts, pawns: int, kinds: tuple = ()) -> tuple[dict, dict, tuple]:
    """`generate`, with the source cut into one piece per generated function: `chunks` maps
    `m<card>_<colour>` and `s<card>_<colour>` to the source of that function and of the probes
    it calls (each piece can be compiled alone; joined in order they are `generate`'s source)."""
    module = GeneratedModule(mechanics, kinds)
    weights = placement_weights(mechanics.layout, pawns)
    for c, row in enumerate(weights):
        module.constant(f"E{c}", row)
    module.constant("ES", weights)
    covered = []
    chunks: dict[str, str] = {}
    total = 0  # lines written so far, held within MAX_GENERATED_LINES
    for card, ast in enumerate(card_asts):
        pieces = {}
        size = 0
        try:
            for player in range(mechanics.layout.C):
                for select in (False,) if kinds else (False, True):
                    lines = CardWriter(module, mechanics, programs, card, player, select=select).function(ast)
                    pieces[f"{'s' if select else 'm'}{card}_{player}"] = "\n".join(lines) + "\n"
                    size += len(lines)
                    if total + size > MAX_GENERATED_LINES:
                        raise TooLarge
        except Unsupported:
            covered.append(False)
            continue
        total += size
        chunks.update(pieces)
        covered.append(True)
    return chunks, module.constants, tuple(covered)


@functools.lru_cache(maxsize=4096)
def _compiled(source: str):
    """The code object of one generated function's source (the same rule file loaded again
    reuses it; it is executed in that game's own namespace, with its own tables and closures)."""
    return compile(source, "<sorry-rules generated moves>", "exec")


def _on_first_call(scope: dict, name: str, source: str, row: list, index: int):
    """A stand-in for the generated function `name`: its first call compiles `source` into
    `scope`, puts the real function in `row[index]` (where the engine and the random-game
    loop look it up) and returns the real function's result; later calls go straight to it."""
    def first_call(*args):
        function = scope.get(name)
        if function is None:
            exec(_compiled(source), scope)  # noqa: S102  (our template source only)
            function = scope[name]
        row[index] = function
        return function(*args)
    return first_call


def fast_moves(game, programs, card_asts) -> FastMoves | None:
    """The generated move functions of `game` (compiled by `programs`, its cards' ASTs in
    card order), or None when the game uses a feature outside `COVERED`.

    Each function is compiled on its first call, not here: compiling the whole source takes
    tens of milliseconds, and a command that asks for one position's moves (`sorry-play
    moves`) calls one or two of them. A table's entries are the compiled functions once called."""
    if not game.features() <= COVERED:
        return None
    mechanics = game.mechanics
    try:
        chunks, constants, covered = generate_functions(mechanics, programs, card_asts, game.pawns, game.marks)
    except TooLarge:
        return None
    scope = namespace(mechanics, constants["ES"], game.marks)
    scope.update(constants)
    weights = constants["ES"]
    scope["KEY"] = lambda placement: placement_key(weights, placement)
    C = mechanics.layout.C

    def row(flavour: str, card: int) -> list:
        entries: list = [None] * C
        for p in range(C):
            name = f"{flavour}{card}_{p}"
            entries[p] = _on_first_call(scope, name, chunks[name], entries, p)
        return entries

    table = tuple(row("m", card) if ok else (None,) * C for card, ok in enumerate(covered))
    select = () if game.marks else tuple(row("s", card) if ok else (None,) * C for card, ok in enumerate(covered))
    passes = tuple(any(isinstance(node, dsl.Pass) for node in dsl.walk(ast)) for ast in card_asts)
    return FastMoves(table, "".join(chunks.values()), select, constants["ES"], passes, takes_marks(game.marks))
