"""The page on a busy server (issue 35), in headless Chromium: an AI move or hint refused for
want of a free search slot (429) waits and asks again, visibly and stoppably; a new game
refused because every game kept is in use (503) says when there will be room and is asked
for again then; a game the server closed is replaced without holding up the moves after it;
a move that would outgrow the game's record says to save it and start a new game; and the
page says what the server keeps. Each failed before the page handled it."""

from __future__ import annotations

import threading

import httpx
import pytest

from arle_ai.play import session as session_module
from arle_ai.web import app as web_app
from arle_ai.web.app import create_app

pytestmark = pytest.mark.browser

IN_USE = 6.0  # seconds a game stays in use on the small server below (300 on arle serve)


@pytest.fixture()
def small_store(serve):
    """``(base, web)``: a server that keeps 2 games, each in use for 6 s after it was used."""
    app = create_app(capacity=2)
    web = app.state.web
    web.games.in_use_seconds = IN_USE
    return serve(app), web


def fill(base: str, count: int) -> list[str]:
    with httpx.Client(base_url=base, timeout=30) as http:
        replies = [http.post("/api/games", json={"seats": ["human", "human"]})
                   for _ in range(count)]
    assert [r.status_code for r in replies] == [200] * count, [r.text for r in replies]
    return [r.json()["id"] for r in replies]


def message(page) -> str:
    return page.inner_text("#message")


def move_count(page) -> int:
    return page.locator("#move-list li").count()


def play_a_move(page) -> None:
    n = move_count(page)
    page.locator("#legal .move-btn:not([disabled])").first.click()
    page.wait_for_function(f"document.querySelectorAll('#move-list li').length > {n}")


# ---- what the server keeps, and a full store (503) ----


def test_the_page_says_how_many_games_the_server_keeps(small_store, open_page):
    base, web = small_store
    page = open_page(base=base)
    terms = page.inner_text("#server-terms")
    assert terms == ("This server keeps 2 games. A game unused for 6 s may be closed to make "
                     "room for a new one, and one unused for 6 hours is closed: Save game "
                     "keeps yours.")
    assert web.games.terms()["idle_seconds"] == 6 * 3600


def test_a_page_opened_on_a_full_server_starts_when_there_is_room(small_store, open_page):
    """Before: 'cannot start: the server keeps 2 games ...', and nothing more."""
    base, web = small_store
    fill(base, 2)
    page = open_page(base=base, ready=False)
    page.wait_for_selector("#room-wait:not([hidden])")
    said = page.inner_text("#room-wait")
    assert said.startswith("The server is full: the server keeps 2 games and every one of "
                           "them was used in the last 6 s"), said
    assert "A new game is asked for again in" in said
    assert page.locator("#room-cancel").count() == 0  # no game to go back to
    assert page.evaluate("document.body.dataset.ready") is None
    with page.expect_response(lambda r: r.url == f"{base}/api/games" and r.status == 503):
        page.click("#room-now")  # asked at once: still full, counting down again
    page.wait_for_selector("#room-wait:not([hidden])")
    page.wait_for_selector("body[data-ready='1']", timeout=15000)  # there was room
    assert page.is_hidden("#room-wait")
    assert page.locator("#legal .move-btn").count() > 0
    play_a_move(page)
    assert len(web.games) == 2


def test_new_game_on_a_full_server_waits_or_is_cancelled(small_store, open_page):
    base, web = small_store
    page = open_page(base=base)
    mine = page.evaluate("sessionStorage.getItem('arle-game')")
    fill(base, 1)
    page.fill("#new-seed", "7")
    page.click("#new-game")
    page.wait_for_selector("#room-wait:not([hidden])")
    assert "the server keeps 2 games" in page.inner_text("#room-wait")
    page.click("#room-cancel")
    page.wait_for_function("document.querySelector('#message').textContent"
                           ".includes('no new game: you cancelled the wait for room')")
    assert page.is_hidden("#room-wait")
    assert page.evaluate("sessionStorage.getItem('arle-game')") == mine
    play_a_move(page)  # the game on the board plays on
    page.click("#new-game")  # asked again, it waits for room: a newer one takes its place,
    page.fill("#new-seed", "9")  # and comes when there is room
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#status').textContent.includes('seed 9')",
                           timeout=20000)
    assert page.evaluate("sessionStorage.getItem('arle-game')") != mine
    assert move_count(page) == 0 and page.is_hidden("#message") and page.is_hidden("#room-wait")


def test_a_tournament_game_opened_on_a_full_server_waits_for_room(small_store, open_page,
                                                                   tmp_path):
    """Opening a tournament's game makes a new game: on a full server it waits for room as
    New game and Open do (before: the server's refusal as the message, and no game)."""
    from arle_ai.play.tournament import Tournament

    base, web = small_store
    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy"], games=2, seed=6).run(out=out)
    page = open_page(base=base)
    fill(base, 1)  # the page's game and this one: the 2 kept, both in use
    page.click("#tab-tournament")
    page.set_input_files("#tournament-file", str(out))
    page.wait_for_selector("#games tr[data-game='1']")
    page.click("#games tr[data-game='1'] button.open-game")
    page.wait_for_selector("#room-wait:not([hidden])")
    assert "the server keeps 2 games" in page.inner_text("#room-wait")
    page.wait_for_function("document.querySelector('#message').textContent"
                           ".includes('Opened game 1 of t.jsonl')", timeout=20000)
    assert page.is_hidden("#room-wait")
    heads = page.locator("#players .player h3").all_inner_texts()
    assert heads[0].startswith("P0 greedy") or heads[0].startswith("P0 random"), heads

def test_a_closed_game_is_replaced_when_there_is_room_and_later_moves_play(small_store,
                                                                            open_page):
    """Before: the 410's new game got the 503, the page's queue of changes rejected, and
    every later move was skipped until the page was reloaded."""
    base, web = small_store
    page = open_page(base=base)
    first = page.evaluate("sessionStorage.getItem('arle-game')")
    fill(base, 1)
    assert web.games.close(first, "closed by the test")
    fill(base, 1)  # the two games kept in use: no room for the page's next game
    page.locator("#legal .move-btn:not([disabled])").first.click()
    page.wait_for_selector("#room-wait:not([hidden])")
    assert message(page).startswith("this game is no longer on the server: it was closed by "
                                    "the test.")
    page.click("#room-cancel")
    page.wait_for_function("document.querySelector('#message').textContent"
                           ".endsWith('No new game: you cancelled the wait for room.')")
    # the changes after it are sent still: this one finds the game closed again, and waits
    page.locator("#legal .move-btn:not([disabled])").first.click()
    page.wait_for_function("document.querySelector('#message').textContent"
                           ".endsWith('A new game was started.')", timeout=15000)
    second = page.evaluate("sessionStorage.getItem('arle-game')")
    assert second != first and web.games.get(second) is not None
    play_a_move(page)
    play_a_move(page)


# ---- the search slots (429) ----


@pytest.fixture()
def one_slot(serve, monkeypatch):
    """``(base, web, take, free)``: a server running one search at a time; ``take()`` fills
    the slot with another game's hint of a minute, ``free()`` stops it."""
    monkeypatch.setattr(web_app, "MAX_JOBS", 1)
    app = create_app()
    web = app.state.web
    base = serve(app)
    with httpx.Client(base_url=base, timeout=90) as http:
        other = http.post("/api/games", json={}).json()["id"]
        threads = []

        def take() -> None:
            started = threading.Event()

            def read() -> None:
                with httpx.Client(base_url=base, timeout=90) as reader:
                    with reader.stream("GET", f"/api/games/{other}/hint?seconds=60") as r:
                        assert r.status_code == 200
                        for _ in r.iter_lines():
                            started.set()
            threads.append(threading.Thread(target=read, daemon=True))
            threads[-1].start()
            assert started.wait(30), "the other game's hint did not start"

        def free() -> None:
            assert http.post(f"/api/games/{other}/stop?kind=hint").status_code == 200
            threads[-1].join(timeout=30)

        yield base, web, take, free
        http.post(f"/api/games/{other}/stop")


def test_the_ai_waits_for_a_free_search_slot(one_slot, open_page):
    """Before: the 429's message, and the AI did not move."""
    base, web, take, free = one_slot
    page = open_page(base=base)
    page.select_option("#seat1", "ai")
    page.fill("#ai-seconds", "0.05")
    take()
    play_a_move(page)  # P1, the AI, is to move: refused, it waits
    page.wait_for_selector("#ai-wait-stop")
    said = page.inner_text("#ai-status")
    assert said.startswith("P1 (AI) is waiting for a free search slot: the server's searches "
                           "are all busy (asking again in "), said
    assert page.is_disabled("#legal .move-btn >> nth=0")  # the AI's decision
    page.click("#ai-wait-stop")  # stops waiting: paused, the decision is yours
    page.wait_for_function("document.querySelector('#ai-status').textContent === "
                           "'P1 (AI) stopped waiting for a free search slot: AI move asks again'")
    assert page.is_enabled("#legal .move-btn >> nth=0") and move_count(page) == 1
    # the wait is bounded: it gives up (here after 1 s) and says so
    page.evaluate("import('/static/api.js').then((m) => { m.SLOT_WAIT.giveUp = 1; })")
    page.click("#ai-move")
    page.wait_for_function("document.querySelector('#ai-status').textContent.startsWith("
                           "'P1 (AI) gave up waiting')", timeout=15000)
    assert "no search slot came free in " in message(page)
    assert "the server is running 1 searches already" in message(page)
    page.evaluate("import('/static/api.js').then((m) => { m.SLOT_WAIT.giveUp = 120; })")
    page.click("#ai-move")  # asked again: it waits until the slot is free, then plays
    page.wait_for_selector("#ai-wait-stop")
    free()
    page.wait_for_function("document.querySelector('#ai-status').textContent.startsWith("
                           "'AI (P1) played')", timeout=30000)
    assert move_count(page) == 2


def test_a_hint_waits_for_a_free_search_slot(one_slot, open_page):
    """Before: the 429's message, and no hint."""
    base, web, take, free = one_slot
    page = open_page(base=base)
    take()
    page.fill("#hint-seconds", "1")
    page.click("#hint-start")
    page.wait_for_function("document.querySelector('#hint-status').textContent.startsWith("
                           "'waiting for a free search slot (asking again in')")
    page.click("#hint-stop")  # stops waiting
    page.wait_for_function("document.querySelector('#hint-status').textContent"
                           ".endsWith(' - stopped')")
    page.click("#hint-start")
    page.wait_for_function("document.querySelector('#hint-status').textContent.startsWith("
                           "'waiting for a free search slot')")
    free()
    page.wait_for_selector("#hint-table .hint-row", timeout=30000)
    page.wait_for_function("document.querySelector('#hint-status').textContent"
                           ".endsWith(' - done')", timeout=30000)
    assert page.is_hidden("#message")


# ---- a record full (409) ----


def test_a_move_beyond_the_records_caps_says_save_and_start_a_new_game(page, live_server,
                                                                        monkeypatch):
    """Before: the server's words alone, for the AI's move too."""
    base, web = live_server
    monkeypatch.setattr(session_module, "MAX_DECISIONS", 2)
    page.select_option("#seat1", "ai")
    page.select_option("#ai-kind", "greedy")
    play_a_move(page)  # and the AI's reply: the game holds 2 decisions
    page.wait_for_function("document.querySelectorAll('#move-list li').length === 2")
    full = page.evaluate("sessionStorage.getItem('arle-game')")
    page.locator("#legal .move-btn:not([disabled])").first.click()  # a third: refused
    page.wait_for_selector("#full-new")
    assert message(page) == ("this game holds 2 decisions with its variations, the most a "
                             "game record keeps: go on along the moves tried already, or save "
                             "it and start a new game from its position. Save game New game "
                             "from this position")
    assert page.get_attribute("#full-save", "href") == f"/api/games/{full}/record"
    with page.expect_download() as saved:
        page.click("#full-save")
    assert saved.value.suggested_filename.endswith(".json")
    page.click("#full-new")
    page.wait_for_function(f"sessionStorage.getItem('arle-game') !== '{full}'")
    page.wait_for_function("document.querySelector('#message').textContent === \"A new game "
                           "from the full game's position after decision 2: play on from "
                           "here.\"")
    new = page.evaluate("sessionStorage.getItem('arle-game')")
    with httpx.Client(base_url=base, timeout=30) as http:
        assert (http.get(f"/api/games/{new}/position").json()
                == http.get(f"/api/games/{full}/position").json())
    play_a_move(page)  # the new game plays on: yours, then the AI's
    page.wait_for_function("document.querySelectorAll('#move-list li').length === 2")
    page.locator("#legal .move-btn:not([disabled])").first.click()  # its record fills too
    page.wait_for_selector("#full-new")
    monkeypatch.undo()
    play_a_move(page)  # the refusal held nothing up
