"""Every bound sorry-rules puts on its inputs and on play, in one place (docs/LIMITS.md).

Contract: each constant here is the only definition of its number; the modules that enforce
a bound import it from here (some under a shorter local name, e.g. `yamlsafe.MAX_BYTES`).
docs/LIMITS.md has one row per constant with its value, where it is enforced and the error
it gives; `tests/test_limits.py` checks the table against this module and checks that no
other module writes a limit of its own.
"""

from __future__ import annotations

# ---- rule files: YAML (rules.yamlsafe) -------------------------------------------------------
#: Bytes of one rule file (at most this many + 1 are read).
MAX_YAML_BYTES = 1_048_576
#: Nesting of YAML lists and mappings.
MAX_YAML_DEPTH = 64
#: YAML nodes (scalars, lists, mappings) in one file.
MAX_YAML_NODES = 200_000
#: Characters of one YAML scalar.
MAX_SCALAR_CHARS = 65_536

# ---- rule files: overlays and the model (rules.loader, rules.model) -------------------------
#: Files in one `extends:` chain.
MAX_EXTENDS_DEPTH = 16
#: Colours (and so players) of one variant.
MAX_COLOURS = 12
#: Pawns per colour.
MAX_PAWNS = 12
#: Squares of one board side.
MAX_SIDE = 200
#: Squares of a safety zone.
MAX_SAFETY = 50
#: Copies of one card in the deck.
MAX_CARD_COPIES = 1000
#: Different cards of one variant.
MAX_CARD_KINDS = 64
#: Cards in a hand.
MAX_HAND = 20
#: Rows or columns of a grid board (and cells of one of its lines).
MAX_GRID_SIDE = 26
#: Cards drawn at once in draw play (`turn.take`).
MAX_TAKE = 10
#: Extra cards one turn may take by discarding a card that cannot move (`turn.redraw.at_most`).
MAX_REDRAWS = 20
#: Extra cards a position file may say are still due this turn (`cards_due`: `after:` draw_again).
MAX_CARDS_DUE = 100
#: Other cards a hand action plays with its card (`turn.actions.*.others.max`).
MAX_ACTION_OTHERS = 4
#: Dice thrown together (`turn.dice`).
MAX_DICE = 3
#: Faces of one die (`turn.faces`).
MAX_FACES = 12
#: The number on one face of a die.
MAX_FACE = 100
#: How often one face comes up against the others (`turn.weights`).
MAX_WEIGHT = 1000
#: Ordered outcomes of the dice thrown together, each as likely as the next: the faces' weights
#: added up, to the power of the dice (`turn.weights`; 12 x 12 x 12 without weights).
MAX_OUTCOMES = 4096
#: Pawns one square may hold (`board.hold`, `board.squares.*.hold`).
MAX_HOLD = 144

#: The largest value (and, negated, the lowest) a counter may hold; a counter's `min`/`max`
#: (`counters:`) default to these and may only narrow them.
MAX_COUNTER = 1_000_000

# ---- the DSL (dsl.parser) and compiled programs (compiler.programs) --------------------------
#: Characters of one DSL text.
MAX_DSL_TEXT = 4000
#: Depth of one DSL text's syntax tree.
MAX_DSL_NESTING = 40
#: Any number written in a DSL text.
MAX_DSL_NUMBER = 1_000_000
#: Estimated work of one evaluation of a card effect, condition or formula.
MAX_WORK = 1_000_000
#: Estimated work of a move with the `after:` `then:` effects that may follow it, all of them
#: together (each after every way of the move and of the effects before it); they rarely all
#: fire on one move (Parcheesi's six bonuses: about 2,200,000 for its costliest throw).
MAX_FOLLOW_WORK = 5_000_000
#: Movement-table entries of one variant, all tables together.
MAX_TABLE_CELLS = 4_000_000
#: Geometry turns with a `when:` condition: each doubles the route tables a move may use.
MAX_CONDITIONAL_TURNS = 3

# ---- play (players.runner) -------------------------------------------------------------------
#: Moves a game plays before it is stopped unfinished (`--max-plies`'s default).
DEFAULT_MAX_PLIES = 20_000

# ---- files about games (records) -------------------------------------------------------------
#: Bytes of a position file for `sorry-play moves`.
MAX_POSITION_BYTES = 1_000_000
#: Bytes of a game record (saved game or game log).
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: Choices (moves) in one game record; also the largest `--max-plies`.
MAX_CHOICES = 1_000_000
#: Default save files of one variant, house rules and seed (NAME-SEED.json, NAME-SEED-2.json, ...).
MAX_SAVES_SAME_NAME = 1000
#: Saved games `sorry-play games` reads from one folder (the newest).
MAX_SAVES_LISTED = 500
#: Nesting of JSON lists and objects in a position file, game record or results file.
MAX_JSON_DEPTH = 64
#: Digits of one number in a position file, game record or results file.
MAX_JSON_DIGITS = 40
#: Bytes of a results file of `simulate`/`compare` (`--from`, `--continue`).
MAX_RESULTS_BYTES = 512 * 1024 * 1024
#: Games per side of one `simulate`/`compare` run (`--games`) and of a results file.
MAX_GAMES = 1_000_000
#: Processes one simulation may start (`--jobs`): each is a whole Python with the game compiled.
MAX_JOBS = 256
#: Seconds a computer player may be given to think about one move (`--think`).
MAX_THINK_SECONDS = 600
