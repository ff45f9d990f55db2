"""sorry-rules: a declarative rules interpreter for Sorry!-style board games.

Data flows one way: rule files (`variants/*.yaml`) -> `Variant` (pydantic) -> compiled
`Game` -> engine (`State`, `legal_moves`, `apply`) -> front ends (`sorry-play`).
"""

__version__ = "0.1.0"
