"""The patterns of the texts of rule files (read by the models and, without pydantic, by the
loader's messages)."""

#: A name (a colour, a card): ASCII letters, digits and `_`, then also space, `!`, `'`, `.`
#: and `-`, not ending in a space (docs/REFERENCE.md, section 1).
NAME_PATTERN = r"^[A-Za-z0-9_](?:[A-Za-z0-9_!'.\- ]*[A-Za-z0-9_!'.\-])?$"
