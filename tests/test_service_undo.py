"""Undo and redo over the protocol: a player takes back their own latest decision while nobody else
has decided and nothing was drawn since; redo restores the same game; refusals change nothing; both persist."""
from __future__ import annotations

from pathlib import Path

from kcd.apps.service.store import SQLiteStore
from test_service_protocol import SEED, InProcess


def views(client: InProcess, tokens: dict) -> dict:
    return {f: client.request("view", token=t)["view"] for f, t in tokens.items()}


def test_undo_then_redo_restores_every_view_and_a_new_decision_clears_redo() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "bot"}], seed=SEED)
    tokens = {"red": made["tokens"]["red"], "spectator": made["spectator"]}
    red = tokens["red"]
    undone = 0
    for _ in range(40):
        before = views(client, tokens)
        if before["red"]["over"]:
            break
        options = before["red"]["pending"]["options"]
        assert client.request("apply", token=red, option=options[-1]["id"])["ok"]
        after = views(client, tokens)
        reply = client.request("undo", token=red)
        if not reply["ok"]:
            assert views(client, tokens) == after   # a refused undo changes nothing
            continue
        undone += 1
        back = views(client, tokens)
        for who in tokens:
            assert {k: v for k, v in back[who].items() if k not in ("can_undo", "can_redo")} == \
                   {k: v for k, v in before[who].items() if k not in ("can_undo", "can_redo")}
        assert back["red"]["can_redo"]
        assert client.request("redo", token=red)["ok"]
        again = views(client, tokens)
        assert {k: v for k, v in again["red"].items() if k != "can_redo"} == \
               {k: v for k, v in after["red"].items() if k != "can_redo"}
        if len(options) > 1:   # take back, choose otherwise: redo is gone
            assert client.request("undo", token=red)["ok"]
            assert client.request("apply", token=red, option=options[0]["id"])["ok"]
            assert client.request("redo", token=red)["error"]["code"] == "nothing-to-redo"
    assert undone >= 10


def test_undo_is_refused_across_a_draw_and_after_another_player_decided() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=SEED)
    tokens = made["tokens"]
    live = client.hub.live[made["game"]]
    seen = set()
    for _ in range(300):
        if live.game.is_over or seen >= {"random-draw", "not-your-decision"}:
            break
        flock = live.turn()
        options = live.game.pending.options
        # prefer a card played for its fruit benefit, to reach a draw soon
        option = next((o.id for o in options if "benefit" in o.id or "facedown" in o.id), options[0].id)
        assert client.request("apply", token=tokens[flock], option=option)["ok"]
        for who, token in tokens.items():
            reply = client.request("undo", token=token)
            if reply["ok"]:
                assert client.request("redo", token=token)["ok"]
                continue
            code = reply["error"]["code"]
            if who != flock:
                assert code == "not-your-decision"
            elif live.drew[-1]:
                assert code == "random-draw"
            seen.add(code)
    assert {"random-draw", "not-your-decision"} <= seen
    assert client.request("undo", token=made["spectator"])["error"]["code"] == "spectator"


def test_undo_and_redo_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    client = InProcess(SQLiteStore(db))
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=SEED)
    red = made["tokens"]["red"]
    options = client.request("pending", token=red)["pending"]["options"]
    assert client.request("apply", token=red, option=options[0]["id"])["ok"]
    assert client.request("undo", token=red)["ok"]
    undone_view = client.request("view", token=red)["view"]
    client.hub.store.close()
    restarted = InProcess(SQLiteStore(db))
    assert restarted.request("view", token=red)["view"] == undone_view
    assert restarted.request("redo", token=red)["ok"]
    assert restarted.request("view", token=red)["view"]["seq"] == 1


def test_games_dropped_from_memory_come_back_from_the_store() -> None:
    client = InProcess()
    client.hub.max_live = 2
    made = [client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=i) for i in range(5)]
    assert len(client.hub.live) == 2
    first = made[0]["tokens"]["red"]
    options = client.request("pending", token=first)["pending"]["options"]
    assert client.request("apply", token=first, option=options[0]["id"])["ok"]
    assert client.request("view", token=first)["view"]["seq"] == 1
