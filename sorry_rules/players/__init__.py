"""Players: one protocol for people and bots, the computer players, and the loop that joins
the engine and the players.
"""
