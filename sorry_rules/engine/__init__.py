"""The engine: the compiled game (plain data and closures), immutable states, legal moves,
applying moves, drawing, the outcome. No I/O, no printing, no pydantic.

Its modules, and the one function behind each mechanism: docs/ARCHITECTURE.md.
"""
