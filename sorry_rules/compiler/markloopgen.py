"""Generate the flat flavour of a variant with marks (`engine.flatmarks`).

For every card and player colour one function `f<card>_<colour>(P, occ, KP, M) ->
(candidates, spare_flags)`, written by `loopgen.FlatWriter`'s templates with the marks `M`
read where they change the moves: it lists the moves of the generated Moves flavour
(`m<card>_<colour>(P, M)`, `compiler.codegen`) in the same order, as candidates
(`engine.flatstate`), a candidate whose marks after it differ from `M` keyed by them too
(`engine.flatmarks`). What the marks change:

- a pawn leaving Start (`enter`, `sorry`) is one outcome per kind of pawn there, marked or
  not (`CARRIES`, as `codegen`), keyed by the marks it carries off; `enter marked K`
  is written too;
- with a kind that may stop a move (mode "shield"), `ST` and `GU` are the squares of pawns
  that may not move and of those that may not be moved (`SQSHIELDS(M)`): a step skips a pawn
  of `ST`, a landing on a pawn of `GU` is no move, a slide spares one (`guarded_land`);
  `sorry` and `switch` skip the pawns of `ST` and `GU` as their movers and targets, their
  slides sparing the pawns of `GU` (a switch's then of code 12, `switch_slid`); `split`
  (and a `can(...)` probe's `sorry` and `switch`) runs the interpreter's primitive (on the
  marked board, `MB`) while some pawn is shielded, its template otherwise;
- every other primitive (`mark`, `unmark`, a `send`) runs the interpreter's closure on the
  marked board, its outcome keyed by the marks after it (`MK`).

`flat_marked_moves(game, programs, card_asts)` is that flavour, or None where it does not
apply: a feature besides a track, draw play, consequences, counters and marks (and the
`rules.` switches), a kind of no mode (`engine.flatmarks.modes`), a shield mark placed by a
consequence or by a `mark` effect that may choose a pawn in Start or Home, a start mark
placed otherwise than on the pawns a move bumped (`after: ... mark: {K: bumped}`), `can(...)`,
or a card `loopgen` does not cover.

Security contract: as `compiler.codegen`'s and `compiler.loopgen`'s: the source is built
from these templates and integers only, the mark kinds are bound in the namespace.
"""

from __future__ import annotations

import functools
import re

from sorry_rules import dsl
from sorry_rules.compiler.codegen import COVERED, TooLarge, Unsupported
from sorry_rules.compiler import loopgen
from sorry_rules.compiler.loopgen import FlatModule, FlatProbe, FlatWriter, needs_bump_or_slide
from sorry_rules.engine import flatmarks
from sorry_rules.compiler.selectors import compile_selector
from sorry_rules.engine.fastmoves import namespace, placement_key
from sorry_rules.engine.flatstate import flat_namespace
from sorry_rules.engine.marks import zone
from sorry_rules.engine.mechanics import DRAW_AGAIN
from sorry_rules.engine.moverules import OnEvents

#: the features this flavour is written for (besides the `rules.` switches): draw play only
_FEATURES = frozenset({"board:track", "turn:draw", "after", "counters", "marks"})
#: the zones a `mark` effect of a shield kind may choose pawns in (squares below X)
_EXCLUSIVE_ZONES = frozenset({"track", "safety", "start_exit"})
_DISTINCT_CODES = ("0,", "2,", "3,")


_SHIELDS = re.compile(r"\b(ST|GU)\b")


def _reads_shields(body: list[str]) -> bool:
    """Whether generated lines read the shields `ST`, `GU` (set up at the function's head then)."""
    return any(_SHIELDS.search(line) for line in body)


#: the head lines of a function that reads SM: SM[c] whether a pawn of colour c in its Start
#: carries a mark (remembered in SMK for the marks object last seen: one object while none change)
_START_MARKED = ["    if M is not SMK[0]:", "        SMK[0] = M", "        SMK[1] = START_MARKED(M)", "    SM = SMK[1]"]
#: the head lines of a function that reads the shields ST, GU (`SQSHIELDS(M)`, remembered in SQK
#: for the marks object last seen, as SM)
_SHIELDS_HEAD = ["    if M is not SQK[0]:", "        SQK[0] = M", "        SQK[1] = SQSHIELDS(M)", "    ST, GU = SQK[1]"]


class MarkedFlatModule(FlatModule):
    """`loopgen`'s module for a variant with marks: `full` (the functions take the marks),
    `shielded` (some kind is of mode "shield"), `carries` (some kind of mode "start")."""

    def __init__(self, mechanics, pawns: int, kind_modes: tuple):
        super().__init__(mechanics, pawns)
        self.full = True
        self.kinds: tuple = ()  # the mark kinds (`engine.marks.MarkKind`), set by `generate`
        self.shielded = flatmarks.SHIELD in kind_modes
        self.carries = flatmarks.START in kind_modes


class MarkedFlatWriter(FlatWriter):
    """`FlatWriter` reading the marks `M` (module docstring)."""

    many_splits = False  # a split among many runs its primitive on the marked board

    # ---- outcomes ------------------------------------------------------------------------------
    def emit_move(self, result: str, events: str, key: str = "", payload: str = "") -> None:
        """`FlatWriter.emit_move`; a pawn leaving Start (`self.carry`) is one outcome per kind
        of pawn there (`CARRIES`), keyed by its carry events too where it carries a mark."""
        if self.carry is None or not self.module.carries or not (key or self.probe):
            super().emit_move(result, events, key, payload)
            return
        c, sq, chosen = self.carry
        # no marks on c's pawns in Start (SM, set up at the head): one unmarked pawn leaves, if the selector takes it
        options = f"CARRIES(M, {int(c)}, {sq}, P{int(c)}{', ' + chosen if chosen else ''})"
        none = "NO_CARRY" if not chosen or not self.module.constants[chosen][0] else "()"
        if self.probe:
            self.line(f"if CARRIES(M, {int(c)}, {sq}, P{int(c)}{', ' + chosen if chosen else ''}):")
            self.line("    return True")
            return
        self.line(f"for cr in ({options} if SM[{int(c)}] else {none}):")
        self.indent(1)
        if self.counts:
            self.line("n += 1")
        da = "True" if self.flags & DRAW_AGAIN else "False"
        self.line(f"key = {key}")
        self.line("if cr:")
        self.line("    key = (key, cr)")
        if self.single:
            if not payload.startswith(_DISTINCT_CODES) and not (payload.startswith("6,") and "Sorry" not in self.kinds):
                self.line("dup = True")
            self.line(f"out.append((key, {da}, {payload}))")
        else:
            seen = self.seen_set("m", self.flags & DRAW_AGAIN)
            self.line(f"if key not in {seen}:")
            self.line(f"    {seen}.add(key)")
            self.line(f"    out.append((key, {da}, {payload}))")
        self.indent(-1)

    def primitive_key(self) -> None:
        """`FlatWriter.primitive` on the marked board: an outcome keyed by its marks too."""
        self.line("    mk = MK(M, e, r)")
        self.line("    if mk is not M and mk != M:")
        self.line("        key = (key, mk, CARRY_EVENTS(e))")

    def primitive_listed(self) -> None:
        if self.single:  # a sorry, switch or split the shields hand to the interpreter: against the templates' outcomes
            self.line("        dup = True")

    # ---- shields: steps and landings -----------------------------------------------------------
    def step(self, node, direction: str, kind: str, step: str) -> None:
        """`FlatWriter.step`, a pawn of `ST` staying put (`pawn_stays`); not along routes."""
        if self.module.shielded and self.m.routes is not None:
            self.plain(node)
            raise Unsupported("routes")
        super().step(node, direction, kind, step)

    def pawn_stays(self) -> None:
        self.indent(1)
        self.stays("sq")
        self.indent(-1)

    def stays(self, square: str) -> None:
        """`FlatWriter.stays`: a pawn on a square of `ST` may not move."""
        if self.module.shielded:
            self.line(f"if {square} in ST:")
            self.line("    continue")

    def untouchable(self, square: str) -> None:
        """`FlatWriter.untouchable`: a pawn on a square of `GU` may not be moved."""
        if self.module.shielded:
            self.line(f"if {square} in GU:")
            self.line("    continue")

    def slide_call(self, c: int, frm: str, to: str) -> str:
        """`FlatWriter.slide_call`, the slide sparing the pawns of `GU` while there are some."""
        plain = super().slide_call(c, frm, to)
        if not self.module.shielded:
            return plain
        return f"guarded_land({int(c)}, {frm}, {to}, occ, KP, GU) if GU else {plain}"

    def full_landing(self, c: int, frm: str, step: str) -> None:
        """`FlatWriter.full_landing`; in a probe with shields, the flat guarded landing too."""
        if not (self.probe and self.module.shielded):
            super().full_landing(c, frm, step)
            return
        self.line(f"rs = {self.slide_call(c, frm, 'to')}")
        self.line("if rs is not None:")
        self.line("    return True")

    def switch_slid(self, c: int) -> None:
        """`FlatWriter.switch_slid`; while some pawn is shielded, the slides spare the pawns of
        `GU` (`Slides.switch` with the guard), the outcome its events (code 12)."""
        if not self.module.shielded:
            super().switch_slid(c)
            return
        self.line("if GU:")
        self.line(f"    ks = switch_land({int(c)}, mine, o, sq, occ, KP, GU)")
        self.line("    if ks is not None:")
        self.indent(2)
        self.emit_move("", "", "ks[0]", "12, ks[2]")
        self.indent(-2)
        self.line("else:")
        self.indent(1)
        super().switch_slid(c)
        self.indent(-1)

    def landing(self, c: int, frm: str, step: str) -> None:
        """`FlatWriter.landing`, a pawn of `GU` neither bumped nor landed on."""
        if not self.module.shielded:
            super().landing(c, frm, step)
            return
        c = int(c)
        self.module.constant("STARTS", tuple(int(x) for x in self.m.start))
        self.line("o = occ[to]")
        self.line(f"if o != {c}:")
        self.line(f"    if not SLIDE{c}[to]:")
        self.line("        if o < 0:")
        self.indent(3)
        self.plain_landing(c, frm, step)
        self.indent(-1)
        self.line(f"elif {self.bump_table(c)}[o] and to not in GU:")
        self.indent(1)
        self.emit_move("", "", f"KP - E{c}[{frm}] + E{c}[to] - ES[o][to] + ES[o][STARTS[o]]",
                       f"6, {c}, {frm}, to, {step}, o, STARTS[o]")
        self.indent(-3)
        self.line("    else:")
        self.indent(2)
        self.full_landing(c, frm, step)
        self.indent(-2)

    # ---- marking a pawn below X ----------------------------------------------------------------
    def visit_Mark(self, node):
        """`mark K SELECTOR` of a shield kind (its zones below X: `flat_marked_moves` checks):
        one outcome per chosen pawn in the interpreter's order (`engine.pawns.select`), the
        position unchanged (candidate code `flatmarks.MARK_CODE`), keyed by the marks after it."""
        sel = compile_selector(self.programs, node.selector)
        k = [kind.name for kind in self.module.kinds].index(node.name)
        layout, X = self.m.layout, int(self.m.X)
        if sel.marked or sel.unmarked:
            self.line("MP = MARKED_PAWNS(M)")
        for c in range(layout.C):
            if not sel.owner[self.player][c]:
                continue
            inside = tuple(zone(layout, c, sq) in sel.zones or ("start_exit" in sel.zones and sq == layout.start_exit[c])
                           for sq in range(X))
            name = self.module.constant(f"ZONE{self.module.fresh()}_{int(self.player)}_{c}", inside)
            tests = [f"{name}[sq]"] + [f"({c}, sq) in MP[{int(j)}]" for j in sel.marked]
            tests += [f"({c}, sq) not in MP[{int(j)}]" for j in sel.unmarked]
            self.line(f"for sq in P{c}:")
            self.line(f"    if sq >= {X}:")
            self.line("        break")
            self.line(f"    if {' and '.join(tests)}:")
            self.indent(2)
            if self.probe:
                self.line("return True")
            else:
                self.emit_mark(c, k)
            self.indent(-2)

    def emit_mark(self, c: int, k: int) -> None:
        """One outcome marking colour c's pawn on `sq` with kind k."""
        if self.counts:
            self.line("n += 1")
        da = "True" if self.flags & DRAW_AGAIN else "False"
        seen = self.seen_set("m", self.flags & DRAW_AGAIN)
        self.line(f"ev = (E_MARK, {int(c)}, sq, {int(k)}, {int(self.player)})")
        self.line("mk = MARKED(M, ev)")
        self.line("key = KP if mk == M else (KP, mk, ())")
        self.line(f"if key not in {seen}:")
        self.line(f"    {seen}.add(key)")
        self.line(f"    out.append((key, {da}, {flatmarks.MARK_CODE}, ev))")

    # ---- primitives that the shields hand to the interpreter -----------------------------------
    def visit_Sorry(self, node):
        """`FlatWriter.visit_Sorry` (a shielded pawn untouchable, the slide after it sparing
        shielded pawns), one colour at a time where a pawn leaving Start may carry marks."""
        if self.probe and self.shielded(node):  # a `can(...)` probe: the interpreter's while a pawn is shielded
            return
        if not self.module.carries:
            super().visit_Sorry(node)
            return
        colours = self.colours
        for c in colours:
            self.colours = (c,)
            self.carry = (c, str(int(self.m.start[c])), "")
            super().visit_Sorry(node)
        self.colours, self.carry = colours, None

    def visit_Split(self, node):
        """`FlatWriter.visit_Split` (the interpreter's while a pawn is shielded)."""
        if self.shielded(node):
            return
        super().visit_Split(node)

    def condition(self, node) -> str:
        """`FlatWriter.condition`, a `can(...)` probe reading the marks too (`MarkedFlatProbe`)
        where no option of the enclosing choice recorded its answer (`FlatWriter.answer`)."""
        if isinstance(node, dsl.Can) and self.answer(node) is None:
            name = f"can{self.module.fresh()}_{int(self.player)}"
            probe = MarkedFlatProbe(self.module, self.m, self.programs, self.card, self.player)
            self.extra += probe.function(node.effect, name)
            return f"{name}(P, occ, M)"
        return super().condition(node)

    def function(self, ast, name: str | None = None) -> list[str]:
        """`FlatWriter.function` taking the marks too: `f<card>_<colour>(P, occ, KP, M)`."""
        lines = super().function(ast, name)
        head = f"def f{self.card}_{self.player}(P, occ, KP):"
        if lines[0] != head:
            raise Unsupported("head")
        lines[0] = head.replace("KP):", "KP, M):")
        if self.module.shielded and _reads_shields(self.body):
            lines[1:1] = _SHIELDS_HEAD
        if any("SM[" in line for line in self.body):
            lines[1:1] = _START_MARKED
        return lines


class MarkedFlatProbe(MarkedFlatWriter, FlatProbe):
    """`can(effect)` over the flat state and the marks: `name(P, occ, M)` is True at the
    effect's first outcome (`loopgen.FlatProbe` with `MarkedFlatWriter`'s templates)."""

    def __init__(self, module, mechanics, programs, card: int, player: int):
        FlatProbe.__init__(self, module, mechanics, programs, card, player)

    def function(self, ast, name: str | None = None) -> list[str]:
        lines = FlatProbe.function(self, ast, name)
        head = f"def {name}(P, occ):"
        if lines[0] != head:
            raise Unsupported("head")
        lines[0] = f"def {name}(P, occ, M):"
        if self.module.shielded and _reads_shields(self.body):
            lines[1:1] = _SHIELDS_HEAD
        return lines


def _placed_where_the_modes_allow(game, card_asts, kind_modes: tuple) -> bool:
    """Whether every mark is placed as its mode needs (module docstring)."""
    names = [kind.name for kind in game.marks]
    for ast in card_asts:
        for node in dsl.walk(ast):
            if isinstance(node, dsl.Mark):
                zones = {zone for zone in node.selector.zones}
                if kind_modes[names.index(node.name)] != flatmarks.SHIELD or not zones or not zones <= _EXCLUSIVE_ZONES:
                    return False
    for consequence in game.after:
        for k, which in consequence.marks:
            if kind_modes[k] != flatmarks.START or which != "bumped":
                return False
    return True


def generate(mechanics, programs, card_asts, pawns: int, kinds: tuple, kind_modes: tuple) -> tuple[str, dict, tuple]:
    """(source, constants, covered) of the flat flavour with marks, as `loopgen.generate`."""
    module = MarkedFlatModule(mechanics, pawns, kind_modes)
    module.kinds = tuple(kinds)
    return loopgen.generate(mechanics, programs, card_asts, pawns, module, MarkedFlatWriter)


@functools.lru_cache(maxsize=16)
def _compiled(source: str):
    """The code object of a generated source (reused when the same rule file loads again)."""
    return compile(source, "<sorry-rules generated flat moves with marks>", "exec")


def flat_marked_moves(game, programs, card_asts, whens: tuple = ()) -> flatmarks.MarkedFlatMoves | None:
    """The flat flavour with marks of `game`, or None (module docstring); `whens` are the
    trees of the conditions of its consequences (`after:`), in order (`needs_bump_or_slide`
    of every one makes the loop skip them for a move that neither bumps nor slides)."""
    features = game.features()
    if not game.marks or not features <= COVERED:
        return None
    if not all(f in _FEATURES or f.startswith("rules.") for f in features):
        return None
    kind_modes = flatmarks.modes(game.marks)
    if kind_modes is None or not _placed_where_the_modes_allow(game, card_asts, kind_modes):
        return None
    mechanics = game.mechanics
    try:
        source, constants, covered = generate(mechanics, programs, card_asts, game.pawns, game.marks, kind_modes)
    except TooLarge:
        return None
    if not all(covered):
        return None
    weights = constants["ES"]
    slides = flatmarks.MarkedSlides(mechanics, weights)
    scope = flat_namespace(namespace(mechanics, weights, game.marks), slides)
    scope = flatmarks.marked_namespace(scope, game.marks, mechanics, slides)
    scope.update(constants)
    scope["KEY"] = lambda placement: placement_key(weights, placement)
    scope["CARRY_EVENTS"] = flatmarks.carry_events
    exec(_compiled(source), scope)  # noqa: S102  (our template source only)
    C = mechanics.layout.C
    table = tuple(tuple(scope[f"f{card}_{p}"] for p in range(C)) for card in range(len(card_asts)))
    flat = flatmarks.MarkedFlatMoves(table, source, weights, mechanics, game.marks, kind_modes)
    flat.carried, flat.marked_by = scope["CARRIED"], scope["MARKED_BY"]
    if all(consequence.on_events is not None for consequence in game.after):
        flat.judged = OnEvents(game.after)
    flat.eventful_after = len(whens) == len(game.after) and all(needs_bump_or_slide(when) for when in whens)
    return flat
