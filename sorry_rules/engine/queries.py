"""The engine's public queries for authoring tools (`why`, `analysis`, `explain`) and tests:
what produced a move, what stops a pawn, what the next card may be.

None of this is on the play path: `Game.legal_moves`/`apply` never call it, and the traced
programs it reads are compiled next to (not instead of) the card programs play uses.

Contracts:
- `Origin`: an opaque tag of where a move came from: the card and the index of the
  top-level alternative of its effect (`A | B | C`), with `offset`, the character offset
  of that alternative in the card's DSL text. The engine never reads DSL text; the
  authoring layer maps an origin back to the text and file position.
- `Obstacle`: why one primitive gives one pawn no move, as a stable `code` and the squares,
  colours and numbers involved (see OBSTACLE_CODES). Words are the authoring layer's job.
- `Obstacles(mechanics, placement, marks, mask)`: per-primitive diagnosis on one placement
  (with the turns of `geometry:` that `mask` says are there, `Game.turn_mask`; by default all); each method
  returns an Obstacle, or None when nothing stops the pawn (or the primitive does not
  concern it: ask `concerns` first). It judges the pawn alone, as the primitive would
  (other pawns' moves, guards and must-bump filtering are not its business).
- `chance(...)`: the distribution of the next card drawn, as a player who does not know
  the pile's order sees it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

from sorry_rules.engine.marks import shared_kinds
from sorry_rules.engine.position import Position

#: code -> what it means (fields set on the Obstacle in brackets)
OBSTACLE_CODES = {
    "own_pawn": "an own pawn holds the target square [square]",
    "unbumpable": "a pawn this pawn may not bump holds the target square [square, colour, relation]",
    "slide_blocked": "the slide from the target square ends on a square held by a pawn it may not sweep [square, end]",
    "marked": "a pawn whose mark keeps it from being moved holds the target square [square, colour, mark]",
    "marked_still": "the pawn carries a mark that keeps it from moving [mark]",
    "overshoot": "the move would pass Home [steps: steps left to Home]",
    "bounce_out": "the move would bounce back out of the safety zone (geometry past_home: bounce) [steps: steps left to Home]",
    "passing_blocked": "the route passes a pawn that may not be passed (geometry blockers) [square, colour, relation]",
    "passing_blockade": "the route passes a group of pawns that may not be passed (geometry blockers with group) "
                        "[square, colour, relation]",
    "blockade": "a group of pawns of one colour that may not be landed on holds the target square "
                "(geometry blockers with group) [square, colour, relation]",
    "no_capture": "a pawn of another colour on the target square may not be captured there and may not share it "
                  "(board.squares capture, safe, share) [square, colour]",
    "group": "two or more pawns of another colour hold the target square; a landing captures a pawn alone "
             "(rules.capture: lone) [square, colour]",
    "square_full": "the target square holds as many pawns as it may (board.hold) [square, steps: the pawns it holds]",
    "no_route": "the pawn cannot move this way from here",
    "no_target": "no pawn of the wanted relation on the track [relation]",
    "slides_block_all": "every target ends in a blocked slide",
    "not_alone": "the pawn shares its square, and a switch takes only pawns alone on their squares [square]",
    "no_lone_target": "no pawn of the wanted relation stands alone on its square, as a switch needs [relation]",
    "taken": "a pawn holds the destination, and `send` puts a pawn on a free square only [square]",
    "already_there": "the destination is the square the pawn stands on [square]",
    "not_on_track": "the primitive needs a pawn on the track, and this one is in its safety zone",
    "no_partner_pawn": "no other pawn can move the rest of a split [steps]",
    "no_part_fits": "no part of a split fits this pawn [parts: ((part, Obstacle), ...)]",
}


@dataclass(frozen=True)
class Origin:
    card: int        # card index
    option: int      # index of the top-level alternative of the card's effect (0-based)
    offset: int      # character offset of that alternative in the card's DSL text


@dataclass(frozen=True)
class TracedMove:
    move: tuple      # an engine Move
    origins: tuple   # every Origin whose alternative yields this move (empty: forfeit, discard)


@dataclass(frozen=True)
class Obstacle:
    code: str                   # a key of OBSTACLE_CODES
    square: int | None = None
    colour: int | None = None
    relation: str | None = None
    end: int | None = None
    steps: int | None = None
    parts: tuple = ()
    mark: int | None = None     # index of the mark kind (Game.marks) behind a "marked" obstacle
    label: str = ""             # the label of the `geometry.blockers` entry behind it, when it has one
    jump: int | None = None     # the start of the jump (`sweep: end`) whose landing on `square` it stops


class Obstacles:
    """Why each action primitive gives a pawn no move, on one placement."""

    def __init__(self, mechanics, placement: tuple, marks: tuple = (), mask: int = -1):
        self.m = mechanics
        self.layout = mechanics.layout
        self.board = Position(self.layout, placement)
        self.kinds = getattr(mechanics, "kinds", ())
        self.marks = marks if self.kinds else ()
        routes = getattr(mechanics, "routes", None)
        # the turns of `geometry:` there (`Routes.mask_of`; -1: every turn)
        self.mask = -1 if routes is None else mask if mask >= 0 else routes.every

    def _blocker_label(self, c: int, o: int, what: str, group: bool) -> str:
        """The label of the first blocker that keeps a colour-c pawn from `what` ("pass" or
        "land") a colour-o pawn (`group`: one counting pawns together); "" for none."""
        geometry = getattr(self.m, "geometry", None)  # (its landing blockers are folded into `bumpable` without routes)
        if geometry is None:
            return ""
        relation = self.m.relation[c][o]
        for b in geometry.blockers:
            if b.applies(relation, o) and not (b.passable if what == "pass" else b.landable) and (b.group > 1) == group:
                return b.label
        return ""

    def _mark_on(self, c: int, sq: int, prop: str) -> int | None:
        """The first mark kind with property `prop` the colour-c pawn on `sq` (below X) carries."""
        for k, entries in enumerate(self.marks):
            if getattr(self.kinds[k], prop) and any(e[0] == c and e[1] == sq for e in entries):
                return k
        return None

    def held(self, c: int, sq: int) -> Obstacle | None:
        """Why the colour-c pawn on `sq` cannot move at all: a mark that makes it immobile (in
        Start, every colour-c pawn there carries one)."""
        if not self.marks or sq == self.layout.home[c]:
            return None
        if sq < self.layout.X:
            k = self._mark_on(c, sq, "immobile")
            return None if k is None else Obstacle("marked_still", square=sq, colour=c, mark=k)
        held = [next((k for k, _ in carried if self.kinds[k].immobile), None)
                for carried in shared_kinds(self.marks, c, sq, self.board.pos[c].count(sq))]
        return None if not held or None in held else Obstacle("marked_still", square=sq, colour=c, mark=held[0])

    def concerns(self, primitive: str, c: int, sq: int) -> bool:
        """Whether `primitive` ("enter", "sorry", "forward", "backward", "split", "switch",
        "send", "move") could move a colour-c pawn on `sq` at all: enter and sorry move pawns
        in Start; send and move any pawn not in Home; the others pawns neither in Start nor
        Home."""
        layout = self.layout
        if primitive in ("enter", "sorry"):
            return sq == layout.start[c]
        if primitive in ("send", "move"):
            return sq != layout.home[c]
        if primitive in ("forward", "backward", "split", "switch"):
            return sq != layout.start[c] and sq != layout.home[c]
        return False

    def landing(self, c: int, frm: int, to: int, step: str = "forward", slide: bool = True) -> Obstacle | None:
        """Why a colour-c pawn moving from `frm` cannot end on `to` by a move of kind `step`
        (None: it can); with `slide`, the slide or jump it takes there too."""
        layout, m, occ = self.layout, self.m, self.board.occ
        if getattr(m, "stacked", False):
            found = self.arrival(c, frm, to, step) if to < layout.counted else None
            if found is not None:
                return found
        elif to < layout.X and to != frm:
            o = occ[to]
            if o == c and not m.bumpable[c][c]:
                return Obstacle("own_pawn", square=to)
            if o >= 0 and not m.bumpable[c][o]:
                return Obstacle("unbumpable", square=to, colour=o, relation=m.relation[c][o],
                                label=self._blocker_label(c, o, "land", False))
            k = self._mark_on(o, to, "untouchable") if o >= 0 and self.marks else None
            if k is not None:
                return Obstacle("marked", square=to, colour=o, mark=k)
        if slide and to < layout.T and not m.slide_optional:  # a slide that may be declined blocks nothing
            info = m.slide_here[c][to]
            if info is not None and info.jump:  # landed on its end as the move would
                found = self.landing(c, frm, info.end, step, False)
                return None if found is None else replace(found, jump=to)
            if info is not None:
                for o in self._left_on(c, frm, info.end):
                    k = self._mark_on(o, info.end, "untouchable") if self.marks else None
                    if m.spares[c][o] or k is not None:
                        return Obstacle("slide_blocked", square=to, end=info.end, mark=None if m.spares[c][o] else k)
        return None

    def _left_on(self, c: int, frm: int, sq: int) -> list:
        """The colours of the pawns on `sq` once colour c's pawn has left `frm` (a jump may end
        on the square its pawn left, where squares holding several pawns keep the others)."""
        if not getattr(self.m, "stacked", False):
            o = self.board.occ[sq]
            return [] if o < 0 or sq == frm else [o]
        return [o for o, n in self.board.pawns_on(sq) if n - (o == c and sq == frm) > 0]

    def arrival(self, c: int, frm: int, to: int, step: str) -> Obstacle | None:
        """What stops a landing on a board whose squares hold several pawns: `Track.arrive`'s
        checks, in its order, each named."""
        m, layout = self.m, self.layout
        capture, safe = layout.capture[to], layout.safe[to]
        may_capture = capture is None or step in capture
        stay = 0
        for o, n in self.board.pawns_on(to):
            spared = bool(safe) and o in safe
            if o == c:
                n -= frm == to
            if m.group_land[c][o] and n >= m.group_land[c][o]:
                return Obstacle("blockade", square=to, colour=o, relation=m.relation[c][o],
                                label=self._blocker_label(c, o, "land", True))
            captured = n > 0 and may_capture and m.bumpable[c][o] and (n == 1 or m.capture_all) and not spared
            if o == c and not captured:
                stay += n
            elif captured:
                pass
            elif layout.share[to]:
                stay += n
            elif not may_capture or spared:
                return Obstacle("no_capture", square=to, colour=o)
            elif not m.bumpable[c][o]:
                return Obstacle("unbumpable", square=to, colour=o, relation=m.relation[c][o],
                                label=self._blocker_label(c, o, "land", False))
            else:
                return Obstacle("group", square=to, colour=o)
        if stay >= layout.hold[to]:
            own = any(o == c for o, _ in self.board.pawns_on(to))
            return Obstacle("own_pawn", square=to) if layout.hold[to] == 1 and own else \
                Obstacle("square_full", square=to, steps=layout.hold[to])
        return None

    def put(self, primitive: str, c: int, sq: int, to: int) -> Obstacle | None:
        """`send` or `move` (primitive) for the colour-c pawn on `sq` to square `to`: the
        square it stands on; a `send` to a square below X that a pawn holds, or of a pawn a
        mark guards; a `move`'s landing (`landing`)."""
        if to == sq:
            return Obstacle("already_there", square=sq)
        if primitive == "move":
            return self.landing(c, sq, to, "move")
        if sq < self.layout.X and self.marks:
            k = self._mark_on(c, sq, "untouchable")
            if k is not None:
                return Obstacle("marked", square=sq, colour=c, mark=k)
        if to < self.layout.X and self.board.occ[to] >= 0:
            return Obstacle("taken", square=to)
        return None

    def enter(self, c: int) -> Obstacle | None:
        """`enter` for a colour-c pawn in Start."""
        return self.landing(c, self.layout.start[c], self.layout.start_exit[c], "enter")

    def sorry(self, relation: str | None, c: int) -> Obstacle | None:
        """`sorry [relation]` for a colour-c pawn in Start: no pawn to replace, else what stops
        the landing on the first one (`landing`: an unbumpable or marked pawn, a blockade, a
        square where a Sorry! may not capture), else the first blocked slide or jump a placement
        ends in; `slides_block_all` where some placement is not stopped at its landing."""
        m, occ, start = self.m, self.board.occ, self.layout.start[c]
        targets = [s for s in range(self.layout.T) if occ[s] >= 0 and occ[s] != c
                   and (relation is None or m.matches(c, occ[s], relation))]
        if not targets:
            return Obstacle("no_target", relation=relation)
        found = [self.landing(c, start, s, "sorry") for s in targets]
        if any(obstacle is None for obstacle in found):  # a placement no landing stops: only what follows could
            return Obstacle("slides_block_all")
        # the first target's reason, one that is no slide or jump where there is one (a slide is said by its squares)
        return next((o for o in found if o.code != "slide_blocked" and o.jump is None), found[0])

    def step(self, direction: str, steps: int, c: int, sq: int) -> Obstacle | None:
        """`forward steps` or `backward steps` (direction) for a colour-c pawn on `sq`."""
        layout = self.layout
        if self.m.routes is not None:
            return self.routed(direction, steps, c, sq)
        table = layout.forward(steps) if direction == "forward" else layout.backward(steps)
        to = table[c][sq]
        if to < 0:
            if direction == "forward":
                return Obstacle("overshoot", steps=layout.distance_home(c, sq))
            return Obstacle("no_route")
        return self.landing(c, sq, to, direction)

    def routed(self, direction: str, steps: int, c: int, sq: int) -> Obstacle | None:
        """`step` along the routes of `geometry:`: None when some way is open, else what stops
        the first way (or, with no way at all, the end of the route)."""
        layout, routes, occ = self.layout, self.m.routes, self.board.occ
        ways = routes.options(direction, steps, self.mask)[c][sq]
        if not ways:
            if direction == "backward":
                return Obstacle("no_route")
            code = "bounce_out" if layout.past_home == "bounce" else "overshoot"
            return Obstacle(code, steps=layout.distance_home(c, sq))
        first = None
        for to, passed, _ in ways:
            wall = routes.blocker_on(c, occ, sq, passed, self.board)
            if wall >= 0:
                o = occ[wall]
                code = "passing_blocked" if routes.no_pass[c][o][0 if wall < layout.T else 1] else "passing_blockade"
                if code == "passing_blockade":
                    o = max(self.board.pawns_on(wall), key=lambda pair: pair[1])[0]
                obstacle = Obstacle(code, square=wall, colour=o, relation=self.m.relation[c][o],
                                    label=self._blocker_label(c, o, "pass", code == "passing_blockade"))
            else:
                obstacle = None if to == sq and not getattr(self.m, "stacked", False) else self.landing(c, sq, to, direction)
            if obstacle is None:
                return None
            first = first or obstacle
        return first

    def split(self, steps: int, c: int, sq: int) -> Obstacle | None:
        """`split steps`: the colour-c pawn on `sq` as one part of the split."""
        parts = []
        for part in range(1, steps):
            if self.m.routes is not None:
                obstacle = self.routed("forward", part, c, sq)
            else:
                to = self.layout.forward(part)[c][sq]
                obstacle = Obstacle("overshoot") if to < 0 else self.landing(c, sq, to)
            if obstacle is None:
                return Obstacle("no_partner_pawn", steps=steps)
            parts.append((part, obstacle))
        return Obstacle("no_part_fits", parts=tuple(parts))

    def split_parts(self, steps: int, written: tuple, c: int, sq: int) -> Obstacle | None:
        """`split steps into ...` (`written`: per part its direction and its own count of
        steps or None): the colour-c pawn on `sq` as one part; the parts of `no_part_fits`
        are named "forward 3", "backward 2", ..."""
        fixed = [size for _, size in written if size is not None]
        most = steps - sum(fixed) - (len(written) - len(fixed)) + 1  # the most steps a part without a count takes
        parts = []
        for direction, size in dict.fromkeys(written):
            for part in ([size] if size is not None else range(1, most + 1)):
                obstacle = self.step(direction, part, c, sq)
                if obstacle is None:
                    return Obstacle("no_partner_pawn", steps=steps)
                parts.append((f"{direction} {part}", obstacle))
        return Obstacle("no_part_fits", parts=tuple(parts))

    def switch(self, relation: str, c: int, sq: int) -> Obstacle | None:
        """`switch relation` for a colour-c pawn on `sq`."""
        layout, m, occ = self.layout, self.m, self.board.occ
        if sq >= layout.X:
            return None
        if sq >= layout.T:
            return Obstacle("not_on_track")
        targets = [s for s in range(layout.T) if occ[s] >= 0 and occ[s] != c and m.matches(c, occ[s], relation)]
        if not targets:
            return Obstacle("no_target", relation=relation)
        if layout.stacked:  # a switch takes only pawns alone on their squares
            if sum(n for _, n in self.board.pawns_on(sq)) > 1:
                return Obstacle("not_alone", square=sq)
            lone = [s for s in targets if sum(n for _, n in self.board.pawns_on(s)) == 1]
            if not lone:
                return Obstacle("no_lone_target", relation=relation)
            targets = lone
        if self.marks and all(self._mark_on(occ[s], s, "untouchable") is not None for s in targets):
            s = targets[0]
            return Obstacle("marked", square=s, colour=occ[s], mark=self._mark_on(occ[s], s, "untouchable"))
        free = [s for s in targets if not self.marks or self._mark_on(occ[s], s, "untouchable") is None]
        return next(filter(None, (self._switch_slide(c, sq, s) for s in free)), Obstacle("slides_block_all"))

    def _switch_slide(self, c: int, sq: int, s: int) -> Obstacle | None:
        """The blocked slide that a switch of colour c's pawn on `sq` with the pawn on `s`
        ends in (`slide_blocked`: the mover's from `s`, else, where both pawns slide, the
        other's from `sq`), judged with the two pawns traded; None: none found."""
        m, occ = self.m, self.board.occ
        if m.slide_optional or m.slide_after_switch == "none":
            return None
        o, swept = occ[s], ()
        for mover, at in ((c, s), (o, sq)) if m.slide_after_switch == "both" else ((c, s),):
            info = m.slide_here[mover][at]
            if info is None:
                continue
            end = info.end
            if info.jump:  # landed on its end as the switch would, where neither pawn of the switch stands
                found = None if end in (s, sq) else self.landing(mover, at, end, "switch", False)
                if found is not None:
                    return replace(found, jump=at)
                continue
            held = o if end == sq else c if end == s else occ[end]  # the two pawns traded squares
            if held >= 0 and end not in swept:  # (a pawn the mover's slide swept away blocks nothing)
                came_from = s if end == sq else sq if end == s else end
                k = self._mark_on(held, came_from, "untouchable") if self.marks else None
                if m.spares[mover][held] or k is not None:
                    return Obstacle("slide_blocked", square=at, end=end, mark=None if m.spares[mover][held] else k)
            swept = info.swept
        return None


def chance(pile: tuple, discard: tuple) -> tuple:
    """The next card drawn from `pile` (reshuffling `discard` when the pile is empty, R34),
    as ((card, probability), ...) in card order; the probabilities are Fractions summing
    to 1, or the tuple is empty when both piles are empty. Every order of the unseen cards
    is taken as equally likely (a player's view: the state's RNG is not peeked at)."""
    cards = pile if pile else discard
    if not cards:
        return ()
    counts = Counter(cards)
    total = len(cards)
    return tuple((card, Fraction(count, total)) for card, count in sorted(counts.items()))
