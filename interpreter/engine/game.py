"""The Game API: decisions in, events out; saves, replays, undo and redo.

    g = Game.new(ruleset, players=[flock_a, flock_b], seed=7)  # + leaders, leader_cards, sides, setup, variant
    while not g.is_over:
        d = g.pending                     # Decision(player, kind, prompt, options[Option(id, label)])
        g.apply(d.options[0].id)          # Applied(events) | Refused(code, message)
    g.scores(); g.ranking(); g.clone(); g.view(flock_a); text = g.to_json(); Game.from_json(ruleset, text)
    g.undo(); g.redo()                    # Applied | Refused("random-draw" | "revealed" | ...)

A game remembers where it came from (its seed and `Game.new` arguments, or the state `from_state` was given)
and every decision since: `history`. The same origin and history always give the same game, so a save holds
them, and `kcd replay` (and `from_json(verify=True)`) rebuild a game by replaying them.

Flow: the state names the current step (season, phase, step index: one player's turn, one Season Change
part, ...). The running step is a stack of program continuations (interpreter/engine/machine.py): plain data,
so `clone` copies the state and the stack and `to_json` writes the stack with the pending decision, which
`from_json` reads back with checks; nothing is replayed. Only an old save is rebuilt by replaying its history
(exact, since all randomness comes from the RNG inside the state): format 2 (no frames), format 3 (frames of the
engine before the rules machine) and a format-4 save written with `frames: null` by an engine that could not
write every stack; `Game.replayed_steps` counts these replays.
A question with one legal answer is answered automatically, so a pending Decision has >= 2 options, except
where the count depends on something hidden (a hand, face-down markers: `values.Ask.always`, docs/SECURITY.md).
"""
from __future__ import annotations

import dataclasses
import json
import re
import secrets
import warnings
from typing import TYPE_CHECKING, Any

from kcd.engine import flow, invariants, mode_registry as modes, save, scoring, setup, verbs  # noqa: F401 (verbs: every verb registered)
# the built-in modes register themselves on import (standard first: error messages list them in this order)
from kcd.modes import standard as _standard, solo as _solo, vto as _vto  # noqa: F401
from kcd.modes.base import Mode
from kcd.core.action_types import Action
from kcd.core import native
from kcd.engine.context import Ctx, EngineError, Runtime
from kcd.core.decisions import Applied, Decision, Event, Option, RefusalCode, Refused
from kcd.core.events import public_label
from kcd.engine import machine
from kcd.engine.machine import Cont as Entry
from kcd.engine.machine import Runner, copy_stack, stack_from_data, stack_to_data
from kcd.core.pieces import action_problem
from kcd.content.rules import RulesError, compile_rules
from kcd.core.state import State
from kcd.core.undo import information_since
from kcd.engine.view import view as make_view

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    import random

    from kcd.content.model import Ruleset

_ID = re.compile(r"^[a-z][a-z0-9-]*(:[A-Za-z0-9_./@>,+-]*)?$|^[a-z]+$")
FORMAT = save.FORMAT
# a refusal quotes at most this much of the id it refuses (an id may be any string a client sends, 100 KB too)
QUOTED_ID = 80
_UNSET: Any = object()   # `_advance` without a value handed over
# flow steps and resumptions one `apply` may run: far above any real turn (a few hundred), so
# only a broken state or content could reach it, and then `apply` stops with an EngineError, never loops
MAX_STEPS_PER_APPLY = 200_000
# what a save's replay may raise besides ValueError when its values are wrong (all become ValueError)
_REPLAY_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, EngineError, RulesError,
                  AssertionError, RecursionError, ZeroDivisionError)


# A step checkpoint is taken at once (`state.to_dict()`) at most this many decisions after the last one taken, so
# building one when it is read replays fewer decisions than this (about a millisecond, a few in solo games, whose
# Kiwibot turns run between the decisions); 16 would take twice as many copies (an estimated 1-2% of a random game)
CHECKPOINT_EVERY = 32
_NEVER = 1 << 62
# what a checkpoint built later replays in: the game's ruleset, mode, origin and island (`Game._source`)
Source = tuple[Any, Mode, dict[str, Any], Any]


class Checkpoint:
    """The state at the running step's start, read only by undo within a step and by saves (a load runs the step
    again from it).
    Taking it at every step start was a tenth of a random game, so most steps do not: a checkpoint not taken at once
    names the last one taken (`base`) and the decisions since (`history[base.start:start]`), and is built
    when first read by replaying them from it (exact: the flow is a function of the state,
    whose RNG it holds, and of the decisions). A game takes it at once when someone else may hold its state (see
    `Game._touched`), at its first step, and every CHECKPOINT_EVERY decisions. One taken at once is a private
    `State.copy()` (cheaper than its `to_dict()` data, which is written only when a save or a comparison reads it);
    one given as data (a save, `clone`'s caller) keeps that data."""

    __slots__ = ("_data", "_state", "start", "base", "history", "source")

    def __init__(self, data: dict[str, Any] | None, start: int, base: "Checkpoint | None" = None,
                 history: list[str] | None = None, source: "Source | None" = None,
                 state: State | None = None) -> None:
        self._data = data        # the state's `to_dict()` data: None until built (or never, when `_state` serves)
        self._state = state      # a private copy of the state, never changed (a checkpoint taken at once)
        self.start = start       # the step's start in the game's history (how many decisions came before it)
        self.base = base         # a checkpoint taken at once (when neither `data` nor `state` is known)
        self.history = history   # the game's history list: only ever appended to, so its first `start` stay
        self.source = source     # (ruleset, mode, origin, board) of the game, to replay in

    @classmethod
    def taken_of(cls, state: State, start: int) -> "Checkpoint":
        """A checkpoint taken at once of `state` (its own copy: the game goes on changing `state`)."""
        return cls(None, start, state=state.copy())

    @property
    def taken(self) -> bool:
        """True when the checkpoint holds its state (taken at once, or given as data), not a replay to build it."""
        return self._data is not None or self._state is not None

    def data(self) -> dict[str, Any]:
        """The state data at the step's start (built on first read)."""
        if self._data is None:
            self._data = self._state.to_dict() if self._state is not None else self._build()
            self.base = self.history = self.source = None
        return self._data

    def state(self) -> State:
        """A new State at the step's start, the caller's own (the island's Board is not set on it)."""
        if self._state is None and self._data is None:
            self.data()
        if self._state is not None:
            return self._state.copy()
        return State.from_dict(self._data)   # type: ignore[arg-type]  # built just above

    def _build(self) -> dict[str, Any]:
        base, history, source = self.base, self.history, self.source
        assert base is not None and history is not None and source is not None and base.taken
        ruleset, mode, origin, board = source
        state = base.state()
        state._board = board
        twin = Game(ruleset, state, None, checkpoint=base, origin=origin, mode=mode, history=history[:base.start],
                    own_state=True, exact_from=self.start)
        for option_id in history[base.start:self.start]:
            twin._since.append(option_id)
            twin._history.append(option_id)
            twin._advance(option_id)
        built = twin._checkpoint
        if built.start != self.start or not built.taken:   # an engine bug, never a bad input
            raise EngineError(f"the checkpoint of the step at decision {self.start} does not rebuild")
        return built.data()

    def same(self, other: "Checkpoint") -> bool:
        """True when both are known to be the same state without replaying to build either: the same object, equal
        data or states, or built from the same checkpoint by the same decisions (False may still be the same
        state)."""
        if self is other:
            return True
        if self.taken and other.taken:
            if self._state is not None and other._state is not None:
                # dataclass equality (hex and flock order are the same in two states of one game)
                return self._state == other._state
            return self.data() == other.data()
        if self.taken or other.taken or self.base is not other.base:
            return False
        assert self.history is not None and other.history is not None and self.base is not None
        return (self.start == other.start
                and self.history[self.base.start:self.start] == other.history[self.base.start:self.start])


_NO_CHECKPOINT = Checkpoint({}, 0)   # before the first step (a game built at its end has no step)


class Game:
    """One game of Kiwi Chow Down driven by decisions."""

    # how many times `from_json` had to replay a save's history to rebuild its running step: an old save (format 2,
    # format 3, or format 4 written without frames); clones and saves of this engine never replay
    replayed_steps: int = 0

    def __init__(self, ruleset: Any, state: State, events: list[Event] | None = None, *,
                 checkpoint: "dict[str, Any] | Checkpoint | None" = None, origin: dict[str, Any] | None = None,
                 mode: Any = None,
                 history: list[str] | None = None, own_state: bool = False, exact_from: int | None = None) -> None:
        """Wrap a state positioned at the start of a step (use `new`, `from_state` or `from_json`).

        checkpoint: `state.to_dict()` when the caller already has it (`clone`), so it is not computed again.
        origin: where the game came from, {"seed", "setup"} (Game.new) or {"start"} (a state); default: `state`.
        mode: the game's mode (interpreter/modes); default: the one the state shows.
        (Internal: `history` the decisions that led to `state`; `own_state` when no caller keeps a reference to
        `state`, so it changes only through the flow; `exact_from` takes every checkpoint from that many decisions
        on at once, see `Checkpoint`.)
        """
        self.ruleset = ruleset
        self.rules = compile_rules(ruleset)
        if isinstance(checkpoint, dict):
            checkpoint = Checkpoint(checkpoint, len(history or ()))
        if origin is None:
            origin = {"seed": None, "setup": None,
                      "start": checkpoint.data() if checkpoint is not None else state.to_dict()}
        self._origin = origin                 # never changed once set: clones share it
        self._rt = Runtime(self.rules, state, list(events or []), mode)
        self._stack: list[Entry] = []          # the running step: continuations (machine.py)
        self._runner = Runner(self._rt, self._stack, MAX_STEPS_PER_APPLY)
        self._pending: Decision | None = None
        self._previous: Decision | None = None
        self._known_checkpoint = checkpoint   # used for the step the state starts at, then dropped
        self._checkpoint: Checkpoint = _NO_CHECKPOINT
        self._checkpoint_events = 0
        # the last checkpoint taken at once since which the state changed only through the flow (None: none, so
        # the next is taken at once); `_touched`: someone else may hold the state (`state`, `rt`, a state handed
        # in) and change it, so every checkpoint is taken at once
        trusted = own_state and checkpoint is not None and checkpoint.taken
        self._base: Checkpoint | None = checkpoint if trusted else None
        self._touched = not own_state
        self._exact_from = _NEVER if exact_from is None else exact_from
        self._since: list[str] = []
        self._history: list[str] = list(history) if history else []   # every decision since the origin
        self._redo: list[str] = []            # undone decisions, the next to redo last
        self._log_from: int | None = None     # loaded from frames: the log before this many decisions is not built
        self._loaded_step = False             # loaded from frames and still in the step of the save
        self._advance(None)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, ruleset: Ruleset, players: list[str], seed: int | None = None,
            leaders: dict[str, str] | None = None, leader_cards: dict[str, str] | None = None,
            sides: dict[str, str] | None = None, setup: str = "first-game",
            variant: str | None = None, mode: str = "standard", solo_side: str | None = None,
            engine: str | None = None) -> "Game":
        """A new game: players are flock ids in seat order (seat 1 is the First Player).

        variant: None for the standard game, "vto" for Variable Turn Order (R-VTO-1..5).
        mode "solo": players=[player_flock, kiwibot_flock], a game against Kiwibot (R-SOLO-1..12); Kiwibot
        sits at solo.yaml `setup.kiwibot_seat` and never has a pending decision; solo_side is a Solo-mode
        marker side id (None: dealt from the seed). Leaders not given (Kiwibot's always) are dealt at random.

        seed None draws a 64-bit seed from the operating system (`secrets`): a small or guessable seed lets a
        player who sees their own first view try seeds until one reproduces it, and so read everyone's hands
        and deck orders. Simulations, bots and tests pass a seed to be reproducible; `game.seed` tells it.

        engine: "native" or "python" (None: the default, kcd.core.native); the same decisions either way, and
        not part of the save.
        """
        engine = native.resolve(engine)
        if seed is None:
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be a whole number, got {seed!r}")
        seed &= (1 << 64) - 1
        rules = compile_rules(ruleset)
        state = _setup_state(rules, players, seed, leaders, leader_cards, sides, setup, variant, mode, solo_side)
        native.bind(state.params, engine)
        args = {"players": list(players), "leaders": _plain(leaders), "leader_cards": _plain(leader_cards),
                "sides": _plain(sides), "setup": setup, "variant": variant, "mode": mode, "solo_side": solo_side}
        return cls(ruleset, state, origin={"seed": seed, "setup": args, "start": None}, own_state=True)

    @classmethod
    def from_state(cls, ruleset: Ruleset, state: State, seed: int | None = None) -> "Game":
        """A game continuing from a hand-built state (positions, tests); the state's phase/step start next."""
        if seed is not None:
            state.rng = int(seed) & ((1 << 64) - 1)
        if not state.params:
            state.params = setup.params_of(compile_rules(ruleset))
        start = state.to_dict()
        return cls(ruleset, state, checkpoint=start, origin={"seed": seed, "setup": None, "start": start})

    @classmethod
    def from_json(cls, ruleset: Any, text: str | bytes, verify: bool = False) -> "Game":
        """Load a save written by `to_json`; any bad save raises ValueError with a clear message.

        Checked in order, each bounded in time: the JSON (size, depth, integers only), the schema
        (schemas/save.schema.json), the content hash, the engine's invariants on every state it holds
        (interpreter/engine/save.py), then the running step is rebuilt from the saved frames and pending
        decision, each continuation checked against the state (no replay). Events are not saved: the log is rebuilt
        from the history when first read. An old save without frames (format 2, or format 4 written with `frames:
        null` by an engine that could not write every stack) or with format-3 frames is rebuilt by replaying the
        history from its origin, which must reach the saved checkpoint and state exactly; `verify=True` does that for
        every save (and compares the frames too), so a save whose history does not lead to its state is refused
        (`kcd replay` reports where).
        """
        try:
            return cls._load(ruleset, text, verify)
        except RecursionError:   # deep JSON that the parser accepted but a comparison could not walk
            raise ValueError("not a saved Kiwi Chow Down game: JSON nested too deeply") from None

    @classmethod
    def _load(cls, ruleset: Any, text: str | bytes, verify: bool = False) -> "Game":
        """`from_json` without its RecursionError guard."""
        data = save.parse(text)
        own_hash = getattr(ruleset, "hash", None)
        saved_hash = data.get("content_hash")
        if not isinstance(saved_hash, str) or not saved_hash:
            raise ValueError("save has no content hash (`content_hash`): it cannot show it was made with this "
                             "content, so it is not loaded")
        if own_hash is not None and saved_hash != own_hash:
            # the same decisions under other rules would be a different game: refuse rather than diverge
            raise ValueError(f"this game was saved with another ruleset (content hash {saved_hash[:12]}…, "
                             f"loaded content is {own_hash[:12]}…): load the same editions and mods")
        save.check_schema(data)
        rules = compile_rules(ruleset)
        params = setup.params_of(rules)
        states = {where: save.check_state(rules, data[where], where, params)
                  for where in ("start", "checkpoint", "state") if data.get(where) is not None}
        if (data["setup"] is None) == (data["start"] is None):
            raise ValueError("save needs exactly one origin: `setup` (with its seed) or `start`")
        if data["setup"] is not None and data["seed"] is None:
            raise ValueError("save has `setup` but no `seed`")
        if data["step_start"] > len(data["history"]):
            raise ValueError(f"save's step_start {data['step_start']} is past its {len(data['history'])} decisions")
        origin = {"seed": data["seed"], "setup": data["setup"], "start": data["start"]}
        if "start" in states:   # a position's start state: a step start too, nothing asked
            _check_invariants("start", states["start"], rules, None, origin)
        if data["setup"] is not None and sorted(data["setup"]["players"]) != sorted(data["state"]["seats"]):
            raise ValueError(f"save's setup does not replay to its state: the players {data['setup']['players']} "
                             f"are not the seats {data['state']['seats']}")
        # a format-3 save of frames (their kinds are program ids now): loaded by replaying its history
        old = data["format"] < 4 and machine.names_programs(data.get("frames"))
        if old:
            Game.replayed_steps += 1
            warnings.warn("a format-3 save of a running step the engine now runs as programs: its history is "
                          "replayed once (save it again to write format 4)", OldSaveWarning, stacklevel=3)
        if data.get("frames") is not None and not old:
            fast = cls._rebuild(ruleset, data, origin, states["state"])   # its checks, also when verified
            cls._check_step(ruleset, data, origin, states["checkpoint"], fast._rt.state)
            if not verify:
                return fast
        if data.get("frames") is None and data.get("pending") is not None:
            raise ValueError("save has a pending decision but no frames")
        if data.get("frames") is None:
            Game.replayed_steps += 1   # an old save without frames: its running step is rebuilt by replay
        game = cls._replay(ruleset, origin, data["history"])
        rebuilt_parts: list[tuple[str, Any]] = [("checkpoint", game._checkpoint.data()),
                                                ("state", game._rt.state.to_dict())]
        if data.get("frames") is not None:
            if not old:
                rebuilt_parts.append(("frames", stack_to_data(game._stack, game.rules)))
            rebuilt_parts.append(("pending", game._pending.to_dict() if game._pending else None))
        for where, rebuilt in rebuilt_parts:
            difference = _first_difference(data[where], rebuilt, where)
            if difference:
                raise ValueError(f"save's history does not replay to its {where}: {difference}")
        if game.step_start != data["step_start"]:
            raise ValueError(f"save's step_start {data['step_start']} is not where the running step began "
                             f"({game.step_start})")
        game._redo = list(data["redo"])
        if game._redo and game._redo[-1] not in game.pending_ids():
            raise ValueError(f"save's next redo {game._redo[-1]!r} is not an option of the pending decision")
        _check_invariants("state", game._rt.state, game.rules, game._pending, origin)
        return game

    @classmethod
    def _check_step(cls, ruleset: Any, data: dict[str, Any], origin: dict[str, Any], state: State,
                    saved: State) -> None:
        """The saved state (`saved`), frames and pending decision are exactly what the running step gives: the step
        is run again from the save's checkpoint (`state`, the state at its start, which must keep every invariant)
        with the step's decisions, each checked like `apply`. A few decisions, not the whole history; ValueError
        naming the first field that differs."""
        start = data["step_start"]
        history = data["history"]
        checkpoint = data["checkpoint"]
        rules = compile_rules(ruleset)
        _check_invariants("checkpoint", state, rules, None, origin)   # a step start: nothing asked
        try:
            twin = cls(ruleset, state, checkpoint=Checkpoint(checkpoint, start), origin=origin,
                       history=history[:start], own_state=True)
            for i, option_id in enumerate(history[start:]):
                result = twin._apply(option_id, None)
                if isinstance(result, Refused):
                    raise save.SaveError(f"save's history/{start + i}, {quoted(option_id)}, is not an option of the "
                                         f"running step from its checkpoint: {result.code}: {result.message}")
            frames = stack_to_data(twin._stack, twin.rules)
        except save.SaveError:
            raise
        except _REPLAY_ERRORS as exc:
            raise ValueError(f"save's checkpoint does not run to its state: {type(exc).__name__}: "
                             f"{save._short(str(exc))}") from None
        if twin.step_start != start:
            raise ValueError(f"save's step_start {start}: from its checkpoint the running step begins at decision "
                             f"{twin.step_start}")
        if twin._rt.state != saved:   # (the data, and the walk that names the place, only for a difference)
            raise ValueError(f"save's state is not what its checkpoint and the running step's decisions give: "
                             f"{_first_difference(data['state'], twin._rt.state.to_dict(), 'state')}")
        for where, rebuilt in (("frames", frames),
                               ("pending", twin._pending.to_dict() if twin._pending is not None else None)):
            if data[where] != rebuilt:
                raise ValueError(f"save's {where} is not what its checkpoint and the running step's decisions give: "
                                 f"{_first_difference(data[where], rebuilt, where)}")

    @classmethod
    def _rebuild(cls, ruleset: Any, data: dict[str, Any], origin: dict[str, Any], state: State) -> "Game":
        """A game from a save's `state` (its data already checked), frames and pending decision (no replay; every
        part already checked or checked here). Its event log is rebuilt from the history when first read."""
        rules = compile_rules(ruleset)
        try:
            mode = modes.for_state(state)
        except modes.ModeError as exc:
            raise ValueError(f"save's state: {exc}") from None
        game = cls.__new__(cls)
        game.ruleset, game.rules, game._origin = ruleset, rules, origin
        game._rt = Runtime(rules, state, [], mode)
        stack = stack_from_data(data["frames"], rules) if data["frames"] else []
        for i, frame in enumerate(stack):
            _check_players(frame, state)
            try:
                machine.check_entry(frame, game._rt)
            except ValueError as exc:   # a frame's own check names what is wrong; the save's field is added
                raise ValueError(f"save's frames/{i}: {exc}") from None
        if state.over != (not stack) or state.over != (data.get("pending") is None):
            raise ValueError("save's frames and pending decision do not match its state: frames and a decision "
                             "while the game runs, neither once it is over")
        for i, frame in enumerate(stack):
            waits = machine.entry_waits(frame)
            if waits is not None and waits != (i == len(stack) - 1):
                raise ValueError(f"save's frames/{i} ({machine.entry_kind(frame)}, {machine.entry_step(frame)}) "
                                 f"{'waits for an answer below the top' if waits else 'is on top but asks nothing'}")
        game._stack = stack
        game._runner = Runner(game._rt, stack, MAX_STEPS_PER_APPLY)
        game._pending = None if data.get("pending") is None else save.decision_from_data(data["pending"], state.seats)
        for o in game._pending.options if game._pending is not None else ():
            if (problem := action_problem(state, o.action)) is not None:   # the pieces an option names exist
                raise ValueError(f"save's pending decision: {problem}")
        if game._pending is not None:   # a decision of a kind the top frame asks at its step (`ask_kinds`)
            _check_asked(stack[-1], len(stack) - 1, game._pending)
        if game._pending is not None:
            try:   # the asking entry's own check: the decision is the one it asks
                machine.check_pending(stack[-1], game._rt, game._pending)
            except ValueError as exc:
                raise ValueError(f"save's pending decision: {exc}") from None
        previous = data.get("previous")
        game._previous = None if previous is None else Decision("", "", "", tuple(Option(i, "") for i in previous))
        game._known_checkpoint = None
        game._checkpoint = Checkpoint(data["checkpoint"], data["step_start"])
        game._checkpoint_events = 0
        game._base = None                   # the saved checkpoint is not known to lead to the state: not a base
        game._touched, game._exact_from = False, _NEVER
        history = list(data["history"])
        game._since = history[data["step_start"]:]
        game._history = history
        game._redo = list(data["redo"])
        game._log_from = len(history)       # the log before this point is rebuilt when first read
        game._loaded_step = True            # still in the step the save was made in (see _fill_log)
        if game._redo and game._redo[-1] not in game.pending_ids():
            raise ValueError(f"save's next redo {game._redo[-1]!r} is not an option of the pending decision")
        _check_invariants("state", game._rt.state, game.rules, game._pending, origin)
        return game

    def _fill_log(self) -> None:
        """Rebuild the event log of a game loaded from frames: events are not saved, so the history up to the load
        is replayed once, when the log is first read (a history that does not replay leaves that part empty)."""
        if self._log_from is None:
            return
        upto, self._log_from = self._log_from, None
        try:
            earlier = Game._replay(self.ruleset, self._origin, self._history[:upto])
        except ValueError:
            return
        self._rt.events[0:0] = earlier._rt.events
        if self._loaded_step:
            self._checkpoint_events = earlier._checkpoint_events
        else:
            self._checkpoint_events += len(earlier._rt.events)

    @classmethod
    def _start(cls, ruleset: Any, origin: dict[str, Any]) -> "Game":
        """A game at its origin, before any decision."""
        if origin["setup"] is not None:
            return cls.new(ruleset, seed=origin["seed"], **origin["setup"])
        start = State.from_dict(origin["start"])
        return cls(ruleset, start, checkpoint=origin["start"], origin=origin, own_state=True)

    @classmethod
    def _replay(cls, ruleset: Ruleset, origin: dict[str, Any], history: list[str]) -> "Game":
        """The game after `history` from `origin` (each decision checked like `apply`), or ValueError."""
        try:
            game = cls._start(ruleset, origin)
            for i, option_id in enumerate(history):
                result = game.apply(option_id)
                if isinstance(result, Refused):
                    raise save.SaveError(f"decision {i + 1} of the history, {option_id!r}, does not replay: "
                                         f"{result.code}: {result.message}")
        except save.SaveError:
            raise
        except _REPLAY_ERRORS as exc:
            raise ValueError(f"save does not replay: {type(exc).__name__}: {save._short(str(exc))}") from None
        return game

    def clone(self, events: bool = True, *, keep_rng: bool = True, rng: "random.Random | None" = None) -> "Game":
        """An independent copy at the same point: the state and the running step's continuations are copied (never a
        replay).

        events=False does not copy the event log (a lookahead that never reads the history, e.g. a bot
        trying options, saves the copy): the copy's log holds only the events since the step's start.
        Its state, pending decision, history and saved decisions are the same either way.

        keep_rng=False gives the copy a new RNG state, drawn from `rng` (a searcher's own `random.Random`; None:
        the operating system), so a search on the copy does not know the game's future draws (deck orders after a
        reshuffle, bag draws). The copy is then another game with the same past: it does not `undo` or replay to
        the original's states.
        """
        twin = self._copy(events)
        if not keep_rng:
            # through `state`: the copy's checkpoints are taken at once from now on, never replayed from its base
            twin.state.rng = rng.getrandbits(64) if rng is not None else secrets.randbits(64)
        return twin

    def _copy(self, events: bool) -> "Game":
        """`clone`: the state, the frame stack (one memo) and the bookkeeping, copied."""
        stack = copy_stack(self._stack)
        if events:
            self._fill_log()
        twin = Game.__new__(Game)
        rt = self._rt
        state = rt.state.copy()
        state._board = rt.state._board   # the island's geometry never changes: share it, don't rebuild it
        log = rt.events.copy() if events else rt.events[self._checkpoint_events:]
        twin.ruleset, twin.rules, twin._origin = self.ruleset, self.rules, self._origin
        twin._rt = Runtime(self.rules, state, log, rt.mode, rt.verbs)
        twin._stack = stack
        twin._runner = Runner(twin._rt, stack, MAX_STEPS_PER_APPLY)
        twin._pending, twin._previous = self._pending, self._previous
        twin._known_checkpoint = None
        twin._checkpoint = self._checkpoint                     # never changed once taken: shared
        # the copy's state is its own; but what someone else did to this game's state since its base is not in it
        twin._base = None if self._touched else self._base
        twin._touched, twin._exact_from = False, self._exact_from
        twin._checkpoint_events = self._checkpoint_events if events else 0
        twin._since, twin._history, twin._redo = self._since.copy(), self._history.copy(), self._redo.copy()
        twin._log_from, twin._loaded_step = self._log_from, self._loaded_step
        return twin

    def _rewind(self, keep: int) -> "Game":
        """A copy at the running step's checkpoint with its first `keep` decisions replayed (undo within the step).

        In the step a save was loaded in, the checkpoint and the step's decisions come from the save, so they are
        replayed with `apply`'s checks (ValueError when they do not replay)."""
        self._fill_log()
        if self._loaded_step:
            twin = Game._replay(self.ruleset, self._origin, self._history[:self.step_start + keep])
            if twin.step_start != self.step_start:
                raise ValueError("the save's history does not replay to its running step")
            return twin
        state = self._checkpoint.state()
        state._board = self._rt.state._board   # the island's geometry never changes: share it, don't rebuild it
        # the checkpoint dict is never changed once taken, so the twin may share it
        twin = Game(self.ruleset, state, self._rt.events[:self._checkpoint_events],
                    checkpoint=self._checkpoint, origin=self._origin, mode=self._rt.mode,
                    history=self._history[:self.step_start], own_state=True)
        for option_id in self._since[:keep]:
            # the options were legal when applied here, so the replay skips `apply`'s checks
            twin._previous = twin._pending
            twin._since.append(option_id)
            twin._history.append(option_id)
            twin._advance(option_id)
        return twin

    def _source(self) -> "Source":
        """What a checkpoint built later replays in: (ruleset, mode, origin, board)."""
        rt = self._rt
        return self.ruleset, rt.mode, self._origin, rt.state._board

    # --- driving --------------------------------------------------------------------------------
    def _advance(self, answer: str | None, value: Any = _UNSET) -> None:
        """Run the flow until the next real decision or the end (at most MAX_STEPS_PER_APPLY steps).

        The running step is the stack of continuations (interpreter/engine/machine.py); `answer` is the option id
        chosen for the pending decision, handed to the continuation that asked as its action."""
        rt = self._rt
        stack = self._stack
        runner = self._runner   # drives `stack`; a fresh budget for this apply
        if value is _UNSET:   # `_apply` hands the value over, found with the legality check
            value = None if answer is None or self._pending is None else runner.value_of(self._pending, answer)
        runner.budget = runner.limit
        while True:
            if not stack:
                runner.tick()
                if rt.state.over:
                    self._pending = None
                    return
                procedure = flow.step_procedure(rt)
                if procedure is None:
                    self._known_checkpoint = None
                    flow.advance(rt)
                    continue
                # a checkpoint at each step start: undo within the step and saves read it;
                # most are built only when read (see `Checkpoint`)
                known, self._known_checkpoint = self._known_checkpoint, None
                if known is None:
                    n = len(self._history)
                    base = self._base
                    if (base is None or self._touched or n - base.start >= CHECKPOINT_EVERY
                            or n >= self._exact_from):
                        known = self._base = Checkpoint.taken_of(rt.state, n)
                    else:
                        known = Checkpoint(None, n, base, self._history, self._source())
                self._checkpoint = known
                self._checkpoint_events = len(rt.events)
                self._since = []
                self._loaded_step = False
                stack.append(procedure)
                value = None
            decision = runner.run(value)
            if decision is None:   # the step's procedure returned
                rt.state.step += 1
                value = None
                continue
            answer = rt.mode.answer(rt, decision)
            if answer is not None:
                # the mode answers at once (solo: Kiwibot by its patterns, so it never has a pending decision,
                # R-SOLO-7); a replay (undo, a load's check) asks it again and gets the same answer from the same state
                if answer not in decision.index():
                    raise EngineError(f"Kiwibot answered {answer!r} to {decision.kind}, not one of its options")
                chosen = next(o for o in decision.options if o.id == answer)
                rt.emit("kiwibot-choice", decision.player, data={"kind": decision.kind, "option": answer},
                        decision=decision.kind, option=answer, label=chosen.label,
                        public_label=public_label(chosen.action, chosen.label))
                value = runner.value_of(decision, answer)
                continue
            self._pending = decision
            return

    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an answer, or None when the game is over."""
        return self._pending

    def pending_ids(self) -> list[str]:
        """The option ids of the pending decision (empty when over)."""
        return self._pending.option_ids() if self._pending else []

    @property
    def step_depth(self) -> int:
        """Decisions answered since the current step began: what loading a save runs again from the step's checkpoint
        to check it, and undo within the step replays."""
        return len(self._since)

    @property
    def step_start(self) -> int:
        """Index in `history` of the first decision of the running step."""
        return len(self._history) - len(self._since)

    @property
    def history(self) -> list[str]:
        """Every decision since the game's origin, as option ids (a copy)."""
        return list(self._history)

    @property
    def seed(self) -> int | None:
        """The game's seed (None for a game built from a state without one)."""
        seed: int | None = self._origin["seed"]
        return seed

    def legal_options(self) -> list[Option[Action]]:
        """The legal options of the pending decision (empty when over)."""
        return list(self._pending.options) if self._pending else []

    def apply(self, option_id: "str | Action", player: str | None = None) -> Applied | Refused:
        """Answer the pending decision with an option id or a typed action (docs/ACTIONS.md); a refusal changes
        nothing. Clears what `redo` would re-apply. A typed action must be exactly an offered option's action,
        every field (the piece id a Kiwi is named by too): identical Kiwi in one hex are one choice, offered once,
        naming one of them."""
        action = None
        if type(option_id) is not str and isinstance(option_id, Action):
            action, option_id = option_id, option_id.id()
        result = self._apply(option_id, player, action)
        if result.ok and self._redo:
            self._redo = []
        return result

    def _apply(self, option_id: str, player: str | None, action: Action | None = None) -> Applied | Refused:
        if self._pending is None:
            return Refused(RefusalCode.GAME_OVER, "the game is over")
        pending = self._pending
        # an offered id is well formed (the engine writes them); only an id no option has is checked, and no
        # refused id is kept: a client may send any string
        chosen = pending.index().get(option_id) if isinstance(option_id, str) else None
        if chosen is None and (not isinstance(option_id, str) or not _ID.match(option_id)):
            return Refused(RefusalCode.MALFORMED, f"not an option id: {quoted(option_id)}")
        if player is not None and player != pending.player:
            return Refused(RefusalCode.WRONG_PLAYER, f"it is {quoted(pending.player)}'s decision, not {quoted(player)}'s")
        if chosen is None:
            if self._previous is not None and option_id in self._previous.index():
                return Refused(RefusalCode.STALE,
                               f"{quoted(option_id)} answered an earlier decision; now: {pending.prompt}")
            return Refused(RefusalCode.ILLEGAL, f"{quoted(option_id)} is not a legal option of {pending.kind}")
        if action is not None and action != chosen.action:
            return Refused(RefusalCode.ILLEGAL,
                           f"{quoted(option_id)} is offered, but not as {_differences(action, chosen.action)}")
        events = self._rt.events
        start = len(events)
        self._previous = pending
        self._since.append(option_id)
        self._history.append(option_id)
        # the value the asking frame resumes with, from the option just looked up (`Runner.value_of`)
        self._advance(option_id, chosen.action)
        return Applied(events[start:])

    # --- undo and redo --------------------------------------------------------------------------
    def undo(self, force: bool = False) -> Applied | Refused:
        """Step back to the previous decision: it is pending again for the player who made it.

        Refused, with the state untouched, when since that decision a random draw happened (the state's RNG
        moved: `random-draw`) or something hidden was shown to that player (a card drawn, a Solo card or
        Season card turned up, reserves revealed: `revealed`), unless `force` (hotseat play, tests);
        `nothing-to-undo` at the start. Design: the game is rebuilt from the history rather than kept
        snapshots, so undo costs nothing during play and memory stays flat: within the running step from its
        checkpoint (a fraction of a millisecond), else from the origin (the replay `kcd replay` uses, a few
        milliseconds), fine at human speed. Copying the game (state and frames, as `clone` does) before every
        decision would make undo replay-free but cost every game a copy per decision, bots and simulations that
        never undo included; the step's frames are not enough alone, since a frame keeps no earlier values.
        """
        if not self._history:
            return Refused(RefusalCode.NOTHING_TO_UNDO, "no decision to undo")
        try:
            if len(self._since) >= 2:   # the decision before it is in this step too, so `_previous` is rebuilt
                target = self._rewind(len(self._since) - 1)
            else:
                target = Game._replay(self.ruleset, self._origin, self._history[:-1])
        except ValueError as exc:
            return Refused(RefusalCode.HISTORY, f"the history does not replay: {exc}")
        assert target.pending is not None   # the decision being undone was asked there
        player = target.pending.player
        reason = information_since(target, self, player)
        if reason is not None and not force:
            return Refused(reason[0], reason[1])
        redo = self._redo + [self._history[-1]]
        self.__dict__.update(target.__dict__)
        self._redo = redo
        return Applied([])

    def redo(self) -> Applied | Refused:
        """Re-apply the last undone decision (`nothing-to-redo` when none); its events are returned."""
        if not self._redo:
            return Refused(RefusalCode.NOTHING_TO_REDO, "no undone decision to redo")
        result = self._apply(self._redo[-1], None)
        if result.ok:
            self._redo.pop()
        return result

    @property
    def can_redo(self) -> bool:
        """True when `redo` has an undone decision to re-apply."""
        return bool(self._redo)

    # --- results --------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The live state (read it; change it only through `apply`)."""
        self._touched = True   # the caller may change it: from now on every step checkpoint is taken at once
        return self._rt.state

    @property
    def readonly_state(self) -> State:
        """The live state for a reader that never changes it (observation encoders): unlike `state`, reading it
        keeps the game's checkpoints lazy (`_touched`), so the game runs as fast as one nobody reads."""
        return self._rt.state

    @property
    def rt(self) -> Runtime:
        """The runtime (rules, state, event log, mode) the flow runs on."""
        self._touched = True   # it holds the state (see `state`)
        return self._rt

    @property
    def events(self) -> list[Event]:
        """The whole event log."""
        self._fill_log()
        return self._rt.events

    @property
    def mode(self) -> "Mode":
        """The game's mode (interpreter/modes: the standard game, Variable Turn Order, solo, a plug-in)."""
        mode: Mode = self._rt.mode
        return mode

    @property
    def is_over(self) -> bool:
        """True after the last Domain Marking."""
        return self._rt.state.over

    def scores(self) -> dict[str, dict[str, int]]:
        """{flock: {domain, nests, season_cards, total}} (R-END-2); solo games add `solo` (R-SOLO-6, see scoring)."""
        return scoring.score(self._rt.state)

    def ranking(self) -> list[str]:
        """Flocks from first to last: total, then the R-END-3 tiebreakers."""
        return scoring.ranking(self._rt.state)

    def view(self, player: str | None = None) -> dict[str, Any]:
        """What `player` may see (None: a spectator)."""
        self._fill_log()
        return make_view(self._rt, player, self._pending)

    def to_json(self) -> str:
        """The save (format 4, schemas/save.schema.json): format, content hash, seed and setup (or start state), the
        whole history, the redo list, the running step's checkpoint, the state, and the running step itself (its
        continuations and the pending decision); deterministic text."""
        frames = stack_to_data(self._stack, self.rules)
        pending = self._pending.to_dict() if self._pending is not None else None
        previous = self._previous.option_ids() if self._previous is not None else None
        return json.dumps({
            "format": FORMAT, "content_hash": getattr(self.ruleset, "hash", None),
            "seed": self._origin["seed"], "setup": self._origin["setup"], "start": self._origin["start"],
            "history": self._history, "redo": self._redo, "step_start": self.step_start,
            "checkpoint": self._checkpoint.data(), "state": self._rt.state.to_dict(),
            "frames": frames, "pending": pending, "previous": previous,
        }, separators=(",", ":"))  # no sort_keys: bag dict order drives draws, so it must survive a reload


def _check_invariants(where: str, state: State, rules: Any, pending: Decision | None,
                      origin: dict[str, Any]) -> None:
    """ValueError naming the field when a loaded state (`where`: state, checkpoint) with the decision it waits for
    breaks an invariant of interpreter/engine/invariants.py (a game from a position may lack Leaders it never had)."""
    start = origin.get("start")
    leaderless = {f["id"] for f in start["flocks"] if f["leader_hex"] is None} if start is not None else set()
    problems = invariants.violations(state, rules, pending, leaderless)
    if problems:
        raise save.SaveError(f"save's {where} is impossible: {where}/{save._short(problems[0])}")


def quoted(value: Any) -> str:
    """`repr(value)` cut to its first QUOTED_ID characters and an ellipsis: refusals echo what they refuse, boundedly."""
    text = repr(value) if isinstance(value, str) else repr(value)[:QUOTED_ID + 1]
    return text if len(text) <= QUOTED_ID else text[:QUOTED_ID] + "…"


def _differences(given: Action, offered: "Action | None") -> str:
    """The fields in which a typed action differs from the offered option's (a refusal's words)."""
    if offered is None or type(given) is not type(offered):
        return f"a `{given.kind}` action (the option is a `{getattr(offered, 'kind', None)}` action)"
    pairs = ((f.name, getattr(given, f.name), getattr(offered, f.name)) for f in dataclasses.fields(given))
    wrong = [f"{name} {quoted(mine)} (offered: {quoted(theirs)})" for name, mine, theirs in pairs if mine != theirs]
    return "given: " + "; ".join(wrong)


class OldSaveWarning(UserWarning):
    """A save of an older format was loaded by replaying its history (it loads; saving it again upgrades it)."""


def _check_players(frame: Any, state: State) -> None:
    """Every flock a loaded frame or continuation names (its `flock`/`owner` values, each Ctx's flock) is playing."""
    for name, value in machine.entry_values(frame):
        flock = value.flock if isinstance(value, Ctx) else value if name in ("flock", "owner") and value else None
        if flock is not None and flock not in state.flocks:
            raise ValueError(f"save's frames: {machine.entry_kind(frame)} names `{str(flock)[:40]}`, who is not playing")


def _check_asked(frame: Any, i: int, decision: Decision) -> None:
    """A loaded pending decision is of a kind the top entry asks where it waits (a program's Ask `kinds`, a frame's
    `ask_kinds`), and each of its options is an action that kind offers: a decision the entry cannot be waiting for
    is refused here, not when it resumes with an answer of another kind. Frames that declare no `ask_kinds`
    (compose) check their own."""
    at_step = machine.entry_ask_kinds(frame)
    if at_step is None:
        return
    actions = at_step.get(decision.kind)
    kind = machine.entry_kind(frame)
    if actions is None:
        raise ValueError(f"save's pending decision is a `{decision.kind[:40]}` decision, but frames/{i} ({kind}, "
                         f"{machine.entry_step(frame)}) asks {' or '.join(f'`{k}`' for k in at_step) or 'nothing'} "
                         "there")
    for n, o in enumerate(decision.options):
        if o.action is None or o.action.kind not in actions:
            raise ValueError(f"save's pending option {n + 1}: `{o.id[:40]}` is not an answer to a "
                             f"`{decision.kind}` decision of {kind}")


def _plain(mapping: dict[str, Any] | None) -> dict[str, Any] | None:
    """A Game.new mapping argument as plain JSON data (None stays None)."""
    return None if mapping is None else {str(k): v for k, v in dict(mapping).items()}


def _first_difference(saved: Any, rebuilt: Any, path: str) -> str | None:
    """Where two JSON values first differ, e.g. `state/flocks/0/fruit`, or None when equal."""
    if type(saved) is not type(rebuilt):
        return f"{path}: saved {save._short(repr(saved))}, replayed {save._short(repr(rebuilt))}"
    if isinstance(saved, dict):
        for key in list(rebuilt) + [k for k in saved if k not in rebuilt]:
            if key not in saved or key not in rebuilt:
                return f"{path}/{key}: present in only one of the save and the replay"
            found = _first_difference(saved[key], rebuilt[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(saved, list):
        for i, (a, b) in enumerate(zip(saved, rebuilt)):
            found = _first_difference(a, b, f"{path}/{i}")
            if found:
                return found
        if len(saved) != len(rebuilt):
            return f"{path}: {len(saved)} items saved, {len(rebuilt)} replayed"
        return None
    if saved != rebuilt:
        return f"{path}: saved {save._short(repr(saved))}, replayed {save._short(repr(rebuilt))}"
    return None

def _setup_state(rules: Any, players: list[str], seed: int, leaders: dict[str, str] | None,
                 leader_cards: dict[str, str] | None, sides: dict[str, str] | None, mode: str,
                 variant: str | None = None, game_mode: str = "standard", solo_side: str | None = None) -> State:
    # a helper because Game.new's `setup` argument hides the setup module there
    return setup.new_state(rules, list(players), seed, leaders, leader_cards, sides, mode, variant,
                           game_mode=game_mode, solo_side=solo_side)
