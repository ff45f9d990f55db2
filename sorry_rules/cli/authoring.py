"""`sorry-play` commands for rule-file authors: validate, schema, explain.

Registered on the main group by `sorry_rules.cli.app`. Contract as in app.py: expected
failures are `SorryRulesError`s turned into a message and an exit code; each command imports
its machinery when it runs (marked "lazy"), so `sorry-play --version` loads none of it and
`sorry-play validate` loads neither rich nor the engine's players.
"""

from __future__ import annotations

import os

import click

from sorry_rules.base.errors import SorryRulesError
from sorry_rules.cli.errors import JsonFailing, every_problem, friendly
from sorry_rules.cli.options import rules_option, variant_options

FORMATS = ["text", "json", "github", "auto"]


@click.command(cls=JsonFailing)
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True,
              help="Output: text (path:line:col: severity: message [code]), json, github "
                   "(GitHub Actions annotations); auto is github when GITHUB_ACTIONS=true, else text.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@rules_option(help="Check every file with this house-rule overlay on top, as `--rule` plays it (the "
                   "combination's problems, and SR405 where two overlays set one field differently); repeatable.")
@friendly
def validate(paths, fmt, strict, rules):
    """Check rule files: YAML, schema, DSL, cross-field rules and whole-game analyses.

    PATHS are files, folders (searched for *.yaml and *.yml) or glob patterns. A file with
    `extends:` is checked as merged over its chain; with --rule, as played with those
    overlays on top. Exit status: 0 valid, 1 problems found, 2 bad usage (a path that names
    nothing: the files the others name are still checked).
    """
    # lazy: validating only when asked (the checks themselves, on a cache miss only)
    from sorry_rules.authoring.validatecache import validate_paths
    from sorry_rules.authoring.validatereport import format_github, format_json, format_text, summary

    if rules:
        from sorry_rules.authoring.validate import validate_combined  # lazy: combinations are checked afresh

        report = validate_combined(paths, rules)
    else:
        report = validate_paths(paths)
    if strict:
        report = report.strict()
    if fmt == "auto":
        fmt = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    if fmt == "json":
        click.echo(format_json(report))
    else:
        text = format_github(report) if fmt == "github" else format_text(report)
        if text:
            click.echo(text)
        if report.files or not report.unnamed:  # not "0 rule files valid" when every path named nothing
            click.echo(summary(report), err=True)
    for message in report.unnamed:
        click.echo(f"error: {message}", err=True)
    raise SystemExit(2 if report.unnamed else 1 if report.errors else 0)


@click.command()
@friendly
def schema():
    """Print the JSON Schema (draft 2020-12) of rule files, for editors and CI."""
    from sorry_rules.rules.schema import schema_text  # lazy: pydantic only for this command

    click.echo(schema_text(), nl=False)


@click.command()
@variant_options
@click.option("--card", "-c", "cards", multiple=True, help="Explain only this card; repeatable.")
@friendly
def explain(variant, rules, cards):
    """Say in plain words what each card does, and where in the rule files it is written."""
    from sorry_rules.authoring.explain import explain_text, load_explained  # lazy: the compiler only for this command

    with every_problem(variant, rules):
        explained = load_explained(variant, rules)
    click.echo(explain_text(explained, cards))


def variant_lines() -> list[str]:
    """One line per bundled rule file: name, kind (variant, or overlay of its bases) and its
    own description (an overlay's, not the one it inherits)."""
    # lazy: rule-file loading (yaml, pydantic, pathlib) only for `sorry-play variants`
    from sorry_rules.base.resources import variants_dir
    from sorry_rules.rules.loader import bundled_names, load_variant
    from sorry_rules.rules.locate import bundled_kind
    from sorry_rules.rules.yamlsafe import load_yaml_file

    rows = []
    for name in bundled_names():
        try:
            raw, _ = load_yaml_file(variants_dir() / name, name)
            loaded = load_variant(name)
        except SorryRulesError:
            rows.append((name, "?", "(does not load; run `sorry-play validate` on it)"))
            continue
        kind = bundled_kind(raw)
        raw = raw if isinstance(raw, dict) else {}
        extends = raw.get("extends")
        description = raw.get("description") or loaded.variant.name
        if extends is not None:
            bases = ", ".join(extends) if isinstance(extends, list) else str(extends)
            description = f"{description} (over {bases})"
        rows.append((name, kind, " ".join(str(description).split())))
    width = max((len(r[0]) for r in rows), default=0)
    return [f"{name:{width}}  {kind:7}  {description}" for name, kind, description in rows]
