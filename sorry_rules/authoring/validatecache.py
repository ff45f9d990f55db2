"""`sorry-play validate` through the cache: a file whose inputs did not change is not checked again.

Contract: `validate_paths(args)` returns exactly the `Report` of
`authoring.validate.validate_paths(args)` (the same problems, warnings included, in the same
order, with the same locations, codes and messages). A file's result is kept on disk
(`base.diskcache`, JSON data only, checksummed) under a key naming the code
(`code_fingerprint`), the working folder (problems name files relative to it) and the path
as given; the entry lists what the result depends on, and it is used only when all of that
is unchanged:
- every file read for it (the file and its `extends:` chain) still has the same SHA-256 of
  its bytes;
- every `extends:` name still resolves to the same file (a new file beside an overlay could
  change which base it means).
Anything else (no entry, a damaged or foreign entry, one changed byte) checks the file
afresh and rewrites the entry. A result that involved a file that could not be read is not
kept. With every result in the cache, the run imports neither YAML, pydantic, lark nor the
compiler (the checks are imported on the first miss). A file that changed is read again, but
when what it merges to is data checked before with no problem at all (a comment edited, the
layout changed: a second kind of entry, keyed by the merged data and the code), it is not
checked again: the result is again no problem. A file whose merged data differs from what it
merged to when last validated with the models only in plain values (a number, a word, a DSL
text: `rules.leafedit`) is checked again, but as plain values, without pydantic (a third kind
of entry, per file: that data and its variant; `rules.loadcache.edited_from`); when the
cross-field checks of such values fail, the file is checked afresh with the models, so the
problems are always those of a fresh check.
"""

from __future__ import annotations

import os
from pathlib import Path

from sorry_rules.authoring.validatereport import Report, report_of, shown_name
from sorry_rules.base import diskcache
from sorry_rules.base.errors import Problem
from sorry_rules.rules.loadcache import inputs_unchanged
from sorry_rules.rules.locate import extra_roots, real_path, resolve

KIND = "validate"
CLEAN_KIND = "clean-check"
PREVIOUS_KIND = "validated-file"


def _edited(path, merged, previous):
    """(problems, inputs, lookups) of a file whose merged data differs from the data it had
    when last validated with the models (`previous`) in plain values only: the variant is
    decided without pydantic (`rules.loadcache.edited_from`) and checked as plain values
    (`authoring.validatechecks`); None when it cannot be (the caller checks it afresh)."""
    from sorry_rules.rules import loadcache

    found = loadcache.edited_from(previous, merged.data, plain=True)
    if found is None:
        return None
    from sorry_rules.authoring.validatechecks import variant_problems  # lazy: the checks (compiler) on a miss
    from sorry_rules.rules.loader import content_hash

    variant, encoded = found
    problems = variant_problems(variant, merged.origins, shown_name(Path(path)), analyse=True,
                                trees=(merged.files, content_hash(merged.data)))
    if problems is None:
        return None
    entry = loadcache.previous_entry(merged.data, encoded)
    if entry is not None:
        diskcache.write(PREVIOUS_KIND, _key(path), entry)
    return sorted(set(problems)), merged.inputs, merged.lookups


def validate_paths(args) -> Report:
    """`authoring.validate.validate_paths(args)`, each file's result from the cache when valid."""
    return report_of(args, file_problems)


def _key(path) -> str:
    return diskcache.digest(KIND, diskcache.code_fingerprint(), os.getcwd(), os.fspath(path), str(real_path(path)),
                            *map(str, extra_roots()))


def file_problems(path) -> list[Problem]:
    """`authoring.validate.validate_file(path)`, from the cache when its entry still holds."""
    key = _key(path) if diskcache.enabled() else None
    found = _still_valid(diskcache.read(KIND, key)) if key is not None else None
    if found is not None:
        return found
    problems, inputs, lookups = _checked(path)
    if key is not None and inputs is not None and all(sha is not None for _, sha in inputs):
        diskcache.write(KIND, key, {
            "inputs": [list(item) for item in inputs],
            "lookups": [list(item) for item in lookups],
            "problems": [[p.file, p.line, p.col, p.code, p.message, p.severity] for p in problems],
        })
    return problems


def _checked(path) -> tuple[list[Problem], tuple | None, tuple]:
    """`validate_file_traced(path)`; a file whose merged data was checked before with no
    problem at all is not checked again (the checks depend on the merged data and the code
    alone; only the places of problems depend on the files, and there are none)."""
    if not diskcache.enabled() or resolve(str(path)) is None:
        from sorry_rules.authoring.validate import validate_file_traced  # lazy: the checks (yaml, pydantic, compiler) on a miss

        return validate_file_traced(path)
    from sorry_rules.rules.loader import read_merged  # lazy: reading YAML only on a miss

    merged = read_merged(Path(path), name_of=shown_name)
    clean = None
    if not merged.problems and merged.data is not None:
        clean = diskcache.data_key(CLEAN_KIND, merged.data)
    if clean is not None and diskcache.read(CLEAN_KIND, clean) == {"problems": 0}:
        return [], merged.inputs, merged.lookups
    key = _key(path)
    found = _edited(path, merged, diskcache.read(PREVIOUS_KIND, key)) if clean is not None else None
    if found is not None:
        problems, inputs, lookups = found
    else:
        from sorry_rules.authoring.validate import validate_file_traced  # lazy: the checks (pydantic, compiler) on a miss

        def keep(variant):
            from sorry_rules.rules import loadcache

            previous = loadcache.previous_entry(merged.data, loadcache.keep_validated(merged.data, variant))
            loadcache.keep_table()
            if previous is not None and previous["variant"] is not None:
                diskcache.write(PREVIOUS_KIND, key, previous)

        problems, inputs, lookups = validate_file_traced(path, merged, keep)
    if clean is not None and not problems:
        diskcache.write(CLEAN_KIND, clean, {"problems": 0})
    return problems, inputs, lookups


def _still_valid(entry) -> list[Problem] | None:
    """The problems of a cache entry whose inputs are unchanged, else None."""
    try:
        if not inputs_unchanged(entry["inputs"], entry["lookups"]):
            return None
        problems = [Problem(file, line, col, code, message, severity)
                    for file, line, col, code, message, severity in entry["problems"]]
    except (TypeError, ValueError, KeyError):  # no entry, or not of this shape: check afresh
        return None
    if not all(isinstance(p.line, int) and isinstance(p.col, int) and all(isinstance(x, str) for x in
               (p.file, p.code, p.message, p.severity)) for p in problems):
        return None
    return problems
