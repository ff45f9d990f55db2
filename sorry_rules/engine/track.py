"""The movement mechanisms of race-track games, each written once over `engine.position`.

A primitive's outcomes are the options of the card it is part of (`engine.option`): the
resolved events (steps, bumps, slides, switches, marks), flags and key. They are built
without changing the position where nothing depends on the move before (one pawn's landing);
a split and `A then B` play their first part on the position in place (`Position.make`)
and take it back (`Position.unmake`).

Each primitive is a *maker*: `maker(p, flags, card)` binds the tables of player colour
`p`'s pawns (every colour p controls), the flags its options carry and their card, and
returns `gen(pos, out)`, which appends the primitive's options on `pos` to `out` and leaves
`pos` as it found it. The compiler binds one DSL node to one maker (`compiler.plays`).

One function per mechanism:
  * `Track.landing`: a pawn landing on a square: own pawn (illegal), bump, slide (R16, R26);
    where squares hold several pawns (`engine.squares`), `Track.arrive`: how many the square
    holds, whose, where a landing captures, blockades (groups that may not be landed on);
  * `Track.sweep`: a slide taken from its triangle: who it sends back, when it is illegal;
  * `Track.enter`, `step`, `routed_step`, `sorry`, `switch`: the one-pawn primitives (R9,
    R13, R24, R25), along the plain tables or the `geometry:` routes;
  * `engine.splits`: a count of steps shared among pawns (R22, A1-A3);
  * marks (`engine.marks`) act as hooks: `landing` and `sweep` respect untouchable pawns,
    `free` drops options that move an immobile pawn or touch an untouchable one, and
    `from_start` lets a pawn leave Start marked or unmarked.
Relations (own/partner/opponent) are judged from the colour of the pawn that moves (T9).
"""

from __future__ import annotations

from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH
from sorry_rules.engine.marks import CARRY, shared_kinds, shielding
from sorry_rules.engine.option import MOVE, Option, new_option
from sorry_rules.engine.position import key_of
from sorry_rules.engine.routes import Geometry, Routes, table_row


class Track:
    """The movement rules of one compiled track variant (tables built once)."""

    def __init__(self, layout, relation, rules, control_of, geometry: Geometry | None = None, kinds: tuple = (),
                 weights: tuple = ()):
        self.layout = layout
        self.X, self.T = layout.X, layout.T
        self.start = layout.start
        C = layout.C
        self.relation = relation  # relation[c][o] in {"own", "partner", "opponent"}
        geometry = geometry or Geometry(past_home=layout.past_home)
        self.geometry = geometry
        #: bumpable[c][o]: a colour-c pawn landing on a colour-o pawn sends it back to Start (o == c: `rules.bump` own)
        self.bumpable = tuple(tuple(relation[c][o] in rules.bump and not geometry.blocks_landing(relation[c][o], o)
                                    for o in range(C)) for c in range(C))
        self.lands_own = tuple(self.bumpable[c][c] for c in range(C))
        # squares that hold several pawns (engine.squares): counted landings, groups that block
        self.stacked = layout.stacked
        self.counted = layout.counted  # squares below it are counted (`engine.squares`)
        self.capture_all = getattr(rules, "capture", "lone") == "all"
        #: group_land[c][o]: pawns of colour o together on a square that colour c may not land on (0: no limit)
        self.group_land = tuple(tuple(geometry.group_landing(relation[c][o], o) for o in range(C)) for c in range(C))
        self.slides_for = tuple(tuple(relation[c][s] in rules.slide_on for s in range(C)) for c in range(C))
        if rules.slide_sweep == "all":
            self.spares = tuple(tuple(False for _ in range(C)) for _ in range(C))
        else:
            self.spares = tuple(tuple(not self.bumpable[c][o] for o in range(C)) for c in range(C))
        self.slide_after_switch = rules.slide_after_switch
        self.slide_after_sorry = rules.slide_after_sorry
        self.slide_optional = getattr(rules, "slide_optional", False)
        self.simultaneous_split = rules.split == "simultaneous"
        self.control_of = control_of  # player colour -> colours it may move
        self.routes = Routes(layout, geometry, relation) if geometry.routed else None
        self.kinds = tuple(kinds)     # engine.marks.MarkKind per declared mark kind
        self.marked = bool(kinds)
        self.shielding = shielding(self.kinds)
        self.weights = weights
        # slide_here[c][sq]: the slide a colour-c pawn takes when it ends a move on sq, or None
        tail = (None,) * (layout.size - layout.T)
        self.slide_here = tuple(
            tuple(info if info is not None and (self.slides_for[c][info.colour] if info.on is None
                                                else relation[c][info.colour] in info.on) else None
                  for info in layout.slide_at) + tail
            for c in range(C))
        self._relation_tables: dict = {}
        self._carried: tuple = ((), {})  # `_carries`: (the marks, {(colour, square, pawns): carries})

    def matches(self, c: int, o: int, relation: str) -> bool:
        rel = self.relation[c][o]
        return rel == relation or (relation == "other" and rel != "own")

    def relation_table(self, relation: str) -> tuple:
        """table[c][o]: colour o is `relation` (own/partner/opponent/other) to colour c."""
        table = self._relation_tables.get(relation)
        if table is None:
            C = self.layout.C
            table = self._relation_tables[relation] = tuple(tuple(self.matches(c, o, relation) for o in range(C))
                                                            for c in range(C))
        return table

    def option(self, events: tuple, flags: int, card) -> Option:
        """The move of `events` as an option of `card` carrying `flags` (its key worked out)."""
        return new_option(Option, (card, events, flags, MOVE, key_of(self.weights, self.start, events), (), ""))

    # ---- one landing -------------------------------------------------------------------------
    def sweep(self, pos, c: int, at: int, left: int, step: str = "move"):
        """The events of the slide colour c's pawn takes from `at`, its triangle, on `pos`
        where the pawn now stands on `at` and the square `left` is empty: [] when no slide
        starts there (for c), None when the slide is illegal (a spared pawn on its end). A
        jump (`sweep: end`) lands on its end as a move of kind `step` would (`jump`)."""
        info = self.slide_here[c][at]
        if info is None:
            return []
        if info.jump:
            return self.jump(pos, c, at, left, info.end, step)
        occ, spares, guard = pos.occ, self.spares[c], pos.guard
        if self.stacked:
            return self._sweep_counted(pos, c, at, left, info)
        events = []
        for sq in info.swept:
            o = occ[sq]
            if o < 0 or sq == left:
                continue
            if spares[o] or (guard and (o, sq) in guard):
                if sq == info.end:
                    return None
                continue
            events.append((BUMP, o, sq))
        events.append((SLIDE, c, at, info.end))
        return events

    def jump(self, pos, c: int, at: int, left: int, end: int, step: str):
        """The events of colour c's jump from `at` to `end`: the landing on `end` that a move of
        kind `step` from `left` would make there (a pawn it may bump goes back to Start, one it
        may not forbids the jump; where squares hold several pawns, `arrive` judges the
        square), then the jump itself; None when it may not land there."""
        events = []
        if not self.lands(pos, c, left, end, step, events):
            return None
        events.append((SLIDE, c, at, end))
        return events

    def lands(self, pos, c: int, frm: int, to: int, step: str, events: list) -> bool:
        """Whether colour c's pawn moving from `frm` may end on `to` by a move of kind `step`
        (not on an own or unbumpable pawn, nor an untouchable one; where squares hold several
        pawns, as `arrive` judges), appending to `events` the bumps of the pawns it sends
        back: one of another colour after, one of its own before (`rules.bump` own: the events
        read in the order the squares empty and fill). `to == frm`: the square it left."""
        if self.stacked:
            return to >= self.counted or self.arrive(pos, c, frm, to, step, events)
        o = -1 if to == frm else pos.occ[to]
        if o >= 0:  # the one pawn there: `arrive` for a square that holds one pawn
            if not self.bumpable[c][o] or (pos.guard and (o, to) in pos.guard):
                return False
            if o == c:
                events.insert(0, (BUMP, c, to))
            else:
                events.append((BUMP, o, to))
        return True

    def _sweep_counted(self, pos, c: int, at: int, left: int, info):
        """`sweep` where squares hold several pawns: every pawn on the slide's squares (the
        sliding pawn itself excepted) goes back to its Start, those it spares stay (one on the
        end circle makes the slide illegal), so the slider always fits its end circle."""
        spares, events = self.spares[c], []
        for sq in info.swept:
            for o, n in pos.pawns_on(sq):
                if o == c and sq == left:
                    n -= 1
                if n <= 0:
                    continue
                if spares[o] or (pos.guard and (o, sq) in pos.guard):
                    if sq == info.end:
                        return None
                    continue
                events.extend((BUMP, o, sq) for _ in range(n))
        events.append((SLIDE, c, at, info.end))
        return events

    def landing(self, pos, c: int, frm: int, to: int, step: str, slide: bool = True):
        """The events of colour c's pawn stepping `frm` -> `to` on `pos` (kind `step`): the step
        and the bumps of `lands`, then its slide; None when illegal (`lands` refuses the square,
        a blocked slide). `to == frm` (a bounce back) lands on the square it left. `slide`
        False: the slide there declined (`declined`). `pos` is not changed."""
        events = [(step, c, frm, to)]
        if not self.lands(pos, c, frm, to, step, events):
            return None
        if not slide:
            return events
        slid = self.sweep(pos, c, to, frm, step)
        if slid is None:
            return None
        events.extend(slid)
        return events

    def declined(self, pos, c: int, frm: int, to: int, step: str):
        """The landing of `landing` with its slide declined, when `rules.slide_optional` lets
        the pawn stay on a triangle it takes; else None (no second move)."""
        if not self.slide_optional or self.slide_here[c][to] is None:
            return None
        return self.landing(pos, c, frm, to, step, False)

    def landings(self, pos, c: int, frm: int, to: int, step: str) -> list:
        """Every way colour c's pawn stepping `frm` -> `to` may end: `landing`, then with the
        slide declined (`declined`); [] when none is legal."""
        return [events for events in (self.landing(pos, c, frm, to, step), self.declined(pos, c, frm, to, step))
                if events is not None]

    def arrive(self, pos, c: int, frm: int, to: int, step: str, events: list) -> bool:
        """Whether colour c's pawn moving `frm` -> `to` (a counted square, kind `step`) may end
        there, on a board whose squares hold several pawns; appends the bumps of the pawns it
        captures to `events`. In order: a group of one colour that colour c may not land on
        (a blockade, `geometry.blockers` with `group`) stops it; a pawn of another colour is
        captured when the square lets `step` capture (`squares.*.capture`) and does not spare
        it (`squares.*.safe`), colour c may bump it (`rules.bump`) and it is alone there (or
        `rules.capture: all`); one that is not
        stays, which needs a square several colours may share (`share`), else the move is
        illegal; the mover's own pawns stay, or go back under `rules.bump` own as another
        colour's would (their bumps put before the mover's step, `events[0]`); last, the
        pawns left and the mover must fit the square (`hold`)."""
        layout = self.layout
        here = pos.pawns_on(to)
        if not here:
            return True
        capture, guard, group_land, safe = layout.capture[to], pos.guard, self.group_land[c], layout.safe[to]
        may_capture = capture is None or step in capture
        stay = 0
        for o, n in here:
            if o == c:
                n -= frm == to
            if group_land[o] and n >= group_land[o]:
                return False
            captured = n > 0 and may_capture and self.bumpable[c][o] and (n == 1 or self.capture_all) \
                and not (guard and (o, to) in guard) and not (safe and o in safe)
            if o == c and not captured:
                stay += n
            elif captured:
                bumps = [(BUMP, o, to)] * n
                if o == c:
                    events[0:0] = bumps
                else:
                    events.extend(bumps)
            elif layout.share[to]:
                stay += n
            else:
                return False
        return stay < layout.hold[to]

    # ---- marks as hooks ----------------------------------------------------------------------
    @staticmethod
    def free(pos, options: list) -> list:
        """The options in which no immobile pawn steps or switches and no untouchable pawn
        is bumped or switched with (all of them when no pawn is marked so)."""
        still, guard = pos.still, pos.guard
        if not still and not guard:
            return options
        out = []
        for option in options:
            for e in option[1]:
                kind = e[0]
                if (kind in STEP_KINDS and (e[1], e[2]) in still) or (kind == BUMP and (e[1], e[2]) in guard) \
                        or (kind == SWITCH and ((e[1], e[2]) in still or (e[3], e[4]) in guard)):
                    break
            else:
                out.append(option)
        return out

    def from_start(self, pos, options: list) -> list:
        """Each option whose first step leaves Start, once per kind of pawn that may leave
        (marked, unmarked), with "carry" events naming the marks the leaving pawn takes."""
        if not any(pos.marks):
            return options
        out, X = [], self.X
        for option in options:
            first = next((e for e in option[1] if e[0] != BUMP), option[1][0])  # an own pawn bumped comes first
            c, sq = first[1], first[2]
            if sq < X:
                out.append(option)
                continue
            for carry in self._carries(pos, c, sq):
                out.append(new_option(Option, (option[0], carry + option[1], *option[2:])) if carry else option)
        return out

    def _carries(self, pos, c: int, sq: int) -> list:
        """Per kind of colour c's pawns on the shared square `sq` that may leave it (marked,
        unmarked; not an immobile one), the "carry" events naming the marks it takes. Kept
        for the marks of the last position asked (one entry per colour, square and count of
        its pawns there), which every listing of a turn shares."""
        marks, known = pos.marks, self._carried
        if known[0] is not marks:
            known = self._carried = (marks, {})
        pawns = pos.pos[c].count(sq)
        carries = known[1].get((c, sq, pawns))
        if carries is None:
            carries = known[1][(c, sq, pawns)] = [
                tuple((CARRY, c, sq, k, by) for k, by in carried) for carried in shared_kinds(marks, c, sq, pawns)
                if not any(self.kinds[k].immobile for k, _ in carried)]
        return carries

    def hooked(self, gen, hook):
        """`gen` with its options passed through `hook(pos, options)` when the variant has marks
        (a hook, `free` or `from_start`, keeps every option on a position without marks; `free`
        keeps them all where no kind of mark holds or guards a pawn)."""
        if not self.marked or (hook == self.free and not self.shielding):
            return gen

        def marked(pos, out):
            if not pos.marked:
                gen(pos, out)
                return
            options: list = []
            gen(pos, options)
            out.extend(hook(pos, options))
        return marked

    # ---- primitives --------------------------------------------------------------------------
    def enter(self, p: int, flags: int, card):
        """A pawn from Start to its start exit (R9, R10)."""
        rows, W = [], self.weights
        for c in self.control_of[p]:
            to, start = self.layout.start_exit[c], self.start[c]
            plain = new_option(Option, (card, ((STEP_KINDS[0], c, start, to),), flags, MOVE, W[c][to] - W[c][start], (), ""))
            rows.append((c, start, to, self.slide_here[c][to] is None, plain, self.stacked or self.lands_own[c]))
        landings, option = self.landings, self.option

        def enter(pos, out):
            occ = pos.occ
            for c, start, to, no_slide, plain, onto_own in rows:
                squares = pos.pos[c]
                if not squares or squares[-1] != start:  # Start squares sort last
                    continue
                o = occ[to]
                if o < 0 and no_slide:
                    out.append(plain)
                elif o != c or onto_own:
                    for events in landings(pos, c, start, to, "enter"):
                        out.append(option(tuple(events), flags, card))
        return self.hooked(enter, self.from_start)

    def step(self, table, kind: str, p: int, flags: int, card):
        """One pawn `kind` ("forward" or "backward") along `table` (R13, R30)."""
        X, W = self.X, self.weights
        rows = []
        for c in self.control_of[p]:
            dest, slides = table[c], self.slide_here[c]
            # per square, the option of a landing on an empty square with no slide
            plain = table_row(lambda sq, c=c, dest=dest, w=W[c]: None if dest[sq] < 0 else new_option(
                Option, (card, ((kind, c, sq, dest[sq]),), flags, MOVE, w[dest[sq]] - w[sq], (), "")), len(dest))
            rows.append((c, dest, slides, plain, self.stacked or self.lands_own[c]))
        landing, declined, option = self.landing, self.declined, self.option

        def step(pos, out):
            occ = pos.occ
            for c, dest, slides, plain, onto_own in rows:
                for sq in pos.pos[c]:
                    if sq >= X:
                        break
                    to = dest[sq]
                    if to < 0:
                        continue
                    o = occ[to]
                    if o < 0 and slides[to] is None:
                        out.append(plain[sq])
                    elif o != c or onto_own or to == sq:  # a count of whole laps ends on the square it left (A8)
                        events = landing(pos, c, sq, to, kind)
                        if events is not None:
                            out.append(option(tuple(events), flags, card))
                        if slides[to] is not None:
                            events = declined(pos, c, sq, to, kind)
                            if events is not None:
                                out.append(option(tuple(events), flags, card))
        return self.hooked(step, self.free)

    def per_mask(self, p: int, make):
        """A generator that plays `make(mask)`'s, for the turns of `geometry:` there for
        player colour p on the position (`Routes.mask_of`: turns with a condition), each made
        on first use."""
        gens: dict = {}
        mask_of = self.routes.mask_of

        def by_mask(pos, out):
            mask = mask_of(p, pos)
            gen = gens.get(mask)
            if gen is None:
                gen = gens[mask] = make(mask)
            gen(pos, out)
        return by_mask

    def routed_step(self, direction: str, steps: int, p: int, flags: int, card, mask: int = -1):
        """`forward steps` / `backward steps` along `geometry:` routes: every way of every
        pawn, each distinct end square once per pawn, judged for passing, then landed (with
        the turns of `mask`; by default those there for the player on the position)."""
        routes, X, W = self.routes, self.X, self.weights
        if mask < 0:
            if routes.conditional:
                return self.per_mask(p, lambda mask: self.routed_step(direction, steps, p, flags, card, mask))
            mask = routes.every
        table = routes.options(direction, steps, mask)
        rows = []
        for c in self.control_of[p]:
            # per square and way, the option of a landing on an empty square with no slide
            plain = table_row(lambda sq, c=c, ways=table[c], w=W[c]: tuple(
                new_option(Option, (card, ((direction, c, sq, to),), flags, MOVE, w[to] - w[sq], (), ""))
                for to, _, _ in ways[sq]), self.layout.size)
            rows.append((c, table[c], self.slide_here[c], plain))
        landings, option, stacked = self.landings, self.option, self.stacked

        def routed(pos, out):
            occ = pos.occ
            for c, row, slides, plain in rows:
                last = -1
                for sq in pos.pos[c]:
                    if sq >= X:
                        break
                    if sq == last:  # several pawns on one square: one of them moves
                        continue
                    last = sq
                    ends = set()
                    for (to, passed, _), landed in zip(row[sq], plain[sq]):
                        if to in ends or (passed and not routes.passable(c, occ, sq, passed, pos)):
                            continue
                        ends.add(to)
                        if occ[to] < 0 and slides[to] is None and not stacked:
                            out.append(landed)
                            continue
                        for events in landings(pos, c, sq, to, direction):
                            out.append(option(tuple(events), flags, card))
        return self.hooked(routed, self.free)

    def sorry(self, relation: str | None, p: int, flags: int, card):
        """A pawn from Start replaces a bumpable pawn on the track (R25, T6), then takes the
        slide it lands on when `slide_after_sorry`."""
        T, start, W, bumpable = self.T, self.start, self.weights, self.bumpable
        allowed = None if relation is None else self.relation_table(relation)
        rows = []
        for c in self.control_of[p]:
            targets = tuple(o for o in range(self.layout.C) if o != c and bumpable[c][o] and (allowed is None or allowed[c][o]))
            rows.append((c, start[c], targets, self.slide_here[c] if self.slide_after_sorry else None))
        sweep, option, stacked, optional = self.sweep, self.option, self.stacked, self.slide_optional

        def sorry(pos, out):
            P, occ = pos.pos, pos.occ
            for c, home_start, targets, slides in rows:
                squares = P[c]
                if not squares or squares[-1] != home_start or not targets:
                    continue
                row, last = W[c], -1
                for sq in _track_squares(P, targets, T):
                    o = occ[sq]
                    if stacked:  # the square judged as a landing (it must capture a pawn)
                        if sq == last:
                            continue
                        last = sq
                        landed = [("sorry", c, home_start, sq)]
                        if not self.arrive(pos, c, home_start, sq, "sorry", landed) or len(landed) == 1:
                            continue
                        events = tuple(landed)
                    else:
                        events = (("sorry", c, home_start, sq), (BUMP, o, sq))
                    if slides is not None and slides[sq] is not None:
                        undo = pos.make(events)
                        slid = sweep(pos, c, sq, -1, "sorry")
                        pos.unmake(events, undo)
                        if slid is not None:
                            out.append(option(events + tuple(slid), flags, card))
                        if optional:  # the slide declined: the placed pawn stays on the triangle
                            out.append(option(events, flags, card))
                        continue
                    if stacked:
                        out.append(option(events, flags, card))
                        continue
                    out.append(new_option(Option, (card, events, flags, MOVE,
                                                   row[sq] - row[home_start] + W[o][start[o]] - W[o][sq], (), "")))
        if not self.marked:
            return sorry
        if not self.shielding:
            return self.hooked(sorry, self.from_start)
        return self.hooked(sorry, lambda pos, options: self.from_start(pos, self.free(pos, options)))

    def switch(self, relation: str, p: int, flags: int, card):
        """Swap one of the player's track pawns with a track pawn of `relation` (R24, T10),
        then the slides `slide_after_switch` fires: the mover's, and with "both" the other's.
        Where squares hold several pawns, only pawns alone on their squares switch."""
        T, W, C = self.T, self.weights, self.layout.C
        allowed = self.relation_table(relation)
        after = self.slide_after_switch
        slide_here = self.slide_here
        rows = tuple((c, tuple(o for o in range(C) if o != c and allowed[c][o])) for c in self.control_of[p])
        ways, option, stacked = self._switch_ways, self.option, self.stacked

        def switch(pos, out):
            P, occ = pos.pos, pos.occ
            for c, others in rows:
                targets = _track_squares(P, others, T)
                if not targets:
                    continue
                mine_row, here = W[c], slide_here[c]
                for mine in P[c]:
                    if mine >= T:
                        break
                    if stacked and pos.cnt[mine] > 1:
                        continue
                    for sq in targets:
                        o = occ[sq]
                        if stacked and pos.cnt[sq] > 1:
                            continue
                        events = ((SWITCH, c, mine, o, sq),)
                        if after != "none" and (here[sq] is not None or (after == "both" and slide_here[o][mine] is not None)):
                            for slid in ways(pos, events, c, mine, o, sq):
                                out.append(option(events + tuple(slid), flags, card))
                            continue
                        out.append(new_option(Option, (card, events, flags, MOVE,
                                                       mine_row[sq] - mine_row[mine] + W[o][mine] - W[o][sq], (), "")))
        return self.hooked(switch, self.free)

    def _switch_ways(self, pos, events: tuple, c: int, mine: int, o: int, sq: int) -> list:
        """The events of the slides after a switch, one list per legal way: the slides taken;
        under `rules.slide_optional` also each way with the mover's slide, the other's or
        both declined (those that exist)."""
        ways = [self._switch_slides(pos, events, c, mine, o, sq)]
        if self.slide_optional:
            mover = (True, False) if self.slide_here[c][sq] is not None else (True,)
            other = (True, False) if self.slide_after_switch == "both" and self.slide_here[o][mine] is not None else (True,)
            ways += [self._switch_slides(pos, events, c, mine, o, sq, take_mine, take_other)
                     for take_mine in mover for take_other in other if not (take_mine and take_other)]
        return [slid for slid in ways if slid is not None]

    def _switch_slides(self, pos, events: tuple, c: int, mine: int, o: int, sq: int, take_mine: bool = True,
                       take_other: bool = True):
        """The events of the slides after a switch: the mover's from sq (unless not
        `take_mine`), then with "both" the other pawn's from `mine` if it is still there
        (unless not `take_other`); None when one is illegal."""
        undo = pos.make(events)
        slid = self.sweep(pos, c, sq, -1, SWITCH) if take_mine else []
        if slid is not None and self.slide_after_switch == "both" and take_other:
            first = tuple(slid)
            made = pos.make(first)
            if pos.occ[mine] == o:
                second = self.sweep(pos, o, mine, -1, SWITCH)
                slid = None if second is None else slid + second
            pos.unmake(first, made)
        pos.unmake(events, undo)
        return slid


def _track_squares(P, colours, T: int) -> list:
    """The track squares of the pawns of `colours`, ascending."""
    squares = []
    for o in colours:
        for sq in P[o]:
            if sq >= T:
                break
            squares.append(sq)
    squares.sort()
    return squares
