"""Safe, line-mapped YAML: YAML 1.2 scalars, hostile input refused with located `yaml-*` diagnostics."""
from __future__ import annotations

from pathlib import Path

import pytest

from kcd.content.yamlsafe import MAX_DEPTH, parse_yaml
from kcd.core.diagnostics import Diagnostic, Location


def _one(text: str, file: str = "x.yaml") -> str:
    doc, diags = parse_yaml(file, text)
    assert doc is None and len(diags) == 1
    return diags[0].format()


def test_yaml12_words_keep_their_meaning() -> None:
    """`on:`, yes/no/off/y/n, sexagesimal and dates stay strings; only true/false/null are special."""
    doc, diags = parse_yaml("x.yaml", "on: yes\nno: off\ny: n\nt: 1:30\nd: 2024-01-01\nb: true\nf: False\n"
                                      "z: ~\ne:\nhex: 0x1F\noct: 0o17\nn: 012\nflt: 1.5\ns: '12'\n")
    assert diags == []
    assert doc.data == {"on": "yes", "no": "off", "y": "n", "t": "1:30", "d": "2024-01-01", "b": True,
                        "f": False, "z": None, "e": None, "hex": 31, "oct": 15, "n": 12, "flt": 1.5, "s": "12"}


def test_locations_of_values_and_keys() -> None:
    """Every value and mapping key has a 1-based line/col; missing paths fall back to the ancestor."""
    doc, _ = parse_yaml("x.yaml", "- id: a\n  cost: pay 2 fruit same\n  list: [1, 2]\n")
    assert doc.location((0, "cost")) == Location("x.yaml", 2, 9, 25)
    assert doc.location((0, "cost"), key=True) == Location("x.yaml", 2, 3, 7)
    assert doc.location((0, "list", 1)) == Location("x.yaml", 3, 13, 14)
    assert doc.location((0, "nope")).line == 1  # the item mapping


def test_span_mapping_plain_quoted_and_block_scalars() -> None:
    """DSL spans map into the file: plain (+offset), quoted (+1 for the quote), `|` and `>` blocks."""
    text = ('a: gain 1 fruit\nb: "gain gian"\nc: |\n  gain 1 fruit;\n  gian 2 fruit\nd: >\n  gain 1 fruit;\n'
            '  gian 2 fruit\n')
    doc, _ = parse_yaml("x.yaml", text)
    assert doc.span_location(("a",), 5, 6) == Location("x.yaml", 1, 9, 10)
    assert doc.span_location(("b",), 5, 9) == Location("x.yaml", 2, 10, 14)
    assert doc.data["c"][14:18] == "gian"
    assert doc.span_location(("c",), 14, 18) == Location("x.yaml", 5, 3, 7)
    assert doc.data["d"][14:18] == "gian"
    assert doc.span_location(("d",), 14, 18) == Location("x.yaml", 8, 3, 7)


def test_duplicate_key_is_located() -> None:
    """A mapping key written twice: `yaml-duplicate-key` at the second one."""
    assert _one("id: a\nvp: 1\nvp: 2\n") == (
        "x.yaml:3:1: error[yaml-duplicate-key]: duplicate key `vp` (first at line 2)\n"
        "  vp: 2\n"
        "  ^^\n"
        "  hint: each key may appear only once in a mapping")


def test_python_tag_refused_and_never_runs(tmp_path: Path) -> None:
    """A `!!python/object/apply:os.system` payload is refused and the command is not executed."""
    marker = tmp_path / "pwned"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    assert _one(text) == (
        "x.yaml:1:4: error[yaml-unsafe]: tag `!!python/object/apply:os.system` is not allowed\n"
        f"  a: !!python/object/apply:os.system ['touch {marker}']\n"
        "     ^\n"
        "  hint: content YAML uses plain values only; remove the tag")
    assert not marker.exists()


def test_custom_tag_refused() -> None:
    """Application tags (`!include`, `!foo`) are refused with the tag's location."""
    assert _one("x:\n  y: !include other.yaml\n") == (
        "x.yaml:2:6: error[yaml-unsafe]: tag `!include` is not allowed\n"
        "  y: !include other.yaml\n"
        "     ^\n"
        "  hint: content YAML uses plain values only; remove the tag")


def test_billion_laughs_refused() -> None:
    """Aliases that expand exponentially stop at the expansion budget instead of eating memory."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    message = _one("\n".join(lines) + "\n")
    assert "error[yaml-unsafe]" in message
    assert "aliases" in message


def test_many_aliases_refused() -> None:
    """More alias uses than the small budget is refused even when each is tiny."""
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * 100) + "]\n"
    assert _one(text).splitlines()[0] == "x.yaml:2:261: error[yaml-unsafe]: more than 64 aliases"


def test_deep_nesting_refused() -> None:
    """100-deep nesting is refused at the level that exceeds the limit."""
    text = "a: " + "[" * 100 + "]" * 100 + "\n"
    first = _one(text).splitlines()[0]
    assert first == f"x.yaml:1:{4 + MAX_DEPTH - 1}: error[yaml-unsafe]: nesting deeper than {MAX_DEPTH} levels"


def test_huge_file_refused() -> None:
    """Files over 1 MB are refused before parsing."""
    assert _one("a: " + "x" * 1_000_001 + "\n").splitlines()[0] == \
        "x.yaml:1:1: error[yaml-unsafe]: file is larger than 1 MB"


def test_syntax_error_located() -> None:
    """A parse error names the problem and points at its mark."""
    assert _one("id: a\ncost: pay: 2\n") == (
        "x.yaml:2:10: error[yaml-syntax]: mapping values are not allowed in this context\n"
        "  cost: pay: 2\n"
        "           ^\n"
        "  hint: a value containing `: ` must be quoted, or this line is indented too far")


def test_unknown_alias_and_second_document() -> None:
    """An alias without anchor, and a second document, are syntax errors (no traceback)."""
    assert _one("a: *nope\n").splitlines()[0] == "x.yaml:1:4: error[yaml-syntax]: unknown alias `*nope`"
    assert _one("a: 1\n---\nb: 2\n").splitlines()[0] == \
        "x.yaml:2:1: error[yaml-syntax]: a content file holds one YAML document; found a second `---`"


@pytest.mark.parametrize("text", ["\x00", "a: [", "{", "- a\nb: c", "a: 'x", "? [a]\n: 1", "a: !!int x",
                                  "a: &x [*x]", "\t- a", "a: 9" + "9" * 5000])
def test_garbage_never_raises(text: str) -> None:
    """Whatever the bytes, parse_yaml returns diagnostics rather than raising."""
    doc, diags = parse_yaml("x.yaml", text)
    assert doc is not None or diags
    assert all(isinstance(d, Diagnostic) and d.code.startswith("yaml-") for d in diags)


def test_pure_python_parser_gives_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without libyaml the pure-Python event parser yields the same data, locations and refusals."""
    from kcd.content import yamlsafe

    text = "- id: a\n  on: yes\n  cost: \"pay 2 fruit same\"\n  blk: |\n    gain 1 fruit\n"
    with_c = parse_yaml("x.yaml", text)[0]
    monkeypatch.setattr(yamlsafe, "_EventParser", None)
    pure = parse_yaml("x.yaml", text)[0]
    assert pure.data == with_c.data and pure.locs == with_c.locs and pure.keys == with_c.keys
    assert _one("a: !!python/name:os.system x\n").startswith(
        "x.yaml:1:4: error[yaml-unsafe]: tag `!!python/name:os.system` is not allowed")
    assert _one("a: 1\na: 2\n").startswith("x.yaml:2:1: error[yaml-duplicate-key]")
