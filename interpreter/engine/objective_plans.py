"""Season card objectives compiled once to plans that give every flock's value in one pass over the island.

`queries.winners` asks an objective for every flock, on every state a greedy bot tries (R-SCARD-4/5). The
interpreter (selectors.py) selects the elements of `my kiwi of size 1` once per flock; a plan instead adds up
each hex's pieces by owner once (a Kiwi its size or 1, a Leader the objective Leader weight or, as a Kiwi, a
size-3 Kiwi, a Nest its dominance value, R-SCARD-4) and reads every flock's value off those sums. Plans cover the
shapes objectives are written in: `count`/`tokens` of pieces narrowed by size and by hexes that do not depend on
the flock, `largest`/`smallest(<hexes>, count/tokens(... in it))`, `count(hexes where count/tokens(... in it)
<cmp> N)`, `count(hexes dominated by me / an opponent)`, and numbers, `+`, `-`, `min`, `max` of those. Anything
else has no plan (None) and is interpreted per flock, as before. tests/test_objective_plans.py checks every
plan against the interpreter on the states of random games.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Sequence

from kcd.dsl import ast
from kcd.core import dominance, native
from kcd.engine.selectors import Scope, dominant_table, mentions_it, select, sharing_of
from kcd.core.state import State
from kcd.core.memo import per_object

__all__ = ["plan"]

Vec = dict[str, int]
# what one evaluation shares between its plans (selectors' `Scope.memo`: keys and values of several shapes)
Memo = dict[Any, Any]
# a plan: (state, the flocks asked about, memo shared by this one evaluation) -> {flock: value}
Plan = Callable[[State, Sequence[str], Memo], Vec]
# per-hex sums: (state, memo) -> {hex: {owner: value}}
HexSums = Callable[..., dict[str, dict[str, int]]]   # (state, memo, only these hexes or None)

_PIECE_KINDS = ("kiwi", "piece", "leader", "nest", "marker")
_CMP: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
    "=": lambda a, b: a == b, "!=": lambda a, b: a != b}


@per_object(1024)
def plan(q: Any) -> Plan | None:
    """The plan of an objective's quantity (compiled once per node), or None when it has none."""
    found = _compile(q)
    return found


def _compile(q: Any) -> Plan | None:
    if isinstance(q, ast.Num):
        value = q.value
        return lambda st, flocks, memo: {f: value for f in flocks}
    if isinstance(q, ast.BinOp) and q.op in ("+", "-"):
        left, right = _compile(q.left), _compile(q.right)
        if left is None or right is None:
            return None
        return _combine(left, right, (lambda x, y: x + y) if q.op == "+" else (lambda x, y: max(0, x - y)))
    if not isinstance(q, ast.QCall):
        return None
    name = q.name.text
    if name in ("min", "max") and len(q.args) == 2:
        left, right = _compile(q.args[0]), _compile(q.args[1])
        if left is None or right is None:
            return None
        return _combine(left, right, min if name == "min" else max)
    if name in ("largest", "smallest") and len(q.args) == 2:
        return _extreme(q.args[0], q.args[1], max if name == "largest" else min)
    if name not in ("count", "tokens") or len(q.args) != 1 or not isinstance(q.args[0], ast.Selector):
        return None
    sel = q.args[0]
    if sel.kind == "hex":
        return _hex_count(sel) if name == "count" else None
    pieces = _pieces(sel, name)
    if pieces is None:
        return _in_flocks_hexes(sel, name)
    sums, owner = pieces
    return lambda st, flocks, memo: _by_owner(sums(st, memo).get("", {}), owner, flocks, st.seats)


def _combine(left: Plan, right: Plan, op: Callable[[int, int], int]) -> Plan:
    """The plan of `op(left, right)`, flock by flock (`+`, `-` never below 0, `min`, `max`)."""
    def run(st: State, flocks: Sequence[str], memo: Memo) -> Vec:
        a, b = left(st, flocks, memo), right(st, flocks, memo)
        return {f: op(a[f], b[f]) for f in a}
    return run


def _by_owner(sums: dict[str, int], owner: str, flocks: Sequence[str], seats: Sequence[str]) -> Vec:
    """Each flock's value from sums by owner (`_owner`)."""
    return {f: _owned(sums, owner, f, seats) for f in flocks}


def _owned(sums: dict[str, int] | None, owner: str, flock: str, seats: Sequence[str]) -> int:
    """The flock's part of sums by owner: its own (`my`), a seat's own (`of me`), the other seats' (`of an
    opponent`), the seats' (`of anyone`) or everyone's (no owner named), as selectors.py filters them."""
    if not sums:
        return 0
    if owner == "me":
        return sums.get(flock, 0)
    if owner == "me-seat":
        return sums.get(flock, 0) if flock in seats else 0
    if owner == "opponent":
        return sum(v for o, v in sums.items() if o != flock and o in seats)
    if owner == "seats":
        return sum(v for o, v in sums.items() if o in seats)
    return sum(sums.values())


def _owner(sel: ast.Selector) -> tuple[str, list[ast.Filter]] | None:
    """Whose pieces a selector names (`_owned`'s owner), and its other filters; None when more than one owner
    word narrows it (`my kiwi of an opponent`) or the element does (`their`)."""
    owner = "me" if sel.owner == "me" else "all" if sel.owner in (None, "any") else None
    rest = []
    for f in sel.filters:
        if f.op != "owner":
            rest.append(f)
            continue
        who = f.arg
        if (owner != "all" or who is None or who.kind != "player" or who.ref is not None or who.filters
                or who.owner not in ("me", "opponent", "any")):
            return None
        owner = {"me": "me-seat", "opponent": "opponent", "any": "seats"}[who.owner]
    return (owner, rest) if owner is not None else None


def _is_in_it(f: ast.Filter) -> bool:
    arg = f.arg
    return f.op == "in" and arg is not None and arg.ref == "it" and arg.kind == "hex" and not arg.filters


def _pieces(sel: ast.Selector, name: str, by_hex: ast.Filter | None = None) -> tuple[HexSums, str] | None:
    """Sums of a piece selector by hex and owner (count: 1 a piece; tokens: its R-SCARD-4 value), and whose pieces
    it names. With `by_hex` (one of its `in` filters) that filter is left out and the sums are per hex, else they are
    all under "". None when the selector has another shape."""
    if sel.kind not in _PIECE_KINDS or sel.ref is not None:
        return None
    found = _owner(sel)
    if found is None:
        return None
    owner, filters = found
    sizes: list[int] = []
    inside: list[ast.Selector] = []
    outside: list[ast.Selector] = []
    terrain_sets: list[set[str]] = []   # an empty set: every terrain
    for f in filters:
        arg = f.arg
        if f is by_hex:
            continue
        if f.op == "size" and f.n is not None:
            sizes.append(f.n)
        elif f.op in ("in", "with") and arg is not None and _plain_hexes(arg) is not None:
            terrain_sets.append(set(_plain_hexes(arg) or ()))   # `in flower hexes`: a test of the hex's terrain
        elif f.op in ("in", "with", "without") and arg is not None and sharing_of(arg) == "shared":
            (outside if f.op == "without" else inside).append(arg)
        else:
            return None
    per_hex = by_hex is not None
    kind = sel.kind
    counting = name == "count"

    if len(set(sizes)) > 1:
        return None   # two different sizes: no Kiwi is both (the interpreter says 0)
    size = sizes[0] if sizes else None
    named = [t for t in terrain_sets if t]
    terrains: set[str] | None = set.intersection(*named) if named else None

    def sums(st: State, memo: Memo, only: Iterable[str] | None = None) -> dict[str, dict[str, int]]:
        allowed: set[str] | None = set(only) if only is not None else None
        banned: set[str] = set()
        if inside or outside:
            scope = Scope("", purpose="objective", memo=memo)   # these hex selectors do not depend on who "me" is
            for arg in inside:
                where = {e[1] for e in select(st, arg, scope) if e[1] is not None}
                allowed = where if allowed is None else allowed & where
            banned = {e[1] for arg in outside for e in select(st, arg, scope) if e[1] is not None}
        return _sum_pieces(st, kind, counting, size, allowed, banned, terrains, per_hex)

    return sums, owner


# id(params) -> (params, (Nest dominance values, the largest Kiwi size, the objective Leader weight)): a game's
# states share one params dict, so these are read once per game
_COUNTING: dict[int, tuple[dict[str, Any], tuple[dict[str, int], int, int]]] = {}


def _counting(st: State) -> tuple[dict[str, int], int, int]:
    """R-SCARD-4's figures: each Nest's dominance value, the size a Leader counts as, the Leader's tokens."""
    params = st.params
    hit = _COUNTING.get(id(params))
    if hit is not None and hit[0] is params:
        return hit[1]
    found = (params.get("nest_dominance", {}), int(params.get("max_size", 3)),
             int(dominance.weights(st, "objective").get("leader", 3)))
    if len(_COUNTING) > 64:
        _COUNTING.clear()
    _COUNTING[id(params)] = (params, found)
    return found


def _sum_pieces(st: State, kind: str, counting: bool, size: int | None, allowed: set[str] | None, banned: set[str],
                terrains: set[str] | None, per_hex: bool) -> dict[str, dict[str, int]]:
    """{hex or "": {owner: count or tokens}} of the pieces of a kind in the allowed hexes (selectors.py's elements:
    in an objective `kiwi` also names each Leader as a size-3 Kiwi and each Nest as its dominance value of size-1
    Kiwi, `piece` a Kiwi, Leader or Nest; a size filter keeps Kiwi of that size). Per hex, a hex without any of
    them is left out (it counts 0)."""
    values, top, leader_w = _counting(st)
    leaders: dict[str, list[str]] = {}
    if kind in ("kiwi", "piece", "leader"):
        for f in st.seats:
            where = st.flocks[f].leader_hex
            if where is not None:
                leaders.setdefault(where, []).append(f)
    kiwi = kind in ("kiwi", "piece")
    # in an objective `kiwi` names Leaders (size 3) and Nests (size 1) too; Leaders, Nests and markers as such are
    # no Kiwi, so a size filter drops them
    leader_value = ((1 if counting else top) if size is None or size == top else 0) if kind == "kiwi" else (
        (1 if counting else leader_w) if size is None and kind in ("piece", "leader") else 0)
    nests = (kind == "kiwi" and (size is None or size == 1)) or (size is None and kind in ("piece", "nest"))
    markers = kind == "marker" and size is None
    hexes = st.hexes
    ids: Iterable[str] = hexes.keys() if allowed is None else [i for i in allowed if i in hexes]
    kernels = native.kernels_for(st.params)
    if kernels is not None:   # the native engine: the same sums in the compiled kernel (kcd.core.native)
        summed: dict[str, dict[str, int]] = kernels.sum_pieces(
            hexes, ids if allowed is not None else None, leaders, banned, terrains, per_hex, kiwi, size, counting,
            leader_value, nests, kind == "kiwi", markers, values)
        return summed
    out: dict[str, dict[str, int]] = {}
    total: dict[str, int] = {}
    for hex_id in ids:
        h = hexes[hex_id]
        stack, nest, here = h.kiwi, h.nest, leaders.get(hex_id)
        if ((not stack and nest is None and here is None and (not markers or h.domain is None)) or hex_id in banned
                or (terrains is not None and h.terrain not in terrains)):
            continue
        acc = {} if per_hex else total
        if kiwi:
            for k in stack:
                if size is None or k.size == size:
                    acc[k.flock] = acc.get(k.flock, 0) + (1 if counting else k.size)
        if here is not None and leader_value:
            for f in here:
                acc[f] = acc.get(f, 0) + leader_value
        if nest is not None and nests:
            if kind == "kiwi":   # as many size-1 Kiwi as its dominance value
                n = int(values.get(nest[1], 0))
            else:
                n = 1 if counting else int(values.get(nest[1], 0))
            if n or kind != "kiwi":
                acc[nest[0]] = acc.get(nest[0], 0) + n
        if markers and h.domain is not None:
            acc[h.domain[0]] = acc.get(h.domain[0], 0) + (1 if counting else 0)
        if per_hex and acc:
            out[hex_id] = acc
    return out if per_hex else {"": total}


def _per_hex_quantity(q: Any) -> tuple[HexSums, str] | None:
    """A `count`/`tokens(<pieces> ... in it)` quantity as per-hex sums by owner."""
    if (not isinstance(q, ast.QCall) or q.name.text not in ("count", "tokens") or len(q.args) != 1
            or not isinstance(q.args[0], ast.Selector)):
        return None
    ins = [f for f in q.args[0].filters if _is_in_it(f)]
    return _pieces(q.args[0], q.name.text, ins[0]) if len(ins) == 1 else None


def _in_flocks_hexes(sel: ast.Selector, name: str) -> Plan | None:
    """`count`/`tokens(<pieces> in <hexes that depend on the flock>)`, e.g. `tokens(pieces of anyone in my leader)`:
    the pieces summed per hex once, each flock's hexes selected by the interpreter (shared memo)."""
    ins = [f for f in sel.filters if f.op == "in" and f.arg is not None and sharing_of(f.arg) != "shared"
           and not mentions_it(f.arg)]
    if len(ins) != 1:
        return None
    arg = ins[0].arg
    assert arg is not None
    pieces = _pieces(sel, name, ins[0])
    if pieces is None:
        return None
    sums, owner = pieces

    def run(st: State, flocks: Sequence[str], memo: Memo) -> Vec:
        where = {f: dict.fromkeys(e[1] for e in select(st, arg, Scope(f, purpose="objective", memo=memo))
                                  if e[1] is not None) for f in flocks}
        table = sums(st, memo, {h for hexes in where.values() for h in hexes})
        return {f: sum(_owned(table.get(h), owner, f, st.seats) for h in hexes) for f, hexes in where.items()}

    return run


def _extreme(hexes: Any, q: Any, pick: Callable[..., int]) -> Plan | None:
    """`largest/smallest(<hexes>, count/tokens(... in it))`: over the hexes named, whatever the flock."""
    inner = _per_hex_quantity(q)
    if not isinstance(hexes, ast.Selector) or hexes.kind != "hex" or sharing_of(hexes) != "shared" or inner is None:
        return None
    sums, owner = inner

    def run(st: State, flocks: Sequence[str], memo: Memo) -> Vec:
        present, absent = _split(st, memo, hexes, sums)
        seats = st.seats
        # a hex without any of the pieces counts 0
        return {f: pick([_owned(t, owner, f, seats) for t in present] + ([0] if absent else []), default=0)
                for f in flocks}

    return run


def _plain_hexes(sel: ast.Selector) -> tuple[str, ...] | None:
    """The terrains of a selector that names hexes by terrain alone (`hexes`: (), `flower hexes`), else None."""
    if sel.kind == "hex" and sel.ref is None and sel.owner is None and not sel.filters:
        return sel.terrains
    return None


def _split(st: State, memo: Memo, hexes: ast.Selector, sums: HexSums) -> tuple[list[dict[str, int]], int]:
    """The per-hex sums of the hexes a selector names that hold any of the pieces, and how many hold none."""
    table = sums(st, memo)
    terrains = _plain_hexes(hexes)
    if terrains is None:
        ids = [e[1] for e in select(st, hexes, Scope("", purpose="objective", memo=memo))]
        present = [table[h] for h in ids if h in table]
        return present, len(ids) - len(present)
    if not terrains:   # every hex (the sums hold hexes of the island only)
        return list(table.values()), len(st.hexes) - len(table)
    named = [h for h in st.hexes.values() if h.terrain in terrains]
    present = [table[h.id] for h in named if h.id in table]
    return present, len(named) - len(present)


def _hex_count(sel: ast.Selector) -> Plan | None:
    """`count(hexes ...)` whose one flock-dependent filter is `where count/tokens(... in it) <cmp> N` or `dominated
    by me / an opponent`; its other filters the same for every flock."""
    if sel.ref is not None or sel.owner is not None:
        return None
    special = [f for f in sel.filters if f.op in ("where", "dominated")]
    rest = tuple(f for f in sel.filters if f not in special)
    if len(special) != 1 or any(f.arg is not None and sharing_of(f.arg) != "shared" for f in rest):
        return None
    base = _derived(sel, rest)
    if sharing_of(base) != "shared":
        return None
    f = special[0]
    if f.op == "dominated":
        who = f.arg
        if who is None or who.kind != "player" or who.ref is not None or who.filters or who.owner not in ("me",
                                                                                                         "opponent"):
            return None
        mine = who.owner == "me"

        def dominated(st: State, flocks: Sequence[str], memo: Memo) -> Vec:
            scope = Scope("", purpose="objective", memo=memo)
            table = dominant_table(st, "dominated_hexes", memo)
            owners = [table.get(e[1]) for e in select(st, base, scope) if e[1] is not None]
            seats = set(st.seats)
            if mine:
                return {fl: owners.count(fl) if fl in seats else 0 for fl in flocks}
            return {fl: sum(1 for o in owners if o is not None and o != fl and o in seats) for fl in flocks}

        return dominated
    c = f.cond
    if not (isinstance(c, ast.BinOp) and c.op in _CMP and isinstance(c.right, ast.Num)):
        return None
    inner = _per_hex_quantity(c.left)
    if inner is None:
        return None
    sums, owner = inner
    cmp, bound = _CMP[c.op], c.right.value

    def where(st: State, flocks: Sequence[str], memo: Memo) -> Vec:
        present, absent = _split(st, memo, base, sums)
        seats = st.seats
        zeros = absent if cmp(0, bound) else 0   # a hex without any of the pieces counts 0
        return {fl: zeros + sum(1 for t in present if cmp(_owned(t, owner, fl, seats), bound)) for fl in flocks}

    return where


# id(selector) -> (selector, the same selector with fewer filters): kept, so the derived node's id stays its own
_DERIVED: dict[int, tuple[Any, ast.Selector]] = {}


def _derived(sel: ast.Selector, filters: tuple[ast.Filter, ...]) -> ast.Selector:
    hit = _DERIVED.get(id(sel))
    if hit is not None and hit[0] is sel:
        return hit[1]
    out = replace(sel, filters=filters)
    if len(_DERIVED) > 1024:
        _DERIVED.clear()
    _DERIVED[id(sel)] = (sel, out)
    return out
