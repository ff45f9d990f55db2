"""The checks of `sorry-play validate` after the schema: cross-field checks, every DSL text,
warnings and the whole-game analyses of one validated variant (`authoring.validate` stages 3
and 4).

Contract: `variant_problems(v, origins, root, analyse, trees)` returns every problem of
variant `v`, located through `origins`; `v` is a validated `rules.model.Variant`, or the same
values as `rules.plain.PlainModel`s (what `rules.loadcache.edited` gives: the checks only read
fields, and give the same problems for both; tests/test_validatecache.py compares them on every
bundled and test rule file). For plain values whose cross-field checks fail it returns None:
the DSL texts are then checked against the parts `safe_context` validates with the models, so
the caller checks the file with the models instead. Nothing here imports pydantic, but
`safe_context` (a variant whose cross-field checks failed).
"""

from __future__ import annotations

from types import SimpleNamespace

from sorry_rules.authoring.analysis import analyse as run_analyses
from sorry_rules.base.errors import Problem, ProblemCollector, RuleFileError
from sorry_rules.base.limits import MAX_DICE, MAX_FACE, MAX_FACES, MAX_PAWNS, MAX_SAFETY, MAX_SIDE
from sorry_rules.compiler import astcache
from sorry_rules.compiler.build import Context, check_all, compile_text, dsl_texts, syntax_problems, with_also
from sorry_rules.compiler.follows import card_costs, check_follow_costs
from sorry_rules.compiler.gridbuild import check_grid, compile_grid, name_problems
from sorry_rules.compiler.dice import check_throw_costs, engine_dice, uses_dice
from sorry_rules.compiler.marking import mark_warnings
from sorry_rules.compiler.ranges import condition_warnings, variant_bounds
from sorry_rules.compiler.vocab import counter_warnings
from sorry_rules.compiler.squares import RESERVED as SQUARE_WORDS
from sorry_rules.engine.placement import PlacementView
from sorry_rules.rules.plain import PlainModel


def variant_problems(v, origins, root: str, analyse: bool, trees: tuple | None = None) -> list[Problem] | None:
    """Every problem of validated variant `v`; `trees`: (files, content hash) of its merged
    data, to take the DSL trees of texts parsed before from `compiler.astcache` and keep them.
    None for plain values (`rules.plain`) whose cross-field checks fail (module docstring)."""

    out = ProblemCollector(origins)
    check_all(v, out)
    checked = not out.errors
    if not checked and isinstance(v, PlainModel):
        return None
    if v.board.kind == "grid":
        if checked:
            try:
                compile_grid(v, out)
            except RuleFileError:
                pass  # its problems are in `out`
        else:  # the grid's own checks, and what can be said of its texts
            check_grid(v, out)
            syntax_problems(v, out)
            name_problems(v, out)
        return out.problems
    ctx = Context(v) if checked else safe_context(v.colours, v.teams, v.board, v.rules, v.pawns, v.marks, v.counters,
                                                  v.turn)
    asts, parsed, compiled, win = {}, {}, {}, None
    texts = dsl_texts(v)
    known = astcache.preload(*trees) if trees is not None else True
    for path, text, kind in texts:
        ast, program = compile_text(ctx.programs, out, path, text, kind)
        parsed[path] = ast
        if program is not None:
            asts[path], compiled[path] = ast, program
            win = program if path == ("win",) else win
    if not known:
        astcache.store(*trees, texts, parsed)
    if checked:  # as the compiler: cards with their alternatives, throws, the effects that follow moves
        added = with_also(v, ctx.programs, asts, compiled, out)
        dice = engine_dice(v) if uses_dice(v) else None
        if dice is not None:
            check_throw_costs(v, dice, asts, ctx.programs.cost_of, out)
        check_follow_costs(v, asts, ctx.programs.cost_of, card_costs(v, asts, ctx.programs.cost_of, added, dice), out)
    every_text = len(asts) == len(texts)  # a text that failed may read a counter or place a mark
    counter_warnings(v, asts, out, every_text)
    condition_warnings(v, asts, variant_bounds(v, asts), len(v.colours), out)
    mark_warnings(v, ctx.programs.marks_placed, ctx.programs.marks_read, out, every_text)
    if checked and win is not None and not v.counters and not v.marks:
        _won_before_any_move(v, ctx.layout, win, out)
    if analyse and checked:  # cards that failed to compile are skipped by the analyses
        def report(path, code, message, severity="error", offset=None, also=()):
            mark = origins.in_text(path, offset) if offset is not None else prefer_root(origins, (path, *also), root)
            out.add_at(mark, code, message, severity)

        run_analyses(v, asts, ctx, report)
    return out.problems


def _won_before_any_move(v, layout, win, out: ProblemCollector) -> None:
    """A warning (SR529) when the win condition holds for a colour on the board a game
    begins with (every colour seated, pawns in Start or on the start exit as `setup` says):
    the game is over before it begins. Only for variants without counters or marks (the
    condition may read them)."""
    view = PlacementView(layout.placement_at_start(v.pawns, layout.setup_squares(v.setup.on_start_exit, v.setup.squares)))
    won = [layout.colours[c] for c in range(layout.C) if win(c, view, None)]
    if won:
        out.at(("win",), "SR529", f"win: this condition holds before any move ({', '.join(won)}), so the game is over "
               "before it begins", severity="warning")


def prefer_root(origins, paths, root: str):
    """Where to report a problem about the fields at `paths` (most relevant first): the
    first of them, or of the keys under them, that the validated file itself wrote (so an
    overlay's problem shows in the overlay); else the key of the first path."""
    for path in paths:
        mark = origins.key_mark(path)
        if mark.file == root:
            return mark
        inside = [smap.key_mark(sub) or smap.locate(sub) for sub, smap in origins.maps.items()
                  if sub[: len(path)] == path and len(sub) > len(path) and smap.file == root]
        if inside:
            return min(inside, key=lambda m: (m.line, m.col))
    return origins.key_mark(paths[0])


# ---- DSL texts when the schema failed ----------------------------------------------------
def safe_context(colours, teams, board, rules, pawns=None, marks=None, counters=None, turn=None):
    """A compiler context from whatever parts of a variant are usable, for checking DSL
    names and types. An unusable board falls back to the largest board (so step limits,
    which depend on the board, are not reported against a board the file does not have); one
    whose start exit or safety entry is off the side keeps its sides and safety zones; the
    counters and the dice's throws are named as the file declares them, so the texts that
    read them are not reported for a problem elsewhere."""

    from sorry_rules.rules.model import Board, Rules  # lazy: pydantic and the models only for a file that failed a check
    from sorry_rules.rules.vocab import MarkKind

    names = list(dict.fromkeys(n for n in colours if isinstance(n, str))) if isinstance(colours, (list, tuple)) else []
    names = names or ["colour"]
    groups, placed = [], set()
    for team in teams if isinstance(teams, (list, tuple)) else []:
        if isinstance(team, (list, tuple)):
            members = [n for n in team if isinstance(n, str) and n in names and n not in placed]
            placed.update(members)
            if members:
                groups.append(members)
    if not isinstance(board, Board):
        try:
            board = Board.model_validate(board)
        except Exception:  # noqa: BLE001 - any invalid board means: use the fallback
            board = None
    if board is None:
        board = Board(side_length=MAX_SIDE, start_exit=0, safety_entry=MAX_SIDE - 1, safety_length=MAX_SAFETY)
    elif board.start_exit >= board.side_length or board.safety_entry >= board.side_length:
        # the sides and the safety zones are the file's (step limits and safety:K judged on them), the offsets in range
        board = board.model_copy(update={"start_exit": min(board.start_exit, board.side_length - 1),
                                         "safety_entry": min(board.safety_entry, board.side_length - 1)})
    slides, triangles = [], set()
    for slide in board.slides:
        fits = slide.from_ < board.side_length and slide.from_ < slide.to < slide.from_ + board.side_length
        if fits and slide.from_ not in triangles:
            triangles.add(slide.from_)
            slides.append(slide)
    squares = {name: square for name, square in getattr(board, "squares", {}).items()  # those the checks would keep
               if name not in SQUARE_WORDS and all(offset < board.side_length for offset in square.at)}
    board = SimpleNamespace(side_length=board.side_length, start_exit=board.start_exit, safety_entry=board.safety_entry,
                            safety_length=board.safety_length, slides=slides, squares=squares)
    if not isinstance(rules, Rules):
        try:
            rules = Rules.model_validate(rules if rules is not None else {})
        except Exception:  # noqa: BLE001
            rules = Rules()
    if not (isinstance(pawns, int) and not isinstance(pawns, bool) and 1 <= pawns <= MAX_PAWNS):
        pawns = 1  # unusable: the cost estimates then assume the fewest pawns
    kinds = {name: MarkKind() for name in marks if isinstance(name, str)} if isinstance(marks, dict) else {}
    declared = {name: SimpleNamespace(start=_field(counter, "start", 0)) for name, counter in counters.items()
                if isinstance(name, str)} if isinstance(counters, dict) else {}
    return Context(SimpleNamespace(colours=names, teams=groups or None, board=board, rules=rules, pawns=pawns, marks=kinds,
                                   counters=declared, turn=_usable_dice(turn)))


def _field(part, name: str, default):
    """Field `name` of a model or of raw data, when it is a whole number, else `default`."""
    value = _raw(part, name)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _usable_dice(turn):
    """The file's dice turn when its dice are within the models' bounds (so the throws are
    few and `Context` names them), else None (no dice)."""
    source, dice, faces = (_raw(turn, name) for name in ("source", "dice", "faces"))
    dice = 1 if dice is None else dice
    if source != "dice" or not isinstance(faces, (list, tuple)) or not 2 <= len(faces) <= MAX_FACES \
            or not all(type(n) is int and 0 <= n <= MAX_FACE for n in (*faces, dice)) or not 1 <= dice <= MAX_DICE:
        return None
    return SimpleNamespace(source="dice", dice=dice, faces=list(faces))


def _raw(part, name: str):
    return part.get(name) if isinstance(part, dict) else getattr(part, name, None)
