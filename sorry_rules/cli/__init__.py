"""The command line and the terminal front end (`sorry-play`).
"""
