"""Card effects in plain words, with the rule file and line each one comes from.

Used by `sorry-play explain` and by `sorry-play moves --why`. Nothing here knows a card or
colour name: the words come from the DSL constructs (an `enter` is "start a pawn").

Contract: `card_rules(loaded)` gives, for every card, its parsed effect, the position of its
definition and of each top-level option (the `A | B | C` alternatives); `effect_words` and
`expr_words` are pure functions of an AST.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from sorry_rules import dsl
from sorry_rules.base.errors import UsageError
from sorry_rules.base.limits import MAX_COUNTER
from sorry_rules.base.words import and_list, plural
from sorry_rules.compiler.build import compile_variant
from sorry_rules.compiler.marking import alternatives, declining_without, draws_again_after, with_alternatives
from sorry_rules.engine.dice import faces_text
from sorry_rules.rules.loader import load_variant
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.authoring.routewords import geometry_words

WIDTH = 88
_GROUP = {"player": "your", "team": "your team's", "partners": "your partners'", "opponents": "your opponents'",
          "players": "all players'"}
#: the colours an aggregate runs over, by its group
_AGGREGATE_GROUP = {"player": "your colours", "team": "your team's colours", "partners": "your partners",
                    "opponents": "your opponents", "players": "the players"}
_COUNT = {"home": "pawns in Home", "start": "pawns in Start", "safety": "pawns in safety zones",
          "track": "pawns on the track", "pawns": "pawns", "sequences": "sequences", "chips": "chips"}
_FACT = {"bumps": "pawns this move sends back to Start", "slides": "slides taken by this move",
         "reaches_home": "pawns this move brings Home", "enters_safety": "pawns this move takes into a safety zone",
         "switches": "pawns this move switches", "moves": "pawns this move moves (each part of a split once)",
         "leaves_start": "pawns this move takes out of Start"}
_COMPARE = {"==": "equals", "!=": "differs from", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least"}
_ARITH = {"+": "plus", "-": "minus", "*": "times"}


@dataclass(frozen=True)
class Option:
    node: object       # the option's AST
    text: str          # its DSL source text
    where: str         # file:line:col of the option in the rule files


@dataclass(frozen=True)
class CardRule:
    name: str
    copies: int
    effect: object     # AST of the whole effect as played (with the alternatives `also:` adds)
    source: str
    where: str         # file:line of the card's definition
    options: tuple     # top-level alternatives (one Option when the effect is not a choice), then those `also:` adds
    noun: str = ""     # how reasons name it before its name ("" : the game's "card" or "die")


#: Which pawn a part of `split N into ...` moves, in words.
PART_PAWN = {None: "with a pawn no earlier part moved", "any": "with any of your pawns, the same again included",
             "own": "with another pawn of your own colour", "partner": "with a partner's pawn",
             "opponent": "with an opponent's pawn", "other": "with a partner's or an opponent's pawn"}


def _where(mark, col: bool = True) -> str:
    return f"{mark.file}:{mark.line}:{mark.col}" if col else f"{mark.file}:{mark.line}"


def _option_text(source: str, start: int, next_start: int | None) -> str:
    """The source text of one top-level option: up to the `|` before the next option, its
    brackets balanced (the brackets round a whole option are left out: `(A if B)` -> `A if
    B`; an option that begins inside a bracket opened before it takes that bracket along)."""
    end = len(source) if next_start is None else source.rfind("|", start, next_start)
    text = source[start:end].strip()
    while text.endswith(")") and _balance(text) < 0:
        text = text[:-1].rstrip()
    while text.startswith("(") and _balance(text) > 0:
        text = text[1:].lstrip()
    opened = source[:start].rstrip()
    while _balance(text) < 0 and opened.endswith("("):
        text, opened = "(" + text, opened[:-1].rstrip()
    return text


def _balance(text: str) -> int:
    """Brackets opened minus brackets closed, counting a `)` before any `(` as -1."""
    depth = low = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        low = min(low, depth)
    return depth if low >= 0 else min(low, depth)


def card_rules(loaded) -> dict[str, CardRule]:
    """Every card of a loaded (and compilable) variant, in deck order, then cards not dealt."""
    v = loaded.variant
    names = [n for n in v.deck if n in v.cards] + [n for n in v.cards if n not in v.deck]
    rules = {}
    asts = {("cards", name): dsl.parse_effect(v.cards[name]) for name in names}
    added = alternatives(v, asts)
    for name in names:
        source = v.cards[name]
        written = asts[("cards", name)]
        extras = {extra: dsl.parse_effect(v.also[extra].effect) for extra in added.get(name, ())}
        effect = declining_without(written, list(extras.values()))
        again = ""  # the 2: extras draw again too (as the card says: `then draw_again`, guarded or not)
        if draws_again_after(written):
            again = source_text(written.second)
            again = f"({again})" if isinstance(written.second, dsl.Guard) else again
        path = ("cards", name)
        nodes = written.options if isinstance(written, dsl.Choice) else (written,)
        played = effect.options if isinstance(effect, dsl.Choice) else (effect,)
        options = []
        added_at = {extra: _where(loaded.origins.in_text(("also", extra, "effect"), 0)) for extra in extras}
        starts = [_FirstPos().visit(node) for node in nodes] + [None]
        for i, node in enumerate(nodes):
            where = _where(loaded.origins.in_text(path, starts[i]))
            if played[i] is node:
                text = _option_text(source, starts[i], starts[i + 1])
            else:  # a pass whose condition the added alternatives widened (A14)
                text = source_text(played[i])
                where += "; its condition widened by " + ", ".join(added_at.values())
            options.append(Option(played[i], text, where))
        for extra, extra_ast in extras.items():
            text = v.also[extra].effect
            options.append(Option(extra_ast, f"({text}) then {again}" if again else text, added_at[extra]))
        played_effect = with_alternatives(written, list(extras.values())) if extras else written
        where = _where(loaded.origins.key_mark(path), col=False)
        rules[name] = CardRule(name, v.deck.get(name, 0), played_effect, source, where, tuple(options))
    return rules


def whole_rules(loaded) -> dict[str, CardRule]:
    """Keyed "whole N": the effect a throw of dice adding up to N may be spent on whole
    (`turn.whole`), a rule named "a total of" N."""
    rules = {}
    for total, source in getattr(loaded.variant.turn, "whole", {}).items():
        path = ("turn", "whole", total)
        effect = dsl.parse_effect(source)
        rules[f"whole {total}"] = CardRule(total, 0, effect, source, _where(loaded.origins.key_mark(path), col=False),
                                           (Option(effect, source, _where(loaded.origins.in_text(path, 0))),),
                                           noun="a total of")
    return rules


class _FirstPos(dsl.Visitor):
    """Offset of an option's first character (a parenthesised option starts before its node)."""

    covers = ()  # a structural walk: the first character of any node

    def visit_Then(self, node) -> int:
        return min(node.pos, self.visit(node.first))

    def visit_Guard(self, node) -> int:
        return min(node.pos, self.visit(node.effect))

    def visit_Node(self, node) -> int:
        return node.pos


# ---- words -------------------------------------------------------------------------------
#: what `draw_again` does, by where the player's cards come from (`turn.source`), A13
AGAIN_WORDS = {"hand": "play again from the refilled hand", "dice": "throw again", "draw": "draw again"}
#: what `pass` is, by `turn.source`: from a hand, a card is declined only when every play of the hand is (A21)
PASS_WORDS = {"hand": "pass (play nothing; from a hand, only when every card in it that can move may pass too, A21)"}


class _EffectWords(dsl.Visitor):
    """What an effect does, in words; `nested` asks for the form used inside a larger one;
    `source`: where the player's cards come from (`turn.source`), for `draw_again`."""

    covers = dsl.EFFECT_NODES

    def __init__(self, source: str = "draw", marks: dict | None = None):
        self.again = AGAIN_WORDS.get(source, AGAIN_WORDS["draw"])
        self.passing = PASS_WORDS.get(source, "pass (play nothing)")
        self.marks = marks

    def visit_Enter(self, node, nested):
        if node.selector is not None:
            return f"bring out of Start {selector_words(node.selector, marks=self.marks)}"
        return "start a pawn"

    def visit_Send(self, node, nested):
        if node.destination == "start":
            return f"send {selector_words(node.selector, marks=self.marks)} back to its Start (a bump)"
        return (f"send {selector_words(node.selector, marks=self.marks)} to {destination_words(node.destination)} "
                "(it does not move by itself)")

    def visit_MovePawn(self, node, nested):
        return f"move {selector_words(node.selector, marks=self.marks)} straight to {destination_words(node.destination)}"

    def visit_Mark(self, node, nested):
        verb, on = ("put", "on") if isinstance(node, dsl.Mark) else ("take", "off")
        return f"{verb} the mark '{mark_name(node.name, self.marks)}' {on} {selector_words(node.selector, marks=self.marks)}"

    visit_Unmark = visit_Mark

    def visit_Forward(self, node, nested):
        return f"move {_one(node, self.marks)} {'forward' if isinstance(node, dsl.Forward) else 'backward'} {node.steps}"

    visit_Backward = visit_Forward

    def visit_ForwardBy(self, node, nested):
        direction = "forward" if isinstance(node, dsl.ForwardBy) else "backward"
        return (f"move {_one(node, self.marks)} {direction} as many squares as {expr_words(node.count, self.marks)} "
                "(on the board before the move; none below 1)")

    visit_BackwardBy = visit_ForwardBy

    def visit_Split(self, node, nested):
        if node.parts:
            sizes = node.sizes or (None,) * len(node.parts)
            return f"split {node.steps} steps into parts played in this order (each at least 1, all used): " + \
                ", then ".join(f"{direction}{'' if size is None else f' {size}'} {PART_PAWN[who]}"
                               for (direction, who), size in zip(node.parts, sizes))
        among = {2: "between two pawns", None: "among any number of pawns"}.get(node.among, f"among two to {node.among} pawns")
        whose = f" ({selector_words(node.selector, 'pawns', self.marks)})" if node.selector is not None else ""
        return f"split {node.steps} forward steps {among}{whose} (each at least 1, all used)"

    def visit_Switch(self, node, nested):
        return f"switch a pawn you control on the track with {_OWNER[node.relation]} pawn on the track"

    def visit_Sorry(self, node, nested):
        whose = "a pawn it may bump" if node.relation is None else f"{_OWNER[node.relation]} pawn"
        return f"take a pawn from Start and put it on a track square held by {whose}, which goes back to its Start"

    def visit_DrawAgain(self, node, nested):
        return self.again

    def visit_Pass(self, node, nested):
        return self.passing

    def visit_Place(self, node, nested):
        where = "an empty cell that shows this card" if node.target == "card" else "any empty cell"
        return f"place a chip of your colour on {where}"

    def visit_Remove(self, node, nested):
        which = ", one that is in no line of its colour" if node.unprotected else ""
        return f"take away {_OWNER[node.relation]} chip{which}"

    def visit_Choice(self, node, nested):
        parts = list(dict.fromkeys(self.visit(o, True) for o in node.options))  # an alternative added twice: said once
        if len(parts) == 1:
            return parts[0]
        commas = any("," in part for part in parts)  # a part with commas of its own
        if nested:  # inside a larger sentence (a condition, a `then`): the top level keeps the semicolons
            return "either " + (", or " if commas else " or ").join(parts)
        return ("; or " if commas else ", or ").join(parts)

    def visit_Then(self, node, nested):
        words = f"{self.visit(node.first, True)}, then {self.visit(node.second, True)}"
        if node.both:
            return f"{words} (both, or neither)"
        if isinstance(node.second, (dsl.DrawAgain, dsl.Pass)) or isinstance(node.first, (dsl.DrawAgain, dsl.Pass)):
            return words
        return f"{words} (either alone where the other cannot be played)"

    def visit_Guard(self, node, nested):
        return f"{self.visit(node.effect, True)}, only if {expr_words(node.condition, self.marks)}"

    def visit_Node(self, node, nested):
        return "?"


_OWNER = {"own": "your own", "partner": "a partner's", "opponent": "an opponent's", "other": "another colour's",
          "controlled": "a", "any": "any"}
_ZONE = {"start": "in its Start", "home": "in its Home", "track": "on the track", "safety": "in its safety zone",
         "start_exit": "on its start exit"}


_SQUARE_OWNER = {None: "a", "own": "its own", "partner": "a partner's", "opponent": "an opponent's",
                 "other": "another colour's"}


#: pawns by their relation to a side's colour: whom a named square spares (`board.squares.*.safe`),
#: who takes a slide (`board.slides.*.slide_on`)
_SIDE_WORDS = {"own": "the side's own colour's", "partner": "its partners'", "opponent": "its opponents'"}

#: the pawns of a move an `after: mark:` entry names, by their relation to the mover (`rules.vocab.MarkedPawns`)
_MARKED_PAWNS = {"": "every pawn", "own": "every pawn of your own", "partner": "every partner's pawn",
                 "opponent": "every opponent's pawn", "other": "every pawn of another colour"}


def _marked_words(which: str) -> str:
    kind, _, relation = which.partition(" ")
    return f"{_MARKED_PAWNS[relation]} it {kind}"


_COUNTER_OWNERS = {"every": "every player (you included)", "partner": "each partner", "opponent": "each opponent",
                   "other": "every other player"}


def counter_name(name: str, labels: dict | None) -> str:
    """A counter as people read it: its label (`mark_labels`), else its key in words."""
    return (labels or {}).get(("counter", name)) or name.replace("_", " ")


def _counter_of(to: str, name: str) -> str:
    """Counter `name` of the players an `after:` entry's `add:` changes (`to:`), in words."""
    if to == "mover":
        return f"your counter '{name}'"
    kind, _, relation = to.partition(" ")
    if kind != "bumped":
        return f"the counter '{name}' of {_COUNTER_OWNERS[to]}"
    pawn = _MARKED_PAWNS[relation].removeprefix("every ")
    return f"the counter '{name}' of the owner of each {pawn} it sent back to Start (once a pawn)"


def mark_name(name: str, marks: dict | None = None) -> str:
    """How mark `name` is named in words: its `label` in `marks` ({name: label}), else its
    name with `_` as spaces."""
    return (marks or {}).get(name) or name.replace("_", " ")


def selector_words(selector, noun: str = "", marks: dict | None = None) -> str:
    """A pawn selector in words: "an opponent's pawn in its safety zone, marked 'frozen'";
    with a plural `noun`, without the commas: "opponents' pawns marked 'frozen'"; `marks`:
    the marks' labels ({name: label})."""
    owner = selector.owner or "controlled"
    words = f"{_OWNER[owner]} {noun or 'pawn'}" + (" you control" if owner == "controlled" else "")
    words = words.replace("a pawns", "pawns").replace("an opponent's pawns", "opponents' pawns")
    places = [_ZONE[z] for z in selector.zones]
    places += [f"on {_SQUARE_OWNER[relation]} {name.replace('_', ' ')}" for relation, name, _ in selector.squares]
    if places:
        words += " " + " or ".join(places)
    if selector.moved:
        words += " that this move moved (where its count ended)"
    if selector.unmoved:
        words += " that this move has not moved"
    if selector.bumped:
        words += " that this move sent back to Start"
    # one pawn takes its qualities after commas ("an opponent's pawn, alone on its square"); a
    # count of pawns reads them as one noun phrase ("the number of pawns alone on their squares")
    plural = noun.endswith("s")
    sep = " " if plural else ", "
    if selector.alone:
        words += sep + ("alone on their squares" if plural else "alone on its square")
    words += "".join(f"{sep}marked '{mark_name(name, marks)}'" for name, _ in selector.marked)
    words += "".join(f"{sep}not marked '{mark_name(name, marks)}'" for name, _ in selector.unmarked)
    if selector.rank is not None:  # `farthest` along the way: the fewest steps from Home
        words += ", the one nearest Home" if selector.rank == "farthest" else ", the one farthest from Home"
    if selector.every:  # "a pawn" -> "every pawn", "an opponent's pawn" -> "every opponent's pawn", at once
        words = "every " + words.split(" ", 1)[1] + " at once" if words.startswith(("a ", "an ")) else \
            f"{words} (every one at once)"
    return words


def destination_words(dest) -> str:
    if isinstance(dest, tuple):
        return f"{dest[0]}:{dest[1]}"
    return {"start": "its Start", "home": "its Home", "start_exit": "its start exit"}[dest]


def selector_source(selector) -> str:
    """The DSL text of a selector (canonical order)."""
    parts = (["every"] if selector.every else []) + ([selector.owner] if selector.owner else [])
    parts += [f"in {z}" for z in selector.zones]
    parts += [f"in {relation} {name}" if relation else f"in {name}" for relation, name, _ in selector.squares]
    parts += [f"marked {n}" for n, _ in selector.marked] + [f"unmarked {n}" for n, _ in selector.unmarked]
    parts += (["alone"] if selector.alone else []) + (["moved"] if selector.moved else [])
    parts += (["unmoved"] if selector.unmoved else []) + (["bumped"] if selector.bumped else [])
    return " ".join(parts + ([selector.rank] if selector.rank else []))


def _one(node, marks: dict | None = None) -> str:
    """"one pawn", or the pawn a primitive's selector chooses."""
    return "one pawn" if node.selector is None else selector_words(node.selector, marks=marks)


def _selector_suffix(node) -> str:
    return f" {selector_source(node.selector)}" if node.selector is not None else ""


def _destination_source(dest) -> str:
    return f"{dest[0]}:{dest[1]}" if isinstance(dest, tuple) else dest


class _ExprWords(dsl.Visitor):
    covers = dsl.EXPRESSION_NODES

    def __init__(self, marks: dict | None = None):
        self.marks = marks

    def visit_CountPawns(self, node):
        return f"the number of {selector_words(node.selector, 'pawns', self.marks)}"

    def visit_Number(self, node):
        return str(node.value)

    def visit_Bool(self, node):
        return "always" if node.value else "never"

    def visit_Can(self, node):
        return f"you could {effect_words(node.effect, True, marks=self.marks)}"

    def visit_Not(self, node):
        if isinstance(node.operand, dsl.Can):
            return f"you could not {effect_words(node.operand.effect, True, marks=self.marks)}"
        return f"not ({self.visit(node.operand)})"

    def visit_Neg(self, node):
        return f"minus {self.visit(node.operand)}"

    def visit_BinOp(self, node):
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op == "or" and any(isinstance(side, dsl.BinOp) and side.op == "and" for side in (node.left, node.right)):
            left, right = (f"({words})" if isinstance(side, dsl.BinOp) and side.op == "and" else words
                           for side, words in ((node.left, left), (node.right, right)))
            return f"either {left}, or {right}"  # `and` binds tighter: said in brackets
        if node.op == "and":  # an `or` under it was written in brackets: said in brackets
            left, right = (f"({words})" if isinstance(side, dsl.BinOp) and side.op == "or" else words
                           for side, words in ((node.left, left), (node.right, right)))
        if node.op in ("and", "or"):
            return f"{left} {node.op} {right}"
        if node.op in _COMPARE:
            return f"{left} {_COMPARE[node.op]} {right}"
        return f"({left} {_ARITH[node.op]} {right})"

    def visit_Call(self, node):
        if node.function == "thrown" and isinstance(node.argument, dsl.Number):
            return f"the number of dice thrown showing {node.argument.value}"
        whose = _GROUP.get(node.argument.name, f"{node.argument.name}'s") if isinstance(node.argument, dsl.Name) else "?"
        if node.function in _FACT:
            return f"the number of {whose} {_FACT[node.function]}"
        if node.function not in _COUNT:
            return f"{whose} counter '{counter_name(node.function, self.marks)}'"
        return f"the number of {whose} {_COUNT[node.function]}"

    def visit_Aggregate(self, node):
        group = _AGGREGATE_GROUP.get(node.group, node.group)
        body = self.visit(node.body)
        what = {"sum": "the sum", "max": "the largest", "min": "the smallest"}.get(node.kind)
        if node.kind == "count":
            return f"how many {node.variable} among {group} have: {body}"
        return f"{what}, over each {node.variable} among {group}, of {body}"

    def visit_Name(self, node):
        return _THROW.get(node.name, node.name)

    def visit_Node(self, node):
        return "?"


#: the facts of the throw that are names, in words
_THROW = {"total": "the total of the dice thrown", "doubles": "the dice thrown show one face (doubles)",
          "sides": "the number of sides (chip colours) in the game"}

_PRECEDENCE = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6}


class _Source(dsl.Visitor):
    """A DSL text for a node (canonical spacing; parentheses only where the grammar needs
    them), for short references to parts of a rule."""

    covers = dsl.EFFECT_NODES + dsl.EXPRESSION_NODES

    def visit_Enter(self, node):
        return "enter" + _selector_suffix(node)

    def visit_Send(self, node):
        verb = "send" if isinstance(node, dsl.Send) else "move"
        return f"{verb} {selector_source(node.selector)} to {_destination_source(node.destination)}"

    visit_MovePawn = visit_Send

    def visit_Mark(self, node):
        return f"{'mark' if isinstance(node, dsl.Mark) else 'unmark'} {node.name} {selector_source(node.selector)}"

    visit_Unmark = visit_Mark

    def visit_CountPawns(self, node):
        return f"count(pawns {selector_source(node.selector)})"

    def visit_Forward(self, node):
        return f"{'forward' if isinstance(node, dsl.Forward) else 'backward'} {node.steps}" + _selector_suffix(node)

    visit_Backward = visit_Forward

    def visit_ForwardBy(self, node):
        direction = "forward" if isinstance(node, dsl.ForwardBy) else "backward"
        return f"{direction} ({self.visit(node.count)})" + _selector_suffix(node)

    visit_BackwardBy = visit_ForwardBy

    def visit_Split(self, node):
        if node.parts:
            sizes = node.sizes or (None,) * len(node.parts)
            return f"split {node.steps} into " + ", ".join(
                " ".join(str(w) for w in (direction, size, who) if w) for (direction, who), size in zip(node.parts, sizes))
        return f"split {node.steps}" + ("" if node.among is None else f" among {node.among}") + _selector_suffix(node)

    def visit_Switch(self, node):
        return f"switch {node.relation}"

    def visit_Sorry(self, node):
        return "sorry" + ("" if node.relation is None else f" {node.relation}")

    def visit_DrawAgain(self, node):
        return "draw_again"

    def visit_Pass(self, node):
        return "pass"

    def visit_Place(self, node):
        return f"place on {node.target}"

    def visit_Remove(self, node):
        return f"remove {node.relation}" + (" unprotected" if node.unprotected else "")

    def visit_Choice(self, node):
        return " | ".join(self.visit(o) for o in node.options)

    def visit_Then(self, node):
        return f"both ({self._sequence(node)})" if node.both else self._sequence(node)

    def _sequence(self, node) -> str:
        """`A then B` without the `both (...)` around a sequence of `both` (its `then`s inside)."""
        if node.both and isinstance(node.first, dsl.Then) and node.first.both:
            first = self._sequence(node.first)
        else:
            first = self.visit(node.first)
            first = f"({first})" if isinstance(node.first, dsl.Choice) else first
        return f"{first} then {self._grouped(node.second, (dsl.Choice, dsl.Then))}"

    def visit_Guard(self, node):
        return f"{self._grouped(node.effect, (dsl.Choice, dsl.Then, dsl.Guard))} if {self.visit(node.condition)}"

    def _grouped(self, node, needs_parentheses: tuple) -> str:
        text = self.visit(node)
        return f"({text})" if isinstance(node, needs_parentheses) else text

    def visit_Number(self, node):
        return str(node.value)

    def visit_Bool(self, node):
        return "true" if node.value else "false"

    def visit_Can(self, node):
        return f"can({self.visit(node.effect)})"

    def visit_Not(self, node):
        return f"not {self._operand(node.operand, 3)}"

    def visit_Neg(self, node):
        return f"-{self._operand(node.operand, 7)}"

    def visit_BinOp(self, node):
        own = _PRECEDENCE[node.op]
        if own == 4:  # comparisons do not chain: both sides are sums
            return f"{self._operand(node.left, 5)} {node.op} {self._operand(node.right, 5)}"
        return f"{self._operand(node.left, own)} {node.op} {self._operand(node.right, own + 1)}"

    def visit_Call(self, node):
        return f"{node.function}({self.visit(node.argument)})"

    def visit_Aggregate(self, node):
        return f"{node.kind}({node.variable} in {node.group}: {self.visit(node.body)})"

    def visit_Name(self, node):
        return node.name

    def _operand(self, node, least: int) -> str:
        """`node`'s text, in parentheses when it binds less tightly than `least`."""
        text = self.visit(node)
        if isinstance(node, dsl.BinOp):
            binds = _PRECEDENCE[node.op]
        elif isinstance(node, dsl.Not):
            binds = 3
        else:
            binds = 7
        return f"({text})" if binds < least else text


def _concerns_cards(cards, item) -> bool:
    """Whether a filter or consequence scoped by `cards:` / `except_cards:` applies to one of
    the cards `cards` asked about (None: every card)."""
    if cards is None:
        return True
    scoped = set(cards) if item.cards is None else set(cards) & set(item.cards)
    return bool(scoped - set(getattr(item, "except_cards", None) or ()))


def _scope_words(item, every: str) -> str:
    """'cards 1, 2', 'every card but 2', 'cards 1, 2, 3 but 2': the cards a filter or consequence is about."""
    excepted = getattr(item, "except_cards", None)
    scope = f"cards {', '.join(item.cards)}" if item.cards is not None else every
    return f"{scope} but {', '.join(excepted)}" if excepted else scope


def effect_words(node, nested: bool = False, source: str = "draw", marks: dict | None = None) -> str:
    """What an effect does, in words (lower case; see `sentence`); `source`: where the
    player's cards come from (`turn.source`: "draw", "hand" or "dice"); `marks`: the marks'
    labels ({name: label}, `mark_labels`)."""
    return _EffectWords(source, marks).visit(node, nested)


def expr_words(node, marks: dict | None = None) -> str:
    """A condition or formula in words (`marks` as in `effect_words`)."""
    return _ExprWords(marks).visit(node)


def mark_labels(v) -> dict:
    """{mark name: label} of variant `v`'s marks that have a label, and {("counter", name):
    label} of its counters that have one (how `effect_words` and `expr_words` name them)."""
    labels: dict = {name: kind.label for name, kind in getattr(v, "marks", {}).items() if kind.label}
    labels.update({("counter", name): c.label for name, c in getattr(v, "counters", {}).items() if c.label})
    return labels


def _fill(text: str, width: int, **options) -> str:
    """`textwrap.fill`, breaking lines at spaces only (a label such as 'ice-cold' stays whole)."""
    return textwrap.fill(text, width, break_on_hyphens=False, **options)


def source_text(node) -> str:
    """DSL text of an AST node (canonical form: `can(switch opponent)`, `home(player) > 0`)."""
    return _Source().visit(node)


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# ---- the command -------------------------------------------------------------------------
@dataclass(frozen=True)
class Explained:
    loaded: object
    game: object
    cards: dict        # `card_rules`
    rules: dict        # the cards and the whole totals of dice (`whole_rules`): what a move is played by


def load_explained(variant: str, rules=()) -> Explained:
    loaded = load_variant(variant, rules)
    game, _ = compile_variant(loaded)
    cards = card_rules(loaded)
    return Explained(loaded, game, cards, {**cards, **whole_rules(loaded)})


def win_sentence(explained: Explained) -> str:
    """The win condition in words, one sentence ("The number of your pawns in Home equals the
    number of your pawns.")."""
    v = explained.loaded.variant
    return sentence(expr_words(dsl.parse_expr(v.win), mark_labels(v)))


def explain_text(explained: Explained, only=()) -> str:
    """Every card (or the cards in `only`) in words, then the win condition and scoring."""
    cards = explained.cards
    unknown = [name for name in only if name not in cards]
    if unknown:
        raise UsageError(f"unknown card {unknown[0]!r}{did_you_mean(unknown[0], cards)} (cards: {', '.join(cards)})")
    v = explained.loaded.variant
    where = lambda path: _where(explained.loaded.origins.changed_mark(path), col=False)  # noqa: E731 - file:line of the key at path
    lines = []
    dice = v.turn.source == "dice"
    if not only:
        lines.append(_fill(_turn_line(v), WIDTH, subsequent_indent="  "))
        lines.extend(board_words(v, where))
        lines.extend(switch_words(v, where))
        lines.append("")
    for name, rule in cards.items():
        if only and name not in only:
            continue
        if dice:
            lines.append(f"A die showing {name} - {rule.where}")
        else:
            copies = f"{rule.copies} in the deck" if rule.copies else "not in the deck"
            lines.append(f"Card {name} ({copies}) - {rule.where}")
        lines.append(_fill(sentence(effect_words(rule.effect, source=v.turn.source, marks=mark_labels(v))), WIDTH,
                                   initial_indent="  ", subsequent_indent="  "))
        if len(rule.options) > 1:
            for i, option in enumerate(rule.options, 1):
                lines.append(f"    option {i}: {option.text}  ({option.where})")
    if not only:
        lines += ["", f"To win - {where(('win',))}", f"  {win_sentence(explained)}"]
        if v.places > 1:
            lines.append(_fill(f"Played on for {v.places} places - {where(('places',))}: a side that has won so "
                               "finishes and sits out, the others play on until that many sides finished or one is "
                               "left; the first to finish wins.", WIDTH, initial_indent="  ", subsequent_indent="  "))
        for key, component in v.scoring.items():
            label = component.label or key.replace("_", " ")
            who = "each player" if component.for_ == "every" else "the winner"
            lines.append(f"Score '{label}' for {who} - {where(('scoring', key))}")
            if component.kind == "formula":
                lines.append(f"  {sentence(expr_words(dsl.parse_expr(component.points), mark_labels(v)))}")
            else:
                how = "the first that holds" if component.mode == "highest" else "every one that holds"
                lines.append(f"  Tiers ({how}):")
                for tier in component.tiers:
                    lines.append(f"    {tier.points:+} if {expr_words(dsl.parse_expr(tier.when), mark_labels(v))}")
        lines.extend(vocabulary_words(v, where))
        lines.extend(geometry_words(v, where, lambda text: expr_words(dsl.parse_expr(text), mark_labels(v))))
        lines.extend(turn_words(v, where))
    else:
        # what else happens to a move of these cards: filters and consequences, each once
        lines.extend(vocabulary_words(v, where, cards=tuple(only)))
    return "\n".join(_wrapped(line) for text in lines for line in text.split("\n"))


def _wrapped(line: str) -> str:
    """`line` filled to WIDTH when longer, its continuation indented two past its own."""
    if len(line) <= WIDTH or line.startswith("    option "):  # an option keeps its text and place on one line
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")))
    return _fill(line.lstrip(" "), WIDTH, initial_indent=indent, subsequent_indent=indent + "  ", break_long_words=False)


def _turn_line(v) -> str:
    """The first line: the game's size and how a turn takes its card or throws."""
    turn = v.turn
    if turn.source == "dice":
        faces = faces_text(turn.faces, turn.weights)
        dice = "a die" if turn.dice == 1 else f"{turn.dice} dice"
        spent = "" if turn.dice == 1 else ", spent die by die (as many dice as can be used)"
        return f"{v.name}: {len(v.colours)} colours, {v.pawns} pawns each; throw {dice} each turn (faces {faces}){spent}."
    if turn.source == "hand":
        sizes = {n: turn.hand_size_by_players.get(n, turn.hand_size) for n in v.seating} if v.seating else {}
        if len(set(sizes.values())) > 1:
            hands = ", ".join(f"{size} with {n} players" for n, size in sorted(sizes.items(), key=lambda kv: int(kv[0])))
            how = f"play one card from a hand each turn (a hand of {hands})"
        else:
            how = f"play one card from a hand of {turn.hand_size} each turn"
    elif turn.take > 1:
        how = f"draw {turn.take} cards each time, play one and discard the rest"
    else:
        how = "draw one card each turn"
    if getattr(v.board, "kind", "track") == "grid":
        counts = ", ".join(sorted(v.seating, key=int)) if v.seating else f"{v.players.min}-{v.players.max}"
        return (f"{v.name}: {counts} players in {len(v.colours)} chip colours ({', '.join(v.colours)}), "
                f"{sum(v.deck.values())} cards; {how}.")
    return f"{v.name}: {len(v.colours)} colours, {v.pawns} pawns each, {sum(v.deck.values())} cards; {how}."


def switch_words(v, where) -> list[str]:
    """The teams, and the `rules:` switches and the `setup:` a track variant sets away from
    their defaults, each with its meaning (the schema's words); `must_bump` is worded with
    the filters."""
    if getattr(v.board, "kind", "track") != "track":
        return []
    from sorry_rules.rules.model import Rules, Setup  # the defaults and the meanings of the fields

    def shown(value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (list, tuple)):
            return ", ".join(map(str, value)) or "none"
        return str(value)

    lines = []
    if v.teams:
        teams = "; ".join(and_list(list(team)) for team in v.teams)
        lines.append(f"Teams (partners play together): {teams} - {where(('teams',))}")
    for section, model, values in (("rules", Rules, v.rules), ("setup", Setup, v.setup)):
        defaults = model()
        for name, field in model.model_fields.items():
            value, default = getattr(values, name), getattr(defaults, name)
            if name == "must_bump" or value == default:
                continue
            lines.append(f"Rule {section}.{name}: {shown(value)} (default {shown(default)}) - {where((section, name))}")
            lines.append(_fill(field.description or "", WIDTH, initial_indent="  ", subsequent_indent="  "))
    return lines


def _slide_words(b, where) -> list[str]:
    """What the slides and the jumps (`sweep: end`) of the board do, and who takes them."""
    if not b.slides:
        return []
    lines = []
    own = any(sl.slide_on is not None for sl in b.slides)

    def takers(kind: str) -> str:
        return f"rules.slide_on, or the {kind}'s own slide_on below," if own else "rules.slide_on"
    paths = [s for s in b.slides if s.sweep == "path"]
    jumps = [s for s in b.slides if s.sweep == "end"]
    if paths:
        side = b.side_length
        spans = and_list([f"{s.from_} to {s.to}" + (f" (offset {s.to % side} of the next side)" if s.to >= side else "")
                          for s in paths])
        lines.append(f"Slides from offset {spans} of every side: a pawn that ends its move on a slide's first "
                     f"square (when {takers('slide')} lets it) goes to its last, bumping as rules.slide_sweep says - "
                     f"{where(('board', 'slides'))}")
    if jumps:
        spans = and_list([f"{s.from_} to {s.to}" for s in jumps])
        lines.append(f"Jumps from offset {spans} of every side (counted on from the first square's side): a pawn "
                     f"that ends its move on a jump's first square (when {takers('jump')} lets it) jumps over the squares "
                     f"between to its last, ending there as the move that took it to the first square would have - "
                     f"{where(('board', 'slides'))}")
    return lines + _slide_takers(b, where)


def _slide_takers(b, where) -> list[str]:
    """A line for each slide that says who takes it (`board.slides.*.slide_on`)."""
    return [f"The {'jump' if s.sweep == 'end' else 'slide'} from {s.from_} to {s.to} is taken by "
            f"{and_list([_SIDE_WORDS[r] for r in s.slide_on]) + ' pawns' if s.slide_on else 'no pawn'}, whatever "
            f"rules.slide_on says - "
            f"{where(('board', 'slides', i, 'slide_on'))}" for i, s in enumerate(b.slides) if s.slide_on is not None]


def grid_words(v, where) -> list[str]:
    """A grid board's lines, free cells and turn rules (exchange, pass), in words."""
    b, turn = v.board, v.turn
    ways = {"row": "rows", "column": "columns", "diagonal": "diagonals"}
    lines = [f"A grid of {len(b.columns)} x {len(b.rows)} cells; a line is {b.lines.length} cells in a row along "
             f"{and_list([ways[d] for d in b.lines.directions])}; two lines counted together share at most "
             f"{b.lines.shared} cell{'s' if b.lines.shared != 1 else ''} - {where(('board', 'lines'))}"]
    if any(cell == b.free for row in b.cells for cell in row):
        lines.append(f"Cells marked {b.free} are free: they count for every colour and take no chip - "
                     f"{where(('board', 'free'))}")
    if turn.exchange == "dead":
        lines.append(f"Once a turn, before playing, a dead card (one with no play) may be exchanged for a new one - "
                     f"{where(('turn', 'exchange'))}")
    if turn.stuck != "discard_one":  # a grid's stuck hand passes (S9), its default
        after = " (after any exchange)" if turn.exchange == "dead" else ""
        lines.append(f"With no play{after} the player passes; a full round of passes ends the game "
                     f"without a winner - {where(('turn', 'stuck'))}")
    return [_fill(line, WIDTH, subsequent_indent="  ") for line in lines]


def board_words(v, where) -> list[str]:
    """The board's sides (start exits, safety zones, slides), what its squares hold
    (`board.hold`, `board.home_hold`), its named squares and a dice turn's whole totals, in
    words."""
    b, lines = v.board, []
    if getattr(b, "kind", "track") == "grid":
        return grid_words(v, where)
    zone = f"a safety zone of {plural(b.safety_length, 'square')}, then Home" if b.safety_length else "Home (no safety zone)"
    lines.append(f"Each side has {b.side_length} squares (offsets 0 to {b.side_length - 1}, clockwise): pawns leave Start "
                 f"onto offset {b.start_exit}; after offset {b.safety_entry} a pawn of the side's colour turns into "
                 f"{zone} - {where(('board', 'side_length'))}")
    lines += _slide_words(b, where)
    if b.hold > 1:
        lines.append(f"A square holds up to {b.hold} pawns; pawns of one colour share it"
                     f"{', several colours where a named square lets them' if b.squares else ''} - {where(('board', 'hold'))}")
    if b.home_hold is not None:
        lines.append(f"A Home holds {b.home_hold} pawn(s): a pawn ends there only while it has room - "
                     f"{where(('board', 'home_hold'))}")
    for name, square in b.squares.items():
        label = square.label or name.replace("_", " ")
        offsets = ", ".join(str(o) for o in square.at)
        does = []
        if square.capture is False or square.capture == []:
            does.append("no pawn is captured there")
        elif square.capture is not True:
            does.append(f"only a pawn that moves by {' or '.join(square.capture)} captures there")
        if square.safe:
            spared = and_list([_SIDE_WORDS[relation] for relation in square.safe])
            does.append(f"{spared} pawns are never captured there")
        if square.share:
            does.append("pawns of several colours share it")
        if square.hold is not None:
            does.append(f"it holds {square.hold} pawn(s)")
        lines.append(f"Square '{label}' ({name}, shown {square.symbol}) at offset {offsets} of every side - "
                     f"{where(('board', 'squares', name))}")
        if does:
            lines.append(f"  {sentence('; '.join(does))}")
    if v.turn.source == "dice":
        for total, text in v.turn.whole.items():
            lines.append(f"A throw adding up to {total} may be spent whole - {where(('turn', 'whole', total))}")
            lines.append(f"  {sentence(effect_words(dsl.parse_effect(text), marks=mark_labels(v)))}")
    return lines


def turn_words(v, where) -> list[str]:
    """The turn policies and hand actions (`turn.take`, `turn.redraw`, `turn.actions`) in words."""
    turn = v.turn
    lines = []
    if turn.take > 1:
        lines.append(f"Drawing - {where(('turn', 'take'))}")
        lines.append(f"  Each draw takes {turn.take} cards (a 2's extra draw too); play one of them (card and move are one "
                     "choice) and discard the others; when none can move, all are discarded.")
    if turn.redraw is not None:
        r = turn.redraw
        label = f" ('{r.label}')" if r.label else ""
        drawn = f"none of the {turn.take} cards drawn can move a pawn" if turn.take > 1 else \
            "the card drawn cannot move a pawn"
        stuck = {"hand": "no card of the hand can move a pawn", "dice": "the throw cannot move a pawn"}.get(
            turn.source, drawn)
        again = AGAIN_WORDS.get(turn.source, AGAIN_WORDS["draw"])
        lines.append(f"When stuck{label} - {where(('turn', 'redraw'))}")
        extra = "throw(s)" if turn.source == "dice" else "card(s)"
        discard = "" if turn.source == "dice" else "discard them and " if turn.take > 1 and turn.source == "draw" else \
            "discard it and "
        when = expr_words(dsl.parse_expr(r.when), mark_labels(v))
        lines.append(f"  If {stuck} and {when}: {discard}{again}, at most {r.at_most} extra {extra} a turn.")
    for name, a in turn.actions.items():
        lines.append(f"Hand action '{a.label or name.replace('_', ' ')}' - {where(('turn', 'actions', name))}")
        others = f"{a.others.min}" if a.others.min == a.others.max else f"{a.others.min} to {a.others.max}"
        when = "" if a.when == "true" else f"if {expr_words(dsl.parse_expr(a.when), mark_labels(v))}, "
        then = "; then play again" if a.draw_again else "; the turn ends"
        play = sentence(when + "instead of moving, play a card")[:-1]
        lines.append(f"  {play} {' or '.join(a.cards)} with {others} other card(s) of the "
                     f"hand: all are discarded and as many drawn{then}. While it is possible the hand is not stuck.")
    return lines


def _label_line(label: str) -> list[str]:
    """The author's label of a filter, consequence or added alternative, as written."""
    return [_fill(f'"{label}"', WIDTH, initial_indent="  ", subsequent_indent="   ")] if label else []


def _counter_bounds(low: int, high: int) -> str:
    """", kept from 0 to 2", ", never below 0", ", never above 9" or "" (the defaults)."""
    if low != -MAX_COUNTER and high != MAX_COUNTER:
        return f", kept from {low} to {high}"
    if low != -MAX_COUNTER:
        return f", never below {low}"
    return f", never above {high}" if high != MAX_COUNTER else ""


def vocabulary_words(v, where, cards: tuple | None = None) -> list[str]:
    """Counters, filters on moves and consequences of moves (`counters:`, `filters:`,
    `after:`, `rules.must_bump`) in words, in the order the engine applies them; with
    `cards`, the filters and consequences that apply to one of those cards, each once."""
    labels = mark_labels(v)  # the marks' and counters' labels, as the words name them
    lines = []
    for name, counter in ({} if cards is not None else v.counters).items():
        bounds = _counter_bounds(counter.min, counter.max)
        lines.append(f"Counter '{counter_name(name, labels)}' ({name}), per player, starts at {counter.start}"
                     f"{bounds} - {where(('counters', name))}")
    if v.rules.must_bump:
        lines.append(f"Filter on every card - {where(('rules', 'must_bump'))}")
        lines.append("  When some move sends an opponent's pawn back to Start, only such moves are legal.")
    every = "every throw" if v.turn.source == "dice" else "every card"
    for i, f in v.filters.items():
        if not _concerns_cards(cards, f):
            continue
        scope = _scope_words(f, every)
        lines.append(f"Filter '{i}' on {scope} - {where(('filters', i))}")
        lines.extend(_label_line(f.label))
        if f.must is not None:
            lines.append(f"  Only moves for which {expr_words(dsl.parse_expr(f.must), labels)} are legal.")
        else:
            prefer = expr_words(dsl.parse_expr(f.prefer), labels)
            lines.append(f"  When, for some move, {prefer}, only the moves for which it holds are legal.")
    if cards is None:
        lines.extend(marks_words(v, where))
    extra = "throw" if v.turn.source == "dice" else "card"
    for i, c in v.after.items():
        if not _concerns_cards(cards, c):
            continue
        what = "a move or a forfeit" if c.forfeits else "a move"
        scope = f"{what} of {_scope_words(c, every)}" if c.cards is not None or getattr(c, "except_cards", None) else what
        lines.append(f"After {scope} ('{i}') - {where(('after', i))}")
        lines.extend(_label_line(c.label))
        to = getattr(c, "to", "mover")
        does = [f"add {expr_words(dsl.parse_expr(str(amount)), labels)} to "
                f"{_counter_of(to, counter_name(name, labels))}"
                for name, amount in c.add.items()]
        if c.draw_again:
            does.append(f"take one extra {extra}")
        does.extend(f"mark {_marked_words(which)} '{name.replace('_', ' ')}'" for name, which in c.mark.items())
        if c.then is not None:
            does.append(f"then, as part of the move, {effect_words(dsl.parse_effect(c.then), True, marks=labels)}")
        if c.ends_turn:
            does.append(f"your turn ends (any extra {extra} still due this turn is not taken)")
        when = expr_words(dsl.parse_expr(c.when), labels)
        lines.append(f"  {'Always' if when == 'always' else 'If ' + when}: {'; '.join(does) or 'nothing'}.")
    return lines


_UNTIL = {"removed": "until an effect takes it off", "next_turn": "until the next turn of the player who placed it begins",
          "leaves_start": "until the pawn leaves its Start", "leaves_track": "until the pawn leaves the track",
          "leaves_safety": "until the pawn leaves its safety zone", "moves": "until the pawn changes square"}


def marks_words(v, where) -> list[str]:
    """The marks (`marks:`) and the alternatives added to cards (`also:`) in words."""
    lines = []
    for name, m in v.marks.items():
        lines.append(f"Mark '{m.label or name.replace('_', ' ')}' ({name}, shown {m.symbol}) - {where(('marks', name))}")
        does = [_UNTIL[m.until]]
        if m.one_per_player:
            does.append("each player has at most one on the board (a new one replaces it)")
        if m.immobile:
            does.append("a marked pawn cannot move")
        if m.untouchable:
            itself = "" if m.immobile else " (it still moves itself)"
            does.append(f"a marked pawn cannot be moved by others{itself}: no pawn may land on it, switch it or Sorry! it, "
                        "`send` leaves it, a slide ending on it cannot be taken and a slide passing over it leaves it")
        lines.append(_fill(sentence("; ".join(does)), WIDTH, initial_indent="  ", subsequent_indent="  "))
    for name, item in v.also.items():
        scope = []
        if item.cards is not None:
            scope.append(f"cards {', '.join(item.cards)}")
        if item.having is not None:
            scope.append(f"every card whose effect has {' or '.join(item.having)}")
        lines.append(f"Also on {' and '.join(scope) or 'every card'} ('{name}') - {where(('also', name))}")
        lines.extend(_label_line(item.label))
        instead = effect_words(dsl.parse_effect(item.effect), marks=mark_labels(v))
        lines.append(_fill(sentence("instead " + instead), WIDTH, initial_indent="  ", subsequent_indent="  "))
    return lines
