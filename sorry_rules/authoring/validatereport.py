"""`sorry-play validate`'s files and report: which files a run checks, and how its report is written.

Light on purpose (no YAML, no pydantic, no compiler): with every file's result in the cache
(`authoring.validatecache`) a run needs nothing more. The checks themselves are in
`authoring.validate`, which re-exports these names.

Contract: `collect_paths(args)` lists the files to check (files as given, folders searched
for *.yaml and *.yml, glob patterns, bundled names), raising `UsageError` for an argument
that matches nothing (or, given a list `unnamed`, adding its message there and going on);
`report_of(args, problems_of)` gathers the problems of every file named, with the messages
of the arguments that name nothing in `Report.unnamed` (a UsageError only when there is no
argument); `format_text`,
`format_json`, `format_github` and `summary` write a `Report` (text: one
`path:line:col: severity: message [code]` line per problem).
"""

from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from sorry_rules.base.errors import BySeverity, Problem, UsageError
from sorry_rules.base.safeio import lstat_or_none
from sorry_rules.rules.locate import allowed, close_bundled, display_name, real_path, resolve

RULE_SUFFIXES = (".yaml", ".yml")
_GLOB_CHARS = frozenset("*?[")


@dataclass
class Report(BySeverity):
    files: list[str] = field(default_factory=list)     # the files validated, as shown
    problems: list[Problem] = field(default_factory=list)
    unnamed: list[str] = field(default_factory=list)   # usage errors: arguments that name no file

    def strict(self) -> "Report":
        """The same report with every warning turned into an error (`--strict`)."""
        problems = [Problem(p.file, p.line, p.col, p.code, p.message, "error") for p in self.problems]
        return Report(list(self.files), problems, list(self.unnamed))


# ---- which files -------------------------------------------------------------------------
def shown_name(path: Path) -> str:
    """How a file is named in problems: relative to the working directory when inside it
    (what editors and CI annotations need), else as the loader names it; a link by its own
    name (the file it leads to may be missing)."""

    try:
        return Path(os.path.abspath(path)).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return display_name(Path(path))


def _directory_files(root: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        found.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(RULE_SUFFIXES))
    return found


def collect_paths(args, unnamed: list | None = None) -> list[Path]:
    """Files to validate: files as given, directories searched recursively for *.yaml and
    *.yml (hidden folders skipped), glob patterns expanded (`**` included), bundled variant
    names. An argument that matches nothing raises UsageError, or with `unnamed` adds the
    error's message there."""

    files: list[Path] = []
    for arg in args:
        try:
            files.extend(_named_files(arg))
        except UsageError as error:
            if unnamed is None:
                raise
            unnamed.append(str(error))
    unique: dict = {}
    for file in files:
        unique.setdefault(real_path(file), file)  # the first of the names of one file
    return list(unique.values())



def _named_files(arg: str) -> list[Path]:
    """The files one argument of `collect_paths` names; UsageError when none."""
    path = Path(arg)
    try:
        lstat_or_none(path)
    except OSError as error:  # a name the system refuses (too long)
        raise UsageError(f"{arg[:80]}{'...' if len(arg) > 80 else ''}: {error.strerror or error}") from None
    if path.is_dir():
        found = _directory_files(path)
        if not found:
            raise UsageError(f"{arg}: no *.yaml or *.yml files in this folder")
        return found
    if path.exists() or path.is_symlink():  # a link that leads nowhere is reported as such (SR100)
        return [path]
    if _GLOB_CHARS & set(arg):
        matches = sorted(glob.glob(arg, recursive=True))
        if not matches:
            raise UsageError(f"{arg}: no file matches this pattern")
        return [f for match in matches for f in (_directory_files(Path(match)) if Path(match).is_dir() else [Path(match)])]
    bundled = resolve(arg)
    if bundled is None:
        raise UsageError(f"{arg}: no such file or folder, and not a bundled variant name{close_bundled(arg)}")
    return [bundled]


def _is_folder(arg: str) -> bool:
    """Whether `arg` names a folder (a name the system refuses, too long say, names none)."""
    try:
        return Path(arg).is_dir()
    except OSError:
        return False


def report_of(args, problems_of) -> Report:
    """The report on every file `args` name (`collect_paths`), `problems_of(path)` giving a
    file's problems; a problem is reported once, however many files share it (a base's).
    Arguments that name nothing are in `unnamed` (every one of them, perhaps: a report of no
    file); UsageError when there is no argument at all."""
    unnamed: list[str] = []
    files = collect_paths(args, unnamed)
    if not files and not unnamed:
        raise UsageError("no rule files to validate")
    report = Report(unnamed=unnamed)
    seen: set[Problem] = set()
    with allowed(arg for arg in args if _is_folder(arg)):  # a folder named is a tree rule files are read from
        for path in files:
            report.files.append(shown_name(path))
            for problem in problems_of(path):
                if problem not in seen:
                    seen.add(problem)
                    report.problems.append(problem)
    return report


# ---- output ------------------------------------------------------------------------------
def format_text(report: Report) -> str:
    return "\n".join(p.format() for p in report.problems)


def summary(report: Report) -> str:
    files = len(report.files)
    errors, warnings = len(report.errors), len(report.warnings)
    if not errors and not warnings:
        return f"{files} rule file{'s' if files != 1 else ''} valid"
    return (f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''} "
            f"in {files} rule file{'s' if files != 1 else ''}")


def format_json(report: Report) -> str:
    """The report as JSON: `valid` (no error, and every argument named a file), the files
    checked, the counts, each problem, and `usage_errors`: the arguments that named nothing
    (exit code 2), each as its message."""
    problems = [{"file": p.file, "line": p.line, "col": p.col, "severity": p.severity, "code": p.code,
                 "message": p.message} for p in report.problems]
    return json.dumps({"valid": not report.errors and not report.unnamed, "files": report.files,
                       "errors": len(report.errors), "warnings": len(report.warnings), "problems": problems,
                       "usage_errors": list(report.unnamed)}, indent=2, ensure_ascii=False)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(report: Report) -> str:
    """GitHub Actions workflow commands: one `::error` / `::warning` annotation per problem."""
    return "\n".join(f"::{p.severity} file={_escape_property(p.file)},line={p.line},col={p.col},"
                     f"title={_escape_property(p.code)}::{_escape_data(p.message)} [{p.code}]" for p in report.problems)
