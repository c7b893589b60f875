"""DSL parser: AST shape and spans, and the exact text of every syntax error (SPEC.md "The DSL")."""
from __future__ import annotations

import pytest

from kcd.dsl import Call, Choose, DslError, May, Objective, Repeat, Seq, Span, parse
from kcd.dsl.parser import MAX_CHARS, MAX_DEPTH


def test_effect_sequence_words_and_spans() -> None:
    node = parse("gain 2 fruit; place 1 kiwi")
    assert isinstance(node, Seq)
    assert node.span == Span(0, 26)
    first, second = node.stmts
    assert isinstance(first, Call) and isinstance(second, Call)
    assert [w.text for w in first.words] == ["gain", "2", "fruit"]
    assert [w.span for w in first.words] == [Span(0, 4), Span(5, 6), Span(7, 12)]
    assert first.span == Span(0, 12) and second.span == Span(14, 26)
    assert first.words[1].is_int and not first.words[0].is_int
    assert first.primitive is None and first.args == ()


def test_control_statements_and_their_spans() -> None:
    text = "choose { gain 1 fruit } or { may { place 1 kiwi } } ; repeat 2 { feed }"
    node = parse(text)
    choose, repeat = node.stmts
    assert isinstance(choose, Choose) and choose.span == Span(0, 51)
    assert len(choose.options) == 2
    assert choose.options[0].span == Span(9, 21)
    may = choose.options[1].stmts[0]
    assert isinstance(may, May) and text[may.span.start:may.span.end] == "may { place 1 kiwi }"
    assert isinstance(repeat, Repeat) and repeat.count == 2
    assert text[repeat.span.start:repeat.span.end] == "repeat 2 { feed }"
    assert repeat.body.stmts[0].words[0].text == "feed"


def test_choose_takes_more_than_two_options() -> None:
    node = parse("choose { gain 1 fruit } or { gain 1 domain } or { place 1 kiwi }")
    assert len(node.stmts[0].options) == 3


def test_comments_and_newlines_are_ignored() -> None:
    text = "gain 1 fruit  # the tree nest\n; place 1 kiwi # and a kiwi"
    node = parse(text)
    assert [s.words[0].text for s in node.stmts] == ["gain", "place"]
    assert node.stmts[1].span == Span(32, 44)


def test_objective_and_call_start_symbols() -> None:
    obj = parse("least tokens in flower", start="objective")
    assert isinstance(obj, Objective) and obj.direction == "least"
    assert obj.query.span == Span(6, 22) and obj.span == Span(0, 22)
    call = parse("gain domain", start="call")
    assert isinstance(call, Call) and [w.text for w in call.words] == ["gain", "domain"]


def test_reserved_words_inside_longer_words_are_plain_words() -> None:
    node = parse("mayor ore most-x")
    assert [w.text for w in node.stmts[0].words] == ["mayor", "ore", "most-x"]


def test_unknown_start_symbol_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="start symbols are effect, objective, call"):
        parse("gain 1 fruit", start="stmt")


def _err(text: str, start: str = "effect") -> tuple[str, str, tuple[int, int], str | None]:
    with pytest.raises(DslError) as info:
        parse(text, start)
    e = info.value
    assert str(e) == e.message
    return e.code, e.message, (e.span.start, e.span.end), e.hint


SYNTAX_ERRORS = [
    # text, start, message, span, hint
    ("may { }", "effect", "unexpected `}`: expected a verb", (6, 7), None),
    ("gain 1 fruit; may {", "effect", "unclosed `{`", (18, 19), "add `}` to close the block"),
    ("may { gain 1 fruit", "effect", "unclosed `{`", (4, 5), "add `}` to close the block"),
    ("may gain 1 fruit", "effect", "expected `{` after `may`", (4, 8), "write `may { ... }`"),
    ("may", "effect", "expected `{` after `may`", (0, 3), "write `may { ... }`"),
    ("choose gain", "effect", "expected `{` after `choose`", (7, 11), "write `choose { ... }`"),
    ("choose { feed } or build", "effect", "expected `{` after `or`", (19, 24), "write `or { ... }`"),
    ("repeat { feed }", "effect", "`repeat` needs a number", (7, 8), "write `repeat 2 { ... }`"),
    ("repeat", "effect", "`repeat` needs a number", (0, 6), "write `repeat 2 { ... }`"),
    ("repeat 2 feed", "effect", "expected `{` after `repeat 2`", (9, 13), "write `repeat 2 { ... }`"),
    ("gain 1 fruit;", "effect", "expected a verb after `;`", (12, 13), "remove the last `;`"),
    ("choose { feed }", "effect", "unexpected end of the text: `choose` needs at least two options", (14, 15),
     "write `choose { ... } or { ... }`"),
    ("choose { feed } build", "effect", "unexpected `build`: `choose` needs at least two options", (16, 21),
     "write `choose { ... } or { ... }`"),
    ("feed }", "effect", "unexpected `}`: no `{` to close", (5, 6), "remove the `}`"),
    ("gain 1 fruit; ; feed", "effect", "unexpected `;`: expected a verb", (14, 15), None),
    ("gain { x }", "effect", "unexpected `{`: expected a word, a number, `;` or the end of the text", (5, 6), None),
    ("gain 1 or 2", "effect", "unexpected `or`: expected a word, a number, `;` or the end of the text", (7, 9),
     "`or` is a reserved word; reserved words are choose, or, may, repeat, most, least"),
    ("most nests", "effect", "unexpected `most`: expected a verb", (0, 4),
     "`most` starts a Season card objective, not an effect"),
    ("", "effect", "expected a verb, got nothing", (0, 0), "write e.g. `gain 1 fruit`"),
    ("   # only a comment", "effect", "expected a verb, got nothing", (0, 19), "write e.g. `gain 1 fruit`"),
    ("Gain 1 fruit", "effect", "unexpected character `G`: words are written in lowercase", (0, 1), "write `gain`"),
    ("gain 1 fruit, place 1 kiwi", "effect", "unexpected character `,`", (12, 13), "separate statements with `;`"),
    ("gain\x00", "effect", "unexpected character `U+0000`", (4, 5), None),
    ("tokens in flower", "objective", "unexpected `tokens`: expected `most` or `least`", (0, 6), None),
    ("most", "objective", "expected a quantity after `most`", (0, 4), "write e.g. `most count(my nests)`"),
    ("most 3", "objective", "unexpected `3`: expected a quantity", (5, 6), None),
    ("", "objective", "expected `most` or `least`, got nothing", (0, 0), None),
    ("gain domain; feed", "call", "unexpected `;`: expected the end of the text", (11, 12),
     "a trigger or modifier is a single call, without `;`"),
]


@pytest.mark.parametrize("text,start,message,span,hint", SYNTAX_ERRORS)
def test_syntax_error_messages_are_exact(text: str, start: str, message: str, span: tuple[int, int],
                                         hint: str | None) -> None:
    assert _err(text, start) == ("dsl-syntax", message, span, hint)


def test_text_longer_than_the_bound_is_refused() -> None:
    text = "feed; " * 700 + "feed"
    assert _err(text) == ("dsl-syntax", f"text too long: {len(text)} characters, at most {MAX_CHARS}",
                          (MAX_CHARS, len(text)), "split the effect or simplify it")


def test_nesting_deeper_than_the_bound_is_refused() -> None:
    ok = "may { " * MAX_DEPTH + "feed" + " }" * MAX_DEPTH
    assert isinstance(parse(ok), Seq)
    deep = "may { " * (MAX_DEPTH + 1) + "feed" + " }" * (MAX_DEPTH + 1)
    assert _err(deep) == ("dsl-syntax", f"blocks nested too deep: at most {MAX_DEPTH} levels of `{{`",
                          (6 * MAX_DEPTH + 4, 6 * MAX_DEPTH + 5), "split the effect into simpler parts")


def test_non_text_input_is_a_dsl_error() -> None:
    assert _err(5) == ("dsl-syntax", "expected DSL text, got int", (0, 0),  # type: ignore[arg-type]
                       "write the effect as text, e.g. `gain 1 fruit`")


def test_parse_tables_are_cached_in_the_user_cache_folder(tmp_path, monkeypatch) -> None:
    """The pickled tables go to XDG_CACHE_HOME, appear complete, and are reused; no folder means no cache."""
    from kcd.dsl import parser as parser_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parser_module._lark.cache_clear()
    try:
        assert isinstance(parse("feed"), Seq)
        files = list((tmp_path / "kiwi-chow-down").iterdir())
        assert len(files) == 1 and files[0].name.startswith("dsl-grammar-") and files[0].suffix == ".lark-cache"
        parser_module._lark.cache_clear()
        assert isinstance(parse("feed"), Seq)  # loaded from the cache file
        blocker = tmp_path / "not-a-dir"
        blocker.write_text("x")
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
        parser_module._lark.cache_clear()
        with pytest.raises(DslError):
            parse("may {")
    finally:
        parser_module._lark.cache_clear()
