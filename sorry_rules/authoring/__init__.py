"""Tools for rule-file authors: validate, analyses, explain, why, the moves oracle.
"""
