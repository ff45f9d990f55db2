"""Error types of sorry-rules.

Contract: every error the package raises on purpose is a `SorryRulesError`. Front ends
catch that one type, print its message and exit with `exit_code`; anything else is a bug.

Problems in files (rule files and position files) are collected, not raised one at a time:
every stage adds `Problem`s (file, line, column (1-based), a stable code from `CODES`, a
message meant for a person, a severity) to one `ProblemCollector`, and a `RuleFileError` or
`PositionError` carries all of them. `SorryRulesError.report()` is the one text a front end
prints: one `file:line:col: severity: message [CODE]` line per problem, or `error: message`
for an error that belongs to no file (a usage problem, a damaged save file).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

#: Stable problem codes. A code never changes meaning once published; new ones are added.
CODES: dict[str, str] = {
    # Reading and YAML structure
    "SR100": "file cannot be read",
    "SR101": "file is not UTF-8 text",
    "SR102": "file too large",
    "SR103": "YAML syntax error",
    "SR104": "duplicate key",
    "SR105": "YAML anchors and aliases are not allowed",
    "SR106": "nesting too deep",
    "SR107": "YAML tags are not allowed",
    "SR108": "more than one YAML document",
    "SR109": "too many YAML nodes",
    # Schema (pydantic models)
    "SR201": "required field missing",
    "SR202": "unknown field",
    "SR203": "wrong type",
    "SR204": "invalid value",
    # DSL
    "SR301": "DSL syntax error",
    "SR302": "unknown name in DSL",
    "SR303": "DSL expression too large",
    "SR304": "DSL construct not allowed here",
    # Overlays
    "SR401": "extended rule file not found",
    "SR402": "extends cycle",
    "SR403": "rule file outside the folders rule files are read from",
    "SR404": "not a rule file",
    "SR405": "two overlays set one field differently (the later one is played)",
    # Meaning (cross-field checks)
    "SR501": "unknown colour",
    "SR502": "unknown card",
    "SR503": "card in deck without effect",
    "SR504": "effect without card in deck",
    "SR505": "board geometry invalid",
    "SR506": "teams inconsistent",
    "SR507": "no card can start a pawn",
    "SR508": "number out of range",
    "SR509": "Home unreachable",
    "SR510": "player counts inconsistent",
    "SR511": "slides overlap",
    "SR512": "rule not played on this board kind",
    "SR513": "turn rule not played with this way of taking cards",
    "SR514": "turn rule that can never apply",
    "SR515": "card that can never be played",
    "SR516": "word listed twice",
    "SR517": "extra draw written twice in one way of playing an effect",
    # The open rule vocabulary (counters:, filters:, after:)
    "SR520": "counter named like a DSL word",
    "SR521": "unknown counter",
    "SR522": "counter never changed or never read",
    "SR529": "filter, consequence or win condition that can never hold (or a filter that always holds, or a win "
             "condition that holds before any move)",
    # Movement geometry (geometry:)
    "SR550": "geometry contradicts another rule",
    "SR551": "geometry rule changes nothing",
    "SR552": "geometry rule not played with this split",
    "SR560": "mark named like a DSL word",
    "SR561": "unknown mark",
    "SR562": "mark never placed or never read",
    "SR563": "mark placed on every chosen pawn where only one keeps it",
    # Squares that hold several pawns, named squares (board.hold, board.squares)
    "SR570": "square named like a DSL word",
    "SR571": "rule not played where squares hold several pawns",
    # Position files (`sorry-play moves --state`); unknown colours and cards are SR501/SR502
    "SR601": "not a square in position notation",
    "SR602": "two pawns on one square",
    "SR603": "colour not seated, or seated twice",
    "SR604": "card or hand does not fit how the variant plays",
    "SR605": "mark on a square without a pawn to carry it",
    "SR606": "turn state does not fit the variant's turn rules",
    "SR607": "mark placed more often than its kind allows",
    "SR608": "game already over in this position",
    "SR609": "pawn on a square its colour never reaches",
    "SR610": "mark placed by a player no rule lets place it on that pawn",
}


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in a file, located at `file:line:col` (1-based), with a code from CODES."""

    file: str
    line: int
    col: int
    code: str
    message: str
    severity: str = "error"  # "error" or "warning"

    def format(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"


class Locator(Protocol):
    """Maps a path into loaded data (a tuple of keys and indices) to a place in a file."""

    def mark(self, path) -> "Mark": ...

    def key_mark(self, path) -> "Mark": ...

    def in_text(self, path, offset: int) -> "Mark": ...

    def cut_at_comma(self, path) -> bool: ...

    def latest(self, paths) -> tuple: ...


class Mark(Protocol):
    file: str
    line: int
    col: int


class BySeverity:
    """`errors` and `warnings` of anything that keeps its problems in `self.problems`."""

    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


class ProblemCollector(BySeverity):
    """The one collector of problems, for every stage (reading, YAML, schema, DSL, meaning).

    `add` records a problem at an explicit place; `at` and `in_text` locate it through
    `locator` (the source map of the loaded data: `rules.loader.Origins`), at the value, the
    key (`key=True`) or a character of a DSL text. Problems are kept in the order found."""

    def __init__(self, locator: Locator | None = None):
        self.locator = locator
        self.problems: list[Problem] = []

    def add(self, file: str, line: int, col: int, code: str, message: str, severity: str = "error") -> None:
        self.problems.append(Problem(file, line, col, code, message, severity))

    def add_at(self, mark: Mark, code: str, message: str, severity: str = "error") -> None:
        self.add(mark.file, mark.line, mark.col, code, message, severity)

    def extend(self, problems) -> None:
        self.problems.extend(problems)

    def at(self, path, code: str, message: str, severity: str = "error", key: bool = False, also: tuple = ()) -> None:
        """A problem with the value at `path` (with its key when `key`); with `also`, other
        paths the problem is between, said where the file merged last wrote one of them."""
        if also:
            path = self.locator.latest((path, *also))
        mark = self.locator.key_mark(path) if key else self.locator.mark(path)
        self.add_at(mark, code, message, severity)

    def in_text(self, path, offset: int, code: str, message: str, severity: str = "error") -> None:
        """A problem at character `offset` of the text at `path` (a DSL text)."""
        self.add_at(self.locator.in_text(path, offset), code, message, severity)

    def __bool__(self) -> bool:
        return bool(self.problems)


class SorryRulesError(Exception):
    """Base of every error sorry-rules raises on purpose. `exit_code` is for front ends."""

    exit_code = 1
    problems: list[Problem] = []

    def report(self) -> str:
        """What a front end prints: the problems, one formatted line each, or `error: message`."""
        return "\n".join(p.format() for p in self.problems) if self.problems else f"error: {self}"


class ProblemsError(SorryRulesError):
    """Located problems; `problems` holds all of them, sorted; str() is one line per problem."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(p.format() for p in self.problems))


class RuleFileError(ProblemsError):
    """One or more problems in rule files."""


class PositionError(SorryRulesError):
    """A position (state) file or position notation that does not fit the variant.

    Raised with a message (the engine's notation parser: no file is known there) or with
    the located problems of a position file (`PositionError.of(problems)`)."""

    def __init__(self, message: str = "", problems: list[Problem] | None = None):
        self.problems = sorted(problems or [])
        super().__init__(message or "\n".join(p.format() for p in self.problems))

    @classmethod
    def of(cls, problems: list[Problem]) -> "PositionError":
        return cls(problems=problems)


class SaveFileError(SorryRulesError):
    """A save file that is damaged, edited, of another version or of another variant."""


class IllegalMoveError(SorryRulesError):
    """A move or choice that is not legal in the state it was offered for."""


class UsageError(SorryRulesError):
    """Command-line arguments that do not make sense together, or that name nothing
    (an unknown variant, overlay or card): printed as `error: message`, exit code 2."""

    exit_code = 2
