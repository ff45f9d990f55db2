"""The DSL's nodes (`dsl.ast`) compare, hash and print as frozen dataclasses do, though they
share one implementation of those (`ByFields`) instead of generated ones."""

from __future__ import annotations

import dataclasses

import pytest

from sorry_rules.dsl import ast as nodes

CLASSES = [cls for cls in vars(nodes).values() if isinstance(cls, type) and dataclasses.is_dataclass(cls)]


def _twin(cls):
    """The same fields as a plain `@dataclass(frozen=True)` of the same name."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default) if f.default is not dataclasses.MISSING else
               dataclasses.field()) for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, frozen=True)
    twin.__qualname__ = cls.__qualname__
    return twin


@pytest.mark.parametrize("cls", CLASSES, ids=[cls.__name__ for cls in CLASSES])
def test_a_node_behaves_as_a_frozen_dataclass(cls):
    assert len(CLASSES) > 25
    twin = _twin(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    for seed in range(3):
        values = [seed + i if name == "pos" else (f"v{seed}", i) for i, name in enumerate(names)]
        node, same, other = cls(*values), cls(*values), cls(*([values[0] + 1] + values[1:]))
        assert repr(node) == repr(twin(*values))
        assert hash(node) == hash(twin(*values)) == hash(same)
        assert node == same and node != other and (node == other) is False
        assert node != twin(*values) and node.__eq__(object()) is NotImplemented
        with pytest.raises(dataclasses.FrozenInstanceError):
            node.pos = 5
        assert dataclasses.replace(node, pos=values[0]) == node
        assert {node: 1}[same] == 1
