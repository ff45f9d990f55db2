"""Random games with every invariant checked after every step, for the game, property and
fuzz tests. Each game is recorded (seed, seats, choices), replayed with `runner.replay`, and
(when the variant is known by name) written as a game log, read back and replayed again:
the final state must be identical every time.

A failure raises AssertionError carrying the replay recipe: variant, player count, seed and
the choices up to and including the failing move, as a game log line (the last line of the
message) that `gamelog.from_json` + `gamelog.replay_log` replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from sorry_rules.records import gamelog
from sorry_rules.players.protocol import RandomPlayer, view_of
from sorry_rules.players.runner import replay

from .invariants import check_moves, check_outcome, check_state, check_step

#: Bound on the length of a random game. The longest of 6,000 random standard games
#: (2,000 each for 2, 3 and 4 players) took 992 moves; a game still running after ten
#: times that cannot be a legitimately long game and is reported as not ending.
MAX_PLIES = 10_000


@dataclass
class Played:
    start: object
    final: object
    choices: list
    log: object = None  # gamelog.GameLog when the game's spec is known


def play_random(game, seed, players, prefix=(), *, spec=None, rules=(), check="all", max_plies=MAX_PLIES,
                must_end=True) -> Played:
    """Play one game: the first choices are `prefix[i] % len(moves)` (decisions with a
    single move take no prefix entry), the rest come from seeded RandomPlayers.

    `check`: "all" (every invariant of tests/invariants.py after every step), "state"
    (check_state only, for the long runs) or None. The game is always replayed."""
    full = check == "all"
    start = game.new_game(seed, players=players)
    bots = [RandomPlayer(seed, seat) for seat in range(players)]
    choices: list[int] = []
    state = start
    decisions = 0
    try:
        if check:
            check_state(game, state)
        while state.winner is None and state.plies < max_plies:
            if game.needs_draw(state):
                state = game.draw(state)
                if check:
                    check_state(game, state)
            moves = game.legal_moves(state)
            if full:
                check_moves(game, state, moves)
            if len(moves) == 1:
                choice = 0
            elif decisions < len(prefix):
                choice = prefix[decisions] % len(moves)
                decisions += 1
            else:
                choice = bots[state.turn].choose(view_of(game, state), moves)
            after = game.apply(state, moves[choice])
            choices.append(choice)
            if check:
                check_state(game, after)
            if full:
                check_step(game, state, moves[choice], after)
                check_outcome(game, after)
            state = after
        if must_end:
            assert state.winner is not None, f"no winner after {state.plies} moves (bound {max_plies})"
        final = replay(game, start, choices, max_plies=max_plies)
        assert final == state, "replaying the recorded choices does not reach the same final state"
        played = Played(start, state, choices)
        if spec is not None:
            log = gamelog.new_log(game, spec, rules, seed, start, choices, final=state)
            text = gamelog.to_json(log)
            back = gamelog.from_json(text)
            assert back == log, "the game log does not round-trip through JSON"
            _, again = gamelog.replay_log(back, game)
            assert again == state, "the game log does not replay to the same final state"
            played.log = log
        return played
    except Exception as error:
        recipe = _recipe(game, spec, rules, seed, players, start, choices)
        raise AssertionError(f"{type(error).__name__}: {error}\n{recipe}") from error


def _recipe(game, spec, rules, seed, players, start, choices) -> str:
    lines = [f"replay recipe: variant={spec or game.name!r} rules={list(rules)} players={players} seed={seed!r} "
             f"moves={len(choices)}", f"choices={choices}"]
    if spec is not None:
        log = gamelog.new_log(game, spec, rules, seed, start, choices)
        lines.append("game log (gamelog.from_json + gamelog.replay_log replay it):")
        lines.append(gamelog.to_json(log).strip())
    return "\n".join(lines)
