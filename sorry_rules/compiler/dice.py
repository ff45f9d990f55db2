"""A dice turn (`turn: {source: dice}`) checked against the rest of a variant and compiled:
the throws are the game's cards, each a maker spending its dice (`engine.dice`).

Contract:
- `uses_dice(v)`: whether the variant's turn throws dice.
- `check_dice(v, out)` adds located problems: a face without a card under `cards:` (SR503),
  a card that is no face (SR504, unless in `unused_effects`), a `deck:`, `take` above 1 or
  `actions` with dice (SR513), two faces alike, `weights` not one a face or a `whole` total no
  throw adds up to (SR508), weights that make more than MAX_OUTCOMES outcomes (SR204).
- `check_throw_costs(...)`: SR303 when a throw spent die by die could take more than
  MAX_WORK steps (the cost bound of `compiler.costs`, over every order of the dice).
- `dice_texts(v)` lists the DSL texts of `turn.whole` as `(path, text, "effect")`.
- `throw_makers(v, dice, compiled)`: per throw of `dice` (`engine.dice.Dice`), the maker of
  its options, `maker(p, flags, card)` as `compiler.plays`' (one die: its face's card; several:
  `engine.dice.spend` over the faces' cards and the throw's `whole` effect).
"""

from __future__ import annotations

from math import factorial

from sorry_rules.base.errors import ProblemCollector
from sorry_rules.base.limits import MAX_OUTCOMES
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.compiler.costs import CAP, MAX_WORK
from sorry_rules.engine.dice import outcomes, spend


def uses_dice(v) -> bool:
    return getattr(getattr(v, "turn", None), "source", "draw") == "dice"


def engine_dice(v):
    """The `engine.dice.Dice` of a dice variant's turn; weights `check_dice` refuses are left
    out (every face then equally likely: the problem is reported there)."""
    turn = v.turn
    return outcomes(turn.dice, tuple(turn.faces), None if _weights_problem(turn) else getattr(turn, "weights", None))


def check_dice(v, out: ProblemCollector) -> None:
    if not uses_dice(v):
        return
    turn = v.turn
    faces = [str(f) for f in turn.faces]
    for i, face in enumerate(turn.faces):
        if turn.faces.index(face) != i:
            out.at(("turn", "faces", i), "SR508", f"turn.faces: face {face} is listed twice (write a face once, and how "
                   "often it comes up under weights:)")
    _check_weights(turn, out)
    if v.deck:
        out.at(("deck",), "SR513", "deck: is the pile of a card turn; a dice turn draws its faces from the dice "
               "(remove deck:, or in an overlay write deck: null)", key=True, also=(("turn", "source"),))
    if turn.take > 1:
        out.at(("turn", "take"), "SR513", "turn.take: dice are thrown all together; take is for drawing cards",
               also=(("turn", "source"),))
    if turn.actions:
        out.at(("turn", "actions"), "SR513", "turn.actions are played from a hand; a dice turn has none", key=True,
               also=(("turn", "source"),))
    kept = set(v.unused_effects)
    for face in dict.fromkeys(faces):
        if face not in v.cards:
            out.at(("turn", "faces", faces.index(face)), "SR503", f"face {face} has no card under cards: (a die "
                   f"showing {face} does what card \"{face}\" does){did_you_mean(face, list(v.cards))}")
    for name in v.cards:
        if name not in faces and name not in kept:
            out.at(("cards", name), "SR504", f"card '{name}' is no face of the dice ({', '.join(faces)})"
                   f"{did_you_mean(name, faces)} (list it under unused_effects: to keep the effect)", key=True)
    for i, name in enumerate(v.unused_effects):
        if name not in v.cards:
            out.at(("unused_effects", i), "SR502", f"unused_effects: cards: gives card '{name}' no effect")
    _check_whole(turn, out)


def _check_weights(turn, out: ProblemCollector) -> None:
    problem = _weights_problem(turn)
    if problem is not None:
        out.at(("turn", "weights"), *problem, key=True)


def _weights_problem(turn) -> tuple | None:
    """(code, message) of `turn.weights` the dice cannot use: SR508 when they do not give one
    weight a face, SR204 for a bag of more than MAX_OUTCOMES ordered outcomes (the weights
    added up, to the power of the dice); None when they can, or there are none."""
    weights = getattr(turn, "weights", None)
    if weights is None:
        return None
    if len(weights) != len(turn.faces):
        return "SR508", (f"turn.weights: {len(weights)} weights for {len(turn.faces)} faces (one weight a face, in the "
                         "order of faces:)")
    if sum(weights) ** turn.dice > MAX_OUTCOMES:
        return "SR204", (f"turn.weights: {_dice(turn.dice)} of weights adding up to {sum(weights)} make "
                         f"{sum(weights) ** turn.dice:,} outcomes (at most {MAX_OUTCOMES:,}); give smaller weights")
    return None


def _dice(count: int) -> str:
    """"1 die", "2 dice"."""
    return "1 die" if count == 1 else f"{count} dice"


def _check_whole(turn, out: ProblemCollector) -> None:
    """SR508 for a `turn.whole` key that is no total of the dice, or one written otherwise
    than plainly (a throw looks its total up as written plainly)."""
    totals = {sum(t) for t in outcomes(turn.dice, tuple(dict.fromkeys(turn.faces))).throws}
    for key in turn.whole:
        if key.isascii() and key.isdigit() and int(key) in totals and key != str(int(key)):
            out.at(("turn", "whole", key), "SR508", f"turn.whole: write the total {key} as {int(key)} (a throw is "
                   f"looked up by its total written plainly)", key=True)
        elif not (key.isascii() and key.isdigit() and int(key) in totals):
            out.at(("turn", "whole", key), "SR508", f"turn.whole: no throw of {_dice(turn.dice)} adds up to {key} "
                   f"(totals: {', '.join(map(str, sorted(totals)))})", key=True)


def check_throw_costs(v, dice, asts: dict, cost_of, out: ProblemCollector) -> None:
    """SR303 at `turn.dice` when spending some throw die by die could take more than
    MAX_WORK steps: every order of its dice, each die's ways after each way of the dice before
    it (`cost_of(ast)`: the `(outcomes, work)` bounds of a card's effect, `compiler.costs`)."""
    costs = throw_costs(v, dice, asts, cost_of)
    if costs is None:
        return  # a card that did not compile is reported already
    worst, at = 0, None
    for throw, (_, work) in zip(dice.throws, costs):
        if work > worst:
            worst, at = work, throw
    if worst > MAX_WORK:
        faces = "+".join(map(str, at))
        out.at(("turn", "dice"), "SR303", f"turn.dice: a throw of {faces}, spent die by die in every order, could take up "
               f"to {min(worst, CAP):,} steps to work out (at most {MAX_WORK:,}); throw fewer dice or give the faces "
               "smaller effects")


def throw_costs(v, dice, asts: dict, cost_of) -> list | None:
    """Per throw of `dice.throws`, the `(outcomes, work)` bounds of spending it die by die in
    every order (each die's ways after each way of the dice before it), and whole when
    `turn.whole` lets it; None when a face's card did not compile."""
    costs = {}
    for face in dict.fromkeys(v.turn.faces):
        ast = asts.get(("cards", str(face)))
        if ast is None:
            return None
        costs[face] = cost_of(ast)
    out = []
    for throw in dice.throws:
        work, ways = 0, 1
        for face in throw:  # each die after every way of the dice before it, in every order
            outcomes, steps = costs[face]
            work += ways * steps
            ways *= max(1, outcomes)
        orders = factorial(len(throw))
        work, ways = work * orders, ways * orders
        whole = asts.get(("turn", "whole", str(sum(throw))))
        if whole is not None:
            whole_ways, whole_work = cost_of(whole)
            work, ways = work + whole_work, ways + whole_ways
        out.append((min(ways, CAP), min(work, CAP)))
    return out


def dice_texts(v) -> list[tuple[tuple, str, str]]:
    return [(("turn", "whole", key), text, "effect") for key, text in v.turn.whole.items()] if uses_dice(v) else []


def throw_makers(v, dice, compiled: dict) -> list:
    """The maker of each throw of `dice` (module contract); `compiled[path]` the compiled
    makers of the cards and of `turn.whole`."""
    return [_thrown(tuple(compiled[("cards", str(f))] for f in throw), compiled.get(("turn", "whole", str(sum(throw)))))
            for throw in dice.throws]


def throw_alternatives(compiled: dict, throw: tuple) -> tuple:
    """(the maker of `throw` spent die by die, the maker of its total spent whole or None):
    the alternatives `moves --why` traces a throw's moves to (`Game.card_options`)."""
    return (_thrown(tuple(compiled[("cards", str(f))] for f in throw), None),
            compiled.get(("turn", "whole", str(sum(throw)))))


def _thrown(faces: tuple, whole):
    """The maker of one throw: its faces' cards spent die by die, and its `whole` effect."""
    if len(faces) == 1 and whole is None:
        return faces[0]

    def maker(p, flags, card):
        made: dict = {}  # one generator per distinct face card, so that dice showing one face are tried once
        gens = tuple(made.setdefault(id(face), face(p, flags, card)) for face in faces)
        return spend(gens, None if whole is None else whole(p, flags, card))
    return maker
