"""Movement geometry of a variant (`geometry:`, with `rules.overshoot_home` mapped onto it):
checks against the rest of the variant, and the engine's `engine.routes.Geometry`.

Contract:
- `check_geometry(v, out)` adds located problems: geometry on a grid board (SR512), a turn
  offset off the side (SR505), an unknown colour (SR501), `past_home` contradicting
  `rules.overshoot_home: stop` (H32 with H19: SR550), turns or passing rules with
  `rules.split: simultaneous` (SR552), more than `limits.MAX_CONDITIONAL_TURNS` turns with a
  `when` (SR505), and warns (SR551) of a turn or blocker that changes
  nothing.
- `past_home(v)` is the effective rule past Home: `geometry.past_home`, else
  `rules.overshoot_home` (`illegal`, `stop`): old files keep their meaning.
- `geometry_texts(v)` lists the turns' `when` conditions as DSL texts (`build.dsl_texts`);
  `bind_turn_conditions(v, mechanics, compiled)` gives the routes their compiled closures.
- `engine_geometry(v)` returns the frozen `engine.routes.Geometry`; a variant without
  `geometry:` gets `Geometry(past_home=...)`, which needs no route tables unless it bounces.
"""

from __future__ import annotations

from sorry_rules.base import limits
from sorry_rules.base.errors import ProblemCollector
from sorry_rules.compiler.checks import unknown_colour
from sorry_rules.engine.routes import Blocker, Geometry, Turn

RELATIONS = {"own": ("own",), "partner": ("partner",), "opponent": ("opponent",), "other": ("partner", "opponent"),
             "any": ("own", "partner", "opponent")}


def past_home(v) -> str:
    g = getattr(v, "geometry", None)
    return (g.past_home if g is not None else None) or v.rules.overshoot_home


def check_geometry(v, out: ProblemCollector) -> None:
    g = getattr(v, "geometry", None)
    if g is None:
        return
    if v.board.kind != "track":
        if g.past_home is not None or g.turns or g.blockers:
            out.at(("geometry",), "SR512", "geometry: is a race-track rule; a grid board has no routes", key=True)
        return
    if g.past_home is not None and g.past_home != "stop" and v.rules.overshoot_home == "stop":
        other = out.locator.mark(("rules", "overshoot_home")) if out.locator is not None else None
        where = f" ({other.file}:{other.line}:{other.col})" if other is not None else ""
        out.at(("geometry", "past_home"), "SR550", f"geometry.past_home: {g.past_home} contradicts rules.overshoot_home: "
               f"stop{where} (H19: a pawn stops in Home); a rule file says one of them")
    routed = bool(g.turns) or any(not b.pass_ for b in g.blockers.values())
    if routed and v.rules.split == "simultaneous":
        out.at(("geometry",), "SR552", "geometry turns and passing rules work with rules.split: sequential only "
               "(a simultaneous split judges every part on the board before it)", key=True, also=(("rules", "split"),))
    side = v.board.side_length
    conditional = [path for path, _, _ in geometry_texts(v)]
    if len(conditional) > limits.MAX_CONDITIONAL_TURNS:
        out.at(conditional[limits.MAX_CONDITIONAL_TURNS], "SR505",
               f"{len(conditional)} turns have a when: condition (at most {limits.MAX_CONDITIONAL_TURNS}: each one "
               "doubles the route tables)")
    for name, turn in g.turns.items():
        if isinstance(turn.at, int) and turn.at >= side:
            out.at(("geometry", "turns", name, "at"), "SR505", f"turn '{name}': offset {turn.at} is off the side "
                   f"(offsets 0..{side - 1})", also=(("board", "side_length"),))
        elif _turn_is_plain(turn, _offset(v.board, turn.at), v.board.safety_entry):
            out.at(("geometry", "turns", name), "SR551", f"turn '{name}' is the way {turn.moving} moves go anyway: "
                   "it changes nothing", severity="warning", key=True)
    colours = list(v.colours)
    for name, blocker in g.blockers.items():
        for i, colour in enumerate(blocker.colours or ()):
            if colour not in colours:
                out.at(("geometry", "blockers", name, "colours", i), "SR501",
                       unknown_colour(colour, colours, f"blocker '{name}'"))
        if blocker.pass_ and blocker.land:
            out.at(("geometry", "blockers", name), "SR551", f"blocker '{name}' has pass: true and land: true: it "
                   "blocks nothing", severity="warning", key=True)


def _offset(board, at) -> int:
    return {"safety_entry": board.safety_entry, "start_exit": board.start_exit}.get(at, at)


def _turn_is_plain(turn, offset: int, entry: int) -> bool:
    """Whether the turn's edge is the plain next step of its direction."""
    if turn.onto == "track":
        return turn.moving == "backward" or offset != entry
    return turn.moving == "forward" and offset == entry


def geometry_texts(v) -> list[tuple[tuple, str, str]]:
    """The DSL texts of `geometry:`: each turn's `when`, a condition on the player to move."""
    g = getattr(v, "geometry", None)
    if g is None or v.board.kind != "track":
        return []
    return [(("geometry", "turns", name, "when"), t.when, "bool") for name, t in g.turns.items() if t.when is not None]


def bind_turn_conditions(v, mechanics, compiled: dict) -> None:
    """Give the routes of `mechanics` the compiled conditions of the turns with a `when`
    (`engine.routes.Routes.conditions`, in the order of the turns)."""
    routes = mechanics.routes
    if routes is not None and routes.conditional:
        routes.conditions = tuple(compiled[path] for path, _, _ in geometry_texts(v))


def engine_geometry(v) -> Geometry:
    g, b = getattr(v, "geometry", None), v.board
    if g is None:
        return Geometry(past_home(v))
    colours = list(v.colours)
    turns = tuple(Turn(_offset(b, t.at), t.moving, t.onto, t.must, t.label or f"geometry.turns.{name}",
                       getattr(t, "when", None) is not None) for name, t in g.turns.items())
    blockers = tuple(
        Blocker(RELATIONS[k.pawns], None if k.colours is None else tuple(colours.index(c) for c in k.colours if c in colours),
                k.on, k.pass_, k.land, k.label or f"geometry.blockers.{name}", getattr(k, "group", 1))
        for name, k in g.blockers.items())
    return Geometry(past_home(v), turns, blockers)
