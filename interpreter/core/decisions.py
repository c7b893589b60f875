"""Decision values: what a player is asked (Decision, Option) and what `apply` answers (Applied, Refused).

Procedures are programs of the rules machine (interpreter/engine/machine.py): an Ask's question becomes a Decision,
and the procedure resumes with the chosen option's typed action (interpreter/core/action_types.py). A question
with a single legal option is answered automatically (it is not a decision), so a pending Decision offers at least
two options, except where whether to ask must not tell others something hidden (`values.Ask.always`: a hand of
identical cards, face-down markers of one terrain); then one option may be pending.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Generic, Literal, Protocol, Sequence, Tuple, TypeVar, Union

from kcd.core.action_types import Action
from kcd.core.events import OWNER, render
from kcd.core.fastinit import fast_init, frozen_slots


# the kind of action an option carries, so an answer read from an option is typed as the actions offered
ActT = TypeVar("ActT", bound=Action, covariant=True)
ActU = TypeVar("ActU", bound=Action)
K = TypeVar("K")
V = TypeVar("V")


class ActionKind(Protocol[ActT]):
    """An action kind class with `id_of` (every kind but `may` and `pay`): builds its action from the field
    values, and writes the action's id from them without building it."""

    def __call__(self, *values: Any, **fields: Any) -> ActT: ...

    def id_of(self, *values: Any, **fields: Any) -> str: ...


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Option(Generic[ActT]):
    """One legal answer: a stable readable id (the action in the grammar of docs/ACTIONS.md), a label, and the
    typed action itself (`action.id() == id`). Frozen, and equal by id and label.

    Its fields never change once made: `stored_label` is the label as given (a `Text`, which `label` reads as its
    string each time), and `act` is the action or, for the widest kinds, (its kind class, its field values), which
    `action` builds when read: a move decision offers dozens of options, only one is chosen and bots read no label,
    so neither is built for the rest. With slots, not a `__dict__`: options are shared between decisions and games
    (`SharedOptionCaches`), so thousands live on in a process, and each is one object for the garbage collector to
    walk instead of two."""

    id: str
    stored_label: "Text"
    act: "ActT | tuple[ActionKind[ActT], tuple[Any, ...]] | None" = None

    @property
    def label(self) -> str:
        """The label's string (built from the stored `Text` on each read; bots and the game loop read none)."""
        value = self.stored_label
        return value if type(value) is str else _text(value)

    @property
    def action(self) -> "ActT | None":
        """The typed action (docs/ACTIONS.md); `action.id() == id`. Built on each read when stored as its kind
        and values: equal every time, though not the same object."""
        act = self.act
        if isinstance(act, tuple):
            return act[0](*act[1])
        return act

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.id == other.id and self.label == other.label

    def __hash__(self) -> int:
        return hash((self.id, self.label))

    def __repr__(self) -> str:
        return f"Option(id={self.id!r}, label={self.label!r}, act={self.act!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Option, (self.id, self.label, self.action))


frozen_slots(Option)


# Labels, prompts and event texts are built only when read (a view, the CLI, the editor, a log): a move decision
# offers dozens of options and only one is chosen, and bots never read a label. So `Option.label` and
# `Decision.prompt` may be given as a `Text`: a plain string, `(template, args)` for `template.format(*args)`, or a
# callable of no arguments; reading the attribute gives the string (a label on each read, a prompt once, then kept),
# exactly the same text.
# An arg of a template may itself be a callable (`labels.lazy(effects.describe, node)`): it is called when read.
Text = Union[str, Tuple[str, Tuple[Any, ...]], Callable[[], str]]


def _text(value: Text) -> str:
    """The string of a `Text` (see above)."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        template, args = value
        return template.format(*[a() if callable(a) else a for a in args])
    return value()


def _lazy(name: str) -> property:
    """A read-only attribute `name` stored as a `Text` and read as its string (built on first read, then kept)."""
    def read(self: Any) -> str:
        value = self.__dict__[name]
        if type(value) is not str:
            value = self.__dict__[name] = _text(value)
        return value
    return property(read, doc=f"The {name}, built on first read.")


class SharedOptionCaches:
    """The caches of options the engine shares between decisions and games. An option is a value (frozen; its label
    and action read the same for every reader), so where a key determines an option entirely
    (a Kiwi's Move to a neighbour, the Feed of a Kiwi) it is made once and offered again: making and freeing the
    options of wide decisions was most of a random game's allocations. Each cache is a plain dict (read with `get`,
    in the hot loops) written through `keep`, which starts it again when it holds its limit; `clear` empties them all
    (tests that compare games played with the caches empty and full)."""

    def __init__(self) -> None:
        self._caches: list[dict[Any, Any]] = []
        self._limits: dict[int, int] = {}   # id(cache) -> its limit (the caches live as long as the process)

    def new(self, limit: int) -> dict[Any, Any]:
        """A new bounded cache, registered (a module writes `_X = shared_option_caches.new(5_000)`)."""
        cache: dict[Any, Any] = {}
        self._caches.append(cache)
        self._limits[id(cache)] = limit
        return cache

    def register(self, cache: dict[K, V]) -> dict[K, V]:
        """Add a cache the module bounds itself (returned)."""
        self._caches.append(cache)
        return cache

    def limit(self, cache: dict[Any, Any]) -> int:
        """The limit of a cache made by `new`."""
        return self._limits[id(cache)]

    def keep(self, cache: dict[K, V], key: K, value: V) -> V:
        """Store `value` under `key` in a cache made by `new` (emptying it first when it is full); `value` is returned."""
        if len(cache) >= self._limits[id(cache)]:
            cache.clear()
        cache[key] = value
        return value

    def clear(self) -> None:
        """Empty every registered cache."""
        for cache in self._caches:
            cache.clear()


shared_option_caches = SharedOptionCaches()


def option(action: ActU, label: Text) -> Option[ActU]:
    """The option that performs `action`; its id is the action's id."""
    return Option(action.id(), label, action)   # a Text: `label` is built when read


_SHARED: dict[tuple[ActionKind[Action], tuple[Any, ...], Text], Option[Any]] = shared_option_caches.new(20_000)


def shared_option(kind: ActionKind[ActU], values: tuple[Any, ...], label: Text) -> Option[ActU]:
    """`lazy_option(kind, values, label)`, the same option each time for the same arguments (`SharedOptionCaches`):
    for a label given as a string or a template with plain values, which the key then determines."""
    key = (kind, values, label)
    found = _SHARED.get(key)
    return shared_option_caches.keep(_SHARED, key, lazy_option(kind, values, label)) if found is None else found


def lazy_option(kind: ActionKind[ActU], values: tuple[Any, ...], label: Text) -> Option[ActU]:
    """`option(kind(*values), label)` without building the action until someone reads it."""
    return Option(kind.id_of(*values), label, (kind, values))   # the label is a Text, built when read


@fast_init
@dataclass(frozen=True)
class Decision:
    """A question to one player: its kind, a prompt (a `Text`, built when read) and the legal options."""

    player: str
    kind: str
    prompt: str
    options: tuple[Option[Action], ...]

    def option_ids(self) -> list[str]:
        """The ids of the legal options."""
        return [o.id for o in self.options]

    def index(self) -> "dict[str, Option[Action]]":
        """{option id: option}, the first option of an id kept, in the options' order (built once; the runner hands
        it over when it has it)."""
        found = self.__dict__.get("_index")
        if found is None:
            found = self.__dict__["_index"] = distinct_index(self.options)
        return found

    def to_dict(self) -> dict[str, Any]:
        """Plain data for views and JSON."""
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt,
                "options": [{"id": o.id, "label": o.label,
                             **({"action": o.action.to_dict()} if o.action is not None else {})}
                            for o in self.options]}

    def action_of(self, option_id: str) -> "Action | None":
        """The action of the option with this id (None when no option has it)."""
        o = self.index().get(option_id)
        return None if o is None else o.action


Decision.prompt = _lazy("prompt")   # type: ignore[assignment]


@fast_init
@dataclass(frozen=True)
class Event:
    """One line of the game log. `form` names its sentence in interpreter/core/events.py FORMS and `fields`
    holds its typed values; `text` is the full text (the event's player and the owner's log), `text_for(viewer)`
    the text one viewer may read. `data` is an optional structured payload for tools (e.g. a Season card's
    result), so they never parse the readable `text`."""

    kind: str
    text: str            # given as None by `Runtime.emit`: rendered from `form` and `fields` when first read
    player: str | None = None
    data: dict[str, Any] | None = field(default=None, hash=False)
    form: str | None = field(default=None, compare=False)
    fields: dict[str, Any] | None = field(default=None, hash=False, compare=False)

    def text_for(self, viewer: str | None) -> str:
        """The text `viewer` (a flock, None for a spectator) may read: private fields only for the event's player."""
        if self.form is None:
            return self.text
        return render(self.form, self.fields or {}, viewer, self.player)

    def to_data(self) -> dict[str, Any]:
        """The event as typed data for tools: kind, form, player, fields (and `data` when present)."""
        out: dict[str, Any] = {"kind": self.kind, "form": self.form, "player": self.player, "fields": self.fields}
        if self.data is not None:
            out["data"] = self.data
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain data (`data` only when the event has a payload, so plain log lines stay small)."""
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "player": self.player}
        if self.data is not None:
            out["data"] = self.data
        return out


def _event_text(self: Event) -> str:
    """The full text (the event's own player and the owner's log): rendered from the form on first read."""
    text: str | None = self.__dict__["text"]
    if text is None:
        text = self.__dict__["text"] = render(self.form or "", self.fields or {}, OWNER, self.player)
    return text


Event.text = property(_event_text, doc="The full text, rendered from the form's fields on first read.")   # type: ignore[assignment]


class RefusalCode(StrEnum):
    """Why `apply`, `undo` or `redo` refused; a string (its value), so JSON and comparisons with the text work."""

    GAME_OVER = "game-over"             # no decision is pending
    MALFORMED = "malformed"             # not an option id at all
    WRONG_PLAYER = "wrong-player"       # the decision is another player's
    STALE = "stale"                     # an option of the decision before this one
    ILLEGAL = "illegal"                 # not an option of this decision, or not as offered (typed actions)
    NOTHING_TO_UNDO = "nothing-to-undo"
    NOTHING_TO_REDO = "nothing-to-redo"
    HISTORY = "history"                 # the history no longer replays
    RANDOM_DRAW = "random-draw"         # undo: something was drawn at random since
    REVEALED = "revealed"               # undo: something hidden was shown to the player since


@frozen_slots   # one per `apply`: the quick constructor
@dataclass(frozen=True, slots=True)
class Applied:
    """The option was applied; the events it produced."""

    events: list[Event]
    ok: Literal[True] = True   # the tag: `if result.ok` narrows `Applied | Refused` for the type checker


@frozen_slots
@dataclass(frozen=True, slots=True)
class Refused:
    """The option was refused; nothing changed. Why (`code`) and in words (`message`)."""

    code: RefusalCode
    message: str
    ok: Literal[False] = False



def distinct(options: "Sequence[Option[ActU]]") -> tuple[Option[ActU], ...]:
    """The options with each id once, the first kept: options repeat when identical Kiwi stand together, and
    they are the same choice."""
    return tuple(distinct_index(options).values())


def distinct_index(options: "Sequence[Option[ActU]]") -> dict[str, Option[ActU]]:
    """{id: option} with each id once, the first option of an id kept, in the options' order (`distinct`)."""
    index = {o.id: o for o in options}   # the usual case: no id twice (then each id's one option is kept)
    if len(index) != len(options):
        index = {}
        for o in options:
            index.setdefault(o.id, o)
    return index
