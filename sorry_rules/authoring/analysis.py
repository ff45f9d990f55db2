"""Whole-game analyses of a variant, for `sorry-play validate`: can the game ever progress?

These checks look at the card effects (their ASTs) together with the board tables and ask
questions no single field answers:
  * SR507: can any pawn ever leave Start? (an `enter` somewhere in a dealt card, or a
    `sorry` with a pawn that begins on the track to replace);
  * SR509: can a pawn ever reach Home? (a search over one pawn's squares with every step
    the deck's cards offer, slides included, exact count as the board's tables say);
  * SR511: slides that overlap (a warning);
  * SR506: teams that leave nobody to play against, `control: team` without teams, and
    effects that name a relation no colour has (warnings), and empty teams (an error).

They are *optimistic*: other pawns are ignored (a blocked square is never assumed), and
conditions (`if ...`) are assumed to hold sometimes. So a problem reported here is certain,
and a variant that passes may still stall in particular positions.

Contract: `analyse(v, asts, ctx, report)` only reports (through `report(path, code,
message, severity, offset=None, also=())`: the field the problem is about, a character
offset into its DSL text, and other fields involved, most relevant first); it never raises on a variant that passed the schema and the
cross-field checks. Loading a variant for play does not run these analyses.
"""

from __future__ import annotations

from collections import deque

from sorry_rules import dsl

_START_FIELDS = (("deck",), ("setup",))
_HOME_FIELDS = (("rules", "slide_on"), ("rules", "overshoot_home"), ("cards",), ("deck",))


def primitives(node):
    """Every primitive an effect may carry out (conditions and can(...) excluded)."""
    if isinstance(node, dsl.Choice):
        for option in node.options:
            yield from primitives(option)
    elif isinstance(node, dsl.Then):
        yield from primitives(node.first)
        yield from primitives(node.second)
    elif isinstance(node, dsl.Guard):
        yield from primitives(node.effect)
    elif node is not None:
        yield node


def functions_in(node) -> set[str]:
    """Names of the count functions an expression calls."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dsl.Call):
            found.add(item.function)
            stack.append(item.argument)
        elif isinstance(item, dsl.BinOp):
            stack.extend((item.left, item.right))
        elif isinstance(item, (dsl.Not, dsl.Neg)):
            stack.append(item.operand)
        elif isinstance(item, dsl.Aggregate):
            stack.append(item.body)
    return found


def analyse(v, asts: dict, ctx, report) -> None:
    """Run every analysis; `asts` maps ("cards", name) and ("win",) to parsed ASTs."""
    _teams(v, ctx, report)
    _slides(v, report)
    dealt = [name for name, count in v.deck.items() if count > 0 and name in v.cards]
    card_asts = {name: asts.get(("cards", name)) for name in dealt}
    if any(ast is None for ast in card_asts.values()):
        return  # a card that does not compile: its moves are unknown
    prims = {name: list(primitives(ast)) for name, ast in card_asts.items()}
    _relations_used(v, ctx, prims, report)
    can_leave = _progress(v, prims, report)
    _home(v, ctx, prims, asts.get(("win",)), can_leave, report)


# ---- teams ------------------------------------------------------------------------------
def _teams(v, ctx, report) -> None:
    for t, team in enumerate(v.teams or []):
        if not team:
            report(("teams", t), "SR506", f"team {t + 1} is empty", "error")
    C = len(v.colours)
    if C > 1 and all(len(ctx.team_of[c]) == C for c in range(C)):
        report(("teams",), "SR506", "every colour is on one team: no colour has an opponent", "warning")
    if v.rules.control == "team" and not any(len(team) > 1 for team in v.teams or []):
        report(("rules", "control"), "SR506", "rules.control is 'team' but no team has two colours: every player moves only their own colour", "warning")
    for key, names in v.seating.items():
        seated = [v.colours.index(n) for n in names if n in v.colours]
        if len(seated) > 1 and all(o in ctx.team_of[seated[0]] for o in seated):
            report(("seating", key), "SR506", f"seating {key}: every seated colour is on one team, so nobody plays against anybody", "warning")


def _relations_used(v, ctx, prims, report) -> None:
    """Effects that switch with or Sorry! a relation no colour pair has."""
    has_partner = any(len(team) > 1 for team in ctx.team_of)
    for name, nodes in prims.items():
        for node in nodes:
            if isinstance(node, (dsl.Switch, dsl.Sorry)) and node.relation == "partner" and not has_partner:
                word = "switch" if isinstance(node, dsl.Switch) else "sorry"
                report(("cards", name), "SR506", f"card '{name}': '{word} partner' can never apply: no colour has a partner (see teams:)", "warning", node.pos)


# ---- slides -----------------------------------------------------------------------------
def _slides(v, report) -> None:
    side = v.board.side_length
    slides = [(i, s.from_, s.to) for i, s in enumerate(v.board.slides)]
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
def _progress(v, prims, report) -> bool:
    """SR507: can a pawn in Start ever leave it? Returns True when one can."""
    enters = any(isinstance(n, dsl.Enter) for nodes in prims.values() for n in nodes)
    sorries = any(isinstance(n, dsl.Sorry) for nodes in prims.values() for n in nodes)
    on_exit = v.setup.on_start_exit
    in_start = v.pawns - on_exit
    if enters or (sorries and on_exit > 0):
        return True
    if sorries:
        why = "no card has 'enter', and 'sorry' needs a pawn on the track to replace, but every pawn begins in Start (setup.on_start_exit is 0)"
    else:
        why = "no card in the deck has 'enter' or 'sorry'"
    if in_start > 0 and on_exit == 0:
        report(("cards",), "SR507", f"no card can start a pawn: {why}, so no pawn ever moves", "error", also=_START_FIELDS)
    elif in_start > 0:
        report(("cards",), "SR507", f"no card can start a pawn: {why}, so the {in_start} pawn(s) that begin in Start never leave it", "error",
               also=_START_FIELDS)
    else:
        report(("cards",), "SR507", f"no card can start a pawn: {why}, so a pawn bumped back to Start never leaves it", "warning",
               also=_START_FIELDS)
    return False


# ---- reaching Home ----------------------------------------------------------------------
def _home(v, ctx, prims, win_ast, can_leave: bool, report) -> None:
    """SR509: from Start (or the start exit), can some sequence of the deck's moves bring a
    pawn exactly Home? Searched per colour over one pawn's squares."""
    forward: set[int] = set()
    backward: set[int] = set()
    enter = sorry = switch = False
    for nodes in prims.values():
        for node in nodes:
            if isinstance(node, dsl.Forward):
                forward.add(node.steps)
            elif isinstance(node, dsl.Backward):
                backward.add(node.steps)
            elif isinstance(node, dsl.Split) and v.pawns > 1:
                forward.update(range(1, node.steps))
            elif isinstance(node, dsl.Enter):
                enter = True
            elif isinstance(node, dsl.Sorry):
                sorry = True
            elif isinstance(node, dsl.Switch):
                switch = True
    needed = win_ast is None or "home" in functions_in(win_ast)  # an unreadable win: assume it needs Home
    severity = "error" if needed else "warning"
    if not forward:
        report(("cards",), "SR509", "Home unreachable: no card moves a pawn forward", severity, also=(("deck",),))
        return
    layout, mechanics = ctx.layout, ctx.mechanics
    starts = []
    if v.setup.on_start_exit > 0:
        starts.append("exit")
    if can_leave and v.pawns > v.setup.on_start_exit:
        starts.append("start")
    for c in range(layout.C):
        for origin in starts:
            if not _reaches_home(layout, mechanics, c, origin, sorted(forward), sorted(backward), enter, sorry, switch):
                where = "its start exit" if origin == "exit" else "Start"
                report(("board",), "SR509",
                       f"Home unreachable: no sequence of the deck's moves takes a {layout.colours[c]} pawn from {where} "
                       f"exactly to Home (check board.safety_entry, the slides, rules.slide_on and the card steps)", severity,
                       also=_HOME_FIELDS)
                return


def _reaches_home(layout, mechanics, c, origin, forward, backward, enter, sorry, switch) -> bool:
    """Breadth-first search over the squares of one colour-c pawn (others ignored)."""
    T, X = layout.T, layout.X
    home, start = layout.home[c], layout.start[c]
    slide_here = mechanics.slide_here[c]
    stops = layout.overshoot_stops
    forward_set, backward_set = set(forward), set(backward)
    max_forward, max_backward = max(forward_set, default=0), max(backward_set, default=0)

    def after_slide(sq: int) -> int:
        if 0 <= sq < T and slide_here[sq] is not None:
            return slide_here[sq].end
        return sq

    def walks(sq: int) -> list[int]:
        """Where the forward and backward steps of the deck take a pawn on `sq` (one walk
        each way, so a split's many part sizes cost no more than its largest)."""
        found = []
        if sq >= X:
            return found
        here = sq
        for k in range(1, max_forward + 1):
            here = (home if stops else -1) if here == home else layout._step_forward(c, here)
            if here < 0:
                break
            if k in forward_set:
                found.append(after_slide(here))
            if here == home and stops:
                break
        here = sq
        for k in range(1, max_backward + 1):
            here = layout._step_backward(c, here)
            if here < 0:
                break
            if k in backward_set:
                found.append(after_slide(here))
        return found

    first = layout.start_exit[c] if origin == "exit" else start  # setup places pawns without sliding
    if 1 in forward_set:  # quick answer: one step at a time from the start exit
        here = after_slide(layout.start_exit[c]) if origin == "start" else first
        seen_path: set[int] = set()
        while here not in seen_path and 0 <= here < X:
            seen_path.add(here)
            here = after_slide(layout._step_forward(c, here))
        if here == home and (origin == "exit" or enter):
            return True  # (entered by `enter`, or placed on the exit by the setup)
    seen = {first}
    queue = deque([first])
    slide_sorry = mechanics.slide_after_sorry
    slide_switch = mechanics.slide_after_switch != "none"
    done: set[str] = set()  # teleports already queued (a Sorry! or a switch reaches any track square)
    while queue:
        sq = queue.popleft()
        if sq == home:
            return True
        targets = []
        if sq == start:
            if enter:
                targets.append(after_slide(layout.start_exit[c]))
            if sorry and "sorry" not in done:
                done.add("sorry")
                targets.extend(after_slide(t) if slide_sorry else t for t in range(T))
        else:
            targets.extend(walks(sq))
            if switch and sq < T and "switch" not in done:
                done.add("switch")
                targets.extend(after_slide(t) if slide_switch else t for t in range(T))
        for to in targets:
            if to not in seen:
                seen.add(to)
                queue.append(to)
    return False
