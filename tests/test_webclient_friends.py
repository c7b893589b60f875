"""Playing with friends in `kcd serve`'s web client, in real headless Chromium: a lobby of open games,
a game created with an invite link per seat (its token shown once), player names, spectators with the public
view, and two tabs of one browser playing two seats. Two browser contexts play a whole 2-player game against
each other through the page while a third watches and never sees a hand (R-ACT-2: hands are hidden; R-END-1:
the final scores). The layout is checked on the way: no empty game panel under the setup form, the scores table
fits, hex ids clear of pieces, a glyph per Nest type from content, Undo off when it cannot be taken, names (not
ids) in the log. Marker `browser`."""
from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_editor_browser import CHROMIUM, need_chromium
from test_service_server import Server

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.browser
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def served(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    """A `kcd serve` on a free port and a Chromium to open it in: (browser, the server's URL); both stopped after."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    server = Server(tmp_path / "games.sqlite3")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                yield browser, f"http://127.0.0.1:{server.port}/"
            finally:
                browser.close()
    finally:
        server.stop()


def page_of(browser, errors: list[str], frames: list[str] | None = None):
    """A new browser context (its own storage: another person) and its page, recording page errors and, when
    asked, every WebSocket frame the page receives."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return page


def seat_token(page) -> str:
    """The seat token this tab keeps (sessionStorage: per tab)."""
    return json.loads(page.evaluate("() => sessionStorage.getItem('kcd.seat')"))["token"]


def create(page, url: str, name: str, whos: list[str], lobby: bool = True) -> list[str]:
    """Create a game from the setup form (seat 0 is "You"); the invite links shown."""
    page.goto(url)
    page.fill("#player-name", name)
    page.select_option("#players", str(len(whos) + 1))
    for i, who in enumerate(whos, start=1):
        page.select_option(f"#seat-{i}-who", who)
    if not lobby:
        page.uncheck("#list-in-lobby")
    page.locator("#start").click()
    page.wait_for_function("() => state.view !== null")
    links = page.locator("input.invite-link")
    return [links.nth(i).input_value() for i in range(links.count())]


def accept(page, link: str, name: str) -> None:
    """Open an invite link, give a name, join."""
    page.goto(link)
    page.locator("#welcome").wait_for()
    page.fill("#welcome-name", name)
    page.locator("#welcome-join").click()
    page.wait_for_function("() => state.view !== null")
    assert "seat=" not in page.url            # the token left the address bar at once


def check_layout(page) -> None:
    """DOM checks of the layout: the scores table fits its panel, hex ids are clear of the pieces (and drawn
    last), every Nest shows its type's glyph from the catalogue, Undo is off exactly when it cannot be taken."""
    found = page.evaluate("""() => {
        const panel = document.getElementById('panel'), table = document.getElementById('scores');
        const overlaps = [];
        const things = [...document.querySelectorAll('#board circle.kiwi, #board polygon.leader, #board g.nest, '
                                                     + '#board polygon.marker')];
        for (const g of document.querySelectorAll('#board g.hex')) {
            const id = g.querySelector('text.hexid');
            const t = id.getBoundingClientRect();
            for (const p of things) {   // any hex's pieces, Nests and markers
                const r = p.getBoundingClientRect();
                if (r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom)
                    overlaps.push(g.dataset.hex);
            }
            if (g.lastElementChild !== id) overlaps.push('not last: ' + g.dataset.hex);
        }
        const clipped = [...table.querySelectorAll('th, td:not(.who)')].filter(c => c.scrollWidth > c.clientWidth + 1)
            .map(c => c.textContent);
        const glyphs = Object.fromEntries(state.catalogue.nests.map(n => [n.id, n.glyph]));
        const nests = [...document.querySelectorAll('#board g.nest')].map(n =>
            [n.dataset.nest, n.querySelector('text').textContent, glyphs[n.dataset.nest]]);
        return {fits: table.getBoundingClientRect().right <= panel.getBoundingClientRect().right + 0.5
                      && table.scrollWidth <= table.clientWidth + 1,
                clipped, overlaps, nests,
                undo: document.getElementById('undo').disabled, canUndo: state.view.can_undo};
    }""")
    assert found["fits"], "the scores table is wider than its panel"
    assert not found["clipped"], found["clipped"]
    assert not found["overlaps"], found["overlaps"]
    assert all(shown == glyph for _, shown, glyph in found["nests"]), found["nests"]
    assert found["undo"] == (not found["canUndo"])


def check_spectator(page) -> None:
    """The spectator's page shows no hand, no options and no seat controls."""
    assert page.locator("#hand .card").count() == 0 and page.locator("#options button").count() == 0
    assert page.locator("#mine").is_hidden() and page.locator("#undo").is_hidden()
    assert page.evaluate("() => state.view.you === null && Object.values(state.view.flocks).every(f => !('hand' in f))")


def test_two_friends_play_a_whole_game_in_the_browser_while_a_spectator_watches(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    friend_frames: list[str] = []
    watcher_frames: list[str] = []
    with served(tmp_path) as (browser, url):
        ann = page_of(browser, errors)
        ann.goto(url)
        expect(ann.locator("#setup")).to_be_visible()
        assert ann.locator("#game").is_hidden()        # no empty game panel under the setup form
        links = create(ann, url, "Ann", ["invite"])
        assert len(links) == 1 and "#seat=" in links[0]
        ann_token = seat_token(ann)
        friend_token = links[0].split("#seat=")[1].split("&")[0]
        assert friend_token != ann_token
        expect(ann.locator("#invites")).to_be_visible()
        ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url.rstrip("/"))
        ann.locator("button.copy-link").click()             # copyable: the link is on the clipboard
        expect(ann.locator("button.copy-link")).to_have_text("Copied")
        assert ann.evaluate("() => navigator.clipboard.readText()") == links[0]
        ann.screenshot(path=str(tmp_path / "invite.png"))
        ann.locator("#invites-done").click()           # shown once: the links are gone from the page
        assert ann.locator("input.invite-link").count() == 0 and ann.locator("#invites").is_hidden()
        assert friend_token not in ann.content()

        bo = page_of(browser, errors, friend_frames)
        accept(bo, links[0], "Bo")
        assert bo.evaluate("() => state.view.you") == "green"

        watcher = page_of(browser, errors, watcher_frames)
        watcher.goto(url)
        row = watcher.locator("#lobby-games tr").first
        expect(row).to_contain_text("Ann (red)")
        expect(row).to_contain_text("Bo (green)")
        watcher.screenshot(path=str(tmp_path / "lobby.png"))
        row.locator("button.watch").click()
        watcher.wait_for_function("() => state.view !== null")
        check_spectator(watcher)

        pages = {"red": ann, "green": bo}
        assert ann.locator("#undo").is_disabled() and bo.locator("#undo").is_disabled()   # nothing yet
        n = 0
        while True:
            view = ann.evaluate("() => ({seq: state.view.seq, over: state.view.over, "
                                "turn: state.view.pending && state.view.pending.player})")
            if view["over"]:
                break
            mover = pages[view["turn"]]
            other = pages["green" if view["turn"] == "red" else "red"]
            mover.wait_for_function("() => document.querySelectorAll('#options button.option').length > 0")
            assert other.locator("#options button.option").count() == 0
            buttons = mover.locator("#options button.option")
            buttons.nth((n * 7 + 3) % buttons.count()).click()
            seq = view["seq"]
            for p in (ann, bo, watcher):     # everyone's page follows the decision
                p.wait_for_function(f"() => state.view.seq > {seq} || state.view.over")
            # the latest decision is the mover's: the other cannot take it back, and its Undo is off
            assert other.locator("#undo").is_disabled()
            if n % 15 == 0:
                check_layout(ann)
                check_layout(bo)
                check_spectator(watcher)
            if n == 60:
                ann.screenshot(path=str(tmp_path / "board.png"))
                if os.environ.get("KCD_SCREENSHOTS"):   # the README's pictures: regenerate on purpose
                    ann.screenshot(path=str(ROOT / "docs" / "images" / "web-board.png"))
            n += 1
        for p in (ann, bo, watcher):
            expect(p.locator("#final-scores")).to_contain_text("VP")
            final = p.locator("#final-scores").inner_text()
            assert "Ann" in final and "Bo" in final
            names = p.locator("#scores td.who").all_inner_texts()
            assert any("Ann" in t for t in names) and any("Bo" in t for t in names)
        check_spectator(watcher)
        assert n >= 40
        # the log names players and cards, never their ids
        card_ids = ann.evaluate("() => state.catalogue.action_cards.map(c => c.id)"
                                ".concat(state.catalogue.season_cards.map(c => c.id))")
        log = " ".join(ann.locator("#log li").all_inner_texts())
        assert "Ann" in log or "Bo" in log
        hyphenated = [c for c in card_ids if "-" in c and re.search(rf"\b{re.escape(c)}\b", log)]
        assert not hyphenated, hyphenated
    assert not errors, errors
    # what reached the friend and the watcher: never another seat's token, never a hand for the watcher
    assert friend_frames and watcher_frames
    assert not any(ann_token in f for f in friend_frames)
    assert not any(ann_token in f or friend_token in f for f in watcher_frames)
    assert not any('"hand":' in f for f in watcher_frames)
    lobby = [json.loads(f) for f in watcher_frames if '"op":"lobby"' in f]
    assert lobby and all("token" not in json.dumps(m) for m in lobby)


def test_two_tabs_of_one_browser_play_the_seats_of_their_links_and_the_lobby_fills_an_open_seat(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    with served(tmp_path) as (browser, url):
        host = page_of(browser, errors)
        links = create(host, url, "Ann", ["invite", "invite", "open"])
        assert len(links) == 2 and links[0] != links[1]
        # one browser (one context, shared localStorage), two tabs, two links: two seats
        first = host.context.new_page()
        second = host.context.new_page()
        accept(first, links[0], "Bo")
        accept(second, links[1], "Cy")
        seats = {p.evaluate("() => state.view.you") for p in (host, first, second)}
        assert seats == {"red", "green", "purple"}
        for p in (first, second):            # a reload keeps each tab on its own seat
            you = p.evaluate("() => state.view.you")
            p.reload()
            p.wait_for_function(f"() => state.view && state.view.you === {json.dumps(you)}")
        # a stranger takes the open seat from the lobby, named
        stranger = page_of(browser, errors)
        stranger.goto(url)
        stranger.fill("#player-name", "Dee")
        row = stranger.locator("#lobby-games tr").first
        expect(row).to_contain_text("open seat (yellow)")
        expect(row).to_contain_text("Bo (green)")
        if os.environ.get("KCD_SCREENSHOTS"):
            stranger.locator("#home").screenshot(path=str(ROOT / "docs" / "images" / "lobby.png"))
        row.locator("button.claim[data-seat=yellow]").click()
        stranger.wait_for_function("() => state.view && state.view.you === 'yellow'")
        expect(host.locator("#scores")).to_contain_text("Dee")
        expect(host.locator("#scores")).to_contain_text("Cy")
        check_layout(host)
        # an unlisted game is not in the lobby
        other = page_of(browser, errors)
        create(other, url, "Eve", ["bot:random"], lobby=False)
        stranger.locator("#new-game").click()
        expect(stranger.locator("#lobby-games tr")).to_have_count(1)
    assert not errors, errors
