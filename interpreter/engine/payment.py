"""Paying fruit (R-PAY-1: domain markers stand in for fruit of any type) and the fruit limit (R-LIMIT-1)."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any, Sequence

from kcd.dsl import ast
from kcd.engine.context import EngineError, Runtime
from kcd.core import action_types as A
from kcd.core.decisions import Option, option, shared_option_caches
from kcd.engine.values import FrameDataError, register_value
from kcd.engine.machine import Ask, Call, Cont, Do, Env, ForEach, Question, While, program
from kcd.core.state import Flock
from kcd.engine.view import reserves_revealed
from kcd.core.memo import per_object


@register_value("payment.req")
@dataclass(frozen=True)
class Req:
    """One payment requirement: n fruit under a rule (same/different/any, optionally of listed types) or n markers."""

    kind: str                 # "fruit" | "domain"
    n: int
    rule: str = "any"
    types: tuple[str, ...] = ()


_REQS: dict[tuple[str, int, str], Req] = {}


def fruit_req(n: int, rule: str) -> Req:
    """`Req("fruit", n, rule)`, one shared value per (n, rule): a frozen Req costs more to build than to look up,
    and Feed builds one for every Kiwi size on every turn."""
    key = ("fruit", n, rule)
    req = _REQS.get(key)
    if req is None:
        req = _REQS[key] = Req("fruit", n, rule)
    return req


@dataclass(frozen=True)
class Payment:
    """Concrete items handed over: fruit colours and domain markers (terrains)."""

    fruit: tuple[str, ...]
    markers: tuple[str, ...]

    def action(self) -> A.Pay:
        """The typed action handing these over."""
        return A.Pay(self.fruit, self.markers)

    def option_id(self) -> str:
        """Readable stable id, `pay:<fruit>,<fruit>,marker-<terrain>` (the action's id)."""
        return A.pay_id(self.fruit, self.markers)

    def label(self) -> str:
        """Readable label."""
        parts = list(self.fruit) + [f"{t} domain marker" for t in self.markers]
        return "Pay " + ", ".join(parts) if parts else "Pay nothing"


@per_object(4096)
def req_of_call(call: ast.Call) -> Req:
    """The requirement a pay verb states (read once per node: the entry keeps its node, so its id is not reused)."""
    req = _req_of_call(call)
    return req


def _req_of_call(call: ast.Call) -> Req:
    n = int(call.arg("n", 1))
    if call.primitive == "pay-fruit":
        return Req("fruit", n, str(call.arg("rule", "any")))
    if call.primitive == "pay-fruit-of":
        types = call.arg("types", ())
        types = (types,) if isinstance(types, str) else tuple(types)
        return Req("fruit", n, "any", types)
    if call.primitive == "pay-domain":
        return Req("domain", n)
    raise EngineError(f"`{call.primitive}` is not a payment verb")


def reqs_of(node: ast.Node | None) -> list[Req]:
    """The requirements of a cost effect (a sequence of pay verbs)."""
    if node is None:
        return []
    if isinstance(node, ast.Call):
        return [req_of_call(node)]
    if isinstance(node, ast.Seq):
        out: list[Req] = []
        for stmt in node.stmts:
            out.extend(reqs_of(stmt))
        return out
    raise EngineError("a cost may only contain pay verbs")


@per_object(4096)
def cost_reqs(node: ast.Node | None) -> tuple[Req, ...]:
    """`reqs_of(node)` of a cost node of the rules, read once (a Build's options ask it for every Nest, every turn)."""
    reqs = tuple(reqs_of(node))
    return reqs


def _marker_sets(fl: Flock, k: int) -> list[tuple[str, ...]]:
    if k == 0:
        return [()]
    kinds = sorted(set(fl.domain))
    out = []
    for combo in combinations_with_replacement(kinds, k):
        if all(combo.count(t) <= fl.domain.count(t) for t in set(combo)):
            out.append(combo)
    return out


def payments(fl: Flock, req: Req, fruits: list[str]) -> list[Payment]:
    """Every distinct way this flock can meet the requirement (R-PAY-1)."""
    return list(_payments(fl, req, fruits).values())


def _payments(fl: Flock, req: Req, fruits: list[str]) -> dict[str, Payment]:
    """`payments` by their option ids (`A.pay_id`), in the same order."""
    if req.kind == "domain":
        if len(fl.domain) < req.n:
            return {}
        return {A.pay_id((), m): Payment((), m) for m in _marker_sets(fl, req.n)}
    held = [c for c in fruits if fl.fruit.get(c, 0) > 0]
    out: dict[str, Payment] = {}
    n = req.n
    for j in range(min(n, sum(fl.fruit.values())), -1, -1):
        k = n - j
        if k > len(fl.domain):
            continue
        fruit_sets: list[tuple[str, ...]] = []
        if req.rule == "different":
            if n > len(fruits):
                return {}
            fruit_sets = list(combinations(held, j))
        elif req.rule == "same":
            fruit_sets = [(c,) * j for c in held if fl.fruit[c] >= j] if j else [()]
        else:
            allowed = [c for c in held if not req.types or c in req.types]
            fruit_sets = [s for s in combinations_with_replacement(allowed, j)
                          if all(s.count(c) <= fl.fruit[c] for c in set(s))]
        marker_sets = _marker_sets(fl, k)
        for fs in fruit_sets:
            for ms in marker_sets:
                pid = A.pay_id(fs, ms)
                if pid not in out:
                    out[pid] = Payment(fs, ms)
    return out


def can_meet(fl: Flock, req: Req, fruits: list[str]) -> bool:
    """Fast check that one requirement can be met."""
    markers = len(fl.domain)
    n = req.n
    if req.kind == "domain":
        return markers >= n
    held = fl.fruit
    rule = req.rule
    if rule == "different":   # (plain loops: Feed and Build ask this for every Kiwi size and Nest, every turn)
        if n > len(fruits):
            return False
        kinds = 0
        for c in fruits:
            if held.get(c, 0) > 0:
                kinds += 1
        return kinds + markers >= n
    if rule == "same":
        most = 0
        for c in fruits:
            k = held.get(c, 0)
            if k > most:
                most = k
        return most + markers >= n
    if req.types:
        return sum([held.get(c, 0) for c in req.types]) + markers >= n
    return sum(held.values()) + markers >= n


def _take(fl: Flock, p: Payment) -> None:
    for c in p.fruit:
        fl.fruit[c] -= 1
    for t in p.markers:
        fl.domain.remove(t)


def _give_back(fl: Flock, p: Payment) -> None:
    for c in p.fruit:
        fl.fruit[c] += 1
    fl.domain.extend(p.markers)
    fl.domain.sort()


def can_pay(fl: Flock, reqs: Sequence[Req], fruits: list[str]) -> bool:
    """True when all requirements can be met together."""
    if not reqs:
        return True
    if len(reqs) == 1:
        return can_meet(fl, reqs[0], fruits)
    if not can_meet(fl, reqs[0], fruits):
        return False
    for p in payments(fl, reqs[0], fruits):
        _take(fl, p)
        ok = can_pay(fl, reqs[1:], fruits)
        _give_back(fl, p)
        if ok:
            return True
    return False


# option id -> the payment option, shared between decisions and games (decisions.SharedOptionCaches)
_PAYS = shared_option_caches.new(2_000)


def _pay_ask(rt: Runtime, flock: str, req: Req, rest: "list[Req] | tuple[Req, ...]") -> Question:
    """The question how to meet `req` keeping `rest` payable (EngineError when it cannot be met)."""
    fl = rt.state.flocks[flock]
    opts: list[Option[A.Pay]] = []
    for pid, p in _payments(fl, req, rt.rules.fruits).items():
        if rest:
            _take(fl, p)
            ok = can_pay(fl, rest, rt.rules.fruits)
            _give_back(fl, p)
            if not ok:
                continue
        shared = _PAYS.get(pid)   # the id names the fruit and markers, so it determines the option
        if shared is None:
            shared = shared_option_caches.keep(_PAYS, pid, Option(pid, p.label, A.Pay(p.fruit, p.markers)))   # a Text label
        opts.append(shared)
    if not opts:
        raise EngineError(f"{flock} cannot pay {req}")
    # a payment that may use markers is asked even when one way is left: how many ways there are depends on the
    # terrains of the face-down markers (R-SETUP-4, R-PAY-1), whether markers can be used only on their number
    only = opts[0].action if len(opts) == 1 else None
    always = isinstance(only, A.Pay) and bool(only.markers) and not reserves_revealed(rt)
    return Question(flock, "pay", f"Pay {req.n} {'domain marker' if req.kind == 'domain' else 'fruit'}"
                     f"{'' if req.kind == 'domain' else ' (' + (', '.join(req.types) if req.types else req.rule) + ')'}",
               opts, always)


def _hand_over(rt: Runtime, flock: str, act: A.Pay) -> None:
    """Give the chosen fruit and markers to the bags."""
    chosen = Payment(act.fruit, act.markers)
    _take(rt.state.flocks[flock], chosen)
    for c in chosen.fruit:
        rt.state.fruit_bag[c] = rt.state.fruit_bag.get(c, 0) + 1
    for t in chosen.markers:
        rt.state.domain_bag[t] = rt.state.domain_bag.get(t, 0) + 1
    rt.emit("pay", flock, flock=flock, fruit=list(chosen.fruit), markers=list(chosen.markers))


def _check_reqs(rt: Runtime, reqs: Sequence[Any], name: str) -> None:
    """Loaded requirements are ones the engine states."""
    for req in reqs:
        if (not isinstance(req, Req) or req.kind not in ("fruit", "domain") or type(req.n) is not int
                or not 1 <= req.n <= 20 or req.rule not in ("any", "same", "different")
                or not all(t in rt.rules.fruits for t in req.types)):
            raise FrameDataError(f"{name}: not a payment requirement")


# --- paying one requirement -------------------------------------------------------------------------------
def _ask_pay(rt: Runtime, env: Env) -> Question:
    return _pay_ask(rt, env["flock"], env["req"], env["rest"])


def _pay_chosen(rt: Runtime, env: Env) -> None:
    _hand_over(rt, env["flock"], env["paid"])


def _check_pay(rt: Runtime, env: Env, at: str) -> None:
    """A loaded requirement is one the engine states."""
    _check_reqs(rt, (env["req"], *env["rest"]), "payment.pay")


# Ask how to meet `req` (keeping `rest` payable) and hand the items to the bags
PAY = program(
    "payment.pay", ("flock", "req", "rest"), {"flock": str, "req": Req, "rest": tuple, "paid": A.Pay},
    Ask("pay", _ask_pay, into="paid", kinds={"pay": ("pay",)}),
    Do(_pay_chosen),
    check=_check_pay)


def pay_frame(flock: str, req: Req, rest: "Sequence[Req]" = ()) -> Cont:
    """The continuation paying `req` for `flock`, keeping `rest` payable."""
    return PAY.start(flock, req, tuple(rest))


# --- paying several requirements in order --------------------------------------------------------------------
def _req_indexes(rt: Runtime, env: Env) -> range:
    return range(len(env["reqs"]))


def _pay_one(rt: Runtime, env: Env) -> Cont:
    reqs, i = env["reqs"], env["i"]
    return PAY.start(env["flock"], reqs[i], reqs[i + 1:])


def _check_pay_all(rt: Runtime, env: Env, at: str) -> None:
    """Loaded requirements are payment requirements, the one being paid among them."""
    reqs = env["reqs"]
    if not reqs or not 0 <= env.get("i", 0) < len(reqs):
        raise FrameDataError("payment.pay_all: no such requirement")
    _check_reqs(rt, reqs, "payment.pay_all")


# Pay several requirements in order, each keeping the rest payable
PAY_ALL = program(
    "payment.pay_all", ("flock", "reqs"), {"flock": str, "reqs": tuple, "i": int},
    ForEach("i", _req_indexes, (Call("pay", _pay_one),)),
    check=_check_pay_all)


def pay_all_frame(flock: str, reqs: "Sequence[Req]") -> Any:
    """The continuation paying `reqs` in order for `flock` (one requirement: paid alone, the common case)."""
    if len(reqs) == 1:
        return PAY.start(flock, reqs[0], ())
    return PAY_ALL.start(flock, tuple(reqs)) if reqs else None


# --- the fruit limit --------------------------------------------------------------------------------------
# Over the fruit limit, the player returns fruit of their choice until exactly at it (R-LIMIT-1).
# Decision R-LIMIT-1: checked right after every gain, also outside the player's own turn (the flock
# board says "at any time"), so nobody ever holds more than the limit once a gain has resolved.
def _over_limit(rt: Runtime, env: Env) -> bool:
    return sum(rt.state.flocks[env["flock"]].fruit.values()) > rt.rules.fruit_limit


def _ask_fruit(rt: Runtime, env: Env) -> Question:
    flock = env["flock"]
    fl = rt.state.flocks[flock]
    return Question(flock, "return-fruit", ("Over {} fruit: return one", (rt.rules.fruit_limit,)),
                    [option(A.ReturnFruit(c), ("Return a {} fruit", (c,))) for c in rt.rules.fruits
                     if fl.fruit.get(c, 0) > 0])


def _return_fruit(rt: Runtime, env: Env) -> None:
    flock = env["flock"]
    colour = env["back"].fruit
    rt.state.flocks[flock].fruit[colour] -= 1
    rt.state.fruit_bag[colour] = rt.state.fruit_bag.get(colour, 0) + 1
    rt.emit("fruit-limit", flock, flock=flock, fruit=colour, limit=rt.rules.fruit_limit)


FRUIT_LIMIT = program(
    "payment.fruit_limit", ("flock",), {"flock": str, "back": A.ReturnFruit},
    While(_over_limit, (Ask("fruit", _ask_fruit, into="back", kinds={"return-fruit": ("return-fruit",)}),
                        Do(_return_fruit))))


def fruit_limit_frame(flock: str) -> Cont:
    """The continuation bringing `flock` back to the fruit limit (R-LIMIT-1)."""
    return FRUIT_LIMIT.start(flock)
