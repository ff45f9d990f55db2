"""The replay page in a real browser: headless Chromium (Debian's `chromium`, installed by
.ci/run) driven by Playwright. The tests write a saved game's page with `sorry-play replay
--html`, step through it with the keys, the buttons, the box and the address, and check at
several moves that the pawns drawn (colour, square, name) are the engine's after that move,
that the moved pawn is ringed at the end of its path, that the result shows at the last move
only, that Play follows the chosen speed, and that the console has no error.

`SORRY_RULES_CHROMIUM` names another Chromium binary (default /usr/bin/chromium)."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import sync_playwright

from sorry_rules.cli.app import main
from sorry_rules.pictures.paths import move_paths
from sorry_rules.pictures.trackboard import labels_of
from sorry_rules.records.files import read_record
from sorry_rules.records.pawnnames import PawnNames
from sorry_rules.records.restore import restore, start_state

CHROMIUM = os.environ.get("SORRY_RULES_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: apt-get install chromium (.ci/run does)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


class Replay:
    """A saved game, its replay page, and what the engine says of each move."""

    def __init__(self, folder: Path, args: tuple):
        save, html = folder / "game.json", folder / "game.html"
        played = CliRunner().invoke(main, [*args, "--auto", "--save", str(save)])
        assert played.exit_code == 0, played.output
        written = CliRunner().invoke(main, ["replay", str(save), "--html", str(html)])
        assert written.exit_code == 0, written.output
        self.url = html.as_uri()
        record = read_record(save)
        self.moves: list = []
        self.game, self.final = restore(record, on_turn=lambda turn, after: self.moves.append((turn, after)))
        self.start = start_state(self.game, record)

    def expected(self, n: int) -> tuple:
        """(pawns on the board as {(colour, square, name)}, pawns in Start and Home counted
        as {(colour, square): n}, the squares where move n's pawns stopped) after move n."""
        game = self.game
        names = PawnNames.start(game, self.start.placement, labels_of(game.colours))
        for turn, after in self.moves[:n]:
            names = names.after(turn.move, after.placement, after.marks)
        board, piles = set(), Counter()
        for c, squares in enumerate(names.where):
            for i, sq in enumerate(squares):
                if sq < game.layout.X:
                    board.add((game.colours[c], sq, names.name(c, i)))
                else:
                    piles[(game.colours[c], sq)] += 1
        stops = {squares[-1] for _, squares in move_paths(game, self.moves[n - 1][0].move)} if n else set()
        return board, piles, stops


def drawn(page) -> tuple:
    """What the page draws now: as `Replay.expected` (both kinds of circle read in one call)."""
    pawns, moved = page.evaluate("() => [Array.from(document.querySelectorAll('#pieces circle.pawn'),"
                                 " e => [e.dataset.colour, +e.dataset.square, e.dataset.name || '']),"
                                 " Array.from(document.querySelectorAll('#pieces circle.moved'), e => +e.dataset.square)]")
    board = {(c, sq, name) for c, sq, name in pawns if name}
    piles = Counter((c, sq) for c, sq, name in pawns if not name)
    return board, piles, set(moved)


def watch(page) -> list:
    errors: list = []
    page.on("console", lambda message: errors.append(message.text) if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


@pytest.fixture(scope="module")
def standard(tmp_path_factory):
    return Replay(tmp_path_factory.mktemp("standard"), ("--seed", "7", "--players", "3", "--bot", "greedy"))


def test_stepping_through_a_saved_game_draws_the_engines_pawns(browser, standard):
    page = browser.new_page()
    errors = watch(page)
    page.goto(standard.url)
    last = len(standard.moves)
    assert drawn(page) == standard.expected(0)
    assert "wins" not in page.inner_text(".meta") and page.inner_text("#end") == ""
    page.keyboard.press("ArrowRight")                       # a key
    assert page.inner_text("#where") == f"Move 1 of {last}" and drawn(page) == standard.expected(1)
    page.click("#next")                                      # a button
    assert drawn(page) == standard.expected(2)
    page.fill("#goto", "60")                                 # the box
    page.press("#goto", "Enter")
    assert page.inner_text("#where") == f"Move 60 of {last}" and drawn(page) == standard.expected(60)
    assert page.evaluate("location.hash") == "#move=60"
    page.click("#prev")
    assert drawn(page) == standard.expected(59)
    page.keyboard.press("g")                                 # G: to the box
    page.keyboard.type(str(last - 1))
    page.keyboard.press("Enter")
    assert drawn(page) == standard.expected(last - 1) and page.inner_text("#end") == ""
    page.keyboard.press("End")
    assert drawn(page) == standard.expected(last)
    assert re.fullmatch(r"\w+ wins after \d+ moves\.", page.inner_text("#end"))
    page.click("#first")
    assert drawn(page) == standard.expected(0) and page.inner_text("#end") == ""
    assert not errors, errors


def test_a_link_opens_the_page_at_its_move_with_the_path_of_that_move(browser, standard):
    page = browser.new_page()
    errors = watch(page)
    ends = len(standard.moves) - 3
    for n in (25, ends):
        page.goto(f"{standard.url}#move={n}")
        assert page.inner_text("#where") == f"Move {n} of {len(standard.moves)}"
        assert drawn(page) == standard.expected(n)
        paths = move_paths(standard.game, standard.moves[n - 1][0].move)
        assert page.locator("#pieces polyline.path").count() == len(paths)
    assert page.get_attribute("#here", "href") == f"#move={ends}"
    # a screen reader is told each move as the page steps (the move's words live in a polite region)
    assert page.locator("[aria-live=polite] #move").count() == 1
    assert not errors, errors


def test_the_buttons_are_drawn_and_play_follows_the_speed(browser, standard):
    """Play steps by the page's timer (`setInterval` at the chosen speed): the page runs on
    Playwright's clock, moved on by hand, so the 1.5 s of playing and pausing take no waiting."""
    page = browser.new_page()
    errors = watch(page)
    page.clock.install()
    page.goto(standard.url)
    for key, word in (("first", "First"), ("prev", "Back"), ("play", "Play"), ("next", "Next"), ("last", "Last")):
        button = page.locator(f"#{key}")
        assert button.locator("svg.icon path").count() == 1 and button.inner_text().strip() == word
    body = page.inner_text("body")
    assert not re.search("[\u2190-\u21ff\u2300-\u23ff\u25a0-\u25ff]", body), "a control is a font glyph"
    page.select_option("#speed", "100")                      # 10 moves a second
    page.click("#play")
    assert page.inner_text("#play").strip() == "Pause"
    page.clock.run_for(1200)
    page.click("#play")
    reached = int(page.inner_text("#where").split()[1])
    assert 5 <= reached <= 30, reached                       # 12 moves in 1.2 s of the page's clock
    assert page.inner_text("#play").strip() == "Play"
    page.clock.run_for(300)
    assert int(page.inner_text("#where").split()[1]) == reached, "Pause stops"
    assert drawn(page) == standard.expected(reached)
    assert not errors, errors


def test_a_grid_game_page_draws_the_chips_of_every_move_checked(browser, tmp_path):
    replay = Replay(tmp_path, ("--variant", "grid/mini-grid.yaml", "--seed", "2", "--players", "3"))
    page = browser.new_page()
    errors = watch(page)
    page.goto(replay.url)
    game = replay.game
    for n in (0, 5, len(replay.moves) // 2, len(replay.moves)):
        page.goto(f"{replay.url}#move={n}")
        page.reload()
        state = replay.moves[n - 1][1] if n else replay.start
        chips = page.eval_on_selector_all("#pieces circle.chip", "els => els.map(e => [e.dataset.colour, +e.dataset.square])")
        assert sorted(map(tuple, chips)) == sorted((game.colours[c], cell) for c, cells in enumerate(state.placement) for cell in cells)
    assert page.inner_text("#end") != ""
    assert not errors, errors


def test_a_race_game_page_draws_several_pawns_on_a_square_apart(browser, tmp_path):
    """Ludo: at every move where a square holds several pawns, the page draws each of them
    (colour, square, name as the engine has them), at distinct spots."""
    replay = Replay(tmp_path, ("--variant", "ludo", "--seed", "5", "--players", "4"))
    layout = replay.game.layout
    crowded = [n for n, (_, after) in enumerate(replay.moves, 1)
               if max(Counter(sq for squares in after.placement for sq in squares if sq < layout.X).values(),
                      default=0) > 1]
    assert crowded, "no square held several pawns in this game"
    page = browser.new_page()
    errors = watch(page)
    for n in crowded[:3] + crowded[-1:]:
        page.goto(f"{replay.url}#move={n}")
        page.reload()
        assert drawn(page) == replay.expected(n)
        spots = page.eval_on_selector_all("#pieces circle.pawn[data-name]:not([data-name=''])",
                                          "els => els.map(e => [+e.dataset.square, e.getAttribute('cx'), e.getAttribute('cy')])")
        on = Counter(sq for sq, _, _ in spots)
        assert max(on.values()) > 1
        assert len({(x, y) for _, x, y in spots}) == len(spots), "pawns drawn on top of each other"
    assert not errors, errors
