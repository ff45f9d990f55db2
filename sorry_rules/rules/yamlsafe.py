"""Hardened YAML loading: rule-file bytes -> plain Python data + a map of source positions.

Contract: `load_yaml` / `load_yaml_file` return `(data, SourceMap)` where data is built only
from dict (str keys), list, str, int, float, bool and None, or raise `RuleFileError` carrying
every problem found (codes SR100-SR109, 1-based line/col). No other exception escapes on bad
input. Data is built from `yaml.parse()` events, so no YAML tag can construct a Python object.

Deliberate departures from PyYAML's defaults:
  * scalars follow the YAML 1.2 core schema (`no`/`on` are text, `060` is 60);
  * mapping keys are always the key's text (`1: x` gives key "1");
  * anchors/aliases, tags and multiple documents are rejected;
  * size, nesting depth, node count and scalar length are bounded;
  * no text holds a control character, not even written as an escape (`"\\e"`).
"""

from __future__ import annotations

import bisect
import gc
import os
import re
from dataclasses import dataclass, field

import yaml
from yaml.events import (AliasEvent, CollectionEndEvent, CollectionStartEvent, DocumentStartEvent, MappingStartEvent,
                         NodeEvent, ScalarEvent)

from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError
from sorry_rules.base import limits
from sorry_rules.base.diskcache import read_limited
from sorry_rules.rules.yamlwords import author_message

MAX_BYTES = limits.MAX_YAML_BYTES
MAX_DEPTH = limits.MAX_YAML_DEPTH
MAX_NODES = limits.MAX_YAML_NODES
MAX_SCALAR_CHARS = limits.MAX_SCALAR_CHARS

_LOADER = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
#: libyaml refuses nesting deeper than this itself; PyYAML's pure-Python scanner is quadratic
#: in flow nesting, so without libyaml we refuse such input before parsing.
_PRESCAN_DEPTH = 1000
#: what a file nested past `_PRESCAN_DEPTH` is told: the limit is MAX_DEPTH all the same
_TOO_DEEP = f"lists and mappings nested deeper than {MAX_DEPTH} levels (this file: more than {_PRESCAN_DEPTH})"

_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # line breaks as YAML (1.1) counts them
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: Characters no scalar may hold, escapes included: C0 controls but tab and line breaks, DEL,
#: C1 controls, the bidirectional overrides and isolates (text shown reversed), the invisible
#: marks that change no glyph but tell two names apart (zero-width space, direction marks,
#: word joiners, a byte order mark inside a text, tag characters) and the noncharacters.
#: Joiners that shape a script or an emoji (U+200C, U+200D) stay.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\u202a-\u202e\u2066-\u2069"
                      "\u200b\u200e\u200f\u061c\u2060-\u2064\ufeff\ufdd0-\ufdef\ufffe\uffff\U000e0000-\U000e007f]")
_WS = frozenset(" \t\r\n\x85\u2028\u2029")
_NULL = re.compile(r"null|Null|NULL|~|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_INTEGERS = ((_INT, 0, 10), (_OCT, 2, 8), (_HEX, 2, 16))  # (pattern, length of its prefix, base)
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")
_ESCAPES = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b",
    "f": "\x0c", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
    "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_SKIP_KEY = object()  # a mapping key whose value is checked but not stored


@dataclass(frozen=True)
class Mark:
    file: str
    line: int  # 1-based
    col: int  # 1-based


#: the longest key YAML reads on one line (a "simple key")
_SIMPLE_KEY_CHARS = 1024


def _long_key(line: str, column: int) -> int | None:
    """The length of the key that ends at `column` of `line` (where a ':' follows it), when it
    is longer than YAML reads (`_SIMPLE_KEY_CHARS`), else None."""
    if not 0 <= column < len(line) or line[column] != ":":
        return None
    start = max(line.rfind(sep, 0, column) for sep in "{[,") + 1
    if start == 0:
        start = len(line) - len(line.lstrip(" -"))
    length = len(line[start:column].strip())
    return length if length > _SIMPLE_KEY_CHARS else None


class _Text:
    """The decoded source with a line table (0-based indices)."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def index(self, line0: int, col0: int) -> int:
        return self.starts[min(line0, len(self.starts) - 1)] + col0

    def line_col(self, index: int) -> tuple[int, int]:
        """1-based (line, col) of a character index."""
        line0 = bisect.bisect_right(self.starts, index) - 1
        return line0 + 1, index - self.starts[line0] + 1

    def line(self, line0: int) -> str:
        end = self.starts[line0 + 1] if line0 + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line0] : end].rstrip("\r\n\x85\u2028\u2029")


@dataclass(frozen=True)
class ScalarInfo:
    """Raw facts about one scalar token, enough for `SourceMap.position_in_scalar`."""

    style: str | None  # None plain, "'", '"', '|', '>'
    start_index: int  # 0-based character index in the source (after a UTF-8 BOM)
    start_line: int  # 1-based
    end_index: int
    value: str = field(compare=False, repr=False)  # the scalar's text before resolution
    source: _Text = field(compare=False, repr=False)

    def index_of(self, offset: int) -> int:
        """Source index of character `offset` of `value` (clamped to 0..len(value))."""
        value = self.value
        offset = max(0, min(offset, len(value)))
        if self.style == "|":
            found = self._literal_index(offset)
            if found is not None:
                return found
        units = self._units()
        if "".join(u[2] for u in units) == value:  # one source unit per character: exact
            if offset < len(units):
                return units[offset][0]
            return units[-1][0] + units[-1][1] if units else self._content_start()
        # Folding changed whitespace only: match the n-th non-blank character.
        wanted = sum(1 for c in value[:offset] if c not in _WS)
        exact = offset < len(value) and value[offset] not in _WS
        seen, after = 0, self._content_start()
        for index, length, char in units:
            if char and char not in _WS:
                if seen == wanted:
                    return index if exact else after
                seen += 1
                after = index + length
        return after if seen == wanted else self.start_index

    def _content_start(self) -> int:
        if self.style in ("|", ">"):
            line0 = self.start_line  # the line after the header
            return self.source.starts[line0] if line0 < len(self.source.starts) else self.end_index
        return self.start_index + (1 if self.style in ("'", '"') else 0)

    def _literal_index(self, offset: int) -> int | None:
        value = self.value
        k = value.count("\n", 0, offset)
        c = offset - (value.rfind("\n", 0, offset) + 1)
        line0 = self.start_line + k  # 0-based: the header is line start_line - 1
        if line0 >= len(self.source.starts):
            return None
        text_line, value_line = self.source.line(line0), value.split("\n")[k]
        if not text_line.endswith(value_line):
            return None
        return self.source.starts[line0] + len(text_line) - len(value_line) + c

    def _units(self) -> list[tuple[int, int, str]]:
        """(source index, source length, decoded text) of each content unit of the token."""
        text, style = self.source.text, self.style
        start, end = self._content_start(), self.end_index
        if style in ("'", '"'):
            end -= 1  # closing quote
        units, i = [], start
        while i < end:
            ch = text[i]
            if style == "'" and text.startswith("''", i):
                units.append((i, 2, "'"))
            elif style == '"' and ch == "\\" and i + 1 < end:
                nxt = text[i + 1]
                if nxt in _HEX_ESCAPES:
                    n = _HEX_ESCAPES[nxt]
                    try:
                        decoded = chr(int(text[i + 2 : i + 2 + n], 16))
                    except ValueError:
                        decoded = "?"
                    units.append((i, 2 + n, decoded))
                elif nxt in "\r\n\x85\u2028\u2029":  # escaped line break: no character
                    units.append((i, 3 if text.startswith("\r\n", i + 1) else 2, ""))
                else:
                    units.append((i, 2, _ESCAPES.get(nxt, nxt)))
            else:
                units.append((i, 1, ch))
            i += units[-1][1]
        return units


class SourceMap:
    """Positions of every node of one loaded document, keyed by path.

    A path is a tuple of mapping keys (str) and sequence indices (int); () is the root.
    Collections are marked at their start, scalars at their token; mapping values also
    know the mark of their key (`key_mark`).
    """

    def __init__(self, file: str):
        self.file = file
        self._marks: dict[tuple, Mark] = {}
        self._keys: dict[tuple, Mark] = {}
        # path -> a ScalarInfo, or the tuple `_scalar_info` makes it of on first use
        self._scalars: dict[tuple, object] = {}

    def set(self, path: tuple, mark: Mark, *, scalar: ScalarInfo | tuple | None = None, key: Mark | None = None) -> None:
        """Record `path`'s mark, its key's mark, and its `ScalarInfo` (or the tuple of
        `_scalar_info`'s arguments, made into one on first use)."""
        path = tuple(path)
        self._marks[path] = mark
        if scalar is not None:
            self._scalars[path] = scalar
        if key is not None:
            self._keys[path] = key

    def get(self, path: tuple) -> Mark | None:
        """The mark of exactly `path`, or None."""
        return self._marks.get(tuple(path))

    def locate(self, path) -> Mark:
        """The mark of `path` or of its nearest known ancestor; never fails.

        Components are tried as given, then int <-> str converted (so "2" finds index 2)."""
        cur: tuple = ()
        for comp in path:
            for cand in _alternatives(comp):
                if cur + (cand,) in self._marks:
                    cur += (cand,)
                    break
            else:
                break
        return self._marks.get(cur) or Mark(self.file, 1, 1)

    def key_mark(self, path: tuple) -> Mark | None:
        """The mark of the key whose value is at `path`; None for sequence items and the root."""
        return self._keys.get(tuple(path))

    def scalar_info(self, path: tuple) -> ScalarInfo | None:
        path = tuple(path)
        info = self._scalars.get(path)
        if type(info) is tuple:
            info = self._scalars[path] = _scalar_info(*info)
        return info

    def position_in_scalar(self, path: tuple, offset: int) -> Mark:
        """Position of character `offset` (0-based) of the scalar text at `path`.

        Exact for one-line plain and quoted scalars and for literal (`|`) block scalars; for
        folded or multi-line scalars exact on non-blank characters. Falls back to the
        scalar's start, or to `locate(path)` when `path` is not a scalar."""
        path = tuple(path)
        info = self.scalar_info(path)
        if info is None:
            return self.locate(path)
        line, col = info.source.line_col(info.index_of(offset))
        return Mark(self._marks[path].file, line, col)

    def cut_at_comma(self, path) -> bool:
        """Whether the scalar at `path` is plain text that a comma ended: inside `{...}` or
        `[...]` a comma ends a plain value, so a text that held one was cut there."""
        info = self.scalar_info(tuple(path))
        if info is None or info.style is not None:
            return False
        rest = info.source.text[info.end_index:]
        return rest.lstrip(" \t").startswith(",")

    def paths(self):
        return self._marks.keys()


def _scalar_info(style, line0: int, col0: int, end_line0: int, end_col0: int, value: str, text: _Text) -> ScalarInfo:
    """The `ScalarInfo` of a scalar event's style, 0-based start and end marks and value in `text`."""
    return ScalarInfo(style=style or None, start_index=text.index(line0, col0), start_line=line0 + 1,
                      end_index=text.index(end_line0, end_col0), value=value, source=text)


def _alternatives(comp):
    yield comp
    if isinstance(comp, int) and not isinstance(comp, bool):
        yield str(comp)
    elif isinstance(comp, str) and _INT.fullmatch(comp) and len(comp) < 20:
        yield int(comp)


def load_yaml_file(path: str | os.PathLike, display_name: str | None = None) -> tuple[object, SourceMap]:
    """Read at most MAX_BYTES+1 bytes of `path` and `load_yaml` them.

    Problems are reported against `display_name` (default: the path as given). A file that
    cannot be read (missing, a directory, no permission) is an SR100 problem at 1:1."""
    name = display_name if display_name is not None else os.fspath(path)
    return load_yaml(read_yaml_bytes(path, name), name)


def read_yaml_bytes(path: str | os.PathLike, name: str) -> bytes:
    """The bytes `load_yaml_file` parses (at most MAX_BYTES+1); RuleFileError (SR100 at
    `name`:1:1) when the file cannot be read."""
    try:
        return read_limited(path)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise RuleFileError([Problem(name, 1, 1, "SR100", f"cannot read {name}: {reason}")]) from None


def load_yaml(source: bytes | str, file: str) -> tuple[object, SourceMap]:
    """Parse one YAML document into plain data and its SourceMap; see the module docstring.

    Raises RuleFileError with every problem found (only the first syntax error, since parsing
    stops there, but problems found before it are kept)."""
    problems = ProblemCollector()
    smap = SourceMap(file)
    text = _decode(source, file, problems)
    data = None if text is None else _Builder(_Text(text), file, smap, problems).run()
    if problems:
        raise RuleFileError(problems.problems)
    return data, smap


def _decode(source: bytes | str, file: str, problems: ProblemCollector) -> str | None:
    """Size and encoding checks; the text without a BOM, or None after adding a problem."""

    def fail(code: str, message: str, line: int = 1, col: int = 1) -> None:
        problems.add(file, line, col, code, message)

    if isinstance(source, str):
        size = len(source.encode("utf-8", "surrogatepass")) if len(source) <= MAX_BYTES else len(source)
        if size > MAX_BYTES:
            return fail("SR102", f"file is larger than {MAX_BYTES} bytes")
        text = source
    else:
        raw = bytes(source)
        if len(raw) > MAX_BYTES:
            return fail("SR102", f"file is larger than {MAX_BYTES} bytes")
        if raw.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
            return fail("SR101", "file is UTF-16 or UTF-32 encoded; save it as UTF-8")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            line, col = _end_position(raw[: error.start].decode("utf-8"))
            return fail("SR101", f"invalid UTF-8 byte 0x{raw[error.start]:02x}; the file must be UTF-8 text", line, col)
    if text.startswith("\ufeff"):
        text = text[1:]
    bad = _NON_PRINTABLE.search(text)
    if bad:
        line, col = _end_position(text[: bad.start()])
        return fail("SR101", f"character U+{ord(bad.group()):04X} is not allowed in a text file", line, col)
    return text


def _end_position(prefix: str) -> tuple[int, int]:
    """1-based (line, col) of the character right after `prefix`."""
    return _Text(prefix).line_col(len(prefix))


def _flow_depth_overflow(text: str) -> int | None:
    """Index of the first `[`/`{` nested deeper than _PRESCAN_DEPTH (quotes ignored), or None."""
    depth = 0
    for m in re.finditer(r"[\[\]{}]", text):
        if m.group() in "[{":
            depth += 1
            if depth > _PRESCAN_DEPTH:
                return m.start()
        elif depth:
            depth -= 1
    return None


def _tag_name(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:") :] if tag.startswith("tag:yaml.org,2002:") else tag


class _Frame:
    __slots__ = ("container", "path", "is_map", "awaiting_key", "key", "key_mark", "first_lines")

    def __init__(self, container, path):
        self.container, self.path = container, path  # path None: checked but not recorded
        self.is_map = isinstance(container, dict)
        self.awaiting_key, self.key, self.key_mark = True, None, None
        self.first_lines: dict[str, int] = {}


class _Builder:
    """Turns the event stream into data with an explicit stack (no recursion per level)."""

    def __init__(self, text: _Text, file: str, smap: SourceMap, problems: ProblemCollector):
        self.text, self.file, self.smap, self.problems = text, file, smap, problems
        self.stack: list[_Frame] = []
        self.root = None

    def problem(self, mark, code: str, message: str) -> None:
        """Record a problem at a PyYAML mark (0-based; None means the start of the file).

        A mark past the end of the text (libyaml counts a line break after a last line that
        has none) is moved to the end of the text, so every position lies inside the file."""
        line, col = (1, 1)
        if mark is not None:
            starts = self.text.starts
            if mark.line >= len(starts):
                line, col = self.text.line_col(len(self.text.text))
            else:
                line, col = mark.line + 1, min(mark.column, len(self.text.line(mark.line))) + 1
        self.problems.add(self.file, line, col, code, message)

    def run(self):
        if _LOADER is not getattr(yaml, "CSafeLoader", None):
            at = _flow_depth_overflow(self.text.text)
            if at is not None:
                line, col = self.text.line_col(at)
                self.problems.add(self.file, line, col, "SR106", _TOO_DEEP)
                return None
        collecting = gc.isenabled()
        if collecting:  # the data and its map hold no cycles: only the collector's scans would cost
            gc.disable()
        try:
            self._consume(yaml.parse(self.text.text, Loader=_LOADER))
        except yaml.MarkedYAMLError as error:
            self._syntax_problem(error)
        except yaml.YAMLError as error:  # ReaderError: bad character the pre-check missed
            position = getattr(error, "position", 0) or 0
            line, col = self.text.line_col(min(position, len(self.text.text)))
            self.problems.add(self.file, line, col, "SR101", f"not a valid text file: {error}")
        except UnicodeError as error:
            self.problem(None, "SR101", f"not a valid text file: {error}")
        finally:
            if collecting:
                gc.enable()
        return self.root

    def _syntax_problem(self, error: yaml.MarkedYAMLError) -> None:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or "invalid YAML"
        if "maximum nesting depth" in problem:  # libyaml's own limit
            if not any(p.code == "SR106" for p in self.problems.problems):
                self.problem(mark, "SR106", _TOO_DEEP)
            return
        context = error.context or ""
        cm = error.context_mark
        if context and cm is not None and mark is not None and (cm.line, cm.column) != (mark.line, mark.column):
            context += f" that starts at line {cm.line + 1}, column {cm.column + 1}"
        if mark is None:
            self.problem(mark, "SR103", problem + (f" ({context})" if context else ""))
            return
        if any(p.code == "SR105" and p.line == mark.line + 1 for p in self.problems.problems):
            return  # the text after an alias ('*forward 12') is no second problem: the alias is said
        lines = lambda i: self.text.line(i) if 0 <= i < len(self.text.starts) else ""  # noqa: E731
        key = _long_key(lines(mark.line), mark.column)
        if key is not None:  # YAML's own limit on a key written on one line, not a bracket or an indentation
            if not any(p.code == "SR103" and p.line == mark.line + 1 for p in self.problems.problems):
                self.problem(mark, "SR103", f"a key of {key:,} characters is longer than YAML allows (a key on one "
                                            f"line holds at most {_SIMPLE_KEY_CHARS:,} characters)")
            return
        self.problem(mark, "SR103", author_message(problem, context, mark.line, mark.column, lines,
                                                   cm.line if cm is not None else None))

    def _consume(self, events) -> None:
        """Build the data from the event stream; stops at a second document or too many nodes."""
        self.nodes, self.documents, self.skip, self.too_deep = 0, 0, 0, False
        for event in events:
            if self.skip:  # inside a subtree that is consumed but not built or checked
                self._skip(event)
            elif isinstance(event, DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    self.problem(event.start_mark, "SR108", "only one YAML document is allowed per file")
                    return
            elif isinstance(event, CollectionEndEvent):
                self._deliver(self.stack.pop().container)
            elif isinstance(event, NodeEvent):
                self.nodes += 1
                if self.nodes > MAX_NODES:
                    self.problem(event.start_mark, "SR109", f"more than {MAX_NODES} YAML nodes")
                    return
                self._node(event)

    def _skip(self, event) -> None:
        if isinstance(event, CollectionEndEvent):
            self.skip -= 1
            if not self.skip:
                self._deliver(None)
        elif isinstance(event, CollectionStartEvent):
            self.skip += 1

    def _node(self, event) -> None:
        """One scalar, alias or collection start: a key, or a value placed at its path."""
        self._check_node(event)
        stack, m = self.stack, event.start_mark
        top = stack[-1] if stack else None
        if top is not None and top.is_map and top.awaiting_key:
            if isinstance(event, ScalarEvent):
                self._key(top, event)
            elif isinstance(event, AliasEvent):
                top.key, top.awaiting_key = _SKIP_KEY, False
            else:
                self.problem(m, "SR103", "keys must be plain text, not a list or mapping")
                self.skip = 1
            return
        path, key_mark = self._slot(top)
        mark = Mark(self.file, m.line + 1, m.column + 1)
        if isinstance(event, ScalarEvent):
            if path is not None:
                s, e = event.start_mark, event.end_mark
                self.smap.set(path, mark, scalar=(event.style, s.line, s.column, e.line, e.column, event.value, self.text),
                              key=key_mark)
            self._deliver(self._resolve(event))
        elif isinstance(event, AliasEvent):
            if path is not None:
                self.smap.set(path, mark, key=key_mark)
            self._deliver(None)
        elif len(stack) >= MAX_DEPTH:
            if not self.too_deep:
                self.problem(m, "SR106", f"lists and mappings nested deeper than {MAX_DEPTH} levels")
                self.too_deep = True
            self.skip = 1
        else:
            if path is not None:
                self.smap.set(path, mark, key=key_mark)
            stack.append(_Frame({} if isinstance(event, MappingStartEvent) else [], path))

    def _check_node(self, event) -> None:
        m = event.start_mark
        if isinstance(event, AliasEvent):
            self.problem(m, "SR105", f"alias '*{event.anchor}' is not allowed (YAML anchors and aliases are not supported)")
            return
        if event.anchor is not None:
            self.problem(m, "SR105", f"anchor '&{event.anchor}' is not allowed (YAML anchors and aliases are not supported)")
        if event.tag is not None:
            self.problem(m, "SR107", f"YAML tag '{_tag_name(event.tag)}' is not allowed")
        if isinstance(event, ScalarEvent) and len(event.value) > MAX_SCALAR_CHARS:
            self.problem(event.start_mark, "SR103",
                         f"text of {len(event.value)} characters is too long (at most {MAX_SCALAR_CHARS})")

    def _key(self, top: _Frame, event: ScalarEvent) -> None:
        key, m = event.value, event.start_mark
        top.awaiting_key = False
        first = top.first_lines.get(key)
        control = _CONTROL.search(key) or re.search("[\t\n\r\x85\u2028\u2029]", key)
        if control:
            self.problem(m, "SR101", f"control or invisible character U+{ord(control.group()):04X} in a key (keys are "
                         "printable text)")
            top.key = _SKIP_KEY
        elif first is not None:
            self.problem(m, "SR104", f"duplicate key '{key}' (first defined on line {first})")
            top.key = _SKIP_KEY
        else:
            top.first_lines[key] = m.line + 1
            top.key, top.key_mark = key, Mark(self.file, m.line + 1, m.column + 1)

    def _slot(self, top: _Frame | None) -> tuple[tuple | None, Mark | None]:
        """Path (None: not recorded) and key mark of the next value node."""
        if top is None:
            return (), None
        if top.path is None:
            return None, None
        if top.is_map:
            return (None, None) if top.key is _SKIP_KEY else (top.path + (top.key,), top.key_mark)
        return top.path + (len(top.container),), None

    def _deliver(self, value) -> None:
        """Hand a finished node to its parent (or make it the root)."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if not top.is_map:
            top.container.append(value)
        elif top.awaiting_key:  # a key that was not a scalar
            top.key, top.awaiting_key = _SKIP_KEY, False
        else:
            if top.key is not _SKIP_KEY:
                top.container[top.key] = value
            top.awaiting_key, top.key, top.key_mark = True, None, None

    def _resolve(self, event: ScalarEvent):
        """YAML 1.2 core schema for untagged plain scalars; everything else is text. A text
        holding a control character (written as an escape: `"\\e"`, `"\\x07"`) is refused:
        it would reach a terminal raw or make an SVG ill-formed."""
        text = event.value
        control = _CONTROL.search(text)
        if control:
            self.problem(event.start_mark, "SR101", f"control or invisible character U+{ord(control.group()):04X} in "
                         "a text (names, labels and effects are printable text)")
            return ""
        if event.style or event.tag is not None:
            return text
        if _NULL.fullmatch(text):
            return None
        if text in _BOOL:
            return _BOOL[text]
        try:
            for pattern, prefix, base in _INTEGERS:
                if pattern.fullmatch(text):
                    return int(text[prefix:], base)
        except ValueError:  # more digits than int() accepts (sys.int_info.str_digits_check_threshold)
            self.problem(event.start_mark, "SR103", f"number too long ({len(text)} characters)")
            return text
        if _FLOAT.fullmatch(text):
            return float(text)
        if _INF.fullmatch(text):
            return float("-inf") if text.startswith("-") else float("inf")
        if _NAN.fullmatch(text):
            return float("nan")
        return text
