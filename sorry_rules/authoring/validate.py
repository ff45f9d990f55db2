"""`sorry-play validate`: check rule files and report every problem, located and coded.

Stages, each run as far as the previous ones allow, so one run reports as much as it can:
  1. reading, YAML and `extends:` (yamlsafe, loader): a file whose YAML fails stops here,
     but its `extends:` chain and the other files still count;
  2. the schema (pydantic models). When it fails, every DSL text that is still a string is
     parsed and its names checked anyway, against the parts of the board that are valid;
  3. cross-field checks and every DSL text (compiler);
  4. whole-game analyses (`sorry_rules.authoring.analysis`), when nothing above found an error.
A file with `extends:` is validated as merged over its chain (a house overlay alone is
checked as the variant it makes). A problem is reported once, however many of the given
files share the base it is in.

Contract: `validate_paths` returns a `Report`; bad input (binary files, invalid UTF-8, alias
bombs, huge or deeply nested files) only ever gives problems, never an exception. Paths
that match nothing raise `UsageError`. Only light modules are imported here (no rich).
"""

from __future__ import annotations

import copy
from pathlib import Path

from pydantic import ValidationError

from sorry_rules.authoring.validatereport import (  # noqa: F401 (the report and its formats, re-exported)
    Report, collect_paths, format_github, format_json, format_text, report_of, shown_name, summary,
)
from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError
from sorry_rules.authoring.validatechecks import safe_context, variant_problems
from sorry_rules.compiler.build import compile_text, dsl_texts, texts_syntax
from sorry_rules.rules.loader import (content_hash, data_path, literal_words, overlay_conflicts, read_merged, resolve,
                                      schema_problems)
from sorry_rules.rules.model import Variant
from sorry_rules.rules.yamlsafe import load_yaml_file

def validate_paths(args) -> Report:
    """Validate every file `args` name (see `collect_paths`), every one checked afresh
    (`authoring.validatecache.validate_paths` gives the same report through the cache)."""
    return report_of(args, validate_file)


def validate_combined(args, rules) -> Report:
    """`validate_paths(args)` with the `rules` overlays on top of every file, as `--rule`
    plays them: every problem of each combination, and the overlays' conflicts (SR405).
    Checked afresh (no cache). UsageError when an overlay names no file or is a whole game."""
    rules = tuple(rules)

    def problems_of(path) -> list[Problem]:
        merged = read_merged(Path(path), rules, name_of=shown_name)
        found = validate_file_traced(path, merged)[0]
        return sorted(set(found) | set(overlay_conflicts(Path(path), rules, name_of=shown_name)))
    return report_of(args, problems_of)


# ---- one file ----------------------------------------------------------------------------
def variant_errors(spec, rules=()) -> list[Problem]:
    """Every error of variant `spec` (a path or bundled name) with the `rules` overlays on
    top, found as `validate` finds a file's (what `play` and `explain` report when the game
    cannot be loaded: loading stops at the first stage that fails); files named as the
    loader names them."""
    merged = read_merged(spec, tuple(rules))
    problems = validate_file_traced(resolve(str(spec)), merged)[0]
    return [p for p in problems if p.severity == "error"]


def validate_file(path) -> list[Problem]:
    """Every problem of rule file `path`, validated as merged over its `extends:` chain."""
    return validate_file_traced(path)[0]


def validate_file_traced(path, merged=None, on_valid=None) -> tuple[list[Problem], tuple | None, tuple]:
    """`validate_file`, with what its result depends on: (problems, inputs, lookups) as in
    `rules.loader.Merged` (every file read with the SHA-256 of its bytes, every `extends:`
    name looked up), inputs None when the result should not be kept (a file went missing).
    `merged`: what `read_merged(Path(path), name_of=shown_name)` gave, when the caller has it;
    `on_valid(variant)` is called when the merged data of a chain read without problems
    validated with the models (for the caches)."""
    if merged is None and resolve(str(path)) is None:  # gone since it was listed: the reason it cannot be read (SR100)
        try:
            load_yaml_file(path, shown_name(Path(path)))
        except RuleFileError as error:
            return list(error.problems), None, ()
    if merged is None:
        merged = read_merged(Path(path), name_of=shown_name)
    trace = merged.inputs, merged.lookups
    problems = list(merged.problems)
    if merged.data is None:
        return sorted(problems), *trace
    chain_complete = not any(p.severity == "error" for p in problems)
    try:
        variant = Variant.model_validate(merged.data)
    except ValidationError as error:
        found = schema_problems(merged.data, merged.origins, error)
        if not chain_complete:  # a base that failed to load would have supplied them
            found = [p for p in found if p.code != "SR201"]
        problems += found
        mended = _mended(merged.data, error)
        problems += _raw_dsl_problems(merged.data, merged.origins, mended)
        problems += _cross_field_despite(mended, merged, path, _mended(merged.data, error, far=True))
        return sorted(set(problems)), *trace
    if on_valid is not None and chain_complete:
        on_valid(variant)
    problems += variant_problems(variant, merged.origins, shown_name(Path(path)), analyse=chain_complete,
                                  trees=(merged.files, content_hash(merged.data)))
    return sorted(set(problems)), *trace


def _cross_field_despite(mended, merged, path, far=None) -> list[Problem]:
    """Cross-field problems (SR5xx) of the rest of a file whose schema failed: `mended`, the
    data mended where it failed (`_mended`), is checked as a whole; problems at the places of
    the values mended, or naming a key mended (a card whose count was wrong), are left out:
    they would only repeat the schema's problem or follow from the mending. `far`: the data
    mended with numbers out of range set far inside their range instead (`_mended(far=True)`):
    a problem found with one mending only follows from the number chosen, not from the file."""
    if mended is None:
        return []
    data, paths = mended
    variant = Variant.model_validate(data)
    found = variant_problems(variant, merged.origins, shown_name(Path(path)), analyse=False)
    if far is not None and far[0] != data:
        found = set(found) & set(variant_problems(Variant.model_validate(far[0]), merged.origins, shown_name(Path(path)),
                                                  analyse=False))
    set_aside = set()
    for where in paths:
        set_aside |= _places(_at(merged.data, where), merged.origins, where)
    keys = {f"'{where[-1]}'" for where in paths if len(where) > 1 and isinstance(where[-1], str)}
    # a grid's texts were only read for their syntax (`_raw_grid_dsl_problems`): their names are judged here
    codes = ("SR5", "SR3") if variant.board.kind == "grid" else ("SR5",)
    # a name put in place of a refused one is said as the author wrote it
    written = {_at(data, where): _at(merged.data, where) for where in paths
               if isinstance(_at(data, where), str) and _at(data, where).startswith(PLACEHOLDER)}
    return [Problem(p.file, p.line, p.col, p.code, _as_written(p.message, written), p.severity) for p in found
            if p.code.startswith(codes) and (p.file, p.line, p.col) not in set_aside
            and not any(key in p.message for key in keys)]


#: the start of a name put in place of one the schema refused (`_mend`)
PLACEHOLDER = "mended-"


def _as_written(message: str, written: dict) -> str:
    """`message` with each placeholder name the mending put in replaced by the name written."""
    for placeholder, original in sorted(written.items(), key=lambda item: -len(item[0])):  # mended-10 before mended-1
        message = message.replace(placeholder, str(original))
    return message


#: how far inside its range `_mended(far=True)` sets a whole number out of range
FAR = 1_000

#: a number out of range is mended to the bound it crossed
_BOUNDS = {"less_than_equal": ("le", 0), "less_than": ("lt", -1), "greater_than_equal": ("ge", 0),
           "greater_than": ("gt", 1)}


def _mended(data: dict, error, rounds: int = 4, far: bool = False) -> tuple[dict, list] | None:
    """(a copy of `data` the models accept, the paths mended) or None: each value the schema
    refused is mended the least way that keeps the rest meaningful: an unknown field is left
    out, a number out of range set to its bound, a number written as text read as one, a count
    that is no number set to 1, a name in a list that breaks the pattern of names replaced by
    one that keeps it (a colour list keeps its length), an item of a list of whole numbers
    that is none replaced by a number none of the others is (the list keeps its length: faces,
    weights), a named entry that lacks a required
    field (`also.x`, `scoring.s`, `board.squares.q`) left out whole, any other value left out
    (its default) unless it is required (a required number that is none: 1, `far`: FAR); a
    number where a text goes is read as that text, a
    word not in its list of words as the first of them (`far`: the last).
    Several rounds, as mending one value may let the models reach another. `far`: a whole
    number out of range is set `FAR` inside the bound it crossed instead (and to the other
    bound in the next round when that is nearer)."""
    data = copy.deepcopy(data)
    paths: list = []
    numbers_left_out: set = set()  # fields whose value was no number, left out: a number goes back if one is required
    for _ in range(rounds):
        found = {}  # one error a place: the members of a union each refuse the same value
        for item in error.errors():
            place = data_path(data, tuple(item["loc"]))
            found.setdefault(place, item)
        found = list(found.items())
        # the last places first, so that leaving out an item of a list does not move the others
        for (where, missing), item in sorted(found, key=lambda f: [(isinstance(k, str), k) for k in f[0][0]], reverse=True):
            if any(where[:len(gone)] == gone for gone in paths if len(gone) < len(where) and _at(data, gone) is None):
                continue  # inside an entry left out whole already
            if missing is not None and where + (missing,) in numbers_left_out and isinstance(_at(data, where), dict):
                _at(data, where)[missing] = FAR if far else 1  # a required number: any, its bounds mended next round
                continue
            if missing is not None and len(where) >= 2 and isinstance(_at(data, where[:-1]), dict):
                _at(data, where[:-1]).pop(where[-1], None)  # a named entry without a required field: left out whole
            elif missing is not None or not where or not _mend(data, where, item, far and where not in paths):
                return None
            elif item["type"] in ("int_type", "int_parsing") and isinstance(_at(data, where[:-1]), dict) \
                    and where[-1] not in _at(data, where[:-1]):
                numbers_left_out.add(where)
            paths.append(where)
        try:
            Variant.model_validate(data)
            return data, paths
        except ValidationError as again:
            error = again
    return None


def _mend(data: dict, where: tuple, item: dict, far: bool = False) -> bool:
    """Mend the value at `where` for pydantic error `item` (see `_mended`; `far`: a whole
    number is set `FAR` inside the bound it crossed); False when it cannot."""
    parent, key = _at(data, where[:-1]), where[-1]
    kind, value, ctx = item["type"], item.get("input"), item.get("ctx") or {}
    if kind in _BOUNDS and isinstance(value, (int, float)) and not isinstance(value, bool):
        name, step = _BOUNDS[kind]
        if far and isinstance(value, int):
            step += FAR if name in ("ge", "gt") else -FAR
        parent[key] = ctx[name] + step
    elif kind in ("int_type", "int_parsing") and isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        parent[key] = int(value)
    elif kind == "literal_error" and literal_words(item) and isinstance(parent, (dict, list)):
        words = literal_words(item)  # a word not in its list: one of the list (the first; `far`: the last)
        parent[key] = words[-1] if far else words[0]
    elif kind == "string_type" and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[key] = str(value)  # a name written as a number (a card 7 in a grid's cells): read as the text
    elif kind == "missing":
        return False
    elif kind in ("string_pattern_mismatch", "string_too_long", "string_too_short") and isinstance(parent, list) \
            and isinstance(key, int) and isinstance(value, str):
        parent[key] = f"{PLACEHOLDER}{key}"  # a name the list keeps its length with (a colour list)
    elif isinstance(parent, dict) and kind in ("int_type", "int_parsing") and \
            all(type(v) is int for k, v in parent.items() if k != key):
        parent[key] = 1  # a mapping of counts (a deck): the entry stays, so nothing else loses it
    elif isinstance(parent, list) and (kind.startswith("int_") or kind == "finite_number"):
        # a list of whole numbers (faces, weights) keeps its length: a number none of the others is
        parent[key] = min(set(range(1, len(parent) + 2)) - {v for v in parent if type(v) is int})
    elif isinstance(parent, (dict, list)):
        del parent[key]
    else:
        return False
    return True


def _at(data, where: tuple):
    """The value at `where` in `data`, None where a key on the way is gone."""
    for key in where:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _places(data, origins, path: tuple) -> set:
    """(file, line, column) of the value and the key at `path` and at every path below it."""
    places = {(m.file, m.line, m.col) for m in (origins.mark(path), origins.key_mark(path))}
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        places |= _places(value, origins, path + (key,))
    return places


def _raw_texts(data: dict) -> list[tuple[tuple, str, str]]:
    """The DSL texts of unvalidated data that are strings where a DSL text belongs."""
    texts = []
    cards = data.get("cards")
    if isinstance(cards, dict):
        texts += [(("cards", k), t, "effect") for k, t in cards.items() if isinstance(t, str)]
    if isinstance(data.get("win"), str):
        texts.append((("win",), data["win"], "bool"))
    also = data.get("also")
    if isinstance(also, dict):
        texts += [(("also", k, "effect"), item["effect"], "effect") for k, item in also.items()
                  if isinstance(item, dict) and isinstance(item.get("effect"), str)]
    scoring = data.get("scoring")
    if isinstance(scoring, dict):
        for key, item in scoring.items():
            if not isinstance(item, dict):
                continue
            if item.get("kind") == "formula" and isinstance(item.get("points"), str):
                texts.append((("scoring", key, "points"), item["points"], "int"))
            elif item.get("kind") == "tiers" and isinstance(item.get("tiers"), list):
                for i, tier in enumerate(item["tiers"]):
                    if isinstance(tier, dict) and isinstance(tier.get("when"), str):
                        texts.append((("scoring", key, "tiers", i, "when"), tier["when"], "bool"))
    return texts


def _raw_dsl_problems(data: dict, origins, mended=None) -> list[Problem]:
    """The DSL problems of the texts of `data`, whose schema failed, judged against the parts
    that are valid: every text the author wrote, taken from `mended` ((data, paths mended) of
    `_mended`) where the data could be mended (texts at or under a mended place left out),
    else the texts that are strings where a DSL text belongs (`_raw_texts`)."""
    board = data.get("board")
    if isinstance(board, dict) and board.get("kind") == "grid":
        return _raw_grid_dsl_problems(data, origins)
    out = ProblemCollector(origins)
    if mended is None:
        ctx = safe_context(data.get("colours"), data.get("teams"), data.get("board"), data.get("rules"), data.get("pawns"),
                           data.get("marks"), data.get("counters"), data.get("turn"))
        texts = _raw_texts(data)
    else:  # the names the texts read are judged against the mended parts (a square whose symbol failed still is one)
        fixed, paths = mended
        v = Variant.model_validate(fixed)
        ctx = safe_context(v.colours, v.teams, v.board, v.rules, v.pawns, v.marks, v.counters, v.turn)
        texts = [(where, text, kind) for where, text, kind in dsl_texts(v)
                 if not any(where[:len(path)] == path for path in paths)]
    for where, text, kind in texts:
        compile_text(ctx.programs, out, where, text, kind)
    return out.problems


def _raw_grid_dsl_problems(data: dict, origins) -> list[Problem]:
    """The DSL syntax of a grid variant whose schema failed (names are judged only on a
    built grid, so only the syntax is checked here)."""
    out = ProblemCollector(origins)
    texts_syntax(_raw_texts(data), out)
    return out.problems


