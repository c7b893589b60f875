"""The compositional layer's labels and prompts are built only when read, and read exactly as the
f-strings they replace: mods written in the effect language (`compose`, and a test mod `verbs` whose leader cards use
every verb on selectors: swap, shrink, remove, move ... to, grow, `a chosen opponent`, push ... out) are played at
random; every decision a compose frame asks waits to be read, the game loop formats no text at all, and the texts of
all decisions hash as they did before the change."""
from __future__ import annotations

import hashlib
import random
import shutil
from pathlib import Path

import pytest

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.core import decisions
from kcd.core import action_types as A
from kcd.core.decisions import Decision

# a test mod: one leader whose cards use the verbs on selectors the `compose` mod does not
_VERBS = """\
- id: kakapo
  name: Kakapo
  source: "designed: test leader using every verb on selectors"
  cards:
    - id: kakapo-1
      name: Trade Places
      ability: leader moves 1; swap my leader for a kiwi of an opponent in a hex adjacent to the landing hex
      source: "designed: test"
    - id: kakapo-2
      name: Peck
      ability: >-
        leader moves 1; shrink a kiwi of an opponent in a hex within 2 of the landing hex;
        remove a kiwi of an opponent in a hex within 2 of the landing hex
      source: "designed: test"
- id: takahe
  name: Takahe
  source: "designed: test leader using verbs on selectors"
  cards:
    - id: takahe-1
      name: Wander
      ability: >-
        leader moves 1; move a kiwi of me in the landing hex to a hex adjacent to the landing hex;
        grow a kiwi of me in a hex adjacent to the landing hex; place 1 kiwi on a hex adjacent to the landing hex
      source: "designed: test"
    - id: takahe-2
      name: Scatter
      ability: >-
        leader moves 1; remove every kiwi of a chosen opponent in the landing hex;
        push every kiwi of an opponent out of a hex adjacent to the landing hex;
        swap a kiwi of me in a hex adjacent to the landing hex for a kiwi of an opponent in the landing hex
      source: "designed: test"
"""


def make_verbs_ruleset(root: Path):
    """The base content, the `compose` mod and the test mod `verbs`, copied under `root`."""
    from kcd.core.paths import content_dir
    shutil.copytree(content_dir() / "base", root / "base")
    shutil.copytree(content_dir() / "mods" / "compose", root / "mods" / "compose")
    pack = root / "mods" / "verbs"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        'id: verbs\nname: Verbs\nkind: mod\ndescription: test pack\nsource: "designed: test"\n')
    (pack / "leaders.yaml").write_text(_VERBS)
    return load_ruleset(["compose", "verbs"], root=root)


@pytest.fixture(scope="module")
def verbs_ruleset(tmp_path_factory: pytest.TempPathFactory):
    """The ruleset with the `verbs` mod."""
    return make_verbs_ruleset(tmp_path_factory.mktemp("verbs") / "content")


def digest_of(game: Game, digest) -> None:
    """Add the pending decision's kind, prompt and labels to `digest`."""
    d = game.pending
    digest.update(repr((d.kind, d.prompt, [o.label for o in d.options])).encode("utf-8"))


def _games(verbs_ruleset) -> list[Game]:
    """Mid-size games of the mods: kotare (the `compose` mod), hoiho (`example`), kakapo with each card (`verbs`)."""
    compose_rs = load_ruleset(["compose"])
    players = ["teal", "green", "red"]
    sides = {p: "B" for p in players}
    out = []
    example_rs = load_ruleset(["example"])
    for seed in range(4):
        out.append(Game.new(compose_rs, players=players, seed=seed, sides=sides, variant="vto" if seed % 2 else None,
                            leaders={"teal": "kotare", "green": "kotare", "red": "chopan"},
                            leader_cards={"teal": "kotare-1", "green": "kotare-2"}))
        out.append(Game.new(example_rs, players=["red", "green", "yellow"], seed=50 + seed,
                            leaders={"red": "hoiho", "green": "hoiho", "yellow": "chopan"}))
    cards = ["kakapo-1", "kakapo-2", "takahe-1", "takahe-2"]
    for seed in range(12):
        teal, green = cards[seed % 4], cards[(seed + 1) % 4]
        out.append(Game.new(verbs_ruleset, players=players, seed=100 + seed, sides=sides,
                            leaders={"teal": teal.split("-")[0], "green": green.split("-")[0], "red": "kotare"},
                            leader_cards={"teal": teal, "green": green, "red": "kotare-2"}))
    return out


def _pick(game: Game, rng: random.Random) -> str:
    ids = game.pending_ids()
    return "ability" if "ability" in ids and rng.random() < 0.8 else rng.choice(ids)


def _piece(a) -> str:
    """A piece named by a picking, pushing or moving action, as the labels always wrote it."""
    if isinstance(a, (A.PickLeader, A.PushLeader, A.MoveToLeader)):
        return f"the {a.flock} Leader on {a.hex}"
    return f"the {a.flock} size-{a.size} Kiwi on {a.hex}"


def _expected_label(d: Decision, a) -> str | None:
    """The label a compose option had when it was an f-string (None: not a compose option)."""
    if isinstance(a, A.ChoosePlayer):
        return f"Choose {a.flock}"
    if isinstance(a, (A.PickKiwi, A.PickLeader)):
        return f"{'Swap' if a.verb == 'swap-with' else a.verb.capitalize()} {_piece(a)}"
    if isinstance(a, (A.MoveToKiwi, A.MoveToLeader)):
        return f"Move {_piece(a)} to {a.to}"
    if isinstance(a, (A.PushKiwi, A.PushLeader)) and d.prompt.startswith("Push the"):
        return f"Push {_piece(a)} to {a.to}"
    if isinstance(a, A.Place) and d.kind == "place-kiwi":
        return f"Place on {a.hex}"
    if isinstance(a, A.GiveFruit) and d.kind == "return-fruit":
        return f"Return a {a.fruit} fruit"
    if isinstance(a, A.LeaderTo) and d.prompt == "Your Leader jumps":
        return f"Leader to {a.to}"
    return None


def _expected_prompt(d: Decision) -> str:
    """The prompt a compose decision had when it was an f-string."""
    a = d.options[0].action
    if d.kind in ("push", "move-to") and isinstance(a, (A.PushKiwi, A.PushLeader, A.MoveToKiwi, A.MoveToLeader)) \
            and d.prompt.startswith(("Push the", "Move the")):
        return f"{d.kind[:4].capitalize()} {_piece(a)}"
    if d.kind == "push":
        hex_id = a.hex
        return f"Push a Kiwi out of {hex_id}?" if "stop" in d.option_ids() else f"Push every Kiwi out of {hex_id}"
    if d.kind in ("swap", "swap-with"):
        return "Choose a piece to swap"
    return {"choose-player": "Choose a player", "place-kiwi": "Place a size-1 Kiwi", "return-fruit":
            "Return a fruit to the bag", "leader-move": "Your Leader jumps"}.get(d.kind, f"Choose what to {d.kind}")


# sha256 of every decision's kind, prompt and labels in the games above, pinned before the compose labels became
# lazy (the f-strings): the same texts after the change. Re-pinned on purpose when decisions whose option count
# depends on hidden cards or markers came to be asked even with one option: the games ask more decisions, so the
# seeded choices (offset to reach every compose frame) differ; each label is still checked against its expected
# text above
DIGEST = "58fe26d7d315da932e9bcdc7910e716c1663c391f1b3de1ccd36bb22ea932e36"


def test_compose_labels_and_prompts_wait_to_be_read_and_read_as_before(verbs_ruleset, monkeypatch) -> None:
    built = []
    text = decisions._text
    monkeypatch.setattr(decisions, "_text", lambda value: built.append(1) or text(value))
    digest = hashlib.sha256()
    asked: dict[str, int] = {}
    for game in _games(verbs_ruleset):
        rng = random.Random(game.seed + 2 * 7777)   # choices that reach every compose frame (see DIGEST)
        while not game.is_over:
            d = game.pending
            top = game._stack[-1]
            if top.kind.startswith("compose."):   # a compose program's continuation asked it
                asked[top.kind] = asked.get(top.kind, 0) + 1
                # an option keeps the label it was given (read or not, it never changes)
                raw = [o.stored_label for o in d.options]
                assert not [r for r in raw if type(r) is str and r != "Stop pushing"], (d.kind, raw)
                if d.kind in ("push", "move-to") or "{" in str(d.__dict__["prompt"]):
                    assert type(d.__dict__["prompt"]) is not str, d.kind
                assert built == [], "the game loop built a text"
                assert d.prompt == _expected_prompt(d), d.kind
                for o in d.options:
                    want = _expected_label(d, o.action)
                    assert want is None or o.label == want, (o.id, o.label, want)
            digest_of(game, digest)
            built.clear()
            assert game.apply(_pick(game, rng)).ok
            assert built == [], "the game loop built a text"   # nothing reads a label while playing
    assert {"compose.phrase", "compose.push_to", "compose.move_to", "compose.push_out", "compose.place_on",
            "compose.grow", "compose.act_on_kiwi", "compose.swap", "compose.return_fruit",
            "compose.jump_to"} <= set(asked), asked
    assert digest.hexdigest() == DIGEST
