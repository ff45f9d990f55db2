"""The game record: one versioned JSON format for saved games and game logs.

A record holds what is needed to rebuild a game exactly: the variant (as given to
`load_game`, plus the content hash of the merged rule data), the seed, the seated colours,
every choice made (one index into `legal_moves` per applied move, forced ones included, as in
`runner.GameRecord.choices`) and a digest of the state those choices lead to. A saved game
also says who plays each seat (`kinds`) and the move limit (`max_plies`); a game log written
by a test may leave them out (null). The file is the record's fields as one line of JSON
plus a `checksum` of the other fields:

  {"format": "sorry-rules-game", "version": 2,
   "variant": {"spec": "standard", "rules": [], "name": "standard", "content_hash": "<sha256>"},
   "seed": 42, "seats": ["red", "yellow"], "first": null, "kinds": ["human", "bot:greedy"],
   "max_plies": 500, "choices": [0, 2, 1], "plies": 3, "finished": false,
   "state_digest": "<sha256>", "checksum": "<sha256>"}

`Record` and `RecordFile` (pydantic) are the definition of the format; `records.legacy`
describes the two version-1 formats it replaces (save files and game logs) and
`records.files` reads and writes every version (the one place that does).

Contract: `to_json` writes exactly the fields of `RecordFile`; `checksum_of` is the checksum
it writes; `problem_text` words a pydantic validation error for a person.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sorry_rules.base.limits import MAX_CHOICES
from sorry_rules.records.storage import game_over, state_digest
from sorry_rules.players.registry import BOTS, bot_names

FORMAT = "sorry-rules-game"
VERSION = 2

Digest = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="a SHA-256 hex digest")]
Choice = Annotated[int, Field(ge=0, description="an index into the legal moves of that turn")]


class VariantRef(BaseModel):
    """Which rules the game was played with."""

    model_config = ConfigDict(extra="forbid")

    spec: str = Field(min_length=1, description="the variant as given to load_game: a bundled name or a path")
    rules: list[str] = Field(default_factory=list, description="the overlays as given to load_game, in order")
    name: str = Field("", description="the variant's name, for people")
    content_hash: Digest = Field(description="Game.content_hash of the merged rule data: pins the rules' content")


class Record(BaseModel):
    """A game (finished or not) that can be replayed exactly: the in-memory record.

    Mutable while a game is played: the front end appends each choice to `choices` and
    calls `reached(state)` before writing, so `plies`, `finished` and `state_digest` match."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["sorry-rules-game"] = FORMAT
    version: Literal[2] = VERSION
    variant: VariantRef
    seed: int | str = Field(description="the game's seed, as given to new_game")
    seats: list[str] = Field(min_length=1, description="colour names, in seat order")
    first: int | None = Field(None, ge=0, description="the seat given to new_game as first; null: the seed chose")
    kinds: list[str] | None = Field(None, description="per seat: 'human' or 'bot:NAME'; null: not recorded")
    max_plies: int | None = Field(None, ge=1, le=MAX_CHOICES, description="the move limit; null: not recorded")
    choices: list[Choice] = Field(default_factory=list, max_length=MAX_CHOICES,
                                  description="one legal-move index per applied move")
    plies: int = Field(0, description="moves applied: the number of choices")
    finished: bool | None = Field(None, description="whether the choices end the game (won or drawn); null: not recorded")
    state_digest: Digest | None = Field(None, description="state_digest of the state the choices lead to; null: not recorded")

    @model_validator(mode="after")
    def _consistent(self):
        if self.plies != len(self.choices):
            raise ValueError(f"plies must be the number of choices ({len(self.choices)})")
        if self.first is not None and self.first >= len(self.seats):
            raise ValueError("first must be a seat number")
        if self.kinds is not None and len(self.kinds) != len(self.seats):
            raise ValueError("kinds must name one player kind per seat")
        for seat, kind in enumerate(self.kinds or (), 1):
            if kind != "human" and not (kind.startswith("bot:") and kind[4:] in BOTS):
                raise ValueError(f"kinds: seat {seat} is played by {kind!r}, which is no player kind (human, or "
                                 f"bot:NAME with NAME one of {', '.join(bot_names())})")
        return self

    def reached(self, state) -> None:
        """Record that the choices now lead to `state` (move count, finished, digest)."""
        self.plies = state.plies
        self.finished = game_over(state)
        self.state_digest = state_digest(state)


class RecordFile(Record):
    """A record as stored: every field of the record (null where not recorded) and a
    checksum of them."""

    checksum: Digest = Field(description="SHA-256 of the other fields as JSON with sorted keys and no spaces")

    @model_validator(mode="before")
    @classmethod
    def _every_field(cls, data):
        if isinstance(data, dict):
            missing = [name for name in cls.model_fields if name not in data]
            if missing:
                raise ValueError(f"field(s) {', '.join(map(repr, missing))} missing")
        return data


def checksum_of(fields: dict, ensure_ascii: bool = False) -> str:
    """The checksum of a record's JSON fields (any `checksum` key is left out); with
    `ensure_ascii`, the one version-1 save files carry (ASCII JSON, `records.legacy`)."""
    body = {k: v for k, v in fields.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=ensure_ascii).encode()).hexdigest()


def to_json(record: Record) -> str:
    """The file text of `record`: one line of JSON with its checksum, and a newline."""
    data = record.model_dump(mode="json")
    data["checksum"] = checksum_of(data)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def problem_text(error: ValidationError) -> str:
    """The first problems of a pydantic validation, in words: `field: what is wrong`."""
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "the record"
        if item["type"] == "extra_forbidden":
            parts.append(f"unknown field {where!r}")
        elif item["type"] == "missing":
            parts.append(f"field {where!r} missing")
        else:
            parts.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    return "; ".join(parts)
