"""Generate specialised Python for the legal moves of a race-track variant's cards.

For every card and player colour one function `m<card>_<colour>(P) -> (moves, spare_flags)`
is written from fixed templates (`engine.fastmoves` describes its contract: exactly what
`Game._moves_of` returns). The card's alternatives are unrolled in their order; `forward N`,
`backward N` and `enter` are inlined per controlled colour with that colour's destination
table and slide marks bound as constants, and a landing that neither bumps nor slides builds
its placement directly; every other landing, and `split`, `switch` and `sorry`, run the
interpreter's own code (`fastmoves.land`, the primitive's compiled closure) on a board built
once per call. Guards call their compiled condition.

Security contract: the source is built from the templates below and integers only (card
and colour indices, squares, flags); tables, closures and conditions are passed in the
module's namespace under generated names (`F7_2`, `PRIM0`, `COND1`), so no text of a rule
file (a name, a string, DSL text) can reach the source. Each function is compiled on its
first call (`fast_moves`) and executed in one namespace holding no builtins beyond list,
tuple, set, bool, range and len.

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
from sorry_rules.engine.fastmoves import FastMoves, namespace, placement_key, placement_weights
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS

#: The features of `Game.features()` the generated code reproduces exactly.
COVERED = frozenset({
    "board:track", "turn:draw", "turn:hand", "filters", "after", "counters",
    "rules.control", "rules.bump", "rules.slide_on", "rules.slide_sweep", "rules.slide_after_switch",
    "rules.slide_after_sorry", "rules.split", "rules.overshoot_home", "rules.must_bump",
})


class Unsupported(Exception):
    """A card effect the generator does not cover (the interpreter plays the card)."""


class TooLarge(Exception):
    """The variant's generated source would exceed MAX_GENERATED_LINES (the interpreter plays)."""


class _Module:
    """The constants a generated module's namespace binds, and its counter of fresh names."""

    def __init__(self, mechanics):
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

    def __init__(self, module: _Module, mechanics, programs, card: int, player: int, probe: bool = False,
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
        self.line(f"    out.append(NEW(Move, ({self.card}, {result}, {events}, {da}, K_MOVE, (), NO_LABEL, ())))")

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
                self.line(f"    out.append(NEW(Move, ({self.card}, P, (), {da}, K_PASS, (), NO_LABEL, ())))")
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
        self.line(f"    B = Board.of(P, {int(self.m.X)})")

    # ---- unsupported -----------------------------------------------------------------------
    def generic(self, node):
        raise Unsupported(type(node).__name__)

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
            self.line(f"rl = land({int(c)}, {frm}, to, {step}, P, occ)")
        self.line("if rl is not None:")
        self.indent(1)
        self.emit_move("rl[0]", "rl[1]", "rl[2]" if self.select else "", "1, rl[0], rl[1]")
        self.indent(-1)

    def landing(self, c: int, frm: str, step: str) -> None:
        self.line("o = occ[to]")
        self.line(f"if o != {int(c)}:")
        self.indent(1)
        self.line(f"if o < 0 and not SLIDE{int(c)}[to]:")
        self.indent(1)
        self.plain_landing(c, frm, step)
        self.indent(-1)
        self.line("else:")
        self.indent(1)
        self.full_landing(c, frm, step)
        self.indent(-2)

    def step(self, tables, steps: int, kind: str, step: str) -> None:
        self.uses_occ = True
        X = int(self.m.X)
        for c in self.colours:
            name = self.module.constant(f"{kind}{int(steps)}_{int(c)}", tables(steps)[c])
            self.line(f"row = {name}")
            self.line(f"for sq in P{int(c)}:")
            self.line(f"    if sq < {X}:")
            self.line("        to = row[sq]")
            self.line(f"        if to >= {X}:")
            self.indent(3)
            self.plain_landing(c, "sq", step)
            self.indent(-3)
            self.line("        elif to >= 0:")
            self.indent(3)
            self.landing(c, "sq", step)
            self.indent(-3)

    @staticmethod
    def plain(node) -> None:
        """Unsupported for a primitive narrowed by a pawn selector or split into parts."""
        if getattr(node, "selector", None) is not None or getattr(node, "parts", ()):
            raise Unsupported(type(node).__name__)

    def visit_Forward(self, node):
        self.plain(node)
        self.step(self.m.layout.forward, node.steps, "F", "E_FORWARD")

    def visit_Backward(self, node):
        self.plain(node)
        self.step(self.m.layout.backward, node.steps, "R", "E_BACKWARD")

    def visit_Enter(self, node):
        self.plain(node)
        self.uses_occ = True
        layout = self.m.layout
        for c in self.colours:
            start, exit_ = int(layout.start[c]), int(layout.start_exit[c])
            self.line(f"if {start} in P{int(c)}:")
            self.indent(1)
            self.line(f"to = {exit_}")
            self.landing(c, str(start), "E_ENTER")
            self.indent(-1)

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

    def visit_Sorry(self, node):
        m = self.m
        self.track_pawns()
        self.module.constant("STARTS", tuple(int(x) for x in m.start))
        for c in self.colours:
            ok = tuple(bool(m.bumpable[c][o] and (node.relation is None or m.matches(c, o, node.relation)))
                       for o in range(m.layout.C))
            name = self.module.constant(f"SORRY{self.fresh()}_{int(c)}", ok)
            start = int(m.start[c])
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

    def visit_Switch(self, node):
        m = self.m
        T = int(m.T)
        after = m.slide_after_switch
        self.track_pawns()
        self.module.constant("SLIDES", tuple(self.module.constants[f"SLIDE{o}"] for o in range(m.layout.C)))
        for c in self.colours:
            ok = tuple(bool(o != c and m.matches(c, o, node.relation)) for o in range(m.layout.C))
            name = self.module.constant(f"SWITCH{self.fresh()}_{int(c)}", ok)
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
        self.plain(node)
        if node.among != 2 or self.m.simultaneous_split:
            self.primitive(node)
            return
        m = self.m
        X, steps, C = int(m.X), int(node.steps), m.layout.C
        forward = m.layout.forward
        rows = {c: self.module.constant(f"SPLIT{steps}_{int(c)}", (None,) + tuple(forward(k)[c] for k in range(1, steps)))
                for c in self.colours}
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
                      f"{rows[c1].replace('SPLIT', 'REST')}[part], P):")
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
                self.line(f"row = {rows[c2].replace('SPLIT', 'LAST')}[part]")
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
            self.module.constant(f"REST{steps}_{c}", (None,) + tuple(forward(steps - k) for k in range(1, steps)))
            self.module.constant(f"LAST{steps}_{c}", (None,) + tuple(forward(steps - k)[c] for k in range(1, steps)))
        self.uses_occ = True

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
            self.line(f"        out.append(NEW(Move, ({self.card}, P, (), da, K_PASS, (), NO_LABEL, ())))")
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
            return f"{name}(P)"
        raise Unsupported(type(node).__name__)

    # ---- the function ----------------------------------------------------------------------------
    def function(self, ast, name: str | None = None) -> list[str]:
        """The lines of the function `name` (default `m<card>_<player>`) and of its probes."""
        self.visit(ast)
        C = self.m.layout.C
        default = f"s{self.card}_{self.player}(P, KP)" if self.select else f"m{self.card}_{self.player}(P)"
        head = [f"def {name + '(P)' if name else default}:"]
        head.append("    " + ", ".join(f"P{i}" for i in range(C)) + (", = P" if C == 1 else " = P"))
        if not self.probe:
            head += ["    out = []", "    spare = 0"] + [f"    {name} = set()" for name in sorted(self.sets)]
        head += ["    n = 0", "    B = None"]
        if self.uses_occ:
            head.append("    occ = EMPTY[:]")
            for i in range(C):
                head.append(f"    for s in P{i}:")
                head.append(f"        occ[s] = {i}")
        tail = ["    return False", ""] if self.probe else ["    return out, spare", ""]
        return head + self.body + tail + self.extra


def generate(mechanics, programs, card_asts, pawns: int) -> tuple[str, dict, tuple]:
    """(source, constants, covered) for the cards' ASTs, in card order: `covered[card]`
    says whether the card got generated functions (both flavours: `m<card>_<colour>(P)`
    giving Moves, `s<card>_<colour>(P, KP)` giving candidates)."""
    chunks, constants, covered = generate_functions(mechanics, programs, card_asts, pawns)
    return "".join(chunks.values()), constants, covered


def generate_functions(mechanics, programs, card_asts, pawns: int) -> tuple[dict, dict, tuple]:
    """`generate`, with the source cut into one piece per generated function: `chunks` maps
    `m<card>_<colour>` and `s<card>_<colour>` to the source of that function and of the probes
    it calls (each piece can be compiled alone; joined in order they are `generate`'s source)."""
    _check_size(mechanics, programs, card_asts)
    module = _Module(mechanics)
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
                for select in (False, True):
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


def _check_size(mechanics, programs, card_asts) -> None:
    """TooLarge when one function per card, times the colours and the two flavours, already
    exceeds MAX_GENERATED_LINES (a cheap first look before writing everything)."""
    scratch = _Module(mechanics)
    estimate = 0
    for card, ast in enumerate(card_asts):
        try:
            estimate += len(CardWriter(scratch, mechanics, programs, card, 0).function(ast)) * 2 * mechanics.layout.C
        except Unsupported:
            continue
        if estimate > MAX_GENERATED_LINES:
            raise TooLarge


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
        chunks, constants, covered = generate_functions(mechanics, programs, card_asts, game.pawns)
    except TooLarge:
        return None
    scope = namespace(mechanics, constants["ES"])
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
    select = tuple(row("s", card) if ok else (None,) * C for card, ok in enumerate(covered))
    return FastMoves(table, "".join(chunks.values()), select, constants["ES"])
