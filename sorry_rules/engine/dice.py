"""Dice: a turn's source of moves beside the deck, drawn with replacement.

Cards and dice are two kinds of one source (`engine.table.Table.take`): a card is drawn from
the pile without replacement, a throw from the bag of every outcome of the dice with
replacement. The throws are the game's cards (`Game.card_names`): one die gives one card per
face ("6"), several dice one card per distinct throw, faces ascending ("3+5"); `Game.deck` is
the bag: one entry per ordered outcome of the dice (36 for two six-sided dice), each the index
of its throw, so every outcome is equally likely and each die's faces are uniform; faces of
unequal weights (`turn.weights`) put each ordered outcome in the bag as often as its faces'
weights multiplied (a die of weights 1, 2, 3: six entries, the third face three times).

A throw of several dice is spent die by die (`spend`): each die plays its face's card, in
every order, each die on any pawn (the same pawn again included), on the position the dice
before it left; the ways that use the most dice are the throw's moves (a die whose card moves
no pawn is not used). A `whole` effect of the throw's total uses every die at once.

Contract:
- `Dice(count, faces, throws, names, bag, weights)`: `throws[t]` the faces of throw t
  (ascending), `names[t]` its name, `bag` the throw of every ordered outcome, as often as its
  weight (`outcomes`), `weights[f]` how often face f comes up against the others.
- `spend(gens, whole)` is a generator `gen(pos, out)` (as `engine.track`'s) of a throw whose
  dice play `gens` (one generator per die, the face's card made for the throw's card index)
  and whose whole total plays `whole` (a generator, or None); it leaves `pos` as it found it.
- `facts(throw)`: (total, doubles, faces) of a throw's faces, what the facts of the throw
  (`total`, `doubles`, `thrown(N)`) read.
- `faces_text(faces, weights)`: a die's faces in words, each with its chance when the
  weights differ ("25 at 1/64, 10 at 6/64, ...").
"""

from __future__ import annotations

from itertools import product
from math import prod
from typing import NamedTuple

from sorry_rules.engine.option import MOVE


class Dice(NamedTuple):
    count: int              # dice thrown together
    faces: tuple            # the numbers on the faces of a die
    throws: tuple           # per throw (a card of the game): its faces, ascending
    names: tuple            # per throw: its name ("6", "3+5")
    bag: tuple              # per ordered outcome of the dice, as often as its weight: the index of its throw
    weights: tuple          # per face: how often it comes up against the others


def outcomes(count: int, faces: tuple, weights: tuple | None = None) -> Dice:
    """The throws of `count` dice with `faces` (of `weights`, left out all 1), named and
    ordered by their faces, and the bag of every ordered outcome."""
    weights = tuple(weights) if weights else (1,) * len(faces)
    throws = sorted({tuple(sorted(roll)) for roll in product(faces, repeat=count)},
                    key=lambda t: tuple(faces.index(f) for f in t))
    index = {t: i for i, t in enumerate(throws)}
    bag = tuple(index[tuple(sorted(faces[f] for f in roll))]
                for roll in product(range(len(faces)), repeat=count) for _ in range(prod(weights[f] for f in roll)))
    names = tuple("+".join(str(f) for f in t) for t in throws)
    return Dice(count, tuple(faces), tuple(throws), names, bag, weights)


def faces_text(faces, weights=None) -> str:
    """A die's faces for people: "1, 2, 3", or each with its chance when weights differ."""
    if not weights or len(set(weights)) == 1:
        return ", ".join(map(str, faces))
    return ", ".join(f"{face} at {weight}/{sum(weights)}" for face, weight in zip(faces, weights))


def facts(throw: tuple) -> tuple:
    """(total, doubles, faces) of a throw's faces."""
    return sum(throw), len(throw) > 1 and len(set(throw)) == 1, throw


def spend(gens: tuple, whole):
    """The generator of a throw spent die by die (module contract)."""
    count = len(gens)

    def spent(pos, out):
        found: list = []   # (dice used, option)
        _spend(pos, gens, tuple(range(count)), None, 0, found)
        if whole is not None:
            options: list = []
            whole(pos, options)
            found.extend((count, o) for o in options if o[3] is MOVE)
        most = max((used for used, _ in found), default=0)
        out.extend(option for used, option in found if used == most)
    return spent


def _spend(pos, gens: tuple, left: tuple, before, used: int, found: list) -> None:
    """Every way to play the dice `left` (indices into `gens`) after `before` (the option of
    the dice played so far, made on `pos`, or None), each way recorded with the dice it used."""
    tried = set()
    for i in left:
        gen = gens[i]
        if gen in tried:  # two dice showing one face: the same ways
            continue
        tried.add(gen)
        options: list = []
        gen(pos, options)
        rest = tuple(j for j in left if j != i)
        for option in options:
            if option[3] is not MOVE or not option[1]:
                continue
            joined = option if before is None else before._replace(
                events=before[1] + option[1], flags=before[2] | option[2], key=before[4] + option[4])
            found.append((used + 1, joined))
            if rest:
                undo = pos.make(option[1])
                try:
                    _spend(pos, gens, rest, joined, used + 1, found)
                finally:
                    pos.unmake(option[1], undo)
