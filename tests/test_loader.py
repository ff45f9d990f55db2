"""Rule files: overlays merge as documented; every problem is reported at file:line:col
with a stable code, all problems of a file at once."""

from __future__ import annotations

import textwrap

import pytest

from sorry_rules.compiler import compile_variant, load_game
from sorry_rules.base.errors import RuleFileError, UsageError
from click.testing import CliRunner

from sorry_rules.cli.app import main
from sorry_rules.rules.loader import load_variant, overlay_conflicts


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def problems(spec, rules=()):
    with pytest.raises(RuleFileError) as caught:
        compile_variant(load_variant(str(spec), [str(r) for r in rules]))
    return [(p.file.split("/")[-1], p.line, p.col, p.code) for p in caught.value.problems], caught.value


def test_overlay_merges_mappings_replaces_values_and_null_removes(tmp_path):
    overlay = write(tmp_path, "o.yaml", """
        extends: standard
        name: overlay
        deck: {sorry: 8}
        cards:
          sorry: sorry opponent | forward 4
        board:
          slides: [{from: 9, to: 13}]
        rules: {must_bump: true, overshoot_home: null}
    """)
    loaded = load_variant(str(overlay))
    v = loaded.variant
    assert v.name == "overlay"
    assert v.deck["sorry"] == 8 and v.deck["1"] == 5  # mapping merged key by key
    assert v.cards["sorry"] == "sorry opponent | forward 4" and v.cards["7"].startswith("forward 7")
    assert [(s.from_, s.to) for s in v.board.slides] == [(9, 13)]  # a list replaces
    assert v.board.side_length == 15
    assert v.rules.must_bump is True
    assert v.rules.overshoot_home == "illegal"  # null removed the key: back to the default
    assert loaded.files == (str(overlay), "standard.yaml")


def test_rule_overlays_stack_in_order_and_skip_bases_already_merged(tmp_path):
    base = write(tmp_path, "base.yaml", """
        extends: standard
        name: base
        pawns: 3
    """)
    first = write(tmp_path, "first.yaml", """
        extends: standard
        rules: {must_bump: true}
        deck: {sorry: 6}
    """)
    second = write(tmp_path, "second.yaml", """
        extends: standard
        deck: {sorry: 2}
    """)
    v = load_variant(str(base), [str(first), str(second)]).variant
    assert v.pawns == 3  # standard (first's base) was not merged again over base.yaml
    assert v.rules.must_bump is True
    assert v.deck["sorry"] == 2  # the later overlay wins


def _conflicts(rules):
    return [(p.file.split("/")[-1], p.line, p.col, p.code, p.severity, p.message)
            for p in overlay_conflicts("standard", [str(r) for r in rules])]


def test_overlays_setting_one_field_differently_are_warned_about_at_the_later_one(tmp_path):
    """REFERENCE section 3: the later overlay wins, and SR405 says so at its key, naming the
    earlier one's place and both values; a field the other overlay writes inside, or replaces
    whole, counts too. Equal values, different fields, descriptions and `also:` entries of
    other names are no conflict."""
    first = write(tmp_path, "first.yaml", """
        extends: standard
        description: first
        rules: {must_bump: true}
        deck: {sorry: 6}
        also: {a: {cards: ["1"], effect: enter}}
        geometry: {past_home: stop}
    """)
    second = write(tmp_path, "second.yaml", """
        extends: standard
        description: second
        rules: {must_bump: true}
        deck: {sorry: 2, "1": 5}
        also: {b: {cards: ["2"], effect: enter}}
        geometry: null
    """)
    assert _conflicts([first, second]) == [
        ("second.yaml", 4, 8, "SR405", "warning", f'deck.sorry is 2 here, but {first}:4:8 sets deck.sorry to 6: the '
                                                   "later --rule wins, so this one is played"),
        ("second.yaml", 6, 1, "SR405", "warning", f"geometry is null (removed) here, but {first}:6:12 sets "
                                                   'geometry.past_home to "stop": the later --rule wins, so this one is played')]
    assert [c[:4] for c in _conflicts([second, first])] == [("first.yaml", 4, 8, "SR405"), ("first.yaml", 6, 12, "SR405")]
    assert _conflicts([first, first]) == [] and _conflicts([first]) == []
    v = load_variant("standard", [str(first), str(second)]).variant
    assert v.deck["sorry"] == 2 and v.geometry.past_home != "stop"  # what the warnings say is played


def test_an_overlay_built_on_another_changes_it_without_a_warning(tmp_path):
    mine = write(tmp_path, "mine.yaml", """
        extends: house/split-7-any.yaml
        cards: {"7": forward 7 | backward 7}
    """)
    assert _conflicts(["house/split-7-any.yaml", mine]) == []
    assert [c[:4] for c in _conflicts([mine, "house/split-7-any.yaml"])] == [("split-7-any.yaml", 7, 3, "SR405")]


def test_every_command_that_loads_combined_overlays_says_their_conflicts_on_stderr(tmp_path):
    mine = write(tmp_path, "mine.yaml", """
        extends: standard
        cards:
          "7": forward 7
    """)
    position = write(tmp_path, "p.yaml", """
        players: [red, blue]
        card: "7"
        pawns: {red: ["track:10", "track:30"]}
    """)
    warning = (f'{mine}:3:3: warning: cards.7 is "forward 7" here, but house/split-7-any.yaml:7:3 sets cards.7 to '
               '"forward 7 | split 7 among any": the later --rule wins, so this one is played [SR405]\n')
    rules = ["--rule", "house/split-7-any.yaml", "--rule", str(mine)]
    for args in (["moves", *rules, "--state", str(position)], ["explain", *rules], [*rules, "--auto", "--seed", "1"],
                 ["compare", "standard", "standard", *rules, "--games", "2", "--jobs", "1"]):  # compare: once, not per side
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert result.stderr == warning, args
    listed = {tuple(r): CliRunner().invoke(main, ["moves", *r, "--state", str(position)]).stdout
              for r in (rules, ["--rule", str(mine)], ["--rule", "house/split-7-any.yaml"])}
    assert listed[tuple(rules)] == listed[("--rule", str(mine))] != listed[("--rule", "house/split-7-any.yaml")]
    quiet = CliRunner().invoke(main, ["moves", "--rule", str(mine), "--rule", "house/must-bump.yaml", "--state", str(position)])
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_a_rule_overlay_brings_only_its_own_changes_onto_any_variant(tmp_path):
    """An overlay used with --rule carries its own fields and those of the overlays it extends,
    never the game it extends: a house rule written over standard keeps Ludo's dice and board,
    or a variant of the author's own, and one written over points (a hand) does not turn
    standard into points (SR513 at the overlay's own line)."""
    ludo = load_variant("ludo", ["house/quick-game.yaml"])
    plain = load_variant("ludo")
    quick = load_variant("standard", ["house/quick-game.yaml"])
    assert ludo.variant.name == "ludo" and ludo.variant.turn == plain.variant.turn
    assert ludo.variant.board == plain.variant.board and ludo.variant.cards == plain.variant.cards
    assert ludo.variant.win == quick.variant.win != plain.variant.win
    assert ludo.files == ("ludo.yaml", "house/quick-game.yaml")
    own = write(tmp_path, "pent.yaml", """
        name: pent
        colours: [red, blue, yellow, green, purple]
        players: {min: 2, max: 5}
        pawns: 3
        board: {side_length: 10, start_exit: 3, safety_entry: 1, safety_length: 3, slides: []}
        deck: {"6": 8, back: 4}
        cards: {"6": enter | forward 6, back: backward 3}
    """)
    middle = write(tmp_path, "middle.yaml", """
        extends: house/quick-game.yaml
        rules: {must_bump: true}
    """)
    v = load_variant(str(own), [str(middle)]).variant
    assert (v.name, len(v.colours), v.pawns, sorted(v.deck)) == ("pent", 5, 3, ["6", "back"])
    assert v.rules.must_bump is True and v.win == quick.variant.win  # the overlay it extends comes along
    found, _ = problems("standard", ["house/mulligan-8.yaml"])
    assert [(file, code) for file, _, _, code in found] == [("mulligan-8.yaml", "SR513")]


@pytest.mark.parametrize("game", ["ludo", "sequence", "standard"])
def test_a_whole_game_given_as_a_rule_overlay_is_named_as_such(game):
    """A whole game (`name:` and no `extends:`) given to --rule is a usage error that says to
    play it with --variant, not a wall of errors located in the variant below it; a file that
    extends another is an overlay, named or not (AUTHORING's my-rule.yaml, partnership's teams)."""
    with pytest.raises(UsageError, match=f"{game} is a whole game .*play it with --variant {game}"):
        load_variant("trouble", [game])
    assert load_variant("standard", ["partnership"]).variant.teams == load_variant("partnership").variant.teams


def test_extends_list_merges_in_order(tmp_path):
    a = write(tmp_path, "a.yaml", "pawns: 2\ndeck: {sorry: 1}\n")
    b = write(tmp_path, "b.yaml", "pawns: 3\n")
    top = write(tmp_path, "top.yaml", "extends: [standard, a.yaml, b.yaml]\nname: top\n")
    v = load_variant(str(top)).variant
    assert (v.pawns, v.deck["sorry"], v.name) == (3, 1, "top")
    del a, b


def test_extends_missing_and_cycle(tmp_path):
    missing = write(tmp_path, "m.yaml", "extends: nowhere.yaml\nname: m\n")
    found, _ = problems(missing)
    assert found == [("m.yaml", 1, 10, "SR401")]
    write(tmp_path, "x.yaml", "extends: y.yaml\nname: x\n")
    write(tmp_path, "y.yaml", "extends: x.yaml\nname: y\n")
    with pytest.raises(RuleFileError) as caught:
        load_variant(str(tmp_path / "x.yaml"))
    assert [p.code for p in caught.value.problems] == ["SR402"]
    assert "x.yaml -> " in caught.value.problems[0].message


def test_schema_problems_all_reported_with_positions(tmp_path):
    bad = write(tmp_path, "bad.yaml", """
        extends: standard
        name: bad
        pawns: "4"
        colour: [red]
        board:
          side_length: 15
          safety_lenght: 5
        rules:
          control: everyone
    """)
    found, error = problems(bad)
    assert ("bad.yaml", 3, 8, "SR203") in found        # "4" is not an int (strict types)
    assert ("bad.yaml", 4, 1, "SR202") in found        # unknown field, at its key
    assert ("bad.yaml", 7, 3, "SR202") in found        # misspelt nested field
    assert ("bad.yaml", 9, 12, "SR204") in found       # not one of own/team
    assert len(found) == 4
    assert ("bad.yaml:7:3: error: unknown field 'safety_lenght' in board; "
            "did you mean 'safety_length' or 'safety_entry' or 'side_length'? "
            "(fields: hold, home_hold, kind, safety_entry, safety_length, side_length, slides, squares, start_exit) [SR202]") in str(error)


@pytest.mark.parametrize("overlay, expected", [
    # dice over points' hand turn: its hand fields are unknown, not `dice`, the union's tag
    ("turn: {source: dice, dice: 2, faces: [1, 2, 3]}\n",
     [("points.yaml", 15, 3, "SR202", "unknown field 'hand_size' in turn"),
      ("points.yaml", 16, 3, "SR202", "unknown field 'stuck' in turn")]),
    # a tiers component named `tiers`: the tag and the field share the name
    ("scoring:\n  tiers:\n    kind: tiers\n    for: winner\n    label: t\n    tiers:\n"
     "      - {when: 'true', points: 5, bogus: 1}\n",
     [("mine.yaml", 9, 35, "SR202", "unknown field 'bogus' in scoring.tiers.tiers.0")]),
])
def test_union_tags_named_like_fields_are_not_taken_for_them(tmp_path, overlay, expected):
    """pydantic puts a tagged union's tag in the location (turn.dice.hand_size,
    scoring.tiers.tiers.tiers.0.bogus); a tag named like a field of its model is skipped
    once, so the problem names and points at the field that is wrong."""
    mine = write(tmp_path, "mine.yaml", "extends: points\nname: mine\n" + overlay)
    found, error = problems(mine)
    assert [place[:4] for place in found] == [place[:4] for place in expected]
    for *_, words in expected:
        assert words in str(error)


def test_the_kind_of_a_mapping_left_out_or_misspelt(tmp_path):
    """`turn.source` left out is `draw` (its documented default), so an overlay may write
    `turn:` over a base that leaves it out; a kind that is no kind names the kinds and the
    close one (SR204, at the value); a scoring component without its `kind` is SR201."""
    write(tmp_path, "base.yaml", """
        name: base
        colours: [red, blue]
        players: {min: 2, max: 2}
        pawns: 2
        board: {side_length: 8, start_exit: 2, safety_entry: 1, safety_length: 2, slides: []}
        deck: {"1": 4, "3": 4}
        cards: {"1": enter | forward 1, "3": forward 3}
        win: home(player) == pawns(player)
    """)
    taking = write(tmp_path, "take.yaml", "extends: base.yaml\nturn:\n  take: 2\n")
    assert load_variant(str(taking)).variant.turn.take == 2
    misspelt = write(tmp_path, "draws.yaml", "extends: base.yaml\nturn:\n  source: draws\n")
    found, error = problems(misspelt)
    assert found == [("draws.yaml", 3, 11, "SR204")]
    assert "turn.source: 'draws' is not one of draw, hand, dice; did you mean 'draw'?" in str(error)
    kindless = write(tmp_path, "bonus.yaml", "extends: base.yaml\nscoring:\n  bonus: {mode: cumulative}\n")
    found, error = problems(kindless)
    assert found == [("bonus.yaml", 3, 10, "SR201")]
    assert "scoring.bonus: required field 'kind' is missing" in str(error)


def test_a_card_name_written_as_a_number(tmp_path):
    """REFERENCE: as a key of deck: or cards: a bare number is the card's name; in a list it
    is refused (SR203), and the message says to quote it."""
    mine = write(tmp_path, "mine.yaml", """
        extends: standard
        deck: {5: 4}
        cards: {5: forward 5}
        filters:
          r: {cards: [5], prefer: bumps(opponents) > 0}
    """)
    found, error = problems(mine)
    assert found == [("mine.yaml", 5, 15, "SR203")]
    assert 'write "5" in quotes: a card name' in str(error)
    keys = write(tmp_path, "keys.yaml", "extends: standard\ndeck: {5: 4}\ncards: {5: forward 5}\n")
    assert load_variant(str(keys)).variant.deck["5"] == 4


def test_loading_reports_the_syntax_errors_beside_the_cross_field_ones(tmp_path):
    """Playing or explaining a file whose cross-field checks fail still says what is wrong in
    its DSL texts (SR301), not only the cross-field problem (REFERENCE section 6)."""
    mine = write(tmp_path, "mine.yaml", """
        extends: standard
        cards:
          "3": forward 3 |
          "9": forward 9
    """)
    found, _ = problems(mine)
    assert [(line, code) for _, line, _, code in found] == [(3, "SR301"), (4, "SR504")]


def test_a_required_field_removed_with_null_is_reported_where_it_was_removed(tmp_path):
    """REFERENCE section 3: a problem is reported where the offending value came from: a
    required field an overlay removes with `null` is missing at that line, not in the base."""
    mine = write(tmp_path, "mine.yaml", "extends: standard\nwin: null\n")
    found, error = problems(mine)
    assert found == [("mine.yaml", 2, 6, "SR201")] and "removed here with null" in str(error)


def test_a_value_no_member_of_a_union_takes_is_one_problem(tmp_path):
    """A turn's `at` is an offset or a word: 'start' is one problem saying both, not one per
    kind of value (REFERENCE section 6: a value of the wrong kind says what to write)."""
    mine = write(tmp_path, "mine.yaml", """
        extends: standard
        geometry:
          turns:
            a: {at: start, moving: forward, onto: safety}
    """)
    found, error = problems(mine)
    assert found == [("mine.yaml", 4, 13, "SR204")]
    assert "write one of 'safety_entry' or 'start_exit', or a whole number, not 'start'" in str(error)


def test_missing_required_field(tmp_path):
    bad = write(tmp_path, "short.yaml", "name: short\ncolours: [a, b]\n")
    found, error = problems(bad)
    codes = {code for *_, code in found}
    assert codes == {"SR201"}
    assert "required field 'board' is missing" in str(error)


def test_dsl_syntax_error_points_into_the_yaml(tmp_path):
    bad = write(tmp_path, "dsl.yaml", """
        extends: standard
        name: dsl
        cards:
          "7": forward 7 | )
    """)
    found, error = problems(bad)
    assert found == [("dsl.yaml", 4, 20, "SR301")]
    assert "dsl.yaml:4:20: error: unexpected ')'; expected one of" in str(error)


def test_dsl_errors_in_several_texts_reported_together(tmp_path):
    bad = write(tmp_path, "names.yaml", """
        extends: standard
        name: names
        cards:
          "3": forward 3 | jump 3
          "4": backward 4 if homes(team) > 1
        win: home(squad) == 4
    """)
    found, error = problems(bad)
    assert ("names.yaml", 4, 20, "SR301") in found          # 'jump' is not a primitive
    assert ("names.yaml", 5, 22, "SR302") in found          # unknown function homes
    assert ("names.yaml", 6, 11, "SR302") in found          # unknown group squad
    assert "unknown function 'homes'" in str(error)
    assert "unknown group 'squad'" in str(error)


def test_dsl_in_block_scalar_points_to_the_right_line(tmp_path):
    bad = write(tmp_path, "block.yaml", """
        extends: standard
        name: block
        cards:
          "11": |
            forward 11
              | switch opponent
              | pass if can(forward 11) and
        """)
    found, _ = problems(bad)
    assert found == [("block.yaml", 7, 36, "SR301")]  # just past the dangling "and" (6 + 29 chars)


def test_huge_numbers_are_load_time_errors(tmp_path):
    bad = write(tmp_path, "huge.yaml", """
        extends: standard
        name: huge
        cards:
          "5": forward 1000000000000
          "8": forward 500
    """)
    found, error = problems(bad)
    assert ("huge.yaml", 4, 16, "SR303") in found
    assert ("huge.yaml", 5, 8, "SR508") in found
    assert "too large" in str(error)


def test_can_only_in_card_effects(tmp_path):
    bad = write(tmp_path, "can.yaml", "extends: standard\nname: can\nwin: can(forward 1)\n")
    found, error = problems(bad)
    assert found == [("can.yaml", 3, 6, "SR304")]


def test_cross_field_problems(tmp_path):
    bad = write(tmp_path, "cross.yaml", """
        extends: standard
        name: cross
        teams: [[red, purple]]
        deck: {"13": 2}
        board:
          start_exit: 20
    """)
    found, _ = problems(bad)
    codes = sorted(code for *_, code in found)
    assert codes == ["SR501", "SR503", "SR505"]


def test_bundled_standard_loads_by_name_and_file_name():
    assert load_game("standard").name == "standard"
    assert load_game("standard.yaml").name == "standard"


def test_yaml_12_scalars_keep_words_as_text(tmp_path):
    path = write(tmp_path, "words.yaml", """
        extends: standard
        name: no
        description: yes
    """)
    v = load_variant(str(path)).variant
    assert (v.name, v.description) == ("no", "yes")


def test_content_hash_changes_with_content(tmp_path):
    a = write(tmp_path, "h1.yaml", "extends: standard\nname: h\npawns: 3\n")
    b = write(tmp_path, "h2.yaml", "extends: standard\nname: h\npawns: 2\n")
    assert load_variant(str(a)).content_hash != load_variant(str(b)).content_hash
    assert load_variant(str(a)).content_hash == load_variant(str(a)).content_hash
