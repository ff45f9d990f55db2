"""Compile a loaded variant into a `Game`: cross-field checks, board tables, DSL programs.
The pydantic rule models stop here: the `Game` gets the engine's own frozen settings
(`engine.settings`), tables and closures.

Contract: `compile_variant(loaded)` returns `(game, warnings)` or raises `RuleFileError`
with every error found (cross-field checks and every DSL text), each located in the file
and at the character the problem is at. Nothing downstream reads YAML or ASTs.
The stages (`check_variant`, `Context`, `dsl_texts`, `compile_text`) are also used one by one by
`sorry_rules.authoring.validate`, which goes on past errors to report as much as it can.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import count

from sorry_rules import dsl
from sorry_rules.engine.game import Game
from sorry_rules.engine.position import placement_weights
from sorry_rules.engine.track import Track
from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError
from sorry_rules.base.limits import MAX_COUNTER
from sorry_rules.engine.layout import Layout
from sorry_rules.rules.loaded import LoadedVariant, cached_variant
from sorry_rules.engine.queries import Origin
from sorry_rules.engine.settings import MovementRules, TurnRules
from sorry_rules.compiler import astcache
from sorry_rules.compiler.checks import check_variant
from sorry_rules.compiler.dice import (check_dice, check_throw_costs, dice_texts, engine_dice, throw_alternatives,
                                      throw_makers, uses_dice)
from sorry_rules.compiler.follows import card_costs, check_follow_costs
from sorry_rules.compiler.geometry import bind_turn_conditions, check_geometry, engine_geometry, geometry_texts
from sorry_rules.compiler.squares import check_squares, engine_squares
from sorry_rules.compiler.marking import (also_texts, alternatives, check_marks, declining_without, draws_again_after,
                                          mark_kinds, mark_placers, mark_warnings, with_alternatives)
from sorry_rules.compiler.programs import CompileError, ProgramCompiler
from sorry_rules.compiler.ranges import condition_warnings, variant_bounds
from sorry_rules.compiler.turns import check_turn_policy, compile_turn_policy, turn_texts
from sorry_rules.compiler.vocabulary import more_unknown_names, text_problem
from sorry_rules.compiler.vocab import (
    check_vocab, compile_vocab, counter_ranges, counter_warnings, MOVE_VARIABLES, vocab_texts,
)


def _relations(v) -> tuple[tuple, tuple]:
    colours = list(v.colours)
    team_index = {}
    for t, team in enumerate(v.teams or []):
        for name in team:
            team_index.setdefault(colours.index(name), t)
    alone = count(len(v.teams or []))  # a colour in no team is a team of its own
    team_index = {c: team_index[c] if c in team_index else next(alone) for c in range(len(colours))}
    team_of = tuple(tuple(o for o in range(len(colours)) if team_index[o] == team_index[c]) for c in range(len(colours)))
    relation = tuple(
        tuple("own" if o == c else "partner" if team_index[o] == team_index[c] else "opponent" for o in range(len(colours)))
        for c in range(len(colours))
    )
    return team_of, relation


def movement_rules(rules) -> MovementRules:
    """The engine's copy of a rule file's `rules:` section (a `rules.model.Rules`)."""
    return MovementRules(
        control=rules.control, bump=tuple(rules.bump), slide_on=tuple(rules.slide_on),
        slide_sweep=rules.slide_sweep, slide_after_switch=rules.slide_after_switch,
        slide_after_sorry=rules.slide_after_sorry, slide_optional=getattr(rules, "slide_optional", False), split=rules.split,
        overshoot_home=rules.overshoot_home, must_bump=rules.must_bump, capture=getattr(rules, "capture", "lone"),
    )


def turn_rules(turn) -> TurnRules:
    """The engine's copy of a rule file's `turn:` section (a draw or hand turn model)."""
    return TurnRules(source=turn.source, hand_size=getattr(turn, "hand_size", 0), first=turn.first, take=turn.take)


class Context:
    """The board tables, relations and program compiler of one variant."""

    def __init__(self, v):
        b = v.board
        geometry = engine_geometry(v)
        self.team_of, relation = _relations(v)
        self.layout = Layout(list(v.colours), b.side_length, b.start_exit, b.safety_entry, b.safety_length,
                             [(s.from_, s.to, s.sweep) for s in b.slides], v.rules.overshoot_home == "stop", geometry.past_home,
                             getattr(b, "hold", 1), engine_squares(v, relation), v.pawns, getattr(b, "home_hold", None),
                             tuple(None if s.slide_on is None else tuple(s.slide_on) for s in b.slides))
        control_of = self.team_of if v.rules.control == "team" else tuple((c,) for c in range(self.layout.C))
        self.rules = movement_rules(v.rules)
        marks = getattr(v, "marks", {})
        self.mechanics = Track(self.layout, relation, self.rules, control_of, geometry, mark_kinds(v),
                               placement_weights(self.layout, v.pawns))
        counters = getattr(v, "counters", {})
        throws = engine_dice(v).throws if uses_dice(v) else ()
        self.programs = ProgramCompiler(self.mechanics, self.team_of, v.pawns, tuple(counters),
                                        tuple(getattr(c, "start", 0) for c in counters.values()), tuple(marks), throws,
                                        tuple((getattr(c, "min", -MAX_COUNTER), getattr(c, "max", MAX_COUNTER))
                                              for c in counters.values()))  # a counter validate mended: any value


def dsl_texts(v) -> list[tuple[tuple, str, str]]:
    """Every DSL text of a variant as (path, text, kind); kind is "effect", "bool" or "int",
    "move_bool"/"move_int" for texts that judge a move, or "following" for an effect played
    right after a move (`compiler.vocab`: `after: then:`)."""
    texts = [(("cards", name), text, "effect") for name, text in v.cards.items()]
    texts.append((("win",), v.win, "bool"))
    for key, component in v.scoring.items():
        if component.kind == "formula":
            texts.append((("scoring", key, "points"), component.points, "int"))
        else:
            texts.extend((("scoring", key, "tiers", i, "when"), tier.when, "bool") for i, tier in enumerate(component.tiers))
    return texts + vocab_texts(v) + also_texts(v) + turn_texts(v) + dice_texts(v) + geometry_texts(v)


def compile_text(programs: ProgramCompiler, out: ProblemCollector, path: tuple, text: str, kind: str):
    """Parse and compile one DSL text; returns (ast, program), with None for what failed
    (the problem is added to `out`, located at the offending character)."""
    ast = None
    try:
        ast = dsl.parse_effect(text) if kind in ("effect", "following") else dsl.parse_expr(text)
        programs.cost_of(ast)
        return ast, _program(programs, ast, kind)
    except (dsl.DslError, CompileError) as error:
        text_problem(out, path, text, error)
        if isinstance(error, CompileError) and error.code == "SR302":
            for more in more_unknown_names(ast, error, lambda tree: _program(programs, tree, kind)):
                out.in_text(path, more.offset, more.code, more.message)
        return ast, None


def _program(programs: ProgramCompiler, ast, kind: str):
    if kind in ("effect", "following"):
        return programs.effect(ast, following=kind == "following")
    if kind.startswith("move_"):
        return programs.expression(ast, bool if kind == "move_bool" else int, variables=MOVE_VARIABLES)
    return programs.expression(ast, bool if kind == "bool" else int)


def check_all(v, out: ProblemCollector) -> None:
    """Every cross-field check of a variant (what the schema cannot say), in order; each adds
    its located problems to `out` (`compile_variant` and `sorry-play validate` run the same)."""
    for check in (check_variant, check_vocab, check_geometry, check_marks, check_squares, check_turn_policy, check_dice):
        check(v, out)


def syntax_problems(v, out: ProblemCollector) -> None:
    """The syntax errors (SR301) of every DSL text of `v`, added to `out`: what can be said of
    the texts when the cross-field checks failed (`sorry-play validate` says more)."""
    texts_syntax(dsl_texts(v), out)


def texts_syntax(texts, out: ProblemCollector) -> None:
    """The syntax errors (SR301) of DSL `texts` ((path, text, kind) as `dsl_texts` gives),
    each located at its character, added to `out`."""
    for path, text, kind in texts:
        try:
            dsl.parse_effect(text) if kind in ("effect", "following") else dsl.parse_expr(text)
        except dsl.DslError as error:
            text_problem(out, path, text, error)


def compile_variant(loaded: LoadedVariant) -> tuple[Game, list[Problem]]:
    """Compile; raise RuleFileError listing every error, else return (game, warnings)."""
    v = loaded.variant
    out = ProblemCollector(loaded.origins)
    check_all(v, out)
    if out.errors:
        syntax_problems(v, out)  # the texts cannot be compiled on a broken board, but they can be read
        raise RuleFileError(out.problems)
    if v.board.kind == "grid":
        from sorry_rules.compiler.gridbuild import compile_grid  # lazy: the grid machinery only for a grid variant

        return compile_grid(v, out, loaded.content_hash)
    ctx = Context(v)
    layout, mechanics, team_of, programs = ctx.layout, ctx.mechanics, ctx.team_of, ctx.programs
    compiled = {}
    asts = {}
    win_functions: set[str] = set()
    texts = dsl_texts(v)
    trees_known = astcache.preload(loaded.files, loaded.content_hash)  # the same rules compiled before: no parsing
    for path, text, kind in texts:
        programs.functions_used.clear()
        asts[path], compiled[path] = compile_text(programs, out, path, text, kind)
        if path == ("win",):
            win_functions = set(programs.functions_used)
    if not trees_known:
        astcache.store(loaded.files, loaded.content_hash, texts, asts)
    if not out.errors:
        bind_turn_conditions(v, mechanics, compiled)
    # A win condition that counts only Home and pawns can change only when a pawn reaches Home.
    win_on_home_only = win_functions <= {"home", "pawns"}
    added = with_also(v, programs, asts, compiled, out)
    dice = engine_dice(v) if uses_dice(v) else None
    if dice is not None and not out.errors:  # a card too costly on its own is reported at the card already
        check_throw_costs(v, dice, asts, programs.cost_of, out)
        if out.errors:
            raise RuleFileError(out.problems)
    if not out.errors:  # raised with the warnings below
        check_follow_costs(v, asts, programs.cost_of, card_costs(v, asts, programs.cost_of, added, dice), out)
    card_names = [name for name in v.deck if name in v.cards] if dice is None else list(dice.names)
    card_makers = [compiled[("cards", name)] for name in card_names] if dice is None else throw_makers(v, dice, compiled)
    win = compiled[("win",)]
    scoring = []
    for key, component in v.scoring.items():
        label = component.label or key.replace("_", " ")
        for_winner = component.for_ == "winner"
        if component.kind == "formula":
            formula = compiled[("scoring", key, "points")]
        else:
            conditions = [compiled[("scoring", key, "tiers", i, "when")] for i in range(len(component.tiers))]
            formula = _tiers(conditions, [t.points for t in component.tiers], component.mode)
        scoring.append((label, for_winner, formula))
    every_text = not out.errors  # a text that failed may read a counter or place a mark
    counter_warnings(v, asts, out, every_text)
    condition_warnings(v, asts, variant_bounds(v, asts), len(v.colours), out)
    mark_warnings(v, programs.marks_placed, programs.marks_read, out, every_text)
    if out.errors:
        raise RuleFileError(out.problems)
    card_options = _card_options(programs, asts, compiled, added, card_names, dice)
    if dice is None:
        deck = [i for i, name in enumerate(card_names) for _ in range(v.deck[name])]
        card_index = {n: i for i, n in enumerate(card_names)}
    else:  # the bag of every outcome; a face names every throw showing it
        deck = list(dice.bag)
        card_index = {str(f): tuple(i for i, t in enumerate(dice.throws) if f in t) for f in dice.faces}
    filters, after, counters = compile_vocab(v, compiled, card_index, programs, asts)
    redraw, actions = compile_turn_policy(v, compiled, {n: i for i, n in enumerate(card_names)})
    seating = {int(k): tuple(names) for k, names in v.seating.items()}
    game = Game(
        name=v.name, layout=layout, mechanics=mechanics, card_names=card_names, card_makers=card_makers,
        card_sources=[v.cards[n] for n in card_names] if dice is None else [_throw_source(v, t) for t in dice.throws],
        deck=deck, pawns=v.pawns, dice=dice,
        placed=layout.setup_squares(v.setup.on_start_exit, v.setup.squares), turn=turn_rules(v.turn), rules=ctx.rules,
        team_of=team_of,
        seating=seating, players_min=v.players.min, players_max=v.players.max, win=win,
        scoring=tuple(scoring), content_hash=loaded.content_hash, win_on_home_only=win_on_home_only,
        card_options=card_options, filters=filters, after=after, counters=counters,
        counter_ranges=counter_ranges(v), marks=mark_kinds(v),
        redraw=redraw, actions=actions, places=v.places, forward_only=_forward_only(asts),
        mark_placers=mark_placers(v, programs.marks_placed, after),
    )
    return game, out.problems


#: the primitives that may take a pawn backward or onto a track square of the effect's choosing
_ANYWHERE = (dsl.Backward, dsl.BackwardBy, dsl.Switch, dsl.Sorry)


def _forward_only(asts: dict) -> bool:
    """Whether no effect of the game (cards, `also:`, `after:` `then:`, a throw spent whole)
    takes a pawn backward or onto a track square of its choosing (`Game.forward_only`): a
    `send`/`move` to Start, Home, the start exit or the safety zone keeps a pawn on its route."""
    for path, ast in asts.items():
        if path[0] in ("cards", "also", "after", "turn") and isinstance(ast, dsl.Node):
            for node in dsl.walk(ast):
                if isinstance(node, _ANYWHERE) or isinstance(node, dsl.Split) and any(d == "backward" for d, _ in node.parts) \
                        or isinstance(node, (dsl.Send, dsl.MovePawn)) and isinstance(node.destination, tuple) \
                        and node.destination[0] == "track":
                    return False
    return True


def with_also(v, programs: ProgramCompiler, asts: dict, compiled: dict, out: ProblemCollector) -> dict:
    """The `also:` alternatives of every card ({card: [names]}), compiled into its effect in
    `compiled` (a card too costly with them is said at its last alternative)."""
    added = alternatives(v, asts)
    for name, extra in added.items():
        if compiled.get(("cards", name)) is not None and all(compiled.get(("also", a, "effect")) for a in extra):
            combined = with_alternatives(asts[("cards", name)], [asts[("also", a, "effect")] for a in extra])
            try:
                programs.cost_of(combined)
                compiled[("cards", name)] = programs.effect(combined)
            except CompileError as error:  # each part fits, the whole may not: said at the last alternative
                out.in_text(("also", extra[-1], "effect"), 0, error.code,
                            f"card {name} with the alternatives of also: {error.message}")
    return added


def _card_options(programs: ProgramCompiler, asts: dict, compiled: dict, added: dict, card_names: list, dice) -> list:
    """`Game.card_options`: per card, (Origin, maker) per top-level alternative of its effect
    and per `also:` alternative; a throw of several dice: the dice spent die by die (option
    0), and its total spent whole (option 1, where `turn.whole` has it)."""
    card_options = []
    for i, name in enumerate(card_names):
        if dice is not None and len(dice.throws[i]) > 1:
            die_by_die, whole = throw_alternatives(compiled, dice.throws[i])
            card_options.append(((Origin(i, 0, -1), die_by_die),) + (((Origin(i, 1, -1), whole),) if whole else ()))
            continue
        card_ast = asts[("cards", name)]
        extra_asts = [asts[("also", a, "effect")] for a in added.get(name, ())]
        own_ast = declining_without(card_ast, extra_asts)
        alone = programs.effect(own_ast) if name in added else compiled[("cards", name)]  # without its `also:`
        own = _options(programs, i, own_ast, alone)
        extra = tuple((Origin(i, len(own) + j, -1), programs.effect(_alone_alternative(card_ast, extra_ast)))
                      for j, extra_ast in enumerate(extra_asts))
        card_options.append(own + extra)
    return card_options


def _throw_source(v, throw: tuple) -> str:
    """The DSL text a throw plays: its face's card (one die), or its dice die by die."""
    if len(throw) == 1:
        return v.cards[str(throw[0])]
    each = " ; ".join(f"{f}: {v.cards[str(f)]}" for f in throw)
    whole = v.turn.whole.get(str(sum(throw)))
    return f"die by die ({each})" + (f" | whole {sum(throw)}: {whole}" if whole else "")


def _alone_alternative(card_ast, extra_ast):
    """One added alternative as the card plays it (with the card's trailing `then draw_again`,
    guarded or not)."""
    if draws_again_after(card_ast):
        return replace(card_ast, pos=extra_ast.pos, first=extra_ast)
    return extra_ast


def _options(programs: ProgramCompiler, card: int, ast, program) -> tuple:
    """(Origin, program) per top-level alternative of a card's effect (for the engine's
    traced queries); a card that is not a choice is its own single alternative."""
    if not isinstance(ast, dsl.Choice):
        return ((Origin(card, 0, ast.pos), program),)
    return tuple((Origin(card, i, option.pos), programs.effect(option)) for i, option in enumerate(ast.options))


def _tiers(conditions, points, mode):
    pairs = list(zip(conditions, points))
    if mode == "highest":
        def highest(p, b, env):
            for condition, value in pairs:
                if condition(p, b, env):
                    return value
            return 0
        return highest

    def cumulative(p, b, env):
        return sum(value for condition, value in pairs if condition(p, b, env))
    return cumulative


def load_game(spec, rules=(), layers=()) -> Game:
    """Load and compile a variant (path or bundled name) with overlays. Raises RuleFileError.
    A variant the cache holds unchanged is compiled from its plain values (`rules.loaded`)."""
    loaded = None if layers else cached_variant(spec, tuple(rules))
    if loaded is None:
        # lazy: reading and validating rule files (YAML, pydantic) only when the cache does not hold them
        from sorry_rules.rules.loader import load_variant

        loaded = load_variant(spec, rules, layers, plain=True)
    game, _ = compile_variant(loaded)
    return game
