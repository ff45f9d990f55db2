"""Rule files: hardened YAML loading, the pydantic models of a variant, `extends:` overlays, the JSON Schema.

Pure data and validation; no game logic.
"""
