"""`kcd play --human SEAT`: a person plays one seat against bots in the terminal.

Built on the service protocol in-process (a `Hub` with an in-memory store), the same operations a web or Node
client uses: create, join, apply, undo, redo. Each decision shows the events since (with names: players, cards,
Nests), the island as an ASCII hex map (`hex_map`: coordinates, Kiwi, Leaders, Nests and domain markers; only
what the seat's view holds, so nothing hidden), the seat's hand and the numbered options. A big decision (more
than `TWO_STEP` options) is asked in two steps: which piece, then where. Type a number to choose, `u` to undo,
`r` to redo, `v` to show the whole view again, `b` to go back a step, `q` to quit (exit 0).
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable, TextIO

from kcd.apps.service.hub import Hub, Limits
from kcd.apps.service.store import SQLiteStore

HELP = "Type an option's number, u (undo), r (redo), v (show the view), q (quit)."
TWO_STEP = 12          # more options than this: first which piece, then where
QUIT, EOF, BACK = "quit", "eof", "back"   # answers that are not a choice (never compared with an option id)
CELL = 8               # characters a hex takes on the map; rows shift by half of it


def flock_letters(flocks: list[str]) -> dict[str, str]:
    """One lower-case letter per flock for the map: the first letter of its id not yet taken (then any free one)."""
    out: dict[str, str] = {}
    for flock in flocks:
        free = [c for c in flock.lower() + "abcdefghijklmnopqrstuvwxyz" if c.isalpha() and c not in out.values()]
        out[flock] = free[0]
    return out


def _fits(text: str, encoding: str | None) -> bool:
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def hex_map(view: dict, catalogue: dict, encoding: str | None = "utf-8") -> list[str]:
    """The island as text: one cell per hex at its axial place (rows shifted by half a cell), lines per row:
    `A7 gra` (coordinates and terrain), the Kiwi stacks, a line per flock (`r12` = red stacks of sizes 1 and 2),
    then Leaders (`R*`),
    the Nest (its type's glyph from content, then the owner's letter) and the domain marker (`#r`). Then a legend.
    Everything comes from the seat's view, so what the seat may not see is not there to draw."""
    hexes = view["hexes"]
    flocks = [f["id"] for f in catalogue.get("flocks", [])] or sorted({k["flock"] for h in hexes.values()
                                                                       for k in h["kiwi"]})
    letter = flock_letters(flocks)
    glyphs = {}
    for n in catalogue.get("nests", []):
        glyph = n.get("glyph") or str(n.get("type", "?"))[:1].upper()
        glyphs[n["id"]] = glyph if _fits(glyph, encoding) else str(n.get("type", "?"))[:1].upper()
    xs = {hid: 2 * h["q"] + h["r"] for hid, h in hexes.items()}
    left = min(xs.values(), default=0)
    rows: dict[int, list[str]] = {}
    for hid, h in hexes.items():
        rows.setdefault(h["r"], []).append(hid)
    lines = []
    half = CELL // 2
    for r in sorted(rows):
        cells = {}
        for hid in rows[r]:
            h = hexes[hid]
            stacks: dict[str, str] = {}
            for k in h["kiwi"]:
                stacks[k["flock"]] = stacks.get(k["flock"], "") + str(k["size"])
            things = "".join(letter.get(f, "?").upper() + "*" for f in h["leaders"])
            if h["nest"]:
                things += glyphs.get(h["nest"]["id"], "N") + letter.get(h["nest"]["flock"], "?")
            if h["domain"]:
                things += "#" + letter.get(h["domain"]["flock"], "?")
            # one line per flock's stacks, so a crowded hex never runs into its neighbour
            cells[hid] = [f"{hid} {h['terrain'][:3]}"] + [letter.get(f, "?") + sizes for f, sizes in stacks.items()]
            cells[hid].append(things)
        height = 2 + max(max(len(c) - 2 for c in cells.values()), 1)
        width = max((xs[hid] - left) * half + CELL for hid in rows[r])
        canvas = [[" "] * width for _ in range(height)]
        for hid, texts in cells.items():
            texts = texts[:-1] + [""] * (height - len(texts)) + texts[-1:]
            at = (xs[hid] - left) * half
            for i, text in enumerate(texts):
                text = text if len(text) < CELL else text[:CELL - 2] + "+"
                for j, ch in enumerate(text):
                    canvas[i][at + j] = ch
        lines += ["".join(row).rstrip() for row in canvas]
    names = {f["id"]: f.get("name", f["id"]) for f in catalogue.get("flocks", [])}
    seated = [s["flock"] for s in view.get("seats", [])] or list(view.get("turn_order", []))
    legend = ", ".join(f"{letter.get(f, '?')} {names.get(f, f)}" for f in seated)
    nest_types: dict[Any, str] = {}
    for n in catalogue.get("nests", []):
        nest_types.setdefault(n.get("type"), glyphs[n["id"]])
    lines.append(f"Flocks: {legend}.")
    lines.append("Kiwi: flock letter + sizes (r12: sizes 1, 2). R*: Leader. #r: domain marker.")
    lines.append("Nests: " + ", ".join(f"{g} {t}" for t, g in nest_types.items()) + ", then the owner's letter.")
    return lines


def option_groups(options: list[dict]) -> list[tuple[str, list[dict]]]:
    """The options grouped by what they move (its typed action's piece and start hex: `kiwi` or the Leader, and
    `hex`, for actions that also have a `to`), in first-seen order; an option that moves nothing is a group of its
    own. Each group's label names the piece and where it stands."""
    groups: dict[Any, tuple[str, list[dict]]] = {}
    for o in options:
        a = o.get("action") or {}
        if "to" in a and "hex" in a:
            key: Any = (a.get("kind"), a.get("kiwi"), a["hex"])
            piece = f"your size-{a['size']} Kiwi" if "size" in a and "kiwi" in a else "your Leader"
            # the action kind's verb (`move`, `move-leader`: Move; `push`: Push), without the piece's noun
            verb = " ".join(w for w in str(a.get("kind", "move")).split("-") if w not in ("leader", "kiwi"))
            label = f"{(verb or 'move').capitalize()} {piece} from {a['hex']}"
        else:
            key, label = ("single", o["id"]), o["label"]
        groups.setdefault(key, (label, []))[1].append(o)
    return list(groups.values())


class Terminal:
    """One human seat played at a terminal through the protocol."""

    def __init__(self, hub: Hub, out: TextIO, ask: Callable[[str], str]) -> None:
        self.hub, self.out, self.ask = hub, out, ask
        self.conn = hub.connect(lambda message: None)   # reads views itself after each step
        self.cursor = 0
        self.catalogue: dict = {}
        self.token = ""
        self.shown_map: list[str] = []

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
        """Create the game, then play `seat` to the end; the exit code (0 finished or quit, 1 input ended)."""
        made = self.call("create", **create)
        if not made["ok"]:
            self.say(f"error: {made['error']['message']}")
            return 2
        cat = self.call("content", content=create.get("content") or {})
        self.catalogue = cat.get("catalogue", {})
        token = self.token = made["tokens"][seat]
        self.say(f"You play {seat}. " + HELP)
        while True:
            view = self.call("view", token=token)["view"]
            self.show_log(token)
            if view["over"]:
                self.show(view)
                names = {f["id"]: f.get("name", f["id"]) for f in self.catalogue.get("flocks", [])}
                self.say("The game is over. Final scores: " + ", ".join(
                    f"{i + 1}. {names.get(f, f)} {view['scores'][f]['total']} VP" for i, f in enumerate(view["ranking"])))
                return 0
            self.show(view, brief=True)
            options = view["pending"]["options"]
            kind, chosen = self.pick(view, options)
            if kind in (QUIT, EOF):
                return 0 if kind == QUIT else 1
            if chosen is None:
                continue
            reply = self.call("apply", token=token, option=chosen)
            if not reply["ok"]:
                self.say(f"Refused: {reply['error']['message']}")

    def pick(self, view: dict, options: list[dict]) -> tuple[str | None, str | None]:
        """Ask for the decision: (None, option id), (QUIT or EOF, None), or (None, None) after a command (undo,
        redo, view, a bad answer) so the caller shows the game again. More than TWO_STEP options: which piece
        first, then where."""
        groups = option_groups(options)
        two_step = len(options) > TWO_STEP and 1 < len(groups) < len(options)
        while True:
            entries = groups if two_step else [(o["label"], [o]) for o in options]
            if two_step:
                self.say(f"  {len(options)} options: first choose which piece (then where)")
            for i, (label, group) in enumerate(entries, start=1):
                more = f"  ({len(group)} places)" if two_step and len(group) > 1 else ""
                self.say(f"  {i:2}. {label}{more}")
            first = self.answer(view, len(entries))
            if not isinstance(first, int):
                return first, None
            group = entries[first - 1][1]
            if len(group) == 1:
                return None, str(group[0]["id"])
            for i, option in enumerate(group, start=1):
                self.say(f"  {i:2}. {option['label']}")
            self.say("   b. back to the list of pieces")
            second = self.answer(view, len(group), back=True)
            if second == BACK:
                continue
            if not isinstance(second, int):
                return second, None
            return None, str(group[second - 1]["id"])

    def answer(self, view: dict, count: int, back: bool = False) -> int | str | None:
        """One typed answer: a number 1..count, QUIT, EOF, BACK (when offered), or None after a command."""
        marks = (" u=undo" if view["can_undo"] else "") + (" r=redo" if view["can_redo"] else "")
        marks += " b=back" if back else ""
        try:
            answer = self.ask(f"{view['pending']['prompt']} [1-{count}{marks} v q]: ").strip().lower()
        except EOFError:
            self.say("\ninput ended: the game is left unfinished")
            return EOF
        if answer in ("q", "quit"):
            self.say("You left the game.")
            return QUIT
        if back and answer in ("b", "back"):
            return BACK
        if answer in ("u", "r"):
            reply = self.call("undo" if answer == "u" else "redo", token=self.token)
            self.say("Undone." if reply["ok"] and answer == "u" else "Redone." if reply["ok"]
                     else f"Refused: {reply['error']['message']}")
            if reply["ok"] and answer == "u":   # the log was shortened: go on from its new end
                self.cursor = self.call("view", token=self.token)["view"]["events"]
            return None
        if answer in ("v", "view"):
            self.show(view)
            return None
        if not answer.isdigit() or not 1 <= int(answer) <= count:
            self.say(f"Not an option: {answer!r}. {HELP}")
            return None
        return int(answer)

    def show_log(self, token: str) -> None:
        """The events since last shown (others' moves included), rendered for this seat."""
        reply = self.call("events", token=token, since=self.cursor)
        for event in reply["events"]:
            self.say(f"  · {event.get('named', event['text'])}")
        self.cursor = reply["next"]

    def show(self, view: dict, brief: bool = False) -> None:
        """The view as text: status, own hand, fruit and markers, scores; the island unless brief."""
        me = view["flocks"].get(view["you"], {})
        cards = {c["id"]: c["name"] for c in self.catalogue.get("action_cards", [])}
        seasons = {c["id"]: c["name"] for c in self.catalogue.get("season_cards", [])}
        current = next((c["id"] for c in view["season_cards"] if c["season"] == view["season"]), None)
        self.say(f"== Season {view['season']}, {view['phase'].replace('_', ' ')}; Season card: "
                 f"{seasons.get(current, current)} ==")
        board = hex_map(view, self.catalogue, getattr(self.out, "encoding", None))
        if not brief or board != self.shown_map:   # the map again only when the island changed (or asked: v)
            for line in board:
                self.say("  " + line if line else "")
            self.shown_map = board
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
    from kcd.engine import mode_registry as modes

    roles = modes.select(mode, None).seat_roles(len(flocks))
    choices = [f for f, role in zip(flocks, roles) if role.decides]   # the engine plays the others (Kiwibot)
    seat = flocks[int(human) - 1] if human.isdigit() and 1 <= int(human) <= len(flocks) else human
    if seat not in choices:
        from kcd.apps.cli.errors import fail

        fail(f"--human {human}: not a seat of this game; seats: {', '.join(choices)} (or 1-{len(choices)})")
    others = iter(bots)
    seats, last = [], bots[-1]
    for flock, role in zip(flocks, roles):
        if not role.decides:   # a seat the engine plays: its role is the seat's kind (solo: kiwibot)
            seats.append({"flock": flock, "kind": role.id})
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
