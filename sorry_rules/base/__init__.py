"""Foundations shared by every layer: the error types and problems, limits, where bundled data lives.
"""
