"""The `Mode` interface, with the standard game's behaviour as its defaults (R-SEASON-1 and what follows).

A mode overrides only what differs. The engine calls it at these points, and nowhere asks which mode it is:
  setup      `prepare` (its Game.new arguments, seats, dealt Leaders), `check`, `season_cards_dealt`,
             `setup_state` (its data in the state), `setup_extra` / `setup_end` (steps of the setup phase)
  flow       `phases`, `step` (the procedure of the state's (phase, step)), `turn`, `marking_turn`,
             `after_marking`, `season_card`, `passes_marker_at_season_change`, `on_season_change`
  decisions  `answer` (a decision the mode answers at once, e.g. Kiwibot's), `verb_for` (its own way of DSL
             verbs, None: the core verbs), `token_taker` (who takes a flock's next token without asking)
  results    `view_extras`, `score_extras`, `ranking`
  learning   `observation_parts`, `season_card_slots`, `observed` (the RL observation's part of the mode)
  saves      `check_save` (invariants of its own data), `extra_cards`, `revealed` (what undo must not take back)

The apps (CLI, simulation, editor, service) ask the mode how to present and set up a game, and nowhere ask
which mode it is: `label`, `available`, `player_count` / `default_players`, `seats_text`, `takes_variants`,
`rotates_seats`, `seat_roles` / `deciders` / `engine_seats` / `engine_flocks`, `score_columns` / `score_label`,
`setup_options` and `check_options`, `season_cards_of`, and for a view `view_roles`, `view_flock_extras`,
`view_panel`; a determinization asks `hidden_card_slots` and `resample_hidden`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, NamedTuple, Sequence

from kcd.engine import actions, flow, marking, mode_registry as modes, setup
from kcd.engine.context import EngineError, Runtime
from kcd.core.decisions import Decision
from kcd.engine.machine import Cont
from kcd.content.rules import Rules
from kcd.core.state import State

# a step procedure: a program's continuation (interpreter/engine/machine.py)
Procedure = Cont
Step = Callable[[Runtime, int], "Procedure | None"]


@dataclass(frozen=True)
class SeatRole:
    """What one seat of a mode is to a front-end: its role id (the service's seat kind for a seat the engine
    plays), how it is named, and whether a player (a person or a bot) decides for it."""

    id: str
    label: str
    decides: bool = True


PLAYER = SeatRole("player", "player")


@dataclass(frozen=True)
class SetupOption:
    """A Game.new keyword a mode takes beyond the shared ones; None (not given) deals it from the game's seed."""

    name: str                   # the Game.new keyword, e.g. "solo_side"
    label: str                  # how a front-end names it, e.g. "Solo-mode marker side"
    help: str                   # one line for a form or a command-line option
    choices: tuple[str, ...]    # the values this content offers


# A score row's VP sources (R-END-2) and its total, in the order a table shows them; a mode may add its own.
SCORE_COLUMNS: tuple[str, ...] = ("domain", "nests", "season_cards", "total")
# How many players a mode that takes any count seats when none is asked for.
DEFAULT_PLAYERS = 4


@dataclass(frozen=True)
class ObservedPart:
    """A range a mode adds to the RL observation vector (interpreter/rl/observation.py): a flag per value of
    `values`, or, when `values` is None, one count."""

    name: str                           # the range's name in the published layout, e.g. "solo/card"
    values: tuple[str, ...] | None = None


class Observed(NamedTuple):
    """What the RL observation shows of a mode's own data in one state (compared whole, to skip a state that
    shows the same)."""

    engine_flocks: tuple[str, ...]      # the flocks the engine plays (their seats' "kiwibot" flag)
    season_cards_shown: int             # how many of `State.season_cards` are face up; the rest show face down
    parts: tuple[tuple[str, Any], ...]  # (ObservedPart name, the values flagged (a tuple) or the count)


class Mode:
    """One way to play the game. Subclass, override what differs, and `modes.register(YourMode())`."""

    name: ClassVar[str] = "standard"
    variant: ClassVar[str | None] = None   # the variant name (`Game.new(variant=...)`, `State.variant`) or None
    title: ClassVar[str] = "the standard game"
    # the State field that holds the mode's own data, if any: a save without a `mode` name (older saves) that has
    # it set is a game of this mode
    data_field: ClassVar[str | None] = None
    # Kiwibot's way of DSL verbs in solo: None means the core verbs (a plain attribute: effects.run reads it
    # on every verb, so it costs one lookup, not a call)
    verb_for: Callable[..., Any] | None = None

    def __init__(self) -> None:
        self.steps: dict[str, Step] = {"setup": self.setup_phase_step, "season_change": self.season_change_step,
                                       "actions": self.actions_step, "season_card": self.season_card_step,
                                       "domain_marking": self.marking_step}

    # --- presentation to the apps ----------------------------------------------------------------------
    label: ClassVar[str] = "Standard game"    # the mode in a menu
    player_count: ClassVar[int | None] = None  # the only player count the mode takes, or None (the content's)
    # what its `player_count` flocks are, for a message refusing another count ("<name> mode is <seats_text>")
    seats_text: ClassVar[str] = ""
    takes_variants: ClassVar[bool] = True     # a variant may be asked for with it (`with_variant`)
    rotates_seats: ClassVar[bool] = True      # a simulation rotates the flocks' seats game by game

    def available(self, rules: Rules) -> bool:
        """Whether this content offers the mode (a front-end lists only those)."""
        return True

    def default_players(self) -> int:
        """How many players a front-end seats when none is asked for."""
        return self.player_count or DEFAULT_PLAYERS

    def seat_roles(self, count: int) -> tuple[SeatRole, ...]:
        """The role of each of `count` players as Game.new takes them (`players`), in that order."""
        return (PLAYER,) * count

    def deciders(self, players: Sequence[str]) -> list[str]:
        """The flocks a person or a bot decides for (the others the engine plays)."""
        return [f for f, role in zip(players, self.seat_roles(len(players))) if role.decides]

    def engine_seats(self, players: Sequence[str]) -> list[str]:
        """The flocks the engine plays itself (they never have a pending decision)."""
        return [f for f, role in zip(players, self.seat_roles(len(players))) if not role.decides]

    def engine_flocks(self, st: State) -> list[str]:
        """The flocks of a game in progress that the engine plays itself (never a pending decision)."""
        return []

    def season_cards_of(self, st: State, season: int) -> list[str]:
        """The Season cards resolved in one season (R-SCARD-1: one per season)."""
        return st.season_cards[season - 1:season]

    def view_roles(self, view: dict[str, Any]) -> dict[str, str]:
        """{flock: role label} from a view (`view_extras`) when the mode seats roles other than players, else {}."""
        return {}

    def view_flock_extras(self, view: dict[str, Any], flock_view: dict[str, Any]) -> dict[str, str]:
        """Columns of the mode's own for one flock's row in a table of a view (`flock_view`: its part of the view)."""
        return {}

    def view_panel(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """The mode's own part of a view (`view_extras`) as (what, value) rows for a panel; [] without one."""
        return []

    def hidden_card_slots(self, st: State, flock: str) -> list[list[str]] | None:
        """The lists holding a flock's unseen cards when the mode keeps them its own way (a determinization deals
        them again as one pool), or None: the flock's ordinary hand, deck and face-down played cards."""
        return None

    def resample_hidden(self, st: State, rules: Rules, rng: random.Random) -> None:
        """Deal the mode's own hidden parts of a state again from `rng`, in place (a determinization)."""

    def score_columns(self) -> tuple[str, ...]:
        """The columns of a score row (`Game.scores()`) in table order, `total` last."""
        return SCORE_COLUMNS

    def score_label(self, column: str) -> str:
        """A readable name of a score column: `season_cards` -> "Season cards"."""
        return {"domain": "Domain markers", "nests": "Nests", "season_cards": "Season cards"}.get(
            column, column.replace("_", " ").capitalize())

    def setup_options(self, rules: Rules) -> tuple[SetupOption, ...]:
        """The mode's own Game.new keywords with the values this content offers."""
        return ()

    def check_options(self, rules: Rules, options: dict[str, Any]) -> str | None:
        """Why the values of the mode's own setup options (`options`: keyword -> value, None: not given) cannot
        set up this mode with this content, or None; Game.new refuses the same (a front-end asks first)."""
        return None if self.available(rules) else f"this content does not offer {self.title}"

    # --- choosing the mode ----------------------------------------------------------------------------
    def with_variant(self, variant: "Mode") -> "Mode":
        """The mode played when a variant is asked for with this mode (refused unless the mode says so)."""
        raise setup.SetupError(f"{self.name} mode is played without variants (variant must be None)")

    # --- setup ----------------------------------------------------------------------------------------
    def prepare(self, rules: Rules, players: list[str], seed: int, leaders: dict[str, Any] | None,
                options: dict[str, Any]) -> tuple[list[str], dict[str, Any] | None]:
        """Check the mode's own Game.new arguments (`options`); the players in seat order and the Leaders."""
        own = {o.name for o in self.setup_options(rules)}
        for name, value in options.items():   # another mode's own option (solo_side)
            owner = modes.option_owner(rules, name)
            if value is not None and name not in own and owner is not None:
                raise setup.SetupError(f"{name} is only for mode='{owner.name}'")
        return players, leaders

    def check(self, rules: Rules, players: list[str]) -> None:
        """Refuse (SetupError) content that cannot play this mode with these players."""

    def season_cards_dealt(self, rules: Rules, available: int) -> int:
        """How many Season cards the game deals (R-SETUP-7: one per season)."""
        return rules.season_cards_per_game

    def setup_state(self, rules: Rules, st: State, players: list[str], options: dict[str, Any]) -> None:
        """Add the mode's own data to a new state (after the Season cards are dealt).

        The state names its mode only when its data would not show it: the built-in modes are recognised
        from their own data (solo data, the variant), so their saves are as before modes were plug-ins.
        """
        if modes.for_state(st) is not self:
            st.mode = self.name

    def setup_extra(self, rt: Runtime) -> "Procedure | None":
        """Setup steps after the Turn Order nests' resources (R-SETUP-4): a continuation, or None (none)."""
        return None

    def setup_end(self, rt: Runtime) -> "Procedure | None":
        """Setup steps after every token waits in its place (the last of the setup phase): a continuation, or None
        (none)."""
        return None

    # --- flow -----------------------------------------------------------------------------------------
    def phases(self, rules: Rules) -> list[str]:
        """The phases of one season (game.yaml `phases`)."""
        return rules.phases

    def seasons(self, rules: Rules) -> int:
        """How many seasons the game lasts (R-SEASON-1: game.yaml `seasons`)."""
        return rules.seasons

    def step(self, rt: Runtime) -> "Procedure | None":
        """The procedure of the state's (phase, step), or None when the phase has no more steps."""
        st = rt.state
        procedure = self.steps.get(st.phase)
        if procedure is None:
            raise EngineError(f"unknown phase `{st.phase}` in game.yaml phases")
        return procedure(rt, st.step)

    def setup_phase_step(self, rt: Runtime, i: int) -> "Procedure | None":
        """The setup phase: one step (R-SETUP-4..6)."""
        return setup.SETUP_STEP.start() if i == 0 else None

    def season_change_step(self, rt: Runtime, i: int) -> "Procedure | None":
        """Season Change: its start, then each player's Nest benefits from season 2 on (R-SC-1..3)."""
        st = rt.state
        if i == 0:
            return flow.SEASON_CHANGE_START.start()
        return flow.nest_benefits_frame(rt, st.turn_order()[i - 1]) if i <= len(st.seats) and st.season > 1 else None

    def actions_step(self, rt: Runtime, i: int) -> "Procedure | None":
        """Actions: `cards_per_season` turns each, in turn order (R-ACT-1)."""
        st = rt.state
        n = len(st.seats)
        if i >= n * rt.rules.cards_per_season:
            return None
        return self.turn(rt, st.turn_order()[i % n])

    def turn(self, rt: Runtime, flock: str) -> "Procedure":
        """One flock's Actions turn (R-ACT-1..3)."""
        return actions.turn_frame(rt, flock)

    def season_card_step(self, rt: Runtime, i: int) -> "Procedure | None":
        """The Season card phase: one step (R-SCARD-1..3)."""
        return self.season_card(rt) if i == 0 else None

    def season_card(self, rt: Runtime) -> "Procedure":
        """Resolve the season's card (R-SCARD-1..3)."""
        return flow.SEASON_CARD.start()

    def marking_step(self, rt: Runtime, i: int) -> "Procedure | None":
        """Domain Marking: each flock in turn order (R-DM-1), then `after_marking`."""
        st = rt.state
        if i < len(st.seats):
            return self.marking_turn(rt, st.turn_order()[i])
        return self.after_marking(rt) if i == len(st.seats) else None

    def marking_turn(self, rt: Runtime, flock: str) -> "Procedure":
        """One flock's Domain Marking (R-DM-1..3)."""
        return marking.marking_turn_frame(rt, flock)

    def after_marking(self, rt: Runtime) -> "Procedure | None":
        """A step after everyone marked, or None (the standard game has none)."""
        return None

    def passes_marker_at_season_change(self, rules: Rules) -> bool:
        """R-SC-2: the First Player marker passes at the start of each later Season Change."""
        return True

    def on_season_change(self, rt: Runtime) -> None:
        """Something the mode does at the start of every Season Change (nothing in the standard game)."""

    # --- decisions ------------------------------------------------------------------------------------
    def answer(self, rt: Runtime, decision: Decision) -> str | None:
        """The option id the mode answers this decision with at once, or None to ask the player."""
        return None

    def token_taker(self, st: State, flock: str) -> Callable[..., Any] | None:
        """A procedure that takes the flock's next token without asking (placing.take_token), or None."""
        return None

    # --- results --------------------------------------------------------------------------------------
    def view_extras(self, st: State, out: dict[str, Any]) -> None:
        """Add the mode's parts to a view (`out`, changed in place); nothing hidden may go in."""

    def score_extras(self, st: State, flock: str, row: dict[str, int]) -> None:
        """Add the mode's VP to one flock's score row (changed in place, `total` included)."""

    def ranking(self, st: State, scores: dict[str, dict[str, int]], order: list[str]) -> list[str]:
        """The final order from the R-END-2/3 `order` (total, tiebreakers, seat order)."""
        return order

    # --- saves and undo -------------------------------------------------------------------------------
    def check_save(self, rules: Rules, data: dict[str, Any]) -> list[str]:
        """Broken invariants of the mode's own data in a saved state (its JSON form), as readable lines."""
        return [f"{f['id']}: a token on the turn tracker in a standard game" for f in data["flocks"]
                if f["on_tracker"] or f["tracker_slot"] is not None]

    def violations(self, st: State, rules: Rules, pending_player: str | None) -> list[str]:
        """Broken invariants of the mode's own data, each line starting with its field (interpreter/engine/
        invariants.py calls it for every state it checks): without the variant no token is on the turn tracker."""
        if any(st.flocks[f].on_tracker or st.flocks[f].tracker_slot is not None for f in st.seats):
            return ["flocks: a token on the turn tracker in a standard game"]
        return []

    def extra_cards(self, data: dict[str, Any], flock: str) -> list[str]:
        """Action cards of the flock held outside its hand, deck, discard and board (save checks)."""
        return []

    def revealed(self, old: State, new: State) -> str | None:
        """Why undo from `new` back to `old` would take back something the mode turned up, or None."""
        return None

    # --- the RL observation ---------------------------------------------------------------------------
    def observation_parts(self, rules: Rules) -> tuple[ObservedPart, ...]:
        """The ranges the mode adds to the RL observation vector, in order (every observation space holds
        those of every registered mode, so the layout is the same whichever mode is played)."""
        return ()

    def season_card_slots(self, rules: Rules) -> int:
        """How many Season cards a game of the mode may have out (the observation's Season card slots)."""
        return max(rules.season_cards_per_game, rules.seasons)

    def observed(self, st: State) -> Observed | None:
        """The mode's own public data in `st` as the observation shows it; None: the mode adds nothing (no
        flock played by the engine, every Season card out face up). Called on every observation: keep it cheap."""
        return None

    def __repr__(self) -> str:
        return f"<mode {self.name}{'/' + self.variant if self.variant else ''}>"
