"""Generate the flat-state flavour of a race-track variant's move functions.

For every card and player colour one function `f<card>_<colour>(P, occ, KP) -> (candidates,
spare_flags)` is written from `compiler.codegen.CardWriter`'s templates (the candidates
flavour), over a position the caller keeps in place (`engine.flatstate`): `P[c]` colour c's
squares as a sorted list, `occ` the occupancy list, `KP` the placement's key. It lists the
candidates of `FastMoves.select` for that placement in the same order (so the same choices
pick the same moves), rebuilds nothing, and leaves what it is given as it found it (`occ`
may change while it runs). Beyond `CardWriter`: a landing that bumps without sliding is
written inline (candidate code 6), a landing on a slide runs `flatstate.Slides.land` on the
occupancy (code 7), a two-part split's second part likewise (codes 8, 9), a first part
that bumps or slides is kept as its end and bumps (code 10), a switch that fires a slide
runs `flatstate.Slides.switch` on the occupancy (code 11), pawn loops stop
at the first pawn off the exclusive squares, a split is skipped unless two pawns stand on
them, a split among more than two pawns is written as among 2 when two pawns stand on
them and searched by `flatsplit.ManySplits` on the occupancy when more do (code 12), and
`can(...)` probes read the caller's occupancy. Steps and splits along `geometry:` routes
are `compiler.loopgeom`'s templates.

Distinct by construction (decided per function, `distinct_by_construction`): when the
effect's sources cannot give one placement twice by plain outcomes (no bump, no slide),
those are appended without a set; an outcome that bumps or slides marks the list, and a
marked list is deduplicated at the end keeping first occurrences: the same list as the
seen-sets give. Every other function keeps the seen-sets (by key), and in a two-part split
skips a plain outcome whose mirror (the same two landings the other way round) came earlier.

Security contract: as `compiler.codegen`'s. The source is built from templates and integers
only; the namespace is `engine.fastmoves.namespace` with helper wrappers that hand the
interpreter's code tuples, never the caller's lists (`flatstate.flat_namespace`).
"""

from __future__ import annotations

import dataclasses
import functools

from sorry_rules import dsl
from sorry_rules.base.limits import MAX_GENERATED_LINES
from sorry_rules.compiler.codegen import COVERED, CardWriter, GeneratedModule, TooLarge, Unsupported
from sorry_rules.compiler.loopgeom import RouteTemplates, route_namespace, routes_distinct
from sorry_rules.engine import flatfilters
from sorry_rules.engine.fastmoves import namespace, placement_key, placement_weights
from sorry_rules.engine.flatsplit import ManySplits
from sorry_rules.engine.flatstate import FlatMoves, Slides, flat_namespace
from sorry_rules.engine.mechanics import DRAW_AGAIN, PASS

#: the features a flat flavour is written for (and every `rules.` switch `codegen.COVERED` has):
#: play on a track, drawn or from hands, with consequences, counters, turn policies,
#: filters judged on facts (the functions read only the position and list the moves before
#: the filters; the loops handle the rest: `players.flatloop` draw play and its filters,
#: `engine.flatfilters`; `players.handloop` hands and policies) and `geometry:` routes
#: (`compiler.loopgeom`); not marks (a feature added later is not flat until it is listed here)
_FLAT = frozenset({"board:track", "turn:draw", "turn:hand", "after", "counters", "actions", "turn.take", "turn.redraw",
                   "filters", "geometry"})

#: payload codes of the plain outcomes (`distinct_by_construction`)
_DISTINCT_CODES = ("0,", "2,", "3,")


_ONE_PAWN = ("Forward", "Backward", "Enter")
_DISTINCT_KINDS = frozenset({*_ONE_PAWN, "Sorry", "Switch"})


def _shape(node) -> tuple | None:
    """What decides the outcomes of a source of `_DISTINCT_KINDS` without a selector (its
    kind, steps and relation; not its offset), or None for any other node."""
    kind = type(node).__name__
    if kind not in _DISTINCT_KINDS or getattr(node, "selector", None) is not None:
        return None
    return kind, getattr(node, "steps", None), getattr(node, "relation", None)


def _asked(node, found: set | None = None) -> set:
    """The `_shape`s of the effects of every `can(...)` in `node`."""
    found = set() if found is None else found
    if isinstance(node, dsl.Can):
        found.add(_shape(node.effect))
    for field in dataclasses.fields(node) if dataclasses.is_dataclass(node) else ():
        value = getattr(node, field.name)
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, dsl.Node):
                _asked(child, found)
    return found


class _Sources(dsl.Visitor):
    """The nodes of an effect that give outcomes, each as (kind, node, static flags)."""

    def __init__(self):
        self.found: list[tuple] = []
        self.flags = 0
        self.then = False

    def generic(self, node):
        self.found.append((type(node).__name__, node, self.flags))

    def visit_Choice(self, node):
        for option in node.options:
            self.visit(option)

    def visit_Then(self, node):
        self.then = True
        outer = self.flags
        self.flags = outer | (DRAW_AGAIN if isinstance(node.second, dsl.DrawAgain) else PASS)
        self.visit(node.first)
        self.visit(node.second)
        self.flags = outer

    def visit_Guard(self, node):
        self.visit(node.effect)


def effect_sources(ast) -> _Sources:
    """The outcome sources of an effect (what `FlatWriter` takes besides the effect)."""
    sources = _Sources()
    sources.visit(ast)
    return sources


def _sources_of(ast, sources: _Sources | None) -> _Sources:
    if sources is None:
        sources = effect_sources(ast)
    return sources


def distinct_by_construction(ast, mechanics, colours, sources: _Sources | None = None) -> bool:
    """Whether the plain outcomes of `ast` (no bump, no slide) for a player of `colours` are
    pairwise different placements, decided from the effect and the movement tables: its
    sources are `forward`, `backward`, `enter`, `sorry`, `switch` (each of the last three
    once), all under the same flags, beside at most one `pass` and any `draw_again`, and no
    two step primitives send one pawn to one square. (Within one step primitive two pawns
    cannot end alike; `enter` moves a Start pawn, the steps board pawns; `sorry` and
    `switch` move two colours, every other source one, and never alike.)"""
    sources = _sources_of(ast, sources)
    moves = [(kind, node, flags) for kind, node, flags in sources.found if kind in _DISTINCT_KINDS]
    rest = [kind for kind, _, _ in sources.found if kind not in _DISTINCT_KINDS]
    if any(kind not in ("Pass", "DrawAgain") for kind in rest) or rest.count("Pass") > 1:
        return False
    kinds = [kind for kind, _, _ in moves]
    if len({flags for _, _, flags in moves}) > 1 or any(kinds.count(k) > 1 for k in ("Enter", "Sorry", "Switch")):
        return False
    for kind, node, _ in moves:  # a sorry or switch between two colours of one player: either moves first
        if kind in ("Sorry", "Switch") and any(o != c and (node.relation is None or mechanics.matches(c, o, node.relation))
                                               for c in colours for o in colours):
            return False
    if mechanics.routes is not None:
        return routes_distinct([("forward" if kind == "Forward" else "backward", node.steps)
                                for kind, node, _ in moves if kind in ("Forward", "Backward")], mechanics, colours)
    layout, X = mechanics.layout, int(mechanics.X)
    steps = [(layout.forward if kind == "Forward" else layout.backward)(node.steps)
             for kind, node, _ in moves if kind in ("Forward", "Backward")]
    for i, first in enumerate(steps):
        for second in steps[i + 1:]:
            for c in colours:
                if any(0 <= first[c][sq] == second[c][sq] for sq in range(X)):
                    return False
    return True


def slides_apart(ast, mechanics, colours, sources: _Sources | None = None) -> bool:
    """Whether two outcomes of one-pawn sources (`forward`, `backward`, `enter`, besides
    `pass` and `draw_again`) can be one placement only when both leave the placement as it
    was (a pawn that slides back to the square it left): no two step primitives take one
    pawn to one end, after the slide its landing takes. (Two outcomes that move different
    pawns of one colour give one placement only when neither moves; `enter` moves a Start
    pawn, the steps board pawns; so only one pawn's ends by two primitives can meet.)"""
    sources = _sources_of(ast, sources)
    kinds = {kind for kind, _, _ in sources.found}
    if not kinds <= {*_ONE_PAWN, "Pass", "DrawAgain"} or mechanics.routes is not None:  # routes: not decided here
        return False
    layout, X = mechanics.layout, int(mechanics.X)
    steps = [(layout.forward if kind == "Forward" else layout.backward)(node.steps)
             for kind, node, _ in sources.found if kind in ("Forward", "Backward")]
    for c in colours:
        here = mechanics.slide_here[c]

        def end(to, here=here):
            return here[to].end if 0 <= to < len(here) and here[to] is not None else to
        for i, first in enumerate(steps):
            for second in steps[i + 1:]:
                if any(first[c][sq] >= 0 and second[c][sq] >= 0 and end(first[c][sq]) == end(second[c][sq])
                       for sq in range(X)):
                    return False
    return True


def split_by_construction(ast, mechanics, colours, sources: _Sources | None = None) -> bool:
    """Whether a card with one two-part split lists its plain outcomes without keys: the
    player moves one colour, the split is sequential and its parts' landings from a square
    differ from each other and from the square, every other source passes
    `distinct_by_construction` and is a one-pawn one (or a pass or draw_again), all under
    the same flags. Then two plain outcomes are one placement only when one of them is a
    leapfrog (the second part lands on the square the first left: one pawn's net move) or
    the other gives the same two pawns each other's landings ("swapped"): `split_second_part`
    marks both for the final dedupe. (A split that is neither moves two pawns to two new
    squares; every other plain outcome moves one pawn, or is a mirror: skipped.)"""
    sources = _sources_of(ast, sources)
    splits = [node for kind, node, _ in sources.found if kind == "Split"]
    if len(splits) != 1 or len(colours) != 1 or mechanics.simultaneous_split or mechanics.routes is not None:
        return False
    split = splits[0]
    if split.among != 2 or getattr(split, "selector", None) is not None or getattr(split, "parts", ()):
        return False
    others = _Sources()
    others.found = [found for found in sources.found if found[0] != "Split"]
    if not {kind for kind, _, _ in others.found} <= {*_ONE_PAWN, "Pass", "DrawAgain"}:
        return False
    if len({flags for kind, _, flags in sources.found if kind not in ("Pass", "DrawAgain")}) > 1:
        return False
    if not distinct_by_construction(None, mechanics, colours, others):
        return False
    rows = [mechanics.layout.forward(k)[colours[0]] for k in range(1, int(split.steps))]
    for sq in range(int(mechanics.X)):
        ends = [row[sq] for row in rows if row[sq] >= 0]
        if sq in ends or len(set(ends)) != len(ends):
            return False
    return True


def _wanted(oks: dict) -> tuple:
    """The colours o with oks[c][o] true for some colour c of `oks`, in order."""
    return tuple(o for o in range(len(next(iter(oks.values())))) if any(ok[o] for ok in oks.values()))


def _first_forward(ast) -> int | None:
    """The steps of a `forward` without a selector that is the effect, or an option of it
    (inside `then` too) before any split, or None."""
    while isinstance(ast, dsl.Then):
        ast = ast.first
    for option in ast.options if isinstance(ast, dsl.Choice) else (ast,):
        if isinstance(option, dsl.Split):
            return None
        if isinstance(option, dsl.Forward) and option.selector is None:
            return int(option.steps)
    return None


class FlatModule(GeneratedModule):
    """`codegen`'s module, knowing the pawns per colour (the flat lists' length)."""

    def __init__(self, mechanics, pawns: int):
        super().__init__(mechanics)
        self.pawns = pawns
        self.lines: list[str] = []


class FlatWriter(RouteTemplates, CardWriter):
    """`CardWriter`'s candidates flavour over the caller's flat state (module docstring)."""

    #: whether a split among more than two pawns is searched by `flatsplit.ManySplits`
    #: (`many`): a writer whose functions read more than the position (marks) says no
    many_splits = True

    def __init__(self, module, mechanics, programs, card: int, player: int, ast, sources: _Sources):
        super().__init__(module, mechanics, programs, card, player, select=True)
        self.single = distinct_by_construction(ast, mechanics, self.colours, sources)
        self.split_single = not self.single and split_by_construction(ast, mechanics, self.colours, sources)
        # the steps of a `forward` listed unguarded before the split ends every leapfrog of a split of as many steps
        self.leapfrogs = _first_forward(ast)
        self.bumpless = "True"  # `split_keyed`: whether the outcome being written sends no pawn back
        self.single = self.single or self.split_single
        # a landing that slides marks the list only when it ends where it started (`slides_apart`)
        self.noop_only = self.single and slides_apart(ast, mechanics, self.colours, sources)
        self.marked = False  # the outcome being written set `dup` itself
        self.counts = sources.then  # `n` is read by `then` only
        self.kinds = {kind for kind, _, _ in sources.found}
        self.asked = _asked(ast) - {None}
        self.answered: dict[tuple, str] = {}  # `_shape` -> the local telling whether it had outcomes
        self.marks = 0

    def emit_move(self, result: str, events: str, key: str = "", payload: str = "") -> None:
        """One outcome: appended directly when distinct by construction (a bump or slide marks
        the list for the final dedupe), else through the seen-set of its flags."""
        if self.probe:
            super().emit_move(result, events, key, payload)
            return
        if self.counts:
            self.line("n += 1")
        da = "True" if self.flags & DRAW_AGAIN else "False"
        if not key:
            self.line("if KB is None:")
            self.line("    KB = KEY(P) - KP")
            key, payload = f"KEY({result}) - KB", f"1, {result}, {events}"
        if self.split_single and not payload.startswith(("0,", "4,", "1,")):
            self.split_keyed(key, da, payload)
            return
        if self.single:
            if payload.startswith(_DISTINCT_CODES) or (self.split_single and payload.startswith("4,")):
                key = "None"  # `flatstate.plain_key`, if the list needs it
            elif payload.startswith("6,") and "Sorry" not in self.kinds:
                pass  # a bump: two colours change, unlike a plain step; unlike a switch, one goes to Start
            elif self.marked:
                pass
            else:
                self.line("dup = True")
            self.line(f"out.append(({key}, {da}, {payload}))")
            return
        seen = self.seen_set("m", self.flags & DRAW_AGAIN)
        self.line(f"key = {key}")
        self.line(f"if key not in {seen}:")
        self.line(f"    {seen}.add(key)")
        self.line(f"    out.append((key, {da}, {payload}))")

    def split_keyed(self, key: str, da: str, payload: str) -> None:
        """In a function of `split_by_construction`: an outcome that bumps or slides, through
        the seen-set (such outcomes meet each other often: a split's two orders); it marks the
        list when `self.bumpless` (an expression) holds: it sends no pawn back (a pawn sent
        back goes to Start, where no plain outcome puts one) and may meet a plain outcome
        listed without a key (`meets`)."""
        seen = self.seen_set("m", self.flags & DRAW_AGAIN)
        self.line(f"key = {key}")
        self.line(f"if key not in {seen}:")
        self.line(f"    {seen}.add(key)")
        if self.bumpless != "False":
            self.line(f"    if {self.bumpless}:")
            self.line("        dup = True")
        self.line(f"    out.append((key, {da}, {payload}))")

    # ---- sorted lists: the pawns on exclusive squares come first ---------------------------------
    @staticmethod
    def plain(node) -> None:
        """Unsupported for a primitive narrowed by a pawn selector or split into parts."""
        if getattr(node, "selector", None) is not None or getattr(node, "parts", ()):
            raise Unsupported(type(node).__name__)

    def step(self, node, direction: str, kind: str, step: str) -> None:
        """As `CardWriter.step` along the plain tables, stopping at the first pawn off the
        exclusive squares (along `geometry:` routes: `loopgeom.RouteTemplates.route_step`);
        Unsupported with a selector."""
        self.plain(node)
        if self.m.routes is not None:
            self.route_step(node, direction, kind, step)
            return
        self.uses_occ = True
        X, steps = int(self.m.X), int(node.steps)
        tables = self.m.layout.forward if direction == "forward" else self.m.layout.backward
        for c in self.colours:
            name = self.module.constant(f"{kind}{steps}_{int(c)}", tables(steps)[c])
            self.line(f"row = {name}")
            self.line(f"for sq in P{int(c)}:")
            self.line(f"    if sq >= {X}:")
            self.line("        break")
            self.pawn_stays()
            self.line("    to = row[sq]")
            self.line(f"    if to >= {X}:")
            self.indent(2)
            self.plain_landing(c, "sq", step)
            self.indent(-2)
            self.line("    elif to >= 0:")
            self.indent(2)
            self.landing(c, "sq", step)
            self.indent(-2)

    def pawn_stays(self) -> None:
        """Lines that skip a pawn `sq` of a step's loop that may not move (none here)."""

    def stays(self, square: str) -> None:
        """Lines (in a loop over pawns) that skip the pawn on `square` when it may not move
        (none here: `compiler.markloopgen` writes them where marks may stop a pawn)."""

    def untouchable(self, square: str) -> None:
        """Lines (in a loop over pawns) that skip the pawn on `square` when it may not be
        moved by another (none here, as `stays`)."""

    def slide_call(self, c: int, frm: str, to: str) -> str:
        """The expression of colour c's pawn landing `frm` -> `to` on a slide (`Slides.land`)."""
        return f"slide_land({int(c)}, {frm}, {to}, occ, KP)"

    def track_pawns(self, wanted=None) -> None:
        """`tp`: (square, colour) of every pawn on the track (of the colours `wanted`, default
        all), in square order."""
        T = int(self.m.T)
        self.line("tp = []")
        for o in range(self.m.layout.C) if wanted is None else wanted:
            self.line(f"for s in P{o}:")
            self.line(f"    if s >= {T}:")
            self.line("        break")
            self.line(f"    tp.append((s, {o}))")
        self.line("tp.sort()")

    def visit_MovePawn(self, node):
        """`move S to D` as `CardWriter.visit_MovePawn`: the chosen pawns land as a step does
        (this writer's landings: codes 0, 6, 7)."""
        CardWriter.visit_MovePawn(self, node)

    def visit_Send(self, node):
        """`send S to D` runs its primitive, as `visit_MovePawn`."""
        self.primitive(node)

    def visit_Sorry(self, node):
        """As `CardWriter.visit_Sorry`; a slide after it on the flat occupancy (code 7: the
        sorry's bump first among the bumps, as `Mechanics.sorry` lists its events)."""
        if self.probe:
            super().visit_Sorry(node)
            return
        m = self.m
        oks = {int(c): tuple(bool(m.bumpable[c][o] and (node.relation is None or m.matches(c, o, node.relation)))
                             for o in range(m.layout.C)) for c in self.colours}
        alone = len(oks) == 1  # one colour moved: `tp` is built only when it has a pawn in Start
        if alone:
            self.line(f"if {int(m.start[self.colours[0]])} in P{int(self.colours[0])}:")
            self.indent(1)
        self.track_pawns(_wanted(oks))
        self.module.constant("STARTS", tuple(int(x) for x in m.start))
        for c, ok in oks.items():
            name = self.module.constant(f"SORRY{self.fresh()}_{c}", ok)
            start = int(m.start[c])
            self.line("if True:" if alone else f"if {start} in P{c}:")
            self.line("    for sq, o in tp:")
            if len(oks) > 1:  # one colour moved: `tp` holds the colours it may send back only
                self.line(f"        if {name}[o]:")
                self.indent(1)
            self.indent(2)
            self.untouchable("sq")
            if m.slide_after_sorry:
                self.line(f"if SLIDE{c}[sq]:")
                self.line(f"    rs = {self.slide_call(c, str(start), 'sq')}")
                self.line("    if rs is not None:")
                self.indent(2)
                self.emit_move("", "", "rs[0]", f"7, {c}, {start}, sq, E_SORRY, rs[1], rs[2]")
                self.indent(-2)
                self.line("    continue")
            key = f"KP - E{c}[{start}] + E{c}[sq] - ES[o][sq] + ES[o][STARTS[o]]"
            self.emit_move("", "", key, f"2, {c}, {start}, sq, o, STARTS[o]")
            self.indent(-3 if len(oks) > 1 else -2)
        if alone:
            self.indent(-1)

    def visit_Switch(self, node):
        """As `CardWriter.visit_Switch`, a switch that fires a slide run on the flat occupancy
        (`flatstate.Slides.switch`, code 11: `switch_slid`) instead of the interpreter's
        `switch_slide`; a pawn that may not move or be moved is skipped (`stays`, `untouchable`)."""
        if self.probe:
            super().visit_Switch(node)
            return
        m = self.m
        T = int(m.T)
        oks = {int(c): tuple(bool(o != c and m.matches(c, o, node.relation)) for o in range(m.layout.C))
               for c in self.colours}
        self.track_pawns(_wanted(oks))
        self.module.constant("SLIDES", tuple(self.module.constants[f"SLIDE{o}"] for o in range(m.layout.C)))
        for c, ok in oks.items():
            name = self.module.constant(f"SWITCH{self.module.fresh()}_{c}", ok)
            plain = {"none": "True", "mover": f"not SLIDE{c}[sq]",
                     "both": f"not SLIDE{c}[sq] and not SLIDES[o][mine]"}[m.slide_after_switch]
            self.line(f"for mine in P{c}:")
            self.line(f"    if mine < {T}:")
            self.indent(2)
            self.stays("mine")
            self.line("for sq, o in tp:")
            if len(oks) > 1:  # one colour moved: `tp` holds the colours it may switch with only
                self.line(f"    if {name}[o]:")
                self.indent(1)
            self.indent(1)
            self.untouchable("sq")
            self.line(f"if {plain}:")
            self.indent(1)
            self.emit_move("", "", f"KP - E{c}[mine] + E{c}[sq] - ES[o][sq] + ES[o][mine]", f"3, {c}, mine, o, sq")
            self.indent(-1)
            self.line("else:")
            self.indent(1)
            self.switch_slid(c)
            self.indent(-4 if len(oks) == 1 else -5)

    def switch_slid(self, c: int) -> None:
        """Colour c's pawn on `mine` trading squares with o's on sq, a slide after it (code 11:
        listed with its key alone, `flatstate.Slides.switch_key`)."""
        self.line(f"ks = switch_key({c}, mine, o, sq, occ, KP)")
        self.line("if ks is not None:")
        self.indent(1)
        self.emit_move("", "", "ks", f"11, {c}, mine, o, sq")
        self.indent(-1)

    # ---- landings with a bump inlined ---------------------------------------------------------
    def bump_table(self, c: int) -> str:
        """The name of BUMP<c>: BUMP<c>[o] whether a colour-c pawn landing on o's pawn bumps it."""
        return self.module.constant(f"BUMP{int(c)}", tuple(bool(b) for b in self.m.bumpable[c]))

    def landing(self, c: int, frm: str, step: str) -> None:
        """As `CardWriter.landing`, with a bump that does not slide written inline (code 6)."""
        c = int(c)
        self.module.constant("STARTS", tuple(int(x) for x in self.m.start))
        self.line("o = occ[to]")
        self.line(f"if o != {c}:")
        self.line(f"    if not SLIDE{c}[to]:")
        self.line("        if o < 0:")
        self.indent(3)
        self.plain_landing(c, frm, step)
        self.indent(-1)
        self.line(f"elif {self.bump_table(c)}[o]:")
        self.indent(1)
        if self.probe:
            self.line("return True")
        else:
            self.bumpless = "False"
            self.emit_move("", "", f"KP - E{c}[{frm}] + E{c}[to] - ES[o][to] + ES[o][STARTS[o]]",
                           f"6, {c}, {frm}, to, {step}, o, STARTS[o]")
            self.bumpless = "True"
        self.indent(-3)
        self.line("    else:")
        self.indent(2)
        self.full_landing(c, frm, step)
        self.indent(-2)

    def full_landing(self, c: int, frm: str, step: str) -> None:
        """A landing on a slide (`flatstate.Slides.land`, code 7); probes as `CardWriter`'s."""
        if self.probe:
            super().full_landing(c, frm, step)
            return
        self.line(f"rs = {self.slide_call(c, frm, 'to')}")
        self.line("if rs is not None:")
        self.indent(1)
        if self.noop_only:
            self.line(f"if rs[1] == {frm}:")
            self.line("    dup = True")
            self.marked = True
        self.bumpless = "False"  # `split_keyed`: one pawn's move, the same as a plain split only if a leapfrog, marked there
        self.emit_move("", "", "rs[0]", f"7, {int(c)}, {frm}, to, {step}, rs[1], rs[2]")
        self.marked, self.bumpless = False, "True"
        self.indent(-1)

    # ---- the two-part split over the flat lists -----------------------------------------------
    def on_board(self) -> str:
        """An expression: how many of the player's pawns stand on exclusive squares (at most 2 counted per colour)."""
        X = int(self.m.X)
        terms = [f"(P{int(c)}[{i}] < {X})" for c in self.colours for i in range(min(2, self.module.pawns))]
        return " + ".join(terms)

    def visit_Split(self, node):
        """A sequential split between two different pawns of the player's colours (`split N`
        among 2, or `split N into D1, D2` with no pawn words), each part >= 1, written out
        along the two parts' tables; along `geometry:` routes, `split N` among any number
        (`loopgeom.RouteTemplates.route_split`); any other split runs its primitive."""
        if node.selector is not None:
            raise Unsupported("Split")
        if self.m.routes is not None and not self.m.simultaneous_split and not node.parts:
            self.route_split(node)
            return
        directions = _two_parts(node)
        if directions is None and self.many(node):
            return
        if directions is None or self.m.simultaneous_split or self.m.routes is not None:
            self.primitive(node)
            return
        m = self.m
        X, steps, C = int(m.X), int(node.steps), m.layout.C
        self.split_steps = steps
        first, second = (m.layout.forward if d == "forward" else m.layout.backward for d in directions)
        tag = "" if directions == ("forward", "forward") else "".join("F" if d == "forward" else "R" for d in directions)
        self.mirrored = directions[0] == directions[1]  # a plain outcome's mirror is another of this split
        rows = {c: self.module.constant(f"SPLIT{steps}{tag}_{int(c)}", (None,) + tuple(first(k)[c] for k in range(1, steps)))
                for c in self.colours}
        for c in self.colours:  # PARTS<steps>_<c>[sq]: the (part, landing) pairs of a first part from sq, by part
            c = int(c)
            self.module.constant(f"PARTS{steps}{tag}_{c}", tuple(
                tuple((k, int(first(k)[c][sq])) for k in range(1, steps) if first(k)[c][sq] >= 0)
                for sq in range(len(first(1)[c]))))
        control = self.module.constant(f"CONTROL{int(self.player)}", tuple(int(c) for c in self.colours))
        for c in range(C):
            self.module.constant(f"REST{steps}{tag}_{c}", (None,) + tuple(second(steps - k) for k in range(1, steps)))
            self.module.constant(f"LAST{steps}{tag}_{c}", (None,) + tuple(second(steps - k)[c] for k in range(1, steps)))
        self.module.constant("STARTS", tuple(int(x) for x in m.start))
        self.line(f"if {self.on_board()} >= 2:")
        self.indent(1)
        for c1 in self.colours:
            self.split_first(int(c1), rows, control, steps, X, C)
        self.indent(-1)

    def many(self, node) -> bool:
        """`split N among K` (K > 2 or any) on the flat position; whether written (not in
        probes, after `then`, along routes or with marks). With two of the player's pawns on exclusive
        squares it is `split N among 2` (the same parts in the same order: no third pawn for a
        part), written out as that; with more, `flatsplit.ManySplits` searches it (candidates
        of code 12), appending to the list and seen-set of moves itself."""
        if not self.many_splits or self.probe or node.parts or self.counts or self.flags:
            return False
        if self.m.simultaneous_split or self.m.routes is not None:
            return False
        steps = int(node.steps)
        limit = steps if node.among is None else int(node.among)
        if limit < 3:
            return False
        X = int(self.m.X)
        control = self.module.constant(f"CONTROL{int(self.player)}", tuple(int(c) for c in self.colours))
        self.line(f"nb = {' + '.join(f'(P{int(c)}[{i}] < {X})' for c in self.colours for i in range(self.module.pawns))}")
        self.line("if nb == 2:")
        self.indent(1)
        self.visit_Split(dataclasses.replace(node, among=2))
        self.indent(-1)
        self.line("elif nb > 2:")
        self.line(f"    split_any({control}, {steps}, {limit}, P, occ, KP, out, {self.seen_set('m', 0)})")
        return True

    def split_first(self, c1: int, rows: dict, control: str, steps: int, X: int, C: int) -> None:
        """The first part moved by a colour-c1 pawn, each second part after it. A first part
        that bumps or slides is played here (`pre`: the (colour, square) of the pawns it
        sends back, `end1` where it ends; candidates of code 10) unless it sends back a pawn of the player's own colours (the
        interpreter's `split_second` then, as for every first part in `CardWriter`)."""
        own = self.module.constant(f"OWN{int(self.player)}", tuple(c in self.colours for c in range(C)))
        self.line("i1 = -1")
        self.line(f"for sq1 in P{c1}:")
        self.line(f"    if sq1 >= {X}:")
        self.line("        break")
        self.line("    i1 += 1")
        self.line(f"    for part, to1 in {rows[c1].replace('SPLIT', 'PARTS')}[sq1]:")
        self.line("        pre = k1 = None")  # k1: the key after the first part, when a bump or slide needs it
        self.line("        end1 = to1")
        self.line(f"        if to1 < {X}:")
        self.line("            o1 = occ[to1]")
        self.line(f"            if o1 >= 0 or SLIDE{c1}[to1]:")
        self.line(f"                if o1 == {c1}:")
        self.line("                    continue")
        self.line(f"                k1 = KP - E{c1}[sq1] + E{c1}[to1]")
        self.line(f"                if SLIDE{c1}[to1]:")
        self.line(f"                    rs = slide_land({c1}, sq1, to1, occ, KP)")
        self.line("                    if rs is None:")
        self.line("                        continue")
        self.line(f"                    if not sends_back(rs[2], {own}):")
        self.line("                        k1, end1 = rs[0], rs[1]")
        self.line("                        pre = rs[2]")
        self.line(f"                elif not {self.bump_table(c1)}[o1]:")
        self.line("                    continue")
        self.line(f"                elif not {own}[o1]:")
        self.line("                    k1 = k1 - ES[o1][to1] + ES[o1][STARTS[o1]]")
        self.line("                    pre = ((o1, to1),)")
        self.line("                if pre is None:")
        self.line(f"                    for rl in split_second({c1}, i1, sq1, to1, {control}, "
                  f"{rows[c1].replace('SPLIT', 'REST')}[part], P):")
        self.indent(6)
        self.emit_move("rl[0]", "rl[1]")
        self.indent(-6)
        self.line("                    continue")
        self.indent(2)  # split_second_part writes its own 8 spaces
        self.with_first_part(c1, X, lambda c2: self.at_depth(-2, self.split_second_part, c1, c2, rows, X))
        self.indent(-2)

    def at_depth(self, by: int, write, *args) -> None:
        """`write(*args)` with the indentation changed by `by` levels."""
        self.indent(by)
        write(*args)
        self.indent(-by)

    def with_first_part(self, c1: int, X: int, second) -> None:
        """Lines that play a split's first part on the occupancy (its pawn off `sq1`, the pawns
        it sends back `pre` off their squares, the pawn on `end1`), `second(c2)`'s lines for
        each colour the second part may move, then the occupancy as it was."""
        self.line("occ[sq1] = -1")
        self.line("if pre is not None:")
        self.line("    for o, s in pre:")
        self.line("        occ[s] = -1")
        self.line(f"if end1 < {X}:")
        self.line(f"    occ[end1] = {c1}")
        for c2 in self.colours:
            second(int(c2))
        self.line(f"if end1 < {X}:")
        self.line("    occ[end1] = -1")
        self.line("if pre is not None:")
        self.line("    for o, s in pre:")
        self.line("        occ[s] = o")
        self.line(f"occ[sq1] = {c1}")

    def split_second_part(self, c1: int, c2: int, rows: dict, X: int) -> None:
        """The second part by a colour-c2 pawn once c1's pawn went sq1 -> end1 (occ shows it)."""
        first = f"k1 - E{c2}[sq2] + E{c2}[to2]"
        self.line(f"        row = {rows[c2].replace('SPLIT', 'LAST')}[part]")
        self.line("        i2 = -1")
        self.line(f"        for sq2 in P{c2}:")
        self.line(f"            if sq2 >= {X}:")
        self.line("                break")
        self.line("            i2 += 1")
        if c2 == c1:
            self.line("            if i2 == i1:")
            self.line("                continue")
        self.line("            to2 = row[sq2]")
        self.line("            if to2 < 0:")
        self.line("                continue")
        self.line(f"            if to2 < {X}:")
        self.line("                o2 = occ[to2]")
        self.line(f"                if o2 >= 0 or SLIDE{c2}[to2]:")
        self.line(f"                    if o2 == {c2}:")
        self.line("                        continue")
        self.line("                    if k1 is None:")
        self.line(f"                        k1 = KP - E{c1}[sq1] + E{c1}[to1]")
        self.line(f"                    if SLIDE{c2}[to2]:")
        self.line(f"                        rs = slide_land({c2}, sq2, to2, occ, k1)")
        self.line("                        if rs is not None:")
        self.indent(7)
        self.split_outcome(c1, c2, "rs[0]", f"9, {c1}, sq1, to1, {c2}, sq2, to2, rs[1], rs[2]", "rs[1], rs[2]", "rs[2]")
        self.indent(-7)
        self.line(f"                    elif {self.bump_table(c2)}[o2]:")
        self.indent(6)
        self.split_outcome(c1, c2, f"{first} - ES[o2][to2] + ES[o2][STARTS[o2]]",
                           f"8, {c1}, sq1, to1, {c2}, sq2, to2, o2, STARTS[o2]", "to2, ((o2, to2),)", None)
        self.indent(-6)
        self.line("                    continue")
        # the same two plain landings the other way round came earlier (same placement) unless
        # this second part lands on the square the first part left (parts of one direction only)
        if self.mirrored and c2 == c1:
            self.line("            if pre is None and i2 < i1 and to2 != sq1:")
            self.line("                continue")
        elif self.mirrored and self.colours.index(c2) < self.colours.index(c1):
            self.line("            if pre is None and to2 != sq1:")
            self.line("                continue")
        self.indent(3)
        if not self.split_single:  # the key of a plain outcome
            self.line("if k1 is None:")
            self.line(f"    k1 = KP - E{c1}[sq1] + E{c1}[to1]")
        self.split_outcome(c1, c2, first, f"4, {c1}, sq1, to1, {c2}, sq2, to2", "to2, ()", "")
        self.indent(-3)

    def part_of(self, c: int) -> str:
        """The name of PARTOF<steps>_<c>: [sq][to] the part of the split whose landing from sq is `to`, or 0."""
        steps, forward = self.split_steps, self.m.layout.forward
        partof = []
        for sq in range(int(self.m.X)):
            row = [0] * len(forward(1)[c])
            for k in range(1, steps):
                if forward(k)[c][sq] >= 0:
                    row[forward(k)[c][sq]] = k
            partof.append(tuple(row))
        return self.module.constant(f"PARTOF{steps}_{c}", tuple(partof))

    def meets(self, c: int, ends: str) -> str:
        """An expression: whether a split that sends no pawn back and ends its pawns (sq1, sq2)
        on `ends` may be the same placement as a plain split or a one-pawn move
        (`flatstate.split_meets`)."""
        return f"split_meets({self.part_of(c)}, LAST{self.split_steps}_{c}, sq1, sq2, {ends})"

    def plain_twins(self, c: int) -> None:
        """Before a plain split outcome listed without a key (`split_by_construction`): a
        leapfrog (the second part lands on the square the first left: the second pawn's net
        move to1) is skipped when the forward listed first took that pawn there (forward as
        many steps, `leapfrogs`), else it marks the list; an outcome whose swapped twin (the
        first pawn to to2 by a smaller part `m`, the second to to1) came earlier is skipped
        (PARTOF<steps>_<c>[sq][to]: the part landing on `to` from sq, 0 for none)."""
        steps, forward = self.split_steps, self.m.layout.forward
        twins = self.part_of(c)
        self.line("if to2 == sq1:")
        if self.leapfrogs == steps:
            self.line(f"    if {self.module.constant(f'F{steps}_{c}', forward(steps)[c])}[sq2] == to1:")
            self.line("        continue")
        self.line("    dup = True")
        self.line("else:")
        self.line(f"    m = {twins}[sq1][to2]")
        self.line(f"    if m and m < part and LAST{steps}_{c}[m][sq2] == to1:")
        self.line("        continue")

    def split_outcome(self, c1: int, c2: int, key: str, payload: str, landing: str, bumps: str | None = None) -> None:
        """One outcome of a split: `payload` after a plain first part, else code 10 (the first
        part's end and bumps, `end1` and `pre`, then the second's: `landing` is its end and
        bumps), whose relocations and events are built only when it is played. `bumps` is an
        expression of the second part's bumps: None when it bumps or is not known (a split
        along routes), "" when it is plain; a plain one (code 4) listed without a key
        (`split_by_construction`) is checked by `plain_twins` first."""
        self.line("if pre is None:")
        self.indent(1)
        second = "rs[1]" if bumps == "rs[2]" else "to2"
        self.bumpless = "False" if bumps is None or not self.split_single else \
            f"not {bumps} and {self.meets(c1, 'to1, ' + second)}" if bumps else "True"
        if bumps == "" and self.split_single:
            self.plain_twins(c1)
        self.emit_move("", "", key, payload)
        self.indent(-1)
        self.line("else:")
        self.indent(1)
        self.bumpless = "False" if bumps is None or not self.split_single else \
            f"not pre and not {bumps} and {self.meets(c1, 'end1, ' + second)}" if bumps else \
            f"not pre and {self.meets(c1, 'end1, ' + second)}"
        self.emit_move("", "", key, f"10, {c1}, sq1, to1, end1, pre, {c2}, sq2, to2, {landing}")
        self.bumpless = "True"
        self.indent(-1)

    # ---- passes, guards, the interpreter's primitives ---------------------------------------
    def visit_Choice(self, node):
        """As `CardWriter.visit_Choice`; in a function whose outcomes are all appended (distinct
        by construction), an option that a later `can(...)` of the card asks about (the same
        `_shape`) records whether it appended any (`answered`; the probe is not written then)."""
        outer = dict(self.answered)
        for option in node.options:
            shape = _shape(option) if self.single and not self.split_single else None  # every outcome appended
            if shape is None or shape not in self.asked:
                self.visit(option)
                continue
            self.marks += 1
            mark = f"had{self.marks}"
            self.line(f"{mark} = len(out)")
            self.visit(option)
            self.line(f"{mark} = len(out) != {mark}")
            self.answered[shape] = mark
        self.answered = outer

    def answer(self, node) -> str | None:
        """The local recording whether the option that `node` (a `can(...)`) asks about had
        outcomes (`visit_Choice`), or None."""
        return self.answered.get(_shape(node.effect)) if isinstance(node, dsl.Can) else None

    def condition(self, node) -> str:
        """As `CardWriter.condition`, with `can(...)` probes reading the caller's `occ`, or the
        answer an option of the enclosing choice recorded (`visit_Choice`)."""
        if isinstance(node, dsl.Can) and _shape(node.effect) in self.answered:
            return self.answered[_shape(node.effect)]
        if isinstance(node, dsl.Can):
            name = f"can{self.module.fresh()}_{int(self.player)}"
            probe = FlatProbe(self.module, self.m, self.programs, self.card, self.player)
            self.extra += probe.function(node.effect, name)
            return f"{name}(P, occ)"
        return super().condition(node)

    def emit_bare(self, flags: int) -> None:
        if self.probe:
            self.line("return True")
            return
        if self.counts:
            self.line("n += 1")
        if flags & PASS:
            da = "True" if flags & DRAW_AGAIN else "False"
            if self.single:  # one pass at most (`distinct_by_construction`), never the same as a move
                self.line(f"out.append((KP, {da}, 5))")
                return
            seen = self.seen_set("p", flags & DRAW_AGAIN)
            self.line(f"if KP not in {seen}:")
            self.line(f"    {seen}.add(KP)")
            self.line(f"    out.append((KP, {da}, 5))")
        else:
            self.line(f"spare |= {int(flags)}")

    def primitive(self, node) -> None:
        if self.probe:
            super().primitive(node)
            return
        index = len([k for k in self.module.constants if k.startswith("PRIM")])
        name = self.module.constant(f"PRIM{index}", self.programs.effect(node))
        self.need_board()
        self.line(f"for r, e, f in {name}({int(self.player)}, B):")
        self.indent(1)
        if self.counts:
            self.line("n += 1")
        if self.flags:
            self.line(f"f |= {int(self.flags)}")
        self.line("da = bool(f & DRAW_AGAIN)")
        moves = (self.seen_set("m", 0), self.seen_set("m", 1))
        passes = (self.seen_set("p", 0), self.seen_set("p", 1))
        self.line("if e:")
        self.line(f"    S = {moves[1]} if da else {moves[0]}")
        self.line("    if KB is None:")
        self.line("        KB = KEY(P) - KP")
        self.line("    key = KEY(r) - KB")
        self.primitive_key()
        self.line("    if key not in S:")
        self.line("        S.add(key)")
        self.line("        out.append((key, da, 1, r, e))")
        self.primitive_listed()
        self.line("elif f & PASS:")
        self.line(f"    S = {passes[1]} if da else {passes[0]}")
        self.line("    if KP not in S:")
        self.line("        S.add(KP)")
        self.line("        out.append((KP, da, 5))")
        self.line("else:")
        self.line("    spare |= f")
        self.indent(-1)

    def primitive_key(self) -> None:
        """Lines that change `key` of a primitive's outcome `r, e` before it is looked up (none here)."""

    def primitive_listed(self) -> None:
        """Lines run once a primitive's outcome was listed (none here)."""

    def function(self, ast, name: str | None = None) -> list[str]:
        self.visit(ast)
        head = [f"def f{self.card}_{self.player}(P, occ, KP):", *_locals(self.body, self.m.layout.C), "    out = []"]
        head += [f"    {s} = set()" for s in sorted(self.sets)]
        tail = []
        if self.single:
            head.append("    dup = False")
            tail.append("    if dup:")
            tail.append("        out = DEDUPE(out, KP)")
        tail += [f"    return out, {'spare' if any(line.lstrip().startswith('spare') for line in self.body) else 0}", ""]
        return head + self.body + tail + self.extra


def _two_parts(node) -> tuple | None:
    """The directions of a two-part split's parts, in order (`split N` among 2: both forward;
    `split N into D1, D2` with no pawn words), or None for any other split."""
    if not node.parts:
        return ("forward", "forward") if node.among == 2 else None
    if len(node.parts) != 2 or any(who is not None for _, who in node.parts):
        return None
    return tuple(direction for direction, _ in node.parts)


def _locals(body: list[str], colours: int) -> list[str]:
    """The lines that set up the locals the generated lines `body` read: the colours' square
    lists it names (`P0 = P[0]`), `spare`, the outcome count `n`, the lazy board `B` and the
    lazy key base `KB` (the position's key less KP: an interpreter's outcome's key less KB
    is counted from KP). Found by the text they appear in, in our own templates; a local
    set up and not read costs nothing but its line."""
    text = "\n".join(body)
    lines = [f"    P{i} = P[{i}]" for i in range(colours) if f"P{i}" in text]
    uses = {"spare": "spare" in text, "n": "n += 1" in text or "n ==" in text, "B": "B is None" in text, "KB": "KB" in text}
    lines += [f"    {name} = {value}" for name, value in (("spare", "0"), ("n", "0"), ("B", "None"), ("KB", "None"))
              if uses[name]]
    return lines


class FlatProbe(FlatWriter):
    """`can(effect)` over the flat state: `name(P, occ)` is True at the effect's first outcome."""

    def __init__(self, module, mechanics, programs, card: int, player: int):
        CardWriter.__init__(self, module, mechanics, programs, card, player, probe=True)
        self.single = self.counts = self.noop_only = self.marked = self.split_single = False
        self.kinds: set[str] = set()
        self.asked, self.answered = set(), {}

    def function(self, ast, name: str | None = None) -> list[str]:
        self.visit(ast)
        head = [f"def {name}(P, occ):", *_locals(self.body, self.m.layout.C), "    KP = 0"]
        return head + self.body + ["    return False", ""] + self.extra


def generate(mechanics, programs, card_asts, pawns: int, module=None, writer=None) -> tuple[str, dict, tuple]:
    """(source, constants, covered) of the flat flavour, as `codegen.generate`; `module` and
    `writer` (a `FlatModule` and a `FlatWriter` class) are another flavour's (marks)."""
    module = FlatModule(mechanics, pawns) if module is None else module
    writer = FlatWriter if writer is None else writer
    weights = placement_weights(mechanics.layout, pawns)
    for c, row in enumerate(weights):
        module.constant(f"E{c}", row)
    module.constant("ES", weights)
    covered = []
    for card, ast in enumerate(card_asts):
        lines = []
        sources = effect_sources(ast)
        try:
            for player in range(mechanics.layout.C):
                lines += writer(module, mechanics, programs, card, player, ast, sources).function(ast)
                if len(module.lines) + len(lines) > MAX_GENERATED_LINES:
                    raise TooLarge
        except Unsupported:
            covered.append(False)
            continue
        module.lines += lines
        covered.append(True)
    return "\n".join(module.lines) + "\n", module.constants, tuple(covered)


def needs_bump_or_slide(when) -> bool:
    """Whether the condition `when` (a DSL tree, or None) can hold only for a move that bumps
    or slides: `bumps(G) > 0` (or `>= 1`, `!= 0`), the same of `slides`, `A and B` where A
    or B is such, `A or B` where both are."""
    if not isinstance(when, dsl.BinOp):
        return False
    if when.op == "and":
        return needs_bump_or_slide(when.left) or needs_bump_or_slide(when.right)
    if when.op == "or":
        return needs_bump_or_slide(when.left) and needs_bump_or_slide(when.right)
    left, right = when.left, when.right
    if not (isinstance(left, dsl.Call) and left.function in ("bumps", "slides") and isinstance(right, dsl.Number)):
        return False
    return (when.op == ">" and right.value >= 0) or (when.op == ">=" and right.value >= 1) or \
        (when.op == "!=" and right.value == 0)


@functools.lru_cache(maxsize=16)
def _compiled(source: str):
    """The code object of a generated source (reused when the same rule file loads again)."""
    return compile(source, "<sorry-rules generated flat moves>", "exec")


def flat_moves(game, programs, card_asts, whens: tuple = ()) -> FlatMoves | None:
    """The flat-state move functions of `game`, or None when the generator does not cover
    the game or one of its cards, or one of its filters reads more than facts of the move
    and counters (`flatfilters.covers`: the flat loops never play those; the other loops do). `whens`: the trees of the
    conditions of its consequences (`after:`), in order: when every one `needs_bump_or_slide`,
    `eventful_after` is set (the loop skips them for a move that neither bumps nor slides)."""
    if not game.features() <= COVERED or not all(f in _FLAT or f.startswith("rules.") for f in game.features()):
        return None
    if not flatfilters.covers(game.filters):
        return None
    mechanics = game.mechanics
    try:
        source, constants, covered = generate(mechanics, programs, card_asts, game.pawns)
    except TooLarge:
        return None
    if not all(covered):
        return None
    slides = Slides(mechanics, constants["ES"])
    scope = flat_namespace(namespace(mechanics, constants["ES"]), slides)
    scope.update(constants)
    scope["split_any"] = ManySplits(mechanics, constants["ES"], slides).split
    if mechanics.routes is not None:
        scope.update(route_namespace(mechanics))
    weights = constants["ES"]
    scope["KEY"] = lambda placement: placement_key(weights, placement)
    exec(_compiled(source), scope)  # noqa: S102  (our template source only)
    C = mechanics.layout.C
    table = tuple(tuple(scope[f"f{card}_{p}"] for p in range(C)) for card in range(len(card_asts)))
    flat = FlatMoves(table, source, constants["ES"], mechanics)
    flat.eventful_after = len(whens) == len(game.after) and all(needs_bump_or_slide(when) for when in whens)
    return flat
