"""The names of the computer players and of the levels, with no import: the command line's
help texts read them without loading a player.

Contract: `PLAYERS` are the bots `players.registry` builds by name, `LEVELS` map each level
onto what it plays; `NAMES_HELP` says both in one phrase of help text.
"""

#: The computer players by name, in the order help texts give them.
PLAYERS = ("random", "greedy", "expert", "search")

#: The levels and what each plays.
LEVELS = {"easy": "greedy", "medium": "search with a small budget", "hard": "search"}

#: "random, greedy, expert, search, or a level: easy = greedy, ..." for help texts.
NAMES_HELP = (f"{', '.join(PLAYERS)}, or a level: "
              + ", ".join(f"{level} = {plays}" for level, plays in LEVELS.items()))
