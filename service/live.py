"""One running service game: the engine `Game`, its stored record, seats, bot seats, undo/redo, and what each
viewer may see (views and events rendered for that viewer, never the seed or the RNG).

Rebuilding: `Game.new(ruleset, players, seed, **setup)` then the recorded decisions in order; the engine is
deterministic, so this is the same game (a restart, an undo). Bot seats choose with a bot seeded from the game
seed and the decision number, so a bot's choice does not depend on the server's history (a restarted server
makes the same choice as one that never stopped).
"""
from __future__ import annotations

import hashlib
from typing import Any

from kcd.analysis.bots import make_bot
from kcd.engine import Game, labels
from kcd.core.events import FORMS, render, with_names
from kcd.content.rules import compile_rules
from kcd.apps.service.store import GameRecord

HUMAN, OPEN, BOT, KIWIBOT = "human", "open", "bot", "kiwibot"


class Refusal(Exception):
    """A request the game refuses: a protocol error code and a message; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def bot_seed(seed: int, n: int, flock: str) -> int:
    """The seed of the bot answering decision number n: fixed by the game, not by the server's past."""
    digest = hashlib.sha256(f"{seed}:{n}:{flock}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def content_names(ruleset: Any) -> dict[str, dict[str, str]]:
    """Display names by id of what events name: flocks, and Action cards, Season cards and Nests (`things`)."""
    rules = compile_rules(ruleset)
    things = {cid: labels.season_card_name(cid, card) for cid, card in rules.season_cards.items()}
    things.update({nid: labels.nest_name(nid, nest) for nid, nest in rules.nests.items()})
    things.update({cid: labels.card_name(cid, card) for cid, card in rules.cards.items()})   # an Action card's first
    return {"flocks": {i.id: str(i.data.get("name", i.id)) for i in ruleset.items("flocks")}, "things": things}


def named_text(event: Any, viewer: str | None, names: dict[str, dict[str, str]]) -> str:
    """The event's text for this viewer with names instead of ids (player or flock names, card and Nest names),
    through the same form and the same privacy rule as `text_for`."""
    if event.form is None:
        return str(event.text_for(viewer))
    return render(event.form, with_names(event.fields or {}, names["flocks"], names["things"]), viewer, event.player)


def event_for(event: Any, n: int, viewer: str | None, names: dict[str, dict[str, str]] | None = None) -> dict:
    """One event for the protocol: its number, kind, acting flock, its text for this viewer (the engine's
    `text_for`) and, with `names`, that text with names for ids (`named`), its form and the fields this viewer
    may see, and public data for tools."""
    out = {"n": n, "kind": event.kind, "player": event.player, "text": event.text_for(viewer)}
    if names is not None:
        out["named"] = named_text(event, viewer, names)
    if event.form is not None:
        out["form"] = event.form
        private = FORMS[event.form].private if viewer != event.player else ()
        out["fields"] = {k: v for k, v in (event.fields or {}).items() if k not in private}
    if event.data is not None and not (event.form is not None and FORMS[event.form].private
                                       and viewer != event.player):
        out["data"] = event.data
    return out


class LiveGame:
    """A game the server runs: the engine game plus its record."""

    def __init__(self, record: GameRecord, ruleset: Any) -> None:
        self.record = record
        self.ruleset = ruleset
        self.deciders: list[str] = []      # who answered each decision
        self.drew: list[bool] = []         # did each decision draw at random (undo is refused across a draw)
        self.game = self._rebuild(record.decisions)
        self._content_names = content_names(ruleset)
        self._undo_probe: tuple[int, str | None, str | None] | None = None   # (seq, flock, refusal) last probed

    # --- building -------------------------------------------------------------------------------
    def _rebuild(self, decisions: list[str]) -> Game:
        """The engine game after `decisions` (ValueError if one does not replay)."""
        setup = dict(self.record.setup)
        players = setup.pop("players")
        game = Game.new(self.ruleset, players, self.record.seed, **setup)
        deciders, drew = [], []
        for n, option in enumerate(decisions):
            if game.pending is None:
                raise ValueError(f"decision {n} ({option!r}) comes after the end of the game")
            deciders.append(game.pending.player)
            rng = game.state.rng
            result = game.apply(option)
            if not result.ok:
                raise ValueError(f"decision {n} ({option!r}) does not replay: {result.message}")
            drew.append(game.state.rng != rng)
        self.deciders, self.drew = deciders, drew
        return game

    # --- seats ----------------------------------------------------------------------------------
    def seat(self, flock: str) -> dict:
        """The seat of a flock."""
        for s in self.record.seats:
            if s["flock"] == flock:
                return s
        raise Refusal("unknown-seat", f"no seat `{flock}` in this game; seats: "
                      + ", ".join(s["flock"] for s in self.record.seats))

    @property
    def seq(self) -> int:
        """Decisions taken so far (each push and reply carries it)."""
        return len(self.record.decisions)

    def turn(self) -> str | None:
        """Whose decision is pending (None when over)."""
        return self.game.pending.player if self.game.pending else None

    def bot_to_move(self) -> dict | None:
        """The bot seat whose decision is pending, if any."""
        flock = self.turn()
        if flock is None:
            return None
        seat = self.seat(flock)
        return seat if seat["kind"] == BOT else None

    # --- deciding -------------------------------------------------------------------------------
    def apply(self, flock: str, option: str) -> int:
        """Apply `option` for `flock`; returns the decision's number. Refusal if the engine refuses."""
        pending = self.game.pending
        if pending is None:
            raise Refusal("game-over", "the game is over")
        if pending.player != flock:
            raise Refusal("not-your-turn", f"it is {pending.player}'s decision, not {flock}'s")
        rng = self.game.state.rng
        result = self.game.apply(option, player=flock)
        if not result.ok:
            raise Refusal(result.code, result.message)
        self.deciders.append(flock)
        self.drew.append(self.game.state.rng != rng)
        self.record.decisions.append(option)
        if self.record.redo and self.record.redo[-1] == option:
            self.record.redo.pop()
        else:
            self.record.redo.clear()
        self.record.over = self.game.is_over
        return len(self.record.decisions) - 1

    def bot_choice(self) -> tuple[str, str]:
        """(flock, option) the pending bot seat chooses."""
        seat = self.bot_to_move()
        assert seat is not None, "no bot to move"
        bot = make_bot(seat["bot"], bot_seed(self.record.seed, self.seq, seat["flock"]))
        return seat["flock"], bot.choose(self.game)

    def can_undo(self, flock: str | None) -> str | None:
        """None if `flock` may undo now as far as the service can tell cheaply, else the refusal code.

        A player takes back only their own latest decision, only while nobody else has decided since (others'
        decisions show what they hold), and never across a random draw. The engine's `Game.undo` then checks
        the rest of what the player saw since (a card drawn, a reveal: `revealed`) when the undo is asked.
        """
        if flock is None:
            return "spectator"
        if not self.record.decisions:
            return "nothing-to-undo"
        if self.deciders[-1] != flock:
            return "not-your-decision"
        if self.drew[-1]:
            return "random-draw"
        return None

    def undo(self, flock: str | None) -> None:
        """Take back `flock`'s latest decision through the engine's information-aware undo (Refusal otherwise)."""
        why = self.can_undo(flock)
        if why is not None:
            raise Refusal(why, UNDO_REASONS[why])
        result = self.game.undo()
        if not result.ok:
            raise Refusal(result.code, result.message)
        option = self.record.decisions.pop()
        self.deciders.pop()
        self.drew.pop()
        self.record.redo.append(option)
        self.record.over = False

    def can_redo(self, flock: str | None) -> str | None:
        """None if `flock` may redo now, else the refusal code."""
        if flock is None:
            return "spectator"
        if not self.record.redo:
            return "nothing-to-redo"
        if self.turn() != flock:
            return "not-your-turn"
        return None

    def redo_option(self, flock: str | None) -> str:
        """The option a redo re-applies (Refusal if none)."""
        why = self.can_redo(flock)
        if why is not None:
            raise Refusal(why, UNDO_REASONS[why])
        return self.record.redo[-1]

    def undo_refusal(self, flock: str | None) -> str | None:
        """None if `flock`'s undo would be taken now, else the refusal code: `can_undo`, then the engine's own
        check on a copy of the game (so a client can disable Undo when the engine would refuse: `revealed`).
        Probed once per decision and seat."""
        why = self.can_undo(flock)
        if why is not None:
            return why
        if self._undo_probe is None or self._undo_probe[:2] != (self.seq, flock):
            result = self.game.clone().undo()
            self._undo_probe = (self.seq, flock, None if result.ok else result.code)
        return self._undo_probe[2]

    def names(self) -> dict[str, dict[str, str]]:
        """Display names by id for events: the content's, with each named seat's player name for its flock."""
        flocks = dict(self._content_names["flocks"])
        for s in self.record.seats:
            if s.get("name"):
                flocks[s["flock"]] = s["name"]
        return {**self._content_names, "flocks": flocks}

    # --- what a viewer sees ----------------------------------------------------------------------
    def view(self, viewer: str | None) -> dict:
        """The protocol view for a seat (None: spectator): the engine's per-player view, options with their typed
        actions, seats, scores and undo state."""
        v = self.game.view(viewer)   # its `log` is already rendered for the viewer (Event.text_for)
        events = self.game.events
        pending, decision = v.get("pending"), self.game.pending
        if pending is not None and decision is not None:
            pending["options"] = [option_for(o) for o in (decision.options if viewer == pending["player"] else ())]
        v["seats"] = [{"flock": s["flock"], "kind": s["kind"], **({"bot": s["bot"]} if s.get("bot") else {}),
                       **({"name": s["name"]} if s.get("name") else {})} for s in self.record.seats]
        v["you"] = viewer
        v["seq"] = self.seq
        v["events"] = len(events)
        v["scores"] = self.game.scores()
        v["ranking"] = self.game.ranking() if self.game.is_over else None
        names = self.names()
        v["named_log"] = [named_text(e, viewer, names) for e in events[-len(v["log"]):]] if v["log"] else []
        v["can_undo"] = self.undo_refusal(viewer) is None
        v["can_redo"] = self.can_redo(viewer) is None
        return v

    def events_for(self, viewer: str | None, since: int) -> list[dict]:
        """Events from number `since` on, rendered for the viewer."""
        events = self.game.events
        names = self.names()
        return [event_for(events[n], n, viewer, names) for n in range(max(0, since), len(events))]

    def replay_view(self, viewer: str | None, at: int) -> dict:
        """The viewer's view as it was after `at` decisions (what they saw then, nothing more)."""
        twin = LiveGame.__new__(LiveGame)
        twin.ruleset = self.ruleset
        twin.record = GameRecord(**{**self.record.__dict__, "decisions": self.record.decisions[:at], "redo": []})
        twin.game = twin._rebuild(twin.record.decisions)
        twin._content_names, twin._undo_probe = self._content_names, None
        out = twin.view(viewer)
        out["can_undo"] = out["can_redo"] = False
        return out


def option_for(option: Any) -> dict:
    """An option for the protocol: id, label and its typed action (docs/ACTIONS.md) as JSON."""
    out = {"id": option.id, "label": option.label}
    if option.action is not None:
        out["action"] = option.action.to_dict()
    return out


UNDO_REASONS = {
    "spectator": "a spectator takes no decisions",
    "nothing-to-undo": "no decision has been taken yet",
    "not-your-decision": "the latest decision is not yours: you can undo only your own latest decision, "
                         "before anyone else decides",
    "random-draw": "a random draw (fruit, markers or a shuffle) happened since: it cannot be taken back",
    "nothing-to-redo": "there is no undone decision to redo",
    "not-your-turn": "it is not your decision",
}
