"""`kcd play --human SEAT`: a person plays one seat against bots in the terminal.

Built on the service protocol in-process (a `Hub` with an in-memory store), the same operations a web or Node
client uses: create, join, apply, undo, redo. Each decision shows the view as text and the numbered options;
type a number to choose, `u` to undo, `r` to redo, `v` to show the whole view again, `q` to quit.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable, TextIO

from service.hub import Hub, Limits
from service.store import SQLiteStore

HELP = "Type an option's number, u (undo), r (redo), v (show the view), q (quit)."


class Terminal:
    """One human seat played at a terminal through the protocol."""

    def __init__(self, hub: Hub, out: TextIO, ask: Callable[[str], str]) -> None:
        self.hub, self.out, self.ask = hub, out, ask
        self.conn = hub.connect(lambda message: None)   # reads views itself after each step
        self.cursor = 0
        self.catalogue: dict = {}

    def call(self, op: str, **fields: Any) -> dict:
        """One protocol request; bots move right after it, as in the server."""
        reply = self.hub.handle(self.conn, json.dumps({"protocol": 1, "op": op, **fields}))
        self.hub.flush()
        for game_id in self.hub.bots_due():
            while self.hub.bot_step(game_id):
                pass
        return reply

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def play(self, create: dict, seat: str) -> int:
        """Create the game, then play `seat` to the end; the exit code (0 finished, 1 quit or input ended)."""
        made = self.call("create", **create)
        if not made["ok"]:
            self.say(f"error: {made['error']['message']}")
            return 2
        cat = self.call("content", content=create.get("content") or {})
        self.catalogue = cat.get("catalogue", {})
        token = made["tokens"][seat]
        self.say(f"You play {seat}. " + HELP)
        while True:
            view = self.call("view", token=token)["view"]
            self.show_log(token)
            if view["over"]:
                self.show(view)
                self.say("The game is over. Final scores: " + ", ".join(
                    f"{i + 1}. {f} {view['scores'][f]['total']} VP" for i, f in enumerate(view["ranking"])))
                return 0
            self.show(view, brief=True)
            options = view["pending"]["options"]
            for i, option in enumerate(options, start=1):
                self.say(f"  {i:2}. {option['label']}")
            marks = (" u=undo" if view["can_undo"] else "") + (" r=redo" if view["can_redo"] else "")
            try:
                answer = self.ask(f"{view['pending']['prompt']} [1-{len(options)}{marks} v q]: ").strip().lower()
            except EOFError:
                self.say("\ninput ended: the game is left unfinished")
                return 1
            if answer in ("q", "quit"):
                self.say("You left the game.")
                return 1
            if answer in ("u", "r"):
                reply = self.call("undo" if answer == "u" else "redo", token=token)
                self.say("Undone." if reply["ok"] and answer == "u" else "Redone." if reply["ok"]
                         else f"Refused: {reply['error']['message']}")
                if reply["ok"] and answer == "u":   # the log was shortened: go on from its new end
                    self.cursor = self.call("view", token=token)["view"]["events"]
                continue
            if answer in ("v", "view"):
                self.show(view)
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(options):
                self.say(f"Not an option: {answer!r}. {HELP}")
                continue
            reply = self.call("apply", token=token, option=options[int(answer) - 1]["id"])
            if not reply["ok"]:
                self.say(f"Refused: {reply['error']['message']}")

    def show_log(self, token: str) -> None:
        """The events since last shown (others' moves included), rendered for this seat."""
        reply = self.call("events", token=token, since=self.cursor)
        for event in reply["events"]:
            self.say(f"  · {event['text']}")
        self.cursor = reply["next"]

    def show(self, view: dict, brief: bool = False) -> None:
        """The view as text: status, own hand, fruit and markers, scores; the island unless brief."""
        me = view["flocks"].get(view["you"], {})
        cards = {c["id"]: c["name"] for c in self.catalogue.get("action_cards", [])}
        seasons = {c["id"]: c["name"] for c in self.catalogue.get("season_cards", [])}
        current = next((c["id"] for c in view["season_cards"] if c["season"] == view["season"]), None)
        self.say(f"== Season {view['season']}, {view['phase'].replace('_', ' ')}; Season card: "
                 f"{seasons.get(current, current)} ==")
        if not brief:
            for hex_id, h in view["hexes"].items():
                things = [f"{k['flock']}:{k['size']}" for k in h["kiwi"]] + [f"{f} Leader" for f in h["leaders"]]
                if h["nest"]:
                    things.append(f"{h['nest']['flock']} nest {h['nest']['id']}")
                if h["domain"]:
                    things.append(f"{h['domain']['flock']} marker")
                self.say(f"  {hex_id:>4} {h['terrain']:<9} {', '.join(things)}")
        fruit = ", ".join(f"{c} {n}" for c, n in me.get("fruit", {}).items() if n) or "none"
        self.say(f"  Hand: {', '.join(cards.get(c, c) for c in me.get('hand', [])) or 'empty'} | Fruit: {fruit} | "
                 f"Markers: {', '.join(me.get('domain', [])) or 'none'}")
        self.say("  Scores: " + ", ".join(f"{f} {s['total']}" for f, s in view["scores"].items()))


def _ask(prompt: str) -> str:
    """Read an answer; echo it when input is not a terminal, so a piped session reads like a typed one."""
    answer = input(prompt)
    if not sys.stdin.isatty():
        print(answer)
    return answer


def play_human(create: dict, seat: str, out: TextIO, ask: Callable[[str], str] = _ask,
               content_root: Any = None) -> int:
    """Play `seat` of the game `create` describes (protocol `create` fields) at the terminal."""
    hub = Hub(SQLiteStore(), Limits(messages_per_second=1e6, burst=10**6), content_root=content_root)
    return Terminal(hub, out, ask).play(create, seat)


def human_command(human: str, flocks: list[str], bots: list[str], seed: int, editions: list[str] | None,
                  mods: list[str] | None, variant: str | None, mode: str, solo_side: str | None,
                  content_root: Any, out: TextIO) -> int:
    """`kcd play --human SEAT`: SEAT is a flock of the game or a seat number; the other seats take the bots of
    --bots in seat order (the last one repeats). Exit 2 (usage error) on a seat that is not in the game."""
    seat = flocks[int(human) - 1] if human.isdigit() and 1 <= int(human) <= len(flocks) else human
    if seat not in flocks or (mode == "solo" and seat != flocks[0]):
        choices = flocks[:1] if mode == "solo" else flocks
        from interpreter.cli_errors import fail

        fail(f"--human {human}: not a seat of this game; seats: {', '.join(choices)} (or 1-{len(choices)})")
    others = iter(bots)
    seats, last = [], bots[-1]
    for i, flock in enumerate(flocks):
        if mode == "solo" and i == 1:
            seats.append({"flock": flock, "kind": "kiwibot"})
        elif flock == seat:
            seats.append({"flock": flock, "kind": "human"})
        else:
            last = next(others, last)
            seats.append({"flock": flock, "kind": "bot", "bot": last})
    create = {"seats": seats, "seed": seed, "mode": mode,
              "content": {"editions": list(editions or []), "mods": list(mods or [])}}
    if variant:
        create["variant"] = variant
    if solo_side:
        create["solo_side"] = solo_side
    return play_human(create, seat, out, content_root=content_root)
