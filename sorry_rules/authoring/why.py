"""`sorry-play moves --why`: which rule produced each legal move, and what stops each pawn
that has no move.

Attribution runs each top-level option of the card's effect (the `A | B | C` alternatives)
on its own and matches its results against the legal moves. The diagnosis walks the card's
effect and, for every primitive that could concern the pawn, reads the board tables and
movement switches to name the obstacle: the pawn is Home, the card cannot start a pawn, an
own pawn holds the target square, the move would overshoot Home, a switch needs a track
pawn, a slide's end circle is held by a pawn the slide may not sweep...

Contract: pure functions of a compiled game, its card rules (`explain.card_rules`) and a
position; nothing here is on the engine's hot path, and nothing here changes which moves
are legal (the engine decides; this module only explains).
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.engine.describe import STEPS
from sorry_rules.authoring.explain import effect_words, expr_words
from sorry_rules.engine.mechanics import PASS, Board
from sorry_rules.compiler.programs import ProgramCompiler


def _mover_keys(game, moves) -> set:
    """(colour, square) of every pawn that some move moves by its own step or switch."""
    movers = set()
    for move in moves:
        for event in move.events:
            if event[0] in STEPS or event[0] == "switch":
                movers.add((event[1], event[2]))
    return movers


class Explainer:
    def __init__(self, game, rules: dict):
        self.game = game
        self.layout = game.layout
        self.m = game.mechanics
        self.rules = rules  # card name -> explain.CardRule
        self.compiler = ProgramCompiler(game.mechanics, game.team_of)

    # ---- attribution -------------------------------------------------------------------
    def option_keys(self, card: int, p: int, board: Board, placement) -> list[set]:
        """For each top-level option of `card`: the set of move keys it yields."""
        rule = self.rules[self.game.card_names[card]]
        keys = []
        for option in rule.options:
            program = self.compiler.effect(option.node)
            found = set()
            for result, events, flags in program(p, board):
                if not events and not flags & PASS:
                    continue
                kind = "move" if events else "pass"
                found.add((result if events else placement, kind))
            keys.append(found)
        return keys

    def attribute(self, state, moves) -> list[list[dict]]:
        """For each move: the options (card, number, text, where) that produce it."""
        p = state.seats[state.turn]
        board = Board.of(state.placement, self.layout.X)
        per_card: dict[int, list[set]] = {}
        out = []
        for move in moves:
            if move.kind not in ("move", "pass") or move.card is None:
                out.append([])
                continue
            if move.card not in per_card:
                per_card[move.card] = self.option_keys(move.card, p, board, state.placement)
            rule = self.rules[self.game.card_names[move.card]]
            key = (move.placement, move.kind)
            out.append([
                {"card": rule.name, "option": i + 1, "text": option.text, "where": option.where}
                for i, (option, keys) in enumerate(zip(rule.options, per_card[move.card])) if key in keys
            ])
        return out

    # ---- diagnosis -------------------------------------------------------------------------
    def blocked(self, state, moves, cards: list[int]) -> list[dict]:
        """Every pawn of the player's colours that no legal move moves, with the reasons."""
        game, layout = self.game, self.layout
        p = state.seats[state.turn]
        board = Board.of(state.placement, layout.X)
        movers = _mover_keys(game, moves)
        unfiltered = None
        if game.rules.must_bump:
            unfiltered = set()
            for card in cards:
                unfiltered |= _mover_keys(game, game._moves_of(p, board, card, state.placement)[0])
        out = []
        for c in self.m.control_of[p]:
            for sq in sorted(set(state.placement[c]), key=lambda sq: (-layout.distance_home(c, sq), sq)):  # Start first, Home last
                if (c, sq) in movers:
                    continue
                count = state.placement[c].count(sq)
                reasons = self.reasons(c, sq, p, board, cards)
                if unfiltered is not None and (c, sq) in unfiltered:
                    reasons = ["another move bumps an opponent, and rules.must_bump requires such a move"]
                if not reasons:
                    reasons = ["its moves give the same result as a listed move"]
                out.append({"colour": layout.colours[c], "at": layout.name(sq), "pawns": count, "reasons": reasons})
        return out

    def reasons(self, c: int, sq: int, p: int, board: Board, cards: list[int]) -> list[str]:
        layout = self.layout
        if sq == layout.home[c]:
            return ["pawns in Home never move"]
        found: list[str] = []
        for card in cards:
            rule = self.rules[self.game.card_names[card]]
            prefix = f"card {rule.name}: " if len(cards) > 1 else ""
            prims = _primitives(rule.effect)
            if not any(_concerns(n, sq, layout, c) for n in prims):
                if sq == layout.start[c]:
                    found.append(f"card {rule.name} cannot start a pawn")
                elif any(isinstance(n, (dsl.Enter, dsl.Sorry)) for n in prims):
                    found.append(f"card {rule.name} only moves pawns out of Start")
                else:
                    found.append(f"card {rule.name} has no move for a pawn here")
                continue
            for reason in self._walk(rule.effect, rule.source, c, sq, p, board):
                text = prefix + reason
                if text not in found:
                    found.append(text)
        return found

    def _walk(self, node, source, c, sq, p, board):
        if isinstance(node, dsl.Choice):
            for option in node.options:
                yield from self._walk(option, source, c, sq, p, board)
        elif isinstance(node, dsl.Then):
            yield from self._walk(node.first, source, c, sq, p, board)
            yield from self._walk(node.second, source, c, sq, p, board)
        elif isinstance(node, dsl.Guard):
            condition = self.compiler.expression(node.condition, bool, allow_can=True)
            if not condition(p, board, None):
                inner = _primitives(node.effect)
                if any(_concerns(n, sq, self.layout, c) for n in inner):
                    yield (f"{effect_words(node.effect, True)} only if {expr_words(node.condition)}, "
                           "which does not hold now")
            else:
                yield from self._walk(node.effect, source, c, sq, p, board)
        else:
            reason = self._primitive(node, c, sq, p, board)
            if reason:
                yield reason

    def _primitive(self, node, c, sq, p, board) -> str | None:
        """Why primitive `node` gives the colour-c pawn on `sq` no move (None: it does not
        concern this pawn, or nothing stops it)."""
        layout, m = self.layout, self.m
        start, T, X = layout.start[c], layout.T, layout.X
        in_start = sq == start
        if isinstance(node, dsl.Enter):
            if not in_start:
                return None
            reason = self._landing(c, start, layout.start_exit[c], board)
            return f"enter: {reason} (the start exit)" if reason else None
        if isinstance(node, dsl.Sorry):
            if not in_start:
                return None
            relation = node.relation
            label = f"sorry {relation}" if relation else "sorry"
            targets = [s for s in range(T) if board.occ[s] >= 0 and m.bumpable[c][board.occ[s]]
                       and (relation is None or m.matches(c, board.occ[s], relation))]
            if not targets:
                return f"{label}: no {relation or 'bumpable'} pawn on the track to replace"
            return f"{label}: every placement ends in a blocked slide"
        if in_start:
            return None
        label = _label(node)
        if isinstance(node, (dsl.Forward, dsl.Backward)):
            table = layout.forward(node.steps) if isinstance(node, dsl.Forward) else layout.backward(node.steps)
            to = table[c][sq]
            if to < 0:
                if isinstance(node, dsl.Forward):
                    left = layout.distance_home(c, sq)
                    return f"{label}: would overshoot Home ({left} step{'s' if left != 1 else ''} to Home)"
                return f"{label}: cannot move backward from here"
            reason = self._landing(c, sq, to, board)
            return f"{label}: {reason}" if reason else None
        if isinstance(node, dsl.Split):
            reasons = []
            for part in range(1, node.steps):
                to = layout.forward(part)[c][sq]
                reason = "would overshoot Home" if to < 0 else self._landing(c, sq, to, board)
                if reason is None:
                    return f"{label}: no other pawn can move the rest of the {node.steps} steps"
                reasons.append(f"{part}: {reason}")
            return f"{label}: no part fits ({'; '.join(reasons)})"
        if isinstance(node, dsl.Switch):
            if sq >= X:
                return None
            if sq >= T:
                return f"{label}: a switch needs a pawn on the track, and this one is in its safety zone"
            others = [s for s in range(T) if board.occ[s] >= 0 and board.occ[s] != c and m.matches(c, board.occ[s], node.relation)]
            if not others:
                return f"{label}: no {node.relation} pawn on the track to switch with"
            return f"{label}: every switch ends in a blocked slide"
        return None

    def _landing(self, c: int, frm: int, to: int, board: Board) -> str | None:
        """Why a colour-c pawn moving from `frm` cannot end on `to`, or None when it can."""
        layout, m = self.layout, self.m
        name = layout.name
        if to < layout.X:
            o = board.occ[to]
            if o == c:
                return f"own pawn on {name(to)}"
            if o >= 0 and not m.bumpable[c][o]:
                return f"{m.relation[c][o]} pawn ({layout.colours[o]}) on {name(to)}, which may not be bumped"
        if to < layout.T:
            info = m.slide_here[c][to]
            if info is not None:
                o = board.occ[info.end]
                if o >= 0 and info.end != frm and m.spares[c][o]:
                    return f"the slide from {name(to)} ends on {name(info.end)}, held by a pawn the slide may not sweep"
        return None


def _label(node) -> str:
    if isinstance(node, dsl.Forward):
        return f"forward {node.steps}"
    if isinstance(node, dsl.Backward):
        return f"backward {node.steps}"
    if isinstance(node, dsl.Split):
        among = "any" if node.among is None else node.among
        return f"split {node.steps} among {among}"
    if isinstance(node, dsl.Switch):
        return f"switch {node.relation}"
    return type(node).__name__.lower()


def _primitives(node) -> list:
    from sorry_rules.authoring.analysis import primitives

    return list(primitives(node))


def _concerns(node, sq: int, layout, c: int) -> bool:
    """Whether a primitive could move a colour-c pawn on `sq` at all."""
    in_start = sq == layout.start[c]
    if isinstance(node, (dsl.Enter, dsl.Sorry)):
        return in_start
    if isinstance(node, (dsl.Forward, dsl.Backward, dsl.Split, dsl.Switch)):
        return not in_start and sq != layout.home[c]
    return False


def add_why(game, rules: dict, position, report: dict) -> dict:
    """Add "why" to every move of a `moves_report` and a "blocked" list of pawns with no
    move (see the module docstring). Returns the report."""
    state = position.state
    moves = game.legal_moves(state)
    explainer = Explainer(game, rules)
    listed = [m for m in moves if m.kind != "forfeit"]
    for entry, why in zip(report["moves"], explainer.attribute(state, listed)):
        entry["why"] = why
    cards = sorted(set(position.hand)) if position.hand is not None else [position.card]
    report["blocked"] = explainer.blocked(state, listed, cards)
    return report


def format_why_text(report: dict) -> str:
    """The oracle's text with, under each move, the rule that produced it; then each pawn
    that cannot move and why."""
    from sorry_rules.authoring.oracle import format_report_text

    def details(move):
        lines = [f"      from card {why['card']}, option {why['option']}: {why['text']}  ({why['where']})"
                 for why in move.get("why", [])]
        if move.get("discard"):
            lines.append("      no card in the hand can move: any one card may be discarded")
        return lines

    lines = [format_report_text(report, details)]
    if report.get("blocked"):
        lines.append("no move for:")
        for pawn in report["blocked"]:
            who = f"{pawn['colour']} pawn{'s' if pawn['pawns'] > 1 else ''} {pawn['at']}"
            lines.append(f"  {who}: " + "; ".join(pawn["reasons"]))
    return "\n".join(lines)
