"""Error types of sorry-rules.

Contract: every error the package raises on purpose is a `SorryRulesError`. Front ends
catch that one type, print its message and exit with `exit_code`; anything else is a bug.

Rule-file problems are collected, not raised one at a time: a `RuleFileError` carries every
`Problem` found in a file, each with file, line, column (1-based), a stable code and a
message meant for a person.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
}


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in a rule file, located at `file:line:col` (1-based)."""

    file: str
    line: int
    col: int
    code: str
    message: str
    severity: str = "error"  # "error" or "warning"

    def format(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"


class SorryRulesError(Exception):
    """Base of every error sorry-rules raises on purpose. `exit_code` is for front ends."""

    exit_code = 1


class RuleFileError(SorryRulesError):
    """One or more problems in rule files; `problems` holds all of them, sorted."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(p.format() for p in self.problems))


class PositionError(SorryRulesError):
    """A position (state) file or position notation that does not fit the variant."""


class SaveFileError(SorryRulesError):
    """A save file that is damaged, edited, of another version or of another variant."""


class IllegalMoveError(SorryRulesError):
    """A move or choice that is not legal in the state it was offered for."""


class UsageError(SorryRulesError):
    """Command-line arguments that do not make sense together."""

    exit_code = 2


@dataclass
class ProblemCollector:
    """Accumulates problems for one or more files, so all of them are reported at once."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, file: str, line: int, col: int, code: str, message: str, severity: str = "error") -> None:
        self.problems.append(Problem(file, line, col, code, message, severity))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]
