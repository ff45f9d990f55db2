"""Position files of grid variants (docs/SEQUENCE.md section 5), for the moves oracle.

Format (JSON, or YAML; read by `records.position.read_position_file`):
  {"players": ["blue", "green"], "turn": "blue", "hand": ["4H", "JD"],
   "chips": {"blue": ["E5", "F5"], "green": ["D4"]}, "exchanged": false}
`players` are the chip colours in the game, in seat order (one seat per colour); `turn`
the colour to move (default the first); `hand` its cards; `chips` the cells each colour
covers (a colour left out has none); `exchanged` whether this turn's exchange was made.

Contract: `parse_grid_position(game, data, origins)` returns a `GridPosition` or raises
`PositionError` with every problem found, each located at `file:line:col`: an unknown
colour (SR501) or card (SR502), a cell that is not on the board or is free (SR601), two
chips on one cell (SR602), a colour not among the players or listed twice (SR603), a number of colours no
seating of the variant has (SR510), no `hand` (SR604: an empty one is `[]`), a hand
larger than any deal to that many colours (SR604), a hand holding more copies of a card
than the deck has (SR508), a field of the wrong shape (SR2xx).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from sorry_rules.base.errors import PositionError, ProblemCollector
from sorry_rules.records.position import IN_MEMORY, PositionChecks, validated_fields
from sorry_rules.rules.loader import Origins


class GridPositionModel(BaseModel):
    """A grid position: the colours, whose turn, the hand, the chips, the exchange made."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    players: list[str] = Field(min_length=1, description="The chip colours in the game, in seat order.")
    turn: str | None = Field(default=None, description="The colour to move (default the first).")
    hand: list[str] = Field(default_factory=list, description="The cards of the player to move.")
    chips: dict[str, list[str]] = Field(default_factory=dict, description="Colour -> the cells its chips cover.")
    exchanged: bool = Field(default=False, description="Whether this turn's dead-card exchange was made.")


@dataclass(frozen=True)
class GridPosition:
    state: object          # engine.gridgame.GridState
    hand: tuple


def parse_grid_position(game, data, origins: Origins | None = None) -> GridPosition:
    """Check a grid position against the variant and build an engine state for it."""
    out = ProblemCollector(origins if origins is not None else Origins(fallback=IN_MEMORY))
    if not isinstance(data, dict):
        out.at((), "SR203", "a position must be a mapping (a JSON object) with players, turn, hand and chips")
        raise PositionError.of(out.problems)
    model, _ = validated_fields(GridPositionModel, data, out)  # the fields that failed are reported, the rest checked
    if model is None:
        raise PositionError.of(out.problems)
    check = _Checker(game, out)
    if "hand" not in data:  # an empty hand is written `[]` (S8): a hand left out is a mistake (or one that failed)
        out.at((), "SR604", "this variant plays from a hand: give \"hand\": [cards] (an empty hand: [])")
    seats = tuple(check.seated(model.players))
    check.seat_count(model.players, {len(set(colours)) for colours in game.seating.values()})
    turn = check.seat_to_move(model.turn, list(seats))
    placement = check.chips(model.chips, seats)
    # the largest deal of a seating with as many colours (S4: three sides hold 6 cards at most)
    sides = len(set(model.players))
    deals = [game.hand_sizes[n] for n, names in game.seating.items() if len(set(names)) == sides]
    hand = check.hand_cards(model.hand, max(deals or game.hand_sizes.values(), default=None),
                            f"the deal to {sides} colour{'s' if sides != 1 else ''}")
    if not out.errors:
        check.already_won(seats, lambda c: game.win_holds(c, placement, seats))
    if out.errors:
        raise PositionError.of(out.problems)
    return GridPosition(game.position(placement, seats, turn, hand, model.exchanged), hand)


class _Checker(PositionChecks):
    """The checks of a schema-valid grid position: chips on cells, the hand."""

    def chips(self, chips: dict, seats) -> tuple:
        placement = [() for _ in self.game.colours]
        covered: dict[int, str] = {}
        for name, cells in chips.items():
            c = self.player(name, "chips", seats)
            if c is None:
                continue
            found = [cell for j, text in enumerate(cells) if (cell := self.cell(c, name, j, text, covered)) is not None]
            placement[c] = tuple(sorted(found))
        return tuple(placement)

    def cell(self, c: int, name: str, j: int, text: str, covered: dict) -> int | None:
        grid = self.game.grid
        try:
            cell = grid.parse(c, text)
        except PositionError as error:
            self.out.at(("chips", name, j), "SR601", f"chips.{name}: {error}")
            return None
        if cell in grid.free:
            self.out.at(("chips", name, j), "SR601", f"chips.{name}: {text} is a free cell; no chip covers it")
            return None
        if cell in covered:
            other = covered[cell]
            same = "two chips" if other == name else f"a {other} and a {name} chip"
            self.out.at(("chips", name, j), "SR602", f"chips.{name}: {same} on {text} (a cell holds one chip)")
            return None
        covered[cell] = name
        return cell
