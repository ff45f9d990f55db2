"""Where the bundled data lives: `variants/` and `grammar/`.

In a wheel they are installed as `sorry_rules/_data/{variants,grammar}`; in a source checkout
(editable install, tests) they are the repository's top-level folders. Nothing else in the
package knows these paths.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # the sorry_rules package


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """The bundled folder `name` ("variants" or "grammar")."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def grammar_text() -> str:
    return (data_dir("grammar") / "sorry.lark").read_text(encoding="utf-8")


def variants_dir() -> Path:
    return data_dir("variants")
