"""Check hooks of the core registry entries (registry.py): what a modifier's selector may name beyond its slot type.

Each function is an entry's `check` hook (primitive.CheckHook); the checker calls it for every bound call of the
entry, so no module of the checker names the entry.
"""
from __future__ import annotations

from kcd.dsl.ast import Call, Phrase, Selector, exprs
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import CheckSite, kind_phrase

__all__ = ["dominance_weight_issues", "feed_discount_issues"]


def dominance_weight_issues(call: Call | Phrase, site: CheckSite) -> list[Issue]:
    """A dominance weight names pieces that count for dominance, and never asks who dominates: dominance reads the
    weight, so a selector (or quantity) with `dominated by` would ask for the count it is part of."""
    if site.whole or site.field_kind != "modifier":
        return []
    who, n = call.arg("who"), call.arg("n")
    out: list[Issue] = []
    if who.kind == "marker":
        out.append(Issue("dsl-arg-type", "domain markers do not count for dominance", who.span,
                         "name Kiwi, Leaders or Nests: `my nests count 1 for dominance`"))
    for part in (who, n):
        for e in exprs(part):
            for f in (e.filters if isinstance(e, Selector) else ()):
                if f.op == "dominated":
                    out.append(Issue("dsl-context", "a dominance weight cannot depend on dominance: `dominated by` "
                                     "asks for the count this weight is part of", f.span,
                                     "name the pieces by owner, size, terrain or where they stand: "
                                     "`my kiwi in flower hexes count 2 for dominance`"))
    return out


def feed_discount_issues(call: Call | Phrase, site: CheckSite) -> list[Issue]:
    """Only Kiwi are fed (R-FEED-1, R-LEAD-3): a feed discount names Kiwi."""
    if site.whole or site.field_kind != "modifier":
        return []
    what = call.arg("what")
    if what.kind in ("leader", "nest", "marker"):
        return [Issue("dsl-arg-type", f"only Kiwi are fed (R-FEED-1, R-LEAD-3), not {kind_phrase(what.kind)}",
                      what.span, "name Kiwi: `feeding my kiwi in grass hexes costs 1 fruit less`")]
    return []
