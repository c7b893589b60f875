"""Solo-mode (Kiwibot) DSL primitives: the verbs of the Solo card segments (R-SOLO-7..11), context `solo`.

Every verb starts with `bot` so a segment reads as what Kiwibot does and never collides with a core verb. What
varies from one segment to the next is said with the language's ordinary parts: which of Kiwibot's pieces moves
(`bot moves my kiwi of size 2`), where to (`to a flower hex`, `to a hex where tokens(pieces of an opponent in it)
= largest(hexes adjacent to the starting hex, tokens(pieces of an opponent in it)) with pieces of an opponent`),
how many of whose pieces the moved piece pushes (`bot pushes up to 2 of the kiwi of an opponent`), which Kiwi is
fed (`bot feeds a kiwi of size 2 of an opponent`); numbers take quantities. Where a verb leaves a choice open
(which of the pieces named, which hex, where a push goes), the engine settles it by the Kiwibot patterns of
solo.yaml (R-SOLO-11) and the Solo-mode marker (R-SOLO-12), never by the player. In a Kiwibot move or push,
`kiwi` also names a Leader as the size-3 Kiwi it moves and pushes as (R-LEAD-1); Kiwibot never pushes its own
Leader. In a Kiwibot move's destination `the starting hex` is the hex the moving piece starts from.

Core verbs run in a segment too (`gain 1 domain`, `place 1 kiwi on a hex adjacent to my leader`, `if ... { }`),
as Kiwibot's: its choices answered by the same patterns, its fruit never gained (R-SOLO-3/8).
Nest types are addressed by their column on the flock board (the order of first appearance of each type in
game.yaml `flock.nests`), so no content id or type is named here.
"""
from __future__ import annotations

from functools import partial

from kcd.dsl.primitive import Primitive
# The verbs' hooks: what the checker refuses beyond the slot types, and the rules text from Kiwibot's side.
from kcd.dsl.render_solo import build_on_text, feed_text, move_text, push_text
from kcd.dsl.solo_check import MOVES, feed_issues, move_issues, push_issues

__all__ = ["SOLO_PRIMITIVES", "MOVES"]

_SOLO = frozenset({"solo"})

# Why these stay verbs of their own: each is one Kiwibot procedure whose open choices the Kiwibot
# patterns and the Solo-mode marker settle (R-SOLO-11/12), not a choice the player makes; what varies between
# Solo card segments (which piece, which hex, how many of whose) is a selector or a quantity.
_NOTE = ("kept: a Kiwibot procedure of the Solo cards; its open choices follow the Kiwibot patterns (R-SOLO-11) and "
         "the Solo-mode marker (R-SOLO-12), not a player; what varies is a selector or a quantity")

P = partial(Primitive, note=_NOTE)

SOLO_PRIMITIVES: tuple[Primitive, ...] = (
    # --- moving (Solo card Move row; R-SOLO-10: the segment resolves once) -------------------------
    P("bot-move", "verb", "bot moves {what:pieces}",
      "Kiwibot moves one of its pieces to an adjacent hex by the Moving Kiwi pattern (R-SOLO-11): one the selector "
      "names (the indicated Kiwi) that can push as the segment's pushes say, else any of its unmoved pieces; "
      "`kiwi` includes its Leader as a size-3 Kiwi (R-LEAD-1). E.g. `bot moves my kiwi of size 2`.",
      "Kiwibot moves {what} to an adjacent hex", _SOLO, check=move_issues, render=move_text),
    P("bot-move-to", "verb", "bot moves {what:pieces} to {dest:hexes}",
      "As `bot moves <pieces>`, to an adjacent hex the destination names (every step of the pattern keeps to it); "
      "`the starting hex` is the hex the moving piece starts from. E.g. `bot moves my kiwi of size 1 to a "
      "flower hex`.",
      "Kiwibot moves {what} to an adjacent {dest}", _SOLO, check=move_issues, render=move_text),
    P("bot-gather", "verb", "bot gathers",
      "If possible, every Kiwi moved in this segment ends in the same hex.",
      "if possible all these Kiwi end in the same hex", _SOLO, work="kiwi"),
    P("bot-scatter", "verb", "bot scatters",
      "If possible, every Kiwi moved in this segment ends in a different hex.",
      "if possible all these Kiwi end in different hexes", _SOLO, work="kiwi"),
    # --- pushing (after the preceding move of the segment) -------------------------------------
    P("bot-push", "verb", "bot pushes up to {n:int} of {what:pieces}",
      "The piece Kiwibot just moved pushes up to n of the smaller pieces the selector names out of the hex it "
      "landed in, each where the Pushing player Kiwi pattern (the player's pieces) or the Pushing / placing "
      "Kiwibot Kiwi pattern (its own) says (R-SOLO-11). E.g. `bot pushes up to 2 of the kiwi of an opponent`.",
      "it pushes {n} of {what}", _SOLO, work="n", check=push_issues, render=push_text),
    # --- feeding (Kiwibot pays no fruit, still gains domain markers: R-SOLO-8) ------------------
    P("bot-feed", "verb", "bot feeds {what:pieces}",
      "Kiwibot feeds, for free, one Kiwi the selector names by the Feeding pattern (R-SOLO-11): of the size it "
      "names, else the next lower size, else size 1 (a size-3 Kiwi of another player explodes), hexes by the "
      "marker; it gains the feed's domain markers (R-SOLO-8). E.g. `bot feeds a kiwi of size 2 of an opponent`.",
      "Kiwibot feeds {what}", _SOLO, reach=("track-any",), check=feed_issues, render=feed_text),
    # --- building, placing, bonus actions -------------------------------------------------------
    P("bot-build", "verb", "bot builds nest {n:int}",
      "Kiwibot builds, for free, its next available Nest of flock-board column n (first row first) on a hex chosen by the Building pattern; with no valid hex or Nest it places 1 Kiwi and gains a bonus Move (R-SOLO-10).",
      "Kiwibot builds its next Nest of column {n}", _SOLO, reach=("nest", "track", "bonus:move")),
    P("bot-build-on", "verb", "bot builds nest {n:int} on {where:hexes}",
      "As `bot builds nest <n>`, on a hex the selector names (the Building pattern picks among them; none: it "
      "places 1 Kiwi and gains a bonus Move). E.g. `bot builds nest 1 on a flower hex`.",
      "Kiwibot builds its next Nest of column {n} on {where}", _SOLO, reach=("nest", "track", "bonus:move"),
      render=build_on_text),
    P("bot-place", "verb", "bot places {n:int} kiwi",
      "Kiwibot places n size-1 Kiwi, the hexes chosen by the Pushing/placing Kiwibot Kiwi pattern.",
      "Kiwibot places {n} size-1 Kiwi", _SOLO, work="n", reach=("track*n",)),
    P("bot-bonus", "verb", "bot bonus {a:action}",
      "Kiwibot gains a bonus action of type a: resolve that row's bonus segment of the top Solo card (R-SOLO-8).",
      "Kiwibot gains a bonus {a} action", _SOLO, reach=("bonus:{a}",)),
)
