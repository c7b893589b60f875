"""A fixed action index for learning agents: every action of a ruleset and player count as one whole number.

An `ActionSpace(ruleset, players)` lays every action kind of docs/ACTIONS.md out as one block of consecutive
indices, the kinds in the engine's registry order (`action_types.KINDS`); inside a block the index is the
mixed-radix number of the kind's encoded fields, first field most significant. The fields are encoded by what
they mean, never by a game's history, so the same index means the same action in every game of that ruleset and
player count:

- a hex: its place on the island of that player count (setup.island_hexes order, `hexes`);
- `to` of the adjacent-step kinds (`move`, `push`, `move-leader`, `push-leader`, `step`): the direction from
  `hex` (board.DIRECTIONS, 0..5) or 6 for `off` (pushed off the island); `to` of the other kinds (`leader`,
  `edge`, `move-to`, `move-to-leader`): the hex's place, or the last value for `off`;
- a flock: its place among the ruleset's flocks (`flocks`); a size: size - 1;
- a card, Nest, Season card, slot, fruit, terrain, action type: its place in the ruleset's list of them;
- engine words (`extra` move/stop, `cover-from` reserve/track, `may` no/yes): their place in the lists below;
- a field every option of its decision shares is not encoded, as the decision already fixed it: the piece of
  `move-to` and `move-to-leader` (one piece a decision: only `to`), the verb of `pick-kiwi` and `pick-leader` (and
  the Leader's hex: a flock has one Leader), the deciding player's own Leader of `move-leader`, `step` and
  `leader` (only `to`: a direction from the Leader's hex, or a hex), the flock of `edge` (one Leader pushed off),
  the flock of the kinds that name the deciding player's own Kiwi (`move`, `take-token`, `grow`, `remove`, `cover`,
  `setup-grow`; its size too: always 1), the hex of `push` and `push-leader` (a push decision pushes out of one
  hex; `to` is the direction from it);
- a Kiwi's piece id (`kiwi`) is not encoded: a Kiwi is named by its role (flock, size, hex), as in the option id,
  and identical Kiwi in one hex are one choice (docs/ACTIONS.md);
- `pay`: the multiset of fruit colours and terrains handed over, ranked among all multisets of at most
  `max_payment` items (the largest cost the content states: Feed costs and every `pay` verb).

`action_from_index(i, game)` returns the pending decision's legal action with index `i` (so a Kiwi's piece id is
the one the engine would move, and the fields left out come from the decision), and `legal_mask(game)` is a numpy
bool array of the legal indices.
`describe(i)` decodes any index into its kind and field values (docs/RL.md prints the layout).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

import numpy as np

from kcd.dsl import ast
from kcd.core import action_types as A
from kcd.core.board import DIRECTIONS
from kcd.core.decisions import Option
from kcd.engine.game import Game
from kcd.content.rules import Rules, compile_rules
from kcd.engine.setup import island_hexes
from kcd.core.memo import per_object

OFF = "off"
EXTRA_CHOICES = ("move", "stop")                 # the `extra` kind's words (docs/ACTIONS.md)
COVER_SOURCES = ("reserve", "track")             # the `cover-from` kind's sources
YES_NO = (False, True)
STEP_KINDS = frozenset({"move", "push", "move-leader", "push-leader", "step"})    # `to` is adjacent (or off)
_KIWI = ("flock", "size", "hex")

# kind -> its encoded fields in order (each a name of a codec of `ActionSpace._codecs`); `kiwi` is never encoded
LAYOUT: dict[str, tuple[tuple[str, str], ...]] = {
    "ability": (), "benefit": (), "decline": (), "facedown": (), "pass": (), "play": (), "stop": (), "take": (),
    "take-none": (),
    "as": (("action_type", "action_type"),),
    "card": (("card", "card"),),
    "choice": (("index", "choice"),),
    "extra": (("choice", "extra"),),
    "nest": (("nest", "nest"),),
    "return-marker": (("terrain", "terrain"),),
    "return-fruit": (("fruit", "fruit"),),
    "give-fruit": (("fruit", "fruit"),),
    "slot": (("slot", "slot"),),
    "season-card": (("card", "season_card"),),
    "cover-from": (("source", "source"),),
    "may": (("yes", "yes"),),
    "choose-player": (("flock", "flock"),),
    "place": (("hex", "hex"),), "mark": (("hex", "hex"),), "build": (("hex", "hex"),),
    "setup-leader": (("hex", "hex"),), "setup-place": (("hex", "hex"),),
    # the deciding player's own Leader, in one hex for the whole decision: the step's direction alone
    "move-leader": (("to", "dir"),),
    "step": (("to", "dir"),),
    "leader": (("to", "to"),),
    "push-leader": (("flock", "flock"), ("to", "dir")),   # every push of a decision is out of one hex (push.py)
    "edge": (("to", "to"),),                    # one Leader pushed off a decision: where it lands
    "move-to-leader": (("to", "to"),),          # one Leader moved a decision (compose's _EachToFrame)
    "pick-leader": (("flock", "flock"),),       # one verb a decision; a flock has one Leader, in one hex
    "feed": tuple((f, f) for f in _KIWI),        # any flock's Kiwi (feed.py)
    # the deciding player's own Kiwi (placing.py, marking.py, move.py: R-RES-2, R-DM-3, R-MOVE-2)
    **{kind: (("size", "size"), ("hex", "hex")) for kind in ("take-token", "grow", "remove", "cover")},
    "setup-grow": (("hex", "hex"),),             # an own size-1 Kiwi (R-SETUP-6)
    "move": (("size", "size"), ("hex", "hex"), ("to", "dir")),
    "push": (("flock", "flock"), ("size", "size"), ("to", "dir")),   # out of one hex, as `push-leader`
    "move-to": (("to", "to"),),                 # one Kiwi moved a decision (compose's _EachToFrame)
    "pick-kiwi": tuple((f, f) for f in _KIWI),  # one verb a decision (compose's _pick_options)
    "pay": (("pay", "pay"),),
}


@dataclass(frozen=True)
class Block:
    """One action kind's indices: `start` .. `start + size - 1`, its encoded fields and their sizes."""

    kind: str
    start: int
    fields: tuple[str, ...]
    sizes: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many indices the kind takes (the product of its field sizes)."""
        return int(np.prod(self.sizes)) if self.sizes else 1


class _Codec:
    """Values of one field <-> 0..n-1."""

    def __init__(self, values: Sequence[Any]) -> None:
        self.values = tuple(values)
        self.code = {v: i for i, v in enumerate(self.values)}

    def __len__(self) -> int:
        return len(self.values)


def _content_bounds(rules: Rules) -> tuple[int, int]:
    """(the most items one payment hands over, the most alternatives of a `choose`) in the whole content: every
    DSL tree the compiled rules hold is walked, and Feed's costs (R-FEED-1) are numbers of game.yaml."""
    pay, choose = max([1, *rules.feed_cost.values()]), 1
    seen: set[int] = set()

    def visit(value: Any) -> None:
        nonlocal pay, choose
        if id(value) in seen or isinstance(value, (str, int, float, bool, type(None))):
            return
        seen.add(id(value))
        if isinstance(value, ast.Call) and value.primitive and value.primitive.startswith("pay-"):
            n = value.arg("n", 1)
            if isinstance(n, int):
                pay = max(pay, n)
        if isinstance(value, ast.Choose):
            choose = max(choose, len(value.options))
        if isinstance(value, dict):
            for v in value.values():
                visit(v)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                visit(v)
        elif dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                visit(getattr(value, f.name))

    for name in ("cards", "action_effect", "nests", "flocks", "leaders", "leader_cards", "season_cards",
                 "turn_nests", "tracker", "solo", "solo_cards", "facedown", "setup_advanced"):
        visit(getattr(rules, name))
    return pay, choose


class ActionSpace:
    """The fixed action index of one ruleset and player count (see the module docstring)."""

    def __init__(self, ruleset: Any, players: int) -> None:
        rules = compile_rules(ruleset)
        self.rules = rules
        self.players = players
        hexes, _ = island_hexes(rules, players)
        self.hexes: tuple[str, ...] = tuple(hexes)
        coords = {h.id: (h.q, h.r) for h in hexes.values()}
        at = {qr: hid for hid, qr in coords.items()}
        # (hex, to) -> direction of the step; "off" is the seventh value
        self._direction = {(hid, at[(q + dq, r + dr)]): d for hid, (q, r) in coords.items()
                           for d, (dq, dr) in enumerate(DIRECTIONS) if (q + dq, r + dr) in at}
        self.flocks: tuple[str, ...] = tuple(rules.flocks)
        self.max_payment, self.max_choice = _content_bounds(rules)
        items = [("fruit", c) for c in rules.fruits] + [("marker", t) for t in rules.terrains]
        self._pay_items = items
        multisets = [combo for k in range(self.max_payment + 1)
                     for combo in itertools.combinations_with_replacement(range(len(items)), k)]
        self._pay_codec = _Codec(multisets)
        self._codecs: dict[str, _Codec] = {
            "hex": _Codec(self.hexes), "to": _Codec(self.hexes + (OFF,)), "dir": _Codec(range(len(DIRECTIONS) + 1)),
            "flock": _Codec(self.flocks), "size": _Codec(range(1, rules.max_size + 1)),
            "card": _Codec(list(rules.cards)), "action_type": _Codec(sorted(rules.action_effect)),
            "choice": _Codec(range(1, self.max_choice + 1)), "extra": _Codec(EXTRA_CHOICES),
            "nest": _Codec(list(rules.nests)), "terrain": _Codec(rules.terrains), "fruit": _Codec(rules.fruits),
            "slot": _Codec(sorted(rules.tracker)), "season_card": _Codec(list(rules.season_cards)),
            "source": _Codec(COVER_SOURCES), "yes": _Codec(YES_NO), "pay": self._pay_codec,
        }
        missing = sorted(set(A.KINDS) - set(LAYOUT))
        if missing:   # an engine kind added without a place here: fail loudly, never a silent collision
            raise ValueError(f"the action index has no layout for action kind(s) {', '.join(missing)}: "
                             f"add them to interpreter/rl/actions.py LAYOUT")
        self.blocks: dict[str, Block] = {}
        start = 0
        for kind in A.KINDS:
            fields = tuple(f for f, _ in LAYOUT[kind])
            sizes = tuple(len(self._codecs[c]) for _, c in LAYOUT[kind])
            block = self.blocks[kind] = Block(kind, start, fields, sizes)
            start += block.size
        self.num_distinct_actions = start
        self._by_class = {cls: self.blocks[kind] for kind, cls in A.KINDS.items()}
        # option id -> index, per action class (an id and its kind fix every encoded field)
        self._ids: dict[type, dict[str, int]] = {cls: {} for cls in A.KINDS.values()}
        self._indices_of: tuple[Any, list[int], np.ndarray | None] | None = None

    # --- one action ---------------------------------------------------------------------------------
    def action_index(self, action: A.Action) -> int:
        """The index of an action (ValueError naming the field when a value is outside the layout)."""
        block = self._by_class.get(type(action))
        if block is None:
            raise ValueError(f"not an action of docs/ACTIONS.md: {action!r}")
        index = 0
        for (name, codec_name), size in zip(LAYOUT[block.kind], block.sizes):
            code = self._encode(action, name, codec_name)
            index = index * size + code
        return block.start + index

    def _encode(self, action: A.Action, name: str, codec_name: str) -> int:
        """One field's code."""
        if codec_name == "pay":
            assert isinstance(action, A.Pay)
            key = tuple(sorted([self._pay_items.index(("fruit", c)) for c in action.fruit]
                               + [self._pay_items.index(("marker", t)) for t in action.markers]))
            code = self._pay_codec.code.get(key)
            if code is None:
                raise ValueError(f"`{action.id()}` pays {len(key)} items, more than the {self.max_payment} the "
                                 f"content's costs state (the action index's `pay` block)")
            return code
        value = getattr(action, name)
        if codec_name == "dir":
            here = getattr(action, "hex")
            code = len(DIRECTIONS) if value == OFF else self._direction.get((here, value))
            if code is None:
                raise ValueError(f"`{action.id()}`: {value} is not next to {here} on the {self.players}-player "
                                 f"island")
            return code
        code = self._codecs[codec_name].code.get(value)
        if code is None:
            raise ValueError(f"`{action.id()}`: {name} {value!r} is not in the action index of this ruleset "
                             f"and player count")
        return code

    def describe(self, index: int) -> tuple[str, dict[str, Any]]:
        """The kind and encoded field values of any index (`to` of a step kind as a direction 0..5 or 6: off)."""
        if not 0 <= index < self.num_distinct_actions:
            raise ValueError(f"action index {index} is outside 0..{self.num_distinct_actions - 1}")
        block = next(b for b in self.blocks.values() if b.start <= index < b.start + b.size)
        rest = index - block.start
        codes = []
        for size in reversed(block.sizes):
            rest, code = divmod(rest, size)
            codes.append(code)
        out: dict[str, Any] = {}
        for (name, codec_name), code in zip(LAYOUT[block.kind], reversed(codes)):
            value = self._codecs[codec_name].values[code]
            if codec_name == "pay":
                fruit = [self._pay_items[i][1] for i in value if self._pay_items[i][0] == "fruit"]
                markers = [self._pay_items[i][1] for i in value if self._pay_items[i][0] == "marker"]
                out["fruit"], out["markers"] = fruit, markers
            else:
                out[name] = value
        return block.kind, out

    # --- the pending decision -----------------------------------------------------------------------
    def option_index(self, option: Any) -> int:
        """The index of an Option's action, looked up by its id (cached per kind; no action is built twice)."""
        act = option.act
        cls = act[0] if type(act) is tuple else type(act)
        known = self._ids.get(cls)
        if known is None:
            raise ValueError(f"option {option.id!r} carries no action of docs/ACTIONS.md")
        index = known.get(option.id)
        if index is None:
            index = known[option.id] = self.action_index(option.action)
        return index

    def legal_indices(self, game: Game) -> list[int]:
        """The indices of the pending decision's options, in option order (empty when the game is over; kept for the
        decision last asked, so the mask, the choice and the step read it once)."""
        pending = game.pending
        if pending is None:
            return []
        return list(self._indices(pending))

    def _indices(self, pending: Any) -> list[int]:
        """`legal_indices` of a pending decision, kept for the decision last asked (never change the list)."""
        kept = self._indices_of
        if kept is not None and kept[0] is pending:
            return kept[1]
        ids = self._ids
        options = pending.options
        try:
            # `option_index` written out (every step of an agent reads every option): the ids seen before first, in
            # one comprehension, then `option_index` for the ones not seen yet
            indices: list[Any] = [ids[act[0] if type(act := o.act) is tuple else type(act)].get(o.id) for o in options]
            if None in indices:
                indices = [self.option_index(o) if index is None else index for o, index in zip(options, indices)]
        except KeyError:   # an option of no action kind: `option_index` says which
            indices = [self.option_index(o) for o in options]
        self._indices_of = (pending, indices, None)
        return indices

    def index_array(self, pending: Any) -> np.ndarray:
        """`_indices` of a pending decision as a numpy index array (kept with it: a mask is made from it)."""
        kept = self._indices_of
        if kept is None or kept[0] is not pending:
            self._indices(pending)
            kept = self._indices_of
            assert kept is not None
        array = kept[2]
        if array is None:
            array = np.array(kept[1], dtype=np.intp)
            self._indices_of = (pending, kept[1], array)
        return array

    def legal_mask(self, game: Game) -> np.ndarray:
        """A bool array of `num_distinct_actions`: True at the index of each legal option."""
        mask = np.zeros(self.num_distinct_actions, dtype=bool)
        if game.pending is not None:
            mask[self.index_array(game.pending)] = True
        return mask

    def legal_actions(self, game: Game) -> dict[int, A.Action]:
        """{index: action} of the pending decision."""
        pending = game.pending
        out: dict[int, A.Action] = {}
        for i, o in zip(self.legal_indices(game), pending.options if pending is not None else ()):
            action = o.action
            assert action is not None   # every option carries its action (docs/ACTIONS.md)
            out[i] = action
        return out

    def option_from_index(self, index: int, game: Game) -> Option:
        """The pending decision's option with this index (ValueError when none has it)."""
        pending = game.pending
        if pending is None:
            return _no_option(self, index)
        try:
            return pending.options[self._indices(pending).index(index)]
        except ValueError:
            return _no_option(self, index)

    def action_from_index(self, index: int, game: Game) -> A.Action:
        """The pending decision's legal action with this index (ValueError when none has it)."""
        action = self.option_from_index(index, game).action
        assert action is not None   # every option carries its action (docs/ACTIONS.md)
        return action

    def layout(self) -> list[tuple[str, int, int, str]]:
        """(kind, first index, size, encoded fields as `name[size]`) of every block, in index order."""
        return [(b.kind, b.start, b.size, " x ".join(f"{f}[{s}]" for f, s in zip(b.fields, b.sizes)) or "-")
                for b in self.blocks.values()]


def _no_option(space: ActionSpace, index: int) -> Any:
    """Raise the ValueError of an index that is not legal now."""
    if 0 <= index < space.num_distinct_actions:
        kind, fields = space.describe(index)
        raise ValueError(f"action index {index} ({kind} {fields}) is not legal now")
    raise ValueError(f"action index {index} is not legal now (outside 0..{space.num_distinct_actions - 1})")


@per_object(16)
def _spaces(rules: Rules) -> dict[tuple[Any, int], Any]:
    """{(space class, player count): the space} of these rules, built as asked."""
    return {}


S = TypeVar("S")


def space_of(cls: Callable[[Any, int], S], game_or_ruleset: Any, players: int | None = None) -> S:
    """The `cls(ruleset, players)` of a game (its ruleset and seat count) or of a ruleset and player count, built
    once per rules and player count (ActionSpace, ObservationSpace)."""
    if isinstance(game_or_ruleset, Game):
        ruleset, players = game_or_ruleset.ruleset, len(game_or_ruleset.readonly_state.seats)
    else:
        ruleset = game_or_ruleset
        if players is None:
            raise ValueError(f"{getattr(cls, '__name__', 'the space')}(ruleset, players): give the player count")
    spaces = _spaces(compile_rules(ruleset))
    key = (cls, players)
    space = spaces.get(key)
    if space is None:
        space = spaces[key] = cls(ruleset, players)
    return space


def action_space(game_or_ruleset: Any, players: int | None = None) -> ActionSpace:
    """The ActionSpace of a game (its ruleset and seat count) or of a ruleset and player count, built once."""
    return space_of(ActionSpace, game_or_ruleset, players)
