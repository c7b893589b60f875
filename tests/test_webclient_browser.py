"""The web client in real headless Chromium: start a game against a bot at `/`, play a whole
two-player game by clicks (on the board, a Kiwi then a hex, and in the option list), undo once, SIGKILL and
restart the server (the page reconnects to its seat), reload the page mid-game and continue, to the final scores. Marker `browser`."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from test_service_server import Server

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.browser


def current(page) -> dict:
    """What the client shows now (read from its state, never acted on)."""
    return page.evaluate("""() => {
        const v = state.view;
        if (!v) return null;
        const mine = v.pending && v.pending.player === v.you ? v.pending.options : [];
        return {seq: v.seq, over: v.over, mine: mine.map(o => ({id: o.id, action: o.action, hexes: hexesOf(o)})),
                canUndo: v.can_undo, hexIds: Object.keys(v.hexes)};
    }""")


def wait_settled(page, timeout: float = 60_000) -> dict:
    """Wait until it is our decision (options shown) or the game is over."""
    page.wait_for_function("""() => state.view && (state.view.over ||
        (state.view.pending && state.view.pending.player === state.view.you &&
         document.querySelectorAll('#options button.option').length > 0))""", timeout=timeout)
    return current(page)


def click_hex(page, hex_id: str) -> None:
    """Click a hex where nothing covers it (pieces sit around its centre): the first free point found from its
    centre out towards its corners."""
    point = page.evaluate("""(id) => {
        const poly = document.querySelector(`#hex-${id} polygon`);
        const r = poly.getBoundingClientRect();
        const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
        for (const f of [0, 0.9, 0.8, 0.7]) {
            for (let k = 0; k < 12; k++) {
                const a = Math.PI / 6 * k;
                const x = cx + f * r.width / 2 * Math.sin(a), y = cy - f * r.height / 2 * Math.cos(a);
                if (document.elementFromPoint(x, y) === poly) return [x, y];
            }
        }
        return null;
    }""", hex_id)
    assert point is not None, f"no free point on hex {hex_id}"
    page.mouse.click(point[0], point[1])


def decide(page, info: dict, n: int) -> str:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    """Take one decision by clicks; returns how it was taken: "board" (the clicks on the board alone) or "list"."""
    mine = info["mine"]
    on_board = [o for o in mine if o["hexes"]]
    pool = on_board if on_board and n % 2 == 0 else mine   # every other decision on the board when it can be
    choice = pool[(n * 7 + 3) % len(pool)]
    seq = info["seq"]
    hexes = choice["hexes"]
    how = "list"
    if hexes:
        how = "board"
        kiwi = choice["action"].get("kiwi")
        pieces = page.locator(f'#hex-{hexes[0]} circle.kiwi[data-piece="{kiwi}"]') if kiwi is not None else None
        if pieces is not None and pieces.count():
            pieces.first.click()            # a Kiwi ...
        else:
            click_hex(page, hexes[0])
        if len(hexes) > 1:
            click_hex(page, hexes[-1])      # ... then a hex
    if how == "board":   # the click either applied the option or narrowed the list to the options it matches
        try:
            page.wait_for_function(f"""() => state.view.seq > {seq} ||
                document.querySelectorAll('#options button.match').length > 0""", timeout=15_000)
        except PlaywrightTimeout:   # the board offered no single answer to these clicks: the list decides
            how = "list"
    if current(page)["seq"] == seq:         # not applied by the board alone: several options matched
        how = "list"
        if page.locator("#clear-selection").is_visible():
            page.locator("#clear-selection").click()
        page.locator(f'#options button[data-option="{choice["id"]}"]').click()
    page.wait_for_function(f"() => state.view && state.view.seq > {seq}", timeout=60_000)
    return how


def test_play_a_whole_game_against_a_bot_by_clicks_to_the_final_scores(tmp_path: Path) -> None:
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: the browser test must run in CI")
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium)")
    from playwright.sync_api import expect, sync_playwright

    server = Server(tmp_path / "games.sqlite3")
    errors: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"])
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.set_default_timeout(60_000)
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(f"http://127.0.0.1:{server.port}/")
                expect(page.locator("#setup")).to_be_visible()
                page.select_option("#players", "2")
                page.select_option("#seat-0-flock", "red")
                page.select_option("#seat-1-flock", "green")
                page.select_option("#seat-1-who", "bot:greedy")
                page.select_option("#seat-0-leader", index=1)
                page.locator("#start").click()
                expect(page.locator("#board polygon").first).to_be_visible()
                expect(page.locator("#legend")).to_contain_text("Kiwi")
                expect(page.locator("#hand .card").first).to_be_visible()
                ways = {"board": 0, "list": 0}
                undone = reloaded = restarted = False
                refused: set[int] = set()
                highlighted = recent = 0
                n = 0
                while True:
                    info = wait_settled(page)
                    if info["over"]:
                        break
                    if not undone and n >= 3 and info["canUndo"] and n not in refused:
                        seq = info["seq"]
                        page.locator("#undo").click()
                        # taken back, or refused by the engine with its reason shown (something was revealed)
                        page.wait_for_function(f"() => state.view.seq < {seq} || !document.getElementById('error').hidden")
                        if current(page)["seq"] < seq:
                            undone = True
                        else:
                            expect(page.locator("#error")).to_contain_text("undo")
                            refused.add(n)
                        continue
                    if not restarted and n >= 25:   # the server is killed and started again: the page reconnects
                        seq = info["seq"]
                        server.kill()
                        expect(page.locator("#connection")).to_contain_text("reconnecting")
                        server.start()
                        expect(page.locator("#connection")).to_have_text("connected", timeout=60_000)
                        page.wait_for_function(f"() => state.view && state.view.seq === {seq}")
                        restarted = True
                        continue
                    if not reloaded and n >= 40:
                        seq = info["seq"]
                        page.reload()
                        expect(page.locator("#game")).to_be_visible()
                        page.wait_for_function(f"() => state.view && state.view.seq === {seq}")
                        reloaded = True
                        continue
                    # the bot's moves since our last decision: highlighted on the board and in the log
                    highlighted += page.locator("#board .hex.changed").count() > 0
                    recent += page.locator("#log li.recent").count() > 0
                    ways[decide(page, info, n)] += 1
                    n += 1
                expect(page.locator("#final-scores")).to_contain_text("VP")
                final = page.locator("#final-scores").inner_text()
                assert "red" in final and "green" in final
                assert page.locator("#scores tr[data-flock]").count() == 2
                assert undone and reloaded and restarted
                assert ways["board"] >= 10 and ways["list"] >= 5 and n >= 40, ways   # both ways of choosing
                assert highlighted >= 5 and recent >= 5, (highlighted, recent)
                assert page.locator("#hex-A1").count() == 1
            finally:
                browser.close()
    finally:
        server.stop()
    assert not errors, errors
