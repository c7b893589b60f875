"""The service protocol: every message both ways conforms to its schema in schemas/protocol/, the
reference page docs/PROTOCOL.md matches the schemas, and the seed and RNG never leave the server."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kcd.apps.service.client import StdioClient
from kcd.apps.service.hub import Hub, Limits
from kcd.apps.service.protocol import OPS, problem, schema_name, schemas
from kcd.apps.service.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[1]
SEED = 918273645


class InProcess:
    """The hub behind a recording connection, with bots played after each request as the transports do."""

    def __init__(self, store=None, limits=None) -> None:
        # tests send hundreds of messages a second: the rate limit has its own test
        self.hub = Hub(store or SQLiteStore(), limits or Limits(messages_per_second=1e6, burst=10**6))
        self.sent: list[dict] = []
        self.received: list[dict] = []
        self.pushes: list[dict] = []
        self.conn = self.hub.connect(self._push)

    def _push(self, message: dict) -> None:
        self.received.append(message)
        self.pushes.append(message)

    def request(self, op: str, **fields) -> dict:
        message = {"protocol": 1, "id": len(self.sent) + 1, "op": op, **fields}
        self.sent.append(message)
        reply = self.hub.handle(self.conn, json.dumps(message))
        self.received.append(reply)
        self.hub.flush()
        for game_id in self.hub.bots_due():
            while self.hub.bot_step(game_id):
                pass
        return reply


def play_through(client, seats, choose=lambda opts, n: opts[n % len(opts)], **create) -> dict:
    """Create a game, join every human seat, play it to the end choosing with `choose`; the last view."""
    made = client.request("create", seats=seats, **create)
    assert made["ok"], made
    tokens = made["tokens"]
    for token in tokens.values():
        assert client.request("join", token=token)["ok"]
    n = 0
    while True:
        views = {f: client.request("view", token=t)["view"] for f, t in tokens.items()}
        any_view = next(iter(views.values()))
        if any_view["over"]:
            return {"made": made, "view": any_view, "decisions": n}
        flock = any_view["pending"]["player"]
        opts = views[flock]["pending"]["options"]
        reply = client.request("apply", token=tokens[flock], option=choose(opts, n)["id"])
        assert reply["ok"], reply
        n += 1


def check_conformance(sent: list[dict], received: list[dict]) -> set[str]:
    """Every request against request.<op>, every reply/push against its schema; the schema names seen."""
    seen = set()
    for message in sent:
        name = f"request.{message['op']}"
        assert problem(name, message) is None, (name, problem(name, message), message)
        seen.add(name)
    for message in received:
        name = schema_name(message)
        assert problem(name, message) is None, (name, problem(name, message), str(message)[:500])
        seen.add(name)
    return seen


def exercise_every_op(client) -> None:
    """One call of each operation, errors included, on a short game."""
    client.request("hello")
    client.request("content", content={"editions": ["prototype"]})
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "open"}], seed=SEED)
    red = made["tokens"]["red"]
    joined = client.request("join", game=made["game"], seat="green")
    green = joined["token"]
    client.request("join", token=made["spectator"])
    client.request("join", token=red)
    pending = client.request("pending", token=red)
    assert pending["your_turn"]
    opt = pending["pending"]["options"][0]["id"]
    client.request("apply", token=red, option=opt, seq=pending["seq"])
    client.request("undo", token=red)
    client.request("redo", token=red)
    client.request("events", token=green, since=0)
    client.request("view", token=made["spectator"])
    save = client.request("save", token=red)["save"]
    client.request("load", save=save)
    client.request("replay", token=red, at=0)
    client.request("apply", token=green, option="nope")           # an error reply
    client.request("leave", token=red)
    client.request("lobby")


def test_every_message_of_a_whole_game_conforms_in_process() -> None:
    client = InProcess()
    result = play_through(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=SEED)
    assert result["view"]["over"] and result["view"]["ranking"]
    exercise_every_op(client)
    seen = check_conformance(client.sent, client.received)
    every = {f"request.{op}" for op in OPS} | {f"reply.{op}" for op in OPS} | {"error", "push.update"}
    assert every <= seen, every - seen


def test_every_message_over_stdio_conforms_and_a_bot_game_finishes() -> None:
    client = StdioClient(record=True)
    try:
        result = play_through(client, [{"kind": "bot", "bot": "greedy"}, {"kind": "human"}], seed=SEED,
                              variant="vto")
        exercise_every_op(client)
    finally:
        assert client.close() == 0
    assert result["view"]["over"] and result["view"]["variant"] == "vto"
    seen = check_conformance(client.sent, client.received)
    assert {"push.update", "error", "reply.create", "reply.apply"} <= seen


def test_the_seed_and_the_rng_never_leave_the_server() -> None:
    client = InProcess()
    play_through(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], seed=SEED)
    exercise_every_op(client)
    rngs = {str(SEED)}
    live = next(iter(client.hub.live.values()))
    rngs.add(str(live.game.state.rng))
    for message in client.received:
        text = json.dumps(message)
        for secret in rngs:
            assert secret not in text, (secret, text[:300])
        for key in ('"seed"', '"rng"', '"state"', '"decisions_since"', '"checkpoint"'):
            assert key not in text, (key, text[:300])


def test_a_game_without_a_seed_gets_a_secret_one_per_game() -> None:
    client = InProcess()
    a = client.request("create", seats=[{"kind": "human"}, {"kind": "bot"}])
    b = client.request("create", seats=[{"kind": "human"}, {"kind": "bot"}])
    seeds = {client.hub.live[a["game"]].record.seed, client.hub.live[b["game"]].record.seed}
    assert len(seeds) == 2 and all(s.bit_length() > 32 for s in seeds)


def test_save_and_load_continue_the_same_game_and_a_tampered_save_is_refused() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=SEED)
    tokens = made["tokens"]
    for _ in range(12):
        view = client.request("view", token=tokens["red"])["view"]
        flock = view["pending"]["player"]
        opts = client.request("pending", token=tokens[flock])["pending"]["options"]
        client.request("apply", token=tokens[flock], option=opts[-1]["id"])
    save = client.request("save", token=tokens["red"])["save"]
    assert save["decisions"] == 12 and str(SEED) not in json.dumps(save)
    loaded = client.request("load", save=save)
    assert loaded["ok"] and loaded["game"] != made["game"] and loaded["seq"] == 12
    assert set(loaded["tokens"]) == {"red", "green"} and loaded["tokens"]["red"] != tokens["red"]
    for flock in ("red", "green"):
        old = client.request("view", token=tokens[flock])["view"]
        new = client.request("view", token=loaded["tokens"][flock])["view"]
        assert old == new
    forged = dict(save, sealed=save["sealed"][:-8] + "AAAAAAAA")
    refused = client.request("load", save=forged)
    assert refused["error"]["code"] == "bad-save"
    other = InProcess()   # another server: another key
    assert other.request("load", save=save)["error"]["code"] == "bad-save"


def test_replay_shows_the_viewer_what_it_saw_then() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "bot"}], seed=SEED)
    red = made["tokens"]["red"]
    first = client.request("view", token=red)["view"]
    opt = first["pending"]["options"][0]["id"]
    client.request("apply", token=red, option=opt)
    replay = client.request("replay", token=red, at=0)
    assert replay["ok"] and replay["at"] == 0 and replay["of"] >= 1
    assert {k: v for k, v in replay["view"].items() if k not in ("can_undo", "can_redo")} == \
        {k: v for k, v in first.items() if k not in ("can_undo", "can_redo")}
    too_far = client.request("replay", token=red, at=10_000)
    assert too_far["error"]["code"] == "bad-message"


def test_events_since_n_are_rendered_for_the_viewer() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "bot"}], seed=SEED)
    red = made["tokens"]["red"]
    everything = client.request("events", token=red, since=0)
    assert everything["next"] == len(everything["events"]) > 0
    assert [e["n"] for e in everything["events"]] == list(range(everything["next"]))
    later = client.request("events", token=red, since=everything["next"] - 2)
    assert later["events"] == everything["events"][-2:]


def test_content_lists_names_rules_text_and_colours() -> None:
    cat = InProcess().request("content", content={"mods": ["example"]})["catalogue"]
    assert cat["content"] == {"editions": [], "mods": ["example"]}
    red = next(f for f in cat["flocks"] if f["id"] == "red")
    assert red["name"] and re.match(r"^#[0-9a-fA-F]{6}$", red["colour"]) and red["sides"]["side_a"]["track"]
    assert all(card["text"] for card in cat["action_cards"])
    assert all(c["objective"] and c["name"] for c in cat["season_cards"])
    assert {"prototype", "example"} <= {p["id"] for p in cat["packs"]}
    assert any(leader["cards"] and leader["cards"][0]["text"] for leader in cat["leaders"])
    assert "vto" in {v["id"] for v in cat["variants"]} and "solo" in cat["modes"]
    assert {"random", "greedy"} <= set(cat["bots"])


def test_a_solo_game_seats_kiwibot_and_only_the_player_decides() -> None:
    client = InProcess()
    result = play_through(client, [{"kind": "human"}, {"kind": "kiwibot"}], mode="solo", seed=SEED)
    view = result["view"]
    assert view["over"] and "solo" in view and {s["kind"] for s in view["seats"]} == {"human", "kiwibot"}
    bad = client.request("create", seats=[{"kind": "human"}, {"kind": "kiwibot"}], seed=1)
    assert bad["error"]["code"] == "bad-setup"


# --- docs/PROTOCOL.md against the schemas ------------------------------------------------------------------------
def _sections(text: str) -> dict[str, str]:
    """`### name` headings of the reference page and their text."""
    parts = re.split(r"^### `([a-z.]+)`\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_protocol_reference_documents_every_message_and_field_and_its_examples_conform() -> None:
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    sections = _sections(text)
    names = {n for n in schemas() if n != "common"}
    assert set(sections) == names, (names - set(sections), set(sections) - names)
    for name in names:
        body = sections[name]
        for field in schemas()[name].get("properties", {}):
            assert f"`{field}`" in body, f"docs/PROTOCOL.md `{name}` does not document field `{field}`"
        examples = re.findall(r"```json\n(.*?)```", body, flags=re.S)
        assert examples, f"docs/PROTOCOL.md `{name}` has no JSON example"
        for example in examples:
            assert problem(name, json.loads(example)) is None, (name, problem(name, json.loads(example)))
    codes = schemas()["error"]["properties"]["error"]["properties"]["code"]["enum"]
    for code in codes:
        assert f"`{code}`" in text, f"error code `{code}` is not documented"


@pytest.mark.parametrize("name", sorted(schemas()))
def test_every_protocol_schema_is_a_valid_2020_12_schema(name: str) -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schemas()[name])


H = {"kind": "human"}


@pytest.mark.parametrize("fields,code,words", [
    ({"sides": {"red": "Z"}}, "bad-setup", "side must be A or B"),
    ({"leaders": {"red": "nobody"}}, "bad-setup", "unknown leader `nobody`"),
    ({"leader_cards": {"red": "nope"}}, "bad-setup", "leader card `nope`"),
    ({"mode": "solo"}, "bad-setup", "one seat of kind kiwibot"),
    ({"seats": [H]}, "bad-setup", "2 to 4 seats"),
    ({"seats": [H] * 5}, "bad-setup", "no flock left for seat 5"),
    ({"seats": [{"kind": "human", "flock": "pink"}, H]}, "bad-setup", "unknown flock `pink`"),
    ({"seats": [{"kind": "human", "flock": "red"}, {"kind": "bot", "flock": "red"}]}, "bad-setup", "two seats"),
    ({"seats": [H, {"kind": "human", "bot": "greedy"}]}, "bad-setup", "only for a seat of kind bot"),
    ({"seats": [H, {"kind": "kiwibot"}]}, "bad-setup", "only for mode solo"),
    ({"seats": [H, {"kind": "kiwibot"}], "mode": "solo", "solo_side": "nope"}, "bad-setup", "marker side `nope`"),
    ({"seats": [H, {"kind": "bot", "bot": "kiwibot"}]}, "bad-setup", "Kiwibot is no bot"),
    ({"content": {"editions": ["../x"]}}, "bad-message", "does not match"),
    ({"content": {"editions": ["nope"]}}, "bad-content", "unknown edition `nope`"),
    ({"seed": -1}, "bad-message", "minimum"),
    ({"seed": 1.5}, "bad-message", "not of type 'integer'"),
    ({"colour": "red"}, "bad-message", "Additional properties"),
])
def test_bad_create_arguments_are_refused_with_a_reason(fields, code, words) -> None:
    client = InProcess()
    reply = client.request("create", **{"seats": [H, H], **fields})
    assert reply["ok"] is False and reply["error"]["code"] == code and words in reply["error"]["message"], reply
    assert not client.hub.live


def test_bad_lines_over_stdio_get_error_replies_and_the_session_goes_on() -> None:
    client = StdioClient(record=True)
    try:
        assert client.send_raw("{oops")["error"]["code"] == "bad-json"
        assert client.send_raw("x" * 300_000)["error"]["code"] == "too-large"
        assert client.send_raw(json.dumps({"protocol": 1, "op": "view", "token": "t" * 30}))["error"]["code"] == \
            "bad-token"
        assert client.request("hello")["ok"]
    finally:
        assert client.close() == 0
    check_conformance([], client.received)


def test_options_carry_typed_actions_and_apply_takes_one() -> None:
    client = InProcess()
    made = client.request("create", seats=[H, H], seed=SEED)
    tokens = made["tokens"]
    seen_kinds = set()
    for _ in range(40):
        view = client.request("view", token=tokens["red"])["view"]
        flock = view["pending"]["player"]
        options = client.request("pending", token=tokens[flock])["pending"]["options"]
        assert all(o["action"]["kind"] for o in options)
        seen_kinds |= {o["action"]["kind"] for o in options}
        choice = options[-1]
        reply = client.request("apply", token=tokens[flock], action=choice["action"], seq=view["seq"])
        assert reply["ok"] and reply["seq"] == view["seq"] + 1, reply
    assert {"card", "play"} <= seen_kinds
    flock = client.request("view", token=tokens["red"])["view"]["pending"]["player"]
    bad = client.request("apply", token=tokens[flock], action={"kind": "teleport"})
    assert bad["error"]["code"] == "bad-message" and "action: unknown kind `teleport`" in bad["error"]["message"]
    wrong = client.request("apply", token=tokens[flock], action={"kind": "mark", "hex": "Z99"})
    assert wrong["error"]["code"] in ("illegal", "stale")


def test_serve_content_plays_a_designers_copy_with_its_own_mod(root: Path) -> None:
    import shutil

    shutil.copytree(root / "mods" / "example", root / "mods" / "mine")
    pack = root / "mods" / "mine" / "pack.yaml"
    pack.write_text(pack.read_text().replace("id: example", "id: mine"))
    client = StdioClient(["--content", str(root)])
    try:
        cat = client.request("content", content={"mods": ["mine"]})
        assert cat["ok"], cat
        assert "mine" in {p["id"] for p in cat["catalogue"]["packs"]}
        made = client.request("create", seats=[H, H], content={"mods": ["mine"]}, seed=3)
        assert made["ok"], made
        assert client.request("create", seats=[H, H], content={"mods": ["absent"]})["error"]["code"] == "bad-content"
    finally:
        assert client.close() == 0
