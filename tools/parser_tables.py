#!/usr/bin/env python3
"""Write the DSL parser's LALR tables bundled with the package (grammar/sorry-tables.json).

    python tools/parser_tables.py           # rewrite the file for the installed lark
    python tools/parser_tables.py --check   # exit 1 (and say why) when its key does not match

A first run, or one without a cache folder, loads the parser from this file instead of
building the tables from the grammar (`sorry_rules.dsl.parsercache`); its key names the
grammar text, the parser's lark options and the lark version, so after an edit of the grammar
or with another lark it is not used (the tables are built, as before) until it is written
again. The file is JSON data: lark's own serialization of the parser, checksummed.
"""

from __future__ import annotations

import argparse
import json
import sys

from sorry_rules.base.resources import data_dir, grammar_text
from sorry_rules.dsl import parsercache
from sorry_rules.dsl.larkparse import PARSER_OPTIONS


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file's key matches")
    args = parser.parse_args(argv)
    path = data_dir("grammar") / parsercache.BUNDLED
    key = parsercache.bundled_key(grammar_text(), PARSER_OPTIONS)
    if args.check:
        try:
            found = json.loads(path.read_text(encoding="utf-8")).get("key")
        except (OSError, ValueError):
            found = None
        if found != key:
            print(f"{path}: out of date for this grammar and lark (run python tools/parser_tables.py)", file=sys.stderr)
            return 1
        return 0
    path.write_text(parsercache.bundle(grammar_text(), **PARSER_OPTIONS), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
