"""Engine: board geometry, state JSON, dominance (R-DOM-1/2, R-BUILD-5, R-LEAD-1) and payment (R-PAY-1)."""
from __future__ import annotations

from test_engine_support import blank_runtime, fruit, markers, put

from kcd.core import dominance
from kcd.engine import payment
from kcd.core.board import board_of
from kcd.core.state import State
from kcd.testing import drive, steps


def test_board_adjacency_edges_lines():
    """Axial geometry: neighbours, edge hexes, straight lines that must stay on the island."""
    rt = blank_runtime()
    b = board_of(rt.state)
    assert sorted(b.adjacent("A7")) == ["A10", "A11", "A2", "A3", "A6", "A8"]
    assert not b.is_edge("A7") and b.is_edge("A1")
    assert b.line("A5", 0, 3) == ["A6", "A7", "A8"]
    assert b.line("A1", 2, 1) is None            # north of A1 is off the island
    assert b.distance("A5", "A8") == 3
    assert b.between("A5", "A8") == ["A6", "A7"]
    assert board_of(rt.state) is b               # cached


def test_state_json_round_trip():
    """State is plain data: to_dict/from_dict is lossless."""
    rt = blank_runtime()
    put(rt, "A7", "red", 2, 1)
    rt.state.set_nest("A6", ("red", "control-1"))
    rt.state.set_domain("A1", ("green", "flower"))
    d = rt.state.to_dict()
    assert State.from_dict(d).to_dict() == d


def test_rng_deterministic_and_in_state():
    """All randomness comes from the seeded RNG held in the state."""
    a, b = blank_runtime(seed=5).state, blank_runtime(seed=5).state
    assert [a.rand_below(100) for _ in range(5)] == [b.rand_below(100) for _ in range(5)]
    assert a.to_dict() == b.to_dict()


def test_R_DOM_2_counts_size_leader_control_nest():
    """R-DOM-2: each Kiwi its size, a Leader 3, a Control Nest 2 (R-BUILD-5); the rulebook's example."""
    rt = blank_runtime(players=("purple", "red", "yellow", "green"), leader_hexes={"red": "A6"})
    put(rt, "A6", "purple", 1, 1, 2)
    rt.state.set_nest("A6", ("purple", "control-1"))
    put(rt, "A6", "red", 1, 1)
    put(rt, "A6", "yellow", 2)
    put(rt, "A6", "green", 1)
    assert dominance.strengths(rt.state, "A6") == {"purple": 6, "red": 5, "yellow": 2, "green": 1}
    assert dominance.dominant(rt.state, "A6") == "purple"


def test_R_DOM_1_tie_gives_nobody():
    """R-DOM-1: beating every other individual opponent is needed; a tie at the top gives nobody dominance."""
    rt = blank_runtime(players=("red", "green", "purple"), leader_hexes={"red": "A6"})
    put(rt, "A6", "green", 2, 1)
    assert dominance.dominant(rt.state, "A6") is None
    put(rt, "A7", "red", 1)
    put(rt, "A7", "green", 1)
    put(rt, "A7", "purple", 2)
    assert dominance.dominant(rt.state, "A7") == "purple"   # beats each opponent individually
    assert dominance.dominant(rt.state, "A8") is None


def test_R_LEAD_1_leader_counts_three_for_dominance_edition_weights():
    """R-LEAD-1: a Leader counts 3 tokens; the weights come from state params (an edition may change them, Z-4)."""
    rt = blank_runtime(leader_hexes={"red": "A6"})
    put(rt, "A6", "green", 2)
    assert dominance.dominant(rt.state, "A6") == "red"
    rt.state.params["dominance"]["build"] = {"kiwi": "size", "leader": 1, "nests": True}
    assert dominance.dominant(rt.state, "A6", "build") == "green"


def test_R_PAY_1_domain_markers_stand_in_for_fruit():
    """R-PAY-1: paid fruit goes back to the bag; a domain marker may be paid as fruit of any type."""
    rt = blank_runtime()
    fruit(rt, "red", red=1)
    markers(rt, "red", "sand")
    req = payment.Req("fruit", 2, "different")
    ids = sorted(p.option_id() for p in payment.payments(rt.state.flocks["red"], req, rt.rules.fruits))
    assert ids == ["pay:red,marker-sand"]
    bag_before = dict(rt.state.fruit_bag), dict(rt.state.domain_bag)
    # asked though one way is left: it uses a marker, whose terrain the others do not know (R-SETUP-4)
    drive(steps(rt, payment.PAY.start("red", req, tuple(()))), ["pay:red,marker-sand"])
    assert rt.state.flocks["red"].fruit["red"] == 0 and rt.state.flocks["red"].domain == []
    assert rt.state.fruit_bag["red"] == bag_before[0]["red"] + 1
    assert rt.state.domain_bag["sand"] == bag_before[1]["sand"] + 1


def test_R_PAY_1_payment_choices_same_and_of_types():
    """Payment options: `same` needs one colour; `of types` only the listed colours (R-MOVE-3 cost)."""
    rt = blank_runtime()
    fruit(rt, "red", red=2, green=1, yellow=1)
    fl = rt.state.flocks["red"]
    same = {p.option_id() for p in payment.payments(fl, payment.Req("fruit", 2, "same"), rt.rules.fruits)}
    assert same == {"pay:red,red"}
    of = {p.option_id() for p in payment.payments(fl, payment.Req("fruit", 2, "any", ("yellow", "green")), rt.rules.fruits)}
    assert of == {"pay:green,yellow"}
    assert not payment.can_meet(fl, payment.Req("fruit", 3, "same"), rt.rules.fruits)
