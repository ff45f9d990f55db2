"""Load a variant: find the file, read it safely, merge `extends:` overlays, validate the schema.

Merge semantics (docs/REFERENCE.md, "Overlays"): a file's `extends:` names one base file or a
list of them (resolved relative to the file, then among the bundled variants). Bases merge in
order, then the file itself goes on top. A mapping merges key by key into the mapping below
it; any other value (text, number, list) replaces the value below; `null` removes the key
(so the field falls back to its default). `extends` itself never reaches the merged data.
`--rule` overlays given on the command line go on top of the variant in the order given.
A base that is already part of the merge is not merged again: `--variant partnership --rule
house/x.yaml` with `x` extending `standard` keeps partnership's changes to standard. Under
`--rule` a base that is a game of its own (it has `name:`) is never merged: an overlay
brings only its own changes (and those of the overlays it extends) onto the variant chosen,
so `--variant ludo --rule house/quick-game.yaml` is Ludo with the quick game's `win:`.

Contract: `load_variant` returns a `LoadedVariant` or raises `RuleFileError` with every
problem found, each located at `file:line:col` in the file the offending value came from,
or `UsageError` when the variant or an overlay it was asked for names no file (with the
close bundled names and the list of them), or names a whole game (`name:` and no
`extends:`) as a `--rule` overlay. `read_merged` stops before the schema: it returns whatever could be merged
with the problems found (for `sorry-play validate`) and raises only those `UsageError`s.
`schema_problems` turns pydantic errors of any model into located, coded problems (rule
files and position files alike). Files are read only inside
`locate.rule_roots` (the working directory's tree, the named files' folders, the allowed
ones): a file elsewhere, links followed, is SR403 at the `extends:` naming it and is never
opened; a mapping with none of a rule file's fields is SR404 (named, nothing of it shown); a
name or label holding a line break or a tab is SR204 (`one_line_texts`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError, UsageError
from sorry_rules.base import limits
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.rules import loadcache
from sorry_rules.rules.patterns import NAME_PATTERN
from sorry_rules.rules.loaded import LoadedVariant  # noqa: F401 (defined there, light; used from here)
from sorry_rules.rules.locate import (  # noqa: F401 (also used from here)
    POSITION_FIELDS, TOP_FIELDS, bundled_names, close_bundled, display_name, not_found, outside_roots, resolve, rule_roots,
)
from sorry_rules.rules.yamlsafe import Mark, SourceMap, load_yaml, read_yaml_bytes

MAX_EXTENDS_DEPTH = limits.MAX_EXTENDS_DEPTH


@dataclass
class Origins:
    """For every path of the merged data, the SourceMap of the file that supplied it; for a
    mapping that an overlay gave new entries (`grown`), the SourceMap of the file that wrote
    the last entry it added; for a mapping an overlay changed inside (`changed`), the
    SourceMap of the last file that did; and the files in the order they were merged, the
    last on top (`order`)."""

    maps: dict[tuple, SourceMap] = field(default_factory=dict)
    fallback: str = "<rules>"
    grown: dict[tuple, SourceMap] = field(default_factory=dict)
    changed: dict[tuple, SourceMap] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def __post_init__(self):
        if not self.order:
            self.order = [smap.file for smap in self.maps.values()][:1]

    def _smap(self, path: tuple) -> SourceMap | None:
        path = tuple(path)
        while path and self.maps.get(path) is None:
            path = path[:-1]
        return self.maps.get(path)

    def mark(self, path) -> Mark:
        smap = self._smap(tuple(path))
        return smap.locate(tuple(path)) if smap else Mark(self.fallback, 1, 1)

    def key_mark(self, path) -> Mark:
        smap = self._smap(tuple(path))
        mark = smap.key_mark(tuple(path)) if smap else None
        return mark or self.mark(path)

    def changed_mark(self, path) -> Mark:
        """Where the entry at `path` was last written: its key in the last overlay that changed
        something inside it (what it changed is its own), else `key_mark`."""
        smap = self.changed.get(tuple(path))
        mark = smap.key_mark(tuple(path)) if smap else None
        return mark or self.key_mark(path)

    def grown_mark(self, path) -> Mark:
        """Where the mapping at `path` was last given new entries: in the last overlay that
        added some (a mapping with too many entries is said there), else `mark`."""
        smap = self.grown.get(tuple(path))
        return smap.locate(tuple(path)) if smap else self.mark(path)

    def in_text(self, path, offset: int) -> Mark:
        """Position of character `offset` of the DSL text stored at `path`."""
        smap = self._smap(tuple(path))
        return smap.position_in_scalar(tuple(path), offset) if smap else Mark(self.fallback, 1, 1)

    def cut_at_comma(self, path) -> bool:
        """Whether the DSL text at `path` was cut by a comma of `{...}` or `[...]` (`SourceMap.cut_at_comma`)."""
        smap = self._smap(tuple(path))
        return smap is not None and smap.cut_at_comma(tuple(path))

    def latest(self, paths) -> tuple:
        """The one of `paths` that the file merged last wrote (the first of them on a tie): where
        a problem between two fields is said, so that an overlay's change is said in the
        overlay. A path no file wrote counts as written by the file that wrote its nearest
        parent."""
        def rank(path) -> int:
            smap = self._smap(tuple(path))
            return self.order.index(smap.file) if smap is not None and smap.file in self.order else -1
        return max(paths, key=rank)

    def replace_subtree(self, path: tuple, smap: SourceMap) -> None:
        for known in [p for p in self.maps if p[: len(path)] == path]:
            del self.maps[known]
        self.maps[path] = smap


class _Reader:
    """Reads one file and its `extends:` chain, collecting problems."""

    def __init__(self, problems: ProblemCollector, name_of=None, roots: tuple = ()):
        self.problems = problems
        self.name_of = name_of or display_name
        self.roots = roots
        self.files: list[str] = []
        self.included: set[Path] = set()  # every file merged so far, bases included
        self.inputs: list[tuple[str, str | None]] = []  # (file, SHA-256 of the bytes parsed, None: unreadable)
        self.lookups: list[tuple[str, str, str | None]] = []  # (an `extends:` name, the folder, the file it found)
        self.whole_games: set[Path] = set()  # files read that make a game from nothing (name:, no extends:)

    def read(self, path: Path, stack: tuple[Path, ...], at: Mark | None = None,
             overlay: bool = False) -> tuple[dict | None, Origins]:
        """The data of `path` with its bases merged under it; `at`: the `extends:` entry naming
        it; `overlay`: `path` is a `--rule` overlay (or a base of one), whose bases that are
        games of their own (`name:`) are not merged: its changes go on the variant chosen."""
        name = self.name_of(path)
        origins = Origins(fallback=name)
        resolved = path.resolve()
        if outside_roots(path, self.roots):
            self.problems.add_at(at or Mark(name, 1, 1), "SR403", f"{name} is not read: it lies outside the working "
                                 "directory's tree and the folders of the files named on the command line (widen them "
                                 "with --rules-root DIR)")
            return None, origins
        try:
            raw = read_yaml_bytes(path, name)
        except RuleFileError as error:
            self.inputs.append((str(resolved), None))
            self.problems.extend(error.problems)
            return None, origins
        self.inputs.append((str(resolved), hashlib.sha256(raw).hexdigest()))
        try:
            data, smap = load_yaml(raw, name)
        except RuleFileError as error:
            self.problems.extend(error.problems)
            return None, origins
        self.files.append(name)
        self.included.add(resolved)
        if isinstance(data, dict) and "name" in data and "extends" not in data:
            self.whole_games.add(resolved)
        if data is None:
            data = {}
        if not isinstance(data, dict):
            self.problems.add_at(smap.locate(()), "SR203", "a rule file must be a mapping of fields")
            return None, origins
        if data and not TOP_FIELDS & set(data):
            self.problems.add(name, 1, 1, "SR404", f"{name} is not a rule file (none of its {len(data)} keys is a field "
                                                   "of a rule file)")
            return None, origins
        if _a_position(data):
            self.problems.add(name, 1, 1, "SR404", f"{name} is a position file, not a rule file: list its moves with "
                                                   f"`sorry-play moves --state {name}`")
            return None, origins
        for where in one_line_texts(data):
            self.problems.add_at(smap.locate(where), "SR204", f"{'.'.join(map(str, where))}: a name or label is one "
                                 "line of text (no line break or tab)")
        merged, origins = self._bases(path, data, smap, stack, origins, overlay)
        own = {k: v for k, v in data.items() if k != "extends"}
        return on_top(merged, origins, own, Origins(maps={(): smap}, fallback=name))

    def _bases(self, path: Path, data: dict, smap, stack: tuple, origins: Origins, overlay: bool) -> tuple:
        """(the merge of the bases `data`'s `extends:` names, their origins): `read` for each."""
        name = self.name_of(path)
        extends = data.get("extends")
        bases = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
        if extends is not None and not (isinstance(extends, (str, list)) and all(isinstance(b, str) for b in bases)):
            self.problems.add_at(smap.locate(("extends",)), "SR203", "extends: expected a file name or a list of file names")
            bases = []
        merged: dict | None = None
        for index, base in enumerate(bases):
            mark = smap.locate(("extends",) if isinstance(extends, str) else ("extends", index))
            if not base.strip():
                self.problems.add_at(mark, "SR203", "extends: an empty name; write the file or bundled variant to build on")
                continue
            target = resolve(base, path.parent)
            self.lookups.append((base, str(path.parent), None if target is None else str(target)))
            if target is None:
                self._not_found(base, path, name, mark)
                continue
            if target.resolve() in stack:
                chain = " -> ".join(self.name_of(p) for p in stack + (target.resolve(),))
                self.problems.add_at(mark, "SR402", f"extends cycle: {chain}")
                continue
            if target.resolve() in self.included:
                continue  # already part of the merge (e.g. an overlay's base under --rule)
            if len(stack) >= MAX_EXTENDS_DEPTH:
                self.problems.add_at(mark, "SR402", f"extends chain deeper than {MAX_EXTENDS_DEPTH} files")
                continue
            files, included = len(self.files), set(self.included)
            base_data, base_origins = self.read(target, stack + (target.resolve(),), mark, overlay)
            if overlay and base_data is not None and "name" in base_data:
                del self.files[files:]  # a game under a --rule overlay: not part of the merge
                self.included = included
                continue
            if base_data is not None:
                merged, origins = on_top(merged, origins, base_data, base_origins)
        return merged, origins


    def _not_found(self, base: str, path: Path, name: str, mark: Mark) -> None:
        """`extends:` names no regular file: SR100 when something else stands there (a FIFO,
        a device, a folder; never opened for reading), else SR401."""
        there = path.parent / base
        if os.path.lexists(there):
            try:
                read_yaml_bytes(there, base)  # refused before any read: the reason it is no rule file
            except RuleFileError as error:
                self.problems.add_at(mark, "SR100", f"extends: {error.problems[0].message}")
                return
        self.problems.add_at(mark, "SR401", f"extends: no rule file {base!r} (looked beside {name} and among the "
                             f"bundled variants){close_bundled(base)}")


#: Keys whose text values are shown as one line (names and labels), and the board's cell names.
_ONE_LINE_KEYS = frozenset({"name", "description", "label", "free", "symbol"})
_BREAKS = re.compile("[\t\n\r\x85\u2028\u2029]")


def one_line_texts(data: dict) -> list[tuple]:
    """Paths of the texts of a rule file's data that are shown as one line (every `name`,
    `description` and `label`, the board's `columns`, `rows`, `cells` and `free`) and hold a
    line break or a tab. Iterative (the data may be nested as deep as the YAML limit)."""
    found = []
    stack = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + (k,), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((path + (i,), v) for i, v in enumerate(node))
        elif isinstance(node, str) and _BREAKS.search(node) and _shown_as_one_line(path):
            found.append(path)
    return sorted(found, key=lambda p: [str(x) for x in p])


def _shown_as_one_line(path: tuple) -> bool:
    keys = [k for k in path if isinstance(k, str)]
    if keys and keys[-1] in _ONE_LINE_KEYS:
        return True
    return len(path) >= 2 and path[0] == "board" and path[1] in ("columns", "rows", "cells")


def data_path(data, loc) -> tuple:
    """(the path that exists in `data` of a pydantic error location `loc` (union tags and
    members dropped), the name of the missing field there or None)."""
    path: list = []
    node = data
    last = len(loc) - 1
    tagged = None  # the mapping whose union tag was skipped: pydantic puts at most one after it
    for index, part in enumerate(loc):
        # a union's tag is the value of a field of the mapping, even where a field has its name
        # (turn.dice.hand_size: `source: dice`; scoring.s.tiers.tiers: `kind: tiers`)
        tag = isinstance(node, dict) and index < last and node is not tagged and part in node.values()
        if isinstance(node, dict) and part in node and not tag:
            path.append(part)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not part.endswith("]") and index == last:
            return tuple(path), part  # the missing field
        elif tag:
            tagged = node
        # any other part is a union member ("DrawTurn", "function-after[...]"): skipped
    return tuple(path), None


def schema_problems(data: dict, origins: Origins, error, model=None) -> list[Problem]:
    """Turn pydantic errors (a `ValidationError`) of `model` (a pydantic model class,
    default `rules.model.Variant`) validated from `data` into located problems with stable
    codes; an unknown field names the known fields there and the close one."""
    if model is None:
        from sorry_rules.rules.model import Variant  # lazy: pydantic only when there is a schema problem

        model = Variant
    problems = ProblemCollector(origins)
    items = error.errors(include_url=False)
    alternatives: dict = {}  # a value that no member of a union (a number or a word) takes: one problem
    for item in items:
        path, missing = data_path(data, tuple(item["loc"]))
        if missing is None and item["type"] in _ALTERNATIVE:
            alternatives.setdefault(path, []).append(item)
    said = set()
    for item in _meant(data, items):
        loc = tuple(item["loc"])
        path, missing = data_path(data, loc)
        dotted = ".".join(str(p) for p in path) or "the file"
        kind = item["type"]
        if len(alternatives.get(path, ())) > 1:
            if path not in said:
                said.add(path)
                problems.at(path, "SR204", _alternatives_problem(dotted, alternatives[path]))
        elif kind == "missing":
            _missing_problem(problems, origins, path, missing if missing is not None else str(loc[-1]), dotted)
        elif kind in ("union_tag_not_found", "union_tag_invalid"):  # the field that says which kind of mapping
            field_name, code, message = _tag_problem(item, dotted)
            problems.at(path + (field_name,) if code == "SR204" else path, code, message)
        elif kind == "extra_forbidden":
            problems.at(path, "SR202", _unknown_field(model, loc, path), key=True)
        elif kind in ("model_type", "dict_type"):  # pydantic names the model, or "a valid dictionary": say what to write
            fields = " of its fields" if kind == "model_type" else ""
            problems.at(path, "SR203", f"{dotted}: write a mapping{fields} (name: value), not "
                        f"{_kind_of_value(item.get('input'))}")
        elif kind == "string_pattern_mismatch":  # pydantic shows the regular expression: say it in words
            given = item.get("input")
            shown = f", not {given!r}" if isinstance(given, str) and len(given) <= 40 else ""
            what = _PATTERN_WORDS.get(str((item.get("ctx") or {}).get("pattern")), item["msg"])
            problems.at(path, "SR204", f"{dotted}: write {what}{shown}")
        elif kind in ("too_long", "too_short"):  # pydantic's words say "after validation"
            _length_problem(problems, origins, item, path, dotted)
        elif kind.endswith("_type") or kind in {"model_attributes_type", "dict_type", "list_type"}:
            problems.at(path, "SR203", f"{dotted}: {item['msg']}{_what_to_write(kind, item.get('input'), path)}")
        else:
            problems.at(path, "SR204", _value_problem(item, dotted, path))
    return problems.problems


def _missing_problem(problems: ProblemCollector, origins, path: tuple, field_name: str, dotted: str) -> None:
    """SR201 for `field_name` missing in the mapping at `path`: where an overlay took it away
    with null, else at the key of the mapping in the last overlay that changed it (a change
    there made the field required), else at the mapping."""
    message = f"{dotted}: required field '{field_name}' is missing"
    removed = path + (field_name,)
    if removed in getattr(origins, "maps", {}):
        problems.at(removed, "SR201", message + " (removed here with null)")
    elif path in getattr(origins, "changed", {}):
        problems.add_at(origins.changed_mark(path), "SR201", message)
    else:
        problems.at(path, "SR201", message)


def _length_problem(problems: ProblemCollector, origins, item: dict, path: tuple, dotted: str) -> None:
    """A list or mapping with too many or too few items, in words; too many entries of a
    mapping are said where the last overlay that added some writes it (`Origins.grown_mark`)."""
    kind, ctx = item["type"], item.get("ctx") or {}
    bound = ctx.get("max_length") if kind == "too_long" else ctx.get("min_length")
    noun = (("entry", "entries") if ctx.get("field_type") == "Dictionary" else ("item", "items"))[bound != 1]
    given = f", not {ctx['actual_length']}" if ctx.get("actual_length") is not None else ""
    text = f"{dotted}: {'at most' if kind == 'too_long' else 'at least'} {bound} {noun}{given}"
    grown = getattr(origins, "grown_mark", None)
    if kind == "too_long" and grown is not None:
        problems.add_at(grown(path), "SR204", text)
    else:
        problems.at(path, "SR204", text)


def _meant(data: dict, items: list) -> list:
    """The pydantic errors `items` without a wrong-type error of a value that other errors
    look inside: a union's other member (a list, a mapping) was meant, and its own errors
    say what is wrong (`capture: [enter, switch]` is no "valid boolean")."""
    paths = [data_path(data, tuple(item["loc"]))[0] for item in items]
    return [item for item, path in zip(items, paths)
            if not (item["type"].endswith("_type") and any(len(o) > len(path) and o[:len(path)] == path for o in paths))]


#: the fields that hold a DSL text (a number there is a formula written without quotes)
_DSL_FIELDS = frozenset({"points", "when", "win", "effect", "must", "prefer", "then"})

#: the patterns of the models' texts, in words (`string_pattern_mismatch`)
_PATTERN_WORDS = {
    NAME_PATTERN: "a name: ASCII letters, digits and _, and after the first character also space, !, ', . and - "
                  "(not at the end)",
    r"^[!-~]$": "one printable ASCII character other than a space",
    r"^[a-z_][a-z0-9_]*$": "a word of lower-case ASCII letters, digits and _, not starting with a digit",
}

#: the errors of one member of a union of kinds of value (a number or a word), per value
_ALTERNATIVE = {"literal_error", "int_type", "int_parsing", "greater_than_equal", "less_than_equal", "greater_than",
                "less_than", "bool_type", "string_type", "list_type"}


def _alternatives_problem(dotted: str, items: list) -> str:
    """One message for a value that every member of a union refused: what each takes."""
    ways = []
    for item in items:
        kind, ctx = item["type"], item.get("ctx") or {}
        if kind == "literal_error":
            way = f"one of {ctx.get('expected', '')}"
        elif kind in ("greater_than_equal", "greater_than"):
            way = f"a whole number from {ctx.get('ge', ctx.get('gt'))}"
        elif kind in ("less_than_equal", "less_than"):
            way = f"a whole number up to {ctx.get('le', ctx.get('lt'))}"
        elif kind.startswith("int"):
            way = "a whole number"
        elif kind == "bool_type":
            way = "true or false"
        elif kind == "list_type":
            way = "a list"
        else:
            way = item["msg"].removeprefix("Input should be ")
        if way not in ways:
            ways.append(way)
    given = items[0].get("input")
    if isinstance(given, str) and given.strip().lstrip("+-").isdigit():
        shown = f" (write {given.strip()} without quotes)"
    else:
        shown = _not_given(given)
    words = [w for item in items if item["type"] == "literal_error" for w in literal_words(item)]
    words += ["true", "false"] if any(item["type"] == "bool_type" for item in items) else []
    close = did_you_mean(given, words) if isinstance(given, str) else ""
    return f"{dotted}: write {', or '.join(ways)}{shown}{close}"


def _tag_problem(item: dict, dotted: str) -> tuple[str, str, str]:
    """(the tag field, code, message) of a mapping whose tag field (`turn.source`, `scoring.bonus.kind`) is
    missing (SR201) or names no kind (SR204, with the kinds and the close one)."""
    ctx = item.get("ctx", {})
    given = item.get("input")
    tags = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",") if t.strip()]
    named = str(ctx.get("discriminator", "")).strip("'")
    if item["type"] == "union_tag_not_found":
        return named, "SR201", f"{dotted}: required field '{named}' is missing (it says which kind this is)"
    tag = str(ctx.get("tag", ""))
    field_name = next((k for k, v in given.items() if str(v) == tag), named) if isinstance(given, dict) else named
    return field_name, "SR204", f"{dotted}.{field_name}: {tag!r} is not one of {', '.join(tags)}{did_you_mean(tag, tags)}"


#: What to write instead, by pydantic error type: the YAML 1.2 words these files take.
_WRITE = {"bool": "write true or false", "int": "write a whole number, e.g. 3", "float": "write a number, e.g. 0.5"}


#: What a YAML value is, in words, by its type (the first that fits).
_KIND_WORDS = ((list, "a list"), (dict, "a mapping"), (bool, "true or false"), ((int, float), "a number"),
               (str, "a text"))


def _kind_of_value(given) -> str:
    """"a list", "a text", ... : what a YAML value is, in words."""
    return next((words for kind, words in _KIND_WORDS if isinstance(given, kind)), "nothing" if given is None else "this value")


def _value_problem(item: dict, dotted: str, path: tuple) -> str:
    """The message of a value the schema refuses: pydantic's words, with the close word it
    takes (a word of a fixed list) or what to write."""
    given = item.get("input")
    if item["type"] == "literal_error" and isinstance(given, str):
        return f"{dotted}: {item['msg']}{did_you_mean(given, literal_words(item))}"
    bounds = {"greater_than_equal": "{} or more", "less_than_equal": "{} or less", "greater_than": "more than {}",
              "less_than": "less than {}"}
    if item["type"] in bounds and isinstance(given, (int, float)) and not isinstance(given, bool):
        bound = next(iter((item.get("ctx") or {}).values()), None)
        if bound is not None:
            return f"{dotted}: write {bounds[item['type']].format(bound)}, not {given}"
    # a model's own check (`ValueError` in a validator) says the rule; pydantic prefixes it
    return f"{dotted}: {item['msg'].removeprefix('Value error, ')}{_what_to_write(item['type'], given, path)}"


def _what_to_write(kind: str, given, path: tuple = ()) -> str:
    """'; write true or false, not 'yes'' after a message about a value of the wrong kind."""
    what = next((words for prefix, words in _WRITE.items() if kind in (f"{prefix}_type", f"{prefix}_parsing")), None)
    if kind == "string_type" and isinstance(given, bool) and path and path[-1] in _DSL_FIELDS:
        return f' (write "{str(given).lower()}" in quotes: a rule text, which YAML reads as true or false unquoted)'
    if kind == "string_type" and isinstance(given, (int, float)) and not isinstance(given, bool):
        if path and path[-1] in _DSL_FIELDS or len(path) == 2 and path[0] == "cards":  # a card's effect
            return f' (write "{given}" in quotes: a rule text, not a number)'
        if "cards" in path or tuple(path[:2]) == ("board", "cells"):
            return f' (write "{given}" in quotes: a card name, not a number)'
    if kind == "string_type" and isinstance(given, dict) and len(given) == 1:
        key, value = next(iter(given.items()))
        if isinstance(key, str) and isinstance(value, (int, str)) and not isinstance(value, bool):
            return f" (write {key}:{value} with no space after the colon: YAML reads '{key}: {value}' as a mapping)"
    if kind == "string_type":
        return f" (write a text, not {_kind_of_value(given)})"
    if kind == "list_type" and isinstance(given, str) and ", " in given:
        return f" (write [{given}] for a list of these items)" if len(given) <= 40 else " (write [...] around the items)"
    if kind == "list_type" and isinstance(given, (str, int)) and not isinstance(given, bool):
        one = given if isinstance(given, int) or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", given) else f'"{given}"'
        return f" (write [{one}] for a list of one)" if len(str(one)) <= 30 else " (write [...] around the items)"
    if what is None:
        return ""
    if isinstance(given, str) and given.strip().lower() in ("true", "false") and kind.startswith("bool") or \
            isinstance(given, str) and given.strip().lstrip("+-").replace(".", "", kind.startswith("float")).isdigit():
        return f" (write {given.strip()} without quotes)"
    return f" ({what}{_not_given(given)})"


def _not_given(given) -> str:
    """", not 'yes'": the value refused as the file spells it (`true`, not `True`), when short."""
    if isinstance(given, bool):
        return f", not {str(given).lower()}"
    return f", not {given!r}" if isinstance(given, (str, int, float)) and len(repr(given)) <= 30 else ""


def literal_words(item: dict) -> list[str]:
    """The words a `literal_error` says the value should be."""
    return re.findall(r"'([^']*)'", str((item.get("ctx") or {}).get("expected", "")))


def _unknown_field(model, loc: tuple, path: tuple) -> str:
    from sorry_rules.rules.fields import known_fields, other_kinds  # lazy: pydantic only when there is a schema problem

    name = str(path[-1] if path else loc[-1])
    where = ".".join(str(p) for p in path[:-1]) or "the file"
    known = known_fields(model, loc[:-1])
    kinds = other_kinds(model, loc[:-1], name)
    elsewhere = f"; it is a field only with {' or '.join(kinds)}" if kinds else ""
    if not known:
        return f"unknown field '{name}' in {where}{elsewhere}"
    return f"unknown field '{name}' in {where}{elsewhere or did_you_mean(name, known)} (fields: {', '.join(known)})"


def _a_position(data: dict) -> bool:
    """Whether a mapping read as a rule file is a position file: only its fields, and pawns
    or chips given per colour (a rule file's `pawns` is a number) or a card or hand held."""
    return set(data) <= POSITION_FIELDS and (isinstance(data.get("pawns"), dict) or isinstance(data.get("chips"), dict)
                                              or "card" in data or "hand" in data)


@dataclass
class Merged:
    """The merged data of a variant and its overlays before schema validation.

    `data` is None when not even the first file could be read; `problems` holds every
    reading, YAML and `extends:` problem (the merge goes on without the files that failed).
    `inputs` and `lookups` are what the result depends on (for the caches): every file read
    with the SHA-256 of the bytes parsed (None: unreadable), and every `extends:` name looked
    up as (name, folder, the file found or None)."""

    data: dict | None
    origins: Origins
    files: tuple[str, ...]
    problems: list[Problem]
    inputs: tuple = ()
    lookups: tuple = ()


def read_merged(spec: str | Path, rules: tuple[str | Path, ...] | list = (), layers: tuple = (), name_of=None) -> Merged:
    """Read and merge variant `spec` (a path or bundled name), `rules` overlays on top, then
    in-memory `layers` ((data, SourceMap) pairs, used by tests). Never raises RuleFileError;
    raises UsageError when `spec` or an overlay names no file (`not_found`), or an overlay is
    a whole game (`name:` and no `extends:`).
    `name_of(path)` names files in problems (default `display_name`). Only files inside
    `locate.rule_roots([spec, *rules])` are read (others: SR403), and a file that is not a
    rule file is reported by name only (SR404), never its contents."""
    problems = ProblemCollector()
    reader = _Reader(problems, name_of, rule_roots([spec, *rules]))
    merged: dict | None = None
    origins = Origins()
    paths = [resolve(str(item)) for item in [spec, *rules]]
    for index, (item, path) in enumerate(zip([spec, *rules], paths)):
        if path is None:
            raise UsageError(not_found(str(item), "variant" if index == 0 else "rule overlay"))
    for index, path in enumerate(paths):
        data, file_origins = reader.read(path, (path.resolve(),), overlay=index > 0)
        if index > 0 and path.resolve() in reader.whole_games:
            item = [spec, *rules][index]
            raise UsageError(f"{item} is a whole game (it has name: and extends nothing), not a house-rule overlay: "
                             f"play it with --variant {item}")
        if data is not None:
            merged, origins = on_top(merged, origins, data, file_origins)
    for data, smap in layers:
        if data is None:
            data = {}  # an empty layer, like an empty file
        if not isinstance(data, dict):
            problems.add_at(smap.locate(()), "SR203", "a rule file must be a mapping of fields")
            continue
        merged, origins = on_top(merged, origins, data, Origins(maps={(): smap}, fallback=smap.file))
    return Merged(merged, origins, tuple(reader.files), problems.problems, tuple(reader.inputs), tuple(reader.lookups))


#: top-level fields every overlay may write for itself (its own words), never a conflict
_OWN_FIELDS = frozenset({"description"})


def overlay_conflicts(spec: str | Path, rules: tuple[str | Path, ...] | list, name_of=None) -> list[Problem]:
    """Warnings (SR405) for overlays among `rules` that set one field to different values:
    the later one is played (`read_merged`), which an author combining overlays may not
    expect. A field is a leaf of an overlay's own data (its non-game bases included): a
    scalar, a list, or `null` (removed); an overlay that replaces a mapping the other writes
    into conflicts with it too. Each is said at the later overlay's key, naming the earlier
    one's. Never raises: a file that cannot be read is left out (loading reports it)."""
    roots = rule_roots([spec, *rules])
    written = []
    for item in rules:
        path = resolve(str(item))
        if path is None:
            continue
        reader = _Reader(ProblemCollector(), name_of, roots)
        data, origins = reader.read(path, (path.resolve(),), overlay=True)
        if isinstance(data, dict):
            own = _leaves({k: v for k, v in data.items() if k not in _OWN_FIELDS})
            written.append((own, origins, path.resolve(), frozenset(reader.included)))
    problems = ProblemCollector()
    for later in range(1, len(written)):
        leaves, origins, _, chain = written[later]
        for earlier_leaves, earlier_origins, earlier_path, _ in written[:later]:
            if earlier_path in chain:  # the later overlay builds on the earlier one: its changes are meant
                continue
            for path, value in leaves.items():
                clash = _clash(path, value, earlier_leaves)
                if clash is None:
                    continue
                other = earlier_origins.key_mark(clash)
                field = ".".join(map(str, path))
                problems.add_at(origins.key_mark(path), "SR405",
                                f"{field} is {_shown(value)} here, but {other.file}:{other.line}:{other.col} sets "
                                f"{'.'.join(map(str, clash))} to {_shown(earlier_leaves[clash])}: the later --rule "
                                "wins, so this one is played", severity="warning")
    return problems.problems


def _leaves(data, path: tuple = ()) -> dict:
    """{path: value} of every leaf of `data`: a value that is not a mapping (an empty mapping
    is a leaf too)."""
    if isinstance(data, dict) and data:
        return {leaf: value for key, child in data.items() for leaf, value in _leaves(child, path + (key,)).items()}
    return {path: data}


def _clash(path: tuple, value, earlier: dict) -> tuple | None:
    """The path of `earlier`'s leaves that `value` at `path` overrides with something else:
    the same path with another value, a leaf above it, or one below it; None: none."""
    if path in earlier:
        return None if earlier[path] == value else path
    for depth in range(len(path) - 1, 0, -1):
        if path[:depth] in earlier:
            return path[:depth]
    return next((other for other in earlier if other[: len(path)] == path), None)


def _shown(value) -> str:
    """A leaf's value in a warning: its JSON text (cut after 57 characters), or 'null (removed)'."""
    if value is None:
        return "null (removed)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else f"{text[:57]}..."


def content_hash(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def load_variant(spec: str | Path, rules: tuple[str | Path, ...] | list = (), layers: tuple = (),
                 plain: bool = False) -> LoadedVariant:
    """Load variant `spec` (a path or bundled name) with `rules` overlays on top, then
    in-memory `layers` ((data, SourceMap) pairs, used by tests). Raises RuleFileError.
    Without layers, a variant whose files are unchanged since it was last validated comes
    from the cache (`rules.loadcache`: equal models, the source map read again on first use),
    and so does one whose files changed but merge to data validated before (an edited
    comment, a reformatted file: `loadcache.validated`), or differs from the data of the
    variant cached for the same names in plain values only (a number, a word, a DSL text:
    `loadcache.edited`, decided without pydantic). With `plain`, a variant from the
    cache has its models as plain values (`rules.plain`: for the compiler, which only reads
    them; neither pydantic nor the models are imported then)."""
    rules = tuple(rules)
    if not layers:
        hit = loadcache.cached(spec, rules, lambda: read_merged(spec, rules).origins, plain)
        if hit is not None:
            return LoadedVariant(*hit)
    merged = read_merged(spec, rules, layers)
    if any(p.severity == "error" for p in merged.problems):
        raise RuleFileError(merged.problems)
    assert merged.data is not None
    found = None if layers else loadcache.validated(merged.data, plain) or loadcache.edited(spec, rules, merged.data, plain)
    if found is not None:
        variant, encoded = found
    else:
        # lazy: pydantic and the models only for data not validated before
        from pydantic import ValidationError

        from sorry_rules.rules.model import Variant

        try:
            variant = Variant.model_validate(merged.data)
        except ValidationError as error:
            raise RuleFileError(schema_problems(merged.data, merged.origins, error)) from None
        encoded = None if layers else loadcache.keep_validated(merged.data, variant)
        if not layers:
            loadcache.keep_table()
    loaded = LoadedVariant(variant, merged.origins, merged.files, merged.data, content_hash(merged.data))
    if not layers:
        loadcache.store(spec, rules, loaded, merged.inputs, merged.lookups, encoded)
    return loaded


def on_top(merged: dict | None, origins: Origins, data: dict, layer: Origins) -> tuple[dict, Origins]:
    """Stack overlay `data` (positions in `layer`) on `merged` (None: nothing yet; positions
    in `origins`, updated in place) with the semantics in the module docstring: the merged
    data and its positions."""
    if merged is None:
        return data, layer
    origins.order.extend(file for file in layer.order if file not in origins.order)

    def walk(base, over, path):
        if isinstance(base, dict) and isinstance(over, dict):
            result = dict(base)
            for key, value in over.items():
                child = path + (key,)
                if value is None:
                    result.pop(key, None)
                    origins.replace_subtree(child, layer._smap(child))
                elif key in result:
                    result[key] = walk(result[key], value, child)
                    if isinstance(value, dict) and layer._smap(child) is not None:
                        origins.changed[child] = layer.changed.get(child) or layer._smap(child)
                else:
                    result[key] = value
                    _copy_origins(child)
                    added_by = layer._smap(child)  # the file that wrote the entry (the layer may be a chain)
                    if path and added_by is not None:
                        origins.grown[path] = added_by
            return result
        _copy_origins(path)
        return over

    def _copy_origins(path):
        origins.replace_subtree(path, layer._smap(path))
        for sub in [p for p in origins.changed if p[: len(path)] == path]:
            del origins.changed[sub]
        origins.changed.update({sub: smap for sub, smap in layer.changed.items() if sub[: len(path)] == path})
        for sub, smap in layer.maps.items():
            if len(sub) > len(path) and sub[: len(path)] == path:
                origins.maps[sub] = smap

    return walk(merged, data, ()), origins
