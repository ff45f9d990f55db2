"""The compiler: a loaded variant (rules layer) and its DSL texts (DSL layer) -> the engine's `Game`.
"""

from sorry_rules.compiler.build import compile_variant, load_game  # noqa: F401  (the layer's entry points)
