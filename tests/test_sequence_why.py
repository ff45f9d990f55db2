"""`sorry-play moves --why` for grid variants: the card option behind every move and why a
card of the hand has no play, in text and JSON; without --why the oracle's output keeps the
contract of docs/SEQUENCE.md section 5."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sorry_rules.cli.app import main


def moves(tmp_path, position: dict, *extra):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    result = CliRunner().invoke(main, ["moves", "--variant", "sequence", "--state", str(path), *extra])
    assert result.exit_code == 0, result.output
    return result.output


DEAD = {"players": ["blue", "green"], "turn": "blue", "hand": ["2C", "QS", "JD", "JS"],
        "chips": {"blue": ["E2"], "green": ["G4", "A2", "B2", "C2", "D2", "F2"]}}


def test_every_move_says_which_card_option_gives_it(tmp_path):
    """S7: a card places on a cell that shows it, a two-eyed Jack anywhere, a one-eyed Jack
    takes an opponent chip in no line of its colour (S10); S12: a dead card is exchanged."""
    report = json.loads(moves(tmp_path, DEAD, "--why", "--format", "json"))
    by_text = {m["text"]: m for m in report["moves"]}
    qs = by_text["blue places a chip on B5 with QS"]["why"]
    assert [(w["card"], w["option"], w["text"]) for w in qs] == [("QS", 1, "place on card")]
    assert qs[0]["words"] == ("B5 shows QS (the cells showing QS: J3, B5): place a chip of your colour on an empty "
                              "cell that shows this card")
    assert qs[0]["where"].startswith("sequence.yaml:")
    jd = by_text["blue places a chip on B5 with JD"]["why"]
    assert jd[0]["words"] == "B5 is empty: place a chip of your colour on any empty cell"
    js = by_text["blue removes green's chip from G4 with JS"]["why"]
    assert js[0]["words"].startswith("green's chip on G4 is in no line of its colour: take away an opponent's chip")
    exchange = by_text["blue exchanges the dead card 2C"]["why"]
    assert exchange[0]["option"] is None and "2C has no play (a dead card)" in exchange[0]["words"]
    assert all(m["why"] for m in report["moves"])


def test_a_dead_card_says_both_its_cells_are_covered(tmp_path):
    """S12: 2C shows on E2 and G4, both covered."""
    report = json.loads(moves(tmp_path, DEAD, "--why", "--format", "json"))
    assert report["no_play"] == [{"card": "2C", "exchange": True, "reasons": [
        {"card": "2C", "option": 1, "effect": "place on card", "code": "dead_card",
         "text": "place on card: both cells showing 2C are covered (E2 blue, G4 green)"}]}]
    text = moves(tmp_path, DEAD, "--why")
    assert "no play for:\n  card 2C (an exchange is offered): place on card: both cells showing 2C are covered " \
           "(E2 blue, G4 green)" in text
    assert "      card QS, option 1: B5 shows QS (the cells showing QS: J3, B5): place a chip" in text


def test_a_dead_card_after_this_turns_exchange_says_the_exchange_is_made(tmp_path):
    """S6: one dead card may be exchanged a turn; with the exchange made, the dead 2C is
    offered none, and `--why` says why."""
    report = json.loads(moves(tmp_path, {**DEAD, "exchanged": True}, "--why", "--format", "json"))
    assert report["exchanged"] is True and report["no_play"][0]["exchange"] is False
    text = moves(tmp_path, {**DEAD, "exchanged": True}, "--why")
    assert "  card 2C: place on card: both cells showing 2C are covered (E2 blue, G4 green)\n" \
           "  (this turn's exchange of a dead card is made: one a turn, S6)" in text
    assert "exchanged" not in json.loads(moves(tmp_path, DEAD, "--why", "--format", "json"))


def test_a_one_eyed_jack_with_only_protected_chips_has_no_play(tmp_path):
    """S10: every green chip is in green's line A2-E2, so the one-eyed Jack takes none."""
    position = {"players": ["blue", "green"], "turn": "blue", "hand": ["JS"], "exchanged": True,
                "chips": {"green": ["A2", "B2", "C2", "D2", "E2"]}}
    report = json.loads(moves(tmp_path, position, "--why", "--format", "json"))
    assert report["moves"] == [] and report["forfeit"] is True
    reason = report["no_play"][0]["reasons"][0]
    assert reason["code"] == "all_protected" and report["no_play"][0]["exchange"] is False
    assert reason["text"] == "remove opponent unprotected: every opponent chip is in a line of its colour (A2, B2, C2, D2, E2)"
    empty = {"players": ["blue", "green"], "turn": "blue", "hand": ["JS"], "exchanged": True}
    assert json.loads(moves(tmp_path, empty, "--why", "--format", "json"))["no_play"][0]["reasons"][0]["code"] == "no_chip"
    text = moves(tmp_path, position, "--why")
    assert text.startswith("blue to play:\n  no legal move: the player passes\nno play for:\n  card JS: remove opponent")


def test_without_why_the_oracle_output_is_unchanged(tmp_path):
    """docs/SEQUENCE.md section 5: the keys of the report and of each move."""
    report = json.loads(moves(tmp_path, DEAD, "--format", "json"))
    assert set(report) == {"turn", "moves", "forfeit"}
    assert all(set(m) == {"text", "card", "kind", "result", "winner"} for m in report["moves"])
    assert "card QS, option" not in moves(tmp_path, DEAD)


def test_card_option_is_still_refused_for_grid_variants(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(DEAD))
    result = CliRunner().invoke(main, ["moves", "--variant", "sequence", "--state", str(path), "--card", "QS"])
    assert result.exit_code == 2 and "--card is not offered for grid variants" in result.output
