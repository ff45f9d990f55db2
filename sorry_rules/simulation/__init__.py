"""Simulation: many seeded games between bots, exact tallies, statistics and reports.
"""
