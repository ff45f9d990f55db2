"""The version-1 formats the game record replaced, read so that old files still load.

* `sorry-rules-save` version 1: the save files of `sorry-play --save` (indented JSON, a
  checksum, the variant as `variant`/`rules`/`content_hash`, `first` = the seat the seed
  chose to move first).
* `sorry-rules-game-log` version 1: the game logs of the property tests and fuzzers (one
  line of JSON, the variant as an object, `first` = an explicit first seat or null, `final`
  = the digest of the final state; no checksum, no players, no move limit).

Contract: `SaveV1` and `LogV1` accept exactly what the code of version 1 wrote and
accepted; `upgrade()` gives the equivalent `Record` (the same game, replayed the same way).
Nothing writes these formats any more.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from sorry_rules.base.limits import MAX_CHOICES
from sorry_rules.records.record import Choice, Digest, Record, VariantRef

SAVE_FORMAT = "sorry-rules-save"
LOG_FORMAT = "sorry-rules-game-log"


class SaveV1(BaseModel):
    """A save file of version 1."""

    model_config = ConfigDict(extra="ignore")

    format: Literal["sorry-rules-save"]
    version: Literal[1]
    variant: str
    rules: list[str]
    content_hash: str
    seed: int
    seats: list[str] = Field(min_length=1)
    first: int = Field(ge=0)
    kinds: list[str]
    max_plies: int = Field(ge=1)
    choices: list[Choice]
    plies: int
    finished: bool
    state_digest: str
    checksum: str

    @model_validator(mode="after")
    def _consistent(self):
        if self.plies != len(self.choices):
            raise ValueError("move count and choices disagree")
        if self.first >= len(self.seats) or len(self.kinds) != len(self.seats):
            raise ValueError("one player kind per seat, and a first seat among them")
        return self

    def upgrade(self) -> Record:
        """The same game as a current record. Version 1 wrote the seat the seed chose as
        `first`; the game was started without an explicit first seat, so `first` is null."""
        return Record.model_construct(
            variant=VariantRef.model_construct(spec=self.variant, rules=self.rules, name=self.variant,
                                               content_hash=self.content_hash),
            seed=self.seed, seats=self.seats, first=None, kinds=self.kinds, max_plies=self.max_plies,
            choices=self.choices, plies=self.plies, finished=self.finished, state_digest=self.state_digest)


class LogVariantV1(BaseModel):
    model_config = ConfigDict(extra="forbid")

    spec: str = Field(min_length=1)
    rules: list[str]
    name: str
    content_hash: Digest


class LogV1(BaseModel):
    """A game log of version 1."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["sorry-rules-game-log"]
    version: Literal[1]
    variant: LogVariantV1
    seed: int | str
    seats: list[str] = Field(min_length=1)
    first: int | None = Field(ge=0)
    choices: list[Choice] = Field(max_length=MAX_CHOICES)
    plies: int
    final: Digest | None

    @model_validator(mode="after")
    def _consistent(self):
        if self.plies != len(self.choices):
            raise ValueError(f"plies must be the number of choices ({len(self.choices)})")
        if self.first is not None and self.first >= len(self.seats):
            raise ValueError("first must be null or a seat number")
        return self

    def upgrade(self) -> Record:
        """The same game as a current record (no players, no move limit recorded)."""
        variant = self.variant
        return Record.model_construct(
            variant=VariantRef.model_construct(spec=variant.spec, rules=variant.rules, name=variant.name,
                                               content_hash=variant.content_hash),
            seed=self.seed, seats=self.seats, first=self.first, kinds=None, max_plies=None,
            choices=self.choices, plies=self.plies, finished=None, state_digest=self.final)
