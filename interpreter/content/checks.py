"""Cross-file checks of a merged content set: unknown and duplicate ids, nest twins, unreachable triggers, counts."""
from __future__ import annotations

from typing import Any

from kcd.content.dslfields import CompiledFields
from kcd.content.merge import Merged
from kcd.content.schema import did_you_mean
from kcd.core.diagnostics import Diagnostic
from kcd.dsl import registry
from kcd.dsl import ast
from kcd.dsl.ast import Call
from kcd.content.yamlsafe import Path as YamlPath

# Component counts the retail rulebook fixes; checked on the base set only, since editions and mods may
# legitimately add cards, leaders or nests.
BASE_COUNTS: tuple[tuple[str, str, int, str], ...] = (
    ("season_cards", "Season cards", 16, "R-COMP-3, R-SCARD-5"),
    ("nests", "Nests", 6, "R-COMP-2, R-BUILD-4"),
    ("leaders", "Leaders", 7, "R-COMP-3"),
    ("turn_order_nests", "Turn Order nests", 4, "R-COMP-3"),
    ("solo_cards", "Solo cards", 6, "R-COMP-3"),
)
DECK_SIZE = (9, "R-COMP-2")


def item_rows(files: dict[str, Merged], name: str, group: str | None = None) -> list[tuple[YamlPath, dict[str, Any]]]:
    """(merged path, item) of the item mappings of a logical file (or one group of it)."""
    merged = files.get(name)
    if merged is None:
        return []
    data = merged.data
    prefix: YamlPath = ()
    if group is not None:
        data = data.get(group) if isinstance(data, dict) else None
        prefix = (group,)
    if not isinstance(data, list):
        return []
    return [(prefix + (i,), item) for i, item in enumerate(data) if isinstance(item, dict)]


class Checker:
    """Runs every cross-file check over the merged logical files."""

    def __init__(self, files: dict[str, Merged], compiled: CompiledFields, base_only: bool,
                 broken: set[str] | None = None) -> None:
        self.files = files
        self.compiled = compiled
        self.base_only = base_only
        self.broken = broken or set()
        self.out: list[Diagnostic] = []

    def run(self) -> list[Diagnostic]:
        """All cross-file diagnostics (those needing a file that did not parse are skipped)."""
        if not self.broken & {"game.yaml", "action_cards.yaml", "nests.yaml"}:
            self._game_refs()
        self._island()
        self._nests()
        self._leader_cards()
        self._flocks()
        if not self.broken:  # an unparsed file may hold the effect that emits the trigger
            self._triggers()
        self._trigger_refs()
        self._turn_order()
        self._nest_glyphs()
        if self.base_only:
            self._base_counts()
        return self.out

    # --- helpers ------------------------------------------------------------------------------------
    def _seen_before(self, merged: Merged | None, seen: dict[Any, YamlPath], key: Any, path: YamlPath, message: str,
                     hint: str) -> bool:
        """Remember where `key` is first met; met again: `id-duplicate`, `{first}` in `hint` naming the first place."""
        if key in seen:
            first = _where_text(merged.where(seen[key]) if merged else None)
            self._emit(merged, "id-duplicate", message, path, hint=hint.format(first=first))
            return True
        seen[key] = path
        return False

    def _emit(self, merged: Merged | None, code: str, message: str, path: YamlPath, *, key: bool = False,
              hint: str | None = None) -> None:
        if merged is None:
            return
        diag = merged.diagnostic(code, message, path, key=key, hint=hint)
        if diag is not None:
            self.out.append(diag)

    def _items(self, name: str, group: str | None = None) -> list[tuple[YamlPath, dict[str, Any]]]:
        return item_rows(self.files, name, group)

    def _ids(self, name: str, group: str | None = None, key: str = "id") -> list[str]:
        return [str(item[key]) for _, item in self._items(name, group) if key in item]

    def _unknown(self, merged: Merged | None, what: str, value: Any, known: list[str], path: YamlPath,
                 *, key: bool = False) -> None:
        if str(value) in known:
            return
        guess = did_you_mean(str(value), known)
        hint = f"did you mean `{guess}`?" if guess else (f"known {what} ids: {', '.join(known)}" if known
                                                         else None)
        self._emit(merged, "id-unknown", f"unknown {what} `{value}`", path, key=key, hint=hint)

    # --- checks -------------------------------------------------------------------------------------
    def _game_refs(self) -> None:
        game = self.files.get("game.yaml")
        if game is None or not isinstance(game.data, dict):
            return
        flock = game.data.get("flock")
        if not isinstance(flock, dict):
            return
        cards = self._ids("action_cards.yaml")
        deck = flock.get("deck")
        if isinstance(deck, dict):
            for card in deck:
                self._unknown(game, "action card", card, cards, ("flock", "deck", card), key=True)
            counts = [n for n in deck.values() if isinstance(n, int) and not isinstance(n, bool)]
            if self.base_only and len(counts) == len(deck) and sum(counts) != DECK_SIZE[0]:
                self._emit(game, "schema", f"a flock deck has {DECK_SIZE[0]} action cards ({DECK_SIZE[1]}), "
                                           f"`deck` counts {sum(counts)}", ("flock", "deck"), key=True)
        nests = self._ids("nests.yaml")
        listed = flock.get("nests")
        if isinstance(listed, list):
            for i, nest in enumerate(listed):
                self._unknown(game, "nest", nest, nests, ("flock", "nests", i))

    def _island(self) -> None:
        island = self.files.get("island.yaml")
        if island is None:
            return
        sections = self._items("island.yaml", "sections")
        section_hexes: dict[str, list[str]] = {}
        first_hex: dict[str, YamlPath] = {}
        for path, section in sections:
            hexes = section.get("hexes")
            ids: list[str] = []
            if isinstance(hexes, list):
                for i, hx in enumerate(hexes):
                    if not isinstance(hx, dict) or "id" not in hx:
                        continue
                    hid = str(hx["id"])
                    if not self._seen_before(island, first_hex, hid, path + ("hexes", i, "id"),
                                             f"duplicate hex id `{hid}`",
                                             "first defined at {first}; hex ids are unique across sections"):
                        ids.append(hid)
            section_hexes[str(section.get("id"))] = ids
        section_ids = list(section_hexes)
        layout_sections: dict[str, list[str]] = {}
        for path, layout in self._items("island.yaml", "layouts"):
            used: list[str] = []
            parts = layout.get("sections")
            if isinstance(parts, list):
                for i, part in enumerate(parts):
                    if isinstance(part, dict) and "section" in part:
                        self._unknown(island, "section", part["section"], section_ids,
                                      path + ("sections", i, "section"))
                        used.append(str(part["section"]))
            layout_sections[str(layout.get("id"))] = used
        layout_ids = list(layout_sections)
        for path, setup in self._items("island.yaml", "setups"):
            layout_ref = setup.get("layout")
            hexes = list(first_hex)
            if layout_ref is not None:
                self._unknown(island, "layout", layout_ref, layout_ids, path + ("layout",))
                if str(layout_ref) in layout_sections:
                    hexes = [h for s in layout_sections[str(layout_ref)] for h in section_hexes.get(s, [])]
            seats = setup.get("seats")
            if not isinstance(seats, list):
                continue
            for i, seat in enumerate(seats):
                if not isinstance(seat, dict):
                    continue
                if "leader" in seat:
                    self._hex_ref(island, seat["leader"], hexes, path + ("seats", i, "leader"), layout_ref)
                kiwi = seat.get("kiwi")
                if isinstance(kiwi, dict):
                    for hid in kiwi:
                        self._hex_ref(island, hid, hexes, path + ("seats", i, "kiwi", hid), layout_ref, key=True)

    def _hex_ref(self, island: Merged, hid: Any, hexes: list[str], path: YamlPath, layout: Any,
                 key: bool = False) -> None:
        if str(hid) in hexes:
            return
        guess = did_you_mean(str(hid), hexes)
        where = f" in layout `{layout}`" if layout is not None else ""
        self._emit(island, "id-unknown", f"unknown hex `{hid}`{where}", path, key=key,
                   hint=f"did you mean `{guess}`?" if guess else None)

    def _nests(self) -> None:
        nests = self.files.get("nests.yaml")
        items = self._items("nests.yaml")
        ids = [str(n.get("id")) for _, n in items]
        rows = {(n.get("type"), n.get("row")) for _, n in items if _scalar(n.get("type"))}
        for path, nest in items:
            # R-BUILD-2: a Nest of row r > 1 is built only after the row r-1 Nest of its type (types and rows
            # come from content: a mod's own Nest type has rows of its own).
            row = nest.get("row")
            if (isinstance(row, int) and 1 < row <= 9 and _scalar(nest.get("type"))
                    and (nest.get("type"), row - 1) not in rows):
                self._emit(nests, "nest-twin", f"row-{row} nest `{nest.get('id')}` has no row-{row - 1} nest of "
                                               f"type `{nest.get('type')}`", path + ("row",),
                           hint=f"add the row-{row - 1} nest of that type (R-BUILD-2)")
            twin = nest.get("twin")
            if isinstance(twin, str):
                self._unknown(nests, "nest", twin, ids, path + ("twin",))

    def _leader_cards(self) -> None:
        leaders = self.files.get("leaders.yaml")
        seen: dict[str, YamlPath] = {}
        for path, leader in self._items("leaders.yaml"):
            cards = leader.get("cards")
            if not isinstance(cards, list):
                continue
            for i, card in enumerate(cards):
                if not isinstance(card, dict) or "id" not in card:
                    continue
                cid = str(card["id"])
                self._seen_before(leaders, seen, cid, path + ("cards", i, "id"), f"duplicate leader_cards id `{cid}`",
                                  "first defined at {first}")

    def _flocks(self) -> None:
        flocks = self.files.get("flocks/")
        for path, flock in self._items("flocks/"):
            for side in ("side_a", "side_b"):
                data = flock.get(side)
                if not isinstance(data, dict) or not isinstance(data.get("track"), list):
                    continue
                track = data["track"]
                # R-SETUP-4: one track slot per track token, numbered in order (the schema fixes how many).
                for i, slot in enumerate(track):
                    if isinstance(slot, dict) and "slot" in slot and slot["slot"] != i + 1:
                        self._emit(flocks, "schema", f"track slot {i + 1} is numbered {slot['slot']}",
                                   path + (side, "track", i, "slot"), hint="number the slots 1, 2, 3... in order")

    def _triggers(self) -> None:
        """A flock power whose trigger no content effect and no engine event can emit would never fire."""
        flocks = self.files.get("flocks/")
        nodes = self.compiled.nodes.get("flocks/", {})
        kinds = self.compiled.kinds.get("flocks/", {})
        for path, node in nodes.items():
            if kinds.get(path) != "trigger" or not isinstance(node, Call) or not node.primitive:
                continue
            primitive = registry.BY_ID.get(node.primitive)
            if primitive is None:
                continue
            emitters = primitive.emitted_by
            if any(e.startswith("@") for e in emitters) or any(e in self.compiled.used for e in emitters):
                continue
            text = " ".join(w.text for w in node.words)
            verbs = ", ".join(f"`{registry.BY_ID[e].pattern}`" if e in registry.BY_ID else f"`{e}`"
                              for e in emitters)
            self._emit(flocks, "trigger-unreachable", f"trigger `{text}` can never fire: no content effect uses "
                                                      f"{verbs or 'a verb that emits it'}",
                       path, hint="use the verb in some effect, or pick another trigger")

    def _trigger_refs(self) -> None:
        """A power's effect names only the references its trigger binds (`this hex`: the registry's `binds`): the
        marked hex of `domain marking`, the built hex of `build`, the fed Kiwi's of `feed`; `gain domain`,
        `gain move` and `at season change` have no hex, so `this hex` there is refused where it is written."""
        flocks = self.files.get("flocks/")
        nodes = self.compiled.nodes.get("flocks/", {})
        kinds = self.compiled.kinds.get("flocks/", {})
        for path, node in nodes.items():
            trigger = getattr(node, "primitive", None)
            if kinds.get(path) != "trigger" or not isinstance(trigger, str):
                continue
            prim = registry.BY_ID.get(trigger)
            effect = nodes.get(path[:-1] + ("do",))
            if prim is None or effect is None or flocks is None:
                continue
            bound = dict(prim.binds)
            for sel in _references(effect):
                if sel.ref in bound:
                    continue
                found = flocks.where(path[:-1] + ("do",))
                if found is None:
                    continue
                doc, doc_path = found
                loc = doc.span_location(doc_path, sel.span.start, sel.span.end)
                having = [p.display for p in registry.of_kind("trigger") if "here" in dict(p.binds)]
                self.out.append(Diagnostic(
                    "dsl-context", f"`this hex` names the hex of the event that fired the power, and `{prim.display}` "
                    "has none", loc, doc.source_line(loc.line),
                    "triggers with a hex: " + ", ".join(f"`{h}`" for h in having)
                    + "; or name the hexes: `hexes dominated by me`, `hexes with my nest`"))

    def _turn_order(self) -> None:
        merged = self.files.get("turn_order.yaml")
        seats: dict[Any, YamlPath] = {}
        for path, nest in self._items("turn_order.yaml", "nests"):
            seat = nest.get("seat")
            if seat is None or not _scalar(seat):
                continue
            self._seen_before(merged, seats, seat, path + ("seat",), f"duplicate Turn Order seat `{seat}`",
                              "first used at {first}")

    def _nest_glyphs(self) -> None:
        """Each Nest type its own glyph (the board tells the types apart by it): one glyph per type, and no two
        types sharing one."""
        merged = self.files.get("nests.yaml")
        by_type: dict[Any, tuple[Any, YamlPath]] = {}
        by_glyph: dict[Any, Any] = {}
        for path, nest in self._items("nests.yaml"):
            glyph, kind = nest.get("glyph"), nest.get("type")
            if glyph is None or not _scalar(glyph) or not _scalar(kind):
                continue
            if kind in by_type and by_type[kind][0] != glyph:
                first = _where_text(merged.where(by_type[kind][1]) if merged else None)
                self._emit(merged, "schema", f"Nests of type `{kind}` have two glyphs, `{by_type[kind][0]}` and "
                           f"`{glyph}`", path + ("glyph",), hint=f"give them one glyph (the first is at {first})")
                continue
            by_type.setdefault(kind, (glyph, path + ("glyph",)))
            other = by_glyph.setdefault(glyph, kind)
            if other != kind:
                self._emit(merged, "schema", f"glyph `{glyph}` marks both type `{other}` and type `{kind}`",
                           path + ("glyph",), hint="give each Nest type a glyph of its own")

    def _base_counts(self) -> None:
        groups = {"season_cards": ("season_cards.yaml", None), "nests": ("nests.yaml", None),
                  "leaders": ("leaders.yaml", None), "turn_order_nests": ("turn_order.yaml", "nests"),
                  "solo_cards": ("solo.yaml", "cards")}
        for kind, label, count, rule in BASE_COUNTS:
            name, group = groups[kind]
            merged = self.files.get(name)
            if merged is None:
                continue
            items = self._items(name, group)
            if len(items) != count:
                path = (group,) if group else ()
                self._emit(merged, "schema", f"the base game has {count} {label} ({rule}), found {len(items)}",
                           path, key=bool(group))


def _references(node: Any) -> list[ast.Selector]:
    """The `this hex` selectors of a bound effect, wherever they stand (verbs, conditions, loops, filters)."""
    found: list[ast.Selector] = []

    def look(value: Any) -> None:
        for e in ast.exprs(value):
            if isinstance(e, ast.Selector) and e.ref == "here":
                found.append(e)

    for sub in ast.walk(node):
        if isinstance(sub, (ast.Call, ast.Phrase)):
            for _, value in sub.args:
                if isinstance(value, (ast.Selector, ast.QCall, ast.BinOp, ast.Not)):
                    look(value)
        elif isinstance(sub, ast.If):
            look(sub.cond)
        elif isinstance(sub, (ast.ForEach, ast.ChoosePlayer)):
            look(sub.sel)
            if isinstance(sub, ast.ForEach) and sub.cap is not None:
                look(sub.cap)
    return found


def _scalar(value: Any) -> bool:
    """True for values that can be compared as ids (not lists or mappings a bad file may hold)."""
    return isinstance(value, (str, int, float, bool))


def _where_text(found: YamlPath | None) -> str:
    from kcd.core.diagnostics import display_path

    if found is None:
        return "?"
    doc, path = found
    pos = doc.pos(path)
    return f"{display_path(doc.file)}:{pos.line}:{pos.col}" if pos else display_path(doc.file)
