"""DSL robustness (Hypothesis): any text parses or raises a located DslError; checking and rendering never raise."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcd.dsl import CheckContext, DslError, check, parse, registry, render
from kcd.dsl.checker import FIELD_KINDS
from kcd.dsl.parser import STARTS
from kcd.dsl.render import sample_call

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parses(text: str) -> bool:
    try:
        parse(text)
    except DslError:
        return False
    return True


# Seeds: every verb with sample arguments (test_dsl_render checks each one binds) and composite effects.
VALID = [t for t in (sample_call(p, CTX) for p in registry.PRIMITIVES if p.kind == "verb") if _parses(t)] + [
    "gain 2 fruit; place 1 kiwi",
    "choose { gain 1 fruit } or { may { pay 2 fruit of red blue; mark domain } }",
    "repeat 2 { grow 1 kiwi; gain 1 domain } # twice",
    "leader moves 3 straight; push the pieces out of the passed hexes",
    "most tokens(my pieces in flower hexes)",
    "least count(my kiwi of size 2)",
    "gain domain",
    "my nests give benefits twice",
]
DSL_CHARS = "abcdefghiklmnoprstuvwxyz0123456789{};# \n-_"
INSERTS = ["{", "}", ";", " ", "#", "\n", "choose", "or", "may", "repeat", "most", "least", "0", "99", "Z", "é", "\x00"]


def _exercise(text: str) -> None:
    """Parse from every start symbol; check every parsed node for every field kind; render what comes back."""
    for start in STARTS:
        try:
            node = parse(text, start)
        except DslError as exc:
            assert exc.code == "dsl-syntax"
            assert 0 <= exc.span.start <= exc.span.end <= len(text), (text, exc.span)
            assert exc.message
            continue
        for kind in (*FIELD_KINDS, "nonsense"):
            bound, issues = check(node, kind, CTX)
            for issue in issues:
                assert 0 <= issue.span.start <= issue.span.end <= len(text), (text, issue)
            assert isinstance(render(bound), str)


@FAST
@given(st.text(max_size=80))
def test_random_text_never_raises_anything_but_dsl_error(text: str) -> None:
    _exercise(text)


@FAST
@given(st.text(alphabet=DSL_CHARS, max_size=80))
def test_random_dsl_like_text_never_raises_anything_but_dsl_error(text: str) -> None:
    _exercise(text)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid effect with a few character- and word-level edits."""
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["del", "ins", "swap", "delw", "dupw", "swapw", "insw"]))
        if op in ("del", "ins", "swap"):
            i = draw(st.integers(0, max(len(text) - 1, 0)))
            if op == "del":
                text = text[:i] + text[i + 1:]
            elif op == "ins":
                text = text[:i] + draw(st.sampled_from(INSERTS + list(DSL_CHARS))) + text[i:]
            elif len(text) > i + 1:
                text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        else:
            words = text.split(" ")
            i = draw(st.integers(0, len(words) - 1))
            if op == "delw" and len(words) > 1:
                del words[i]
            elif op == "dupw":
                words.insert(i, words[i])
            elif op == "swapw" and len(words) > 1:
                j = draw(st.integers(0, len(words) - 1))
                words[i], words[j] = words[j], words[i]
            elif op == "insw":
                pool = INSERTS + [w for v in VALID for w in v.split()]
                words.insert(i, draw(st.sampled_from(pool)))
            text = " ".join(words)
    return text


@FAST
@given(mutated())
def test_mutated_effects_never_raise_anything_but_dsl_error(text: str) -> None:
    _exercise(text)


def test_every_valid_seed_parses_and_checks_clean() -> None:
    for text in VALID:
        start = "objective" if text.startswith(("most", "least")) else "effect"
        node = parse(text, start)
        kinds = {"objective"} if start == "objective" else {"effect", "ability", "solo", "trigger", "modifier"}
        assert any(not check(node, kind, CTX)[1] for kind in kinds), text
