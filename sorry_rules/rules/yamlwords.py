"""YAML syntax errors in a rule-file author's words: indentation, tabs, quotes, brackets.

The YAML parser says what its grammar could not do ("mapping values are not allowed in this
context", "found character that cannot start any token"); an author needs to know what to
change in the file. `author_message` looks at the lines round the error and names the usual
cause in those terms, keeping the parser's own words after it in brackets.

Contract: `author_message(problem, context, line0, col0, lines, context_line0)` is a pure
function of the parser's message, the 0-based place of the error (and of its context, or
None) and the file's lines (a callable `lines(i)` giving line i without its line break, ""
past the end); it always returns a message (the parser's words alone when no cause is known).
"""

from __future__ import annotations


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _previous(lines, line0: int) -> tuple[int, str] | None:
    """The nearest line above `line0` that holds something other than a comment."""
    for i in range(line0 - 1, -1, -1):
        text = lines(i)
        if text.strip() and not text.lstrip().startswith("#"):
            return i, text
    return None


def _tab(lines, line0: int, col0: int) -> str | None:
    text = lines(line0)
    lead = text[: len(text) - len(text.lstrip(" \t"))]
    if "\t" in lead or text[col0:col0 + 1] == "\t":
        return (f"line {line0 + 1} is indented with a tab: YAML indents with spaces only "
                "(replace the tab with spaces, the same number as the lines beside it)")
    return None


#: characters a plain YAML value may not start with, and what each starts instead
_RESERVED = {"@": "may not begin a value", "`": "may not begin a value", "|": "begins a block of text on the lines below",
             ">": "begins a folded block of text on the lines below", "%": "begins a directive",
             "&": "begins an anchor", "!": "begins a tag"}


def _reserved_start(lines, line0: int, col0: int) -> str | None:
    """A value that begins with a character YAML reserves (`"3": @sorry`, `"3": | forward 3`):
    put it in quotes."""
    text = lines(line0)
    for col in range(min(col0, len(text) - 1), -1, -1):  # the value's first character, at or before the error
        if text[col] in _RESERVED and (col == 0 or text[col - 1] in " [{,:-"):
            value = text[col:].strip()
            return f"'{text[col]}' {_RESERVED[text[col]]} in YAML: put the value in quotes, \"{value[:40]}\""
    return None


def _mapping_value(lines, line0: int, col0: int) -> str:
    text = lines(line0)
    before = text[:col0]
    if ": " in before or before.rstrip().endswith(":"):
        key = before.split(":", 1)[0].strip()
        return (f"the value of '{key}' contains ': ', which YAML reads as a new key: put the whole value in "
                f"quotes (\"...\")")
    above = _previous(lines, line0)
    if above is not None and _indent(text) > _indent(above[1]):
        return (f"line {line0 + 1} is indented deeper ({_indent(text)} spaces) than line {above[0] + 1} above it "
                f"({_indent(above[1])}), whose value is already given: indent it like the key it belongs with")
    return "a value holds ': ', which YAML reads as a new key: put the value in quotes (\"...\")"


def _item(text: str) -> bool:
    """Whether a line is a list item (`- ...`)."""
    body = text.lstrip(" ")
    return body == "-" or body.startswith("- ")


def _mixed(lines, line0: int) -> str | None:
    """A key among list items of one block, or a list item among keys: a block is one or the
    other."""
    text = lines(line0)
    here = _indent(text)
    for i in range(line0 - 1, -1, -1):
        above = lines(i)
        if not above.strip() or above.lstrip().startswith("#") or _indent(above) > here:
            continue
        if _indent(above) < here or _item(above) == _item(text):
            return None
        kinds = ("a list item ('- ...')", "keys") if _item(text) else ("a key", "list items ('- ...')")
        return (f"line {line0 + 1} is {kinds[0]} in a block whose lines above are {kinds[1]} (line {i + 1}): a block is "
                "a list or a mapping, not both")
    return None


def _stray_indent(lines, line0: int, col0: int) -> str:
    mixed = _mixed(lines, line0)
    if mixed is not None:
        return mixed
    text = lines(line0)
    here = _indent(text)
    columns = []
    for i in range(line0 - 1, -1, -1):
        above = lines(i)
        if above.strip() and not above.lstrip().startswith("#"):
            if _indent(above) not in columns:
                columns.append(_indent(above))
            if _indent(above) == 0:
                break
    known = ", ".join(str(n) for n in sorted(columns)) or "0"
    return (f"line {line0 + 1} is indented {here} space{'s' if here != 1 else ''}, like no key or list item above it "
            f"(the keys above are indented {known}): the keys of one mapping start in the same column")


def _unclosed(problem: str, context: str, context_line0: int | None) -> str | None:
    at = f" opened on line {context_line0 + 1}" if context_line0 is not None else ""
    if "quoted scalar" in context:
        return f"a quoted value{at} is not closed: add the closing quote"
    if "flow mapping" in context:
        return f"a '{{'{at} is not closed with '}}', or a ',' is missing between its entries"
    if "flow sequence" in context:
        return f"a '['{at} is not closed with ']', or a ',' is missing between its items"
    return None


def author_message(problem: str, context: str | None, line0: int, col0: int, lines,
                   context_line0: int | None = None) -> str:
    """The parser's message `problem` (and `context`) in an author's terms (module contract)."""
    context = context or ""
    said = problem + (f" ({context})" if context else "")
    cause = _tab(lines, line0, col0) if "tab" in problem or "cannot start any token" in problem else None
    if cause is None and ("cannot start any token" in problem or "block scalar" in context):
        cause = _reserved_start(lines, line0, col0)
    if cause is None:
        if "mapping values are not allowed" in problem:
            cause = _mapping_value(lines, line0, col0)
        elif "did not find expected key" in problem or "did not find expected '-'" in problem \
                or ("expected <block end>" in problem and _indent(lines(line0)) > 0):
            cause = _stray_indent(lines, line0, col0)
        elif "could not find expected ':'" in problem:
            at = context_line0 if context_line0 is not None else line0
            cause = (f"line {at + 1} ('{lines(at).strip()[:30]}'): a key needs ':' after its name, or a value went on "
                     "to a line of its own without being indented under its key")
        elif "end of stream" in problem or "expected ',' or" in problem:
            cause = _unclosed(problem, context, context_line0)
    return f"{cause} (YAML: {said})" if cause else said
