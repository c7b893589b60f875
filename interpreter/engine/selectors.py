"""Selectors, quantities and conditions of the compositional DSL evaluated on a game state (pure functions).

An element is a tuple `(kind, hex, thing)`: `("kiwi", hex, Kiwi)`, `("leader", hex, flock)`,
`("nest", hex, (flock, nest id))`, `("marker", hex, (flock, terrain))`, `("hex", hex, hex)`, `("player", None,
flock)`. A Scope says who "me" is and what the references name (the ability's hexes, `this hex`, `it`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from kcd.dsl import ast, parts
from kcd.core import dominance
from kcd.core.board import board_of
from kcd.core.state import Hex, State
from kcd.core.memo import per_object

__all__ = ["Scope", "select", "narrow", "quantity", "holds", "owner_of", "hex_of", "plain", "live", "sharing_of",
           "mentions_it", "dominant_table"]

Element = tuple[str, Any, Any]   # (kind, hex, thing): the module docstring (a player's hex is None)


@dataclass(frozen=True)
class Scope:
    """What the names of a selector mean at one point of play."""

    me: str
    it: Element | None = None
    here: str | None = None
    landing: str | None = None
    starting: str | None = None
    passed: tuple[str, ...] = ()
    purpose: str = "default"       # dominance weights: "objective" inside a Season card objective
    # per-hex counts computed once while one objective is evaluated on one state (queries.evaluate gives a dict;
    # None in effects, where the state changes between steps)
    memo: dict[Any, Any] | None = field(default=None, compare=False, hash=False)

    def at(self, el: Element) -> "Scope":
        """The same scope with `it` naming `el` (faster than dataclasses.replace: this runs per element)."""
        return Scope(self.me, el, self.here, self.landing, self.starting, self.passed, self.purpose, self.memo)


def plain(el: Element) -> Element:
    """An element as plain data (a frame or a Ctx may hold it): a Kiwi as `("kiwi", hex, (id, flock))`."""
    if el[0] == "kiwi" and not isinstance(el[2], tuple):
        return ("kiwi", el[1], (el[2].id, el[2].flock))
    return el


def live(st: State, el: Element) -> Element | None:
    """The element on the state now: a plain Kiwi found by its id in its hex (None when it left that hex)."""
    if el[0] != "kiwi" or not isinstance(el[2], tuple):
        return el
    h = st.hexes.get(el[1])
    for k in (h.kiwi if h is not None else ()):
        if k.id == el[2][0]:
            return ("kiwi", el[1], k)
    return None


def owner_of(el: Element) -> str | None:
    """The flock an element belongs to (None for a hex)."""
    kind, _, thing = el
    flock: str
    if kind == "kiwi":
        flock = thing[1] if isinstance(thing, tuple) else thing.flock
        return flock
    if kind in ("leader", "player"):
        flock = thing
        return flock
    if kind in ("nest", "marker"):
        flock = thing[0]
        return flock
    return None


def hex_of(el: Element) -> str | None:
    """The hex an element stands on (a hex: itself; a player: none)."""
    where: str | None = el[1]
    return where


@dataclass(frozen=True)
class TokenKiwi:
    """A Leader or a Nest counted as Kiwi in a Season card objective (R-SCARD-4): the Leader one size-3 Kiwi,
    a Nest as many size-1 Kiwi as its dominance value (a Control Nest 2)."""

    flock: str
    size: int
    id: int = -1


def _objective_kiwi(st: State, hexes: list[Hex]) -> list[Element]:
    """R-SCARD-4: in an objective, `kiwi` also names each Leader as a size-3 Kiwi and each Nest as its
    dominance value of size-1 Kiwi, so `count(my kiwi of size 1)` counts a Control Nest twice."""
    out: list[Element] = []
    top = int(st.params.get("max_size", 3))
    values = st.params.get("nest_dominance", {})
    leaders: dict[str, list[str]] = {}
    for f in st.seats:
        where = st.flocks[f].leader_hex
        if where is not None:
            leaders.setdefault(where, []).append(f)
    for h in hexes:
        for f in leaders.get(h.id, ()):
            out.append(("kiwi", h.id, TokenKiwi(f, top)))
        if h.nest is not None:
            out.extend(("kiwi", h.id, TokenKiwi(h.nest[0], 1)) for _ in range(int(values.get(h.nest[1], 0))))
    return out


def _located(st: State, kind: str | None, hexes: list[Hex], sc: Scope) -> list[Element] | None:
    """The candidates of a piece kind standing in `hexes` (hex objects), hex by hex in that order (None: the kind
    is not a piece kind)."""
    if kind == "kiwi":
        out = [("kiwi", h.id, k) for h in hexes for k in h.kiwi]
        if sc.purpose == "objective":
            out += _objective_kiwi(st, hexes)
        return out
    if kind == "leader":
        ids = {h.id for h in hexes}
        return [("leader", st.flocks[f].leader_hex, f) for f in st.seats if st.flocks[f].leader_hex in ids]
    if kind == "nest":
        return [("nest", h.id, h.nest) for h in hexes if h.nest is not None]
    if kind == "piece":   # what carries Kiwi tokens: Kiwi, Leaders, Nests (R-SCARD-4)
        return ([("kiwi", h.id, k) for h in hexes for k in h.kiwi] + (_located(st, "leader", hexes, sc) or [])
                + (_located(st, "nest", hexes, sc) or []))
    if kind == "marker":
        return [("marker", h.id, h.domain) for h in hexes if h.domain is not None]
    return None


def _candidates(st: State, sel: ast.Selector, sc: Scope) -> list[Element]:
    kind, ref = sel.kind, sel.ref
    if ref is not None and ref.startswith("flock:"):   # a chosen player, fixed when the verb ran (compose.py)
        return [("player", None, ref[6:])] if ref[6:] in st.flocks else []
    if ref == "it":   # (a modifier's `it` over `pieces` is the one Kiwi, Leader or Nest the rule is applied to)
        fits = sc.it is not None and (sc.it[0] == kind or kind == "piece" and sc.it[0] in ("kiwi", "leader", "nest"))
        el = live(st, sc.it) if fits and sc.it is not None else None
        return [el] if el is not None else []
    if ref in ("landing", "starting", "here"):
        where = {"landing": sc.landing, "starting": sc.starting, "here": sc.here}[ref]
        return [("hex", where, where)] if where is not None and where in st.hexes else []
    if ref == "passed":
        return [("hex", h, h) for h in sc.passed if h in st.hexes]
    if kind == "hex":
        return [("hex", h.id, h.id) for h in st.hexes.values() if not sel.terrains or h.terrain in sel.terrains]
    if kind == "player":
        return [("player", None, f) for f in st.seats]
    if kind == "leader":   # every Leader on the island, in seat order (as `_located` over every hex)
        return [("leader", st.flocks[f].leader_hex, f) for f in st.seats if st.flocks[f].leader_hex in st.hexes]
    return _located(st, kind, list(st.hexes.values()), sc) or []


def _subject(sc: Scope) -> str | None:
    """The player `their` refers to: the element player, or the owner of the element."""
    return owner_of(sc.it) if sc.it is not None else None


# references that name one hex, read straight off the scope (`it` only when it is a hex)
_ONE_HEX: dict[str, Callable[[Scope], str | None]] = {
    "it": lambda sc: sc.it[1] if sc.it is not None and sc.it[0] == "hex" else None,
    "here": lambda sc: sc.here, "landing": lambda sc: sc.landing, "starting": lambda sc: sc.starting}


def _hexes(els: list[Element]) -> set[str]:
    return {e[1] for e in els if e[1] is not None}


# How an objective's evaluation may share a selector's elements between flocks (`select` with a memo)
_SHARED, _BY_OWNER, _PER_FLOCK = "shared", "by-owner", "per-flock"


@per_object(4096)
def sharing_of(sel: ast.Selector) -> str:
    """`_SHARED` when the selector names the same elements whoever "me" is and whatever `it` is; `_BY_OWNER`
    when only its own owner (`my ...`, `... of an opponent`) depends on "me"; `_PER_FLOCK` otherwise."""
    free = sel.ref != "it" and sel.owner != "subject" and all(
        (f.arg is None or sharing_of(f.arg) == _SHARED) and (f.cond is None or _free(f.cond)) for f in sel.filters)
    how = _PER_FLOCK if not free else _BY_OWNER if sel.owner in ("me", "opponent") else _SHARED
    return how


def _free(e: ast.Expr | int) -> bool:
    """Whether a quantity or condition has the same value whoever "me" is and whatever `it` is."""
    if isinstance(e, ast.Selector):
        return sharing_of(e) == _SHARED
    if isinstance(e, ast.BinOp):
        return _free(e.left) and _free(e.right)
    if isinstance(e, ast.Not):
        return _free(e.cond)
    if isinstance(e, ast.QCall):
        return all(_free(a) for a in e.args)
    return True   # a number


def select(st: State, sel: ast.Selector, sc: Scope) -> list[Element]:
    """The elements a bound selector names, in island (or seat) order; pieces `in <hexes>` hex by hex in the
    order those hexes are named (the passed hexes from the Leader's start to its landing)."""
    memo = sc.memo
    if memo is None:
        return _select(st, sel, sc, sel.owner)
    # One objective on one state, for every flock (queries.winners shares the memo): what does not depend on who
    # "me" is is selected once. A selector free of `me` and `it` is cached whole; one whose only `me` is its own
    # owner (`my kiwi of size 1`) caches its elements before that owner filter, grouped by owner. The filters are
    # each a test of one element, so applying the owner last selects the same elements in the same order.
    how = sharing_of(sel)
    if how == _PER_FLOCK:
        return _select(st, sel, sc, sel.owner)
    if how == _SHARED:
        key = ("sel", id(sel))
        found = memo.get(key)
        if found is None:
            found = memo[key] = _select(st, sel, sc, sel.owner)
        return found
    key = ("own", id(sel))
    found = memo.get(key)
    if found is None:
        base = _select(st, sel, sc, None)
        groups: dict[str | None, list[Element]] = {}
        for e in base:
            groups.setdefault(owner_of(e), []).append(e)
        found = memo[key] = (base, groups)
    if sel.owner == "me":
        return found[1].get(sc.me, [])
    me = sc.me
    return [e for e in found[0] if owner_of(e) not in (None, me)]   # `of an opponent`, in island order


def _select(st: State, sel: ast.Selector, sc: Scope, owner: str | None) -> list[Element]:
    """`select` with the given owner filter (the selector's own, or None to leave the owner open)."""
    first_in = None
    for f in sel.filters:
        if f.op == "in":
            first_in = f
            break
    out = None
    if first_in is not None and sel.kind != "hex" and sel.ref is None:
        # pieces in some hexes: take the candidates of those hexes only (a hex's Kiwi, not the island's)
        arg = first_in.arg
        assert arg is not None   # `in` always names its hexes (the parser)
        one = _ONE_HEX.get(arg.ref or "") if not arg.filters and arg.kind == "hex" else None
        if one is not None:   # `in it`, `in this hex`, `in the landing hex`: one hex, no need to select it
            h = one(sc)
            where = [h] if h is not None else []
        else:
            where = list(dict.fromkeys(e[1] for e in select(st, arg, sc) if e[1] is not None))
        out = _located(st, sel.kind, [st.hexes[h] for h in where if h in st.hexes], sc)
    if out is None:
        first_in = None
        out = _candidates(st, sel, sc)
    return _narrowed(st, sel, out, sc, first_in, owner)


def _narrowed(st: State, sel: ast.Selector, out: list[Element], sc: Scope, done: ast.Filter | None,
              owner: str | None) -> list[Element]:
    """Candidates narrowed by an owner (the selector's own, or None to leave it open), then each of the selector's
    filters but `done` (already applied)."""
    if owner == "me":
        out = [e for e in out if owner_of(e) == sc.me]
    elif owner == "opponent":
        out = [e for e in out if owner_of(e) not in (None, sc.me)]
    elif owner == "subject":
        who = _subject(sc)
        out = [e for e in out if owner_of(e) == who]
    for f in sel.filters:
        if not out:
            break
        if f is not done:
            out = _filter(st, f, out, sc)
    return out


def _ident(el: Element) -> Any:
    """What tells two elements of one kind and hex apart: a Kiwi's id, else the thing itself."""
    thing = el[2]
    if el[0] == "kiwi":
        return thing[0] if isinstance(thing, tuple) else thing.id
    return thing


def narrow(st: State, sel: ast.Selector, els: list[Element], sc: Scope) -> list[Element]:
    """The elements of `els` (candidates a procedure already holds: the hexes next to a piece, the Kiwi of one hex)
    that the bound selector names, in their order: its kind, terrains, reference, owner and filters as `select`
    reads them. An element may stand in for a piece the island does not list (a Leader as a size-3 Kiwi)."""
    kind = sel.kind
    out = [e for e in els if e[0] == kind or (kind == "piece" and e[0] in ("kiwi", "leader", "nest"))]
    if sel.terrains:
        out = [e for e in out if e[1] in st.hexes and st.hexes[e[1]].terrain in sel.terrains]
    if sel.ref is not None:
        named = {(e[0], e[1], _ident(e)) for e in select(st, replace(sel, filters=()), sc)}
        out = [e for e in out if (e[0], e[1], _ident(e)) in named]
    return _narrowed(st, sel, out, sc, None, sel.owner)


def _size(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    return [e for e in els if e[0] == "kiwi" and e[2].size == f.n]


def _where(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    c = f.cond
    assert c is not None   # `where` always has its condition (the parser)
    if isinstance(c, ast.BinOp) and c.op in _CMP and isinstance(c.right, ast.Num):
        table = _hex_table(st, c.left, sc, els)
        if table is not None:   # `hexes where count(my kiwi in it) = 1`: every hex's count in one pass
            cmp, bound = _CMP[c.op], c.right.value
            return [e for e in els if cmp(table.get(e[1], 0), bound)]
    return [e for e in els if holds(st, c, sc.at(e))]


def _arg(st: State, f: ast.Filter, sc: Scope) -> list[Element]:
    """The elements a filter's own selector names."""
    assert f.arg is not None, f.op   # every filter but `of size` and `where` narrows by a selector (dsl/parts.py)
    return select(st, f.arg, sc)


def _owner(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    who = {e[2] for e in _arg(st, f, sc) if e[0] == "player"}
    return [e for e in els if owner_of(e) in who]


def _dominated(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    who = {e[2] for e in _arg(st, f, sc) if e[0] == "player"}
    # in an objective, "hexes dominated by" is R-SCARD-5's hexes with dominance: counted as game.yaml
    # `season_cards.dominated_hexes` says (the `dominated_hexes` purpose), as the `hex-dominance` query does
    purpose = "dominated_hexes" if sc.purpose == "objective" else sc.purpose
    if sc.memo is not None:   # an objective on one state: every hex's dominant flock in one pass, once
        top = dominant_table(st, purpose, sc.memo)
        return [e for e in els if e[1] is not None and top.get(e[1]) in who]
    if len(els) > 1 and dominance.weighted(st):   # weights of flock powers: worked out once for the island
        owners = dominance.dominant_all(st, purpose)
        return [e for e in els if e[1] is not None and owners[e[1]] in who]
    return [e for e in els if e[1] is not None and dominance.dominant(st, e[1], purpose) in who]


def _in(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    where = _hexes(_arg(st, f, sc))
    return [e for e in els if e[1] in where]


def _without(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    where = _hexes(_arg(st, f, sc))
    return [e for e in els if e[1] not in where]


def _adjacent(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    where = _hexes(_arg(st, f, sc))
    b = board_of(st)
    near = {n for h in where for n in b.adjacent(h)}
    return [e for e in els if e[1] in near]


def _within(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    where = _hexes(_arg(st, f, sc))
    b = board_of(st)
    n = f.n or 0   # `within N` always has its N (the parser)
    return [e for e in els if e[1] is not None and any(b.distance(e[1], h) <= n for h in where)]


FilterFn = Callable[[State, ast.Filter, list[Element], Scope], list[Element]]
# The engine's evaluation of each filter part of the parts registry, by part name; `with` keeps the hexes holding
# a piece named, as `in` keeps the pieces standing in a hex named.
_EVALUATE: dict[str, FilterFn] = {"of size": _size, "of": _owner, "in": _in, "adjacent to": _adjacent,
                                  "within": _within, "with": _in, "without": _without, "dominated by": _dominated,
                                  "where": _where}
# parsed filter op -> evaluation, read off the parts registry (a part's own `run` hook first): a filter part with
# neither fails here, at import, not in play
FILTERS: dict[str, FilterFn] = {p.op: p.run or _EVALUATE[p.name] for p in parts.FILTERS.values()}


def _filter(st: State, f: ast.Filter, els: list[Element], sc: Scope) -> list[Element]:
    run = FILTERS.get(f.op)
    if run is None:
        raise ValueError(f"unknown filter `{f.op}`")
    return run(st, f, els, sc)


# (id(params), purpose) -> (params, its weights as a key): a game's states share one params dict (dominance._SETUPS)
_WEIGHT_KEYS: dict[tuple[int, str], tuple[dict[str, Any], tuple[tuple[str, Any], ...]]] = {}


def dominant_table(st: State, purpose: str, memo: dict[Any, Any]) -> dict[str, str | None]:
    """`dominance.dominant_all(st, purpose)`, computed once per memo (one unchanged state) and shared by the purposes
    that count alike (their weights are equal: `dominated_hexes` is the `marking` figure, in the base game the
    default one)."""
    params = st.params
    hit = _WEIGHT_KEYS.get((id(params), purpose))
    if hit is None or hit[0] is not params:
        if len(_WEIGHT_KEYS) > 64:
            _WEIGHT_KEYS.clear()
        hit = _WEIGHT_KEYS[(id(params), purpose)] = (params, tuple(sorted(dominance.weights(st, purpose).items())))
    key = ("dominant", hit[1])
    table = memo.get(key)
    if table is None:
        table = memo[key] = dominance.dominant_all(st, purpose)
    return table


def _tokens(st: State, els: list[Element]) -> int:
    """R-SCARD-4 token values: a Kiwi its size, a Leader the objective Leader weight, a Nest its dominance value."""
    leader = int(dominance.weights(st, "objective").get("leader", 3))
    values = st.params.get("nest_dominance", {})
    total = 0
    for kind, _, thing in els:
        if kind == "kiwi":
            total += thing.size
        elif kind == "leader":
            total += leader
        elif kind == "nest":
            total += int(values.get(thing[1], 0))
    return total


def _players(els: list[Element]) -> list[str]:
    return [e[2] for e in els if e[0] == "player"]


def quantity(st: State, e: ast.Expr | int, sc: Scope) -> int:
    """The value of a bound quantity (never below 0)."""
    if isinstance(e, ast.Num):
        return e.value
    if isinstance(e, int):
        return e
    if isinstance(e, ast.BinOp):
        a, b = quantity(st, e.left, sc), quantity(st, e.right, sc)
        return a + b if e.op == "+" else max(0, a - b)
    if isinstance(e, ast.QCall):
        name = e.name.text
        if name == "min":
            return min(quantity(st, e.args[0], sc), quantity(st, e.args[1], sc))
        if name == "max":
            return max(quantity(st, e.args[0], sc), quantity(st, e.args[1], sc))
        if name in ("largest", "smallest"):   # `largest(hexes, tokens(my pieces in it))`: over the elements
            pick = max if name == "largest" else min
            sel = e.args[0]
            assert isinstance(sel, ast.Selector), name   # the checker types largest/smallest arguments (dsl/types.py)
            els = select(st, sel, sc)
            table = _hex_table(st, e.args[1], sc, els)
            if table is not None:   # the quantity of each hex read off one pass over the island
                return pick((table.get(el[1], 0) for el in els), default=0)
            return pick((quantity(st, e.args[1], sc.at(el)) for el in els), default=0)
        if name in ("count", "tokens") and sc.memo is not None and sc.it is not None and sc.it[0] == "hex":
            per_hex = _per_hex(st, e, sc)
            if per_hex is not None:
                return per_hex.get(sc.it[1], 0)
        sel = e.args[0]
        assert isinstance(sel, ast.Selector), name   # the checker types count/tokens/... arguments (dsl/types.py)
        els = select(st, sel, sc)
        if name == "count":
            return len(els)
        if name == "tokens":
            return _tokens(st, els)
        flocks = [st.flocks[f] for f in _players(els)]
        if name == "fruit":
            return sum(sum(fl.fruit.values()) for fl in flocks)
        if name == "domain":
            return sum(len(fl.domain) for fl in flocks)
        if name == "vp":
            return sum(fl.season_vp for fl in flocks)
    raise ValueError(f"not a quantity: {type(e).__name__}")


_CMP: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
    "=": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _hex_table(st: State, q: ast.Expr, sc: Scope, els: list[Element]) -> dict[str, int] | None:
    """{hex: value of q with `it` that hex} when every element is a hex and q is a count/tokens `in it` (else None)."""
    if (sc.memo is None or not isinstance(q, ast.QCall) or q.name.text not in ("count", "tokens")
            or not els or any(el[0] != "hex" for el in els)):
        return None
    return _per_hex(st, q, sc.at(els[0]))


def _per_hex(st: State, e: ast.QCall, sc: Scope) -> dict[str, int] | None:
    """`count(<pieces> in it)` / `tokens(...)` for every hex at once, when `it` (a hex) appears only as that `in it`
    filter: the pieces are selected once over the island and grouped by hex (an objective's `largest(hexes, ...)`
    or `hexes where count(... in it) = 1` would otherwise select them once per hex). None when it does not apply.
    When the pieces are `my ...` and nothing else in them depends on "me", they are grouped by owner and hex once
    for every flock (the memo is shared by the flocks of one objective, queries.winners)."""
    memo = sc.memo
    spec = _per_hex_spec(e)
    if spec is None:
        return None
    rest, grouped = spec
    if memo is None:
        return _hex_values(st, e, rest, Scope(sc.me, None, sc.here, sc.landing, sc.starting, sc.passed, sc.purpose))
    if grouped:
        key: tuple[Any, ...] = ("per-hex-owner", id(e))
        by_owner = memo.get(key)
        if by_owner is None:
            by_owner = memo[key] = _hex_values_by_owner(st, e, rest, sc)
        return by_owner.get(sc.me, {})
    key = ("per-hex", id(e)) if sharing_of(rest) == _SHARED else ("per-hex", id(e), sc.me)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _hex_values(st, e, rest, Scope(sc.me, None, sc.here, sc.landing, sc.starting, sc.passed,
                                                           sc.purpose, memo))
    return found


# id(count/tokens call) -> (call, None or (its selector without the `in it` filter, grouped by owner?))
_PER_HEX: dict[int, tuple[Any, tuple[ast.Selector, bool] | None]] = {}


def _per_hex_spec(e: ast.QCall) -> tuple[ast.Selector, bool] | None:
    """How `_per_hex` evaluates a count/tokens call (None: not per hex): the selector without its one `in it`
    filter, and whether it is `my ...` with nothing else depending on "me" (then the owner is left open and the
    values are grouped by owner). Kept per call node, so the derived selector (and its id) lives as long."""
    hit = _PER_HEX.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    sel = e.args[0]
    spec = None
    if isinstance(sel, ast.Selector) and sel.kind != "hex" and sel.ref is None and sel.owner != "subject":
        ins = [f for f in sel.filters if f.op == "in" and f.arg is not None and f.arg.ref == "it"
               and f.arg.kind == "hex" and not f.arg.filters]
        rest = tuple(f for f in sel.filters if not ins or f is not ins[0])
        if len(ins) == 1 and not any(f.op == "where" or (f.arg is not None and mentions_it(f.arg)) for f in rest):
            derived = replace(sel, filters=rest)
            grouped = sel.owner == "me" and sharing_of(derived) == _BY_OWNER
            spec = (replace(derived, owner=None) if grouped else derived, grouped)
    if len(_PER_HEX) > 4096:
        _PER_HEX.clear()
    _PER_HEX[id(e)] = (e, spec)
    return spec


def _hex_values(st: State, e: ast.QCall, sel: ast.Selector, top: Scope) -> dict[str, int]:
    """{hex: count or tokens of the elements `sel` names there}."""
    groups: dict[str, list[Element]] = {}
    for el in select(st, sel, top):
        if el[1] is not None:
            groups.setdefault(el[1], []).append(el)
    if e.name.text == "count":
        return {h: len(els) for h, els in groups.items()}
    return {h: _tokens(st, els) for h, els in groups.items()}


def _hex_values_by_owner(st: State, e: ast.QCall, sel: ast.Selector, sc: Scope) -> dict[str | None, dict[str, int]]:
    """{owner: {hex: count or tokens of that owner's elements `sel` names there}} (`sel` leaves the owner open)."""
    top = Scope(sc.me, None, sc.here, sc.landing, sc.starting, sc.passed, sc.purpose, sc.memo)
    groups: dict[str | None, dict[str, list[Element]]] = {}
    for el in select(st, sel, top):
        if el[1] is not None:
            groups.setdefault(owner_of(el), {}).setdefault(el[1], []).append(el)
    if e.name.text == "count":
        return {o: {h: len(els) for h, els in by_hex.items()} for o, by_hex in groups.items()}
    return {o: {h: _tokens(st, els) for h, els in by_hex.items()} for o, by_hex in groups.items()}


def mentions_it(sel: ast.Selector) -> bool:
    """Whether a selector depends on `it` or `their` (the element of a `where` or `for each`)."""
    return sel.ref == "it" or sel.owner == "subject" or any(
        f.op == "where" or (f.arg is not None and mentions_it(f.arg)) for f in sel.filters)


def holds(st: State, c: ast.Expr, sc: Scope) -> bool:
    """Whether a bound condition holds."""
    if isinstance(c, ast.Not):
        return not holds(st, c.cond, sc)
    if isinstance(c, ast.BinOp):
        if c.op == "and":
            return holds(st, c.left, sc) and holds(st, c.right, sc)
        if c.op == "or":
            return holds(st, c.left, sc) or holds(st, c.right, sc)
        a, b = quantity(st, c.left, sc), quantity(st, c.right, sc)
        return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b, "=": a == b, "!=": a != b}[c.op]
    raise ValueError(f"not a condition: {type(c).__name__}")
