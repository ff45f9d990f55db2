"""The DSL trees of a compiled variant kept on disk: the same rules compiled again need no parsing (nor lark).

Contract: `preload(files, content_hash)` hands `dsl.parser.remember` every (text, start) -> AST
that `store(files, content_hash, texts, asts)` kept for the variant read from `files` (its
files' names), whatever its content hash was then, and says whether the entry is of that very
content hash (the SHA-256 of its merged rule data, which holds every DSL text: then every text
is known, and the entry need not be written again). The ASTs are equal to what parsing gives
(`==`): parsing is a function of the text and of the code alone, and the entry names both (each
tree is stored with its text and start; `base.diskcache.code_fingerprint` is in the key). So
after an edit of the rules (a number changed, one card's effect rewritten) only the texts that
changed are parsed, and none at all when no DSL text changed (lark is then not imported).
One entry per set of files: a changed file replaces its entry. Only texts that parsed are kept;
a text that fails is parsed, and its error raised, every time.

An entry is JSON data only (`base.diskcache`: checksummed, ignored and rewritten when damaged):
a node as {"$n": its class name in `dsl.ast`, "f": [its fields in order]}, a tuple as
{"$t": [...]}, strings, numbers, booleans and None as themselves. Any other class name, or
fields that do not fit the class, make the whole entry a miss.
"""

from __future__ import annotations

import dataclasses

from sorry_rules.base import diskcache
from sorry_rules.dsl import ast as nodes
from sorry_rules.dsl.parser import remember

KIND = "dsl-trees"

#: The classes an entry may name: the dataclasses of `dsl.ast`.
CLASSES = {name: cls for name, cls in vars(nodes).items() if isinstance(cls, type) and dataclasses.is_dataclass(cls)}


def encode(value):
    """Tagged plain data of an AST value; TypeError for anything else."""
    if dataclasses.is_dataclass(value) and type(value) is CLASSES.get(type(value).__name__):
        return {"$n": type(value).__name__, "f": [encode(getattr(value, f.name)) for f in dataclasses.fields(value)]}
    if isinstance(value, tuple):
        return {"$t": [encode(v) for v in value]}
    if value is None or isinstance(value, (str, bool, int)):
        return value
    raise TypeError(f"cannot keep a {type(value).__name__}")


def decode(data):
    """The AST value `encode` gave `data` for; KeyError, TypeError or ValueError otherwise."""
    if not isinstance(data, dict):
        if isinstance(data, list) or isinstance(data, float):
            raise ValueError("not an AST value")
        return data
    if set(data) == {"$t"}:
        return tuple(decode(v) for v in data["$t"])
    if set(data) != {"$n", "f"}:
        raise ValueError("untagged mapping")
    cls = CLASSES[data["$n"]]
    values = [decode(v) for v in data["f"]]
    if len(values) != len(dataclasses.fields(cls)):
        raise ValueError(f"fields of {cls.__name__} changed")
    return cls(*values)


def _key(files) -> str:
    return diskcache.digest(KIND, diskcache.code_fingerprint(), *files)


def preload(files, content_hash: str) -> bool:
    """Remember the stored ASTs of the variant of `files` (of any content hash); whether the
    entry is of `content_hash` (every text of the variant is then known)."""
    if not diskcache.enabled():
        return False
    entry = diskcache.read(KIND, _key(files))
    try:
        exact = entry["content_hash"] == content_hash
        trees = [(text, start, decode(tree)) for text, start, tree in entry["trees"]]
    except (KeyError, TypeError, ValueError, RecursionError):  # none, or not of this shape: parse
        return False
    for text, start, tree in trees:
        if not isinstance(text, str) or start not in ("effect", "expr") or not isinstance(tree, nodes.Node):
            return False
    for text, start, tree in trees:
        remember(text, start, tree)
    return exact


def store(files, content_hash: str, texts, asts: dict) -> None:
    """Keep the ASTs of `texts` ((path, text, kind) as `build.dsl_texts`), `asts[path]` being
    each one's (None: it failed)."""
    if not diskcache.enabled():
        return
    trees = []
    try:
        for path, text, kind in texts:
            if asts.get(path) is not None:
                trees.append([text, "effect" if kind in ("effect", "following") else "expr", encode(asts[path])])
    except TypeError:
        return
    diskcache.write(KIND, _key(files), {"content_hash": content_hash, "trees": trees})
