"""The JSON Schema (draft 2020-12) of rule files, generated from the pydantic models.

A rule file is either a complete variant or an overlay (a file with `extends:`). An overlay
is merged over its bases (mappings merge key by key, `null` removes a key, anything else
replaces), so it may leave out any field at any depth of a mapping: the schema checks it
against *partial* copies of the models (nothing required, `null` allowed as a value).
A list replaces the list below it whole, so list items are checked in full.

Cross-field rules, the DSL and the whole-game analyses are beyond JSON Schema: editors
check fields and types; `sorry-play validate` checks everything.

Contract: `rule_file_schema()` is a pure function of the models and FIELD_DOCS;
`schema_text()` is its canonical text (the committed schema/sorry-rules.schema.json).
"""

from __future__ import annotations

import copy
import json

DRAFT = "https://json-schema.org/draft/2020-12/schema"
TITLE = "sorry-rules rule file"

#: Descriptions of every field, shown by editors. Keyed by (model, field alias).
FIELD_DOCS: dict[tuple[str, str], str] = {
    ("Variant", "name"): "Name of the variant, shown by `sorry-play variants` and in game logs.",
    ("Variant", "description"): "One line saying what the variant is.",
    ("Variant", "colours"): "Colours in clockwise seat order; colour c owns side c of the board.",
    ("Variant", "teams"): "Teams of colours (partnership play); colours not listed play alone.",
    ("Variant", "players"): "How many players may sit at the table.",
    ("Variant", "seating"): "Which colours play, by number of players (keys \"2\", \"3\"...); default: the first N colours.",
    ("Variant", "pawns"): "Pawns per colour.",
    ("Variant", "setup"): "Where pawns begin.",
    ("Variant", "board"): "The race-track board: sides, start exits, safety zones, slides.",
    ("Variant", "deck"): "Card name -> number of copies in the deck.",
    ("Variant", "cards"): "Card name -> effect in the DSL, e.g. `enter | forward 1`.",
    ("Variant", "turn"): "Turn flow: draw one card per turn, or play from a hand.",
    ("Variant", "rules"): "Switches of the movement mechanisms (bumps, slides, splits, Home).",
    ("Variant", "win"): "Win condition in the DSL, judged for each player, e.g. `home(team) == pawns(team)`.",
    ("Variant", "scoring"): "Score components, added up at the end of a game.",
    ("Overlay", "extends"): "The rule file(s) this overlay is merged over: a bundled name (standard) or a path relative to this file.",
    ("PlayerCount", "min"): "Fewest players.",
    ("PlayerCount", "max"): "Most players (at most the number of colours).",
    ("Slide", "from"): "Offset of the triangle on each side (a pawn must land on it exactly).",
    ("Slide", "to"): "Offset of the end circle (more than `from`, less than a side further).",
    ("Board", "kind"): "Board kind; only `track` exists.",
    ("Board", "side_length"): "Track squares per side; the track has side_length x colours squares.",
    ("Board", "start_exit"): "Offset where pawns leaving Start land.",
    ("Board", "safety_entry"): "Offset of the last track square before a colour's safety zone.",
    ("Board", "safety_length"): "Squares in each safety zone (then Home).",
    ("Board", "slides"): "Slides, repeated on every side.",
    ("Setup", "on_start_exit"): "Pawns of each player that begin on the start exit instead of Start (0 or 1).",
    ("DrawTurn", "source"): "`draw`: draw the top card each turn and play it.",
    ("DrawTurn", "first"): "Who plays first: a random seat (by the game's seed) or the first seat.",
    ("HandTurn", "source"): "`hand`: hold a hand of cards and play one each turn.",
    ("HandTurn", "hand_size"): "Cards in each hand.",
    ("HandTurn", "first"): "Who plays first: a random seat (by the game's seed) or the first seat.",
    ("HandTurn", "stuck"): "When no card in the hand can move: discard one card of the player's choice.",
    ("Rules", "control"): "`own`: players move only their colour; `team`: also their partners' colours.",
    ("Rules", "bump"): "Which other colours a landing pawn bumps back to Start (relations judged from the moving pawn).",
    ("Rules", "slide_on"): "Whose slides a pawn takes when it lands on a triangle.",
    ("Rules", "slide_sweep"): "`all`: a slide sends every pawn on it to Start; `bumpable`: only pawns the slider may bump.",
    ("Rules", "slide_after_switch"): "After an 11-style switch, which pawns check for slides.",
    ("Rules", "slide_after_sorry"): "Whether a Sorry!-placed pawn slides.",
    ("Rules", "split"): "`sequential`: split parts resolve one after another; `simultaneous`: judged on the board before.",
    ("Rules", "overshoot_home"): "`illegal`: Home by exact count only; `stop`: a move past Home stops in Home.",
    ("Rules", "must_bump"): "When a move bumps an opponent, a bumping move must be taken.",
    ("Tier", "when"): "Condition in the DSL.",
    ("Tier", "points"): "Points when the condition holds.",
    ("FormulaScore", "kind"): "`formula`: points from one DSL formula.",
    ("FormulaScore", "for"): "`every` player scores it, or only the `winner` (and partners).",
    ("FormulaScore", "points"): "Formula in the DSL, e.g. `5 * home(player)`.",
    ("FormulaScore", "label"): "Name of the score line (default: the key).",
    ("TierScore", "kind"): "`tiers`: a bonus from conditions.",
    ("TierScore", "for"): "`every` player scores it, or only the `winner` (and partners).",
    ("TierScore", "mode"): "`highest`: the first tier that holds; `cumulative`: every tier that holds.",
    ("TierScore", "tiers"): "Conditions and their points, best first.",
    ("TierScore", "label"): "Name of the score line (default: the key).",
}


def _models_schema() -> dict:
    from sorry_rules.rules.model import Variant

    return Variant.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")


def _tidy(node):
    """Make the generated schema say what pydantic enforces: key patterns of mappings go to
    propertyNames; pydantic's auto titles ("Side Length") go."""
    if isinstance(node, dict):
        pattern_props = node.get("patternProperties")
        if isinstance(pattern_props, dict) and len(pattern_props) == 1:
            (pattern, value), = pattern_props.items()
            del node["patternProperties"]
            names = node.setdefault("propertyNames", {})
            names["pattern"] = pattern
            node["additionalProperties"] = value
        if "discriminator" in node:
            del node["discriminator"]  # OpenAPI keyword; oneOf already decides
        props = node.get("properties")
        if isinstance(props, dict):
            for value in props.values():
                if isinstance(value, dict):
                    value.pop("title", None)
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)
    return node


def _describe(name: str, model: dict) -> None:
    for key, value in model.get("properties", {}).items():
        doc = FIELD_DOCS.get((name, key))
        if doc is not None:
            value["description"] = doc


def _partial(node, in_list: bool = False):
    """The overlay form of a schema node (see the module docstring)."""
    if isinstance(node, list):
        return [_partial(item, in_list) for item in node]
    if not isinstance(node, dict):
        return node
    if in_list:
        return node  # list items are complete
    out = {}
    for key, value in node.items():
        if key == "$ref":
            out[key] = value.replace("#/$defs/", "#/$defs/Partial")
        elif key in ("required", "minProperties"):
            continue
        elif key == "oneOf":
            out["anyOf"] = _partial(value)
        elif key == "items":
            out[key] = value  # lists replace: items in full
        elif key == "properties":
            out[key] = {k: _nullable(_partial(v)) for k, v in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_partial(value))
        elif key in ("anyOf", "allOf"):
            out[key] = _partial(value)
        else:
            out[key] = value
    return out


def _nullable(node: dict) -> dict:
    """A value an overlay may also set to null (null removes the key below)."""
    if node.get("type") == "null" or any(isinstance(o, dict) and o.get("type") == "null" for o in node.get("anyOf", [])):
        return node
    doc = node.get("description")
    inner = {k: v for k, v in node.items() if k != "description"}
    wrapped = {"anyOf": [inner, {"type": "null"}]}
    if doc:
        wrapped["description"] = doc
    return wrapped


def rule_file_schema() -> dict:
    """The schema as a dict (see the module docstring)."""
    generated = _tidy(_models_schema())
    defs = generated.pop("$defs")
    defs["Variant"] = generated
    for name, model in defs.items():
        _describe(name, model)
    partial_defs = {f"Partial{name}": _partial(copy.deepcopy(model)) for name, model in defs.items()}
    overlay = copy.deepcopy(partial_defs.pop("PartialVariant"))
    overlay["title"] = "Overlay"
    overlay["description"] = ("A rule file with `extends:`, merged over its bases: any field may be left out, "
                              "mappings merge key by key, null removes a key, other values replace.")
    extends_doc = FIELD_DOCS[("Overlay", "extends")]
    overlay["properties"] = {"extends": {
        "description": extends_doc,
        "anyOf": [{"type": "string", "minLength": 1},
                  {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1}],
    }, **overlay["properties"]}
    overlay["required"] = ["extends"]
    variant = defs.pop("Variant")
    return {
        "$schema": DRAFT,
        "title": TITLE,
        "description": ("A sorry-rules rule file (a variant of Sorry!): a complete variant, or an overlay with "
                        "`extends:`. Editors check fields and types; `sorry-play validate` also checks the DSL, "
                        "cross-field rules and whether the game can progress. Regenerate with "
                        "`sorry-play schema > schema/sorry-rules.schema.json`."),
        "type": "object",
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/Overlay"},
        "else": {"$ref": "#/$defs/Variant"},
        "$defs": {"Variant": variant, "Overlay": overlay, **dict(sorted(defs.items())), **dict(sorted(partial_defs.items()))},
    }


def schema_text() -> str:
    return json.dumps(rule_file_schema(), indent=2, ensure_ascii=False) + "\n"
