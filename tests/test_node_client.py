"""The Node.js example client: clients/node/play.js plays a whole game against an engine bot over
`kcd serve --stdio`, using only the protocol; an engine that cannot be started (spawn ENOENT) is a clear error,
never an unhandled crash, and a reply with `id: null` answers the oldest waiting request."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: the Node client test must run in CI")
        pytest.skip("node is not installed")
    return found


def kcd_command() -> list[str]:
    kcd = Path(sys.executable).with_name("kcd")
    return [str(kcd)] if kcd.exists() else [sys.executable, "-m", "kcd.apps.cli.main"]


@pytest.mark.parametrize("seed,players", [(3, 2), (8, 3)])
def test_node_client_plays_a_whole_game_over_stdio(seed: int, players: int) -> None:
    command = kcd_command()
    args = [node(), str(ROOT / "clients" / "node" / "play.js"), "--kcd", command[0], "--seed", str(seed),
            "--players", str(players), "--bot", "greedy", "--quiet"]
    if len(command) > 1:
        args += ["--", *command[1:]]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(result["ranking"]) == players and set(result["scores"]) == set(result["ranking"])
    assert result["decisions"] > 20 and result["undos"] >= 1
    again = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert json.loads(again.stdout.strip().splitlines()[-1]) == result   # same seed, same game


# --- failures reported, never an unhandled crash -------------------------------------------

def run_node(script: str, timeout: int = 60) -> subprocess.CompletedProcess:
    """Run a Node script that requires clients/node/kcd.js as `kcd`."""
    prelude = f"const kcd = require({json.dumps(str(ROOT / 'clients' / 'node' / 'kcd.js'))});\n"
    return subprocess.run([node(), "-e", prelude + script], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def test_a_missing_kcd_executable_is_a_clear_error_not_an_unhandled_crash(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-kcd"
    run = subprocess.run([node(), str(ROOT / "clients" / "node" / "play.js"), "--kcd", str(missing), "--quiet"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 1
    assert run.stderr.strip() == (f"play.js: cannot start the engine: `{missing}` was not found (spawn ENOENT); "
                                  "install it (pip install kiwi-chow-down, or pip install -e . in a checkout) or "
                                  "give its path (play.js --kcd PATH, or KCD=PATH)")
    assert "Unhandled" not in run.stderr and "    at " not in run.stderr


def test_the_library_rejects_every_request_and_push_of_an_engine_that_never_started(tmp_path: Path) -> None:
    run = run_node(f"""
const client = new kcd.KcdClient({json.dumps(str(tmp_path / "absent"))});
(async () => {{
  const out = [];
  for (const call of [() => client.request("hello"), () => client.request("view", {{token: "x"}}),
                      () => client.nextPush()]) {{
    try {{ await call(); out.push("resolved"); }} catch (err) {{ out.push(err.message); }}
  }}
  out.push(String(await client.close()));
  console.log(JSON.stringify(out));
}})();
""")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert all("was not found (spawn ENOENT)" in m for m in out[:3]) and out[3] == "null"
    assert run.stderr == ""


def test_a_reply_with_id_null_answers_the_oldest_waiting_request(tmp_path: Path) -> None:
    """docs/PROTOCOL.md: replies come in order, so `id: null` (a message the server could not read) belongs
    to the oldest request still waiting. A stand-in engine answers the first request so."""
    engine = tmp_path / "fake-kcd"
    engine.write_text(f"""#!{sys.executable}
import json, sys
for n, line in enumerate(sys.stdin):
    rid = None if n == 0 else json.loads(line)["id"]
    reply = {{"protocol": 1, "id": rid, "op": None if rid is None else "hello", "ok": rid is not None}}
    if rid is None:
        reply["error"] = {{"code": "bad-json", "message": "not JSON"}}
    print(json.dumps(reply), flush=True)
""")
    engine.chmod(0o755)
    run = run_node(f"""
const client = new kcd.KcdClient({json.dumps(str(engine))});
(async () => {{
  const first = await client.request("hello");
  const second = await client.request("hello");
  console.log(JSON.stringify([first.ok, first.error.code, second.ok, second.id, await client.close()]));
}})();
""")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [False, "bad-json", True, 2, 0]
