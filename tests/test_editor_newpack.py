"""New leader / New flock packs: written under mods/NAME/, validated, loadable and playable at once."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcd.apps.editor.logic import newpack

REPO = Path(__file__).resolve().parent.parent
INFO = newpack.PackInfo("river-mod", "River mod", "A test mod", "a test of the editor's pack writer")


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A writable copy of the shipped content."""
    dest = tmp_path / "content"
    shutil.copytree(REPO / "content", dest)
    return dest


def play_to_end(ruleset, players: list[str], leaders: dict | None = None, seed: int = 3) -> object:
    """Play a whole game with random bots through the engine; returns the finished Game."""
    from kcd.analysis.bots import make_bot
    from kcd.engine import Game

    game = Game.new(ruleset, players=players, seed=seed, leaders=leaders)
    bots = {p: make_bot("random", i) for i, p in enumerate(players)}
    for _ in range(20_000):
        if game.is_over:
            break
        result = game.apply(bots[game.pending.player].choose(game))
        assert result.ok, result
    assert game.is_over
    return game


def base_files(root: Path) -> dict[str, str]:
    """Every base file's text (to prove a pack never touches them)."""
    return {p.relative_to(root).as_posix(): p.read_text() for p in (root / "base").rglob("*.yaml")}


def test_R_LEAD_2_new_leader_pack_validates_loads_and_plays(root: Path) -> None:
    from kcd.content import load_ruleset

    before = base_files(root)
    leader = newpack.NewLeader("tane", "Tane", (
        newpack.LeaderCard("tane-1", "Forest Stride", "leader moves 2 straight; push the pieces out of the landing hex"),
        newpack.LeaderCard("tane-2", "Canopy Leap", "leader jumps 2")))
    files = newpack.leader_files(INFO, leader)
    assert sorted(files) == ["mods/river-mod/leaders.yaml", "mods/river-mod/pack.yaml"]
    assert newpack.create_pack(root, "river-mod", files) == []
    assert (root / "mods/river-mod/pack.yaml").read_text().startswith("# Mod pack written by the editor")
    assert base_files(root) == before
    rs = load_ruleset(overlays=["river-mod"], root=root)
    assert rs.item("leaders", "tane").raw["cards"][1]["ability"] == "leader jumps 2"
    flocks = [i.id for i in rs.items("flocks")][:2]
    play_to_end(rs, flocks, leaders={flocks[0]: "tane", flocks[1]: "chopan"})


def test_R_ASYM_1_new_flock_pack_from_template_validates_loads_and_plays(root: Path) -> None:
    from kcd.content import load_ruleset

    flock = newpack.NewFlock("teal", "Teal", "#008080", "base/flocks/green.yaml",
                             extra_move="pay 2 fruit of red blue")
    files = newpack.flock_files(root, INFO, flock)
    assert "mods/river-mod/flocks/teal.yaml" in files
    assert newpack.create_pack(root, "river-mod", files) == []
    rs = load_ruleset(overlays=["river-mod"], root=root)
    teal = rs.item("flocks", "teal")
    assert teal.raw["colour"] == "#008080" and teal.raw["side_a"]["extra_move"] == "pay 2 fruit of red blue"
    play_to_end(rs, ["teal", [i.id for i in rs.items("flocks") if i.id != "teal"][0]])


def test_invalid_pack_is_not_written_and_reports_located_problem(root: Path) -> None:
    leader = newpack.NewLeader("tane", "Tane", (
        newpack.LeaderCard("tane-1", "A", "leader moevs 2 straight"),
        newpack.LeaderCard("tane-2", "B", "leader jumps 2")))
    problems = newpack.create_pack(root, "river-mod", newpack.leader_files(INFO, leader))
    assert problems and any("mods/river-mod/leaders.yaml" in p.text and p.code.startswith("dsl-") for p in problems)
    assert not (root / "mods/river-mod").exists()


def test_pack_ids_are_checked_and_existing_packs_not_overwritten(root: Path) -> None:
    with pytest.raises(newpack.PackError):
        newpack.leader_files(newpack.PackInfo("../evil", "x", "x", "x"), newpack.NewLeader(
            "a", "A", (newpack.LeaderCard("a-1", "x", "leader jumps 2"), newpack.LeaderCard("a-2", "y", "leader jumps 2"))))
    with pytest.raises(newpack.PackError):
        newpack.create_pack(root, "example", {"mods/example/pack.yaml": "id: example\n"})
    with pytest.raises(newpack.PackError):
        newpack.create_pack(root, "fresh", {"base/nests.yaml": "[]\n"})
