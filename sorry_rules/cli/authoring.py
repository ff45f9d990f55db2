"""`sorry-play` commands for rule-file authors: validate, schema, explain.

Registered on the main group by `sorry_rules.cli`. Contract as in cli.py: expected failures
are `SorryRulesError`s turned into a message and an exit code; imports stay inside the
commands, so `sorry-play validate` loads neither rich nor the engine's players.
"""

from __future__ import annotations

import os

import click

FORMATS = ["text", "json", "github", "auto"]


def _friendly(fn):
    from sorry_rules.cli.errors import friendly as wrap

    return wrap(fn)


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True,
              help="Output: text (path:line:col: severity: message [code]), json, github "
                   "(GitHub Actions annotations); auto is github when GITHUB_ACTIONS=true, else text.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def validate(paths, fmt, strict):
    """Check rule files: YAML, schema, DSL, cross-field rules and whole-game analyses.

    PATHS are files, folders (searched for *.yaml and *.yml) or glob patterns. A file with
    `extends:` is checked as merged over its chain. Exit status: 0 valid, 1 problems found,
    2 bad usage.
    """
    from sorry_rules.authoring.validate import format_github, format_json, format_text, summary, validate_paths

    @_friendly
    def run():
        report = validate_paths(paths)
        if strict:
            report = report.strict()
        chosen = fmt
        if chosen == "auto":
            chosen = "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
        if chosen == "json":
            click.echo(format_json(report))
        else:
            text = format_github(report) if chosen == "github" else format_text(report)
            if text:
                click.echo(text)
            click.echo(summary(report), err=True)
        raise SystemExit(1 if report.errors else 0)

    run()


@click.command()
def schema():
    """Print the JSON Schema (draft 2020-12) of rule files, for editors and CI."""
    from sorry_rules.rules.schema import schema_text

    click.echo(schema_text(), nl=False)


@click.command()
@click.option("--variant", "-v", default="standard", show_default=True, help="Variant: a rule file path or a bundled name.")
@click.option("--rule", "-r", "rules", multiple=True, help="House-rule overlay (path or bundled name); repeatable.")
@click.option("--card", "-c", "cards", multiple=True, help="Explain only this card; repeatable.")
def explain(variant, rules, cards):
    """Say in plain words what each card does, and where in the rule files it is written."""
    from sorry_rules.authoring.explain import explain_text, load_explained

    @_friendly
    def run():
        click.echo(explain_text(load_explained(variant, rules), cards))

    run()


def variant_lines() -> list[str]:
    """One line per bundled rule file: name, kind (variant, or overlay of its bases) and its
    own description (an overlay's, not the one it inherits)."""
    from sorry_rules.base.errors import SorryRulesError
    from sorry_rules.rules.loader import bundled_names, load_variant
    from sorry_rules.base.resources import variants_dir
    from sorry_rules.rules.yamlsafe import load_yaml_file

    rows = []
    for name in bundled_names():
        try:
            raw, _ = load_yaml_file(variants_dir() / name, name)
            loaded = load_variant(name)
        except SorryRulesError:
            rows.append((name, "?", "(does not load; run `sorry-play validate` on it)"))
            continue
        raw = raw if isinstance(raw, dict) else {}
        extends = raw.get("extends")
        kind = "variant" if extends is None else "overlay"
        description = raw.get("description") or loaded.variant.name
        if extends is not None:
            bases = ", ".join(extends) if isinstance(extends, list) else str(extends)
            description = f"{description} (over {bases})"
        rows.append((name, kind, " ".join(str(description).split())))
    width = max((len(r[0]) for r in rows), default=0)
    return [f"{name:{width}}  {kind:7}  {description}" for name, kind, description in rows]
