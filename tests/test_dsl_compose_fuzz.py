"""Hypothesis fuzzing of the compositional layer: random compositions built from the parts registry parse and
check without an exception, and every one that validates plays on a real position without an engine error
(content that validates plays: no crash, no hang)."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcd.dsl import CheckContext, compile_field
from kcd.dsl.compose_check import WORK_LIMIT, work
from kcd.engine import effects
from kcd.engine.context import Ctx
from kcd.analysis.position import load_position
from kcd.testing import steps

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)
POSITION = Path(__file__).parent / "golden" / "positions" / "compose" / "cards.yaml"
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DETS = ("every", "a", "the", "my", "")
NOUNS = ("kiwi", "leader", "nests", "nest", "markers", "hex", "hexes", "players", "opponent", "me")
ADJS = ("", "flower", "sand")


def _head(draw) -> str:
    det = draw(st.sampled_from(DETS))
    adj = draw(st.sampled_from(ADJS))
    noun = draw(st.sampled_from(NOUNS))
    return " ".join(w for w in (det, adj, noun) if w)


@st.composite
def selectors(draw, depth: int = 0) -> str:
    text = _head(draw)
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(("of size", "of", "in", "adjacent to", "within", "with", "without",
                                   "dominated by", "where")))
        if op == "of size":
            text += f" of size {draw(st.integers(1, 3))}"
        elif op == "within":
            text += f" within {draw(st.integers(1, 3))} of {_head(draw)}"
        elif op == "where":
            text += f" where {draw(conditions(depth + 1))}" if depth < 1 else ""
        else:
            text += f" {op} {_head(draw)}"
    return text


@st.composite
def quantities(draw, depth: int = 0) -> str:
    kind = draw(st.sampled_from(("n", "count", "tokens", "fruit", "min")) if depth < 1 else st.just("n"))
    if kind == "n":
        return str(draw(st.integers(0, 4)))
    if kind == "min":
        return f"min({draw(quantities(depth + 1))}, {draw(quantities(depth + 1))})"
    if kind == "fruit":
        return f"fruit({draw(st.sampled_from(('me', 'it', 'them')))})"
    return f"{kind}({draw(selectors(depth + 1))})"


@st.composite
def conditions(draw, depth: int = 0) -> str:
    op = draw(st.sampled_from((">=", "<", "=", "!=")))
    text = f"{draw(quantities(depth))} {op} {draw(quantities(depth))}"
    if draw(st.booleans()):
        text = f"not {text}"
    return text


@st.composite
def statements(draw, depth: int = 0) -> str:
    choices = ["gain", "gainq", "place-on", "push", "grow", "remove", "return"]
    if depth < 2:
        choices += ["if", "for", "suffix"]
    kind = draw(st.sampled_from(choices))
    if kind == "gain":
        return f"gain {draw(st.integers(1, 2))} {draw(st.sampled_from(('fruit', 'domain', 'vp')))}"
    if kind == "gainq":
        return f"gain {draw(quantities())} fruit"
    if kind == "place-on":
        return f"place 1 kiwi on a {draw(st.sampled_from(('hex', 'flower hex')))} {draw(st.sampled_from(('', 'without a nest', 'with my kiwi')))}".strip()
    if kind == "push":
        return f"push every kiwi of an opponent in {_head(draw)} to a hex without a nest"
    if kind in ("grow", "remove"):
        return f"{kind} {draw(st.sampled_from(('a', 'every')))} kiwi {draw(st.sampled_from(('', 'of size 1', 'in sand hexes')))}".strip()
    if kind == "return":
        return f"return {draw(st.integers(1, 2))} fruit"
    if kind == "if":
        return f"if {draw(conditions())} {{ {draw(statements(depth + 1))} }} else {{ {draw(statements(depth + 1))} }}"
    if kind == "for":
        return f"for each {draw(selectors())} {{ {draw(statements(depth + 1))} }}"
    return f"gain 1 fruit for each {draw(selectors())}, at most {draw(st.integers(1, 3))}"


@FAST
@given(st.lists(statements(), min_size=1, max_size=3))
def test_random_compositions_check_cleanly_or_report_and_valid_ones_play(stmts: list[str]) -> None:
    text = "; ".join(stmts)
    node, issues = compile_field(text, "effect", CTX)   # never raises
    assert all(i.code.startswith("dsl-") and i.span.start <= i.span.end <= len(text) for i in issues), issues
    if issues or node is None:
        return
    assert work(node) <= WORK_LIMIT
    game = load_position(POSITION)
    gen = steps(game.rt, effects.run_frame(game.rt, node, Ctx("teal")))
    asked = 0
    try:
        d = next(gen)
        while True:
            asked += 1
            assert asked < 500, text
            d = gen.send(d.option_ids()[-1])
    except StopIteration:
        pass
    st_ = game.rt.state
    assert all(k.size >= 1 for h in st_.hexes.values() for k in h.kiwi)
    assert all(n >= 0 for f in st_.flocks.values() for n in f.fruit.values())
