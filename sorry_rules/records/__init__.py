"""Files about games: saved games, game logs and position files, read and written safely.
"""
