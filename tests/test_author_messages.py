"""Rule-file problems said in an author's terms: a YAML syntax error names the cause
(indentation, a tab, a value holding ': ', an unclosed quote or bracket) with the parser's
words kept after it; a value of the wrong kind says what to write (`true`/`false`, a whole
number); a DSL syntax error lists only the words that can come there (no effect words such
as `then` inside a condition); `explain` and `moves --why` show each option with balanced
brackets."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sorry_rules.cli.app import main


def validate(tmp_path, text: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    return result.stdout


@pytest.mark.parametrize("text, said", [
    ("extends: standard\nrules:\n  must_bump: true\n    bump: [opponent]\n",
     "house.yaml:4:9: error: line 4 is indented deeper (4 spaces) than line 3 above it (2), whose value is already "
     "given: indent it like the key it belongs with (YAML: mapping values are not allowed in this context) [SR103]"),
    ("extends: standard\nrules:\n    must_bump: true\n  bump: [opponent]\n",
     "house.yaml:4:3: error: line 4 is indented 2 spaces, like no key or list item above it (the keys above are "
     "indented 0, 4): the keys of one mapping start in the same column"),
    ("extends: standard\nrules:\n\tmust_bump: true\n",
     "house.yaml:3:1: error: line 3 is indented with a tab: YAML indents with spaces only"),
    ("extends: standard\ndescription: quick: two pawns\n",
     "error: the value of 'description' contains ': ', which YAML reads as a new key: put the whole value in quotes"),
    ('extends: standard\ndescription: "quick\n',
     "error: a quoted value opened on line 2 is not closed: add the closing quote"),
    ("extends: standard\nrules\n  must_bump: true\n",
     "error: line 2 ('rules'): a key needs ':' after its name"),
    ('extends: standard\ncards:\n  - "7"\n  "3": forward 3\n',
     "house.yaml:4:3: error: line 4 is a key in a block whose lines above are list items ('- ...') (line 3): a block is a "
     "list or a mapping, not both"),
    ("extends: standard\nrules:\n  must_bump: true\n  # a comment\n\n  - x\n",
     "house.yaml:6:3: error: line 6 is a list item ('- ...') in a block whose lines above are keys (line 3): a block is a "
     "list or a mapping, not both"),
])
def test_yaml_syntax_errors_name_the_cause(tmp_path, text, said):
    out = validate(tmp_path, text)
    assert said in out and "[SR103]" in out


@pytest.mark.parametrize("text, said", [
    ("extends: standard\nrules:\n  must_bump: yes\n", "rules.must_bump: Input should be a valid boolean "
                                                      "(write true or false, not 'yes') [SR203]"),
    ('extends: standard\nrules:\n  must_bump: "true"\n', "(write true without quotes) [SR203]"),
    ("extends: standard\ndeck: 7\n", "deck: write a mapping (name: value), not a number [SR203]"),
    ("extends: standard\npawns: three\n", "pawns: Input should be a valid integer (write a whole number, e.g. 3, "
                                          "not 'three') [SR203]"),
    ("extends: standard\npawns: true\n", "(write a whole number, e.g. 3, not true) [SR203]"),  # as YAML spells it
    ("extends: standard\nturn: {first: first-seat}\n",  # REFERENCE 6: a close name gets "did you mean"
     "turn.first: Input should be 'random' or 'first_seat'; did you mean 'first_seat'? [SR204]"),
    ("extends: standard\nrules: {slide_sweep: bumpabel}\n", "did you mean 'bumpable'? [SR204]"),
    ("extends: standard\ngeometry:\n  turns:\n    t1: {at: start_exitt, moving: backward, onto: safety}\n",
     "not 'start_exitt'; did you mean 'start_exit'? [SR204]"),  # a word or a number: the close word all the same
    ("extends: standard\nboard:\n  squares:\n    s: {at: [3], capture: ture}\n",
     "write true or false, or a list, not 'ture'; did you mean 'true'? [SR204]"),
    ("extends: standard\nafter:\n  a: {when: true, draw_again: true}\n",
     'after.a.when: Input should be a valid string (write "true" in quotes: a rule text, which YAML reads as true or '
     'false unquoted) [SR203]'),
    ("extends: standard\nscoring:\n  x: {kind: formula, for: every, points: 1}\n",
     'scoring.x.points: Input should be a valid string (write "1" in quotes: a rule text, not a number) [SR203]'),
])
def test_a_value_of_the_wrong_kind_says_what_to_write(tmp_path, text, said):
    assert said in validate(tmp_path, text)


def test_a_condition_is_offered_condition_words_only(tmp_path):
    out = validate(tmp_path, 'extends: standard\nwin: "lands(opponent in start_exit)"\n')
    assert "unexpected 'in'; expected one of '(', ')', '*', '+' or '-', 'and', 'or', a comparison [SR301]" in out
    assert "then" not in out and "'|'" not in out


@pytest.mark.parametrize("text, said, absent", [
    # a condition outside card effects may not ask `can(...)` (SR304), so it is never offered one
    ('extends: standard\nwin: "count(pawns in home) =="\n',
     "unexpected end of text; expected one of '(', '-', 'count', 'false', 'max', 'min', 'sum', 'true', a name, a "
     "number [SR301]", "'can'"),
    ('extends: ludo/capture-to-enter.yaml\ngeometry:\n  turns:\n    no_home_column_yet: {when: "captures(player) = 0"}\n',
     "unexpected character '='; compare with '==' [SR301]", "'can'"),
    # a guard inside a card effect may
    ('extends: standard\ncards:\n  "1": "enter if"\n', "'can'", None),
])
def test_a_condition_is_offered_the_words_its_place_allows(tmp_path, text, said, absent):
    out = validate(tmp_path, text)
    assert said in out
    assert absent is None or absent not in out


BRACKETED = 'extends: standard\ncards:\n  "1": "enter | (forward 1 if can(enter))"\n'


def test_explain_and_why_show_an_option_with_balanced_brackets(tmp_path):
    rules = tmp_path / "bracket.yaml"
    rules.write_text(BRACKETED, encoding="utf-8")
    explained = CliRunner().invoke(main, ["explain", "--variant", str(rules), "--card", "1"])
    assert explained.exit_code == 0, explained.output
    assert "option 2: forward 1 if can(enter)  (" in explained.output
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"players": ["red", "blue"], "turn": "red", "card": "1",
                                    "pawns": {"red": ["start", "track:10"]}}), encoding="utf-8")
    why = CliRunner().invoke(main, ["moves", "--variant", str(rules), "--state", str(position), "--why"])
    assert why.exit_code == 0, why.output
    assert "from card 1, option 2: forward 1 if can(enter)  (" in why.output


def test_a_value_where_a_mapping_of_fields_belongs_says_what_to_write(tmp_path):
    """`players: [2, 4]` (a list where `{min: 2, max: 4}` belongs) names no internal model."""
    from sorry_rules.authoring.validate import validate_file

    path = tmp_path / "list.yaml"
    path.write_text("extends: standard\nplayers: [2, 4]\n")
    (problem,) = validate_file(path)
    assert problem.message == "players: write a mapping of its fields (name: value), not a list"
    assert (problem.line, problem.col, problem.code) == (2, 10, "SR203")


@pytest.mark.parametrize("text, said", [
    ("filters:\n  x: {prefer: slides(teams) > 0}\n",
     "unknown group 'teams'; known: player, team, partners, opponents, players; did you mean 'team'?"),
    ('filters:\n  x: {prefer: "count(pawns moved in teams) > 0"}\n',
     "unknown zone or square 'teams'; known: start, home, track, safety, start_exit, safety_entry"),
    ('cards:\n  "1": "forward 1 any in own teams"\n', "unknown square 'teams'; known: start_exit, safety_entry"),
])
def test_an_unknown_name_lists_only_what_may_be_written_there(tmp_path, text, said):
    """A filter's group lists the five groups (REFERENCE 2.2), never the compiler's own
    marker of the move judged; `in NAME` lists the zones beside the named squares (2.4), and
    `in own NAME` the squares alone."""
    assert said in validate(tmp_path, "extends: standard\n" + text)


@pytest.mark.parametrize("key, said", [
    ("x" * 1100, "a key of 1,102 characters is longer than YAML allows (a key on one line holds at most 1,024"),
    ("x" * 70_000, "text of 70000 characters is too long"),
])
def test_a_key_too_long_for_yaml_is_said_so_once(tmp_path, key, said):
    """YAML reads a key on one line of at most 1,024 characters: a longer one is said to be
    too long, not "a '{' opened ... is not closed" after it (the bracket is closed)."""
    output = validate(tmp_path, f'extends: standard\ndeck: {{"{key}": 1}}\n')
    assert said in output and "not closed" not in output and output.count("error:") == 1, output
