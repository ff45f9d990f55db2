"""The resource bound of the effects that follow a move (`after:` `then:`), for the compiler
and `validate` alike.

Every consequence with `then:` that fires on a move plays its effect after each way the move
(and the `then:` effects before it) can be made (`engine.table.Table.followed`), so their
work multiplies: a card of W ways followed by effects of W1 and W2 ways is W x W1 x W2
moves to work out. Each effect is bounded on its own by `compiler.costs`; here the chain.

Contract: `check_follow_costs(v, asts, cost_of, card_costs(...), out)` adds SR303 at the `then:`
effect of the first consequence where a card's chain could take more than MAX_FOLLOW_WORK steps:
`card_costs` is {(noun, card or throw): (outcomes, work)}, the cards each consequence may
follow are its `cards:` (all when it has none) but its `except_cards:`. Effects that did not
compile are skipped.
"""

from __future__ import annotations

from sorry_rules.base.errors import ProblemCollector
from sorry_rules.base.limits import MAX_FOLLOW_WORK
from sorry_rules.compiler.costs import CAP
from sorry_rules.compiler.dice import throw_costs
from sorry_rules.compiler.marking import with_alternatives
from sorry_rules.compiler.vocabulary import CompileError


def check_follow_costs(v, asts: dict, cost_of, card_costs: dict, out: ProblemCollector) -> None:
    following = []
    for i, c in getattr(v, "after", {}).items():
        ast = asts.get(("after", i, "then"))
        if ast is not None:
            following.append((i, None if c.cards is None else set(c.cards), set(getattr(c, "except_cards", None) or ()),
                              cost_of(ast)))
    if not following:
        return
    worst = {}  # consequence -> (work, card) of the costliest chain reaching its effect first over the bound
    for (noun, card), (ways, work) in card_costs.items():
        faces = set(card.split("+"))  # a throw follows as each face it shows
        for i, cards, excepted, (outcomes, steps) in following:
            if cards is not None and not faces & cards or faces <= excepted:
                continue
            work = min(work + max(1, ways) * steps, CAP)
            ways = min(max(1, ways) * max(1, outcomes), CAP)
            if work > MAX_FOLLOW_WORK:
                if work > worst.get(i, (0, None))[0]:
                    worst[i] = (work, f"{noun} {card}")
                break
    for i, (work, card) in worst.items():
        out.at(("after", i, "then"), "SR303", f"after.{i}.then: played after every way of playing {card} and the then: "
               f"effects before it, it could take up to {work:,} steps to work out (at most {MAX_FOLLOW_WORK:,}); give it or "
               "them fewer ways, or fewer cards to follow (cards:)")


def card_costs(v, asts: dict, cost_of, added: dict, dice) -> dict:
    """{("card", name) or ("throw", "2+3"): (outcomes, work)} of every card dealt (with the
    alternatives `also:` adds to it, `added`) or every throw of `dice`; a card too costly or
    not compiled is left out (said at the card already)."""
    if dice is not None:
        costs = throw_costs(v, dice, asts, cost_of)
        return {} if costs is None else {("throw", "+".join(map(str, t))): cost for t, cost in zip(dice.throws, costs)}
    out = {}
    for name, count in v.deck.items():
        ast = asts.get(("cards", name))
        if not count or ast is None:
            continue
        extra = [asts.get(("also", a, "effect")) for a in added.get(name, ())]
        if extra and all(e is not None for e in extra):
            ast = with_alternatives(ast, extra)
        try:
            out[("card", name)] = cost_of(ast)
        except CompileError:
            continue
    return out
