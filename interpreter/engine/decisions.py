"""Decision values: what a player is asked (Decision, Option) and what `apply` answers (Applied, Refused).

Procedures are generators: they `yield from ask(...)` and receive the chosen option id. A question with
a single legal option is answered automatically (it is not a decision), so every pending Decision
offers at least two options.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generator

if TYPE_CHECKING:
    from interpreter.engine.action_types import Action


@dataclass(frozen=True)
class Option:
    """One legal answer: a stable readable id (the action in the grammar of docs/ACTIONS.md), a label, and the
    typed action itself (`action.id() == id`)."""

    id: str
    label: str
    action: "Action | None" = None


def option(action: "Action", label: str) -> Option:
    """The option that performs `action`; its id is the action's id."""
    return Option(action.id(), label, action)


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
                "options": [{"id": o.id, "label": o.label,
                             **({"action": o.action.to_dict()} if o.action is not None else {})}
                            for o in self.options]}

    def action_of(self, option_id: str) -> "Action | None":
        """The action of the option with this id (None when no option has it)."""
        for o in self.options:
            if o.id == option_id:
                return o.action
        return None


@dataclass(frozen=True)
class Event:
    """One line of the game log. `form` names its sentence in interpreter/engine/events.py FORMS and `fields`
    holds its typed values; `text` is the full text (the event's player and the owner's log), `text_for(viewer)`
    the text one viewer may read. `data` is an optional structured payload for tools (e.g. a Season card's
    result), so they never parse the readable `text`."""

    kind: str
    text: str
    player: str | None = None
    data: dict | None = field(default=None, hash=False)
    form: str | None = field(default=None, compare=False)
    fields: dict | None = field(default=None, hash=False, compare=False)

    def text_for(self, viewer: str | None) -> str:
        """The text `viewer` (a flock, None for a spectator) may read: private fields only for the event's player."""
        if self.form is None:
            return self.text
        from interpreter.engine.events import render
        return render(self.form, self.fields or {}, viewer, self.player)

    def to_data(self) -> dict:
        """The event as typed data for tools: kind, form, player, fields (and `data` when present)."""
        out = {"kind": self.kind, "form": self.form, "player": self.player, "fields": self.fields}
        if self.data is not None:
            out["data"] = self.data
        return out

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


def ask_action(player: str, kind: str, prompt: str, options: list[Option]) -> Generator[Decision, str, "Action"]:
    """`ask`, returning the chosen option's action (of the first option with the chosen id: identical Kiwi in
    one hex share an id and are one choice)."""
    choice = yield from ask(player, kind, prompt, options)
    for o in options:
        if o.id == choice:
            assert o.action is not None, f"option {o.id} of {kind} has no action"
            return o.action
    raise AssertionError(f"{choice!r} is not an option of {kind}")
