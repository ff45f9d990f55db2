#!/usr/bin/env python3
"""Write the field descriptions of the pydantic models into docs/REFERENCE.md section 1.

    python tools/reference_fields.py           # rewrite docs/REFERENCE.md in place
    python tools/reference_fields.py --check   # exit 1 (and say why) when it is out of date

Each field is described once, by `Field(description=...)` in sorry_rules/rules/model.py; the
JSON Schema and the reference both take that text. In the reference, a field table follows a
marker line naming its model, `<!-- fields: Board -->`; its first column is the field as
written in YAML (`` `side_length` ``) and its `meaning` column is generated: the
description, with `|` escaped. The other columns (type, default, rule-book ids) and all the
prose around the tables are written by hand and left as they are.

Contract: `render(text)` returns the reference with every meaning cell set from the models;
it raises `FieldTableError` when a model has no table, a table misses one of its model's
fields or lists a field the model does not have, or a field has no description. `extends`
(read by the loader, not a model field) belongs to the `Variant` table with
`model.EXTENDS_DOC`. tests/test_reference.py checks that the committed reference equals
`render` of itself.
"""

from __future__ import annotations

import argparse
import re
import sys
import typing
from pathlib import Path

from pydantic import BaseModel

from sorry_rules.rules import model

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "REFERENCE.md"
MARKER = re.compile(r"^<!-- fields: (\w+) -->$")
CELL = re.compile(r"(?<!\\)\|")
#: Keys documented with a model's table that are not fields of the model.
EXTRA = {"Variant": {"extends": model.EXTENDS_DOC}}


class FieldTableError(Exception):
    """The reference's field tables do not match the models."""


def models() -> dict[str, type[BaseModel]]:
    """Every model reachable from `Variant`, by class name."""
    found: dict[str, type[BaseModel]] = {}

    def visit(annotation) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation.__name__ not in found:
                found[annotation.__name__] = annotation
                for info in annotation.model_fields.values():
                    visit(info.annotation)
            return
        for arg in typing.get_args(annotation):
            visit(arg)

    visit(model.Variant)
    return found


def descriptions(cls: type[BaseModel]) -> dict[str, str]:
    """Field key as written in YAML -> description, in the model's order."""
    out = {}
    for name, info in cls.model_fields.items():
        key = info.alias or name
        if not info.description:
            raise FieldTableError(f"{cls.__name__}.{key} has no description: add Field(description=...) in rules/model.py")
        out[key] = info.description
    out.update(EXTRA.get(cls.__name__, {}))
    return out


def _table_end(lines: list[str], start: int) -> int:
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return end


def _fill(lines: list[str], start: int, name: str, docs: dict[str, str]) -> None:
    """Set the meaning cells of the table that starts at `lines[start]` (its header row)."""
    header = [cell.strip() for cell in CELL.split(lines[start])[1:-1]]
    if "meaning" not in header:
        raise FieldTableError(f"the table after <!-- fields: {name} --> has no 'meaning' column")
    column = header.index("meaning") + 1  # split() puts "" before the first "|"
    seen = []
    for i in range(start + 2, _table_end(lines, start)):
        cells = CELL.split(lines[i])
        match = re.fullmatch(r"`([^`]+)`", cells[1].strip())
        key = match.group(1) if match else cells[1].strip()
        if key not in docs:
            raise FieldTableError(f"the {name} table lists {key!r}, which is not a field of {name}")
        cells[column] = " " + docs[key].replace("|", "\\|") + " "
        lines[i] = "|".join(cells)
        seen.append(key)
    missing = [key for key in docs if key not in seen]
    twice = sorted({key for key in seen if seen.count(key) > 1})
    if missing or twice:
        raise FieldTableError(f"the {name} table of docs/REFERENCE.md misses {missing} / lists twice {twice}")


def render(text: str) -> str:
    """`text` (the reference) with every field table's meaning column made from the models."""
    lines = text.split("\n")
    wanted = models()
    done = set()
    for i, line in enumerate(lines):
        match = MARKER.match(line)
        if not match:
            continue
        name = match.group(1)
        if name not in wanted or name in done:
            raise FieldTableError(f"<!-- fields: {name} -->: not a model of a rule file, or a second table for it")
        start = i + 1
        while start < len(lines) and not lines[start].startswith("|"):
            if lines[start].strip():
                raise FieldTableError(f"<!-- fields: {name} --> is not followed by a table")
            start += 1
        _fill(lines, start, name, descriptions(wanted[name]))
        done.add(name)
    missing = sorted(set(wanted) - done)
    if missing:
        raise FieldTableError(f"docs/REFERENCE.md has no field table for {missing}: add one after <!-- fields: NAME -->")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/REFERENCE.md is up to date")
    args = parser.parse_args(argv)
    text = REFERENCE.read_text(encoding="utf-8")
    try:
        new = render(text)
    except FieldTableError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if new == text:
        return 0
    if args.check:
        print("docs/REFERENCE.md is out of date with the models: run python tools/reference_fields.py", file=sys.stderr)
        return 1
    REFERENCE.write_text(new, encoding="utf-8")
    print("docs/REFERENCE.md: field descriptions updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
