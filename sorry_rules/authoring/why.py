"""`sorry-play moves --why`: which rule produced each legal move, what stops each pawn that
has no move, and whether each guarded option's condition holds.

Everything about movement comes from the engine's public queries: `Game.traced_moves`
names the top-level alternative (`A | B | C`) of the card's effect behind each move;
`Game.obstacles(placement)` says, per primitive, why it gives a pawn no move;
`Game.filtered_moves` gives the moves the filters (`rules.must_bump`, `filters:`) removed,
each with the filter's words; `Game.consequences` what follows a move (`after:`); a
`redraw` or `action` move (turn policies) is attributed to its turn rule (`"option": null`,
`"where": "turn.redraw"` / `"turn.actions"`), and a stuck turn under `turn.redraw` says why
no redraw was offered ("turn_rules": [text, ...]). This module
walks the card's DSL tree (a `dsl.Visitor`) to ask those queries primitive by primitive, and
turns the answers into short words.

Every reason is structured (JSON): {"card", "option" (1-based top-level alternative, or
null), "effect" (the primitive's DSL text, or null), "code", "text"}, and for a guard
"condition": [{"part", "holds"}, ...] (the parts of a top-level `and`/`or` chain, each
with its value), and "note" when a `pass` whose guard holds is not offered because the hand
(or the cards drawn together) has a play that is no switch (A21). `text` is one short line:
"<effect>: <what stops it>".

Contract: pure functions of a compiled game, its card rules (`explain.Explained.rules`) and a
position; nothing here changes which moves are legal (the engine decides; this module only
explains). Guards are judged on the position, so a guard inside the second half of a
`then` is judged on the board before the first half (an approximation in words only).
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.authoring.explain import selector_words, source_text
from sorry_rules.authoring.analysis import primitives, rules_of
from sorry_rules.authoring.oracle import format_report_text
from sorry_rules.authoring.routewords import route_notes
from sorry_rules.base.words import and_list
from sorry_rules.engine.describe import describe_move
from sorry_rules.engine.events import SWITCH, moved_pawns
from sorry_rules.engine.pawns import destination, owner_table, select
from sorry_rules.engine.position import Position
from sorry_rules.compiler.programs import ProgramCompiler
from sorry_rules.compiler.selectors import compile_selector
from sorry_rules.compiler.vocabulary import reads_the_move

#: The engine primitive each DSL action carries out (the names `Obstacles.concerns` takes).
PRIMITIVE = {dsl.Enter: "enter", dsl.Sorry: "sorry", dsl.Forward: "forward", dsl.Backward: "backward",
             dsl.ForwardBy: "forward", dsl.BackwardBy: "backward",
             dsl.Split: "split", dsl.Switch: "switch", dsl.Send: "send", dsl.MovePawn: "move"}


def reason_entry(card, option, effect, code: str, text: str, **extra) -> dict:
    return {"card": card, "option": option, "effect": effect, "code": code, "text": text, **extra}


class Explainer:
    def __init__(self, game, rules: dict):
        self.game = game
        self.layout = game.layout
        self.rules = rules  # card name -> explain.CardRule
        # the game's vocabulary, so a guard may read counters and marks (`can(enter marked mercy)`)
        dice = getattr(game, "dice", None)
        self.compiler = ProgramCompiler(game.mechanics, game.team_of, game.pawns,
                                        tuple(name for name, _, _ in game.counters),
                                        tuple(start for _, start, _ in game.counters),
                                        tuple(kind.name for kind in game.marks), dice.throws if dice is not None else (),
                                        game.counter_ranges)

    # ---- guards ----------------------------------------------------------------------------
    def condition(self, node, p: int, board: Position) -> tuple[bool, list[dict]]:
        """Whether a guard's condition holds for player colour `p`, and its parts: the
        operands of a top-level chain of one `and`/`or` (else the condition itself)."""
        def holds(expr) -> bool:
            return bool(self.compiler.expression(expr, bool, allow_can=True)(p, board, None))

        parts = _chain(node, node.op) if isinstance(node, dsl.BinOp) and node.op in ("and", "or") else [node]
        return holds(node), [{"part": _grouped(part, node), "holds": holds(part)} for part in parts]

    def conditions(self, cards: list[int], p: int, board: Position) -> list[dict]:
        """Every top-level option that is guarded, with whether its condition holds now; and
        the guard of B in an option `A then (B if C)` where C reads only counters and numbers
        (A does not change them: C holds after A as it holds now), with a note saying so."""
        out = []
        counters = {name for name, _, _ in self.game.counters}
        for rule in dict.fromkeys(rule for card in cards for rule in rules_of(self.game, self.rules, card)):
            for i, option in enumerate(rule.options, 1):
                node, note = option.node, None
                if isinstance(node, dsl.Then) and isinstance(node.second, dsl.Guard) and \
                        _reads_counters_only(node.second.condition, counters):
                    node, note = node.second, "after the first part (the counters it reads do not change within a move)"
                if isinstance(node, dsl.Guard):
                    holds, parts = self.condition(node.condition, p, board)
                    entry = {"card": rule.name, "option": i, "text": option.text, "where": option.where,
                             "effect": source_text(node.effect), "holds": holds, "condition": parts}
                    out.append(entry if note is None else dict(entry, note=note))
        return out

    # ---- attribution -------------------------------------------------------------------
    def attribute(self, state) -> list[list[dict]]:
        """For each listed move (forfeit left out): the options (card, number, text, where)
        that produce it."""
        out = []
        for traced in self.game.traced_moves(state):
            if traced.move.kind == "forfeit":
                continue
            entries = []
            for origin in traced.origins:
                if self._several_dice(origin.card):
                    entries.append(self._throw_entry(origin))
                    continue
                rule = self.rules[self.game.card_names[origin.card]]
                option = rule.options[origin.option]
                entries.append({"card": rule.name, "option": origin.option + 1, "text": option.text, "where": option.where})
            out.append(entries)
        return out

    def _throw_entry(self, origin) -> dict:
        """The `why` of a move of a throw of several dice: its dice spent die by die (option 0),
        or its total spent whole (option 1: the rule of `turn.whole`)."""
        name, throw = self.game.card_names[origin.card], self.game.dice.throws[origin.card]
        whole = self.rules.get(f"whole {sum(throw)}")
        if origin.option == 1 and whole is not None:
            return {"card": name, "option": None, "text": f"whole {sum(throw)}: {whole.source}",
                    "where": whole.options[0].where}
        each = " ; ".join(f"{face}: {self.rules[str(face)].source}" for face in throw)
        return {"card": name, "option": None, "text": f"die by die ({each})", "where": "turn.dice"}

    def _several_dice(self, card: int) -> bool:
        dice = getattr(self.game, "dice", None)
        return dice is not None and len(dice.throws[card]) > 1

    # ---- diagnosis -------------------------------------------------------------------------
    def blocked(self, state, moves, cards: list[int]) -> list[dict]:
        """Every pawn of the player's colours that no legal move moves, with the reasons."""
        game, layout = self.game, self.layout
        p = state.seats[state.turn]
        movers = moved_pawns(e for m in moves for e in m.events)
        # a switch of two pawns the player moves (H15 with partners) moves both: one result (A24)
        controlled = set(game.mechanics.control_of[p])
        movers |= {(e[3], e[4]) for m in moves for e in m.events if e[0] == SWITCH and e[3] in controlled}
        filtered: dict = {}  # (colour, square) -> labels of the filters that removed its moves
        for move, label in game.filtered_moves(state):
            for pawn in moved_pawns(move.events):
                filtered.setdefault(pawn, []).append(label)
        obstacles = game.obstacles(state.placement, state.marks, game.turn_mask(state))
        board = game.board(state)
        out = []
        for c in game.mechanics.control_of[p]:
            # Start first, Home last
            for sq in sorted(set(state.placement[c]), key=lambda sq: (-layout.distance_home(c, sq), sq)):
                if (c, sq) in movers:
                    continue
                held = obstacles.held(c, sq)
                if held is not None:
                    label = game.marks[held.mark].label
                    article = "an" if label[:1].lower() in "aeiou" else "a"
                    reasons = [reason_entry(None, None, None, "marked", f"marked '{label}': {article} {label} pawn cannot move")]
                else:
                    reasons = self.reasons(c, sq, p, board, obstacles, cards)
                if (c, sq) in filtered:
                    reasons = [reason_entry(None, None, None, "filter", f"its moves are not allowed ({label})")
                               for label in dict.fromkeys(filtered[(c, sq)])]
                if not reasons:
                    reasons = [reason_entry(None, None, None, "duplicate", "its moves give the same result as a listed move")]
                out.append({"colour": layout.colours[c], "at": layout.name(sq), "pawns": state.placement[c].count(sq),
                            "reasons": reasons})
        return out

    def reasons(self, c: int, sq: int, p: int, board: Position, obstacles, cards: list[int]) -> list[dict]:
        """Why no option of any of `cards` moves the colour-c pawn on `sq`."""
        if sq == self.layout.home[c]:
            return [reason_entry(None, None, None, "home", "pawns in Home never move")]
        found: list[dict] = []
        rules = list(dict.fromkeys(rule for card in cards for rule in rules_of(self.game, self.rules, card)))
        for rule in rules:
            prims = list(primitives(rule.effect))
            if not any(self.concerns(obstacles, n, p, c, sq) for n in prims):
                found.append(self._no_primitive(rule.noun or self.noun, rule.name, sq == self.layout.start[c], prims))
                continue
            prefix = f"{rule.noun or self.noun} {rule.name}: " if len(rules) > 1 else ""
            for i, option in enumerate(rule.options, 1):
                diagnosis = _Diagnosis(self, obstacles, c, sq, p, board)
                for effect, code, text, extra in diagnosis.visit(option.node):
                    text = prefix + text
                    if all(r["text"] != text for r in found):
                        found.append(reason_entry(rule.name, i, effect, code, text, **extra))
        return found

    def concerns(self, obstacles, node, p: int, c: int, sq: int) -> bool:
        """Whether primitive `node`, played by colour p, may move the colour-c pawn on `sq` at
        all: not when its selector's owner word leaves that colour out (`send opponent ...`
        and the player's own pawn)."""
        owner = getattr(getattr(node, "selector", None), "owner", None)
        if owner is not None and not owner_table(self.game.mechanics, owner)[p][c]:
            return False
        return obstacles.concerns(PRIMITIVE.get(type(node), ""), c, sq)

    @property
    def noun(self) -> str:
        """What a rule of a card is named by: a "card", or a "die" showing a face."""
        return "card" if getattr(self.game, "dice", None) is None else "die"

    @staticmethod
    def _no_primitive(noun: str, card: str, in_start: bool, prims) -> dict:
        if in_start:
            return reason_entry(card, None, None, "cannot_start", f"{noun} {card} cannot start a pawn")
        if any(isinstance(n, (dsl.Enter, dsl.Sorry)) for n in prims):
            return reason_entry(card, None, None, "start_only", f"{noun} {card} only moves pawns out of Start")
        return reason_entry(card, None, None, "no_primitive", f"{noun} {card} has no move for a pawn here")


def _grouped(part, whole) -> str:
    """The DSL text of `part`, an operand of the chain `whole`: in brackets when it is an `or`
    under an `and` (so the parts joined again read as written)."""
    text = source_text(part)
    inner = isinstance(part, dsl.BinOp) and part.op == "or" and isinstance(whole, dsl.BinOp) and whole.op == "and"
    return f"({text})" if inner else text


def _chain(node, op: str) -> list:
    """The operands of a chain of one boolean operator, left to right."""
    if isinstance(node, dsl.BinOp) and node.op == op:
        return _chain(node.left, op) + _chain(node.right, op)
    return [node]


class _Diagnosis(dsl.EffectWalker):
    """Walks one option of a card's effect for one pawn; yields (effect text, code, short
    text, extra fields) for every primitive that concerns the pawn and gives it no move."""

    covers = dsl.EFFECT_NODES
    #: no obstacle to name: they do not move a pawn by a count of steps
    defaulted = (dsl.DrawAgain, dsl.Pass, dsl.Place, dsl.Remove, dsl.Mark, dsl.Unmark)

    def __init__(self, explainer: Explainer, obstacles, c: int, sq: int, p: int, board: Position):
        self.explainer, self.obstacles = explainer, obstacles
        self.c, self.sq, self.p, self.board = c, sq, p, board
        self.name = explainer.layout.name

    def visit_Then(self, node):
        """The parts' reasons; a `both (...)` sequence whose parts name nothing that stops this
        pawn is played only whole, and here it cannot be: said as such."""
        if not node.both:
            yield from super().visit_Then(node)
            return
        parts, chain = [node.second], node.first
        while isinstance(chain, dsl.Then) and chain.both:  # the parts of the whole sequence
            parts.append(chain.second)
            chain = chain.first
        said = False
        for part in [chain, *reversed(parts)]:
            for reason in self.visit(part):
                said = True
                yield reason
        if not said and any(self._concerns(n) for n in primitives(node)):
            effect = source_text(node)  # `both (...)`, the whole sequence
            yield effect, "incomplete", f"{effect}: played only whole, and here its parts cannot all be played", {}

    def visit_Guard(self, node):
        if reads_the_move(node.condition):  # judged on the move before it (B of A then B): not on this board
            yield from self.visit(node.effect)
            return
        holds, parts = self.explainer.condition(node.condition, self.p, self.board)
        if holds:
            yield from self.visit(node.effect)
            return
        if any(self._concerns(n) for n in primitives(node.effect)):
            joint = f" {node.condition.op} " if len(parts) > 1 else ""
            shown = joint.join(f"{part['part']} ({'true' if part['holds'] else 'false'})" for part in parts)
            effect = source_text(node.effect)
            yield effect, "guard", f"{effect}: only if {shown}", {"condition": parts}

    def visit_Enter(self, node):
        if self._concerns(node):
            if not self._chosen(node):
                yield self._unchosen(node)
                return
            obstacle = self.obstacles.enter(self.c)
            yield from self._report(node, obstacle, " (the start exit)" if obstacle is None or obstacle.jump is None else "")

    def visit_Sorry(self, node):
        if self._concerns(node):
            yield from self._report(node, self.obstacles.sorry(node.relation, self.c))

    def visit_Forward(self, node):
        if self._concerns(node):
            if not self._chosen(node):
                yield self._unchosen(node)
                return
            direction = "forward" if isinstance(node, dsl.Forward) else "backward"
            yield from self._report(node, self.obstacles.step(direction, node.steps, self.c, self.sq))

    visit_Backward = visit_Forward

    def visit_ForwardBy(self, node):
        if self._concerns(node):
            if not self._chosen(node):
                yield self._unchosen(node)
                return
            if reads_the_move(node.count):  # read on the move before it (B of A then B): not on this board
                return
            layout, direction = self.explainer.layout, "forward" if isinstance(node, dsl.ForwardBy) else "backward"
            steps = self.explainer.compiler.expression(node.count, int)(self.p, self.board, None)
            most = layout.T + layout.L + 1
            if not 1 <= steps <= most:
                effect = source_text(node)
                yield (effect, "no_steps", f"{effect}: {source_text(node.count)} is {steps} here, and a move takes 1 to "
                       f"{most} steps", {"steps": steps})
                return
            yield from self._report(node, self.obstacles.step(direction, steps, self.c, self.sq))

    visit_BackwardBy = visit_ForwardBy

    def visit_Split(self, node):
        if self._concerns(node):
            if node.parts:
                sizes = node.sizes or (None,) * len(node.parts)
                written = tuple((direction, size) for (direction, _), size in zip(node.parts, sizes))
                obstacle = self.obstacles.split_parts(node.steps, written, self.c, self.sq)
            else:
                obstacle = self.obstacles.split(node.steps, self.c, self.sq)
            yield from self._report(node, obstacle)

    def visit_Switch(self, node):
        if self._concerns(node):
            yield from self._report(node, self.obstacles.switch(node.relation, self.c, self.sq))

    def visit_Send(self, node):
        if self._concerns(node):
            if not self._chosen(node):
                yield self._unchosen(node)
                return
            written = node.destination  # track:N and safety:K also carry where they are written
            to = destination(self.explainer.layout, written[:2] if isinstance(written, tuple) else written, self.c)
            yield from self._report(node, self.obstacles.put("send" if isinstance(node, dsl.Send) else "move", self.c,
                                                             self.sq, to))

    visit_MovePawn = visit_Send

    def visit_Node(self, node):
        return iter(())

    def _concerns(self, node) -> bool:
        return self.explainer.concerns(self.obstacles, node, self.p, self.c, self.sq)

    def _chosen(self, node) -> bool:
        """Whether the primitive's pawn selector (if any) chooses this pawn on the board."""
        if node.selector is None:
            return True
        explainer = self.explainer
        selector = compile_selector(explainer.compiler, node.selector, moved_ok=True)  # `moved`: none yet (judged before)
        chosen = select(selector, explainer.layout, self.p, self.board.pos, self.board.marks)
        return any(c == self.c and sq == self.sq for c, sq, _ in chosen)

    def _unchosen(self, node) -> tuple:
        effect = source_text(node)
        return effect, "not_chosen", f"{effect}: it moves {selector_words(node.selector)}, and this pawn is not one", {}

    def _report(self, node, obstacle, suffix: str = ""):
        if obstacle is not None:
            effect = source_text(node)
            yield effect, obstacle.code, f"{effect}: {self.words(node, obstacle)}{suffix}", {}

    def words(self, node, obstacle) -> str:
        """What stops the pawn, in a few words (and the label of the blocker behind it); at the
        end of a jump, after the jump that leads there."""
        words = self._words(node, obstacle)
        if obstacle.jump is not None:
            words = f"the jump from {self.name(obstacle.jump)} leads to {self.name(obstacle.square)}: {words}"
        return f"{words} ({obstacle.label})" if obstacle.label else words

    def _words(self, node, obstacle) -> str:
        name, code = self.name, obstacle.code
        colour = self.explainer.layout.colours[obstacle.colour] if obstacle.colour is not None else ""
        if code == "own_pawn":
            return f"own pawn on {name(obstacle.square)}"
        if code == "unbumpable":
            return f"{obstacle.relation} pawn ({colour}) on {name(obstacle.square)}, which may not be bumped"
        if code == "marked":
            label = self.explainer.game.marks[obstacle.mark].label
            if (obstacle.colour, obstacle.square) == (self.c, self.sq):  # the pawn itself
                return f"the {colour} pawn on {name(obstacle.square)} is marked '{label}' and cannot be moved"
            return f"the {colour} pawn on {name(obstacle.square)} is marked '{label}': no move may land on it or take it"
        if code == "slide_blocked":
            if obstacle.mark is not None:
                label = self.explainer.game.marks[obstacle.mark].label
                return (f"the slide from {name(obstacle.square)} ends on {name(obstacle.end)}, held by a pawn marked "
                        f"'{label}', which the slide may not sweep")
            return f"the slide from {name(obstacle.square)} ends on {name(obstacle.end)}, held by a pawn the slide may not sweep"
        if code in ("overshoot", "bounce_out"):
            verb = "overshoot Home" if code == "overshoot" else "bounce back out of the safety zone"
            if obstacle.steps is None:
                return f"would {verb}"
            return f"would {verb} ({obstacle.steps} step{'s' if obstacle.steps != 1 else ''} to Home)"
        if code == "passing_blocked":
            return f"would pass the {obstacle.relation} pawn ({colour}) on {name(obstacle.square)}, which may not be passed"
        return self._words_of_squares(node, obstacle, colour)

    def _words_of_squares(self, node, obstacle, colour: str) -> str:
        """What stops a pawn on a board whose squares hold several pawns (blockades, named squares)."""
        name, code, layout = self.name, obstacle.code, self.explainer.layout
        if code == "passing_blockade":
            return (f"would pass the {obstacle.relation} pawns ({colour}) standing together on {name(obstacle.square)}, "
                    "which may not be passed")
        if code == "blockade":
            return f"the {obstacle.relation} pawns ({colour}) standing together on {name(obstacle.square)} may not be landed on"
        if code == "no_capture":
            names = ", ".join(layout.square_labels[n] for n in layout.names_at[obstacle.square]) or "this square"
            return f"the {colour} pawn on {name(obstacle.square)} may not be captured there ({names}) nor share it"
        if code == "group":
            return f"{colour} pawns on {name(obstacle.square)} are not alone there, so they may not be captured"
        if code == "square_full":
            held = f"{obstacle.steps} pawn{'s' if obstacle.steps != 1 else ''}"
            return f"{name(obstacle.square)} already holds {held}, as many as it may"
        return self._words_of_kind(node, obstacle)

    def _words_of_kind(self, node, obstacle) -> str:
        code = obstacle.code
        if code == "no_route":
            return "cannot move backward from here"
        if code == "no_target":
            if isinstance(node, dsl.Sorry):
                return f"no {obstacle.relation or 'bumpable'} pawn on the track to replace"
            return f"no {obstacle.relation} pawn on the track to switch with"
        if code == "slides_block_all":
            what = "placement" if isinstance(node, dsl.Sorry) else "switch"
            jumps = any(info is not None and info.jump for info in self.explainer.game.layout.slide_at)
            return f"every {what} ends in a blocked slide{' or jump' if jumps else ''}"
        if code == "not_on_track":
            return "in its safety zone (a switch needs a track pawn)"
        if code == "not_alone":
            return f"it shares {self.name(obstacle.square)} with other pawns (a switch takes only pawns alone on their squares)"
        if code == "no_lone_target":
            return f"no {obstacle.relation} pawn stands alone on its square (a switch takes only pawns alone there)"
        if code == "taken":
            return f"{self.name(obstacle.square)} is not free (a pawn is sent only to a free square)"
        if code == "already_there":
            return f"it stands on {self.name(obstacle.square)} already"
        if code == "no_partner_pawn":
            return f"no other pawn can move the rest of the {obstacle.steps} steps"
        if code == "no_part_fits":
            return "no part fits (" + "; ".join(f"{part}: {self.words(node, o)}" for part, o in obstacle.parts) + ")"
        return code


def add_why(game, rules: dict, position, report: dict) -> dict:
    """Add "why" to every move of a `moves_report`, a "blocked" list of pawns with no move, a "filtered" list of the moves
    the filters removed ({"text", "filter"}) and a "conditions" list of guarded options (see
    the module docstring). Returns the report."""
    state = position.state
    explainer = Explainer(game, rules)
    moves = game.legal_moves(state)
    listed = [m for m in moves if m.kind != "forfeit"]
    mask = game.turn_mask(state)  # the turns of geometry: there for the player
    for entry, why, move in zip(report["moves"], explainer.attribute(state), listed):
        entry["why"] = why or _turn_rule(game, move)
        if game.mechanics.routes is not None:
            entry["route"] = route_notes(game, rules, move, mask)
    cards = sorted(set(position.hand)) if position.hand is not None else sorted(set((position.card,) + position.drawn))
    if game.redraw is not None:
        report["turn_rules"] = _redraw_reasons(game, state, moves)
    report["blocked"] = explainer.blocked(state, listed, cards)
    filtered = game.filtered_moves(state)
    report["filtered"] = [{"text": describe_move(game, move), "filter": label} for move, label in filtered]
    report["conditions"] = explainer.conditions(cards, state.seats[state.turn], game.board(state))
    if len(cards) > 1 and not any(move.kind == "pass" for move in listed + [move for move, _ in filtered]):
        for guard in report["conditions"]:
            if guard["holds"] and guard["effect"] == "pass":
                guard["note"] = ("not offered: the cards here have a play that is no switch (another card's move or a "
                                 "hand action), and a card is declined only when every play is a switch (A21)")
    return report


def stuck_reasons(game, rules: dict, state, cards) -> list[str]:
    """Why no pawn of the player to move in `state` can move with `cards` (card indices: a
    forfeited card and the others drawn with it), one short line per reason and the pawns
    it stops: "red pawns in start: card 3 cannot start a pawn", "yellow pawns on track:5 and
    track:9: its moves are not allowed (LU13: ...)". `state` may be the state before the
    card was drawn: the forfeited card is then taken as drawn (the filters that removed its
    moves judge it)."""
    if not game.hand_play and state.card is None and cards:
        state = state._replace(card=cards[0], drawn=tuple(cards[1:]))
    blocked = Explainer(game, rules).blocked(state, [], sorted(set(cards)))
    stopped: dict = {}  # (colour, the reasons) -> [(pawns, where), ...]: the pawns one reason stops, said once
    for pawn in blocked:
        if any(reason["code"] != "home" for reason in pawn["reasons"]):
            reasons = "; ".join(dict.fromkeys(reason["text"] for reason in pawn["reasons"]))
            stopped.setdefault((pawn["colour"], reasons), []).append((pawn["pawns"], pawn["at"]))
    return [f"{colour} pawn{'s' if sum(n for n, _ in places) > 1 else ''} {_places_words([at for _, at in places])}: "
            f"{reasons}" for (colour, reasons), places in stopped.items()]


def _places_words(places: list) -> str:
    """'in start', 'on track:5 and track:9', 'in start and on track:5': where pawns stand."""
    zones = [at for at in places if ":" not in at]
    squares = [at for at in places if ":" in at]
    return " and ".join(words for words in (f"in {and_list(zones)}" if zones else "",
                                            f"on {and_list(squares)}" if squares else "") if words)


def _turn_rule(game, move) -> list[dict]:
    """The turn rule behind a `redraw` or `action` move (no card option gives it)."""
    if move.kind not in ("redraw", "action"):
        return []
    where = "turn.redraw" if move.kind == "redraw" else "turn.actions"
    return [{"card": game.card_names[move.card], "option": None, "text": move.label, "where": where}]


def _redraw_reasons(game, state, moves) -> list[str]:
    """Why a stuck turn under `turn.redraw` offers, or does not offer, a redraw."""
    policy = game.redraw
    if not moves or moves[0].kind not in ("forfeit", "discard", "redraw"):
        return []
    if moves[0].kind == "redraw":
        return [f"nothing can move and turn.redraw applies ({policy.label}): extra {game.source_noun} {state.redraws + 1} of "
                f"{policy.at_most} this turn"]
    if state.redraws >= policy.at_most:
        return [f"no redraw: this turn already took {state.redraws} extra {game.source_noun}(s), "
                f"turn.redraw allows {policy.at_most}"]
    return [f"no redraw: the condition of turn.redraw ({policy.label}) does not hold"]


def format_why_text(report: dict) -> str:
    """The oracle's text with, under each move, the rule that produced it; then each pawn
    that cannot move and why (one short line per reason); then each guarded option and
    whether each part of its condition holds."""
    def source(name: str, face: bool) -> str:  # a card's rule, a die face's, a throw's (spent whole, a turn rule's)
        if "throw" not in report:
            return f"card {name}"
        if name.startswith("whole "):
            return name.replace("whole", "the whole throw", 1)
        return f"die {name}" if face and "+" not in name else f"throw {name}"

    def details(move):
        lines = [f"      from {source(why['card'], True)}, option {why['option']}: {why['text']}  ({why['where']})"
                 if why["option"] is not None else f"      from {why['where']}: {why['text']} ({source(why['card'], False)})"
                 for why in move.get("why", [])]
        lines.extend(f"      route: {note}" for note in move.get("route", []))
        if move.get("discard") and not move.get("redraw"):
            lines.append("      no card in the hand can move: any one card may be discarded")
        return lines

    lines = [format_report_text(report, details)]
    lines.extend(f"turn rule: {text}" for text in report.get("turn_rules", []))
    if report.get("blocked"):
        lines.append("no move for:")
        for pawn in report["blocked"]:
            lines.extend(reason_lines(f"{pawn['colour']} pawn{'s' if pawn['pawns'] > 1 else ''} {pawn['at']}", pawn["reasons"]))
    if report.get("filtered"):
        lines.append("filtered out:")
        lines.extend(f"  {entry['text']}: {entry['filter']}" for entry in report["filtered"])
    if report.get("conditions"):
        lines.append("conditions:")
        for guard in report["conditions"]:
            verdict = "holds" if guard["holds"] else "does not hold"
            lines.append(f"  card {guard['card']}, option {guard['option']} ({guard['effect']}): {verdict}")
            lines.extend(f"    {part['part']}: {'yes' if part['holds'] else 'no'}" for part in guard["condition"])
            if guard.get("note"):
                lines.append(f"    {guard['note']}")
    return "\n".join(lines)


def _reads_counters_only(node, counters: set) -> bool:
    """Whether a condition reads nothing but counters (`counters`: their names), groups,
    aggregates over them and numbers."""
    for found in dsl.walk(node):
        if isinstance(found, dsl.Call) and found.function not in counters:
            return False
        if isinstance(found, (dsl.CountPawns, dsl.Can)):
            return False
    return True


def reason_lines(who: str, reasons: list) -> list[str]:
    """`who` and the texts of its reasons: on one line when there is one, else one line each below it."""
    texts = [reason["text"] for reason in reasons]
    if len(texts) == 1:
        return [f"  {who}: {texts[0]}"]
    return [f"  {who}:"] + [f"    {text}" for text in texts]
