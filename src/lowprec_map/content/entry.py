"""An entry: one validated piece of content, and where in its file it came from."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from lowprec_map.content.load import Loc, Positions
from lowprec_map.errors import SourcePos
from lowprec_map.schema.fields import Model


@dataclass(frozen=True)
class Entry:
    """One validated entry and where it came from."""

    type: str
    id: str
    model: Model
    positions: Positions
    loc: Loc = ()
    body: str = ""
    body_line: int = 1
    # Values later stages derive from this entry alone (its references, its folded
    # author names), kept as long as the entry: serve reuses unchanged files' entries.
    derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @functools.cached_property
    def key(self) -> str:
        """The entry's node name in the graph: 'type:id'."""
        return f"{self.type}:{self.id}"

    @property
    def draft(self) -> bool:
        """Whether the entry is a draft: shown by `serve`, never published or exported."""
        return bool(getattr(self.model, "draft", False))

    @property
    def path(self) -> Path:
        return self.positions.path

    def pos(self, loc: Loc = ()) -> SourcePos:
        """Source position of a value inside this entry."""
        return self.positions.value((*self.loc, *loc))
