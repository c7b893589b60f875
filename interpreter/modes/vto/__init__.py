"""Variable Turn Order (R-VTO-1..5) as a mode: the standard game with a turn tracker and a Wake up phase.

The procedures are procedures.py of this package; this module plugs them into the flow. Turn order follows the
tracker through `State.turn_order()` (R-VTO-4), which reads the tracker slots the flocks hold.
"""
from __future__ import annotations

from typing import Any


from kcd.engine import mode_registry as modes
from kcd.modes.vto import procedures as vto
from kcd.engine.context import Runtime
from kcd.modes.base import Procedure
from kcd.modes.standard import Standard
from kcd.content.rules import Rules
from kcd.engine.setup import SetupError
from kcd.core.state import State


class VariableTurnOrder(Standard):
    """R-VTO-1..5: the tracker decides the order; Wake up (seasons 2-4) moves the tokens."""

    name = "standard"
    variant = vto.VARIANT
    title = "Variable Turn Order"
    label = "Variable Turn Order"

    def __init__(self) -> None:
        super().__init__()
        self.steps[vto.WAKE_UP] = self.wake_up_step

    def available(self, rules: Rules) -> bool:
        """The content offers the variant's phases (game.yaml `variants.vto.phases`, R-VTO-1)."""
        return bool(rules.vto_phases)

    def check(self, rules: Rules, players: list[str]) -> None:
        """R-VTO-1: the content must offer the variant's phases and a tracker slot per player."""
        if not rules.vto_phases:
            raise SetupError("Variable Turn Order is not available with this content: game.yaml has no "
                             "`variants.vto.phases` (R-VTO-1)")
        if len(rules.tracker) < len(players):
            raise SetupError(f"Variable Turn Order needs a turn tracker slot per player: turn_order.yaml has "
                             f"{len(rules.tracker)} for {len(players)} players")

    def setup_end(self, rt: Runtime) -> "Procedure":
        """R-VTO-2: the tracker tokens go on last."""
        return vto.SETUP_TRACKER.start()

    def phases(self, rules: Rules) -> list[str]:
        """The variant's phases (game.yaml `variants.vto.phases`)."""
        return rules.vto_phases

    def wake_up_step(self, rt: Runtime, i: int) -> "Procedure | None":
        """R-VTO-3: Wake up only at the beginning of seasons 2-4: its start, then each flock in marker order."""
        st = rt.state
        if st.season <= 1:
            return None
        if i == 0:
            return vto.WAKE_UP_START.start()
        return vto.wake_up_frame(rt, st.marker_order()[i - 1]) if i <= len(st.seats) else None

    def passes_marker_at_season_change(self, rules: Rules) -> bool:
        """R-VTO-3: with a Wake up phase the First Player marker passes there, not in Season Change."""
        return vto.WAKE_UP not in self.phases(rules)

    def view_extras(self, st: State, out: dict[str, Any]) -> None:
        """The tracker: each flock's slot (None while waiting below it in Wake up) and last season's slot."""
        out["variant"] = st.variant
        out["tracker"] = {f: {"slot": st.flocks[f].tracker_slot, "previous": st.flocks[f].tracker_prev}
                          for f in st.seats}

    def check_save(self, rules: Rules, data: dict[str, Any]) -> list[str]:
        """The content must offer the variant (its tracker slots are checked with each flock)."""
        return [] if rules.vto_phases else ["a Variable Turn Order game, but this content does not offer the variant"]

    def violations(self, st: State, rules: Rules, pending_player: str | None) -> list[str]:
        """R-VTO-2..4: one token per flock on the turn tracker, on distinct slots, turn order by slot."""
        state = st
        out: list[str] = []
        flocks = [state.flocks[f] for f in state.seats]
        if state.phase == "setup":
            return out   # the tokens are being placed (R-VTO-2)
        if any(f.on_tracker != 1 for f in flocks):
            out.append(f"flocks/on_tracker: tracker tokens {[f.on_tracker for f in flocks]}, expected one per flock")
        slots = [f.tracker_slot for f in flocks if f.tracker_slot is not None]
        if len(set(slots)) != len(slots):
            out.append(f"flocks/tracker_slot: two tokens share a tracker slot: {slots}")
        if state.phase != "wake_up":
            if len(slots) != len(flocks):
                out.append(f"flocks/tracker_slot: a token below the tracker outside Wake up: "
                           f"{[f.tracker_slot for f in flocks]}")
            elif state.turn_order() != sorted(state.seats, key=lambda x: state.flocks[x].tracker_slot or 0):
                out.append(f"flocks/tracker_slot: turn order {state.turn_order()} does not follow the tracker slots")
        return out


VTO = modes.register(VariableTurnOrder())
