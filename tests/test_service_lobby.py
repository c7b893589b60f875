"""The lobby and player names over the protocol: listed games with their open seats and names, a seat
claimed from the lobby, spectators watching a lobby game, and no token in any lobby or other seat's message."""
from __future__ import annotations

import json
import re
from pathlib import Path

from kcd.apps.service.store import SQLiteStore
from test_service_protocol import InProcess, SEED, check_conformance


def tokens_in(messages: list[dict]) -> str:
    return json.dumps(messages)


def test_the_lobby_lists_listed_games_with_open_seats_and_names_and_never_a_token() -> None:
    host, friend, stranger = InProcess(), InProcess(), InProcess()
    stranger.hub = friend.hub = host.hub
    friend.conn, stranger.conn = host.hub.connect(friend._push), host.hub.connect(stranger._push)
    made = host.request("create", lobby=True, seed=SEED, seats=[
        {"kind": "human", "name": "  Ann   Lee ", "flock": "red"}, {"kind": "human", "name": "Bo", "flock": "green"},
        {"kind": "open", "flock": "yellow"}, {"kind": "bot", "bot": "random", "flock": "purple"}])
    assert made["ok"], made
    unlisted = host.request("create", seats=[{"kind": "human"}, {"kind": "open"}], seed=SEED)
    lobby = stranger.request("lobby")
    assert [g["game"] for g in lobby["games"]] == [made["game"]]      # the unlisted game is not shown
    game = lobby["games"][0]
    assert game["open"] == ["yellow"] and game["seq"] == 0
    assert [(s["flock"], s["kind"], s.get("name")) for s in game["seats"]] == [
        ("red", "human", "Ann Lee"), ("green", "human", "Bo"), ("yellow", "open", None), ("purple", "bot", None)]
    # a stranger claims the open seat from the lobby, naming it; everyone following sees the name
    host.request("join", token=made["tokens"]["red"])
    claimed = stranger.request("join", game=made["game"], seat="yellow", name="Cy")
    assert claimed["ok"] and claimed["seat"] == "yellow"
    assert {s["flock"]: s.get("name") for s in host.pushes[-1]["view"]["seats"]}["yellow"] == "Cy"
    assert stranger.request("lobby")["games"][0]["open"] == []
    # the invite holder renames its seat on joining with its token
    assert friend.request("join", token=made["tokens"]["green"], name="Bob")["ok"]
    names = {s["flock"]: s.get("name") for s in stranger.request("lobby")["games"][0]["seats"]}
    assert names == {"red": "Ann Lee", "green": "Bob", "yellow": "Cy", "purple": None}
    # watching: a lobby game by its id alone, a spectator with no hand and no options; an unlisted game refuses
    watcher = InProcess()
    watcher.hub, watcher.conn = host.hub, host.hub.connect(watcher._push)
    watched = watcher.request("join", game=made["game"])
    assert watched["ok"] and watched["seat"] is None and "token" not in watched
    assert all("hand" not in f for f in watched["view"]["flocks"].values())
    refused = watcher.request("join", game=unlisted["game"])
    assert refused["error"]["code"] == "not-listed"
    # no message to the stranger, the friend or the watcher carries a token other than their own
    secrets = set(made["tokens"].values()) | {made["spectator"], unlisted["spectator"], *unlisted["tokens"].values()}
    for client, own in ((stranger, {claimed["token"]}), (friend, set()), (watcher, set())):
        text = tokens_in(client.received)
        assert not any(t in text for t in secrets - own), "a token reached another client"
    for message in stranger.received:
        if message.get("op") == "lobby":
            assert "token" not in json.dumps(message) and "spectator" not in json.dumps(message)
    check_conformance(host.sent + stranger.sent + friend.sent + watcher.sent,
                      host.received + stranger.received + friend.received + watcher.received)


def test_bad_names_are_refused_and_the_seat_is_unchanged() -> None:
    client = InProcess()
    made = client.request("create", lobby=True, seed=SEED, seats=[{"kind": "human", "flock": "red"},
                                                                        {"kind": "open", "flock": "green"}])
    for bad in ("", "   ", "a" * 25, "tab\there", "<b>"):
        reply = client.request("join", game=made["game"], seat="green", name=bad)
        assert reply["ok"] is False and reply["error"]["code"] == "bad-message", (bad, reply)
    assert client.request("lobby")["games"][0]["open"] == ["green"]
    bot_name = client.request("create", seed=SEED, seats=[{"kind": "human"}, {"kind": "bot", "name": "Robo"}])
    assert bot_name["error"]["code"] == "bad-setup"
    spectator = client.request("join", token=made["spectator"], name="Zed")
    assert spectator["error"]["code"] == "spectator"


def test_names_and_the_lobby_flag_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = InProcess(store=SQLiteStore(path))
    made = first.request("create", lobby=True, seed=SEED, seats=[{"kind": "human", "name": "Ann"}, {"kind": "open"}])
    first.request("join", game=made["game"], seat="green", name="Bo")
    first.hub.store.close()
    again = InProcess(store=SQLiteStore(path))
    game = again.request("lobby")["games"][0]
    assert game["game"] == made["game"] and [s.get("name") for s in game["seats"]] == ["Ann", "Bo"]
    view = again.request("view", token=made["tokens"]["red"])["view"]
    assert [s.get("name") for s in view["seats"]] == ["Ann", "Bo"]


def test_a_finished_game_leaves_the_lobby() -> None:
    client = InProcess()
    made = client.request("create", lobby=True, seed=SEED, seats=[{"kind": "human"}, {"kind": "bot"}])
    token = made["tokens"]["red"]
    while not (view := client.request("view", token=token)["view"])["over"]:
        assert client.request("apply", token=token, option=view["pending"]["options"][0]["id"])["ok"]
    assert client.request("lobby")["games"] == []


def test_named_events_keep_what_a_viewer_may_not_see_hidden() -> None:
    """`named` is the event's text with names for ids, rendered by the same privacy rule as `text` (R-DM-1: the
    terrains of paid domain markers only for the payer)."""
    from kcd.core.events import FORMS

    client = InProcess()
    made = client.request("create", seed=SEED, seats=[{"kind": "human", "name": "Ann", "flock": "red"},
                                                      {"kind": "human", "flock": "green"}])
    tokens = made["tokens"]
    n = 0
    while not (view := client.request("view", token=made["spectator"])["view"])["over"]:
        turn = view["pending"]["player"]
        options = client.request("view", token=tokens[turn])["view"]["pending"]["options"]
        assert client.request("apply", token=tokens[turn], option=options[(n * 7 + 3) % len(options)]["id"])["ok"]
        n += 1
    watched = client.request("events", token=made["spectator"], since=0)["events"]
    own = {f: client.request("events", token=t, since=0)["events"] for f, t in tokens.items()}
    hidden = 0
    for i, event in enumerate(watched):
        form = FORMS.get(event.get("form", ""))
        if form is None or not form.private or not event["player"]:
            continue
        mine = own[event["player"]][i]
        secret = {str(v) for key in form.private for v in (mine.get("fields", {}).get(key) or [])}
        for word in secret - set(re.findall(r"\w+", event["text"])):
            hidden += 1
            assert word not in event["named"], (word, event["named"])
            assert word in mine["named"] or word in mine["text"]
    assert hidden, "the game should have had a private payment"
    assert any("Ann" in e["named"] for e in watched) and not any("Ann" in e["text"] for e in watched)
