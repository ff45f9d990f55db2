"""Fuzzing of the rule-file loader and the DSL parser (used by tests/test_fuzz.py and by
tools/fuzz_rules.py).

Generators take a *chooser*: `RandomChooser(random.Random(seed))` for fixed-seed loops and
the time-boxed script, `DataChooser(data)` under hypothesis (so failures shrink).

* `DslGenerator` writes random sentences of the DSL grammar itself (the rules and terminals
  of the LALR parser in sorry_rules.dsl, so new grammar rules are covered automatically),
  and `mutate_text` breaks them (token deletions, insertions, swaps, stray characters).
* `mutate_bytes` applies byte-level mutations (bit flips, deletions, insertions, duplicated
  ranges, splices of another file, huge numbers) to a rule file.
* `check_dsl`, `check_overlay` and `check_rule_file` run one case and return a `Finding`
  (None when the program behaved): the only allowed failures are DslError (parser) and
  RuleFileError (loader, compiler), every problem located inside the file it names; a
  rule file that compiles must play a short game keeping every invariant.
Every case runs under `time_limit` (a hang is a finding, never a stuck test run).
"""

from __future__ import annotations

import json
import random
import re
import signal
import traceback
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

try:  # Python 3.11+
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore

from sorry_rules import dsl
from sorry_rules.dsl import larkparse
from sorry_rules.compiler import programs
from sorry_rules.compiler import compile_variant
from sorry_rules.base.errors import CODES, RuleFileError
from sorry_rules.rules.loader import load_variant
from sorry_rules.base.resources import variants_dir
from sorry_rules.rules.yamlsafe import _BREAK, load_yaml

CASE_SECONDS = 10.0  # hang guard per case loaded or checked (generous; never a speed assertion)
#: hang guard of a short game and its two table checks (3 x PLAY_PLIES decisions): a file the
#: cost bounds accept may take a tenth of a second a decision (three dice spent die by die,
#: each a split over squares that hold many pawns), so a game is given more than a case
PLAY_SECONDS = 90.0
#: How the cases ended, e.g. STATS["bytes:refused"] (RuleFileError), STATS["bytes:played"].
STATS: Counter = Counter()
PLAY_PLIES = 150  # moves of the short game played with a rule file that compiles


# ---- choosers ---------------------------------------------------------------------------
class RandomChooser:
    def __init__(self, rnd: random.Random):
        self.rnd = rnd

    def integer(self, lo: int, hi: int) -> int:
        return self.rnd.randint(lo, hi)

    def choice(self, items):
        return items[self.integer(0, len(items) - 1)]

    def chance(self, percent: int) -> bool:
        return self.integer(0, 99) < percent


class DataChooser(RandomChooser):
    """Draws through hypothesis (`st.data()`), so failing cases shrink."""

    def __init__(self, data):
        from hypothesis import strategies as st

        self.data, self.st = data, st

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(self.st.integers(lo, hi))


# ---- hang guard -------------------------------------------------------------------------
class Hang(BaseException):
    """Raised inside a case that ran longer than its time limit (not an Exception, so code
    under test cannot swallow it)."""


@contextmanager
def time_limit(seconds: float):
    """Raise Hang in the block once it has used `seconds` of this process's CPU time (user and
    system): a hang spins, so CPU time catches it, and a machine busy with other work does not
    make a healthy case look hung as wall-clock time would."""
    def expire(signum, frame):
        raise Hang(f"no answer within {seconds} CPU-seconds")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


#: the mark the generated programs place and read (declared by `overlay_text` when used)
MARK = "fz"
#: the named squares the generated selectors read (`SchemaMutator.race` declares them; the
#: bundled race games name `star`, `start_square`, `safe` and `entry`)
SQUARE_NAMES = ("star", "safe", "fzsq", "nowhere")


# ---- the DSL grammar as a generator -------------------------------------------------------
class DslGenerator:
    """Random sentences of the DSL, derived from the parser's own grammar."""

    def __init__(self):
        parser = larkparse.lalr_parser()
        self.rules: dict[str, list[list[tuple[str, bool]]]] = defaultdict(list)
        for rule in parser.rules:
            self.rules[rule.origin.name].append([(s.name, s.is_term) for s in rule.expansion])
        self.terminals = {t.name: t.pattern for t in parser.terminals}
        self.keywords = {p.value for p in self.terminals.values() if p.type == "str"}
        names = list(programs.GROUPS) + list(programs.COUNTS) + ["x", "c", "q", MARK]
        self.hints = {
            "NAME": names,
            "INT": ["0", "1", "2", "3", "4", "5", "7", "10", "11", "12", str(dsl.MAX_NUMBER), str(dsl.MAX_NUMBER + 1),
                    "1000000000000", "007", "99999999999999999999"],
        }
        self.depth = self._min_depths()

    def _min_depths(self) -> dict[str, int]:
        depth: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                for expansion in expansions:
                    parts = [0 if term else depth.get(sym) for sym, term in expansion]
                    if None in parts:
                        continue
                    value = 1 + max(parts, default=0)
                    if value < depth.get(name, 1 << 30):
                        depth[name] = value
                        changed = True
        return depth

    def tokens(self, chooser, start: str, budget: int = 6) -> list[str]:
        out: list[str] = []
        self._expand(chooser, start, budget, out)
        return out

    def text(self, chooser, start: str, budget: int = 6) -> str:
        tokens = self.tokens(chooser, start, budget)
        spaces = [" ", " ", " ", "  ", "\n", "\t", ""]
        result = tokens[0] if tokens else ""
        for token in tokens[1:]:
            gap = chooser.choice(spaces)
            if not gap and (result[-1:].isalnum() or result[-1:] == "_") and (token[:1].isalnum() or token[:1] == "_"):
                gap = " "
            result += gap + token
        return result

    def _expand(self, chooser, symbol: str, budget: int, out: list[str]) -> None:
        expansions = self.rules[symbol]
        if budget <= 0:
            best = min(self._cost(e) for e in expansions)
            expansions = [e for e in expansions if self._cost(e) == best]
        expansion = chooser.choice(expansions)
        for sym, term in expansion:
            if term:
                out.append(self._terminal(chooser, sym))
            else:
                self._expand(chooser, sym, budget - 1, out)

    def _cost(self, expansion) -> int:
        return max((0 if term else self.depth[sym] for sym, term in expansion), default=0)

    def _terminal(self, chooser, name: str) -> str:
        pattern = self.terminals[name]
        if pattern.type == "str":
            return pattern.value
        hints = [hint for hint in self.hints.get(name, ()) if hint not in self.keywords]  # `pawns` is a keyword too:
        if hints and chooser.chance(85):  # `count(pawns in G: ...)` reads as count(pawns SELECTOR), never parses
            return chooser.choice(hints)
        for _ in range(20):
            value = sample_regex(chooser, pattern.value)
            if value and value not in self.keywords and re.fullmatch(pattern.value, value):
                return value
        return chooser.choice(hints) if hints else "x"


class TypedGenerator:
    """Random DSL texts that are meant to compile: effects, conditions (bool) and formulas
    (int) built by type, with aggregate variables in scope. Complements `DslGenerator`
    (syntax) by reaching the compiler and the engine with programs that run."""

    RELATIONS = ("opponent", "partner", "other")
    COMPARE = ("==", "!=", "<", "<=", ">", ">=")

    def effect(self, chooser, depth: int = 3) -> str:
        if depth <= 0 or chooser.chance(35):
            return self._primitive(chooser)
        kind = chooser.integer(0, 3)
        if kind == 0:
            return " | ".join(self.effect(chooser, depth - 1) for _ in range(chooser.integer(2, 3)))
        if kind == 1:
            return f"({self.effect(chooser, depth - 1)}) then ({self.effect(chooser, depth - 1)})"
        if kind == 2:
            return f"({self.effect(chooser, depth - 1)}) if {self.expr(chooser, bool, depth - 1, (), can=True)}"
        return f"({self.effect(chooser, depth - 1)}) then {chooser.choice(['draw_again', 'pass'])}"

    def selector(self, chooser) -> str:
        """A pawn selector (docs/REFERENCE.md 2.4), sometimes reading the fuzz mark."""
        items = []
        if chooser.chance(70):
            items.append(chooser.choice(["own", "partner", "opponent", "other", "controlled", "any"]))
        if chooser.chance(60):
            items.append(f"in {chooser.choice(['start', 'home', 'track', 'safety', 'start_exit'])}")
        if chooser.chance(30):
            items.append(f"{chooser.choice(['marked', 'unmarked'])} {MARK}")
        if chooser.chance(15):  # a named square (`SchemaMutator.race` names them), maybe of a relation
            items.append(f"in {chooser.choice(['', 'own ', 'opponent '])}{chooser.choice(SQUARE_NAMES)}")
        if chooser.chance(10):
            items.append(chooser.choice(["moved", "unmoved", "bumped"]))
        if chooser.chance(10):
            items.append(chooser.choice(["farthest", "nearest"]))
        if chooser.chance(20) or not items:
            items.append("alone")
        return " ".join(items)

    def _pawn_primitive(self, chooser) -> str:
        kind = chooser.integer(0, 3)
        dest = chooser.choice(["start", "home", "start_exit", "track:0", "track:59", "safety:1", "safety:5"])
        if kind == 0:
            return f"send {self.selector(chooser)} to {dest}"
        if kind == 1:
            return f"move {self.selector(chooser)} to {dest}"
        if kind == 2:
            return f"{chooser.choice(['mark', 'unmark'])} {MARK} {self.selector(chooser)}"
        return f"enter {self.selector(chooser)}"

    def _primitive(self, chooser) -> str:
        if chooser.chance(20):
            return self._pawn_primitive(chooser)
        kind = chooser.integer(0, 7)
        n = chooser.choice([1, 2, 3, 4, 5, 7, 10, 11, 12, 64, 65])
        if kind == 0:
            return "enter"
        if kind in (1, 2):
            direction = "forward" if kind == 1 else "backward"
            if chooser.chance(15):  # a count read on the board (any number: out of range moves nothing)
                return f"{direction} ({self.expr(chooser, int, 1)})"
            return f"{direction} {n}"
        if kind == 3:
            if chooser.chance(30):  # parts with their own direction and pawn
                parts = [chooser.choice(["forward", "backward"]) + chooser.choice(["", "", " any", " partner", " opponent",
                                                                                 " own", " other"])
                         for _ in range(chooser.integer(2, 3))]
                return f"split {max(2, min(n, 12))} into {', '.join(parts)}"
            among = chooser.choice(["", " among 2", " among 3", " among any"])
            return f"split {max(2, min(n, 12))}{among}"
        if kind == 4:
            return f"switch {chooser.choice(self.RELATIONS)}"
        if kind == 5:
            return chooser.choice(["sorry", "sorry opponent", "sorry partner", "sorry other"])
        return chooser.choice(["draw_again", "pass"])

    def expr(self, chooser, kind, depth: int = 3, variables: tuple = (), can: bool = False) -> str:
        groups = list(programs.GROUPS) + list(variables)
        if kind is bool:
            if depth <= 0 or chooser.chance(30):
                choice = chooser.integer(0, 2 if can else 1)
                if choice == 0:
                    return chooser.choice(["true", "false", "doubles"] if chooser.chance(10) else ["true", "false"])
                if choice == 2:
                    return f"can({self.effect(chooser, 1)})"
                return f"{self.expr(chooser, int, depth - 1, variables)} {chooser.choice(self.COMPARE)} {self.expr(chooser, int, depth - 1, variables)}"
            op = chooser.integer(0, 2)
            if op == 0:
                return f"not ({self.expr(chooser, bool, depth - 1, variables, can)})"
            return f"({self.expr(chooser, bool, depth - 1, variables, can)}) {chooser.choice(['and', 'or'])} ({self.expr(chooser, bool, depth - 1, variables, can)})"
        if depth <= 0 or chooser.chance(30):
            if chooser.chance(8):  # the facts of a throw (refused, located, outside after: and filters:)
                return chooser.choice(["total", f"thrown({chooser.integer(0, 7)})"])
            if chooser.chance(40):
                return str(chooser.integer(0, 20))
            if chooser.chance(15):
                return f"count(pawns {self.selector(chooser)})"
            return f"{chooser.choice(programs.COUNTS)}({chooser.choice(groups)})"
        op = chooser.integer(0, 3)
        if op == 0:
            return f"({self.expr(chooser, int, depth - 1, variables)}) {chooser.choice(['+', '-', '*'])} ({self.expr(chooser, int, depth - 1, variables)})"
        if op == 1:
            return f"-({self.expr(chooser, int, depth - 1, variables)})"
        name = chooser.choice(["x", "y", "z"])
        if name in variables:
            return f"{chooser.choice(programs.COUNTS)}({name})"
        agg = chooser.choice(["sum", "max", "min", "count"])
        body = self.expr(chooser, bool if agg == "count" else int, depth - 1, variables + (name,))
        return f"{agg}({name} in {chooser.choice(programs.GROUPS)}: {body})"


def sample_regex(chooser, pattern: str) -> str:
    """A random string matching a simple regular expression (terminals of the grammar)."""
    out: list[str] = []

    def emit(items):
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                out.append(chr(arg))
            elif name == "ANY":
                out.append(chr(chooser.integer(32, 126)))
            elif name == "IN":
                out.append(_class_char(chooser, arg))
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                low, high, sub = arg
                for _ in range(chooser.integer(low, min(high, low + 6))):
                    emit(sub)
            elif name == "SUBPATTERN":
                emit(arg[-1])
            elif name == "BRANCH":
                emit(chooser.choice(arg[1]))
            # AT (anchors) and anything else emit nothing

    emit(sre_parse.parse(pattern))
    return "".join(out)


def _class_char(chooser, items) -> str:
    options: list[tuple[int, int]] = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            options.append((arg, arg))
        elif name == "RANGE":
            options.append(arg)
        elif name == "CATEGORY":
            text = str(arg)
            options.extend([(48, 57)] if "DIGIT" in text else [(9, 9), (32, 32)] if "SPACE" in text else [(97, 122), (95, 95)])
    if not options:
        return "a"
    low, high = chooser.choice(options)
    return chr(chooser.integer(low, high))


_NOISE = ["(", ")", "|", "then", "if", "and", "or", "not", "-", "+", "*", "==", ":", ",", "in", "any",
          "sum(", "can(", "forward", "99999999999", "\u00e9", "\u2028", "\x00", "\x85", '"', "'", "#", "&x", "*x",
          "{", "}", "[", "]", "\\", "\ud800", "\U0001F600", "\t", "\n", " "]


def mutate_text(chooser, text: str, rounds: int | None = None) -> str:
    """Break a DSL text in 1..3 places (whole tokens or single characters)."""
    for _ in range(rounds if rounds is not None else chooser.integer(1, 3)):
        tokens = re.findall(r"\s+|\w+|[^\w\s]", text) or [""]
        kind = chooser.integer(0, 6)
        i = chooser.integer(0, len(tokens) - 1)
        if kind == 0:  # delete a token
            del tokens[i]
        elif kind == 1:  # duplicate a token
            tokens.insert(i, tokens[i])
        elif kind == 2:  # swap two tokens
            j = chooser.integer(0, len(tokens) - 1)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == 3:  # insert noise
            tokens.insert(i, chooser.choice(_NOISE))
        elif kind == 4:  # truncate
            tokens = tokens[:i]
        elif kind == 5:  # replace a character
            joined = "".join(tokens)
            if joined:
                k = chooser.integer(0, len(joined) - 1)
                joined = joined[:k] + chr(chooser.choice([chooser.integer(32, 126), chooser.integer(0, 0x2FFF)])) + joined[k + 1:]
            tokens = [joined]
        else:  # wrap in parentheses
            tokens = ["("] + tokens + [")"]
        text = "".join(tokens)
    return text


# ---- byte-level mutation of rule files ------------------------------------------------
def bundled_files() -> dict[str, bytes]:
    root = variants_dir()
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


def mutate_bytes(chooser, data: bytes, others: list[bytes]) -> bytes:
    """1..4 byte-level mutations of `data` (some splice in parts of `others`)."""
    data = bytearray(data)
    for _ in range(chooser.integer(1, 4)):
        n = len(data)
        kind = chooser.integer(0, 8)
        at = chooser.integer(0, n) if n else 0
        if kind == 0 and n:  # flip a bit
            i = min(at, n - 1)
            data[i] ^= 1 << chooser.integer(0, 7)
        elif kind == 1 and n:  # delete a range
            del data[at : at + chooser.integer(1, 40)]
        elif kind == 2:  # insert random bytes
            data[at:at] = bytes(chooser.integer(0, 255) for _ in range(chooser.integer(1, 8)))
        elif kind == 3:  # insert interesting text
            data[at:at] = chooser.choice([b"\n", b": ", b"- ", b"{", b"}", b"[", b"]", b"&a ", b"*a", b"!!python/object ",
                                          b"\t", b"\xef\xbb\xbf", b"\xff", b"---\n", b"null", b"~", b"1000000000",
                                          b"99999999999999999999999", b"-1", b"extends: standard\n", b'"', b"'", b"#",
                                          "\u00b2".encode(), "\u0663".encode(), "\uff11".encode()])  # digits int() refuses
        elif kind == 4 and n:  # duplicate a range
            length = chooser.integer(1, 200)
            data[at:at] = data[at : at + length]
        elif kind == 5 and others:  # splice: our prefix + another file's suffix
            other = chooser.choice(others)
            data = data[:at] + other[chooser.integer(0, len(other)) :]
        elif kind == 6 and others:  # insert a slice of another file
            other = chooser.choice(others)
            a = chooser.integer(0, len(other))
            data[at:at] = other[a : a + chooser.integer(1, 300)]
        elif kind == 7:  # swap two lines
            lines = bytes(data).split(b"\n")
            if len(lines) > 1:
                i, j = chooser.integer(0, len(lines) - 1), chooser.integer(0, len(lines) - 1)
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
        else:  # a number becomes huge or negative
            numbers = list(re.finditer(rb"\d+", bytes(data)))
            if numbers:
                m = chooser.choice(numbers)
                data[m.start() : m.end()] = chooser.choice([b"1000000000", b"0", b"-5", b"4294967297", b"1" * 30])
    return bytes(data)


# ---- structure-aware mutation of rule data ----------------------------------------------
class SchemaMutator:
    """Mutates the *data* of a rule file along the rule-file schema (the pydantic model's
    JSON schema, so new fields are covered automatically): fields get values that are valid
    or just outside their bounds, keys disappear, DSL texts are replaced by generated ones,
    and the board geometry, colours, teams and player counts change together. Reaches the
    cross-field checks, the compiler and the engine with unusual but loadable variants."""

    def __init__(self):
        from sorry_rules.rules.model import Variant

        self.schema = Variant.model_json_schema(by_alias=True)
        self.defs = self.schema.get("$defs", {})
        self.typed = TypedGenerator()

    def _node(self, node: dict) -> dict:
        while "$ref" in node:
            node = self.defs[node["$ref"].rsplit("/", 1)[-1]]
        return node

    def value(self, chooser, node: dict, path: tuple, depth: int = 0):
        """A value for schema `node` at data `path` (mostly valid, sometimes off by one)."""
        node = self._node(node)
        text = self._text_for(chooser, path)
        if text is not None:
            return text
        for key in ("anyOf", "oneOf"):
            if key in node:
                return self.value(chooser, chooser.choice(node[key]), path, depth + 1)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return chooser.choice(node["enum"])
        kind = node.get("type")
        if kind == "integer":
            low, high = node.get("minimum", -5), node.get("maximum", 60)
            return chooser.choice([low, high, low - 1, high + 1, chooser.integer(low, min(high, low + 20)),
                                   chooser.integer(low, high)])
        if kind == "boolean":
            return chooser.chance(50)
        if kind == "string":
            return chooser.choice(["red", "blue", "x", "1", "sorry", "", "a b", "-", "Z" * 41])
        if kind == "null":
            return None
        if kind == "array":
            items = node.get("items", {})
            count = chooser.integer(node.get("minItems", 0), min(node.get("maxItems", 4), 4 if depth else 6))
            return [self.value(chooser, items, path + (i,), depth + 1) for i in range(count)]
        if kind == "object":
            out = {}
            props = node.get("properties", {})
            for name, sub in props.items():
                if name in node.get("required", ()) or chooser.chance(40):
                    out[name] = self.value(chooser, sub, path + (name,), depth + 1)
            extra = node.get("additionalProperties")
            if isinstance(extra, dict) and depth < 3:
                for i in range(chooser.integer(0, 3)):
                    out[chooser.choice(["1", "2", "3", "7", "sorry", "red", "\u00b2", "0" * 5000, "new" + str(i)])] = self.value(chooser, extra, path + ("*",), depth + 1)
            return out
        return chooser.choice([0, "x", None, [], {}])

    def _text_for(self, chooser, path: tuple):
        """DSL texts for the fields that hold them."""
        if len(path) == 2 and path[0] == "cards":
            return self.typed.effect(chooser, chooser.integer(1, 3))
        if path == ("win",):
            return self.typed.expr(chooser, bool, chooser.integer(1, 3))
        if path and path[0] == "scoring" and path[-1] == "points":
            return self.typed.expr(chooser, int, chooser.integer(1, 3))
        if path and path[0] == "scoring" and path[-1] == "when":
            return self.typed.expr(chooser, bool, chooser.integer(1, 2))
        if path and path[0] == "turn" and path[-1] == "when":  # turn.redraw.when, turn.actions.NAME.when
            return self.typed.expr(chooser, bool, chooser.integer(1, 2))
        return None

    def turn_policy(self, chooser, data: dict) -> None:
        """Turn policies and hand actions on the file's `turn:` (take, redraw, actions), mostly
        fitting its way of taking cards, sometimes not (SR513), with generated conditions."""
        turn = data.get("turn") if isinstance(data.get("turn"), dict) else {"source": "draw"}
        data["turn"] = turn
        hand = turn.get("source") == "hand"
        if chooser.chance(20 if hand else 70):
            turn["take"] = chooser.integer(0, 4)
        if chooser.chance(60):
            turn["redraw"] = {"at_most": chooser.integer(0, 3), "when": self.typed.expr(chooser, bool, chooser.integer(1, 2))}
        if chooser.chance(70 if hand else 20):
            cards = [name for name in data.get("cards", {}) if isinstance(name, str)] or ["1"]
            low = chooser.integer(0, 2)
            turn["actions"] = {f"act{i}": {"cards": [chooser.choice(cards + ["nope"]) for _ in range(chooser.integer(1, 2))],
                                           "others": {"min": low, "max": low + chooser.integer(-1, 2)},
                                           "when": self.typed.expr(chooser, bool, chooser.integer(1, 2)),
                                           "draw_again": chooser.chance(30)}
                               for i in range(chooser.integer(1, 2))}

    def _schema_at(self, path: tuple) -> dict | None:
        node = self.schema
        for part in path:
            node = self._node(node)
            if "anyOf" in node or "oneOf" in node:
                options = [self._node(o) for o in node.get("anyOf", node.get("oneOf"))]
                node = next((o for o in options if o.get("type") in ("object", "array")), options[0])
            if node.get("type") == "object":
                sub = node.get("properties", {}).get(part)
                node = sub if sub is not None else node.get("additionalProperties")
            elif node.get("type") == "array":
                node = node.get("items")
            else:
                return None
            if not isinstance(node, dict):
                return None
        return node

    def mutate(self, chooser, data: dict) -> dict:
        data = json.loads(json.dumps(data))
        for _ in range(chooser.integer(1, 3)):
            kind = chooser.integer(0, 8)
            paths = list(_paths(data))
            if kind == 6:  # turn policies and hand actions
                self.turn_policy(chooser, data)
                continue
            if kind == 8:  # dice, squares that hold several pawns, named squares, blockades, consequences
                self.race(chooser, data)
                continue
            if kind == 0 and paths:  # a field gets a new value of its schema
                path = chooser.choice(paths)
                node = self._schema_at(path)
                _set(data, path, self.value(chooser, node, path) if node else chooser.choice([0, -1, "x", None, [], {}]))
            elif kind == 1:  # a top-level field from the schema
                name = chooser.choice(sorted(self.schema["properties"]))
                data[name] = self.value(chooser, self.schema["properties"][name], (name,))
            elif kind == 2 and paths:  # a key disappears
                path = chooser.choice(paths)
                _delete(data, path)
            elif kind == 7:  # movement geometry: past Home, turns, blockers (docs/REFERENCE.md `geometry`)
                data["geometry"] = self.geometry(chooser)
            elif kind == 3:  # new DSL texts
                cards = data.setdefault("cards", {}) if isinstance(data.get("cards", {}), dict) else {}
                for name in list(cards)[: chooser.integer(1, 3)]:
                    cards[name] = self.typed.effect(chooser, chooser.integer(1, 3))
                if chooser.chance(40):
                    data["win"] = self.typed.expr(chooser, bool, chooser.integer(1, 3))
            else:  # a new table: colours, players, teams and board together
                count = chooser.integer(2, 8)
                colours = [f"c{i}" for i in range(count)]
                data["colours"] = colours
                low = chooser.integer(1, count)
                data["players"] = {"min": low, "max": chooser.integer(low, count)}
                if chooser.chance(40) and count % 2 == 0:
                    data["teams"] = [colours[i::count // 2] for i in range(count // 2)]
                else:
                    data.pop("teams", None)
                data.pop("seating", None)
                side = chooser.integer(3, 20)
                data["board"] = {"side_length": side, "start_exit": chooser.integer(0, side - 1),
                                 "safety_entry": chooser.integer(0, side - 1), "safety_length": chooser.integer(0, 6),
                                 "slides": [{"from": a, "to": a + chooser.integer(1, 4)} for a in
                                            sorted({chooser.integer(0, side - 1) for _ in range(chooser.integer(0, 2))})]}
                for slide in data["board"]["slides"]:   # a slide's own takers, a word now and then twice
                    if chooser.chance(30):
                        slide["slide_on"] = [chooser.choice(["own", "partner", "opponent"]) for _ in range(chooser.integer(0, 3))]
                    if chooser.chance(25):  # a jump across the board, now and then a lap or more
                        slide["sweep"] = "end"
                        slide["to"] = slide["from"] + chooser.integer(1, side * count + 1)
                data["pawns"] = chooser.integer(1, 5)
                if chooser.chance(30):
                    data["setup"] = {"on_start_exit": 1}
                if chooser.chance(30):
                    data["turn"] = {"source": "hand", "hand_size": chooser.integer(1, 5)}
                if chooser.chance(50):
                    data["rules"] = self.value(chooser, self.schema["properties"]["rules"], ("rules",))
                if chooser.chance(40):
                    data["geometry"] = self.geometry(chooser)
        return data

    def race(self, chooser, data: dict) -> None:
        """The constructs of the race games on the file's data, mostly fitting, sometimes off:
        `board.hold` and `home_hold`, named squares (`board.squares`), `rules.capture`, a dice
        turn (`dice`, `faces`, `weights`, `whole`), blockades (a blocker with `group`) and `after:`
        consequences with `then:` effects (selectors with named squares, `moved`,
        `farthest`/`nearest`), `forfeits:` and the facts of a throw."""
        board = data.get("board") if isinstance(data.get("board"), dict) else {"side_length": 15}
        data["board"] = board
        side = board.get("side_length") if isinstance(board.get("side_length"), int) else 15
        if chooser.chance(70):
            board["hold"] = _off(chooser, [1, 2, 2, 3, 4, 16], [0, 17])
        if chooser.chance(20):
            board["home_hold"] = _off(chooser, [1, 2, 4], [0])
        if chooser.chance(70):
            names = [_off(chooser, SQUARE_NAMES[:3], ["start", "track", "home"]) for _ in range(chooser.integer(1, 3))]
            board["squares"] = {name: {"at": [_off(chooser, list(range(side)), [side]) for _ in range(chooser.integer(1, 3))],
                                       "capture": chooser.choice([True, False, ["enter"], ["forward", "sorry"]]),
                                       "share": chooser.chance(60), "symbol": _off(chooser, ["*", "o", "e"], ["ab"]),
                                       **({"hold": _off(chooser, [1, 2, 3], [0])} if chooser.chance(30) else {})}
                                for name in names}
        rules = data.get("rules") if isinstance(data.get("rules"), dict) else {}
        data["rules"] = rules
        if chooser.chance(50):
            rules["capture"] = _off(chooser, ["lone", "all"], ["some"])
        if chooser.chance(60):
            turn = data.get("turn") if isinstance(data.get("turn"), dict) else {}
            data["turn"] = turn
            dice = _off(chooser, [1, 1, 2, 3], [4])
            faces = _off(chooser, [[1, 2, 3, 4, 5, 6], [1, 2, 3], [2, 5, 7, 11], [0, 1]], [[1, 1]])
            turn.update({"source": "dice", "dice": dice, "faces": faces})
            if chooser.chance(30):   # a face's weight now and then off the schema, or one weight too many
                turn["weights"] = [_off(chooser, [1, 2, 6, 20, 1000], [0, 1001]) for _ in faces] + [1] * chooser.chance(10)
            for key in ("hand_size", "take"):
                turn.pop(key, None) if chooser.chance(80) else None
            if chooser.chance(40):
                turn["whole"] = {str(_off(chooser, [dice * faces[0], sum(faces[-1:]) * dice], [97])): self.typed.effect(chooser, 1)}
            cards = data.get("cards") if isinstance(data.get("cards"), dict) else {}
            data["cards"] = {str(face): cards.get(str(face)) or self.typed.effect(chooser, chooser.integer(1, 2))
                             for face in faces} if chooser.chance(85) else cards
            data.pop("deck", None)
        if chooser.chance(40):
            geometry = data.get("geometry") if isinstance(data.get("geometry"), dict) else {}
            data["geometry"] = geometry
            geometry["blockers"] = {"blockade": {"group": _off(chooser, [1, 2, 2, 3], [13]),
                                                 "pawns": chooser.choice(["any", "opponent", "own"]),
                                                 "pass": chooser.chance(20), "land": chooser.chance(30)}}
        if chooser.chance(70):
            after = data.get("after") if isinstance(data.get("after"), dict) else {}
            data["after"] = after
            for i in range(chooser.integer(1, 2)):
                facts = ["doubles", f"total >= {chooser.integer(2, 12)}", f"thrown({chooser.integer(1, 6)}) > 0",
                         "bumps(opponents) > 0", "reaches_home(player) > 0", "true"]
                consequence = {"when": chooser.choice(facts), "forfeits": chooser.chance(40),
                               "then": chooser.choice([f"forward {chooser.choice([1, 10, 20])}",
                                                       f"send own moved in opponent {chooser.choice(SQUARE_NAMES)} to start",
                                                       f"send own in track {chooser.choice(['farthest', 'nearest'])} to start",
                                                       self.typed.effect(chooser, 1)])}
                if chooser.chance(30):
                    consequence["draw_again"] = True
                after[f"fz{i}"] = consequence

    def geometry(self, chooser) -> dict:
        """A `geometry:` section: mostly valid turns and blockers, sometimes off (unknown
        colours, offsets past the side, contradictions with `rules.overshoot_home`)."""
        if chooser.chance(15):
            return self.value(chooser, self.schema["properties"]["geometry"], ("geometry",))
        out: dict = {}
        if chooser.chance(60):
            out["past_home"] = chooser.choice(["illegal", "stop", "bounce", "bounce"])
        turns = {}
        for i in range(chooser.integer(0, 3)):
            turns[f"t{i}"] = {"at": chooser.choice(["safety_entry", "start_exit", 0, 1, 3, 14, 25]),
                              "moving": chooser.choice(["forward", "backward"]),
                              "onto": chooser.choice(["safety", "track"]), "must": chooser.chance(30)}
            if chooser.chance(30):  # a turn there only under a condition on the player to move
                turns[f"t{i}"]["when"] = chooser.choice(["home(player) == 0", "start(player) < 2", "track(player) > 1",
                                                          "safety(player) >= 1 or home(player) > 2", "moved(player) > 0"])
        if turns:
            out["turns"] = turns
        blockers = {}
        for i in range(chooser.integer(0, 2)):
            blocker = {"pawns": chooser.choice(["own", "partner", "opponent", "other", "any"]),
                       "on": chooser.choice(["track", "safety", "any"]), "pass": chooser.chance(40),
                       "land": chooser.chance(70)}
            if chooser.chance(25):
                blocker["colours"] = [chooser.choice(["red", "blue", "c0", "c1", "purple"])]
            blockers[f"b{i}"] = blocker
        if blockers:
            out["blockers"] = blockers
        return out


def _off(chooser, valid: list, invalid: list, percent: int = 6):
    """Mostly one of `valid`, now and then one of `invalid` (a value just outside the schema)."""
    return chooser.choice(invalid if chooser.chance(percent) else valid)


def _paths(data, prefix=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield prefix + (key,)
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield prefix + (i,)
            yield from _paths(value, prefix + (i,))


def _set(data, path, value):
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def _delete(data, path):
    for part in path[:-1]:
        data = data[part]
    del data[path[-1]]


def dump_yaml(data) -> bytes:
    """Rule data as block YAML (PyYAML's safe dumper; reading stays with yamlsafe)."""
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")


# ---- checking ---------------------------------------------------------------------------
@dataclass
class Finding:
    kind: str  # "exception", "position", "hang", "invariant", "dsl"
    message: str
    case: dict

    def format(self) -> str:
        return f"[{self.kind}] {self.message}\ncase: {json.dumps(self.case, ensure_ascii=True)[:4000]}"


def _lines(text: str) -> list[str]:
    return _BREAK.split(text)


def position_problem(problem, sources: dict[str, str]) -> str | None:
    """Why `problem` is not located inside the file it names (None when it is)."""
    if problem.code not in CODES:
        return f"unknown problem code {problem.code}"
    if problem.line < 1 or problem.col < 1:
        return f"position {problem.line}:{problem.col} is not 1-based"
    text = sources.get(problem.file)
    if text is None:
        path = Path(problem.file)
        bundled = variants_dir() / problem.file
        for candidate in (bundled, path):
            try:
                if candidate.is_file():
                    text = candidate.read_bytes().decode("utf-8", "replace").removeprefix("\ufeff")
                    break
            except OSError:
                continue
    if text is None:
        return None if (problem.code == "SR100" and (problem.line, problem.col) == (1, 1)) else f"problem in unknown file {problem.file!r}"
    lines = _lines(text)
    if problem.line > len(lines):
        return f"line {problem.line} is past the end ({len(lines)} lines)"
    if problem.col > len(lines[problem.line - 1]) + 1:
        return f"column {problem.col} is past the end of line {problem.line} ({len(lines[problem.line - 1])} characters)"
    return None


def _check_error(error: RuleFileError, sources: dict[str, str], case: dict) -> Finding | None:
    if not error.problems:
        return Finding("position", "RuleFileError without problems", case)
    for problem in error.problems:
        why = position_problem(problem, sources)
        if why:
            return Finding("position", f"{problem.format()}: {why}", case)
        try:
            problem.format().encode("utf-8", "backslashreplace")
        except Exception as exc:  # pragma: no cover - a message that cannot be printed
            return Finding("exception", f"problem message cannot be printed: {exc!r}", case)
    return None


def check_dsl(text: str, start: str, generated: bool = False) -> Finding | None:
    """parse_effect/parse_expr: an AST or DslError with an offset inside the text."""
    case = {"mode": "dsl", "start": start, "text": text}
    parse = dsl.parse_effect if start == "effect" else dsl.parse_expr
    try:
        with time_limit(CASE_SECONDS):
            parse(text)
        STATS["dsl:parsed"] += 1
    except dsl.DslError as error:
        STATS["dsl:refused"] += 1
        if not 0 <= error.offset <= len(text):
            return Finding("dsl", f"offset {error.offset} outside the text of {len(text)} characters", case)
        if error.code not in CODES:
            return Finding("dsl", f"unknown code {error.code}", case)
        if generated and error.code == "SR301":
            return Finding("dsl", f"a sentence of the grammar does not parse: {error.message}", case)
    except Hang as error:
        return Finding("hang", str(error), case)
    except Exception:
        return Finding("exception", traceback.format_exc(limit=8), case)
    return None


def overlay_text(effect: str | None, expr: str | None, slot: str = "win", card: str = "1") -> tuple[str, dict]:
    """An overlay (an in-memory layer on top of standard, so without `extends:`) of standard with the effect as card `card` and the expression as the win
    condition (`slot` "win") or as a scoring formula ("points"); also returns the
    (line, column) where each text's scalar starts."""
    lines = ["name: fuzz"]
    if MARK in f"{effect} {expr}":  # the fuzz mark is declared (with every property) when a text uses it
        lines += ["marks:", f"  {MARK}: {{until: next_turn, one_per_player: true, immobile: true, untouchable: true}}"]
    spans = {}
    if effect is not None:
        lines += ["cards:", f"  {json.dumps(card)}: "]
        spans["effect"] = (len(lines), len(lines[-1]) + 1)
        lines[-1] += json.dumps(effect)
    if expr is not None:
        if slot == "win":
            lines.append("win: ")
        else:
            lines += ["scoring:", "  fuzz:", "    kind: formula", "    for: every", "    points: "]
        spans[slot] = (len(lines), len(lines[-1]) + 1)
        lines[-1] += json.dumps(expr)
    return "\n".join(lines) + "\n", spans


def check_overlay(effect: str | None, expr: str | None, slot: str = "win", seed: int = 0, card: str = "1") -> Finding | None:
    """Compile standard + an overlay carrying the texts; errors must point into the overlay's
    DSL scalars; a variant that compiles must play a short game keeping every invariant."""
    text, spans = overlay_text(effect, expr, slot, card)
    case = {"mode": "overlay", "effect": effect, "expr": expr, "slot": slot, "seed": seed, "card": card}
    sources = {"fuzz.yaml": text}
    try:
        with time_limit(CASE_SECONDS):
            layer = load_yaml(text, "fuzz.yaml")
            game, _ = compile_variant(load_variant("standard", layers=[layer]))
    except RuleFileError as error:
        STATS["overlay:refused"] += 1
        found = _check_error(error, sources, case)
        if found:
            return found
        lines = text.split("\n")
        for problem in error.problems:
            if problem.code == "SR562" and problem.line == 3:
                continue  # the fuzz mark's own warning (never placed or read by the texts), on its declaration
            starts = [col for line, col in spans.values() if line == problem.line]
            if problem.file != "fuzz.yaml" or not starts:
                return Finding("position", f"{problem.format()}: not on the line of one of the overlay's DSL texts", case)
            if not starts[0] <= problem.col <= len(lines[problem.line - 1]):
                return Finding("position", f"{problem.format()}: outside the DSL text (columns {starts[0]}.."
                                           f"{len(lines[problem.line - 1])})", case)
        return None
    except Hang as error:
        return Finding("hang", f"loading: {error}", case)
    except Exception:
        return Finding("exception", traceback.format_exc(limit=8), case)
    return play_short(game, seed, case, "overlay")


def play_short(game, seed: int, case: dict, mode: str = "game") -> Finding | None:
    """A short random game with every invariant, then the same seed on one table changed in
    place against tables worked out afresh (`tablecheck`); a finding if anything goes wrong."""
    STATS[f"{mode}:played"] += 1
    from .randomplay import play_random
    from .tablecheck import check_one_table, check_pushes

    try:
        with time_limit(PLAY_SECONDS):
            if getattr(game, "grid", None) is not None:
                _play_grid(game, seed)
            else:
                players = game.players_min + seed % (game.players_max - game.players_min + 1)
                play_random(game, seed, players, max_plies=PLAY_PLIES, must_end=False)
                check_one_table(game, seed, players, max_plies=PLAY_PLIES)
                check_pushes(game, players, seed, max_plies=PLAY_PLIES)
    except Hang as error:
        return Finding("hang", f"playing: {error}", case)
    except AssertionError as error:
        return Finding("invariant", str(error)[:3000], case)
    except Exception:
        return Finding("exception", traceback.format_exc(limit=8), case)
    return None


def _play_grid(game, seed: int) -> None:
    """A short random game of a grid variant: cards conserved, chips never stacked or on a
    free cell, a move list until the game is over."""
    import random
    from collections import Counter

    counts = sorted(game.seating)
    state = game.new_game(seed, players=counts[seed % len(counts)])
    rng = random.Random(seed)
    while not state.over and state.plies < PLAY_PLIES:
        moves = game.legal_moves(state)
        assert moves, "no move in a game that is not over"
        state = game.apply(state, moves[rng.randrange(len(moves))])
        held = [c for hand in state.hands for c in hand] + list(state.pile) + list(state.discard)
        assert Counter(held) == Counter(game.deck), "cards not conserved"
        cells = [cell for chips in state.placement for cell in chips]
        assert len(cells) == len(set(cells)) and not set(cells) & game.grid.free, "chips stacked or on a free cell"


def check_rule_file(name: str, data: bytes, workdir: Path, seed: int = 0) -> Finding | None:
    """Load + compile a (mutated) rule file saved as `workdir/name`: success (then a short
    game) or RuleFileError with every problem located inside the file it names."""
    path = workdir / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    case = {"mode": "bytes", "name": name, "seed": seed, "data": data.decode("latin-1")}
    sources = {str(path): data.decode("utf-8", "replace").removeprefix("\ufeff")}
    try:
        with time_limit(CASE_SECONDS):
            game, _ = compile_variant(load_variant(str(path)))
    except RuleFileError as error:
        STATS["file:refused"] += 1
        return _check_error(error, sources, case)
    except Hang as error:
        return Finding("hang", f"loading: {error}", case)
    except Exception:
        return Finding("exception", traceback.format_exc(limit=8), case)
    return play_short(game, seed, case, "file")
