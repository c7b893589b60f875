"""The protocol's operations, independent of transport: tokens, seats, games, pushes and limits.

A transport (WebSocket, HTTP, stdio) makes a `Connection` per client with a `send` callable, passes each
received text to `Hub.handle`, sends the reply, then calls `Hub.flush()` to deliver the pushes the request
caused, and runs bot seats with `Hub.bot_step(game)` while `Hub.bots_due()` names games waiting on a bot.
Nothing a client sends can raise out of `handle`: every failure is an error reply and the connection stays.
"""
from __future__ import annotations

import hashlib
import logging
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from kcd.analysis.bots import make_bot
from kcd.content import ContentError, available_packs, load_ruleset
from kcd.engine import mode_registry as modes
from kcd.core.action_types import action_from_dict
from kcd.engine.setup import SetupError
from kcd.apps.service import seal
from kcd.apps.service.catalogue import catalogue, seat_order
from kcd.apps.service.live import BOT, HUMAN, OPEN, LiveGame, Refusal
from kcd.apps.service.protocol import OPS, PROTOCOL, ProtocolError, error, parse_request, request_id
from kcd.apps.service.store import GameRecord, Store

log = logging.getLogger("kcd.apps.service")
VERSION = "1.0"
SEED_BITS = 63
LOBBY_GAMES = 50   # the lobby lists the newest listed games, at most this many


def clean_name(name: str | None) -> str | None:
    """A player's name as shown to everyone: surrounding and repeated white space dropped (the schema has
    already refused control characters and over-long names); None for no name."""
    if name is None:
        return None
    name = " ".join(name.split())
    if not name:
        raise Refusal("bad-message", "a player name needs at least one visible character")
    return name


@dataclass
class Limits:
    """Per-connection limits: message size and a token-bucket rate."""

    max_message_bytes: int = 256 * 1024
    messages_per_second: float = 100.0
    burst: int = 200


@dataclass(eq=False)
class Connection:
    """One client: how to send it a message, the games it follows (game -> viewer and event cursor), its rate."""

    send: Callable[[dict], None]
    limits: Limits
    pushes: bool = True                # False for HTTP: a request-reply transport gets no pushes
    following: dict[str, dict] = field(default_factory=dict)
    allowance: float = 0.0
    stamp: float = 0.0

    def __post_init__(self) -> None:
        self.allowance, self.stamp = float(self.limits.burst), time.monotonic()

    def take(self) -> bool:
        """Spend one message of the rate budget; False when over it."""
        now = time.monotonic()
        self.allowance = min(float(self.limits.burst),
                             self.allowance + (now - self.stamp) * self.limits.messages_per_second)
        self.stamp = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """An unguessable token (256 random bits)."""
    return secrets.token_urlsafe(32)


class Hub:
    """All games of one server and the operations on them."""

    def __init__(self, store: Store, limits: Limits | None = None, content_root: Any = None) -> None:
        self.store = store
        self.content_root = content_root   # None: the shipped content
        self.limits = limits or Limits()
        self.live: dict[str, LiveGame] = {}   # in creation/load order (the eviction order)
        self.max_live = 1000
        self.rulesets: dict[tuple, Any] = {}
        self.followers: dict[str, set[Connection]] = {}
        self._deferred: list[tuple[Connection, dict]] = []
        self._bots_due: set[str] = set()
        self._key = store.secret("seal", seal.new_key)

    # --- connections ------------------------------------------------------------------------------
    def connect(self, send: Callable[[dict], None], pushes: bool = True) -> Connection:
        """A new client connection (`pushes=False`: it never receives pushes, e.g. HTTP)."""
        return Connection(send, self.limits, pushes)

    def disconnect(self, conn: Connection) -> None:
        """The client went away: stop pushing to it."""
        for game_id in list(conn.following):
            self.followers.get(game_id, set()).discard(conn)
        conn.following.clear()

    def resume(self) -> list[str]:
        """After a (re)start: rebuild the unfinished games and mark those waiting on a bot."""
        ids = self.store.unfinished()
        for game_id in ids:
            try:
                live = self._game(game_id)
            except Refusal as err:
                log.error("game %s cannot be resumed: %s", game_id, err.message)
                continue
            if live.bot_to_move():
                self._bots_due.add(game_id)
        return ids

    # --- the request loop ---------------------------------------------------------------------------
    def handle(self, conn: Connection, text: str | bytes) -> dict:
        """The reply to one received message (never raises)."""
        if not conn.take():
            return error("rate-limited", f"more than {self.limits.messages_per_second:g} messages a second: "
                                         "slow down", rid=request_id(text[:10_000]))
        try:
            message = parse_request(text, self.limits.max_message_bytes)
        except ProtocolError as err:
            return error(err.code, err.message, err.op, request_id(text) if err.code != "too-large" else None)
        op, rid = message["op"], message.get("id")
        try:
            body = getattr(self, f"op_{op}")(conn, message)
        except (Refusal, ProtocolError) as err:
            return error(err.code, err.message, op, rid)
        except Exception:  # a server bug must not take the connection or the server down
            log.exception("internal error in %s", op)
            return error("internal", f"the server failed on this {op}; the game is unchanged", op, rid)
        return {"protocol": PROTOCOL, "id": rid, "op": op, "ok": True, **body}

    def flush(self) -> None:
        """Deliver the pushes the last request caused (after its reply was sent)."""
        deferred, self._deferred = self._deferred, []
        for conn, message in deferred:
            self._send(conn, message)

    def bots_due(self) -> list[str]:
        """Games whose pending decision belongs to a bot seat (taken from the due list)."""
        due, self._bots_due = sorted(self._bots_due), set()
        return due

    def bot_step(self, game_id: str) -> bool:
        """Let the bot whose turn it is decide once (committed, then pushed); False if no bot is to move."""
        live = self.live.get(game_id)
        if live is None or live.bot_to_move() is None:
            return False
        flock, option = live.bot_choice()
        self._decide(live, flock, option)
        self.flush()
        return True

    def _send(self, conn: Connection, message: dict) -> None:
        try:
            conn.send(message)
        except Exception:  # a gone client must not stop the others' pushes
            log.info("dropping a connection that failed to receive", exc_info=True)
            self.disconnect(conn)

    # --- helpers ------------------------------------------------------------------------------------
    def _ruleset(self, content: dict) -> Any:
        """The ruleset of a content spec (pack ids only), loaded once."""
        editions, mods = list(content.get("editions") or []), list(content.get("mods") or [])
        key = (tuple(editions), tuple(mods))
        if key not in self.rulesets:
            known = {(p.kind, p.id) for p in available_packs(self.content_root)}
            for kind, names in (("edition", editions), ("mod", mods)):
                for name in names:
                    if (kind, name) not in known:
                        have = ", ".join(sorted(i for k, i in known if k == kind)) or "none"
                        raise Refusal("bad-content", f"unknown {kind} `{name}`; available: {have}")
            try:
                self.rulesets[key] = load_ruleset([f"editions/{e}" for e in editions] + [f"mods/{m}" for m in mods],
                                                  root=self.content_root)
            except ContentError as err:
                raise Refusal("bad-content", "the content does not validate: "
                              + "; ".join(d.format().splitlines()[0] for d in err.diagnostics[:3])) from None
        return self.rulesets[key]

    def _game(self, game_id: str) -> LiveGame:
        """A live game, rebuilt from the store if it is not in memory."""
        live = self.live.get(game_id)
        if live is None:
            record = self.store.load(game_id)
            if record is None:
                raise Refusal("unknown-game", f"no game {game_id}")
            try:
                live = LiveGame(record, self._ruleset(record.content))
            except (ValueError, SetupError) as err:
                raise Refusal("bad-save", f"game {game_id} does not rebuild: {err}") from None
            self.live[game_id] = live
            if live.bot_to_move():
                self._bots_due.add(game_id)
            self._evict()
        return live

    def _evict(self) -> None:
        """Keep at most `max_live` games in memory: drop the oldest ones nobody follows and no bot is playing
        (they are rebuilt from the store when next used)."""
        for game_id in list(self.live):
            if len(self.live) <= self.max_live:
                return
            live = self.live[game_id]
            if not self.followers.get(game_id) and game_id not in self._bots_due and not live.bot_to_move():
                del self.live[game_id]

    def _token(self, token: str) -> tuple[LiveGame, str | None]:
        """(game, seat flock or None for a spectator) of a token."""
        found = self.store.token(token_hash(token))
        if found is None:
            raise Refusal("bad-token", "unknown token: use the token create, join or load gave you")
        return self._game(found[0]), found[1]

    def _follow(self, conn: Connection, live: LiveGame, viewer: str | None) -> None:
        if not conn.pushes:
            return
        conn.following[live.record.id] = {"viewer": viewer, "cursor": len(live.game.events)}
        self.followers.setdefault(live.record.id, set()).add(conn)

    def _push_all(self, live: LiveGame, reset: bool = False) -> None:
        """Queue an update for every connection following the game, rendered for its viewer."""
        game_id = live.record.id
        for conn in list(self.followers.get(game_id, ())):
            follow = conn.following.get(game_id)
            if follow is None:
                continue
            viewer = follow["viewer"]
            since = 0 if reset else follow["cursor"]
            follow["cursor"] = len(live.game.events)
            turn = live.turn()
            self._deferred.append((conn, {
                "protocol": PROTOCOL, "push": "update", "game": game_id, "seq": live.seq, "turn": turn,
                "your_turn": turn is not None and turn == viewer, "over": live.game.is_over, "reset": reset,
                "view": live.view(viewer), "events": live.events_for(viewer, since)}))

    def _decide(self, live: LiveGame, flock: str, option: str) -> tuple[int, int]:
        """Apply, commit, then queue pushes; (decision number, events before). Undone in memory if the commit fails."""
        before = len(live.game.events)
        n = live.apply(flock, option)
        try:
            self.store.append(live.record.id, n, option, list(live.record.redo), live.record.over)
        except Exception as exc:
            log.exception("could not store decision %s of %s", n, live.record.id)
            self.live.pop(live.record.id, None)   # rebuilt from the store on next use: what was committed
            raise Refusal("storage", f"the decision could not be stored ({type(exc).__name__}); it was not taken")
        self._push_all(live)
        if live.bot_to_move():
            self._bots_due.add(live.record.id)
        return n, before

    def _register(self, record: GameRecord, ruleset: Any) -> dict:
        """Build, store and index a new game; the create/load reply body with fresh tokens."""
        try:
            live = LiveGame(record, ruleset)
        except SetupError as err:
            raise Refusal("bad-setup", str(err)) from None
        except (ValueError, TypeError) as err:
            raise Refusal("bad-setup", str(err)) from None
        tokens = {s["flock"]: new_token() for s in record.seats if s["kind"] == HUMAN}
        spectator = new_token()
        hashes: dict[str, str | None] = {token_hash(t): f for f, t in tokens.items()}
        hashes[token_hash(spectator)] = None
        self.store.create(record, hashes)
        self.live[record.id] = live
        if live.bot_to_move():
            self._bots_due.add(record.id)
        self._evict()
        return {"game": record.id, "seats": live.view(None)["seats"], "tokens": tokens, "spectator": spectator}

    # --- operations -----------------------------------------------------------------------------------
    def op_hello(self, conn: Connection, msg: dict) -> dict:
        """What the server offers."""
        return {"server": "kcd", "version": VERSION, "ops": list(OPS),
                "limits": {"max_message_bytes": self.limits.max_message_bytes,
                           "messages_per_second": self.limits.messages_per_second, "burst": self.limits.burst}}

    def op_content(self, conn: Connection, msg: dict) -> dict:
        """The catalogue of a content spec."""
        return {"catalogue": catalogue(self._ruleset(msg.get("content") or {}))}

    def op_create(self, conn: Connection, msg: dict) -> dict:
        """A new game; tokens for its human seats and a spectator token."""
        content = {"editions": list((msg.get("content") or {}).get("editions") or []),
                   "mods": list((msg.get("content") or {}).get("mods") or [])}
        ruleset = self._ruleset(content)
        mode = msg.get("mode", "standard")
        try:
            game_mode = modes.select(mode, None)
        except modes.ModeError as err:
            raise Refusal("bad-setup", str(err)) from None
        # the seat kinds of seats the engine plays (solo: kiwibot), in this mode and in any mode
        own_kinds = {r.id for r in game_mode.seat_roles(game_mode.player_count or len(msg["seats"]))
                     if not r.decides}
        engine_kinds = {r.id: m.name for m in modes.all_modes() for r in m.seat_roles(m.player_count or 2)
                        if not r.decides}
        order = seat_order(ruleset)
        seats, taken = [], set()
        for i, req in enumerate(msg["seats"]):
            flock = req.get("flock")
            if flock is None:
                flock = next((f for f in order if f not in taken and f not in
                              {s.get("flock") for s in msg["seats"]}), None)
                if flock is None:
                    raise Refusal("bad-setup", f"no flock left for seat {i + 1}")
            if flock not in order:
                raise Refusal("bad-setup", f"unknown flock `{flock}`; flocks: {', '.join(order)}")
            if flock in taken:
                raise Refusal("bad-setup", f"flock `{flock}` has two seats")
            taken.add(flock)
            kind = req["kind"]
            seat = {"flock": flock, "kind": kind}
            name = clean_name(req.get("name"))
            if name is not None:
                if kind not in (HUMAN, OPEN):
                    raise Refusal("bad-setup", f"seat {flock}: `name` is for a player's seat (human or open)")
                seat["name"] = name
            if kind == BOT:
                name = req.get("bot", "random")
                try:   # any name make_bot takes: every BOTS entry, with its options (e.g. an mcts budget)
                    make_bot(name, 0)
                except ValueError as err:
                    raise Refusal("bad-setup", str(err)) from None
                seat["bot"] = name
            elif req.get("bot") is not None:
                raise Refusal("bad-setup", f"seat {flock}: `bot` is only for a seat of kind bot")
            if kind in engine_kinds and kind not in own_kinds:
                raise Refusal("bad-setup", f"a {kind} seat is only for mode {engine_kinds[kind]}")
            seats.append(seat)
        players = [s["flock"] for s in seats]
        if game_mode.player_count is not None:
            # a fixed cast (solo: the player and Kiwibot): each role once, the seats in the mode's player order
            roles = game_mode.seat_roles(game_mode.player_count)
            engine = [s for s in seats if s["kind"] in own_kinds]
            if len(seats) != len(roles) or len(engine) != len([r for r in roles if not r.decides]):
                kinds = ", ".join(f"one seat of kind {r.id}" for r in roles if not r.decides)
                raise Refusal("bad-setup", f"a {mode} game has {len(roles)} seats: the player and {kinds}")
            deciding = iter([s["flock"] for s in seats if s["kind"] not in own_kinds])
            by_kind = {s["kind"]: s["flock"] for s in engine}
            players = [next(deciding) if r.decides else by_kind[r.id] for r in roles]
        elif len(seats) < 2:
            single = [m.name for m in modes.all_modes() if m.player_count is not None and m.variant is None]
            raise Refusal("bad-setup", f"a {mode} game has 2 to 4 seats; one player plays mode {' or '.join(single)}")
        seed = msg["seed"] if "seed" in msg else secrets.randbits(SEED_BITS)
        leaders = dict(msg["leaders"]) if msg.get("leaders") else None
        if leaders is not None:
            # the engine takes a Leader for every player or none: the seats left out are dealt from the seed
            free = [item.id for item in ruleset.items("leaders") if item.id not in leaders.values()]
            random.Random(seed).shuffle(free)
            for flock in players:
                if flock not in leaders and free:
                    leaders[flock] = free.pop()
        setup = {"players": players, "leaders": leaders, "leader_cards": msg.get("leader_cards"),
                 "sides": msg.get("sides"), "setup": msg.get("setup", "first-game"), "variant": msg.get("variant"),
                 "mode": mode, "solo_side": msg.get("solo_side")}
        record = GameRecord(id=secrets.token_hex(12), content=content, setup=setup, seats=seats, seed=seed,
                            created=time.time(), lobby=bool(msg.get("lobby", False)))
        return self._register(record, ruleset)

    def op_join(self, conn: Connection, msg: dict) -> dict:
        """Follow a game with a token (optionally naming its seat), claim an open seat (game + seat, optionally a
        name) and get its token, or watch a lobby game as a spectator (game alone)."""
        token = msg.get("token")
        name = clean_name(msg.get("name"))
        body: dict = {}
        if token is not None:
            live, seat = self._token(token)
            if name is not None:
                if seat is None:
                    raise Refusal("spectator", "a spectator has no seat to name")
                self._rename(live, seat, name)
        elif "seat" not in msg:
            live, seat = self._game(msg["game"]), None
            if not live.record.lobby:
                raise Refusal("not-listed", "this game is not in the lobby: watch it with its spectator token")
        else:
            live = self._game(msg["game"])
            seat = msg["seat"]
            s = live.seat(seat)
            if s["kind"] != OPEN:
                raise Refusal("seat-taken", f"seat {seat} is not open (it is a {s['kind']} seat)")
            before = dict(s)
            s["kind"] = HUMAN
            if name is not None:
                s["name"] = name
            token = new_token()
            try:
                self.store.add_token(live.record.id, token_hash(token), seat, live.record.seats)
            except Exception:
                s.clear()
                s.update(before)
                raise
            body["token"] = token
            self._push_all(live)   # the others see the seat taken (and its player's name)
        self._follow(conn, live, seat)
        return {"game": live.record.id, "seat": seat, **body, "view": live.view(seat)}

    def _rename(self, live: LiveGame, seat: str, name: str) -> None:
        """Name a seat (stored, then shown to everyone following the game)."""
        s = live.seat(seat)
        if s.get("name") == name:
            return
        old = s.get("name")
        s["name"] = name
        try:
            self.store.set_seats(live.record.id, live.record.seats)
        except Exception:
            if old is None:
                s.pop("name", None)
            else:
                s["name"] = old
            raise
        self._push_all(live)

    def op_lobby(self, conn: Connection, msg: dict) -> dict:
        """The listed games not over, newest first: their seats (open ones claimable), names and progress; never a
        token."""
        games = []
        for g in self.store.listed(LOBBY_GAMES):
            seats = [{k: s[k] for k in ("flock", "kind", "bot", "name") if k in s} for s in g.seats]
            games.append({"game": g.id, "content": g.content, "created": g.created, "seq": g.decisions,
                          "seats": seats, "open": [s["flock"] for s in g.seats if s["kind"] == OPEN]})
        return {"games": games}

    def op_view(self, conn: Connection, msg: dict) -> dict:
        """The token's view."""
        live, seat = self._token(msg["token"])
        return {"game": live.record.id, "seat": seat, "view": live.view(seat)}

    def op_pending(self, conn: Connection, msg: dict) -> dict:
        """The pending decision as the token may see it."""
        live, seat = self._token(msg["token"])
        return {"game": live.record.id, "seat": seat, "seq": live.seq, "pending": live.view(seat)["pending"],
                "your_turn": seat is not None and live.turn() == seat}

    def _acting(self, msg: dict) -> tuple[LiveGame, str]:
        live, seat = self._token(msg["token"])
        if seat is None:
            raise Refusal("spectator", "a spectator token cannot take decisions")
        if "seq" in msg and msg["seq"] != live.seq:
            raise Refusal("stale", f"the game is at decision {live.seq}, not {msg['seq']}: fetch the view again")
        return live, seat

    def op_apply(self, conn: Connection, msg: dict) -> dict:
        """Answer the pending decision for the token's seat."""
        live, seat = self._acting(msg)
        option = msg.get("option")
        if option is None:
            option = self._option_of_action(live, msg["action"])
        n, before = self._decide(live, seat, option)
        return {"game": live.record.id, "seq": live.seq, "n": n, "events": live.events_for(seat, before)}

    @staticmethod
    def _option_of_action(live: LiveGame, action: dict) -> str:
        """The option id of a typed action (the engine's JSON form of `Action`)."""
        try:
            return action_from_dict(action).id()
        except ValueError as err:
            raise Refusal("bad-message", f"apply: {err}") from None

    def op_undo(self, conn: Connection, msg: dict) -> dict:
        """Take back the seat's latest decision."""
        live, seat = self._acting(msg)
        keep = live.seq - 1
        live.undo(seat)
        try:
            self.store.rewind(live.record.id, keep, list(live.record.redo))
        except Exception as exc:
            log.exception("could not store an undo of %s", live.record.id)
            self.live.pop(live.record.id, None)
            raise Refusal("storage", f"the undo could not be stored ({type(exc).__name__}); it was not done")
        self._push_all(live, reset=True)
        return {"game": live.record.id, "seq": live.seq}

    def op_redo(self, conn: Connection, msg: dict) -> dict:
        """Re-apply the decision the seat last took back."""
        live, seat = self._acting(msg)
        n, before = self._decide(live, seat, live.redo_option(seat))
        return {"game": live.record.id, "seq": live.seq, "n": n, "events": live.events_for(seat, before)}

    def op_events(self, conn: Connection, msg: dict) -> dict:
        """Events since N for the token's viewer."""
        live, seat = self._token(msg["token"])
        return {"game": live.record.id, "events": live.events_for(seat, msg["since"]),
                "next": len(live.game.events)}

    def op_save(self, conn: Connection, msg: dict) -> dict:
        """A save: public facts plus the sealed seed and decisions."""
        live, _ = self._token(msg["token"])
        r = live.record
        secret = {"setup": r.setup, "seed": r.seed, "decisions": r.decisions, "redo": r.redo, "seats": r.seats}
        return {"game": r.id, "save": {"format": "kcd-service-save", "protocol": PROTOCOL, "game": r.id,
                                       "content": r.content, "seats": live.view(None)["seats"],
                                       "decisions": len(r.decisions), "sealed": seal.seal(self._key, secret)}}

    def op_load(self, conn: Connection, msg: dict) -> dict:
        """A new game from a save this server sealed (new id, new tokens)."""
        save = msg["save"]
        try:
            secret = seal.unseal(self._key, save["sealed"])
            record = GameRecord(id=secrets.token_hex(12), content=save["content"], setup=dict(secret["setup"]),
                                seats=[dict(s) for s in secret["seats"]], seed=int(secret["seed"]),
                                decisions=[str(d) for d in secret["decisions"]],
                                redo=[str(d) for d in secret.get("redo", [])], created=time.time())
            ruleset = self._ruleset(record.content)
            live = LiveGame(record, ruleset)   # checks that the decisions replay
        except (ValueError, KeyError, TypeError, SetupError) as err:
            raise Refusal("bad-save", f"cannot load this save: {err}") from None
        record.over = live.game.is_over
        body = self._register(record, ruleset)
        return {**body, "seq": len(record.decisions)}

    def op_replay(self, conn: Connection, msg: dict) -> dict:
        """The token's view as it was after `at` decisions."""
        live, seat = self._token(msg["token"])
        at = msg["at"]
        if at > live.seq:
            raise Refusal("bad-message", f"replay: `at` is {at} but the game has only {live.seq} decisions")
        return {"game": live.record.id, "at": at, "of": live.seq, "view": live.replay_view(seat, at)}

    def op_leave(self, conn: Connection, msg: dict) -> dict:
        """Stop following the token's game on this connection."""
        live, _ = self._token(msg["token"])
        conn.following.pop(live.record.id, None)
        self.followers.get(live.record.id, set()).discard(conn)
        return {"game": live.record.id}

