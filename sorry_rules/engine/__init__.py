"""The engine: the compiled game (plain data and closures), immutable states, legal moves,
applying moves, drawing, the outcome. No I/O, no printing, no pydantic.
"""
