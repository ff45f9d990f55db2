"""Where the bundled data lives: `variants/` and `grammar/`; where caches may be written.

In a wheel they are installed as `sorry_rules/_data/{variants,grammar}`; in a source checkout
(editable install, tests) they are the repository's top-level folders. Nothing else in the
package knows these paths.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # the sorry_rules package


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """The bundled folder `name` ("variants" or "grammar")."""
    installed = _PACKAGE / "_data" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


def grammar_text() -> str:
    return (data_dir("grammar") / "sorry.lark").read_text(encoding="utf-8")


def variants_dir() -> Path:
    return data_dir("variants")


#: Environment variable naming the cache folder; empty or "off" turns caching off.
CACHE_ENV = "SORRY_RULES_CACHE_DIR"


def cache_dir() -> Path | None:
    """The user's cache folder of sorry-rules: $SORRY_RULES_CACHE_DIR if set (None when it
    is empty or "off": no cache), else $XDG_CACHE_HOME/sorry-rules, else
    ~/.cache/sorry-rules. Nothing is created here."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return None if chosen.strip() in ("", "off") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sorry-rules"
