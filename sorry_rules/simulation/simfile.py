"""Results files of simulations: one JSON line per finished game, written as the games come.

Contract:
- Line 1 is the header: `{"format": "sorry-rules-simulation", "version": 1, "command":
  "simulate" | "compare", "sides": {name: parameters}, "rule_data": {name: merged rule data}}`.
  A side's parameters are everything that decides its games: variant spec, overlays,
  `content_hash` of the merged rule data, players, bots (per seat), rotate, seed, max_plies,
  games, and the sorry-rules version (`sorry_rules`). The rule data makes the file
  self-contained: `read` compiles it, so summarising needs no rule file.
- Every further line is one game: `{"side": name, **GameResult.as_json()}`. `Writer.add`
  writes and flushes one whole line at a time, so a run killed at any moment leaves at
  most a torn last line.
- `read(path)` returns a `ResultsFile`: the header, the side setups and every game's result
  once. A last line that is not whole JSON is torn: it is left out with a warning (and cut
  off before a file is continued). Anything else wrong (not a results file, a bad line
  before the last, a game out of range, the same game twice with different results, rule
  data not matching its digest) is a `ResultsFileError` naming the file and line: never a
  traceback, never a file half trusted.
- `mismatch(file_header, header)` lists the parameters that differ: a file is continued
  only by the command that wrote it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from sorry_rules.base.errors import SorryRulesError
from sorry_rules.base.limits import MAX_CHOICES, MAX_COLOURS, MAX_GAMES, MAX_RESULTS_BYTES
from sorry_rules.base.safeio import kind_of, loads_json, open_regular
from sorry_rules.rules.loader import content_hash
from sorry_rules import __version__
from sorry_rules.records.files import RESULTS_FORMAT
from sorry_rules.simulation.simulate import Setup, VariantSource, compiled, result_from_json

FORMAT = RESULTS_FORMAT
VERSION = 1


class ResultsFileError(SorryRulesError):
    """A results file cannot be read, or does not belong to the command."""


def side_parameters(setup: Setup, games: int) -> dict:
    """Everything that decides the games of one side (see the module contract)."""
    source = setup.source
    return {"variant": source.variant, "rules": list(source.rules), "content_hash": source.content_hash,
            "players": setup.players, "bots": list(setup.lineup), "rotate": setup.rotate, "seed": setup.seed,
            "max_plies": setup.max_plies, "games": games, "sorry_rules": source.version}


def header(command: str, plan: dict) -> dict:
    """The header line of a results file for `plan` = {name: (Setup, games)}."""
    return {"format": FORMAT, "version": VERSION, "command": command,
            "sides": {name: side_parameters(setup, games) for name, (setup, games) in plan.items()},
            "rule_data": {name: setup.source.data for name, (setup, _) in plan.items()}}


def mismatch(found: dict, wanted: dict) -> list[str]:
    """The parameters of header `found` that differ from `wanted`'s, as `side.name: file X,
    command Y` (an empty list when the command is the file's)."""
    if found["command"] != wanted["command"]:
        return [f"command: file {found['command']}, command {wanted['command']}"]
    if set(found["sides"]) != set(wanted["sides"]):
        return [f"sides: file {sorted(found['sides'])}, command {sorted(wanted['sides'])}"]
    differences = []
    for name, params in wanted["sides"].items():
        theirs = found["sides"][name]
        prefix = f"{name}." if len(wanted["sides"]) > 1 else ""
        same_rules = theirs.get("content_hash") == params["content_hash"]  # `standard` and `standard.yaml` alike
        for key, value in params.items():
            if theirs.get(key) != value and not (same_rules and key in ("variant", "rules")):
                differences.append(f"{prefix}{key}: file {shown_parameter(theirs.get(key))}, command {shown_parameter(value)}")
    return differences


def shown_parameter(value) -> str:
    """A header value as the command line writes it: a list comma-separated, a flag as
    true/false, nothing as "none"."""
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


class Writer:
    """Appends game lines to a results file, one flushed line per game."""

    def __init__(self, path: str | Path, head: dict | None = None, *, keep: int | None = None):
        """A new file with header `head` (refused if `path` exists), or, with `keep`, the
        file continued after its first `keep` bytes (a torn tail is cut off)."""
        self.path = Path(path)
        self.new = keep is None
        self.written = 0
        try:
            if keep is None:
                self.file = open(self.path, "xb")
                try:
                    self._line(head)
                except ResultsFileError:
                    self.discard()  # not even the header: no file is left
                    raise
            else:
                self.file = open(self.path, "r+b")
                self.file.truncate(keep)
                self.file.seek(max(0, keep - 1))
                if keep and self.file.read(1) != b"\n":   # a whole last line without its newline
                    self.file.write(b"\n")
        except FileExistsError:
            other = "a symbolic link" if os.path.islink(path) else kind_of(path)
            if other is not None:
                raise ResultsFileError(f"{path} is {other}, not a regular file: choose another file") from None
            raise ResultsFileError(f"{path} exists: continue it with --continue {path}, or choose another file") from None
        except FileNotFoundError:
            raise ResultsFileError(f"cannot write {path}: no such folder {str(Path(path).parent)!r}") from None
        except OSError as error:
            raise ResultsFileError(f"cannot write {path}: {error.strerror or error}") from None

    def _line(self, data: dict) -> None:
        try:
            self.file.write(json.dumps(data, separators=(",", ":")).encode() + b"\n")
            self.file.flush()
        except OSError as error:   # a full disk, a file gone: the games so far are in the file
            raise ResultsFileError(f"cannot write {self.path}: {error.strerror or error}") from None

    def add(self, side: str, result, seed: int | None = None) -> None:
        """Append game `result` of `side`; `seed`: the game's own seed (`simulate.game_seed`),
        written beside its index for people to replay it (`sorry-play --auto --seed`)."""
        data = result.as_json()
        self._line({"side": side, "game": data.pop("game"), **({"seed": seed} if seed is not None else {}), **data})
        self.written += 1

    def close(self) -> None:
        try:
            self.file.close()
        except OSError as error:  # what was left to write (a full disk)
            raise ResultsFileError(f"cannot write {self.path}: {error.strerror or error}") from None

    def discard(self) -> None:
        """Close and remove a new file no game was written to (a run that failed to start);
        never raises (the error that ended the run is the one to report)."""
        try:
            self.close()
        except ResultsFileError:
            pass
        if self.new and not self.written:
            self.path.unlink(missing_ok=True)


@dataclass
class ResultsFile:
    """A results file read back: its header, one Setup per side, every game's result."""

    path: Path
    header: dict
    setups: dict                                   # name -> (Setup, games)
    results: dict = field(default_factory=dict)    # name -> {game index: GameResult}
    keep: int = 0                                  # bytes up to the end of the last whole line
    warnings: list = field(default_factory=list)

    def done(self) -> dict:
        """{name: set of the game indices in the file}."""
        return {name: set(games) for name, games in self.results.items()}


def _parsed(line: bytes) -> tuple:
    """(the JSON value of `line`, None) or (None, why it is none)."""
    try:
        return loads_json(line), None
    except ValueError as error:  # bad JSON, not UTF-8, nested too deep, a number too large (JsonLimitError)
        return None, str(error).split("\n")[0]


def read(path: str | Path) -> ResultsFile:
    """Read a results file (see the module contract), line by line: a regular file of at most
    MAX_RESULTS_BYTES. Raises ResultsFileError."""
    path = Path(path)
    try:
        with open_regular(path) as handle:
            if os.fstat(handle.fileno()).st_size > MAX_RESULTS_BYTES:
                raise ResultsFileError(f"{path}: larger than {MAX_RESULTS_BYTES:,} bytes; not a results file of this "
                                       "program")
            return _read_lines(path, handle)
    except OSError as error:
        raise ResultsFileError(f"cannot read {path}: {error.strerror or error}") from None


def _read_lines(path: Path, handle) -> ResultsFile:
    first = handle.readline(MAX_RESULTS_BYTES + 1)
    head = _parsed(first.rstrip(b"\n"))[0] if first else None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ResultsFileError(f"{path}: not a results file of sorry-play simulate or compare (first line)")
    if head.get("command") not in ("simulate", "compare"):
        raise ResultsFileError(f"{path}:1: the header is damaged (command)")
    if head.get("version") != VERSION:
        raise ResultsFileError(f"{path}: results file version {head.get('version')!r}; this sorry-rules reads {VERSION}")
    setups = _setups(path, head)
    found = ResultsFile(path, head, setups, {name: {} for name in setups})
    offset, number, line = len(first), 1, handle.readline(MAX_RESULTS_BYTES + 1)
    while line:
        number += 1
        after = handle.readline(MAX_RESULTS_BYTES + 1)
        data, why = _parsed(line.rstrip(b"\n"))
        if data is None and not after and not line.endswith(b"\n"):
            found.warnings.append(f"{path}:{number}: the last line is torn (a run stopped while writing it); left out")
            break
        if data is None:  # a whole line that is no JSON value: damaged, not torn
            raise ResultsFileError(f"{path}:{number}: not a game result of this file: {why}")
        _add_game(found, number, data)
        offset += len(line)
        line = after
    found.keep = offset
    return found


def _setups(path: Path, head: dict) -> dict:
    try:
        setups = {}
        for name, params in head["sides"].items():
            _check_types(path, name, params)
            data = head["rule_data"][name]
            if content_hash(data) != params["content_hash"]:
                raise ResultsFileError(f"{path}:1: the rule data of side {name} does not match its digest (file damaged)")
            source = VariantSource(params["variant"], tuple(params["rules"]), data, params["content_hash"], __version__)
            setup = Setup(source, params["players"], tuple(params["bots"]), params["seed"], params["max_plies"],
                          params["rotate"])
            setups[name] = (setup, params["games"])
        return setups
    except KeyError as error:
        raise ResultsFileError(f"{path}:1: the header is incomplete or damaged (it lacks {error})") from None
    except (TypeError, AttributeError):
        raise ResultsFileError(f"{path}:1: the header is incomplete or damaged (a value of the wrong kind)") from None


#: The type of each side parameter in a header.
_TYPES = {"variant": str, "rules": list, "content_hash": str, "players": int, "bots": list, "rotate": bool, "seed": int,
          "max_plies": int, "games": int}


def _check_types(path: Path, name: str, params) -> None:
    wrong = [key for key, kind in _TYPES.items() if type(params.get(key)) is not kind]
    if not isinstance(params.get("sorry_rules", ""), str):
        wrong.append("sorry_rules")
    if not wrong:
        players = params["players"]
        if not (1 <= players <= MAX_COLOURS and 1 <= params["games"] <= MAX_GAMES and 1 <= params["max_plies"] <= MAX_CHOICES
                and len(params["bots"]) == players):
            wrong = ["players", "bots", "games", "max_plies"]
        elif not all(isinstance(x, str) for x in (*params["rules"], *params["bots"])):
            wrong = ["rules", "bots"]
    if wrong:
        raise ResultsFileError(f"{path}:1: the header is damaged (side {name}: {', '.join(wrong)})")


#: what a game counts once per ply at most (a forfeit, a discard, ... is one ply)
PER_PLY = ("forfeits", "discards", "passes", "redraws", "actions", "exchanges")


def _add_game(found: ResultsFile, number: int, data) -> None:
    where = f"{found.path}:{number}"
    if not isinstance(data, dict) or not isinstance(data.get("side"), str) or data["side"] not in found.setups:
        raise ResultsFileError(f"{where}: not a game of this file (a JSON object with a known \"side\")")
    side = data["side"]
    setup, games = found.setups[side]
    try:
        result = result_from_json({k: v for k, v in data.items() if k != "side"}, setup.players)
    except ValueError as error:
        raise ResultsFileError(f"{where}: bad game result: {error}") from None
    if result.game >= games:
        raise ResultsFileError(f"{where}: game {result.game} is out of range (the run has {games} games)")
    if result.bot is not None and result.bot not in setup.lineup:
        raise ResultsFileError(f"{where}: bad game result: bot {result.bot!r} plays no seat of this run "
                               f"({', '.join(dict.fromkeys(setup.lineup))})")
    if result.plies > setup.max_plies or result.turns > result.plies or \
            any(getattr(result, kind) > result.plies for kind in PER_PLY):
        raise ResultsFileError(f"{where}: bad game result: a game has at most {setup.max_plies:,} plies (max_plies), "
                               f"turns and each of {', '.join(PER_PLY)} at most its plies")
    seen = found.results[side].setdefault(result.game, result)
    if seen != result:
        raise ResultsFileError(f"{where}: game {result.game} is already in the file with other results")


def compiled_side(found: ResultsFile, name: str):
    """The Game of side `name`, compiled from the rules stored in the file. Raises
    ResultsFileError when this sorry-rules cannot load them (e.g. a file of another version)."""
    setup, _ = found.setups[name]
    try:
        return compiled(setup.source)
    except (SorryRulesError, ValueError) as error:   # pydantic's ValidationError is a ValueError
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ResultsFileError(f"{found.path}:1: the rules of side {name} stored in the file do not load with "
                               f"this sorry-rules ({first})") from None


def version_note(found: ResultsFile) -> str | None:
    """A warning when the file was written by another sorry-rules version."""
    versions = sorted({params.get("sorry_rules") for params in found.header["sides"].values()} - {__version__}, key=str)
    return f"{found.path} was written by sorry-rules {', '.join(map(str, versions))}; this is {__version__}" if versions else None
