"""Compile a loaded variant whose board is a grid into an `engine.gridgame.GridGame`.

Contract: `compile_grid(variant, out, content_hash)` is `compile_variant` for grid boards: it runs the
grid checks (`check_grid`), bounds the work of every card effect and the win condition
(`compiler.costs.GridCosts`, SR303), compiles them, and returns
`(game, warnings)` or raises `RuleFileError` with every error located in the file.
`check_grid(v, out)` adds the cross-field problems of a grid board to `out`; `grid_compiler(grid)`
is the compiler of a grid's effects (one per grid, for tools as for `compile_grid`).
"""

from __future__ import annotations

from dataclasses import fields

from sorry_rules import dsl
from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.compiler.checks import repeated_words
from sorry_rules.compiler.costs import GridCosts
from sorry_rules.compiler.grideffects import GridCompiler
from sorry_rules.compiler.ranges import grid_win_warning
from sorry_rules.compiler.vocabulary import CompileError, more_unknown_names, text_problem
from sorry_rules.engine.grid import Grid
from sorry_rules.engine.gridgame import GridGame
from sorry_rules.engine.gridmechanics import SHAPE_CELLS, GridView
from sorry_rules.engine.settings import MovementRules

#: sections of a rule file that only pawns on a race track play
TRACK_SECTIONS = ("filters", "after", "counters", "scoring")


def check_grid(v, out: ProblemCollector) -> None:
    """The shape of the grid, its cards, its lines, and the hand sizes; the race-track rules
    a grid board does not play (SR512: `teams`, `filters`, `after`, `counters`, `scoring`, `places`,
    a `rules` switch or `setup` other than the default)."""
    _track_rules(v, out)
    repeated_words(v, out)
    _check_cells(v, out)
    _check_lines(v.board, out)
    if v.turn.source != "hand":
        out.at(("turn", "source"), "SR512", "a grid board is played from hands (turn.source: hand)")
        return
    if v.turn.stuck == "discard_one":
        out.at(("turn", "stuck"), "SR512", "turn.stuck: discard_one is played on race tracks only; a grid board's "
               "player with no play passes (S9: write pass, or leave stuck out)")
    for key, size in v.turn.hand_size_by_players.items():
        if key not in v.seating:
            out.at(("turn", "hand_size_by_players", key), "SR510", f"turn.hand_size_by_players: no seating for {key} players "
                   f"(add one under seating:, or remove this key)", key=True)
    if not v.seating:
        out.at(("seating",), "SR510", "a grid board needs a seating table (the colour of every seat, by player count)")
        return
    _check_sides(v, out)


def _check_sides(v, out: ProblemCollector) -> None:
    """A grid game seats by its table: counts of `players` beyond the table's seat nobody
    (SR510), and a seating of one colour only has one side, nobody to play against (SR506,
    a warning, as for a race track's team)."""
    listed = [int(key) for key in v.seating if key.isascii() and key.isdigit()]
    if listed and v.players.max > max(listed):
        out.at(("players", "max"), "SR510", f"players.max is {v.players.max}, but seating lists no count above "
               f"{max(listed)}: add a seating for {v.players.max} players, or lower players.max", also=(("seating",),))
    if listed and v.players.min < min(listed):
        out.at(("players", "min"), "SR510", f"players.min is {v.players.min}, but seating lists no count below "
               f"{min(listed)}: add a seating for {v.players.min} players, or raise players.min", also=(("seating",),))
    for key, names in v.seating.items():
        if len(names) > 1 and len(set(names)) == 1:
            out.at(("seating", key), "SR506", f"seating {key}: every seat plays {names[0]}, one side, so nobody plays "
                   "against anybody (S1: two or three sides)", severity="warning")


def _check_cells(v, out: ProblemCollector) -> None:
    """Rows of the board's width showing cards of the deck, one row of cells per row, and a
    name of its own for every cell (column + row)."""
    b = v.board
    width = len(b.columns)
    for r, row in enumerate(b.cells):
        if len(row) != width:
            out.at(("board", "cells", r), "SR505", f"row {r + 1} has {len(row)} cells; the board has {width} columns")
        for c, card in enumerate(row):
            if card != b.free and card not in v.deck:
                out.at(("board", "cells", r, c), "SR502", f"cell shows '{card}', which is no card of the deck"
                       f"{did_you_mean(card, list(v.deck))}")
            elif card != b.free and not v.deck[card]:
                out.at(("board", "cells", r, c), "SR502", f"cell shows '{card}', of which the deck holds no copy "
                       f"(deck: {card}: 0)", also=(("deck", card),))
    if len(b.cells) != len(b.rows):
        out.at(("board", "cells"), "SR505", f"{len(b.cells)} rows of cells; the board has {len(b.rows)} rows")
    named: dict[str, list] = {}
    for r in b.rows:
        for c in b.columns:
            named.setdefault(c + r, []).append(f"column {c} + row {r}")
    for name, ways in named.items():
        if len(ways) > 1:
            out.at(("board", "rows"), "SR505", f"two cells get the same name '{name}' ({', '.join(ways)})")


def _check_lines(b, out: ProblemCollector) -> None:
    """Lines that fit the board in some direction listed (an error), in every direction
    listed (a warning), sharing fewer cells than their length."""
    width, length = len(b.columns), b.lines.length
    room = {"row": width, "column": len(b.rows), "diagonal": min(width, len(b.rows))}
    if length > max(width, len(b.rows)):
        out.at(("board", "lines", "length"), "SR505", f"lines of {length} cells do not fit the board")
    elif all(length > room[direction] for direction in b.lines.directions):
        out.at(("board", "lines", "length"), "SR505", f"lines of {length} cells do not fit the board in any direction "
               f"listed ({', '.join(b.lines.directions)})")
    else:
        for i, direction in enumerate(b.lines.directions):
            cells = room[direction]
            if length > cells:
                out.at(("board", "lines", "directions", i), "SR505", f"{direction} lines of {length} cells never fit: "
                       f"the board has {cells} cell{'s' if cells != 1 else ''} that way", severity="warning")
    if b.lines.shared >= length:
        out.at(("board", "lines", "shared"), "SR508", "board.lines.shared must be less than board.lines.length")


def _track_rules(v, out: ProblemCollector) -> None:
    from sorry_rules.compiler.build import movement_rules  # build imports this module when it compiles a grid

    for section in TRACK_SECTIONS:
        if getattr(v, section):
            out.at((section,), "SR512", f"{section}: is a race-track rule; a grid board does not play it", key=True)
    rules = movement_rules(v.rules)
    for field in fields(MovementRules):
        if getattr(rules, field.name) != field.default:
            out.at(("rules", field.name), "SR512", f"rules.{field.name} is a race-track rule; a grid board does not play it")
    if v.places != 1:
        out.at(("places",), "SR512", "places: playing on for places is a race-track rule; a grid game ends at its first "
                                     "winner")
    for field in ("on_start_exit", "squares"):
        if getattr(v.setup, field):
            out.at(("setup", field), "SR512", f"setup.{field} is a race-track rule; a grid board has no pawns")
    if v.teams:
        out.at(("teams",), "SR512", "teams: a grid board's sides are its chip colours (the players seated with one "
               "colour are a team, seating:); teams of several colours are not played", key=True)


def compile_grid(v, out: ProblemCollector, content_hash: str = "") -> tuple[GridGame, list[Problem]]:
    check_grid(v, out)
    if out.errors:
        from sorry_rules.compiler.build import syntax_problems  # build imports this module when it compiles a grid

        syntax_problems(v, out)  # the texts cannot be compiled on a broken board, but they can be read
        raise RuleFileError(out.problems)
    b = v.board
    cards = [None if card == b.free else card for row in b.cells for card in row]
    grid = Grid(v.colours, b.columns, b.rows, cards, b.lines.length, b.lines.directions, b.lines.shared)
    compiler = grid_compiler(grid)
    team_of = compiler.team_of
    card_names = [name for name in v.deck if name in v.cards]
    programs, shapes = {}, {}
    costs = GridCosts(grid.size, grid.C)
    for name in card_names:
        programs[name], shapes[name] = _compile(out, ("cards", name), v.cards[name], lambda node, name=name: (
            costs.cost(node), _no_partners(out, name, node), compiler.effect(node, name),
            compiler.shape(node, name))[2:]) or (None, None)
    for name in card_names:
        if shapes[name] == (SHAPE_CELLS, ()) and v.deck[name]:
            out.at(("cards", name), "SR515", f"card '{name}': no cell shows it, so `place on card` never plays it "
                   "(always a dead card, S12): add its cells to board.cells, or give it another effect",
                   severity="warning", key=True)
    compiler.functions_used.clear()
    win_tree = []
    win = _compile(out, ("win",), v.win, lambda node: (win_tree.append(node), costs.cost(node),
                                                       compiler.expression(node, bool))[2], expr=True)
    win_reads = frozenset(compiler.functions_used)
    if out.errors:
        raise RuleFileError(out.problems)
    grid_win_warning(v, win_tree[0], grid, out)
    seating = {int(k): tuple(names) for k, names in v.seating.items()}
    _won_before_any_move(grid, win, {n: tuple(v.colours.index(name) for name in names) for n, names in seating.items()},
                         out)
    hand_sizes = {n: v.turn.hand_size_by_players.get(str(n), v.turn.hand_size) for n in seating}
    game = GridGame(
        name=v.name, grid=grid, card_names=card_names, card_programs=[programs[n] for n in card_names],
        card_sources=[v.cards[n] for n in card_names],
        deck=[i for i, name in enumerate(card_names) for _ in range(v.deck[name])], team_of=team_of,
        seating=seating, hand_sizes=hand_sizes, players_min=v.players.min, players_max=v.players.max,
        first=v.turn.first, exchange=v.turn.exchange == "dead", win=win, content_hash=content_hash,
        card_shapes=[shapes[n] for n in card_names], win_reads=win_reads,
    )
    return game, out.problems


def name_problems(v, out: ProblemCollector) -> None:
    """The unknown names (SR302) of the card effects and the win condition of grid variant
    `v` whose own checks failed: the names a grid's texts may use are the same on every
    board, so they are judged on a one-cell stand-in board of `v`'s colours (only SR302 is
    kept: what else a text's compiling says depends on the real board)."""
    stand_in = Grid(v.colours or ("side",), ("A",), ("1",), (None,), 1, ("row",), 0)
    compiler, found = grid_compiler(stand_in), ProblemCollector(out.locator)
    for name, text in v.cards.items():
        _compile(found, ("cards", name), text, lambda node, name=name: compiler.effect(node, name))
    _compile(found, ("win",), v.win, lambda node: compiler.expression(node, bool), expr=True)
    out.extend(p for p in found.problems if p.code == "SR302")


def _won_before_any_move(grid: Grid, win, seating: dict, out: ProblemCollector) -> None:
    """A warning (SR529) when the win condition holds on the empty board (free cells only)
    for a colour of some seating: the game is over before it begins (a position there is
    SR608), and play gives the win to the first player to move."""
    empty = tuple(() for _ in range(grid.C))
    for players, colours in sorted(seating.items()):
        view = GridView(empty, frozenset(colours), grid)
        won = [grid.colours[c] for c in dict.fromkeys(colours) if win(c, view, None)]
        if won:
            out.at(("win",), "SR529", f"win: this condition holds before any chip is placed ({', '.join(won)} with "
                   f"{players} players), so the game is over before it begins", severity="warning")
            return


def grid_compiler(grid: Grid) -> GridCompiler:
    """The compiler of `grid`'s card effects and expressions: every colour is a side of its
    own (its chips `own`, every other colour's `opponent`). Also used by tools that compile
    one option of a card alone (`authoring.gridwhy`)."""
    n = grid.C
    team_of = tuple((c,) for c in range(n))
    relation = tuple(tuple("own" if o == c else "opponent" for o in range(n)) for c in range(n))
    return GridCompiler(grid, team_of, relation)


def _no_partners(out: ProblemCollector, name: str, node) -> None:
    """A warning (SR506) for each `remove partner` of a grid card: every colour of a grid is a
    side of its own (the seats of one colour play together), so no chip is a partner's."""
    for found in dsl.walk(node):
        if isinstance(found, dsl.Remove) and found.relation == "partner":
            out.in_text(("cards", name), found.pos, "SR506", f"card '{name}': 'remove partner' can never apply: on a grid "
                        "every colour is a side of its own, so no chip is a partner's", severity="warning")


def _compile(out: ProblemCollector, path: tuple, text: str, build, expr: bool = False):
    node = None
    try:
        node = dsl.parse_expr(text) if expr else dsl.parse_effect(text)
        return build(node)
    except (dsl.DslError, CompileError) as error:
        text_problem(out, path, text, error)
        if isinstance(error, CompileError) and error.code == "SR302":
            for more in more_unknown_names(node, error, build):
                out.in_text(path, more.offset, more.code, more.message)
        return None
