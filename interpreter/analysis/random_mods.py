"""Random mods for hostile testing: random DSL effects from the registry placed into track slots, Nests, leader
cards, flock powers, Wildcards and Season cards, written as an overlay pack; and a short random play of each.

Used by the suite's Hypothesis test (tests/test_bounds_fuzz.py) and the soak script (benchmarks/soak_mods.py):
every mod that `kcd validate` accepts must play (no exception, no hang, no runaway work). All randomness comes
from the `random.Random` given, so a seed names a mod and its game.
"""
from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kcd.dsl import registry
from kcd.dsl.primitive import Primitive, Slot

def _base_ids() -> dict[str, tuple[str, ...]]:
    """The ids a random mod patches, read from the shipped base content (the engine names no content ids)."""
    from kcd.content import load_ruleset

    rs = load_ruleset()
    ids = {kind: tuple(item.id for item in rs.items(kind))
           for kind in ("flocks", "nests", "leaders", "action_cards", "season_cards")}
    ids["wildcards"] = tuple(item.id for item in rs.items("action_cards") if item.data.get("type") == "wild")
    return ids


_IDS = _base_ids()
FRUITS = ("red", "green", "yellow", "blue")
TERRAINS = ("flower", "grass", "mountain", "sand")
FLOCKS = _IDS["flocks"]
NESTS = _IDS["nests"]
SOURCE = "designed: a random mod (interpreter/analysis/random_mods.py)"


def _verbs(context: str) -> list[Primitive]:
    return [p for p in registry.PRIMITIVES if p.kind == "verb" and context in p.contexts]


def _number(rng: random.Random) -> int:
    return rng.choice((1, 1, 1, 1, 2, 2, 3, 4))


def _pick(rng: random.Random, verbs: list[Primitive], chain: float) -> Primitive:
    """A verb; those that set off more effects (placing, growing, building, feeding, moving) with probability
    `chain`, so chains are common but many mods stay within the checker's bounds."""
    chaining = [p for p in verbs if p.reach or p.bot_reach]
    others = [p for p in verbs if p not in chaining]
    return rng.choice(chaining if chaining and (not others or rng.random() < chain) else others)


def call_text(rng: random.Random, prim: Primitive) -> str:
    """A call of `prim` with random arguments of the right types."""
    words: list[str] = []
    for part in prim.parts:
        if isinstance(part, str):
            words.append(part)
            continue
        slot: Slot = part
        if slot.type == "int":
            words.append(str(_number(rng)))
        elif slot.type == "size":
            words.append(str(rng.randint(1, 3)))
        elif slot.type == "fruit":
            words += rng.sample(FRUITS, rng.randint(1, 2)) if slot.many else [rng.choice(FRUITS)]
        elif slot.type == "terrain":
            words.append(rng.choice(TERRAINS))
        elif slot.type == "fruit_rule":
            words.append(rng.choice(("same", "different", "any")))
        elif slot.type == "action":
            words.append(rng.choice(("move", "build", "feed")))
        elif slot.type == "pieces":   # the compositional layer's selectors (interpreter/dsl/parts.py)
            words.append(rng.choice(("a kiwi of an opponent", "a kiwi of me", "every kiwi of an opponent in a sand hex")))
        elif slot.type == "hexes":
            words.append(rng.choice(("a flower hex", "a hex adjacent to my leader", "a hex without my kiwi",
                                     "a hex dominated by an opponent")))
        elif slot.type == "players":
            words.append("an opponent")
        else:
            words.append("1")
    return " ".join(words)


def effect_text(rng: random.Random, context: str = "effect", depth: int = 0, chain: float = 0.25) -> str:
    """A random effect: 1-3 statements, sometimes `repeat`, `may` or `choose` around more of them."""
    verbs = _verbs(context)
    stmts = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        roll = rng.random()
        if depth < 3 and roll < 0.08:
            stmts.append(f"repeat {rng.choice((2, 2, 3, 5, 10))} {{ {effect_text(rng, context, depth + 1, chain)} }}")
        elif depth < 3 and roll < 0.16:
            stmts.append(f"may {{ {effect_text(rng, context, depth + 1, chain)} }}")
        elif depth < 3 and roll < 0.22:
            stmts.append(f"choose {{ {effect_text(rng, context, depth + 1, chain)} }} or "
                         f"{{ {effect_text(rng, context, depth + 1, chain)} }}")
        else:
            stmts.append(call_text(rng, _pick(rng, verbs, chain)))
    return "; ".join(stmts)


def ability_text(rng: random.Random) -> str:
    """A Leader ability: a leader move first (so it can be used), then pushes or other verbs."""
    leader = [p for p in _verbs("ability") if p.id.startswith("leader-")]
    rest = [p for p in _verbs("ability") if not p.id.startswith("leader-")]
    parts = [call_text(rng, rng.choice(leader))]
    for _ in range(rng.randint(0, 2)):
        parts.append(call_text(rng, rng.choice(rest)))
    return "; ".join(parts)


def mod_files(rng: random.Random, pack_id: str, chain: float | None = None) -> dict[str, Any]:
    """The files of one random mod pack: relative path -> YAML data. `chain`: how often a verb sets off more
    effects (None: drawn per mod, from tame to wild)."""
    chain = rng.choice((0.05, 0.15, 0.25, 0.4)) if chain is None else chain

    def fx(rng: random.Random) -> str:
        return effect_text(rng, chain=chain)

    files: dict[str, Any] = {"pack.yaml": {"id": pack_id, "name": f"Random {pack_id}", "kind": "mod",
                                           "description": "a random mod", "source": SOURCE}}
    for flock in rng.sample(FLOCKS, rng.randint(1, 4)):
        patch: dict[str, Any] = {"id": flock, "op": "patch"}
        for side in rng.sample(("side_a", "side_b"), rng.randint(1, 2)):
            track = [{"slot": s, "benefit": (fx(rng) if s >= 3 and rng.random() < 0.5 else None),
                      "source": SOURCE} for s in range(1, 9)]
            patch[side] = {"track": track}
            if side == "side_b" and rng.random() < 0.6:
                triggers = [p for p in registry.PRIMITIVES if p.kind == "trigger"]
                patch[side]["power"] = [{"when": call_text(rng, rng.choice(triggers)), "do": fx(rng),
                                         "source": SOURCE} for _ in range(rng.randint(1, 2))]
        files[f"flocks/{flock}.yaml"] = patch
    files["nests.yaml"] = [{"id": n, "op": "patch", "on_place": fx(rng),
                            "on_season_change": fx(rng)} for n in rng.sample(NESTS, rng.randint(1, 4))]
    if rng.random() < 0.6:
        files["leaders.yaml"] = [{"id": leader, "op": "patch", "cards": [
            {"id": f"{leader}-{k}", "name": f"Random {k}", "ability": ability_text(rng), "source": SOURCE}
            for k in (1, 2)]} for leader in rng.sample(_IDS["leaders"],
                                                      rng.randint(1, 3))]
    if rng.random() < 0.5:
        files["action_cards.yaml"] = [{"id": card, "op": "patch", "benefit": fx(rng)}
                                      for card in rng.sample(_IDS["wildcards"],
                                                             rng.randint(1, 3))]
    if rng.random() < 0.5:
        files["season_cards.yaml"] = [{"id": card, "op": "patch", "victor": fx(rng),
                                       "others": fx(rng)}
                                      for card in rng.sample(_IDS["season_cards"], rng.randint(1, 3))]
    return files


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: object) -> bool:
        return True


def write_mod(root: Path, pack_id: str, files: dict[str, Any]) -> Path:
    """Write a mod pack under `root/mods/<pack_id>` (replacing one of that name)."""
    folder = root / "mods" / pack_id
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "flocks").mkdir(parents=True)
    for rel, data in files.items():
        (folder / rel).write_text(yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True),
                                  encoding="utf-8")
    return folder


@dataclass
class Outcome:
    """What happened to one random mod: whether it validated, and if so how its short game went."""

    valid: bool
    decisions: int = 0
    failure: str | None = None     # an exception or refusal while playing valid content
    max_depth: int = 0             # the deepest effect nesting the game reached
    bound_depth: int = 0           # the checker's bound on that nesting


def play_mod(root: Path, pack_id: str, rng: random.Random, decisions: int = 150) -> Outcome:
    """Validate the pack; if it loads, play one game (standard or solo, random flocks, sides and choices) for up
    to `decisions` decisions and report any failure."""
    from kcd.content import ContentError, load_ruleset
    from kcd.content.bounds import effect_graph
    from kcd.content.loader import build
    from kcd.dsl.bounds import chain_bounds
    from kcd.engine import Game, Refused, effects, mode_registry as modes

    try:
        ruleset = load_ruleset([f"mods/{pack_id}"], root=root)
    except ContentError:
        return Outcome(False)
    result = build(root, (f"mods/{pack_id}",))
    _, bound_depth = chain_bounds(effect_graph(result.merged, result.compiled))
    outcome = Outcome(True, bound_depth=bound_depth)
    seen = [0]
    original = effects.run_frame   # what starts every effect (the effects modules look it up when they run one)

    def run(rt: Any, node: Any, ctx: Any) -> Any:
        seen[0] = max(seen[0], ctx.depth)
        return original(rt, node, ctx)

    effects.run_frame = run
    try:
        # a quarter of the games against Kiwibot, who plays the mod's cards its own way
        mode = modes.select("solo" if rng.random() < 0.25 else "standard", None)
        count = mode.player_count or rng.randint(2, 4)
        flocks = rng.sample(FLOCKS, count)
        sides = {f: rng.choice(("A", "B")) for f in flocks}
        game = Game.new(ruleset, players=flocks, seed=rng.randrange(1 << 30), sides=sides, mode=mode.name)
        while not game.is_over and outcome.decisions < decisions:
            assert game.pending is not None   # the game is not over
            applied = game.apply(rng.choice(game.pending.options).id)
            if isinstance(applied, Refused):
                outcome.failure = f"refused a legal option: {applied.code}: {applied.message}"
                break
            outcome.decisions += 1
    except Exception as err:  # the point of the exercise: anything valid content makes the engine raise
        outcome.failure = f"{type(err).__name__}: {err}"
    finally:
        effects.run_frame = original
    outcome.max_depth = seen[0]
    if outcome.failure is None and outcome.max_depth > outcome.bound_depth:
        outcome.failure = f"nesting {outcome.max_depth} is over the checker's bound {outcome.bound_depth}"
    return outcome
