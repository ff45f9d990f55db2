"""Cross-field checks of a loaded variant: what the schema alone cannot express.

Contract: `check_variant(variant, out)` adds every problem it finds to `out` (a
`ProblemCollector` located through the variant's source map, each problem at the field it
concerns) and never raises; the compiler runs it before building anything. Names that are
unknown (colours, cards) get the close known name ("did you mean") and the known names.
"""

from __future__ import annotations

from sorry_rules.base.errors import ProblemCollector
from sorry_rules.base.suggest import did_you_mean
from sorry_rules.base.words import plural
from sorry_rules.rules.deals import largest_deal


def check_variant(v, out: ProblemCollector) -> None:
    repeated_words(v, out)
    _check_colours(v, out)
    _check_players(v, out)
    _check_seating(v, out)
    if v.board.kind == "track":
        _check_board(v.board, out)
        _check_slides(v.board, len(v.colours), out)
        _check_track_turn(v.turn, out)
        _check_setup(v, out)
    if getattr(getattr(v, "turn", None), "source", "draw") != "dice":  # a dice turn's faces are its cards (check_dice)
        _check_cards(v, out)
    _check_deck_size(v, out)


#: the lists of words each written at most once (`rules.model.ONCE_EACH`), with each slide's `slide_on`
ONCE_EACH = (("rules", "bump"), ("rules", "slide_on"), ("board", "lines", "directions"))


def repeated_words(v, out: ProblemCollector) -> None:
    """SR516 for a word listed twice in a list of `ONCE_EACH` (a list longer than its words
    says which word, not "too long")."""
    slides = getattr(v.board, "slides", ())
    for path in ONCE_EACH + tuple(("board", "slides", i, "slide_on") for i in range(len(slides))):
        words = v
        for key in path:
            words = words[key] if isinstance(key, int) else getattr(words, key, None)
        for i, word in enumerate(words or ()):
            if word in words[:i]:
                out.at(path, "SR516", f"{'.'.join(map(str, path))}: '{word}' is listed twice")
                break


def unknown_cards(v, out: ProblemCollector, path: tuple, names) -> None:
    """SR502 at `path + (j,)` for each name `names[j]` that is no card under `cards:` (None: no names)."""
    cards = list(v.cards)
    for j, card in enumerate(names or ()):
        if card not in v.cards:
            out.at(path + (j,), "SR502", f"unknown card '{card}'{did_you_mean(card, cards)} (cards: {', '.join(cards)})")


def unknown_colour(name: str, colours: list[str], where: str) -> str:
    return f"unknown colour '{name}' in {where}{did_you_mean(name, colours)} (colours: {', '.join(colours)})"


def _check_colours(v, out: ProblemCollector) -> None:
    colours = list(v.colours)
    for i, name in enumerate(colours):
        same = next((other for other in colours[:i] if other.lower() == name.lower()), None)
        if same == name:
            out.at(("colours", i), "SR501", f"colour '{name}' is listed twice")
        elif same is not None:  # the command line, positions and saves name colours without case
            out.at(("colours", i), "SR501", f"colour '{name}' is listed twice: '{same}' is the same colour "
                   "(colours are told apart without case)")
    seen_team: dict[str, int] = {}
    for t, team in enumerate(v.teams or []):
        for i, name in enumerate(team):
            if name not in colours:
                out.at(("teams", t, i), "SR501", unknown_colour(name, colours, "teams"), also=(("colours",),))
            elif name in seen_team:
                out.at(("teams", t, i), "SR506", f"colour '{name}' is in two teams")
            else:
                seen_team[name] = t


def _check_players(v, out: ProblemCollector) -> None:
    if v.players.min > v.players.max:
        out.at(("players", "min"), "SR510", f"players: min {v.players.min} is more than max {v.players.max}")
    if v.players.max > len(v.colours) and v.board.kind == "track":
        out.at(("players", "max"), "SR510", f"players: max {v.players.max} but only {len(v.colours)} colours",
               also=(("colours",),))


def _check_seating(v, out: ProblemCollector) -> None:
    """Seating keys and lists; an unknown colour is said once, where it is first seated."""
    colours = list(v.colours)
    unknown: dict[str, list] = {}  # name: the places it is seated
    for key, names in v.seating.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 3) or not v.players.min <= int(key) <= v.players.max:
            out.at(("seating", key), "SR510",
                   f"seating: '{key}' is not a player count between {v.players.min} and {v.players.max}", key=True)
            continue
        if len(names) != int(key):
            out.at(("seating", key), "SR510", f"seating {key}: lists {len(names)} colour{'s' if len(names) != 1 else ''} "
                   f"for {key} seats (one colour a seat)")
        for i, name in enumerate(names):
            if name not in colours:
                unknown.setdefault(name, []).append(("seating", key, i))
            elif name in names[:i] and v.board.kind == "track":
                out.at(("seating", key, i), "SR510", f"colour '{name}' is seated twice")
    for name, places in unknown.items():
        more = f" and {len(places) - 1} more place{'s' if len(places) > 2 else ''} there" if len(places) > 1 else ""
        out.at(places[0], "SR501", unknown_colour(name, colours, "seating" + more))


def _check_track_turn(turn, out: ProblemCollector) -> None:
    """Turn rules that only grid boards play (SR512)."""
    if turn.source != "hand":
        return
    if turn.stuck == "pass":
        out.at(("turn", "stuck"), "SR512", "turn.stuck: pass is played on grid boards only")
    if turn.exchange != "none":
        out.at(("turn", "exchange"), "SR512", "turn.exchange is played on grid boards only")
    if turn.hand_size_by_players:
        out.at(("turn", "hand_size_by_players"), "SR512", "turn.hand_size_by_players is played on grid boards only")


def _check_board(board, out: ProblemCollector) -> None:
    side = board.side_length
    for field in ("start_exit", "safety_entry"):
        if getattr(board, field) >= side:
            out.at(("board", field), "SR505", f"board.{field} {getattr(board, field)} is off the side (offsets 0..{side - 1})",
                   also=(("board", "side_length"),))


def _check_slides(board, colours: int, out: ProblemCollector) -> None:
    """A slide goes forward, less than a side (a jump, `sweep: end`: less than a lap) and, but
    for a jump, never onto another slide's triangle; no two slides start at one offset."""
    side = board.side_length
    lap = side * colours
    triangles = {s.from_ for s in board.slides}
    for i, slide in enumerate(board.slides):
        jump = slide.sweep == "end"
        if slide.from_ >= side:
            out.at(("board", "slides", i, "from"), "SR505",
                   f"{'jump start' if jump else 'slide triangle'} at offset {slide.from_} is off the side (offsets 0.."
                   f"{side - 1})",
                   also=(("board", "side_length"),))
        if slide.to <= slide.from_:
            back = f" (a jump back by n squares goes on round the track: `to: {slide.from_ + lap} - n`)" if jump else ""
            word = "jump" if jump else "slide"
            out.at(("board", "slides", i, "to"), "SR505", f"{word} from {slide.from_} to {slide.to}: a {word} must go "
                   f"forward{back}")
        elif jump and slide.to - slide.from_ >= lap:
            out.at(("board", "slides", i, "to"), "SR505", f"jump from {slide.from_} to {slide.to} is a lap or longer "
                   f"(the track has {lap} squares)", also=(("board", "side_length"), ("colours",)))
        elif not jump and slide.to - slide.from_ >= side:
            out.at(("board", "slides", i, "to"), "SR505", f"slide from {slide.from_} to {slide.to} is longer than a side"
                   " (a jump over the squares between is `sweep: end`)", also=(("board", "side_length"),))
        elif not jump and slide.to % side in triangles:
            out.at(("board", "slides", i, "to"), "SR505",
                   f"slide from {slide.from_} ends on the triangle of another slide (offset {slide.to % side})")
        if slide.from_ in [s.from_ for s in board.slides[:i]]:
            out.at(("board", "slides", i, "from"), "SR505", f"two slides start at offset {slide.from_}")


def _slips(name: str, unmatched: list, others) -> list:
    """The names `name` may be a slip for: those of the other kind without a match (a deck card
    without an effect for an effect without a card, and back), and any differing only in case;
    '2' is no slip for '12', which an overlay took out of the deck."""
    return unmatched + [n for n in others if n != name and n.casefold() == name.casefold()]


def _check_cards(v, out: ProblemCollector) -> None:
    """Every card in the deck has an effect (SR503); every effect is for a card of the deck
    (SR504) unless `unused_effects` keeps it on purpose; `unused_effects` names effects (SR502)."""
    kept = set(v.unused_effects)
    effectless, cardless = [n for n in v.deck if n not in v.cards], [n for n in v.cards if n not in v.deck]
    for name in effectless:
        listed = "is in the deck" if v.deck[name] else "is listed under deck: (0 copies)"
        out.at(("deck", name), "SR503", f"card '{name}' {listed} but cards: gives it no effect"
               f"{did_you_mean(name, _slips(name, cardless, v.cards))}", key=True, also=(("cards", name),))
    for name in cardless:
        if name not in kept:
            out.at(("cards", name), "SR504", f"card '{name}' has an effect but no deck holds it"
                   f"{did_you_mean(name, _slips(name, effectless, v.deck))} (remove the effect, in an overlay with "
                   f"'{name}': null under cards:, or list it under unused_effects: to keep it without cards)", key=True,
                   also=(("deck", name),))
    for i, name in enumerate(v.unused_effects):
        if name not in v.cards:
            out.at(("unused_effects", i), "SR502", f"unused_effects: cards: gives card '{name}' no effect"
                   f"{did_you_mean(name, list(v.cards))} (cards: {', '.join(v.cards)})")


def _check_setup(v, out: ProblemCollector) -> None:
    """`setup.squares` on a race track: each on the colour's side or in its zone (SR505),
    no more pawns than a colour has, nor on a square than it holds (SR508)."""
    b, squares = v.board, v.setup.squares
    if getattr(b, "kind", "track") != "track" or not squares:
        return
    held: dict = {}  # square (an offset, or a word) -> pawns begun there
    if v.setup.on_start_exit:
        held[b.start_exit] = v.setup.on_start_exit
    for i, item in enumerate(squares):
        key = b.start_exit if item == "start_exit" else item
        if isinstance(item, int) and item >= b.side_length:
            out.at(("setup", "squares", i), "SR505", f"setup.squares: offset {item} is off the side (offsets "
                   f"0..{b.side_length - 1})", also=(("board", "side_length"),))
        elif isinstance(item, str) and item.startswith("safety:") and int(item[7:]) > b.safety_length:
            out.at(("setup", "squares", i), "SR505", f"setup.squares: {item} is beyond the safety zone of {b.safety_length} "
                   "squares", also=(("board", "safety_length"),))
        held[key] = held.get(key, 0) + 1
        if item != "home" and held[key] > b.hold:
            out.at(("setup", "squares", i), "SR508", f"setup.squares: {item} is given {held[key]} pawns, but a square holds "
                   f"{plural(b.hold, 'pawn')} (board.hold)")
    if v.setup.on_start_exit + len(squares) > v.pawns:
        out.at(("setup", "squares"), "SR508", f"setup: {v.setup.on_start_exit + len(squares)} pawns begin outside Start, "
               f"but a colour has {plural(v.pawns, 'pawn')}", also=(("pawns",),))


def _check_deck_size(v, out: ProblemCollector) -> None:
    if v.setup.on_start_exit > min(1, v.pawns):
        out.at(("setup", "on_start_exit"), "SR508", "setup.on_start_exit: at most 1 pawn fits on the start exit")
    total = sum(v.deck.values())
    if total == 0 and getattr(getattr(v, "turn", None), "source", "draw") != "dice":
        out.at(("deck",), "SR508", "the deck has no cards", also=tuple(("deck", name) for name in v.deck))
    players, hand_size = largest_deal(v)  # the largest deal of any player count, hand_size_by_players included
    if hand_size and hand_size * players > total:
        by_players = getattr(v.turn, "hand_size_by_players", None) or {}
        where = ("turn", "hand_size_by_players", str(players)) if str(players) in by_players else ("turn", "hand_size")
        out.at(where, "SR508",
               f"{players} hands of {hand_size} need {hand_size * players} cards; the deck has {total}")
