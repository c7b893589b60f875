"""The Game API: decisions in, events out; JSON save and load at any moment.

    g = Game.new(ruleset, players=[flock_a, flock_b], seed=7)  # + leaders, leader_cards, sides, setup, variant
    while not g.is_over:
        d = g.pending                     # Decision(player, kind, prompt, options[Option(id, label)])
        g.apply(d.options[0].id)          # Applied(events) | Refused(code, message)
    g.scores(); g.ranking(); g.clone(); g.view(flock_a); text = g.to_json(); Game.from_json(ruleset, text)

Flow: the state names the current step (season, phase, step index: one player's turn, one Season
Change part, ...). At the start of every step the engine checkpoints the state (plain data) and keeps
the option ids applied since. `to_json` is {state, checkpoint,
decisions_since, events}; `from_json` restores the checkpoint and replays the decisions, which
rebuilds the running step exactly (all randomness comes from the RNG inside the state).
A question with one legal answer is answered automatically, so a pending Decision has >= 2 options.
"""
from __future__ import annotations

import json
import re
from typing import Any, Generator

from interpreter.engine import flow, scoring, setup, solo
from interpreter.engine.context import EngineError, Runtime
from interpreter.engine.decisions import Applied, Decision, Event, Option, Refused
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.engine.view import view as make_view

_ID = re.compile(r"^[a-z][a-z0-9-]*(:[A-Za-z0-9_./@>,+-]*)?$|^[a-z]+$")
FORMAT = 1


class Game:
    """One game of Kiwi Chow Down driven by decisions."""

    def __init__(self, ruleset: Any, state: State, events: list[Event] | None = None, *,
                 checkpoint: dict | None = None) -> None:
        """Wrap a state positioned at the start of a step (use `new`, `from_state` or `from_json`).

        checkpoint: `state.to_dict()` when the caller already has it (`clone`), so it is not computed again.
        """
        self.ruleset = ruleset
        self.rules = compile_rules(ruleset)
        self.rt = Runtime(self.rules, state, list(events or []))
        self._gen: Generator | None = None
        self._pending: Decision | None = None
        self._previous: Decision | None = None
        self._known_checkpoint = checkpoint   # used for the step the state starts at, then dropped
        self._checkpoint: dict = {}
        self._checkpoint_events = 0
        self._since: list[str] = []
        self._advance(None)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, ruleset: Any, players: list[str], seed: int = 0, leaders: dict | None = None,
            leader_cards: dict | None = None, sides: dict | None = None, setup: str = "first-game",
            variant: str | None = None, mode: str = "standard", solo_side: str | None = None) -> "Game":
        """A new game: players are flock ids in seat order (seat 1 is the First Player).

        variant: None for the standard game, "vto" for Variable Turn Order (R-VTO-1..5).
        mode "solo": players=[player_flock, kiwibot_flock], a game against Kiwibot (R-SOLO-1..12); Kiwibot
        sits at solo.yaml `setup.kiwibot_seat` and never has a pending decision; solo_side is a Solo-mode
        marker side id (None: dealt from the seed). Leaders not given (Kiwibot's always) are dealt at random.
        """
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be a whole number, got {seed!r}")
        rules = compile_rules(ruleset)
        state = _setup_state(rules, players, seed, leaders, leader_cards, sides, setup, variant, mode, solo_side)
        return cls(ruleset, state)

    @classmethod
    def from_state(cls, ruleset: Any, state: State, seed: int | None = None) -> "Game":
        """A game continuing from a hand-built state (positions, tests); the state's phase/step start next."""
        if seed is not None:
            state.rng = int(seed) & ((1 << 64) - 1)
        if not state.params:
            state.params = setup.params_of(compile_rules(ruleset))
        return cls(ruleset, state)

    @classmethod
    def from_json(cls, ruleset: Any, text: str) -> "Game":
        """Load a saved game: restore the step checkpoint and replay the decisions since."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"not a saved Kiwi Chow Down game: {exc}") from exc
        if not isinstance(data, dict) or "state" not in data or "checkpoint" not in data:
            raise ValueError("not a saved Kiwi Chow Down game: expected the JSON written by Game.to_json()")
        saved_hash, own_hash = data.get("ruleset"), getattr(ruleset, "hash", None)
        if saved_hash and own_hash and saved_hash != own_hash:
            # the same decisions under other rules would be a different game: refuse rather than diverge
            raise ValueError(f"this game was saved with another ruleset (content hash {saved_hash[:12]}…, "
                             f"loaded content is {own_hash[:12]}…): load the same editions and mods")
        try:
            checkpoint = State.from_dict(data["checkpoint"])
            events = [Event(**e) for e in data["events"][:data["checkpoint_events"]]]
            decisions = list(data["decisions_since"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"not a saved Kiwi Chow Down game: {exc}") from exc
        game = cls(ruleset, checkpoint, events)
        for option_id in decisions:
            result = game.apply(option_id)
            if not result.ok:
                raise ValueError(f"saved decision {option_id!r} does not replay: {result.message}")
        if data.get("previous") is not None:
            prev = data["previous"]
            game._previous = Decision(prev["player"], prev["kind"], prev["prompt"],
                                      tuple(Option(o["id"], o["label"]) for o in prev["options"]))
        if game.rt.state.to_dict() != data["state"]:
            raise ValueError("saved game does not replay to its saved state (different ruleset?)")
        return game

    def clone(self, events: bool = True) -> "Game":
        """An independent copy at the same point (restores the step checkpoint and replays the step).

        events=False does not copy the event log (a lookahead that never reads the history, e.g. a bot
        trying options, saves the copy): the copy's log holds only the events since the step's start.
        Its state, pending decision and saved decisions are the same either way.
        """
        state = State.from_dict(self._checkpoint)
        state._board = self.rt.state._board   # the island's geometry never changes: share it, don't rebuild it
        # the checkpoint dict is never changed once taken, so the twin may share it
        twin = Game(self.ruleset, state, self.rt.events[:self._checkpoint_events] if events else None,
                    checkpoint=self._checkpoint)
        for option_id in self._since:
            # the options were legal when applied here, so the replay skips `apply`'s checks
            twin._previous = twin._pending
            twin._since.append(option_id)
            twin._advance(option_id)
        twin._previous = self._previous
        return twin

    # --- driving --------------------------------------------------------------------------------
    def _advance(self, answer: str | None) -> None:
        """Run the flow until the next real decision or the end."""
        rt = self.rt
        while True:
            if self._gen is None:
                if rt.state.over:
                    self._pending = None
                    return
                gen = flow.step_procedure(rt)
                if gen is None:
                    self._known_checkpoint = None
                    flow.advance(rt)
                    continue
                # a checkpoint at each step start; loading replays the (few) decisions of the step
                known, self._known_checkpoint = self._known_checkpoint, None
                self._checkpoint = known if known is not None else rt.state.to_dict()
                self._checkpoint_events = len(rt.events)
                self._since = []
                self._gen = gen
                answer = None
            try:
                decision = self._gen.send(answer) if answer is not None else next(self._gen)
            except StopIteration:
                self._gen = None
                rt.state.step += 1
                answer = None
                continue
            if rt.state.solo is not None and decision.player == rt.state.solo["bot"]:
                # solo: Kiwibot answers by its patterns at once, so it never has a pending decision (R-SOLO-7);
                # a replay (load, clone) asks it again and gets the same answer from the same state
                answer = solo.answer(rt, decision)
                if answer not in decision.option_ids():
                    raise EngineError(f"Kiwibot answered {answer!r} to {decision.kind}, not one of its options")
                rt.log("kiwibot-choice", f"Kiwibot: {next(o.label for o in decision.options if o.id == answer)}",
                       decision.player, data={"kind": decision.kind, "option": answer})
                continue
            self._pending = decision
            return

    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an answer, or None when the game is over."""
        return self._pending

    @property
    def step_depth(self) -> int:
        """Decisions answered since the current step began: what `clone` replays (a lookahead's cost per copy)."""
        return len(self._since)

    def legal_options(self) -> list[Option]:
        """The legal options of the pending decision (empty when over)."""
        return list(self._pending.options) if self._pending else []

    def apply(self, option_id: str, player: str | None = None) -> Applied | Refused:
        """Answer the pending decision; a refusal changes nothing."""
        if self._pending is None:
            return Refused("game-over", "the game is over")
        if not isinstance(option_id, str) or not _ID.match(option_id):
            return Refused("malformed", f"not an option id: {option_id!r}")
        if player is not None and player != self._pending.player:
            return Refused("wrong-player", f"it is {self._pending.player}'s decision, not {player}'s")
        ids = self._pending.option_ids()
        if option_id not in ids:
            if self._previous is not None and option_id in self._previous.option_ids():
                return Refused("stale", f"{option_id!r} answered an earlier decision; now: {self._pending.prompt}")
            return Refused("illegal", f"{option_id!r} is not a legal option of {self._pending.kind}")
        start = len(self.rt.events)
        self._previous = self._pending
        self._since.append(option_id)
        self._advance(option_id)
        return Applied(self.rt.events[start:])

    # --- results --------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The live state (read it; change it only through `apply`)."""
        return self.rt.state

    @property
    def events(self) -> list[Event]:
        """The whole event log."""
        return self.rt.events

    @property
    def is_over(self) -> bool:
        """True after the last Domain Marking."""
        return self.rt.state.over

    def scores(self) -> dict[str, dict[str, int]]:
        """{flock: {domain, nests, season_cards, total}} (R-END-2); solo games add `solo` (R-SOLO-6, see scoring)."""
        return scoring.score(self.rt.state)

    def ranking(self) -> list[str]:
        """Flocks from first to last: total, then the R-END-3 tiebreakers."""
        return scoring.ranking(self.rt.state)

    def view(self, player: str | None = None) -> dict:
        """What `player` may see (None: a spectator)."""
        return make_view(self.rt, player, self._pending)

    def to_json(self) -> str:
        """The whole game as JSON text (deterministic)."""
        return json.dumps({
            "format": FORMAT, "ruleset": getattr(self.ruleset, "hash", None),
            "state": self.rt.state.to_dict(), "checkpoint": self._checkpoint, "checkpoint_events": self._checkpoint_events,
            "decisions_since": list(self._since), "events": [e.to_dict() for e in self.rt.events],
            "previous": self._previous.to_dict() if self._previous else None,
        }, separators=(",", ":"))  # no sort_keys: bag dict order drives draws, so it must survive a reload


def _setup_state(rules, players, seed, leaders, leader_cards, sides, mode, variant=None, game_mode="standard",
                 solo_side=None) -> State:
    # a helper because Game.new's `setup` argument hides the setup module there
    return setup.new_state(rules, list(players), seed, leaders, leader_cards, sides, mode, variant,
                           game_mode=game_mode, solo_side=solo_side)
