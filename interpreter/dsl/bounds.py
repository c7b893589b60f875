"""Upper bounds on the work of every effect, computed before play (the checker's last stage).

An effect's work is the number of verb steps it can take, everything it can set off included: `repeat`
multiplies, `choose` takes its costliest option, and each verb adds what the registry says it reaches
(`Primitive.work`, `reach`, `bot_reach`, and the triggers whose `emitted_by` names it): placing or growing a
Kiwi uncovers the next Kiwi track slot, a Build runs the built Nest's placement benefit, a Feed grows a Kiwi of
any flock (that flock's next slot), a Move may be the Leader's ability, Kiwibot's verbs run bonus segments, and
gains, builds, feeds and moves fire the flock's powers.

The rules stop most chains from feeding themselves, and the bound follows them: a track slot is uncovered once
per game, and only later slots after it (R-TRACK-1); a Nest is built once per flock (R-BUILD-2); a trigger
never fires again inside the chain that fired it (the engine's suppression); a Leader's ability is used once a
season (R-LEAD-2). A chain through anything else that comes back to where it started (Kiwibot's bonus segments)
would never end: it is reported as a cycle. Otherwise the chain graph is finite and the bound is the costliest
path through it; the chain's nesting depth is bounded the same way. Content over MAX_WORK or MAX_CHAIN_DEPTH, or
with a cycle, is refused at validation (`effect-bound`), so the engine's own limits (interpreter/engine/
context.py) are never reached by valid content.

The content layer describes the content as an `EffectGraph` (interpreter/content/bounds.py); this module knows
no content file, only effects and the rule facts above.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Literal, Union

from kcd.dsl import registry
from kcd.dsl.ast import Call, Choose, ChoosePlayer, During, May, Node, Objective, Phrase, Repeat, Seq, walk
from kcd.dsl.compose_check import quantity_max
from kcd.core.memo import per_object

__all__ = ["MAX_WORK", "MAX_CHAIN_DEPTH", "Effect", "FlockSide", "Entry", "EffectGraph", "BoundIssue",
           "effect_bounds", "chain_bounds", "fingerprint", "local_work"]

# Verb steps one effect may cause, everything it triggers included: far above any effect of the base game (the
# busiest, a Move card with extra Moves, a Leader ability and powers, is under 100), low enough that an effect
# never floods a game with decisions or memory.
MAX_WORK = 5000
# Nested effect runs one chain may reach (track slot -> place -> next slot -> ...): the engine's MAX_DEPTH. Two
# flocks whose track benefits feed each other's Kiwi nest two levels per slot, 48 for all their slots; the
# engine's generators stay far below Python's recursion limit at this depth (tests/test_bounds.py plays it).
MAX_CHAIN_DEPTH = 64
# Node evaluations the bound may take before it gives up and calls the content too intricate to bound.
_SEARCH_BUDGET = 500_000
_CAP = MAX_WORK * 1000   # work figures saturate here (they only need comparing with MAX_WORK)


@dataclass(frozen=True)
class Effect:
    """One DSL effect of the content and where it is written (`ref` is the content layer's locator)."""

    node: Node
    label: str          # for people: "nest `cave-2` on_place", "red side B track slot 4"
    ref: Any = None


@dataclass
class FlockSide:
    """What one side of a flock board adds to the effects its flock runs."""

    label: str                                           # "red side B"
    flock: str = ""                                      # the flock id ("red")
    track: dict[int, Effect] = field(default_factory=dict)      # slot number -> benefit
    powers: dict[str, list[Effect]] = field(default_factory=dict)  # trigger primitive id -> effects
    modifiers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Entry:
    """An effect the game runs by itself (a card, a Season card, a phase): a root of chains.

    `runner`: who runs it: "player" (a flock that decides), "bot" (Kiwibot) or "any"; `season_change`: run in
    the Season Change phase, where uncovered track slots give nothing (R-TRACK-1); `depth`: the engine's nesting
    depth it starts at; `nest`: a Nest benefit, gained twice by a flock with `nest benefits twice`.
    """

    effect: Effect
    runner: str = "any"
    season_change: bool = False
    depth: int = 0
    nest: bool = False          # a Nest benefit: gained twice under `nest benefits twice` (R-ASYM-4)


@dataclass
class EffectGraph:
    """The content's effects as the bound sees them."""

    sides: list[FlockSide]
    nests: list[Effect]                     # placement benefits of the flocks' Nests
    abilities: list[Effect]                 # Leader card abilities (a flock may be dealt any)
    bonus: dict[str, list[Effect]]          # Kiwibot's bonus segments by action (any Solo card may be on top)
    entries: list[Entry]
    track_from: int = 3
    kiwi_tokens: int = 20
    bot_runs: bool = False                  # a mode of the content lets the engine play a flock (Kiwibot): it
                                            # may run effects, each flock's as its own bot's


@dataclass(frozen=True)
class BoundIssue:
    """Content over a bound: `kind` is "work", "depth", "cycle" or "intricate"; `chain` the effects in order."""

    kind: str
    message: str
    hint: str
    chain: tuple[Effect, ...]
    value: int = 0


def local_work(node: Node | None, kiwi_tokens: int = 20) -> int:
    """The work of one effect by itself, nothing it triggers counted (repeat products, costliest choice)."""
    return _walk_work(node, lambda call, n: _base(call, n, kiwi_tokens))


# --- graph nodes ------------------------------------------------------------------------------------
# A node is a tuple: ("E", entry index, vf), ("T", slot, vf), ("N", nest index, vf), ("P", trigger, vf),
# ("A", vf), ("B", action, vf); vf (virtual flock) = (side index, is_bot).
_VF = tuple[int, bool]
_GNode = Union[tuple[Literal["E", "T", "N"], int, _VF], tuple[Literal["P", "B"], str, _VF], tuple[Literal["A"], _VF]]
_Chain = tuple[_GNode, ...]
_Value = tuple[int, int, _Chain, _Chain]          # (work, depth, deepest chain, heaviest chain)
_Plain = tuple[int, int, _Chain]                  # (work, depth, chain) of the best targets that set nothing off
_Target = tuple[str, bool, _Plain, list[tuple[_GNode, int]]]
_OnceKey = tuple[str | int | None, ...]
# what a node's loop gives for a target: its value inside the loop, None (outside the loop), "blocked"
_Inner = Callable[[_GNode], Union[_Value, Literal["blocked"], None]]
_CallWork = Callable[[Union[Call, Phrase], int], int]

_FLOCK_OF: dict[int, str] = {}   # side index -> flock id, set by each search (a flock has one track whatever its side)


def _once_key(node: _GNode) -> _OnceKey | None:
    """What the rules let a chain reach only once (None: no such rule). A flock plays one side, human or
    Kiwibot, so its track slots, Nests and Leader are the same whichever of its versions a chain meets."""
    # the tag compared in place (not a local) so the type checker narrows the node
    if node[0] == "T":
        return ("T", node[1], _FLOCK_OF.get(node[2][0]))   # a slot is uncovered once per game (R-TRACK-1)
    if node[0] == "N":
        return ("N", node[1], _FLOCK_OF.get(node[2][0]))   # a Nest is built once per flock (R-BUILD-2)
    if node[0] == "P":
        return ("P", node[1])            # a trigger never re-fires in its own chain
    if node[0] == "A":
        return ("A", _FLOCK_OF.get(node[1][0]))            # the ability once a season (R-LEAD-2)
    return None


def _n_of(call: Call | Phrase) -> int:
    # a phrase's n may be a quantity (`bot places min(...) kiwi`): its largest possible value, not 1
    value = call.arg("n", 1)
    if isinstance(value, int):
        return value if value > 0 else 1
    return max(1, quantity_max(value))


def _base(call: Call | Phrase, n: int, kiwi_tokens: int) -> int:
    prim = registry.BY_ID.get(call.primitive or "")
    if prim is not None and prim.work_of is not None:   # the entry's own work hook
        return prim.work_of(call, n, kiwi_tokens)
    work = prim.work if prim is not None else 1
    if work == "n":
        return n
    if work == "kiwi":
        return kiwi_tokens + 2
    return int(work)


def _nest_factor(modifiers: frozenset[str]) -> int:
    """How many times a flock with these modifiers gains each Nest benefit (R-ASYM-4: `give benefits twice`)."""
    return max((registry.BY_ID[m].nest_benefits for m in modifiers if m in registry.BY_ID), default=1)


def _walk_work(node: Node | None, call_work: _CallWork) -> int:
    """Sum over statements, max over choices, products over repeats."""
    if node is None:
        return 0
    if isinstance(node, Seq):
        return min(_CAP, sum(_walk_work(s, call_work) for s in node.stmts))
    if isinstance(node, Choose):
        return max((_walk_work(o, call_work) for o in node.options), default=0)
    if isinstance(node, (May, ChoosePlayer, During)):   # a body run once (a `this action:` may have none)
        return _walk_work(node.body, call_work)
    if isinstance(node, Repeat):
        return min(_CAP, max(node.count, 0) * _walk_work(node.body, call_work))
    if isinstance(node, (Call, Phrase)):
        return min(_CAP, call_work(node, _n_of(node)))
    if isinstance(node, Objective):
        return 1
    return 1


def _calls(node: Node | None) -> Iterator[Call | Phrase]:
    # phrases too (a verb given selectors or quantities: `bot feeds a kiwi of size 2 of an opponent`), which
    # reach and fire as their verb does
    if node is not None:
        yield from (sub for sub in walk(node) if isinstance(sub, (Call, Phrase)))


class _Search:
    """One bound computation over an EffectGraph."""

    def __init__(self, graph: EffectGraph) -> None:
        self.g = graph
        _FLOCK_OF.clear()
        _FLOCK_OF.update({i: side.flock or side.label for i, side in enumerate(graph.sides)})
        self.vfs = [(i, False) for i in range(len(graph.sides))]
        if graph.bot_runs:
            self.vfs += [(i, True) for i in range(len(graph.sides))]
        self.fires: dict[str, list[str]] = {}   # verb id -> trigger ids it fires
        for prim in registry.PRIMITIVES:
            if prim.kind == "trigger":
                for verb in prim.emitted_by:
                    self.fires.setdefault(verb, []).append(prim.id)
        self.memo: dict[tuple[_GNode, bool], _Value] = {}
        self.loop_memo: dict[tuple[int, bool], dict[_GNode, _Value]] = {}
        self.visits = 0
        self.cycle: _Chain | None = None
        self.scc: dict[_GNode, int] = {}
        self._targets: dict[tuple[_GNode, int], list[_Target]] = {}
        self._plain: dict[int, bool] = {}
        self._plain_work: dict[_GNode, int | None] = {}
        self._effects: dict[_GNode, list[Effect]] = {}
        self._slot_memo: dict[tuple[_VF, int], list[_GNode]] = {}
        self._shared_targets: dict[tuple[object, ...], list[_Target]] = {}
        self.loops: set[int] = set()            # components a chain can go round (more than one node)

    # --- structure -------------------------------------------------------------------------------
    def effects_of(self, node: _GNode) -> list[Effect]:
        """The effects a node runs (several: the largest counts, e.g. any leader card); computed once."""
        found = self._effects.get(node)
        if found is None:
            found = self._effects[node] = self._compute_effects(node)
        return found

    def _compute_effects(self, node: _GNode) -> list[Effect]:
        g = self.g
        if node[0] == "E":
            return [g.entries[node[1]].effect]
        if node[0] == "T":
            effect = g.sides[node[2][0]].track.get(node[1])
            return [effect] if effect is not None else []
        if node[0] == "N":
            return [g.nests[node[1]]]
        if node[0] == "P":
            return list(g.sides[node[2][0]].powers.get(node[1], []))
        if node[0] == "A":
            return list(g.abilities)
        if node[0] == "B":
            return list(g.bonus.get(node[1], []))
        return []

    def vf_of(self, node: _GNode) -> _VF:
        """The virtual flock that runs the node."""
        return node[-1]

    def targets(self, node: _GNode, call: Call | Phrase) -> list[_Target]:
        """For one call run by the node's flock: [(reach, per_n, plain, [(target node, extra depth)])], computed
        once. `plain` = (work, depth, chain) of the best targets that set nothing off (no path can block them:
        they are never on a chain before their own call), the list the other targets."""
        key = (node, id(call))
        found = self._targets.get(key)
        if found is None:
            # what a call reaches depends on the node only through its side and its own track slot: share the
            # result between nodes that agree on those (the same verb in many Nests, slots and cards)
            vf = self.vf_of(node)
            shared = (call.primitive, vf, node[1] + 1 if node[0] == "T" and node[2] == vf else None,
                      call.args if call.primitive and "{" in "".join(
                          getattr(registry.BY_ID.get(call.primitive), "reach", ()) or ()) else None)
            found = self._shared_targets.get(shared)
            if found is not None:
                self._targets[key] = found
                return found
            found = self._reduce_targets(node, call)
            self._shared_targets[shared] = found
            self._targets[key] = found
        return found

    def _reduce_targets(self, node: _GNode, call: Call | Phrase) -> list[_Target]:
        """targets() computed: per reach item, the best plain target and the others."""
        found: list[_Target] = []
        for item, per_n, targets in self._compute_targets(node, call):
            best: _Plain = (0, 0, ())
            others: list[tuple[_GNode, int]] = []
            for target, extra in targets:
                work = self.plain_work(target)
                if work is None:
                    others.append((target, extra))
                    continue
                if work < 0:
                    continue                    # runs nothing (an empty track slot)
                best = (max(best[0], work), max(best[1], 1 + extra),
                        best[2] if best[2] and work <= best[0] else (target,))
            found.append((item, per_n, best, others))
        return found

    def plain_work(self, node: _GNode) -> int | None:
        """The work of a node that sets nothing off (-1: it runs nothing); None for the others and for powers
        (a trigger's once-per-chain rule must be checked on the path)."""
        if node in self._plain_work:
            return self._plain_work[node]
        effects = self.effects_of(node)
        if not effects:
            found: int | None = -1
        elif node[0] == "P" or not all(self.plain(e) for e in effects):
            found = None
        else:
            found = max(local_work(e.node, self.g.kiwi_tokens) for e in effects)
        self._plain_work[node] = found
        return found

    def plain(self, effect: Effect) -> bool:
        """True when no call of the effect can set anything off (its value is its own work, whoever runs it)."""
        found = self._plain.get(id(effect.node))
        if found is None:
            found = True
            for call in _calls(effect.node):
                prim = registry.BY_ID.get(call.primitive or "")
                if prim is not None and (prim.reach or prim.bot_reach or prim.id in self.fires):
                    found = False
                    break
            self._plain[id(effect.node)] = found
        return found

    def _compute_targets(self, node: _GNode, call: Call | Phrase) -> list[tuple[str, bool, list[tuple[_GNode, int]]]]:
        vf = self.vf_of(node)
        side_index, is_bot = vf
        prim = registry.BY_ID.get(call.primitive or "")
        if prim is None or prim.kind != "verb":
            return []
        reach = prim.bot_reach if is_bot and prim.bot_reach is not None else prim.reach
        out: list[tuple[str, bool, list[tuple[_GNode, int]]]] = []
        for item in reach:
            per_n = item.endswith("*n")
            item = item[:-2] if per_n else item
            found: list[tuple[_GNode, int]] = []
            if item == "track":
                found = [(t, 0) for t in self._slots(vf, node)]
            elif item == "track-any":
                for other in self.vfs:
                    found += [(t, 0 if other == vf else 1) for t in self._slots(other, node)]
            elif item == "nest":
                found = [(("N", i, vf), 0) for i in range(len(self.g.nests))]
            elif item == "ability" and not is_bot:
                found = [(("A", vf), 0)] if self.g.abilities else []
            elif item.startswith("bonus:") and is_bot:
                action = item[len("bonus:"):]
                if action.startswith("{") and action.endswith("}"):
                    action = str(call.arg(action[1:-1], ""))
                found = [(("B", action, vf), 0)] if self.g.bonus.get(action) else []
            out.append((item, per_n, found))
        triggers = [t for t in self.fires.get(prim.id, []) if self.g.sides[side_index].powers.get(t)]
        if triggers:
            out.append(("trigger", False, [(("P", t, vf), 0) for t in triggers]))
        return out

    def _slots(self, vf: _VF, node: _GNode) -> list[_GNode]:
        """Track slots of `vf` that a token taken now can uncover: after the node's own slot (R-TRACK-1)."""
        low = self.g.track_from
        if node[0] == "T" and node[2] == vf:
            low = node[1] + 1
        key = (vf, low)
        found = self._slot_memo.get(key)
        if found is None:
            side = self.g.sides[vf[0]]
            found = self._slot_memo[key] = [("T", slot, vf) for slot in sorted(side.track) if slot >= low]
        return found

    # --- the graph and its strongly connected parts --------------------------------------------------
    def build(self, roots: list[_GNode]) -> None:
        """Every node reachable from the roots, and its strongly connected component (iterative Tarjan)."""
        edges: dict[_GNode, list[_GNode]] = {}
        stack = list(roots)
        while stack:
            node = stack.pop()
            if node in edges:
                continue
            outs: list[_GNode] = []
            for effect in self.effects_of(node):
                if self.plain(effect):
                    continue
                for call in _calls(effect.node):
                    for _, _, _, found in self.targets(node, call):
                        outs += [t for t, _ in found]
            edges[node] = list(dict.fromkeys(outs))
            stack += [t for t in edges[node] if t not in edges]
        index: dict[_GNode, int] = {}
        low: dict[_GNode, int] = {}
        on: set[_GNode] = set()
        order: list[_GNode] = []
        counter = 0
        comp = 0
        for root in edges:
            if root in index:
                continue
            work = [(root, iter(edges[root]))]
            index[root] = low[root] = counter
            counter += 1
            order.append(root)
            on.add(root)
            while work:
                node, it = work[-1]
                advanced = False
                for nxt in it:
                    if nxt not in index:
                        index[nxt] = low[nxt] = counter
                        counter += 1
                        order.append(nxt)
                        on.add(nxt)
                        work.append((nxt, iter(edges.get(nxt, []))))
                        advanced = True
                        break
                    if nxt in on:
                        low[node] = min(low[node], index[nxt])
                if advanced:
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = order.pop()
                        on.discard(member)
                        self.scc[member] = comp
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1 or node in edges.get(node, ()):
                        self.loops.add(comp)
                    comp += 1

    # --- the bound ---------------------------------------------------------------------------------
    def value(self, node: _GNode, season_change: bool) -> _Value:
        """(work, depth, deepest chain, heaviest chain) of running `node`, everything it sets off included."""
        key = (node, season_change)
        found = self.memo.get(key)
        if found is not None:
            return found
        effects = self.effects_of(node)
        if all(self.plain(e) for e in effects):
            works = [local_work(e.node, self.g.kiwi_tokens) for e in effects]
            found = (sum(works) if node[0] == "P" else max(works, default=0)), 0, (node,), (node,)
        else:
            comp = self.scc.get(node, -1)
            if comp in self.loops:
                return self.loop_values(comp, season_change)[node]
            found = self.evaluate(node, season_change, lambda target: None)
        self.memo[key] = found
        return found

    def evaluate(self, node: _GNode, season_change: bool, inner: _Inner) -> _Value:
        """The node's value from its targets' values: `inner(target)` gives the value of a target inside the
        node's own loop (None: outside it, valued by `value`; "blocked": the chain may not go there)."""
        self.visits += 1
        if self.visits > _SEARCH_BUDGET:
            raise _TooIntricate()
        deep, heavy = 0, -1             # depth below this node, work of the heaviest target
        deep_chain: _Chain = ()         # and their chains
        heavy_chain: _Chain = ()

        def call_work(call: Call | Phrase, n: int) -> int:
            nonlocal deep, deep_chain, heavy, heavy_chain
            total = _base(call, n, self.g.kiwi_tokens)
            for item, per_n, plain, found in self.targets(node, call):
                if item.startswith("track") and season_change:
                    continue                        # no track benefit in Season Change (R-TRACK-1)
                worst = plain[0]
                if plain[1] > deep:
                    deep, deep_chain = plain[1], plain[2]
                if plain[2] and plain[0] > heavy:
                    heavy, heavy_chain = plain[0], plain[2]
                values: list[int] = []   # of track slots: each is uncovered once, so n calls reach n different ones
                for target, extra in found:
                    got = inner(target)
                    if got == "blocked":
                        continue
                    w, d, d_chain, w_chain = got if got is not None else self.value(target, season_change)
                    if target[0] == "N":
                        w = min(_CAP, self.nest_factor(target[2]) * w)
                    worst = max(worst, w)
                    values.append(w)
                    if 1 + extra + d > deep:
                        deep, deep_chain = 1 + extra + d, d_chain
                    if w > heavy:
                        heavy, heavy_chain = w, w_chain
                times = n if per_n else 1
                if times > 1 and item.startswith("track"):
                    plain_slots = [plain[0]] * times if plain[0] else []
                    top = sorted(values + plain_slots, reverse=True)[:times]
                    total += min(times * worst, sum(top))
                else:
                    total += times * worst
            return min(total, _CAP)

        effects = self.effects_of(node)
        works = [_walk_work(e.node, call_work) for e in effects]
        # every power on the trigger runs; of several leader cards or Solo cards only one is in play
        work = sum(works) if node[0] == "P" else max(works, default=0)
        return min(work, _CAP), deep, (node,) + deep_chain, (node,) + heavy_chain

    def loop_values(self, comp: int, season_change: bool) -> dict[_GNode, _Value]:
        """Values of the nodes of a loop (a strongly connected component), by levels: a chain stays in the loop
        for at most as many steps as the rules let it reach its once-only nodes (a track slot, a Nest, a
        trigger, an ability), so level k values every node as if the chain could take k more steps inside it.
        A loop of nodes the rules do not limit (Kiwibot's bonus segments) would never end: a cycle."""
        key = (comp, season_change)
        if key in self.loop_memo:
            return self.loop_memo[key]
        members = [m for m, c in self.scc.items() if c == comp]
        once = {_once_key(m) for m in members if _once_key(m) is not None}
        free = [m for m in members if _once_key(m) is None]
        inside = set(members)
        cycle = self._free_cycle(free, season_change)
        if cycle is not None:
            if self.cycle is None:
                self.cycle = cycle
            capped: dict[_GNode, _Value] = {m: (_CAP, _CAP, (m,), (m,)) for m in members}
            self.loop_memo[key] = capped
            return capped
        steps = len(once) + len(free) * (len(once) + 1)
        level: dict[_GNode, _Value] = {}

        def blocked(node: _GNode) -> _Inner:
            def inner(target: _GNode) -> _Value | Literal["blocked"] | None:
                if target not in inside:
                    return None
                if not level or (_once_key(target) is not None and _once_key(target) == _once_key(node)):
                    return "blocked"        # the first level, or a second visit the rules forbid
                return level[target]
            return inner

        for k in range(min(steps, MAX_CHAIN_DEPTH + 1)):
            nxt = {m: self.evaluate(m, season_change, blocked(m)) for m in members}
            if nxt == level:
                break
            level = nxt
        # A chain meets each once-only key of the loop at most once and, between two of them, each of the other
        # nodes at most once (there is no cycle of those alone; a game has one Kiwibot, so its bonus segments
        # count by action); each step nests one level, two for a feed into another flock's track. That closed
        # bound is often far below the levels' walks.
        outside = {m: self.evaluate(m, season_change, lambda t: "blocked" if t in inside else None)
                   for m in members}
        exit_depth = max((d for _, d, _, _ in outside.values()), default=0)
        kinds = len({m[:2] for m in free})
        length = len(once) + kinds * (len(once) + 1)
        closed = 2 * max(length - 1, 0) + exit_depth
        level = {m: (w, min(d, closed), dc, wc) for m, (w, d, dc, wc) in level.items()}
        if all(m[0] in ("T", "N", "A") for m in members):
            # Track slots, Nests and abilities are used up for the whole game, not just for one chain: however
            # the chain branches, each member of the loop runs at most once, so the loop's work is at most the
            # sum of what each member does by itself (its calls out of the loop included).
            by_key: dict[_OnceKey | None, int] = {}
            for m, (w, _, _, _) in outside.items():
                member = _once_key(m)
                by_key[member] = max(by_key.get(member, 0), w)
            total = min(_CAP, sum(by_key.values()))
            level = {m: (min(w, total), d, dc, wc) for m, (w, d, dc, wc) in level.items()}
        self.loop_memo[key] = level
        return level

    def _free_cycle(self, free: list[_GNode], season_change: bool) -> _Chain | None:
        """A cycle among the loop's nodes the rules do not limit, if any (the chain, first node repeated)."""
        free_set = set(free)
        edges: dict[_GNode, list[_GNode]] = {}
        for node in free:
            outs: list[_GNode] = []
            for effect in self.effects_of(node):
                for call in _calls(effect.node):
                    for item, _, _, found in self.targets(node, call):
                        if item.startswith("track") and season_change:
                            continue
                        outs += [t for t, _ in found if t in free_set]
            edges[node] = outs
        for start in free:
            stack: list[tuple[_GNode, _Chain]] = [(start, (start,))]
            seen: set[_GNode] = set()
            while stack:
                node, chain = stack.pop()
                for nxt in edges.get(node, []):
                    if nxt == start:
                        return chain + (start,)
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append((nxt, chain + (nxt,)))
        return None

    def nest_factor(self, vf: _VF) -> int:
        """How many times the flock side gains each Nest benefit: its modifiers' `nest_benefits` (R-ASYM-4)."""
        return _nest_factor(self.g.sides[vf[0]].modifiers)

    def label(self, node: _GNode, nxt: _GNode | None = None) -> tuple[Effect, ...]:
        """The effect a chain node stands for: of several (any leader card, any Solo card on top), one that leads
        to the next node of the chain, else the costliest."""
        effects = self.effects_of(node)
        if not effects:
            return ()
        leading = [e for e in effects if nxt is not None and self._leads_to(node, e, nxt)]
        best = (leading or [max(effects, key=lambda e: local_work(e.node, self.g.kiwi_tokens))])[0]
        if node[-1][1]:
            return (Effect(best.node, "Kiwibot: " + best.label, best.ref),)
        return (best,)

    def _leads_to(self, node: _GNode, effect: Effect, nxt: _GNode) -> bool:
        """Whether a call of `effect`, run as `node`, can reach `nxt`."""
        for call in _calls(effect.node):
            for _, _, plain, found in self.targets(node, call):
                if plain[2] == (nxt,) or any(t == nxt for t, _ in found):
                    return True
        return False

    def chain_effects(self, chain: _Chain) -> tuple[tuple[Effect, ...], bool]:
        """The effects of a chain for a message, up to where the bound's walk comes round to a once-only key it
        met already (then True: the rest goes round that loop again)."""
        out: list[Effect] = []
        keys: set[_OnceKey | _GNode] = set()
        for i, node in enumerate(chain):
            key = _once_key(node) or node
            if key in keys:
                return tuple(out), True
            keys.add(key)
            out += self.label(node, chain[i + 1] if i + 1 < len(chain) else None)
        return tuple(out), False


class _TooIntricate(Exception):
    """The bound search met its budget."""


_RESULTS: dict[Any, list[BoundIssue]] = {}


@per_object(20000)
def _node_key(node: Any) -> str:
    """A node's repr (it says the whole frozen tree), kept per node object: the compile cache shares the nodes of
    unchanged fields between validations, and a selector's repr is long (the editor validates on every keystroke)."""
    text = repr(node)
    return text


def fingerprint(graph: EffectGraph) -> Any:
    """Everything the bound depends on, hashable, with a stable repr (AST nodes by their repr), plus the limits and
    the registry's bound metadata, so a changed rule never reuses an old result."""
    def eff(e: Effect) -> tuple[str, str, Any]:
        return (_node_key(e.node), e.label, e.ref)
    return (tuple((s.label, tuple((k, eff(v)) for k, v in sorted(s.track.items())),
                   tuple((t, tuple(eff(x) for x in xs)) for t, xs in sorted(s.powers.items())), s.modifiers)
                  for s in graph.sides),
            tuple(eff(e) for e in graph.nests), tuple(eff(e) for e in graph.abilities),
            tuple((a, tuple(eff(x) for x in xs)) for a, xs in sorted(graph.bonus.items())),
            tuple((eff(e.effect), e.runner, e.season_change, e.depth) for e in graph.entries),
            graph.track_from, graph.kiwi_tokens, graph.bot_runs, MAX_WORK, MAX_CHAIN_DEPTH,
            tuple((p.id, p.work, p.reach, p.bot_reach, p.emitted_by, p.nest_benefits, p.work_of is not None)
                  for p in registry.PRIMITIVES))


def effect_bounds(graph: EffectGraph) -> list[BoundIssue]:
    """The effects of the content that go over a bound, each with the chain that shows it (worst first).

    Results are kept by the graph's content, so validating the same effects again (the editor on every
    keystroke, `kcd validate` for base and each pack) costs a lookup.
    """
    try:
        key = fingerprint(graph)
        found = _RESULTS.get(key)
    except TypeError:   # an unhashable value in a node: compute without keeping
        key, found = None, None
    if found is not None:
        return list(found)
    result = _effect_bounds(graph)
    if key is not None:
        if len(_RESULTS) > 64:
            _RESULTS.clear()
        _RESULTS[key] = result
    return list(result)


def chain_bounds(graph: EffectGraph) -> tuple[int, int]:
    """(the largest work, the deepest nesting) any entry of the content can reach: what the engine can meet."""
    limits: list[int] = [0, 0]
    _effect_bounds(graph, limits)
    return limits[0], limits[1]


def _effect_bounds(graph: EffectGraph, limits: list[int] | None = None) -> list[BoundIssue]:
    limits = limits if limits is not None else [0, 0]
    search = _Search(graph)
    roots: list[tuple[_GNode, Entry]] = []
    plain_issues: list[BoundIssue] = []
    for index, entry in enumerate(graph.entries):
        if search.plain(entry.effect):
            # sets nothing off: its own work is its bound, whoever runs it
            work = local_work(entry.effect.node, graph.kiwi_tokens)
            if entry.nest:
                work *= max((_nest_factor(side.modifiers) for side in graph.sides), default=1)
            limits[0] = max(limits[0], work)
            limits[1] = max(limits[1], entry.depth)
            if work > MAX_WORK:
                shown = f"{work:,}" if work < _CAP else f"more than {_CAP:,}"
                plain_issues.append(BoundIssue(
                    "work", f"this effect can take {shown} steps, more than {MAX_WORK:,}: {entry.effect.label}",
                    "use smaller `repeat` counts or fewer nested repeats", (entry.effect,), work))
            continue
        for vf in search.vfs:
            if entry.runner == "any" or (entry.runner == "bot") == vf[1]:
                roots.append((("E", index, vf), entry))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    issues: dict[tuple[str, Any], BoundIssue] = {}
    try:
        search.build([r for r, _ in roots])
        for root, entry in roots:
            work, depth, deep_chain, heavy_chain = search.value(root, entry.season_change)
            if entry.nest:
                work = min(_CAP, search.nest_factor(root[-1]) * work)
            if search.cycle is not None:
                cycle = search.cycle   # its last node is its first again
                cyc = tuple(e for i, node in enumerate(cycle[:-1])
                            for e in search.label(node, cycle[i + 1]))
                cyc += cyc[:1]
                names = " -> ".join(e.label for e in cyc)
                issues.setdefault(("cycle", cyc[0].ref), BoundIssue(
                    "cycle", f"this effect chain feeds itself and never ends: {names}", "break the chain: one of "
                    "these effects must not lead back to the first", cyc, _CAP))
                search.cycle = None
                search.memo.clear()     # values met on the cycle are capped: recompute the rest cleanly
                search.loop_memo.clear()
                continue
            total_depth = entry.depth + depth
            limits[0] = max(limits[0], work)
            limits[1] = max(limits[1], total_depth)
            if total_depth > MAX_CHAIN_DEPTH:
                effects, loops = search.chain_effects(deep_chain)
                names = " -> ".join(e.label for e in effects) + (" -> ... (these can set each other off again)"
                                                                  if loops else "")
                issues.setdefault(("depth", entry.effect.ref), BoundIssue(
                    "depth", f"effects can nest up to {total_depth} deep, more than {MAX_CHAIN_DEPTH}: {names}",
                    "shorten the chain: fewer track slots, Nests or powers that set off the next one", effects,
                    total_depth))
            elif work > MAX_WORK:
                effects, loops = search.chain_effects(heavy_chain)
                names = " -> ".join(e.label for e in effects) + (" -> ... (these can set each other off again)"
                                                                  if loops else "")
                shown = f"{work:,}" if work < _CAP else f"more than {_CAP:,}"
                issues.setdefault(("work", entry.effect.ref), BoundIssue(
                    "work", f"this effect can take {shown} steps, more than {MAX_WORK:,}: {names}",
                    "use smaller `repeat` counts or fewer nested repeats and chained benefits", effects, work))
    except _TooIntricate:
        return [BoundIssue("intricate", f"the effect chains of this content are too intricate to bound (more than "
                                        f"{_SEARCH_BUDGET:,} combinations)",
                           "fewer track slots, Nests and powers that set each other off", ())]
    finally:
        sys.setrecursionlimit(limit)
    return sorted(plain_issues + list(issues.values()), key=lambda i: -i.value)
