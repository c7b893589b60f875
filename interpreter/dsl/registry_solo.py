"""Solo-mode (Kiwibot) DSL primitives: the segments of the Solo cards (R-SOLO-7..11), context `solo`.

Every verb starts with `bot` so a segment reads as what Kiwibot does and never collides with a core verb.
Where a Kiwibot verb leaves a choice open (which Kiwi, which hex, where to push), the engine settles it with
the Kiwibot patterns of content/base/solo.yaml (R-SOLO-11) and the Solo-mode marker (R-SOLO-12).
Nest types are addressed by their column on the flock board (the order of first appearance of each type in
game.yaml `flock.nests`), so no content id or type is named here.
"""
from __future__ import annotations

from functools import partial

from interpreter.dsl.primitive import Primitive

_SOLO = frozenset({"solo"})

# Why these stay parts of their own (issue 8): each is one Kiwibot procedure whose open choices the Kiwibot
# patterns and the Solo-mode marker settle (R-SOLO-11/12), not a choice a selector could name; only the Solo
# cards use them, and their segments are already small compositions of them (`bot moves 1; bot pushes 1 player`).
_NOTE = ("kept: a Kiwibot procedure of the Solo cards; its choices follow the Kiwibot patterns (R-SOLO-11) and the "
         "Solo-mode marker (R-SOLO-12), which no selector names")

P = partial(Primitive, note=_NOTE)

SOLO_PRIMITIVES: tuple[Primitive, ...] = (
    # --- moving (Solo card Move row; R-SOLO-10: the segment resolves once) -------------------------
    P("bot-move", "verb", "bot moves {s:size}",
      "Kiwibot moves one of its size-s Kiwi to an adjacent hex, chosen by the Moving Kiwi pattern (R-SOLO-11).",
      "Kiwibot moves a size-{s} Kiwi to an adjacent hex", _SOLO),
    P("bot-move-terrain", "verb", "bot moves {s:size} to {t:terrain}",
      "Kiwibot moves one of its size-s Kiwi to an adjacent hex of terrain t.",
      "Kiwibot moves a size-{s} Kiwi to an adjacent {t} hex", _SOLO),
    P("bot-move-player-most", "verb", "bot moves {s:size} to player stronghold",
      "Kiwibot moves one of its size-s Kiwi to an adjacent hex where the player has the most Kiwi tokens.",
      "Kiwibot moves a size-{s} Kiwi to the adjacent hex where you have the most Kiwi tokens", _SOLO),
    P("bot-move-bot-most", "verb", "bot moves {s:size} to bot stronghold",
      "Kiwibot moves one of its size-s Kiwi to an adjacent hex where Kiwibot has the most Kiwi tokens.",
      "Kiwibot moves a size-{s} Kiwi to the adjacent hex where it has the most Kiwi tokens", _SOLO),
    P("bot-gather", "verb", "bot gathers",
      "If possible, every Kiwi moved in this segment ends in the same hex.",
      "if possible all these Kiwi end in the same hex", _SOLO, work="kiwi"),
    P("bot-scatter", "verb", "bot scatters",
      "If possible, every Kiwi moved in this segment ends in a different hex.",
      "if possible all these Kiwi end in different hexes", _SOLO, work="kiwi"),
    # --- pushing (after the preceding move of the segment) -------------------------------------
    P("bot-push-own", "verb", "bot pushes {n:int} own",
      "The Kiwi Kiwibot just moved pushes up to n of Kiwibot's own smaller Kiwi (Pushing/placing pattern).",
      "it pushes {n} of Kiwibot's {n|Kiwi|Kiwi}", _SOLO, work="n"),
    P("bot-push-player", "verb", "bot pushes {n:int} player",
      "The Kiwi Kiwibot just moved pushes up to n of the player's smaller Kiwi (Pushing player Kiwi pattern).",
      "it pushes {n} of your {n|Kiwi|Kiwi}", _SOLO, work="n"),
    # --- feeding (Kiwibot pays no fruit, still gains domain markers: R-SOLO-8) ------------------
    P("bot-feed-own", "verb", "bot feeds own {s:size}",
      "Kiwibot feeds one of its size-s Kiwi (a lower size if none) for free and gains the own-feed domain markers.",
      "Kiwibot increases the size of one of its size-{s} Kiwi and gains 1 Domain marker", _SOLO, reach=("track-any",)),
    P("bot-feed-player", "verb", "bot feeds player {s:size}",
      "Kiwibot feeds one of the player's size-s Kiwi (a lower size if none; size 3 explodes) for free and gains the opponent-feed domain markers.",
      "Kiwibot feeds one of your size-{s} Kiwi and gains 2 Domain markers", _SOLO, reach=("track-any",)),
    # --- building, placing, bonus actions -------------------------------------------------------
    P("bot-build", "verb", "bot builds nest {n:int}",
      "Kiwibot builds, for free, its next available Nest of flock-board column n (first row first) on a hex chosen by the Building pattern; with no valid hex or Nest it places 1 Kiwi and gains a bonus Move (R-SOLO-10).",
      "Kiwibot builds its next Nest of column {n}", _SOLO, reach=("nest", "track", "bonus:move")),
    P("bot-place", "verb", "bot places {n:int} kiwi",
      "Kiwibot places n size-1 Kiwi, the hexes chosen by the Pushing/placing Kiwibot Kiwi pattern.",
      "Kiwibot places {n} size-1 Kiwi", _SOLO, work="n", reach=("track*n",)),
    P("bot-bonus", "verb", "bot bonus {a:action}",
      "Kiwibot gains a bonus action of type a: resolve that row's bonus segment of the top Solo card (R-SOLO-8).",
      "Kiwibot gains a bonus {a} action", _SOLO, reach=("bonus:{a}",)),
)
