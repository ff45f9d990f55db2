"""Whole-game analyses of a variant, for `sorry-play validate`: can the game ever progress?

These checks look at the card effects (their ASTs) together with the board tables and ask
questions no single field answers:
  * SR507: can any pawn ever leave Start? (an `enter`, or a `move`/`send` that may take a
    pawn out of Start, somewhere in a dealt card, an alternative added to cards (`also:`) or
    an effect played right after a move (`after: then:`), or a `sorry` with a pawn that
    begins on the track to replace);
  * SR509: can a pawn ever reach Home? (a search over one pawn's squares with every step
    the deck's cards, the added alternatives and the `after: then:` effects offer, slides
    included, exact count as the board's tables say);
  * SR511: slides that overlap (a warning);
  * SR506: teams that leave nobody to play against, `control: team` without teams, and
    effects that name a relation no colour has (warnings), and empty teams (an error);
  * SR563: `mark M every ...` of a `one_per_player` mark, which only one pawn keeps (a warning);
  * SR517: `draw_again` more than once in one way of playing an effect, which gives one
    extra card all the same (a warning).

They are *optimistic*: other pawns are ignored (a blocked square is never assumed), and
conditions (`if ...`) are assumed to hold sometimes. So a problem reported here is certain,
and a variant that passes may still stall in particular positions.

Contract: `analyse(v, asts, ctx, report)` only reports (through `report(path, code,
message, severity, offset=None, also=())`: the field the problem is about, a character
offset into its DSL text, and other fields involved, most relevant first); it never raises
on a variant that passed the schema and the cross-field checks. Loading a variant for play does not run these analyses.
"""

from __future__ import annotations

from collections import deque

from sorry_rules import dsl
from sorry_rules.compiler.ranges import turn_masks

_START_FIELDS = (("deck",), ("setup",))
_HOME_FIELDS = (("rules", "slide_on"), ("rules", "overshoot_home"), ("cards",), ("deck",))


class _Primitives(dsl.EffectWalker):
    """The primitives of an effect, in source order (conditions and can(...) excluded)."""

    covers = ()  # a structural walk: every primitive alike

    def visit_Node(self, node):
        yield node


class _ExtraDraws(dsl.Visitor):
    """The most `draw_again`s one way of playing an effect plays: summed along `then`, the
    most of the alternatives of `|`."""

    covers = dsl.EFFECT_NODES
    #: the other primitives draw nothing
    defaulted = tuple(n for n in dsl.PRIMITIVES if n is not dsl.DrawAgain)

    def visit_DrawAgain(self, node) -> int:
        return 1

    def visit_Choice(self, node) -> int:
        return max(self.visit(option) for option in node.options)

    def visit_Then(self, node) -> int:
        return self.visit(node.first) + self.visit(node.second)

    def visit_Guard(self, node) -> int:
        return self.visit(node.effect)

    def visit_Node(self, node) -> int:
        return 0


class _Functions(dsl.Visitor):
    """Names of the count functions an expression calls (not looking inside can(...))."""

    covers = dsl.EXPRESSION_NODES
    #: they call no count function (can(...) is not looked into)
    defaulted = (dsl.Number, dsl.Bool, dsl.Can, dsl.Name, dsl.CountPawns)

    def visit_Call(self, node) -> set:
        return {node.function} | self.visit(node.argument)

    def visit_BinOp(self, node) -> set:
        return self.visit(node.left) | self.visit(node.right)

    def visit_Not(self, node) -> set:
        return self.visit(node.operand)

    visit_Neg = visit_Not

    def visit_Aggregate(self, node) -> set:
        return self.visit(node.body)

    def visit_Node(self, node) -> set:
        return set()


class _Reach(dsl.Visitor):
    """What the primitives of a deck can do to one pawn: forward and backward step counts
    (a split's parts included when there is a second pawn to take the rest), and whether
    any card enters, Sorry!s or switches."""

    covers = dsl.PRIMITIVES
    #: they move no pawn by a count of steps: the squares a pawn reaches by steps do not follow them
    defaulted = (dsl.DrawAgain, dsl.Pass, dsl.Place, dsl.Remove, dsl.Send, dsl.MovePawn, dsl.Mark, dsl.Unmark)

    def __init__(self, pawns: int, counts=None):
        self.pawns = pawns
        self.counts = counts  # a number expression -> the step counts it may give (`forward (N)`)
        self.forward: set[int] = set()
        self.backward: set[int] = set()
        self.enter = self.sorry = self.switch = False

    def visit_Forward(self, node):
        (self.forward if isinstance(node, dsl.Forward) else self.backward).add(node.steps)

    visit_Backward = visit_Forward

    def visit_ForwardBy(self, node):
        (self.forward if isinstance(node, dsl.ForwardBy) else self.backward).update(self.counts(node.count))

    visit_BackwardBy = visit_ForwardBy

    def visit_Split(self, node):
        if node.parts:  # split N into ...: each part may take up to N - (the other parts) steps its way
            most = node.steps - len(node.parts) + 1
            for direction, _ in node.parts:
                (self.forward if direction == "forward" else self.backward).update(range(1, most + 1))
        elif self.pawns > 1:
            self.forward.update(range(1, node.steps))

    def visit_Enter(self, node):
        self.enter = True

    def visit_Sorry(self, node):
        self.sorry = True

    def visit_Switch(self, node):
        self.switch = True

    def visit_Node(self, node):
        pass


def primitives(node):
    """Every primitive an effect may carry out (conditions and can(...) excluded)."""
    if node is not None:
        yield from _Primitives().visit(node)


def rules_of(game, rules: dict, card: int) -> list:
    """The rule-file cards (`explain.CardRule`s of `explain.card_rules`) a card of the game plays: itself, or
    for a throw of several dice the card of each face it shows (`engine.dice`) and the rule of
    its total when the throw may be spent whole (`turn.whole`, keyed "whole N")."""
    dice = getattr(game, "dice", None)
    if dice is None:
        return [rules[game.card_names[card]]]
    faces = dice.throws[card]
    whole = [rules[f"whole {sum(faces)}"]] if len(faces) > 1 and f"whole {sum(faces)}" in rules else []
    return [rules[str(face)] for face in dict.fromkeys(faces)] + whole


def analyse(v, asts: dict, ctx, report) -> None:
    """Run every analysis; `asts` maps ("cards", name) and ("win",) to parsed ASTs."""
    _teams(v, ctx, report)
    _slides(v, report)
    if getattr(v.turn, "source", "draw") == "dice":  # every face is thrown, and every throw may be spent whole
        dealt = [name for name in dict.fromkeys(str(f) for f in v.turn.faces) if name in v.cards]
        card_asts = {name: asts.get(("cards", name)) for name in dealt}
        card_asts.update({f"whole {key}": asts.get(("turn", "whole", key)) for key in v.turn.whole})
    else:
        dealt = [name for name, count in v.deck.items() if count > 0 and name in v.cards]
        card_asts = {name: asts.get(("cards", name)) for name in dealt}
    complete = all(ast is not None for ast in card_asts.values())  # else a card's moves are unknown
    card_asts = {name: ast for name, ast in card_asts.items() if ast is not None}
    where = {name: ("cards", name) for name in card_asts}
    where.update({f"whole {key}": ("turn", "whole", key) for key in getattr(v.turn, "whole", {})})
    # the alternatives added to cards (also:) and the effects played right after a move (after: then:) move pawns too
    extra = {("also", name, "effect"): f"also {name}" for name in getattr(v, "also", {})}
    extra.update({("after", i, "then"): f"after {i}" for i, c in getattr(v, "after", {}).items()
                  if getattr(c, "then", None) is not None})
    for path, name in extra.items():
        if asts.get(path) is not None:
            card_asts[name], where[name] = asts[path], path
    prims = {name: list(primitives(ast)) for name, ast in card_asts.items()}
    _relations_used(v, ctx, prims, where, report)
    _marks_kept_once(v, prims, where, report)
    _draws_repeated(card_asts, where, report)
    if complete:  # the deck as a whole: every card's moves known
        can_leave = _progress(v, prims, report)
        _home(v, ctx, prims, asts.get(("win",)), can_leave, report, turn_masks(v, asts, len(v.colours)))


# ---- teams ------------------------------------------------------------------------------
def _teams(v, ctx, report) -> None:
    for t, team in enumerate(v.teams or []):
        if not team:
            report(("teams", t), "SR506", f"team {t + 1} is empty", "error")
    C = len(v.colours)
    one_team = C > 1 and all(len(ctx.team_of[c]) == C for c in range(C))
    if one_team:
        report(("teams",), "SR506", "every colour is on one team: no colour has an opponent", "warning")
    if v.rules.control == "team" and not any(len(team) > 1 for team in v.teams or []):
        report(("rules", "control"), "SR506",
               "rules.control is 'team' but no team has two colours: every player moves only their own colour", "warning")
    for key, names in v.seating.items():
        seated = [v.colours.index(n) for n in names if n in v.colours]
        if len(seated) > 1 and all(o in ctx.team_of[seated[0]] for o in seated):
            report(("seating", key), "SR506",
                   f"seating {key}: every seated colour is on one team, so nobody plays against anybody", "warning")
    if one_team or any(not team for team in v.teams or []):
        return
    for n in range(max(2, v.players.min), v.players.max + 1):  # the counts seated evenly round the board (no seating:)
        if str(n) in v.seating or n > C or v.board.kind != "track":
            continue
        seated = [i * C // n for i in range(n)]
        if all(o in ctx.team_of[seated[0]] for o in seated):
            names = ", ".join(v.colours[c] for c in seated)
            report(("players", "min"), "SR506", f"{n} players sit {names} (spread evenly round the board, no seating: "
                   f"entry), all on one team, so nobody plays against anybody: add seating: {{\"{n}\": [...]}} or "
                   f"raise players.min", "warning", also=(("teams",), ("players",)))


def _relations_used(v, ctx, prims, where, report) -> None:
    """Effects that switch with or Sorry! a relation no colour pair has, and `after:`
    additions to partners' counters (`to:`) where no colour has a partner."""
    has_partner = any(len(team) > 1 for team in ctx.team_of)
    for name, nodes in prims.items():
        for node in nodes:
            if isinstance(node, (dsl.Switch, dsl.Sorry)) and node.relation == "partner" and not has_partner:
                word = "switch" if isinstance(node, dsl.Switch) else "sorry"
                report(where[name], "SR506",
                       f"{_named(name)}: '{word} partner' can never apply: no colour has a partner (see teams:)", "warning",
                       node.pos)
    for name, c in getattr(v, "after", {}).items():
        to = getattr(c, "to", "mover")
        if to.endswith("partner") and c.add and not has_partner:
            report(("after", name, "to"), "SR506", f"after.{name}: 'to: {to}' can never apply: no colour has a partner "
                   "(see teams:), so its additions go to nobody", "warning")


def _marks_kept_once(v, prims, where, report) -> None:
    """`mark M every ...` of a mark each player keeps on one pawn only (`one_per_player`):
    every chosen pawn is marked in turn and only the last keeps it."""
    for name, nodes in prims.items():
        for node in nodes:
            kind = v.marks.get(node.name) if isinstance(node, dsl.Mark) else None
            if kind is not None and kind.one_per_player and node.selector.every:
                report(where[name], "SR563",
                       f"{_named(name)}: 'mark {node.name} every ...' marks every chosen pawn, but mark "
                       f"'{node.name}' is one_per_player: only one of them keeps it (drop `every`, or one_per_player)",
                       "warning", node.selector.pos)


def _draws_repeated(card_asts: dict, where: dict, report) -> None:
    """An effect that plays `draw_again` twice in one way: a move gives the turn one extra
    card however often it says so (the draw-again flag of `engine.option`)."""
    for name, ast in card_asts.items():
        times = _ExtraDraws().visit(ast)
        if times > 1:
            last = [node for node in dsl.walk(ast) if isinstance(node, dsl.DrawAgain)][-1]
            report(where[name], "SR517",
                   f"{_named(name)}: one way of playing it says draw_again {times} times, but a move gives one extra "
                   "card however often it says so; for more, add an after: consequence with draw_again: true for "
                   "each further card", "warning", last.pos)


def _named(name: str) -> str:
    """How a message names an effect of `analyse`: "card '7'", "also freeze", "after 0"."""
    return name if name.startswith(("also ", "after ", "whole ")) else f"card '{name}'"


# ---- slides -----------------------------------------------------------------------------
def _slides(v, report) -> None:
    side = v.board.side_length
    # a jump (`sweep: end`) sweeps no path: only its end, which SR505 keeps off other triangles
    slides = [(i, s.from_, s.to) for i, s in enumerate(v.board.slides) if s.sweep == "path"]
    for i, a_from, a_to in slides:
        for j, b_from, b_to in slides:
            if j <= i:
                continue
            for shift in (-side, 0, side):  # every side has the same slides
                lo, hi = b_from + shift, b_to + shift
                if a_from <= hi and lo <= a_to and a_to % side != b_from % side and b_to % side != a_from % side:
                    report(("board", "slides", j), "SR511",
                           f"slide from {b_from} to {b_to} overlaps the slide from {a_from} to {a_to}", "warning")
                    break


# ---- leaving Start ----------------------------------------------------------------------
def _leaves_start(node) -> bool:
    """Whether a primitive may take a pawn out of Start: `enter`, or a `move`/`send` whose
    selector may choose a pawn in Start (no zone, or `in start`) to somewhere else."""
    if isinstance(node, dsl.Enter):
        return True
    if isinstance(node, (dsl.MovePawn, dsl.Send)):
        zones = node.selector.zones if node.selector is not None else ()
        return (not zones or "start" in zones) and node.destination != "start"
    return False


def _progress(v, prims, report) -> bool:
    """SR507: can a pawn in Start ever leave it? Returns True when one can."""
    enters = any(_leaves_start(n) for nodes in prims.values() for n in nodes)
    sorries = any(isinstance(n, dsl.Sorry) for nodes in prims.values() for n in nodes)
    on_track = v.setup.on_start_exit + sum(1 for s in v.setup.squares if s == "start_exit" or isinstance(s, int))
    in_start = v.pawns - v.setup.on_start_exit - len(v.setup.squares)
    if enters or (sorries and on_track > 0):
        return True
    if sorries:
        why = ("no card has 'enter', and 'sorry' needs a pawn on the track to replace, but every pawn begins in Start "
               "(setup.on_start_exit is 0)")
    else:
        why = "no card in the deck has 'enter' or 'sorry' (or moves or sends a pawn out of Start)"
    if in_start > 0:
        so = "no pawn ever moves" if in_start == v.pawns else f"the {in_start} pawn(s) that begin in Start never leave it"
    else:
        so = "a pawn bumped back to Start never leaves it"
    report(("cards",), "SR507", f"no card can start a pawn: {why}, so {so}", "error" if in_start > 0 else "warning",
           also=_START_FIELDS)
    return False


# ---- reaching Home ----------------------------------------------------------------------
def _home(v, ctx, prims, win_ast, can_leave: bool, report, masks: tuple = (0,)) -> None:
    """SR509: from Start (or the start exit), can some sequence of the deck's moves bring a
    pawn exactly Home? Searched per colour over one pawn's squares, with every set of the
    `geometry:` turns under a condition that their conditions may make (`masks`)."""
    most = ctx.layout.T + ctx.layout.L + 1

    def counts(node):
        low, high = ctx.programs.number_range(node)
        return range(int(max(low, 1)), int(min(high, most)) + 1)

    reach = _Reach(v.pawns, counts)
    for nodes in prims.values():
        for node in nodes:
            reach.visit(node)
    needed = win_ast is None or "home" in _Functions().visit(win_ast)  # an unreadable win: assume it needs Home
    severity = "error" if needed else "warning"
    layout, mechanics = ctx.layout, ctx.mechanics
    turns_in = mechanics.routes is not None and any(t.onto == "safety" for t in mechanics.routes.geometry.turns)
    if not reach.forward and not turns_in:  # a turn into the safety zone leads Home whatever the direction
        report(("cards",), "SR509", "Home unreachable: no card moves a pawn forward", severity, also=(("deck",),))
        return
    source = "dice's" if getattr(v.turn, "source", "draw") == "dice" else "deck's"
    starts = []
    if v.setup.on_start_exit > 0 or "start_exit" in v.setup.squares:
        starts.append("exit")
    if can_leave and v.pawns > v.setup.on_start_exit + len(v.setup.squares):
        starts.append("start")
    for c in range(layout.C):
        for origin in starts:
            if not _HomeSearch(layout, mechanics, c, reach, masks).reaches_home(origin):
                where = "its start exit" if origin == "exit" else "Start"
                turned = mechanics.routes is not None and bool(mechanics.routes.geometry.turns)
                report(("geometry", "turns") if turned else ("board",), "SR509",
                       f"Home unreachable: no sequence of the {source} moves takes a {layout.colours[c]} pawn from {where} "
                       f"exactly to Home (check {'geometry.turns, ' if turned else ''}board.safety_entry, the slides, "
                       "rules.slide_on and the card steps)", severity, also=_HOME_FIELDS)
                return


class _HomeSearch:
    """Breadth-first search over the squares of one colour-c pawn (others ignored), with the
    steps a deck offers (`_Reach`), the board's single steps and slides."""

    def __init__(self, layout, mechanics, c: int, reach: _Reach, masks: tuple = (0,)):
        self.layout, self.mechanics, self.c, self.reach, self.masks = layout, mechanics, c, reach, masks
        self.home, self.start = layout.home[c], layout.start[c]
        self.slide_here = mechanics.slide_here[c]
        self.max_forward = max(reach.forward, default=0)
        self.max_backward = max(reach.backward, default=0)

    def after_slide(self, sq: int) -> int:
        """Where a pawn that ends a move on `sq` comes to rest (the end of a slide it takes)."""
        return self.slide_here[sq].end if 0 <= sq < self.layout.T and self.slide_here[sq] is not None else sq

    def _walk(self, sq: int, steps: int, counts: set, step) -> list[int]:
        found = []
        stops = self.layout.overshoot_stops
        for k in range(1, steps + 1):
            sq = (self.home if stops else -1) if sq == self.home else step(self.c, sq)
            if sq < 0:
                break
            if k in counts:
                found.append(self.after_slide(sq))
            if sq == self.home and stops:
                break
        return found

    def walks(self, sq: int) -> list[int]:
        """Where the forward and backward steps of the deck take a pawn on `sq` (one walk
        each way, so a split's many part sizes cost no more than its largest)."""
        if sq >= self.layout.X:
            return []
        layout, reach = self.layout, self.reach
        routes = self.mechanics.routes
        if routes is not None:  # geometry: every way of every step count (turns, bounces), each set of turns there
            return [self.after_slide(way[0]) for direction, counts in (("forward", reach.forward), ("backward", reach.backward))
                    for n in sorted(counts) for mask in self.masks for way in routes.options(direction, n, mask)[self.c][sq]]
        return (self._walk(sq, self.max_forward, reach.forward, layout.step_forward)
                + self._walk(sq, self.max_backward, reach.backward, layout.step_backward))

    def one_at_a_time(self, origin: str) -> bool:
        """The quick answer with a 1 in the deck: one step at a time from the start exit
        along the plain board (not asked when `geometry:` adds routes: a turn may lead away)."""
        layout = self.layout
        exit_ = layout.start_exit[self.c]
        here = self.after_slide(exit_) if origin == "start" else exit_
        seen: set[int] = set()
        while here not in seen and 0 <= here < layout.X:
            seen.add(here)
            here = self.after_slide(layout.step_forward(self.c, here))
        return here == self.home and (origin == "exit" or self.reach.enter)

    def targets(self, sq: int, done: set) -> list[int]:
        """Squares one card takes the pawn on `sq` to; a Sorry! or a switch reaches any
        track square, so each is queued once (`done`)."""
        layout, reach, mechanics = self.layout, self.reach, self.mechanics
        if sq != self.start:
            found = self.walks(sq)
            if reach.switch and sq < layout.T and "switch" not in done:
                done.add("switch")
                slide = mechanics.slide_after_switch != "none"
                found.extend(self.after_slide(t) if slide else t for t in range(layout.T))
            return found
        found = [self.after_slide(layout.start_exit[self.c])] if reach.enter else []
        if reach.sorry and "sorry" not in done:
            done.add("sorry")
            found.extend(self.after_slide(t) if mechanics.slide_after_sorry else t for t in range(layout.T))
        return found

    def reaches_home(self, origin: str) -> bool:
        """Whether a pawn beginning in Start ("start") or on its start exit ("exit") can
        reach Home exactly (setup places pawns without sliding)."""
        if 1 in self.reach.forward and self.mechanics.routes is None and self.one_at_a_time(origin):
            return True
        first = self.layout.start_exit[self.c] if origin == "exit" else self.start
        seen = {first}
        queue = deque([first])
        done: set[str] = set()
        while queue:
            sq = queue.popleft()
            if sq == self.home:
                return True
            for to in self.targets(sq, done):
                if to not in seen:
                    seen.add(to)
                    queue.append(to)
        return False
