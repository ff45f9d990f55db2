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

from pathlib import Path

from pydantic import ValidationError

from sorry_rules import dsl
from sorry_rules.authoring.validatereport import (  # noqa: F401 (the report and its formats, re-exported)
    Report, collect_paths, format_github, format_json, format_text, report_of, shown_name, summary,
)
from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError
from sorry_rules.authoring.validatechecks import safe_context, variant_problems
from sorry_rules.compiler.build import compile_text
from sorry_rules.rules.loader import content_hash, read_merged, resolve, schema_problems
from sorry_rules.rules.model import Variant
from sorry_rules.rules.yamlsafe import load_yaml_file

def validate_paths(args) -> Report:
    """Validate every file `args` name (see `collect_paths`), every one checked afresh
    (`authoring.validatecache.validate_paths` gives the same report through the cache)."""
    return report_of(args, validate_file)


# ---- one file ----------------------------------------------------------------------------
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
        problems += _raw_dsl_problems(merged.data, merged.origins)
        problems += _cross_field_despite(error, merged, path)
        return sorted(set(problems)), *trace
    if on_valid is not None and chain_complete:
        on_valid(variant)
    problems += variant_problems(variant, merged.origins, shown_name(Path(path)), analyse=chain_complete,
                                  trees=(merged.files, content_hash(merged.data)))
    return sorted(set(problems)), *trace


def _cross_field_despite(error, merged, path) -> list[Problem]:
    """Cross-field problems (SR5xx) of the rest of a file whose schema failed: fields that
    failed and have a default are set aside, and the rest is checked as a whole."""


    failing = {item["loc"][0] for item in error.errors() if item["loc"]}
    optional = {name for name, info in Variant.model_fields.items() if not info.is_required()}
    if not failing or not failing <= optional:
        return []
    rest = {k: v for k, v in merged.data.items() if k not in failing}
    try:
        variant = Variant.model_validate(rest)
    except ValidationError:
        return []
    found = variant_problems(variant, merged.origins, shown_name(Path(path)), analyse=False)
    set_aside = set()  # where the fields that failed stand: their defaults' problems would point there
    for name in failing:
        set_aside |= _places(merged.data.get(name), merged.origins, (name,))
    return [p for p in found if p.code.startswith("SR5") and (p.file, p.line, p.col) not in set_aside]


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


def _raw_dsl_problems(data: dict, origins) -> list[Problem]:

    board = data.get("board")
    if isinstance(board, dict) and board.get("kind") == "grid":
        return _raw_grid_dsl_problems(data, origins)
    ctx = safe_context(data.get("colours"), data.get("teams"), data.get("board"), data.get("rules"), data.get("pawns"),
                        data.get("marks"), data.get("counters"), data.get("turn"))
    out = ProblemCollector(origins)
    for path, text, kind in _raw_texts(data):
        compile_text(ctx.programs, out, path, text, kind)
    return out.problems


def _raw_grid_dsl_problems(data: dict, origins) -> list[Problem]:
    """The DSL syntax of a grid variant whose schema failed (names are judged only on a
    built grid, so only the syntax is checked here)."""
    out = ProblemCollector(origins)
    for path, text, kind in _raw_texts(data):
        try:
            dsl.parse_effect(text) if kind in ("effect", "following") else dsl.parse_expr(text)
        except dsl.DslError as error:
            out.in_text(path, error.offset, error.code, error.message)
    return out.problems


