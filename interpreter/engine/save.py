"""Reading a save safely: bounded JSON parsing, the save's JSON Schema, and the engine's invariants.

Every problem is a `ValueError` with a message that says what is wrong; nothing here runs game code, so a
hostile save cannot make the engine loop or raise anything else (`Game.from_json` then rebuilds the running
step from the saved frames, checked by interpreter/engine/values.py, or, for an old save without them, replays
the history and compares). The invariants are the ones the random-play tests check after every decision
(tests/test_invariants.py): tokens, fruit and markers conserved, sizes, hands and numbers in range, seats, phases
and ids that exist in the content.
"""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from typing import Any

from kcd.engine import mode_registry as modes
from kcd.core.action_types import action_from_dict
from kcd.core.decisions import Decision, Option
from kcd.content.rules import Rules
from kcd.core.state import State

FORMAT = 4
FORMATS = (2, 3, 4)   # 2 (no frames) loads by replaying its history; 3 too when its frames name a program
MAX_TEXT = 4_000_000          # characters: a finished 4-player save is about 20 KB
_MAX_MESSAGE = 240


class SaveError(ValueError):
    """A save that cannot be loaded; the message says why."""


def _no_constant(name: str) -> Any:
    raise SaveError(f"not a saved Kiwi Chow Down game: `{name}` is not a number a save can hold")


def _no_float(text: str) -> Any:
    raise SaveError(f"not a saved Kiwi Chow Down game: {text[:40]} is not a whole number (saves hold only integers)")


def parse(text: Any) -> dict[str, Any]:
    """The save's JSON object: bounded in size and depth, integers only (no NaN, Infinity or floats)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveError(f"not a saved Kiwi Chow Down game: not UTF-8 text ({exc.reason})") from None
    if not isinstance(text, str):
        raise SaveError(f"not a saved Kiwi Chow Down game: expected JSON text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise SaveError(f"not a saved Kiwi Chow Down game: {len(text):,} characters (at most {MAX_TEXT:,})")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_no_float)
    except SaveError:
        raise
    except RecursionError:
        # the C decoder gives up on deep nesting quickly; a save is never more than a few levels deep
        raise SaveError("not a saved Kiwi Chow Down game: JSON nested too deeply") from None
    except ValueError as exc:   # JSONDecodeError, and Python's limit on digits in an int
        raise SaveError(f"not a saved Kiwi Chow Down game: {_short(str(exc))}") from None
    if not isinstance(data, dict) or "state" not in data:
        raise SaveError("not a saved Kiwi Chow Down game: expected the JSON object written by Game.to_json()")
    if data.get("format") not in FORMATS or type(data.get("format")) is not int:
        raise SaveError(f"not a saved Kiwi Chow Down game of format {' or '.join(map(str, FORMATS))}: format "
                        f"{_short(repr(data.get('format')))} (format 1 saves had no history; they cannot be loaded)")
    return data


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    from kcd.core.paths import schemas_dir
    schema = json.loads((schemas_dir() / "save.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


@lru_cache(maxsize=1)
def _fast_validator() -> Any:
    """The same schema in jsonschema-rs (a compiled validator, about 50 times faster), used to pass valid saves."""
    import jsonschema_rs

    from kcd.core.paths import schemas_dir
    return jsonschema_rs.Draft202012Validator((schemas_dir() / "save.schema.json").read_text(encoding="utf-8"))


def check_schema(data: dict[str, Any]) -> None:
    """Raise SaveError naming the first place where the save breaks schemas/save.schema.json.

    A valid save passes the compiled validator (jsonschema-rs); anything else goes through jsonschema's
    `best_match`, whose messages name the place (and which also judges what the compiled one cannot take, such
    as integers beyond 64 bits)."""
    try:
        if _fast_validator().is_valid(data):
            return
    except Exception:   # noqa: BLE001 - a value jsonschema-rs cannot convert: the full check below says why
        pass
    from jsonschema.exceptions import best_match
    try:
        # best_match descends into anyOf branches, so a wrong `setup.variant` is named as such
        error = best_match(_validator().iter_errors(data))
    except RecursionError:
        raise SaveError("not a saved Kiwi Chow Down game: JSON nested too deeply") from None
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise SaveError(f"save does not match schemas/save.schema.json at {where}: {_short(error.message)}")


def _short(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[:_MAX_MESSAGE] + "…"


def check_state(rules: Rules, data: dict[str, Any], where: str, params: dict[str, Any]) -> State:
    """The state of a save (already schema-checked) if it keeps every invariant, else SaveError."""
    problems = _state_problems(rules, data, params)
    if problems:
        raise SaveError(f"save's {where} is impossible: {_short(problems[0])}")
    return State.from_dict(data)


def _state_problems(rules: Rules, data: dict[str, Any], params: dict[str, Any]) -> list[str]:
    """Every broken invariant of one state's data, as readable lines (first problems first)."""
    out: list[str] = []
    seats = list(data["seats"])
    flocks = {f["id"]: f for f in data["flocks"]}
    if len(set(seats)) != len(seats) or set(seats) != set(flocks) or len(flocks) != len(data["flocks"]):
        return [f"seats {seats} do not match the flocks {[f['id'] for f in data['flocks']]}"]
    for f in seats:
        if f not in rules.flocks:
            return [f"unknown flock `{f}` in the seats (this content has {', '.join(rules.flocks)})"]
    if [flocks[f]["seat"] for f in seats] != list(range(1, len(seats) + 1)):
        out.append("seat numbers do not follow the seat order")
    if data["first"] >= len(seats):
        out.append(f"first player index {data['first']} for {len(seats)} seats")
    # `setup` (first-game / advanced) is the one entry not copied from the content
    extra = {k: v for k, v in data["params"].items() if k != "setup"}
    if extra != params or data["params"].get("setup", "first-game") not in ("first-game", "advanced"):
        out.append("rule values (`params`) differ from this content's")
    try:
        mode = modes.for_data(data)
    except modes.ModeError as exc:
        return [str(exc)]
    out += _flow_problems(rules, data, len(seats), mode)
    # the island
    hex_terrain: dict[str, str] = {}
    coords: set[tuple[int, int]] = set()
    kiwi_ids: set[int] = set()
    on_island: Counter[str] = Counter()
    markers: Counter[str] = Counter(data["domain_bag"])
    covers: Counter[str] = Counter()
    nests: Counter[tuple[str, str]] = Counter()
    for hid, q, r, terrain, kiwi, nest, domain in data["hexes"]:
        if hid in hex_terrain or (q, r) in coords:
            out.append(f"hex {hid} at ({q}, {r}) appears twice")
        hex_terrain[hid] = terrain
        coords.add((q, r))
        if terrain not in rules.terrains:
            out.append(f"hex {hid}: unknown terrain `{terrain}`")
        for kid, flock, size in kiwi:
            if flock not in flocks:
                out.append(f"hex {hid}: a Kiwi of `{flock}`, which is not playing")
            if size > rules.max_size:
                out.append(f"hex {hid}: a stack of size {size} (game.yaml limits.kiwi_size is {rules.max_size})")
            if kid in kiwi_ids or kid >= data["next_kiwi"]:
                out.append(f"hex {hid}: Kiwi id {kid} repeated or not below next_kiwi {data['next_kiwi']}")
            kiwi_ids.add(kid)
            on_island[flock] += size
        if nest is not None:
            if nest[0] not in flocks or nest[1] not in rules.nests:
                out.append(f"hex {hid}: unknown Nest {nest}")
            nests[(nest[0], nest[1])] += 1
        if domain is not None:
            if domain[0] not in flocks or domain[1] != terrain:
                out.append(f"hex {hid}: a domain marker {domain} that cannot lie on {terrain}")
            markers[domain[1]] += 1
            covers[domain[0]] += 1
    fruit: Counter[str] = Counter(data["fruit_bag"])
    for fid in seats:
        out += _flock_problems(rules, flocks[fid], hex_terrain, on_island[fid], covers[fid], nests, data)
        fruit.update(flocks[fid]["fruit"])
        markers.update(flocks[fid]["domain"])
    if +fruit != +Counter(rules.fruit_counts) or set(fruit) - set(rules.fruit_counts):
        out.append(f"fruit {dict(fruit)} is not the game's {rules.fruit_counts} (bag plus reserves)")
    if +markers != +Counter(rules.domain_counts) or set(markers) - set(rules.domain_counts):
        out.append(f"domain markers {dict(markers)} are not the game's {rules.domain_counts} (bag, reserves, island)")
    out += _card_problems(rules, data, flocks, mode)
    out += mode.check_save(rules, data)   # the mode's own data (solo's Solo cards, the VTO tracker's content)
    return out


def _flow_problems(rules: Rules, data: dict[str, Any], n: int, mode: Any) -> list[str]:
    """Season, phase, step and variant in range."""
    out = []
    phases = mode.phases(rules)
    if data["phase"] not in phases and data["phase"] not in ("setup", "over"):
        out.append(f"phase `{data['phase']}` does not exist (phases: {', '.join(phases)})")
    if data["over"] != (data["phase"] == "over"):
        out.append(f"`over` is {data['over']} in phase {data['phase']}")
    if data["season"] > rules.seasons:
        out.append(f"season {data['season']} of a {rules.seasons}-season game")
    if data["step"] > n * max(rules.cards_per_season, 1) + 1:
        out.append(f"step {data['step']} of a phase with {n} players")
    for card in data["season_cards"]:
        if card not in rules.season_cards:
            out.append(f"unknown Season card `{card}`")
    if len(set(data["season_cards"])) != len(data["season_cards"]):
        out.append("a Season card appears twice")
    return out


def _flock_problems(rules: Rules, f: dict[str, Any], hexes: dict[str, str], island: int, covers: int,
                    nests: Counter[tuple[str, str]], data: dict[str, Any]) -> list[str]:
    """One flock: its 20 tokens, hand, leader, nests, tracker."""
    out = []
    fid = f["id"]
    counted = island + f["track"] + f["reserve_kiwi"] + f["covers"] + f["supply"] + f["on_tracker"]
    if counted != rules.kiwi_tokens:
        out.append(f"{fid} has {counted} Kiwi tokens (island {island}, track {f['track']}, reserve "
                   f"{f['reserve_kiwi']}, covers {f['covers']}, supply {f['supply']}, tracker {f['on_tracker']}); "
                   f"a flock has {rules.kiwi_tokens}")
    if f["covers"] != covers:
        out.append(f"{fid}: {f['covers']} covering tokens for {covers} placed markers")
    if f["track"] > rules.track_tokens:
        out.append(f"{fid}: {f['track']} tokens on a track of {rules.track_tokens}")
    if len(f["hand"]) > rules.hand:
        out.append(f"{fid} holds {len(f['hand'])} cards (game.yaml limits.hand is {rules.hand})")
    for colour in f["fruit"]:
        if colour not in rules.fruit_counts:
            out.append(f"{fid}: unknown fruit `{colour}`")
    for terrain in f["domain"]:
        if terrain not in rules.domain_counts:
            out.append(f"{fid}: unknown domain marker `{terrain}`")
    leader = rules.leaders.get(f["leader"])
    if leader is None:
        out.append(f"{fid}: unknown Leader `{f['leader']}`")
    elif f["leader_card"] not in leader.card_ids + ([""] if not leader.cards else []):
        out.append(f"{fid}: `{f['leader_card']}` is not a card of {f['leader']}")
    if f["leader_hex"] is not None and f["leader_hex"] not in hexes:
        out.append(f"{fid}: Leader on `{f['leader_hex']}`, not a hex of the island")
    built = sorted(n for (owner, n) in nests if owner == fid)
    if len(set(f["nests_built"])) != len(f["nests_built"]) or sorted(f["nests_built"]) != built:
        out.append(f"{fid}: built {f['nests_built']} but the island holds {built}")
    if any(n > 1 for n in nests.values()):
        out.append("a Nest stands on two hexes")
    for card in f["kept_season_cards"]:
        if card not in rules.season_cards:
            out.append(f"{fid}: unknown Season card `{card}`")
    for slot in (f["tracker_slot"], f["tracker_prev"]):
        if slot is not None and slot not in rules.tracker:
            out.append(f"{fid}: turn tracker slot {slot} does not exist")
    return out


def _card_problems(rules: Rules, data: dict[str, Any], flocks: dict[str, dict[str, Any]], mode: Any) -> list[str]:
    """Every flock's Action cards are its deck's cards (with those the mode holds apart, e.g. Kiwibot's)."""
    out = []
    deck = +Counter({c: int(n) for c, n in rules.deck.items()})
    for fid, f in flocks.items():
        cards = f["hand"] + f["deck"] + f["discard"] + f["played"] + mode.extra_cards(data, fid)
        if +Counter(cards) != deck:
            out.append(f"{fid}'s Action cards {dict(Counter(cards))} are not a deck {dict(deck)}")
        if len(set(f["facedown"])) != len(f["facedown"]) or any(i >= len(f["played"]) for i in f["facedown"]):
            out.append(f"{fid}: face-down card indices {f['facedown']} for {len(f['played'])} played cards")
    return out


def decision_from_data(data: dict[str, Any], seats: list[str]) -> Decision:
    """The pending decision of a save (schema-checked): a seat decides, every option's id is its action's id,
    distinct options (one alone only where the asking frame asks whatever the count, `values.Ask.always`)."""
    if data["player"] not in seats:
        raise SaveError(f"save's pending decision is for `{_short(data['player'])}`, who is not playing")
    options = []
    for i, o in enumerate(data["options"]):
        try:
            action = action_from_dict(o["action"])
            same = action.id() == o["id"]
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            raise SaveError(f"save's pending option {i + 1}: {_short(str(exc))}") from None
        if not same:
            raise SaveError(f"save's pending option {i + 1}: its id {_short(o['id'])!r} is not its action's")
        options.append(Option(o["id"], o["label"], action))
    if len({o.id for o in options}) != len(options) or not options:
        raise SaveError("save's pending decision needs distinct options, at least one")
    return Decision(data["player"], data["kind"], data["prompt"], tuple(options))
