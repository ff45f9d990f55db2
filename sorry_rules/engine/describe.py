"""Moves and positions in plain words, for front ends and the moves oracle.

Contract: pure functions of a compiled game and engine data; they never print.
"""

from __future__ import annotations

from sorry_rules.base.words import and_list, place_word
from sorry_rules.engine.events import BUMP, SLIDE, STEP_KINDS, SWITCH


def colour_name(game, c: int) -> str:
    name = game.colours[c]
    return name[:1].upper() + name[1:]


class ColourWords:
    """How `describe_events` names pawns: by colour ("Red pawn"; a pawn bumped, "Blue"). A
    front end that names pawns one by one passes an object with the same methods (e.g.
    `records.pawnnames`), told each event after it is worded (`follow`)."""

    def __init__(self, game):
        self.game = game

    def pawn(self, c: int, sq: int) -> str:
        """The pawn of colour c on `sq` that steps, switches or is marked."""
        return f"{colour_name(self.game, c)} pawn"

    def slider(self, c: int, frm: int) -> str:
        """The pawn of colour c that slides from its triangle `frm`."""
        return self.pawn(c, frm)

    def bumped(self, c: int, at: int, subject: bool) -> str:
        """The pawn of colour c bumped on `at`: after a step ("bumps Blue"), or as the subject
        of a move that only sends it back (`subject`: "sends Blue pawn ...")."""
        return self.pawn(c, at) if subject else colour_name(self.game, c)

    def follow(self, event) -> None:
        """`event` has been worded (names that follow pawns move with it)."""


def describe_events(game, events, names=None) -> str:
    """'Red pawn track:12 -> track:19, bumps Blue (track:12)' style text of resolved events;
    `names` says the pawns (default `ColourWords`)."""
    wording = _Wording(game, events, ColourWords(game) if names is None else names)
    for i, event in enumerate(events):
        kind = event[0]
        if kind in STEP_KINDS:
            wording.step(i, event)
        elif kind == "carry":
            wording.carried.append(game.marks[event[3]].label)
        elif kind == SWITCH:
            wording.switch(i, event)
        elif kind == SLIDE:
            wording.slide(event)
        elif kind == BUMP:
            wording.bump(i, event)
        elif kind in MARK_WORDS:
            wording.mark(i, event)
        wording.names.follow(event)
    return wording.text()


class _Wording:
    """The parts of `describe_events`' text as the events are read: a part per step, switch,
    pawn sent back by an effect or mark, each a list of phrases joined by commas."""

    def __init__(self, game, events, names):
        self.game, self.events, self.names, self.square = game, events, names, game.layout.name
        self.segments: list[list[str]] = []
        self.repeated: dict[int, int] = {}  # part index -> alike pawns its mark or send is made on (`every` in Start/Home)
        self.carried: list[str] = []  # labels of the marks the next pawn leaving Start or Home carries
        self.landed, self.ahead = _landing_bumps(game, events), _own_bumps(events)
        self.stays = _declined_slides(game, events)
        self.waiting: list[str] = []  # the own pawns the next step bumps, said after that step
        self.since = 0  # where, in the last part, the bumps of the next slide begin
        self.closing: dict = {}  # part index -> what ends it: a slide declined (`_declined_slides`)

    def step(self, i: int, event) -> None:
        _, c, frm, to = event
        which = f" ({', '.join(self.carried)})" if self.carried else ""
        self.carried = []
        self.segments.append([f"{self.names.pawn(c, frm)}{which} {self.square(frm)} -> {self.square(to)}", *self.waiting])
        self.since, self.waiting = 1 + len(self.waiting), []
        if i in self.stays:
            self.closing[len(self.segments) - 1] = f"does not {self.verb(to)}"

    def switch(self, i: int, event) -> None:
        _, c, a, o, b = event
        self.segments.append([f"{self.names.pawn(c, a)} {self.square(a)} <-> {self.names.pawn(o, b)} {self.square(b)}"])
        self.since = 1
        if i in self.stays:
            stays = self.stays[i]
            verbs = {self.verb(sq) for _, sq in stays}
            self.closing[len(self.segments) - 1] = f"neither {verbs.pop()}s" if len(stays) == 2 and len(verbs) == 1 else \
                " and ".join(f"{self.names.pawn(*pawn)} does not {self.verb(pawn[1])}" for pawn in stays)

    def verb(self, sq: int) -> str:
        """"jump" for the start of a jump (`board.slides.*.sweep: end`), else "slide"."""
        info = self.game.layout.slide_at[sq] if sq < self.game.layout.T else None
        return "jump" if info is not None and info.jump else "slide"

    def slide(self, event) -> None:
        _, c, frm, to = event
        mover = self.names.slider(c, frm)
        verb = self.verb(frm) + "s"
        part = _last(self.segments)
        if part and part[0].startswith(mover + " "):
            part.append(f"{verb} to {self.square(to)}")
        else:  # another pawn's slide (after a switch): said before the bumps it makes, so they read as its own
            part[self.since:self.since] = [f"{mover} {verb} to {self.square(to)}"]
        self.since = len(part)

    def bump(self, i: int, event) -> None:
        _, c, at = event
        if i in self.ahead:
            self.waiting.append(f"bumps {self.names.bumped(c, at, False)} ({self.square(at)})")
        elif i in self.landed:
            _last(self.segments).append(f"bumps {self.names.bumped(c, at, False)} ({self.square(at)})")
        else:  # sent back by an effect (`send ... to start`): said as its own part
            sent = f"sends {self.names.bumped(c, at, True)} {self.square(at)} back to start"
            if self.segments and i - 1 >= 0 and self.events[i - 1][0] == BUMP and i - 1 not in self.landed:
                self.segments[-1].append(sent)  # `send every`: the pawns it sends together
            else:
                self.segments.append([sent])

    def mark(self, i: int, event) -> None:
        if i and self.events[i - 1] == event and len(self.segments) - 1 in self.repeated:
            self.repeated[len(self.segments) - 1] += 1
        else:
            self.repeated[len(self.segments)] = 1
            self.segments.append([_mark_words(self.game, self.names.pawn(event[1], event[2]), event)])

    def text(self) -> str:
        for at, times in self.repeated.items():
            if times > 1:
                self.segments[at][0] += f" ({times} pawns)"
        for at, closing in self.closing.items():
            self.segments[at].append(closing)
        return "; then ".join(", ".join(parts) for parts in self.segments)


def _landing_bumps(game, events) -> set:
    """The indexes of the bumps in `events` that a step's landing or the slides it starts made
    (on the square the step ended on, or swept by a slide before the next step or switch);
    the others are pawns an effect sent back (`send ... to start`), the pawn that made the
    step among them (a landing's bump of a pawn of the mover's own colour comes before
    the step: `_own_bumps`)."""
    landed, to, swept, mover = set(), None, frozenset(), None
    slide_at = game.layout.slide_at
    for i, event in enumerate(events):
        kind = event[0]
        if kind in STEP_KINDS or kind == SWITCH:
            to = event[3] if kind != SWITCH else None
            mover = event[1]
            slides = [slide_at[e[2]] for e in _slides_after(events, i) if e[2] < len(slide_at) and slide_at[e[2]] is not None]
            swept = frozenset(sq for info in slides for sq in info.swept)
        elif kind == BUMP and ((event[2] == to and event[1] != mover) or event[2] in swept):
            landed.add(i)
    return landed


def _slides_after(events, i: int) -> list:
    """The slide events that follow the step or switch `events[i]`, up to the next one."""
    slides = []
    for later in events[i + 1:]:
        if later[0] in STEP_KINDS or later[0] == SWITCH:
            break
        if later[0] == SLIDE:
            slides.append(later)
    return slides


def _declined_slides(game, events) -> dict:
    """{index of a step or switch: the (colour, square) of its pawns that end on a triangle
    they take but do not slide}: slides declined under `rules.slide_optional` (empty without
    it)."""
    track = getattr(game, "mechanics", None)
    if track is None or not getattr(track, "slide_optional", False):
        return {}
    here, T, found = track.slide_here, game.layout.T, {}
    for i, event in enumerate(events):
        if event[0] in STEP_KINDS:
            ended = [(event[1], event[3])]
        elif event[0] == SWITCH:
            ended = [(event[1], event[4]), (event[3], event[2])]
        else:
            continue
        slid = {(e[1], e[2]) for e in _slides_after(events, i)}
        declined = [(c, sq) for c, sq in ended if sq < T and here[c][sq] is not None and (c, sq) not in slid]
        if declined:
            found[i] = declined
    return found


def _own_bumps(events) -> set:
    """The indexes of the bumps of the mover's own pawns by its landing (`rules.bump` own),
    which come before the step that lands on them (`Track.landing`): bumps followed by a step
    of their colour onto their square."""
    ahead, run = set(), []
    for i, event in enumerate(events):
        if event[0] == BUMP:
            run.append(i)
            continue
        if event[0] in STEP_KINDS:
            ahead.update(k for k in run if events[k][1] == event[1] and events[k][2] == event[3])
        if event[0] != "carry":
            run = []
    return ahead


def _last(segments: list) -> list:
    if not segments:
        segments.append([])
    return segments[-1]


#: the words of the mark events (engine.marks) and of a pawn sent elsewhere than its Start
MARK_WORDS = {"mark": "marks", "unmark": "unmarks", "send": "sends"}


def _mark_words(game, who: str, event) -> str:
    kind, sq = event[0], event[2]
    pawn = f"{who} {game.layout.name(sq)}"
    if kind == "send":
        return f"sends {pawn} to {game.layout.name(event[3])}"
    return f"{MARK_WORDS[kind]} {pawn} {game.marks[event[3]].label}"


def describe_move(game, move) -> str:
    """A move in words, including what kind of move it is when it moves nothing."""
    if move.kind == "forfeit":
        if move.card is None:
            text = "no card to play"
        elif getattr(game, "dice", None) is not None:
            text = "no legal move: the throw is lost"
        else:
            text = "no legal move: the card is forfeited"
            if game.take > 1:
                names = [game.card_names[c] for c in (move.card, *move.cards)]
                text = f"no legal move: the cards drawn ({', '.join(names)}) are discarded"
        if move.events:  # what the consequences of a forfeit do (after: then:)
            text += "; then " + describe_events(game, move.events)
    elif move.kind == "pass":
        text = "pass (play nothing)"
    elif move.kind == "discard":
        text = f"discard {game.card_names[move.card]} (no card in the hand can move)"
    elif move.kind == "redraw":
        return describe_redraw(game, move)
    elif move.kind == "action":
        return describe_action(game, move)
    else:
        text = describe_events(game, move.events)
    if move.draw_again:
        text += again_words(game)
    return text


def again_words(game) -> str:
    """What a move that keeps the turn adds to its words: "; draws again" (cards drawn),
    "; plays again" (hand play: another card from the refilled hand, A13), "; throws again"
    (dice)."""
    if getattr(game, "dice", None) is not None:
        return "; throws again"
    return "; plays again" if game.hand_play else "; draws again"


def kept_turn_words(game, move, seat: int, after, finishes: tuple = (), lost_to: str = "", due: int = 0,
                    others: tuple = ()) -> str:
    """`again_words` when the player at `seat` takes another card after `move` though the move
    itself does not say so (an `after:` consequence's extra card: H21's bump bonus, a six or
    doubles thrown again; ' (still due this turn)' after it when the card is one an earlier
    move earned, `due` being the extra cards due before the move: `State.bonus`), `after`
    being the state the move left; played for places, the places of the seats whose side
    finished with it, `finishes` ('; Blue finishes 2nd', '; Red and Yellow finish 1st'); else
    ''. A forfeit that ends the turn begins with why, `lost_to` (`Table.emptied_by`: ' (LU13: a
    third six in a row is lost)'); a card played from several drawn together (`turn.take`)
    with the cards discarded with it, `others` ('; 5 discarded')."""
    if lost_to:
        return f" ({lost_to})" + kept_turn_words(game, move, seat, after, finishes, due=due)
    discarded = ""
    if others and move.kind == "move" and not game.hand_play:
        discarded = f"; {', '.join(game.card_names[c] for c in others)} discarded"
    if finishes:
        return discarded + "".join(finish_words(game, after, finishes))
    if move.draw_again or move.kind == "redraw" or after.winner is not None or getattr(after, "over", False) \
            or len(after.seats) < 2 or after.turn != seat:
        return discarded
    earlier = due and getattr(after, "bonus", 0) < due  # no card earned: one still due was taken
    return discarded + again_words(game) + (" (still due this turn)" if earlier else "")


def finish_words(game, after, seats) -> list:
    """'; Blue finishes 2nd' per side of the seats that just finished (`places`), partners
    together ('; Red and Yellow finish 1st'), in the order they finished."""
    places = game.places_of(after.seats, after.finished)
    by_place: dict = {}
    for seat in seats:
        by_place.setdefault(places[seat], []).append(colour_name(game, after.seats[seat]))
    return [f"; {and_list(names)} finish{'es' if len(names) == 1 else ''} {place_word(place)}"
            for place, names in by_place.items()]


def places_words(game, seats: tuple, places: tuple, order=None) -> str:
    """'1st Blue, 2nd Red, 3rd Yellow': the seats' places (`Outcome.places`, `Game.places_of`),
    in place order, or of the seats `order` names, in that order."""
    order = sorted(range(len(seats)), key=lambda seat: places[seat]) if order is None else order
    return ", ".join(f"{place_word(places[seat])} {colour_name(game, seats[seat])}" for seat in order)


def describe_redraw(game, move) -> str:
    """A `redraw` move (turn.redraw): the stuck card discarded, another card taken."""
    what = game.card_names[move.card]
    if getattr(game, "dice", None) is not None:
        return f"throw {what} moves no pawn: throw again ({move.label})"
    if game.hand_play:
        return f"discard {what} (no card in the hand can move) and play again from the refilled hand ({move.label})"
    if game.take > 1:
        what = f"the cards drawn ({', '.join(game.card_names[c] for c in (move.card, *move.cards))})"
    return f"discard {what} (no pawn can move) and draw again ({move.label})"


def describe_action(game, move) -> str:
    """An `action` move (turn.actions): a card played with other cards, all discarded, as many drawn."""
    others = ", ".join(game.card_names[c] for c in move.cards)
    played = f"{game.card_names[move.card]} with {others}" if move.cards else game.card_names[move.card]
    text = f"{move.label}: discard {played}, draw {1 + len(move.cards)}"
    return text + "; plays again" if move.draw_again else text


def seated_teams(game, seats) -> list[tuple]:
    """The teams among the seated colours, in seat order of their first member."""
    teams: list[tuple] = []
    for c in seats:
        team = tuple(o for o in game.team_of[c] if o in seats)
        if team not in teams:
            teams.append(team)
    return teams


def placement_names(game, placement, seats) -> dict:
    """{colour name: [position, ...]} for the seated colours, in a stable order."""
    return {game.colours[c]: [game.layout.name(sq) for sq in placement[c]] for c in seats}


def marks_data(game, marks) -> dict:
    """{mark name: [{"colour", "square", "by"}, ...]} of `State.marks` (every declared mark,
    an empty list when none is placed); {} for a variant without marks."""
    return {kind.name: [{"colour": game.colours[c], "square": game.layout.name(sq), "by": game.colours[by]}
                        for c, sq, by in entries]
            for kind, entries in zip(game.marks, marks or ((),) * len(game.marks))}
