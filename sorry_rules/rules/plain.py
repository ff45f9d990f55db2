"""Rule-file model values without pydantic: what a cached variant is rebuilt as for compiling.

A variant loaded from the cache (`rules.loadcache.cached(..., plain=True)`) was validated when
it was stored, and nothing it depends on has changed since; the compiler only reads its
fields. So it need not be rebuilt as pydantic models (importing pydantic and building the
models costs more than the rest of a `sorry-play moves` run): each model value becomes a
`PlainModel`, an instance of a class named as the model (`plain_class("...model.Variant")`
is named `Variant`), with every field of the model as a read-only attribute holding the same
value (lists, dicts, tuples and other plain models as stored).

Contract: a `PlainModel` has the attributes its model has fields (by their Python names, so
`from_` for `from`), no others, and cannot be changed; two are equal when they are of the same
model with equal values, and hash as frozen models do (the values' hash; TypeError for a
list or dict). Nothing here imports pydantic.
"""

from __future__ import annotations

#: The models a cache entry may name (every subclass of `rules.strict.Strict`, as
#: `rules.loadcache` names them; a test keeps the two lists equal).
MODELS = frozenset((
    "sorry_rules.rules.geometry.Geometry", "sorry_rules.rules.geometry.GeometryBlocker",
    "sorry_rules.rules.geometry.GeometryTurn", "sorry_rules.rules.model.Board", "sorry_rules.rules.model.DiceTurn",
    "sorry_rules.rules.model.DrawTurn",
    "sorry_rules.rules.model.FormulaScore", "sorry_rules.rules.model.GridBoard", "sorry_rules.rules.model.GridLines",
    "sorry_rules.rules.model.HandTurn", "sorry_rules.rules.model.PlayerCount", "sorry_rules.rules.model.Rules",
    "sorry_rules.rules.model.Setup", "sorry_rules.rules.model.Slide", "sorry_rules.rules.model.Tier",
    "sorry_rules.rules.model.TierScore", "sorry_rules.rules.model.TurnPolicy", "sorry_rules.rules.model.Variant",
    "sorry_rules.rules.squares.NamedSquare",
    "sorry_rules.rules.strict.Strict", "sorry_rules.rules.turns.HandAction", "sorry_rules.rules.turns.Others",
    "sorry_rules.rules.turns.Redraw", "sorry_rules.rules.vocab.Alternative", "sorry_rules.rules.vocab.Consequence",
    "sorry_rules.rules.vocab.Counter", "sorry_rules.rules.vocab.MarkKind", "sorry_rules.rules.vocab.MoveFilter",
))

_CLASSES: dict[str, type] = {}


class PlainModel:
    """The values of one validated rule-file model (module docstring)."""

    def __init__(self, values: dict):
        self.__dict__.update(values)

    def __setattr__(self, name, *value):
        raise AttributeError(f"{type(self).__name__} is frozen")

    __delattr__ = __setattr__

    def __eq__(self, other):
        return type(other) is type(self) and vars(other) == vars(self)

    def __hash__(self):
        return hash((type(self).__qualname__, *vars(self).values()))

    def __repr__(self):
        fields = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
        return f"{type(self).__name__}({fields})"


def plain_class(model: str) -> type:
    """The `PlainModel` class of the model named `model` (its module and qualified name,
    one of MODELS; KeyError for any other name)."""
    cls = _CLASSES.get(model)
    if cls is None:
        if model not in MODELS:
            raise KeyError(model)
        module, _, name = model.rpartition(".")
        cls = _CLASSES[model] = type(name, (PlainModel,), {"__module__": module or __name__, "__qualname__": name})
    return cls
