"""Protocol schemas that prove something: every option's `action` is one of the
engine's action kinds with exactly its fields (the `oneOf` in common.schema.json is generated from
`action_types.KINDS` and must not be stale); every event carries `form` and `fields`; whole games of every
mode conform message by message; `apply` takes exactly one of `option` or `action`; one connection that joins
two seats follows the game as the seat it joined last; an unreadable message is answered with `id: null`."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from kcd.core import action_types as A
from kcd.apps.service import action_schemas
from kcd.apps.service.client import StdioClient
from kcd.apps.service.protocol import fast_validator, problem, schemas, validator
from test_service_protocol import H, SEED, InProcess, check_conformance, play_through

ROOT = Path(__file__).resolve().parents[1]
COMMON = ROOT / "schemas" / "protocol" / "common.schema.json"
ACTIONS_MD = ROOT / "docs" / "ACTIONS.md"


def documented_examples() -> dict[str, dict]:
    """The example JSON of every kind in docs/ACTIONS.md's table."""
    out = {}
    for row in ACTIONS_MD.read_text(encoding="utf-8").splitlines():
        if row.startswith("| `"):
            cells = [c.strip() for c in row.strip("|").split("|")]
            out[cells[0].strip("`")] = json.loads(cells[4].strip("`"))
    return out


def action_problem(action: object) -> str | None:
    """The schema problem of `action` as an option's action, in a minimal pending view of one option (the
    compiled validator that passes messages and the one that words problems must agree)."""
    message = {"protocol": 1, "id": 1, "op": "pending", "ok": True, "game": "a" * 24, "seat": "red", "seq": 0,
               "your_turn": True, "pending": {"player": "red", "kind": "k", "prompt": "p",
                                              "options": [{"id": "x", "label": "x", "action": action}]}}
    assert fast_validator("reply.pending").is_valid(message) == validator("reply.pending").is_valid(message)
    return problem("reply.pending", message)


# --- the generated action schemas ------------------------------------------------------------------------------

def test_the_action_schemas_are_generated_from_the_engine_s_kinds_and_not_stale() -> None:
    """`python -m kcd.apps.service.action_schemas` writes them; edit an action kind and forget it, and this fails."""
    text = COMMON.read_text(encoding="utf-8")
    assert action_schemas.render(action_schemas.with_action_defs(json.loads(text))) == text, \
        "schemas/protocol/common.schema.json is stale: run .venv/bin/python -m kcd.apps.service.action_schemas"
    defs = json.loads(text)["$defs"]
    assert [defs[f"action.{k}"]["properties"]["kind"]["const"] for k in A.KINDS] == list(A.KINDS)
    assert [b["$ref"].rsplit("/", 1)[1] for b in defs["action"]["oneOf"]] == [f"action.{k}" for k in A.KINDS]


def test_a_definition_added_after_the_generated_ones_keeps_its_place() -> None:
    """Another change that adds a definition to common.schema.json (after the generated ones) needs no rerun."""
    common = json.loads(COMMON.read_text(encoding="utf-8"))
    common["$defs"]["playerName"] = {"type": "string"}
    regenerated = action_schemas.with_action_defs(common)
    assert list(regenerated["$defs"]) == list(common["$defs"])


def test_a_changed_kind_makes_the_schemas_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The staleness check can fail: a field added to a kind changes the generated text."""
    text = COMMON.read_text(encoding="utf-8")
    original = action_schemas.kind_schema

    def with_extra_field(kind: str) -> dict:
        schema = original(kind)
        if kind == "mark":
            schema["properties"]["colour"] = {"type": "string"}
        return schema

    monkeypatch.setattr(action_schemas, "kind_schema", with_extra_field)
    assert action_schemas.render(action_schemas.with_action_defs(json.loads(text))) != text


@pytest.mark.parametrize("kind", list(A.KINDS))
def test_each_kind_s_schema_takes_its_documented_example_and_nothing_else(kind: str) -> None:
    example = documented_examples()[kind]
    assert A.action_from_dict(example).kind == kind
    assert action_problem(example) is None
    assert "Additional properties" in (action_problem({**example, "extra": 1}) or "")
    for field in set(example) - {"kind"}:
        missing = {k: v for k, v in example.items() if k != field}
        assert f"'{field}' is a required property" in (action_problem(missing) or ""), (kind, field)
        wrong = {**example, field: {"not": "a value"}}
        assert "is not of type" in (action_problem(wrong) or ""), (kind, field)
    # every schema the schema accepts, the engine reads (the two agree on what an action is)
    Draft202012Validator.check_schema(schemas()["common"]["$defs"][f"action.{kind}"])


def test_an_unknown_kind_and_a_missing_action_are_refused_by_the_schema() -> None:
    assert "unknown kind `teleport`" in (action_problem({"kind": "teleport"}) or "")
    assert "action: needs a `kind` (kinds: play, " in (action_problem({"hex": "A1"}) or "")
    view = {"protocol": 1, "id": 1, "op": "pending", "ok": True, "game": "a" * 24, "seat": "red", "seq": 0,
            "your_turn": True, "pending": {"player": "red", "kind": "k", "prompt": "p",
                                           "options": [{"id": "x", "label": "x"}]}}
    assert "'action' is a required property" in (problem("reply.pending", view) or "")


def test_every_event_must_carry_form_and_fields() -> None:
    event = {"n": 0, "kind": "gain", "player": "red", "text": "red gains 2 fruit (red, red)", "form": "gain-fruit",
             "fields": {"flock": "red", "fruit": ["red", "red"]}}
    reply = {"protocol": 1, "id": 1, "op": "events", "ok": True, "game": "a" * 24, "events": [event], "next": 1}
    assert problem("reply.events", reply) is None
    for field in ("form", "fields"):
        without = copy.deepcopy(reply)
        del without["events"][0][field]
        assert f"'{field}' is a required property" in (problem("reply.events", without) or "")


# --- whole games of every mode, every message checked ----------------------------------------------------------

GAMES = {
    "standard-2": dict(seats=[H, H]),
    "standard-4-advanced": dict(seats=[H, H, H, H], setup="advanced"),
    "vto-3": dict(seats=[H, H, H], variant="vto"),
    "solo": dict(seats=[H, {"kind": "kiwibot"}], mode="solo"),
    "bots-and-prototype": dict(seats=[H, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
                               content={"editions": ["prototype"], "mods": []}),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_message_of_whole_games_of_every_mode_conforms(name: str) -> None:
    """Options chosen by turns (first, second, ...), typed actions answered every third decision, events
    read from 0 now and then: every request, reply and push validates, and the game reaches its end."""
    client = InProcess()
    create = dict(GAMES[name])
    seats = create.pop("seats")
    result = play_through(client, seats, choose=lambda opts, n: opts[(n * 7) % len(opts)], seed=SEED + len(name),
                          **create)
    assert result["view"]["over"] and result["view"]["ranking"], name
    token = next(iter(result["made"]["tokens"].values()))
    client.request("events", token=token, since=0)
    seen = check_conformance(client.sent, client.received)
    assert {"reply.view", "reply.apply", "push.update", "reply.events"} <= seen
    kinds = {o["action"]["kind"] for m in client.received if "view" in m and m["view"].get("pending")
             for o in m["view"]["pending"]["options"]}
    assert kinds, "the options carried actions"


# --- apply: exactly one of option and action -------------------------------------------------------------------

def _red_to_move(client: InProcess) -> tuple[dict, dict]:
    made = client.request("create", seats=[H, H], seed=SEED)
    pending = client.request("pending", token=made["tokens"]["red"])
    assert pending["your_turn"], pending
    return made, pending


@pytest.mark.parametrize("agree", [False, True])
def test_apply_with_both_an_option_and_an_action_is_refused_whether_or_not_they_agree(agree: bool) -> None:
    client = InProcess()
    made, pending = _red_to_move(client)
    red = made["tokens"]["red"]
    options = pending["pending"]["options"]
    action = options[0]["action"] if agree else options[1]["action"]
    reply = client.request("apply", token=red, option=options[0]["id"], action=action)
    assert reply["ok"] is False and reply["error"]["code"] == "bad-message", reply
    assert reply["error"]["message"] == "apply: message: give exactly one of `option` or `action`; this message has both"
    assert reply["id"] == client.sent[-1]["id"]
    assert client.request("pending", token=red)["seq"] == pending["seq"]     # nothing was decided
    neither = client.request("apply", token=red)
    assert "give exactly one of `option` or `action`; this message has neither" in neither["error"]["message"]
    assert client.request("apply", token=red, action=options[1]["action"])["ok"]   # either alone is taken
    check_conformance([], client.received)   # the refused requests break their schema on purpose


def test_apply_refusals_over_stdio_name_the_field() -> None:
    client = StdioClient(record=True)
    try:
        made = client.request("create", seats=[H, H], seed=SEED)
        red = made["tokens"]["red"]
        both = client.request("apply", token=red, option="card:move", action={"kind": "card", "card": "move"})
        assert "this message has both" in both["error"]["message"]
        bad = client.request("apply", token=red, action={"kind": "card", "card": "move", "hex": "A1"})
        assert bad["error"]["code"] == "bad-message" and "'hex' was unexpected" in bad["error"]["message"]
        unknown = client.request("apply", token=red, action={"kind": "teleport"})
        assert "action: unknown kind `teleport` (kinds: play, " in unknown["error"]["message"]
    finally:
        assert client.close() == 0


# --- one connection, two seats ---------------------------------------------------------------------------------

def test_one_connection_that_joins_two_seats_follows_the_game_as_the_seat_it_joined_last() -> None:
    """Pushes come once per decision, rendered for the seat joined last (the spectator too); both tokens go on
    acting over that connection, since a token, not the connection, is what acts."""
    client = InProcess()
    made, pending = _red_to_move(client)
    red, green = made["tokens"]["red"], made["tokens"]["green"]
    assert client.request("join", token=red)["seat"] == "red"
    assert client.request("join", token=green)["seat"] == "green"
    client.pushes.clear()
    assert client.request("apply", token=red, option=pending["pending"]["options"][0]["id"])["ok"]
    assert len(client.pushes) == 1 and client.pushes[0]["view"]["you"] == "green"
    assert "hand" in client.pushes[0]["view"]["flocks"]["green"]
    assert "hand" not in client.pushes[0]["view"]["flocks"]["red"]       # never red's hidden hand for green
    client.request("join", token=made["spectator"])
    client.pushes.clear()
    flock = client.request("view", token=red)["view"]["pending"]["player"]
    options = client.request("pending", token=made["tokens"][flock])["pending"]["options"]
    assert client.request("apply", token=made["tokens"][flock], option=options[0]["id"])["ok"]
    assert len(client.pushes) == 1 and client.pushes[0]["view"]["you"] is None
    client.request("leave", token=red)      # leaving with any seat's token stops the game's pushes here
    client.pushes.clear()
    flock = client.request("view", token=red)["view"]["pending"]["player"]
    options = client.request("pending", token=made["tokens"][flock])["pending"]["options"]
    assert client.request("apply", token=made["tokens"][flock], option=options[0]["id"])["ok"]
    assert client.pushes == []
    check_conformance(client.sent, client.received)


def test_one_connection_follows_two_games_side_by_side_each_as_its_own_seat() -> None:
    client = InProcess()
    first, pending = _red_to_move(client)
    second = client.request("create", seats=[H, H], seed=SEED + 1)
    client.request("join", token=first["tokens"]["green"])
    client.request("join", token=second["tokens"]["red"])
    client.pushes.clear()
    assert client.request("apply", token=first["tokens"]["red"], option=pending["pending"]["options"][0]["id"])["ok"]
    options = client.request("pending", token=second["tokens"]["red"])["pending"]["options"]
    assert client.request("apply", token=second["tokens"]["red"], option=options[0]["id"])["ok"]
    assert [(p["game"], p["view"]["you"]) for p in client.pushes] == [(first["game"], "green"),
                                                                      (second["game"], "red")]


# --- replies to messages that cannot be read -------------------------------------------------------------------

def test_an_unreadable_message_is_answered_in_order_with_id_null() -> None:
    """Not JSON, not an object, an id that is no string or number, or too large: the reply has `id: null`
    and comes in its place in the order of replies, so a client matches it to its oldest unanswered request."""
    client = StdioClient(record=True)
    try:
        replies = [client.send_raw("{oops"), client.send_raw("[1, 2]"),
                   client.send_raw(json.dumps({"protocol": 1, "id": {"x": 1}, "op": "hello"})),
                   client.send_raw("x" * 300_000),
                   client.send_raw(json.dumps({"protocol": 1, "id": 7, "op": "nope"}))]
        assert [r["id"] for r in replies] == [None, None, None, None, 7]
        assert [r["error"]["code"] for r in replies] == ["bad-json", "bad-message", "bad-message", "too-large",
                                                        "unknown-op"]
        assert all(r["ok"] is False and r["op"] in (None, "hello") for r in replies[:4])
        assert client.request("hello")["ok"]
    finally:
        assert client.close() == 0
    check_conformance([], client.received)


def test_the_python_client_takes_an_id_null_reply_as_the_answer_to_its_request() -> None:
    client = StdioClient()
    try:
        reply = client.request("view", token="t" * 43, padding="x" * 300_000)
        assert reply["id"] is None and reply["error"]["code"] == "too-large"
        assert client.request("hello")["ok"]
    finally:
        assert client.close() == 0
