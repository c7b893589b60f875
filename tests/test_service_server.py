"""`kcd serve` as a real server process: WebSocket and HTTP; bad input gets an error reply each time
and the server keeps serving other games; Host and Origin checks; SIGKILL mid-game and a restart resume the game
exactly as if it had never stopped."""
from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kcd.apps.service.client import WsClient

SEED = 4242


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A `kcd serve` child process on a free loopback port."""

    def __init__(self, db: Path, *extra: str, port: int | None = None) -> None:
        self.db, self.extra = db, extra
        self.port = port or free_port()
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "kcd.apps.cli.main", "serve", "--port", str(self.port),
                                      "--db", str(self.db), *self.extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"kcd serve exited: {self.proc.stdout.read()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("kcd serve did not come up")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)


@pytest.fixture
def server(tmp_path: Path):
    srv = Server(tmp_path / "games.sqlite3")
    yield srv
    srv.stop()


def choose(options: list[dict], n: int) -> str:
    """A fixed, varied choice: the same for the same decision number in every run."""
    return options[(n * 7 + 3) % len(options)]["id"]


def play(client: WsClient, token: str, view: dict, stop_after: int | None = None) -> tuple[dict, int]:
    """Play the human seat until the end (or `stop_after` own decisions); (last view, own decisions)."""
    n = 0
    while True:
        view = client.wait_turn(view)
        if view["over"] or (stop_after is not None and n >= stop_after):
            return view, n
        reply = client.request("apply", token=token, option=choose(view["pending"]["options"], view["seq"]))
        assert reply["ok"], reply
        n += 1
        view = client.request("view", token=token)["view"]


def test_websocket_game_against_a_bot_to_the_end(server: Server) -> None:
    client = WsClient(server.url)
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], seed=SEED)
    token = made["tokens"]["red"]
    view = client.request("join", token=token)["view"]
    view, n = play(client, token, view)
    assert view["over"] and set(view["ranking"]) == {"red", "green"} and n > 20
    client.close()


def test_bad_input_gets_an_error_reply_each_time_and_other_games_go_on(server: Server) -> None:
    good = WsClient(server.url)
    made = good.request("create", seats=[{"kind": "human"}, {"kind": "bot"}], seed=SEED)
    token = made["tokens"]["red"]
    view = good.request("join", token=token)["view"]
    bad = WsClient(server.url)
    cases = [
        ("{not json", "bad-json"),
        ("[1, 2, 3]", "bad-message"),
        ('"just a string"', "bad-message"),
        (json.dumps({"protocol": 1, "op": "fly"}), "unknown-op"),
        (json.dumps({"protocol": 2, "op": "hello"}), "protocol-version"),
        (json.dumps({"op": "hello"}), "protocol-version"),
        (json.dumps({"protocol": 1, "op": "apply", "token": 12, "option": "x"}), "bad-message"),
        (json.dumps({"protocol": 1, "op": "events", "token": token, "since": "zero"}), "bad-message"),
        (json.dumps({"protocol": 1, "op": "create", "seats": "two"}), "bad-message"),
        (json.dumps({"protocol": 1, "op": "create", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "nobody"}]}),
         "bad-setup"),
        (json.dumps({"protocol": 1, "op": "create", "seats": [{"kind": "human"}] * 2, "content": {"mods": ["nope"]}}),
         "bad-content"),
        (json.dumps({"protocol": 1, "op": "create", "seats": [{"kind": "human"}] * 2, "variant": "chaos"}), "bad-setup"),
        (json.dumps({"protocol": 1, "op": "view", "token": "A" * 43}), "bad-token"),
        (json.dumps({"protocol": 1, "op": "apply", "token": token, "option": "move:nowhere"}), "illegal"),
        (json.dumps({"protocol": 1, "op": "apply", "token": token, "option": "!!"}), "malformed"),
        (json.dumps({"protocol": 1, "op": "apply", "token": token, "option": "x", "seq": 999}), "stale"),
        (json.dumps({"protocol": 1, "op": "join", "game": "0" * 24, "seat": "red"}), "unknown-game"),
        (json.dumps({"protocol": 1, "op": "hello", "pad": "x" * 400_000}), "too-large"),
        (json.dumps({"protocol": 1, "op": "hello", "pad": "x" * 1_000_000}), "too-large"),
        ('{"protocol": 1, "op": "hello", "deep": ' + "[" * 100_000 + "]" * 100_000 + "}", "bad-json"),
        ("[" * 50_000 + "]" * 50_000, "bad-json"),
        ('{"protocol": 1, "op": "events", "token": "%s", "since": NaN}' % token, "bad-message"),
        ('{"protocol": 1, "op": "apply", "token": "%s", "option": "x", "seq": Infinity}' % token, "bad-message"),
        (json.dumps({"protocol": 1, "op": "hello", "id": "i" * 500}), "bad-message"),
        (json.dumps({"protocol": 1, "op": "replay", "token": token, "at": 10 ** 30}), "bad-message"),
    ]
    for text, code in cases:
        reply = bad.send_raw(text)
        assert reply["ok"] is False and reply["error"]["code"] == code, (text[:80], reply)
        assert reply["error"]["message"]
    bad.ws.send(b"\xff\xfe not utf-8")         # a binary frame that is not text
    assert bad._reply()["error"]["code"] == "bad-json"
    assert bad.request("hello")["ok"]          # the bad connection still works
    view, _ = play(good, token, view)          # and the other game goes on to its end
    assert view["over"]
    good.close()
    bad.close()


def test_the_rate_limit_answers_with_errors_not_a_closed_connection(tmp_path: Path) -> None:
    srv = Server(tmp_path / "db.sqlite3", "--rate", "5")
    try:
        client = WsClient(srv.url)
        for i in range(40):   # sent at once, before any reply is read
            client._send_text(json.dumps({"protocol": 1, "id": i, "op": "hello"}))
        replies = [client._reply() for _ in range(40)]
        codes = [r.get("error", {}).get("code") for r in replies]
        assert codes[0] is None and codes.count("rate-limited") >= 20, codes
        assert [r["id"] for r in replies] == list(range(40))   # every message answered, in order
        time.sleep(1.5)
        assert client.request("hello")["ok"]
    finally:
        srv.stop()


def test_host_and_origin_are_checked(server: Server) -> None:
    base = f"http://127.0.0.1:{server.port}"
    request = urllib.request.Request(base + "/", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as info:   # DNS rebinding: a foreign Host is refused
        urllib.request.urlopen(request, timeout=10)
    assert info.value.code == 400
    body = json.dumps({"protocol": 1, "op": "hello"}).encode()
    cross = urllib.request.Request(base + "/api", data=body, headers={"Origin": "http://evil.example"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(cross, timeout=10)
    assert info.value.code == 403
    same = urllib.request.Request(base + "/api", data=body, headers={"Origin": base,
                                                                      "Content-Type": "application/json"})
    with urllib.request.urlopen(same, timeout=10) as resp:
        assert json.loads(resp.read())["ok"] is True
    from websockets.sync.client import connect

    with pytest.raises(Exception, match="400"):   # DNS rebinding over the WebSocket too
        connect(server.url, additional_headers={"Host": "evil.example"}, open_timeout=10)
    with pytest.raises(Exception):
        WsClient(server.url, origin="http://evil.example", timeout=10)
    assert WsClient(server.url, origin=base).request("hello")["ok"]
    with urllib.request.urlopen(base + "/", timeout=10) as resp:
        assert b"Kiwi Chow Down" in resp.read()
        assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"]
        assert resp.headers["X-Frame-Options"] == "DENY" and resp.headers["X-Content-Type-Options"] == "nosniff"


def test_http_api_plays_the_same_protocol(server: Server) -> None:
    base = f"http://127.0.0.1:{server.port}/api"

    def post(message: dict) -> dict:
        data = json.dumps({"protocol": 1, **message}).encode()
        with urllib.request.urlopen(urllib.request.Request(base, data=data), timeout=30) as resp:
            return json.loads(resp.read())

    made = post({"op": "create", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": SEED})
    pending = post({"op": "pending", "token": made["tokens"]["red"]})
    assert pending["your_turn"] and pending["pending"]["options"]
    assert post({"op": "apply", "token": made["tokens"]["red"], "option": pending["pending"]["options"][0]["id"]})["ok"]
    assert post({"op": "view", "token": made["spectator"]})["view"]["seq"] == 1
    assert post({"op": "nope"})["error"]["code"] == "unknown-op"
    huge = urllib.request.Request(base, data=b"x" * 300_000)
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(huge, timeout=30)
    assert info.value.code == 413 and json.loads(info.value.read())["error"]["code"] == "too-large"


def decisions_of(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT option FROM decisions ORDER BY n")]


def test_sigkill_mid_game_and_restart_resume_the_game_exactly(tmp_path: Path) -> None:
    """Two servers play the same game (same seed, same choices); one is SIGKILLed mid-game and restarted."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    results = {}
    for name, kill_after in (("steady", None), ("killed", 15)):
        srv = Server(tmp_path / f"{name}.sqlite3")
        try:
            client = WsClient(srv.url)
            made = client.request("create", seats=seats, seed=SEED)
            token = made["tokens"]["red"]
            view = client.request("join", token=token)["view"]
            if kill_after is not None:
                view, n = play(client, token, view, stop_after=kill_after)
                assert n == kill_after and not view["over"]
                # the bot may be thinking: kill with no warning, at once
                client.request("apply", token=token, option=choose(view["pending"]["options"], view["seq"]))
                srv.kill()
                stored = len(decisions_of(srv.db))
                assert stored > kill_after
                srv.start()
                client = WsClient(srv.url)
                view = client.request("join", token=token)["view"]   # the token still works
                assert view["seq"] >= stored
            view, _ = play(client, token, view)
            spectator = client.request("view", token=made["spectator"])["view"]
            events = client.request("events", token=made["spectator"], since=0)["events"]
            results[name] = (decisions_of(srv.db), spectator, [e["text"] for e in events])
        finally:
            srv.stop()
    steady, killed = results["steady"], results["killed"]
    assert killed[0] == steady[0] and len(steady[0]) > 60
    assert killed[1]["scores"] == steady[1]["scores"] and killed[1]["ranking"] == steady[1]["ranking"]
    assert killed[1] == steady[1]
    assert killed[2] == steady[2]


def test_a_taken_port_or_an_unusable_database_is_a_clear_error_before_any_address(server: Server,
                                                                                  tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "serve", "--port", str(server.port), "--db",
                          str(tmp_path / "other.sqlite3")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "kcd serve: error: cannot listen on 127.0.0.1" in run.stderr
    assert "http://" not in run.stdout and "hint: choose another --port" in run.stderr
    assert "Traceback" not in run.stderr
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    run = subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "serve", "--port", "0", "--db",
                          str(blocker / "games.sqlite3")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "cannot open the game database" in run.stderr and "Traceback" not in run.stderr
