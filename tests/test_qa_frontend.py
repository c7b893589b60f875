"""A front-end author's and a designer's view of the finished product: readable option labels, views that
leak nothing through the pending decision, and the editor's launcher and board drawing."""
from __future__ import annotations

import random
import re
import socket

import pytest

from kcd.content import load_ruleset
from kcd.engine import Game


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def play_until(game: Game, kind: str, rng: random.Random, player_of: str | None = None) -> None:
    """Random decisions until a pending decision of `kind` (by `player_of` when given)."""
    for _ in range(5000):
        d = game.pending
        if d is not None and d.kind == kind and (player_of is None or d.player == player_of):
            return
        assert game.apply(rng.choice(d.options).id).ok
    raise AssertionError(f"no {kind} decision")


def test_R_ACT_2_other_players_do_not_see_the_hand_through_the_pending_decision(ruleset) -> None:
    """While a player chooses a card, others and spectators see who decides and its kind, not the options
    (the hand) nor the prompt; the player deciding sees all of it."""
    game = Game.new(ruleset, ["red", "green", "purple"], seed=5)
    play_until(game, "card", random.Random(0))
    decider = game.pending.player
    own = game.view(decider)["pending"]
    assert own["options"] and own == game.pending.to_dict()
    for watcher in [p for p in ("red", "green", "purple") if p != decider] + [None]:
        seen = game.view(watcher)["pending"]
        assert seen == {"player": decider, "kind": "card", "prompt": f"Waiting for {decider}", "options": []}
        assert "hand" not in game.view(watcher)["flocks"][decider]


def test_R_DM_1_face_down_markers_do_not_show_in_another_players_payment(ruleset) -> None:
    """A payment lists the payer's domain markers by terrain (R-PAY-1): only the payer's view shows it."""
    game = Game.new(ruleset, ["red", "green"], seed=2)
    play_until(game, "pay", random.Random(4))
    payer = game.pending.player
    other = "green" if payer == "red" else "red"
    assert game.view(other)["pending"]["options"] == []
    assert "marker" not in str(game.view(other)["pending"])


def test_view_of_an_unknown_player_is_an_error_not_a_spectator_view(ruleset) -> None:
    """A typo in the player id must not silently give the spectator's view."""
    game = Game.new(ruleset, ["red", "green"], seed=1)
    with pytest.raises(ValueError, match="unknown player `gren`: the players are red, green"):
        game.view("gren")


def test_R_WILD_1_R_BUILD_3_option_labels_are_words_not_content_ids(ruleset) -> None:
    """Card and Nest choices read as names and rules text: no label or prompt is a bare content id."""
    ids = {i.id for kind in ("action_cards", "nests", "season_cards", "leaders") for i in ruleset.items(kind)}
    seen: dict[str, set[str]] = {"card": set(), "play-mode": set(), "build-nest": set()}
    for seed in range(3):
        game = Game.new(ruleset, ["red", "green"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            d = game.pending
            if d.kind in seen:
                seen[d.kind].update(o.label for o in d.options)
                seen[d.kind].add(d.prompt)
                for option in d.options:
                    assert option.label not in ids, (d.kind, option)
                    assert not re.search(r"\b(wild-\w+|tree-\d|cave-\d|control-\d)\b", option.label + d.prompt)
            game.apply(rng.choice(d.options).id)
    assert {"Move", "Build", "Feed", "Wild Fruit (benefit: Gain 4 Fruits)"} <= seen["card"]
    assert "How do you play Wild Fruit?" in seen["play-mode"]
    assert "Build the Tree Nest, row 1 (cost: Pay 2 Fruits of the same color; on placement: Gain 1 Fruit)" \
        in seen["build-nest"]


def test_content_names_win_over_generated_labels() -> None:
    """A card or Nest with a `name` in content is called by it (the schemas allow `name` on both)."""
    from kcd.engine import labels
    from kcd.content.types import ActionCard, Nest

    assert labels.card_name("wild-fruit", ActionCard("wild-fruit", "wild", name="Feast")) == "Feast"
    assert labels.nest_name("tree-1", Nest("tree-1", "tree", 1, None, None, None, 0, 0, name="Rimu")) == "Rimu"
    assert labels.nest_name("odd", Nest("odd", "", 1, None, None, None, 0, 0)) == "Odd"


# --- the editor -----------------------------------------------------------------------------------------

def test_launcher_refuses_a_port_in_use_before_printing_an_address(tmp_path, capsys) -> None:
    """`kcd editor --port N` with N taken: exit 2 and say so, instead of a banner then Streamlit's failure."""
    from kcd.apps.editor.launch import launch, port_free

    (tmp_path / "base").mkdir()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert not port_free(port)
        assert launch(str(tmp_path), port) == 2
    err = capsys.readouterr()
    assert f"port {port} on 127.0.0.1 is in use" in err.err and "http://" not in err.out


def test_board_replay_shows_the_designer_the_whole_pending_decision(ruleset) -> None:
    """The Board page's replay (a designer watching bots) shows the prompt and options of each decision."""
    from kcd.apps.editor.logic import board

    rec = board.record_game(ruleset, ["red", "green"], 1, ["random"])
    views = board.replay_views(ruleset, rec)
    assert views[0]["pending"]["options"] and views[0]["pending"]["prompt"] != "Waiting for red"


def test_board_svg_of_a_small_position_is_drawn_large_enough() -> None:
    """Two hexes are zoomed (up to 4x, towards DISPLAY_WIDTH pixels) with the same viewBox."""
    from kcd.apps.editor.logic.board_svg import DISPLAY_WIDTH, board_svg

    svg = board_svg({"hexes": {"A": {"q": 0, "r": 0, "terrain": "sand", "kiwi": [], "leaders": []},
                               "B": {"q": 1, "r": 0, "terrain": "flower", "kiwi": [], "leaders": []}}})
    width = float(re.search(r'width="([0-9.]+)"', svg).group(1))
    natural = float(re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+)', svg).group(1))
    assert width == pytest.approx(min(4 * natural, DISPLAY_WIDTH), abs=1)


def test_error_box_header_wraps_and_keeps_placeholders_visible() -> None:
    """The diagnostic header goes outside the code block (it wraps); `<n>` outside code spans is escaped."""
    from kcd.apps.editor.ui import _markdown_line

    assert _markdown_line("`grow` takes 2 arguments: grow <n> kiwi") == "`grow` takes 2 arguments: grow \\<n> kiwi"
    assert _markdown_line("use `<n>` here") == "use `<n>` here"


def test_R_SETUP_3_a_leaders_dict_missing_a_player_says_so(ruleset) -> None:
    """A leaders dict without one of the players names that player (it said `unknown leader None`)."""
    from kcd.engine.setup import SetupError

    with pytest.raises(SetupError, match="no leader given for green: give one for every player"):
        Game.new(ruleset, ["red", "green"], seed=1, leaders={"red": "chopan", "yellow": "kahu"})
    game = Game.new(ruleset, ["red", "green"], seed=1, leaders={"red": "chopan", "green": "kahu"})
    assert game.state.flocks["green"].leader == "kahu"


def test_from_json_refuses_a_save_of_another_ruleset() -> None:
    """A save records its ruleset hash; loading it under other content is refused with a clear message."""
    import pytest as _pytest

    from kcd.content import load_ruleset
    from kcd.engine import Game

    base = load_ruleset()
    game = Game.new(base, players=["red", "green"], seed=3)
    text = game.to_json()
    with _pytest.raises(ValueError, match="saved with another ruleset"):
        Game.from_json(load_ruleset(["editions/prototype"]), text)
    with _pytest.raises(ValueError, match="not a saved Kiwi Chow Down game"):
        Game.from_json(base, '{"format": 1}')
    with _pytest.raises(ValueError, match="not a saved Kiwi Chow Down game"):
        Game.from_json(base, "not json")
    assert Game.from_json(base, text).to_json() == text


def test_new_game_refuses_a_seed_that_is_not_a_whole_number() -> None:
    """Game.new names the bad seed instead of failing deep inside the RNG."""
    import pytest as _pytest

    from kcd.content import load_ruleset
    from kcd.engine import Game

    with _pytest.raises(TypeError, match="seed must be a whole number, got 'abc'"):
        Game.new(load_ruleset(), players=["red", "green"], seed="abc")
