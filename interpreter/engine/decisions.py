"""Decision values: what a player is asked (Decision, Option) and what `apply` answers (Applied, Refused).

Procedures are generators: they `yield from ask(...)` and receive the chosen option id. A question with
a single legal option is answered automatically (it is not a decision), so every pending Decision
offers at least two options.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generator


@dataclass(frozen=True)
class Option:
    """One legal answer: a stable readable id and a label."""

    id: str
    label: str


@dataclass(frozen=True)
class Decision:
    """A question to one player: its kind, a prompt and the legal options."""

    player: str
    kind: str
    prompt: str
    options: tuple[Option, ...]

    def option_ids(self) -> list[str]:
        """The ids of the legal options."""
        return [o.id for o in self.options]

    def to_dict(self) -> dict:
        """Plain data for views and JSON."""
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt,
                "options": [{"id": o.id, "label": o.label} for o in self.options]}


@dataclass(frozen=True)
class Event:
    """One line of the game log; `data` is an optional structured payload for tools (e.g. a Season card's
    result), so they never parse the readable `text`."""

    kind: str
    text: str
    player: str | None = None
    data: dict | None = field(default=None, hash=False)

    def to_dict(self) -> dict:
        """Plain data (`data` only when the event has a payload, so plain log lines stay small)."""
        out = {"kind": self.kind, "text": self.text, "player": self.player}
        if self.data is not None:
            out["data"] = self.data
        return out


@dataclass
class Applied:
    """The option was applied; the events it produced."""

    events: list[Event] = field(default_factory=list)
    ok: bool = True


@dataclass
class Refused:
    """The option was refused; nothing changed. code: wrong-player, stale, malformed, illegal, game-over."""

    code: str
    message: str
    ok: bool = False


Ask = Generator[Decision, str, str]


def ask(player: str, kind: str, prompt: str, options: list[Option]) -> Ask:
    """Ask a player to choose; answers itself when only one option exists."""
    if not options:
        raise AssertionError(f"no legal option for {kind}")
    if len(options) == 1:
        return options[0].id
    # options can repeat when identical Kiwi stand together; they are the same choice
    seen: dict[str, Option] = {}
    for o in options:
        seen.setdefault(o.id, o)
    if len(seen) == 1:
        return options[0].id
    choice = yield Decision(player, kind, prompt, tuple(seen.values()))
    return choice
