"""Compile a loaded variant into a `Game`: cross-field checks, board tables, DSL programs.

Contract: `compile_variant(loaded)` returns `(game, warnings)` or raises `RuleFileError`
with every error found (cross-field checks and every DSL text), each located in the file
and at the character the problem is at. Nothing downstream reads YAML or ASTs.
The stages (`_check`, `Context`, `dsl_texts`, `compile_text`) are also used one by one by
`sorry_rules.validate`, which goes on past errors to report as much as it can.
"""

from __future__ import annotations

from . import dsl
from .engine import Game
from .errors import Problem, RuleFileError
from .layout import Layout
from .loader import LoadedVariant, load_variant
from .mechanics import Mechanics
from .programs import CompileError, ProgramCompiler


class _Problems:
    def __init__(self, origins):
        self.origins = origins
        self.items: list[Problem] = []

    def at(self, path, code: str, message: str, severity: str = "error", key: bool = False) -> None:
        mark = self.origins.key_mark(path) if key else self.origins.mark(path)
        self.items.append(Problem(mark.file, mark.line, mark.col, code, message, severity))

    def in_text(self, path, offset: int, code: str, message: str) -> None:
        mark = self.origins.in_text(path, offset)
        self.items.append(Problem(mark.file, mark.line, mark.col, code, message))

    @property
    def errors(self):
        return [p for p in self.items if p.severity == "error"]


def _check(v, out: _Problems) -> None:
    """Cross-field checks that the schema cannot express."""
    colours = list(v.colours)
    for i, name in enumerate(colours):
        if name in colours[:i]:
            out.at(("colours", i), "SR501", f"colour '{name}' is listed twice")
    seen_team: dict[str, int] = {}
    for t, team in enumerate(v.teams or []):
        for i, name in enumerate(team):
            if name not in colours:
                out.at(("teams", t, i), "SR501", f"unknown colour '{name}' in teams (colours: {', '.join(colours)})")
            elif name in seen_team:
                out.at(("teams", t, i), "SR506", f"colour '{name}' is in two teams")
            else:
                seen_team[name] = t
    if v.players.min > v.players.max:
        out.at(("players", "min"), "SR510", f"players: min {v.players.min} is more than max {v.players.max}")
    if v.players.max > len(colours):
        out.at(("players", "max"), "SR510", f"players: max {v.players.max} but only {len(colours)} colours")
    for key, names in v.seating.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 3) or not v.players.min <= int(key) <= v.players.max:
            out.at(("seating", key), "SR510", f"seating: '{key}' is not a player count between {v.players.min} and {v.players.max}", key=True)
            continue
        if len(names) != int(key):
            out.at(("seating", key), "SR510", f"seating {key}: lists {len(names)} colours")
        for i, name in enumerate(names):
            if name not in colours:
                out.at(("seating", key, i), "SR501", f"unknown colour '{name}' in seating")
            elif name in names[:i]:
                out.at(("seating", key, i), "SR510", f"colour '{name}' is seated twice")
    board = v.board
    side = board.side_length
    for field in ("start_exit", "safety_entry"):
        if getattr(board, field) >= side:
            out.at(("board", field), "SR505", f"board.{field} {getattr(board, field)} is off the side (offsets 0..{side - 1})")
    triangles = {s.from_ for s in board.slides}
    for i, slide in enumerate(board.slides):
        if slide.from_ >= side:
            out.at(("board", "slides", i, "from"), "SR505", f"slide triangle at offset {slide.from_} is off the side (offsets 0..{side - 1})")
        if slide.to <= slide.from_:
            out.at(("board", "slides", i, "to"), "SR505", f"slide from {slide.from_} to {slide.to}: a slide must go forward")
        elif slide.to - slide.from_ >= side:
            out.at(("board", "slides", i, "to"), "SR505", f"slide from {slide.from_} to {slide.to} is longer than a side")
        elif slide.to % side in triangles:
            out.at(("board", "slides", i, "to"), "SR505", f"slide from {slide.from_} ends on the triangle of another slide (offset {slide.to % side})")
        if slide.from_ in [s.from_ for s in board.slides[:i]]:
            out.at(("board", "slides", i, "from"), "SR505", f"two slides start at offset {slide.from_}")
    if v.setup.on_start_exit > min(1, v.pawns):
        out.at(("setup", "on_start_exit"), "SR508", "setup.on_start_exit: at most 1 pawn fits on the start exit")
    for name, count in v.deck.items():
        if name not in v.cards:
            out.at(("deck", name), "SR503", f"card '{name}' is in the deck but has no effect under cards:", key=True)
    for name in v.cards:
        if name not in v.deck:
            out.at(("cards", name), "SR504", f"card '{name}' has an effect but is not in the deck", "warning", key=True)
    total = sum(v.deck.values())
    if total == 0:
        out.at(("deck",), "SR508", "the deck has no cards")
    hand_size = getattr(v.turn, "hand_size", 0)
    if hand_size and hand_size * v.players.max > total:
        out.at(("turn", "hand_size"), "SR508", f"{v.players.max} hands of {hand_size} need {hand_size * v.players.max} cards; the deck has {total}")


def _relations(v) -> tuple[tuple, tuple]:
    colours = list(v.colours)
    team_index = {}
    for t, team in enumerate(v.teams or []):
        for name in team:
            team_index.setdefault(colours.index(name), t)
    next_team = len(v.teams or [])
    for c in range(len(colours)):
        if c not in team_index:
            team_index[c] = next_team
            next_team += 1
    team_of = tuple(tuple(o for o in range(len(colours)) if team_index[o] == team_index[c]) for c in range(len(colours)))
    relation = tuple(
        tuple("own" if o == c else "partner" if team_index[o] == team_index[c] else "opponent" for o in range(len(colours)))
        for c in range(len(colours))
    )
    return team_of, relation


class Context:
    """The board tables, relations and program compiler of one variant."""

    def __init__(self, v):
        b = v.board
        self.layout = Layout(list(v.colours), b.side_length, b.start_exit, b.safety_entry, b.safety_length,
                             [(s.from_, s.to) for s in b.slides], v.rules.overshoot_home == "stop")
        self.team_of, relation = _relations(v)
        control_of = self.team_of if v.rules.control == "team" else tuple((c,) for c in range(self.layout.C))
        self.mechanics = Mechanics(self.layout, relation, v.rules, control_of)
        self.programs = ProgramCompiler(self.mechanics, self.team_of, v.pawns)


def dsl_texts(v) -> list[tuple[tuple, str, str]]:
    """Every DSL text of a variant as (path, text, kind); kind is "effect", "bool" or "int"."""
    texts = [(("cards", name), text, "effect") for name, text in v.cards.items()]
    texts.append((("win",), v.win, "bool"))
    for key, component in v.scoring.items():
        if component.kind == "formula":
            texts.append((("scoring", key, "points"), component.points, "int"))
        else:
            texts.extend((("scoring", key, "tiers", i, "when"), tier.when, "bool") for i, tier in enumerate(component.tiers))
    return texts


def compile_text(programs: ProgramCompiler, out: _Problems, path: tuple, text: str, kind: str):
    """Parse and compile one DSL text; returns (ast, program), with None for what failed
    (the problem is added to `out`, located at the offending character)."""
    ast = None
    try:
        ast = dsl.parse_effect(text) if kind == "effect" else dsl.parse_expr(text)
        programs.check_cost(ast)
        if kind == "effect":
            return ast, programs.effect(ast)
        return ast, programs.expression(ast, bool if kind == "bool" else int)
    except (dsl.DslError, CompileError) as error:
        out.in_text(path, error.offset, error.code, error.message)
        return ast, None


def compile_variant(loaded: LoadedVariant) -> tuple[Game, list[Problem]]:
    """Compile; raise RuleFileError listing every error, else return (game, warnings)."""
    v = loaded.variant
    out = _Problems(loaded.origins)
    _check(v, out)
    if out.errors:
        raise RuleFileError(out.items)
    ctx = Context(v)
    layout, mechanics, team_of, programs = ctx.layout, ctx.mechanics, ctx.team_of, ctx.programs
    compiled = {}
    win_functions: set[str] = set()
    for path, text, kind in dsl_texts(v):
        programs.functions_used.clear()
        compiled[path] = compile_text(programs, out, path, text, kind)[1]
        if path == ("win",):
            win_functions = set(programs.functions_used)
    # A win condition that counts only Home and pawns can change only when a pawn reaches Home.
    win_on_home_only = win_functions <= {"home", "pawns"}
    card_names = [name for name in v.deck if name in v.cards]
    card_programs = [compiled[("cards", name)] for name in card_names]
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
    if out.errors:
        raise RuleFileError(out.items)
    deck = [i for i, name in enumerate(card_names) for _ in range(v.deck[name])]
    seating = {int(k): tuple(names) for k, names in v.seating.items()}
    game = Game(
        name=v.name, layout=layout, mechanics=mechanics, card_names=card_names, card_programs=card_programs,
        card_sources=[v.cards[n] for n in card_names], deck=deck, pawns=v.pawns,
        on_start_exit=v.setup.on_start_exit, turn=v.turn, rules=v.rules, team_of=team_of,
        seating=seating, players_min=v.players.min, players_max=v.players.max, win=win,
        scoring=tuple(scoring), content_hash=loaded.content_hash, win_on_home_only=win_on_home_only,
    )
    return game, out.items


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
    """Load and compile a variant (path or bundled name) with overlays. Raises RuleFileError."""
    game, _ = compile_variant(load_variant(spec, rules, layers))
    return game
