"""The command-line options several `sorry-play` commands share, declared once.

Each function returns a click decorator; a command stacks the ones it takes, e.g.

    @variant_options
    @seed_option()
    @players_option
    def simulate(variant, rules, seed, players, ...): ...

Contract: the same option has the same names, type, default and help in every command
(`--variant/-v` default standard, `--rule/-r` repeatable, `--players/-p`, `--seed/-s`,
`--max-plies` bounded by `base.limits`); only what a command must say differently is a
parameter (the seed's default and meaning, the move limit's wording, the overlay's help).
Imports only click and `base.limits`, so every command module may use it at start-up.
"""

from __future__ import annotations

import click

from sorry_rules.base.limits import DEFAULT_MAX_PLIES, MAX_CHOICES, MAX_JSON_DIGITS, MAX_THINK_SECONDS

VARIANT_HELP = "Variant: a rule file path or a bundled name (see `sorry-play variants`)."
RULE_HELP = "House-rule overlay (path or bundled name, e.g. house/sorry-forward-4.yaml); repeatable."
PLAYERS_HELP = "Number of players (default: the variant's maximum; a grid variant: the fewest its seating lists)."
SEED_HELP = "Seed for the shuffle and the computer players (default: random)."


def _allow_roots(ctx, param, folders):
    if folders:
        from sorry_rules.rules.locate import allow_root  # lazy: the rule-file finder only when the option is given

        for folder in folders:
            allow_root(folder)


def rules_root_option(fn=None, *, saves: bool = False):
    """`--rules-root DIR`, repeatable: one more folder whose tree rule files (an `extends:`, and
    with `saves` a saved game's variant) may be read from, besides the working directory's and
    the folders of the files named on the command line. Acts at once; passes nothing to the
    command. Usable bare (`@rules_root_option`) or called (`@rules_root_option(saves=True)`)."""
    read = "extends:, a save's variant" if saves else "extends:"
    def decorate(fn):
        return click.option("--rules-root", multiple=True, type=click.Path(file_okay=False, exists=True), expose_value=False,
                            is_eager=True, callback=_allow_roots, metavar="DIR",
                            help=f"Also read rule files ({read}) from this folder's tree; repeatable.")(fn)
    return decorate(fn) if fn is not None else decorate


def rules_option(help: str = RULE_HELP, *, saves: bool = False):
    """`--rule/-r OVERLAY`, repeatable, passed as `rules` (a tuple); with `--rules-root`."""
    def decorate(fn):
        return click.option("--rule", "-r", "rules", multiple=True, help=help)(rules_root_option(fn, saves=saves))
    return decorate


def variant_options(fn=None, *, saves: bool = False):
    """`--variant/-v VARIANT` (default: standard) and `--rule`: the rules a command plays or
    inspects; `saves` when the command also reads saved games (their variant's rule files)."""
    def decorate(fn):
        return click.option("--variant", "-v", default="standard", show_default=True,
                            help=VARIANT_HELP)(rules_option(saves=saves)(fn))
    return decorate(fn) if fn is not None else decorate


def players_option(fn):
    """`--players/-p N` (default: None, the variant's maximum)."""
    return click.option("--players", "-p", type=int, default=None, help=PLAYERS_HELP)(fn)


def _seed_digits(ctx, param, value):
    """A seed is written in saves and results files, whose numbers have at most MAX_JSON_DIGITS digits."""
    if value is not None and len(str(abs(value))) > MAX_JSON_DIGITS:
        raise click.BadParameter(f"at most {MAX_JSON_DIGITS} digits")
    return value


def seed_option(default: int | None = None, help: str = SEED_HELP):
    """`--seed/-s S`: None (a random seed) unless a command fixes a default."""
    return click.option("--seed", "-s", type=int, callback=_seed_digits, default=default,
                        show_default=default is not None, help=help)


def max_plies_option(help: str = "Stop a game without a winner after this many moves (plies)."):
    """`--max-plies N`, 1 to `limits.MAX_CHOICES` (default: `limits.DEFAULT_MAX_PLIES`)."""
    return click.option("--max-plies", type=click.IntRange(min=1, max=MAX_CHOICES), default=DEFAULT_MAX_PLIES,
                        show_default=True, help=help)


def parse_think(text: str) -> float:
    """`0.5s`, `0.5`, `500ms` or `2m` -> seconds (above 0, at most MAX_THINK_SECONDS). Raises ValueError."""
    word = text.strip().lower()
    scale = 1.0
    for suffix, factor in (("ms", 0.001), ("s", 1.0), ("m", 60.0)):
        if word.endswith(suffix):
            word, scale = word[:-len(suffix)].strip(), factor
            break
    try:
        seconds = float(word) * scale
    except ValueError:
        raise ValueError("write a time such as 0.5s, 500ms or 2s") from None
    if not 0 < seconds <= MAX_THINK_SECONDS:  # also refuses nan and inf
        raise ValueError(f"a time above 0 and at most {MAX_THINK_SECONDS}s")
    return seconds


def _think_seconds(ctx, param, value):
    if value is None:
        return None
    try:
        return parse_think(value)
    except ValueError as error:
        raise click.BadParameter(f"{value!r}: {error}") from None


def think_option(fn):
    """`--think TIME`: how long a searching computer player may think about a move (None: its budget)."""
    return click.option("--think", default=None, metavar="TIME", callback=_think_seconds,
                        help="How long a searching computer player may think about a move, e.g. 0.5s: search, "
                             "medium and hard search about that long (more playouts as the time allows), expert "
                             "stops by then at the latest; its moves then depend on the machine's speed (default: "
                             "a fixed budget of playouts, the same moves every run).")(fn)
