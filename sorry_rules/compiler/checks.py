"""Cross-field checks of a loaded variant: what the schema alone cannot express.

Contract: `check_variant(variant, out)` adds every problem it finds to `out` (located at the
field it concerns) and never raises; the compiler runs it before building anything.
"""

from __future__ import annotations

from sorry_rules.base.errors import Problem


class Problems:
    """Problems of one loaded variant, located through its source map (`origins`)."""

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


def check_variant(v, out: Problems) -> None:
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
