"""`kcd play --human` at a terminal: the island as an ASCII hex map with coordinates, pieces, Nests (their
type's glyph from content) and domain markers, built from the seat's view alone (R-ACT-2: nothing hidden shows);
a big decision asked in two steps, which Kiwi and then where; names of players and cards in the log; `q` quits
with exit 0. Plain subprocess runs and a real terminal under tmux (send-keys, capture-pane)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from kcd.apps.service.terminal import TWO_STEP, flock_letters, hex_map, option_groups
from test_service_protocol import InProcess, SEED


def kcd(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=600)


def played() -> tuple[InProcess, dict, dict]:
    """A 2-player game (red and green both human) played until the island has Nests and domain markers, with
    the catalogue."""
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=SEED)
    n = 0
    while True:
        view = client.request("view", token=made["spectator"])["view"]
        hexes = view["hexes"].values()
        if sum(1 for h in hexes if h["nest"]) >= 2 and any(h["domain"] for h in hexes) or view["over"]:
            return client, made, client.request("content", content={})["catalogue"]
        turn = view["pending"]["player"]
        options = client.request("view", token=made["tokens"][turn])["view"]["pending"]["options"]
        assert client.request("apply", token=made["tokens"][turn], option=options[(n * 7 + 3) % len(options)]["id"])["ok"]
        n += 1


def test_the_map_shows_every_hex_id_its_pieces_nests_and_markers_and_no_more_than_the_public_board() -> None:
    client, made, catalogue = played()
    red = client.request("view", token=made["tokens"]["red"])["view"]
    spectator = client.request("view", token=made["spectator"])["view"]
    lines = hex_map(red, catalogue)
    text = "\n".join(lines)
    assert all(re.search(rf"(^|\s){hid} ", text, re.M) for hid in red["hexes"])   # every coordinate
    assert max(len(line) for line in lines) <= 78                               # fits an 80-column terminal
    letters = flock_letters([f["id"] for f in catalogue["flocks"]])
    kiwi = {f: sum(1 for h in red["hexes"].values() for k in h["kiwi"] if k["flock"] == f) for f in ("red", "green")}
    for flock, count in kiwi.items():   # a stack is its flock's letter then one digit per Kiwi stack
        shown = sum(len(m) for m in re.findall(rf"(?<![a-z#]){letters[flock]}(\d+)", "\n".join(lines[:-3])))
        assert shown == count, (flock, shown, count)
    glyphs = {n["id"]: n["glyph"] for n in catalogue["nests"]}
    nests = [h["nest"] for h in red["hexes"].values() if h["nest"]]
    markers = [h["domain"] for h in red["hexes"].values() if h["domain"]]
    assert nests and markers, "the game should have Nests and domain markers by now"
    for nest in nests:
        assert glyphs[nest["id"]] + letters[nest["flock"]] in text
    assert "\n".join(lines[:-3]).count("#") == len(markers)                   # each marker once
    # what a seat may not see is not on the map: a seat's map is the spectator's (public) map
    assert hex_map(spectator, catalogue) == lines
    assert hex_map(red, catalogue, encoding="ascii") != lines                  # no glyph a terminal cannot print
    assert all(line.isascii() for line in hex_map(red, catalogue, encoding="ascii"))


def test_big_decisions_group_by_piece_and_small_ones_stay_flat() -> None:
    move = [{"id": f"m{i}", "label": f"Move to {t}", "action": {"kind": "move", "kiwi": k, "flock": "red", "size": 1,
                                                             "hex": h, "to": t}}
            for i, (k, h, t) in enumerate([(1, "A1", "A2"), (1, "A1", "A5"), (2, "A6", "A7"), (2, "A6", "A2")])]
    card = [{"id": "card:feed", "label": "Feed", "action": {"kind": "card", "card": "feed"}}]
    groups = option_groups(move + card)
    assert [(label, len(g)) for label, g in groups] == [("Move your size-1 Kiwi from A1", 2),
                                                       ("Move your size-1 Kiwi from A6", 2), ("Feed", 1)]
    assert TWO_STEP == 12


def test_a_whole_game_in_two_steps_with_names_in_the_log_and_back() -> None:
    # answers: always the first entry; at the first second step go back once, then on
    run = kcd("--human", "1", "--seed", "3", "--players", "2", stdin="1\n" * 12 + "b\n" + "1\n" * 3000)
    out = run.stdout
    assert run.returncode == 0, run.stderr + out[-2000:]
    assert re.search(r"\d+ options: first choose which piece \(then where\)", out)
    assert re.search(r"1\. Move your size-\d Kiwi from [A-Z]\d+  \(\d+ places\)", out)
    assert "b. back to the list of pieces" in out
    big = [int(n) for n in re.findall(r"(\d+) options: first choose", out)]
    assert big and min(big) > TWO_STEP
    # the log names flocks and cards: "Red Flock plays Build", never "red plays build" (ids)
    log = [line for line in out.splitlines() if line.startswith("  · ")]
    assert any(re.match(r"  · (Red|Green) Flock plays [A-Z]", line) for line in log)
    assert not any(re.match(r"  · (red|green) ", line) for line in log)
    assert not any(re.search(r"\b(wild-fruit|wild-kiwi|wild-domain)\b", line) for line in log)
    assert "Flocks: r Red Flock, g Green Flock." in out and "The game is over. Final scores: 1. " in out


def need_tmux() -> None:
    """Skip without tmux, except in CI where its absence is a failure (scripts/test installs it)."""
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is missing: the terminal test must run in CI")
        pytest.skip("tmux is missing (apt-get install tmux)")


def screen(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout


def wait_for(session: str, pattern: str, timeout: float = 60) -> str:
    deadline = time.time() + timeout
    while time.time() < deadline:
        shown = screen(session)
        if re.search(pattern, shown):
            return shown
        time.sleep(0.2)
    raise AssertionError(f"{pattern!r} never showed:\n{screen(session)}")


def test_in_a_real_terminal_the_map_shows_and_q_quits_with_exit_0() -> None:
    need_tmux()
    session = f"kcd-{uuid.uuid4().hex[:8]}"
    # the shell tmux runs the command in prints its exit status when it ends (the pane stays: remain-on-exit)
    command = f"{sys.executable} -m kcd.apps.cli.main play --human 1 --seed 3 --players 2; echo kcd-exit-$?"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "50", command], check=True)
    try:
        subprocess.run(["tmux", "set-option", "-t", session, "remain-on-exit", "on"], check=True)
        shown = wait_for(session, r"Play a card \[1-\d")
        assert re.search(r"A1 flo .*A2 gra", shown) and "Flocks: r Red Flock, g Green Flock." in shown
        assert "Hand: " in shown
        for _ in range(6):   # a card, how to play it, and on into a move of several steps
            subprocess.run(["tmux", "send-keys", "-t", session, "1", "Enter"], check=True)
            time.sleep(0.3)
        subprocess.run(["tmux", "send-keys", "-t", session, "q", "Enter"], check=True)
        shown = wait_for(session, r"kcd-exit-\d+")
        assert "You left the game." in shown and "kcd-exit-0" in shown, shown
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
