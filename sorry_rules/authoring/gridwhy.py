"""`sorry-play moves --why` for grid variants: which card and which option of its effect
gives each move, and why each card of the hand that has no play has none.

Each top-level option (`A | B`) of a card's effect is compiled alone
(`compiler.gridbuild.grid_compiler`) and run on the position, so a move is attributed to
exactly the options whose outcomes contain its result. A card with no play is diagnosed
option by option, walking the option's DSL tree: `place on card` when every cell showing
the card is covered (a dead card, S12), `place on empty` when no cell is empty, `remove`
when the colours it may take from have no chip, or every such chip lies in a line of its
colour (protected, S10), a guard whose condition does not hold.

Additions to the oracle's report (docs/SEQUENCE.md section 5, which stays as it is):
  every move gets "why": [{"card", "option" (1-based, null for an exchange), "text" (the
  option's DSL text), "where" (file:line:col), "words" (what allowed this move)}];
  the report gets "no_play": [{"card", "exchange" (an exchange of it is offered),
  "reasons": [{"card", "option", "effect", "code", "text"}]}] for the cards with no play,
  and "exchanged": true when this turn's exchange is made (none more is offered, S6).

Contract: pure functions of a compiled grid game, its card rules (`explain.card_rules`) and
a position; nothing here changes which moves are legal (the engine decides).
"""

from __future__ import annotations

from sorry_rules import dsl
from sorry_rules.authoring.explain import effect_words, expr_words, source_text
from sorry_rules.authoring.gridoracle import format_grid_report_text
from sorry_rules.authoring.why import reason_entry, reason_lines
from sorry_rules.compiler.gridbuild import grid_compiler
from sorry_rules.engine.gridtable import EXCHANGE, PASS
from sorry_rules.engine.gridmechanics import PLACE, GridView

_RELATIONS = {"own": ("own",), "partner": ("partner",), "opponent": ("opponent",), "other": ("partner", "opponent")}


class GridExplainer:
    """Attributes the moves of one position and diagnoses its cards without a play."""

    def __init__(self, game, rules: dict, state):
        self.game = game
        self.grid = game.grid
        self.rules = rules  # card name -> explain.CardRule
        self.state = state
        self.p = state.seats[state.turn]
        self.view = GridView(state.placement, frozenset(state.seats), game.grid)
        self.compiler = grid_compiler(game.grid)

    # ---- attribution -------------------------------------------------------------------
    def results(self, card_name: str) -> list[set]:
        """Per top-level option of the card: the placements its outcomes lead to."""
        rule = self.rules[card_name]
        return [{placement for placement, _ in self.compiler.effect(option.node, card_name)(self.p, self.view)}
                for option in rule.options]

    def attribute(self, moves) -> list[list[dict]]:
        """For each move (passes left out): the options that give it, in words."""
        cache: dict = {}
        out = []
        for move in moves:
            if move.kind == PASS:
                continue
            name = self.game.card_names[move.card]
            if move.kind == EXCHANGE:
                out.append([{"card": name, "option": None, "text": "exchange", "where": None,
                             "words": f"{name} has no play (a dead card): it may be exchanged for a new card "
                                      "once a turn"}])
                continue
            if name not in cache:
                cache[name] = self.results(name)
            rule = self.rules[name]
            out.append([{"card": name, "option": i + 1, "text": option.text, "where": option.where,
                         "words": self.words(move, option.node)}
                        for i, option in enumerate(rule.options) if move.placement in cache[name][i]])
        return out

    def words(self, move, node) -> str:
        """What the option allowed, said of this move's chips."""
        parts = []
        for kind, c, cell in move.events:
            name = self.grid.name(cell)
            if kind == PLACE:
                card = self.game.card_names[move.card]
                if self.grid.card_of[cell] == card:
                    cells = ", ".join(self.grid.name(c) for c in self.grid.cells_of_card[card])
                    shown = f"{name} shows {card} (the cells showing {card}: {cells})"
                else:
                    shown = f"{name} is empty"
                parts.append(f"{shown}: {effect_words(node)}")
            else:
                chips = self.state.placement[c]
                guarded = cell in self.grid.protected(chips)
                state = "in a line of its colour" if guarded else "in no line of its colour"
                parts.append(f"{self.grid.colours[c]}'s chip on {name} is {state}: {effect_words(node)}")
        return "; ".join(parts)

    # ---- diagnosis ---------------------------------------------------------------------
    def no_play(self, cards, moves) -> list[dict]:
        """Every distinct card of the hand with no play, with why (option by option)."""
        played = {m.card for m in moves if m.kind not in (PASS, EXCHANGE)}
        exchangeable = {m.card for m in moves if m.kind == EXCHANGE}
        out = []
        for card in sorted(set(cards)):
            if card in played:
                continue
            name = self.game.card_names[card]
            reasons = [reason_entry(name, i, effect, code, text) for i, option in enumerate(self.rules[name].options, 1)
                       for effect, code, text in self.diagnose(option.node, name)]
            out.append({"card": name, "exchange": card in exchangeable, "reasons": reasons})
        return out

    def diagnose(self, node, card: str) -> list[tuple]:
        """Why `node` gives no outcome here: (effect text, code, words) per primitive."""
        effect = source_text(node)
        if isinstance(node, dsl.Place):
            return [(effect, *self._place(node, card))]
        if isinstance(node, dsl.Remove):
            return [(effect, *self._remove(node))]
        if isinstance(node, dsl.Guard):
            holds = self.compiler.expression(node.condition, bool, allow_can=True)(self.p, self.view, None)
            if not holds:
                return [(effect, "condition", f"{effect}: only if {expr_words(node.condition)}, which does not hold")]
            return self.diagnose(node.effect, card)
        if isinstance(node, dsl.Choice):
            return [found for option in node.options for found in self.diagnose(option, card)]
        if isinstance(node, dsl.Then):
            return self.diagnose(node.first, card)
        return [(effect, "no_outcome", f"{effect}: gives no move here")]

    def _place(self, node, card: str) -> tuple:
        grid, effect = self.grid, source_text(node)
        if node.target == "empty":
            return "board_full", f"{effect}: no cell is empty"
        cells = grid.cells_of_card.get(card, ())
        if not cells:
            return "no_cell", f"{effect}: no cell of the board shows {card}"
        owner = {cell: grid.colours[c] for c, chips in enumerate(self.state.placement) for cell in chips}
        covered = ", ".join(f"{grid.name(cell)} {owner.get(cell, 'free')}" for cell in cells)
        every = "both cells" if len(cells) == 2 else "every cell" if len(cells) > 2 else "its cell"
        return "dead_card", f"{effect}: {every} showing {card} {'are' if len(cells) == 2 else 'is'} covered ({covered})"

    def _remove(self, node) -> tuple:
        grid, effect = self.grid, source_text(node)
        wanted = _RELATIONS[node.relation]
        relation = self.compiler.relation[self.p]
        colours = [o for o in range(grid.C) if relation[o] in wanted and self.state.placement[o]]
        what = node.relation if node.relation != "other" else "other colour's"
        if not colours:
            return "no_chip", f"{effect}: no {what} chip on the board"
        protected = [grid.name(cell) for o in colours for cell in sorted(grid.protected(self.state.placement[o]))]
        return "all_protected", f"{effect}: every {what} chip is in a line of its colour ({', '.join(protected)})"


def add_grid_why(game, rules: dict, position, report: dict) -> dict:
    """Add "why" to every move of a `grid_moves_report` and the "no_play" list (see the
    module docstring). Returns the report."""
    state = position.state
    explainer = GridExplainer(game, rules, state)
    moves = game.legal_moves(state)
    for entry, why in zip(report["moves"], explainer.attribute(moves)):
        entry["why"] = why
    report["no_play"] = explainer.no_play(state.hands[state.turn], moves)
    if game.exchange and state.exchanged:
        report["exchanged"] = True  # this turn's exchange made: no dead card may be exchanged again (S6)
    return report


def format_grid_why_text(report: dict) -> str:
    """The oracle's text with, under each move, the card option that gives it; then each
    card with no play and why."""
    def details(move) -> list:
        return [f"      card {why['card']}" + (f", option {why['option']}" if why["option"] else "")
                + f": {why['words']}" + (f"  ({why['where']})" if why["where"] else "") for why in move.get("why", [])]

    lines = [format_grid_report_text(report, details)]
    if report.get("no_play"):
        lines.append("no play for:")
        for entry in report["no_play"]:
            offered = " (an exchange is offered)" if entry["exchange"] else ""
            lines.extend(reason_lines(f"card {entry['card']}{offered}", entry["reasons"]))
        if report.get("exchanged"):
            lines.append("  (this turn's exchange of a dead card is made: one a turn, S6)")
    return "\n".join(lines)
