"""A real server for the web tests that need one (uvicorn on a free port, in a thread), and
the headless Chromium that drives the page (Debian's ``chromium``, or $ARLE_CHROMIUM, through
Playwright: no browser can be downloaded here; .ci/run installs it with apt-get when it is
missing; without it the browser tests fail, unless deselected with ``-m 'not browser'``).
Screenshots go to a temporary folder, or to $ARLE_WEB_SCREENSHOTS when set (how docs/web-*.png
are made)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn

CHROMIUM = os.environ.get("ARLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
# Without a browser the browser tests fail, never skip in silence: the run says what is
# missing and how to leave them out on purpose.
WITHOUT = "run without the browser tests on purpose: python -m pytest -q -m 'not browser'"


@contextlib.contextmanager
def serving(app):
    """The base URL of ``app`` served as arle serve runs it (uvicorn on a free port, in a
    thread), until the block ends."""
    from arle_ai.web.server import uvicorn_config

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn_config(app)  # as arle serve runs it
    config.host, config.port = "127.0.0.1", port
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.web.stop_all()


@pytest.fixture()
def serve():
    """``serve(app)``: the base URL of ``app`` served until the test ends (a server of the
    test's own: a small store, one search slot)."""
    with contextlib.ExitStack() as stack:
        yield lambda app: stack.enter_context(serving(app))


@pytest.fixture(scope="session")
def live_server():
    """(base URL, WebApp state) of an ``arle serve`` app running in this process."""
    from arle_ai.web.app import create_app

    app = create_app()
    # the tests open more than the 64 games kept within 5 minutes (a person does not): any
    # game unused makes room, as before games in use were kept (test_web_load.py tests that)
    app.state.web.games.in_use_seconds = 0.0
    with serving(app) as base:
        yield base, app.state.web


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium (the tests that use it are marked ``browser``)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install "
                    f"chromium; .ci/run does), or {WITHOUT}", pytrace=False)
    try:
        from playwright import sync_api
    except ModuleNotFoundError:  # the test extra brings it
        pytest.fail(f"the browser tests need playwright (python -m pip install '.[test]'), or "
                    f"{WITHOUT}", pytrace=False)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture()
def open_page(browser, live_server):
    """``open_page(width=1280, height=800)``: the app's page in a new browser context, ready;
    at the end of the test, no page error, failed request or request to another host."""
    contexts = []
    errors: list[str] = []
    offsite: list[str] = []

    def opener(width: int = 1280, height: int = 800, base: str | None = None,
               ready: bool = True):
        """(``base``: another server's page; ``ready``: wait until it shows its game)"""
        base = base or live_server[0]
        context = browser.new_context(viewport={"width": width, "height": height},
                                      accept_downloads=True)
        contexts.append(context)
        pg = context.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("requestfailed", lambda r: None if "ABORTED" in (r.failure or "") else
              errors.append(f"request failed: {r.url} ({r.failure})"))  # cancelling aborts
        pg.on("request", lambda r: None if r.url.startswith(base) or
              r.url.startswith(("blob:", "data:")) else offsite.append(r.url))
        pg.goto(base + "/")
        if ready:
            pg.wait_for_selector("body[data-ready='1']")
        return pg

    yield opener
    assert not errors, errors
    assert not offsite, f"the page fetched from other hosts: {offsite}"
    for context in contexts:
        context.close()


@pytest.fixture()
def page(open_page):
    return open_page()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = os.environ.get("ARLE_WEB_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screens")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def reviewed_record(tmp_path_factory):
    """(record, path, analysis, states): 30 random decisions of seed 5, reviewed at 1,000
    simulations a decision (random moves: several of each player's are marked ? or ??),
    saved with the review as ``arle analyze --save`` saves it."""
    import random

    from arle_ai.formats.records import GameRecord
    from arle_ai.play.analysis import analyze_game
    from arle_ai.search.config import Budget, SearchConfig

    rng = random.Random(5)
    rec = GameRecord.new(seed=5)
    for _ in range(30):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    analysis = analyze_game(rec, budget=Budget(iterations=1000), config=SearchConfig(seed=0))
    rec.review = analysis.to_review()
    path = tmp_path_factory.mktemp("reviewed") / "reviewed.json"
    rec.save(path)
    return rec, path, analysis, list(rec.states())


@pytest.fixture()
def open_reviewed(open_page, reviewed_record):
    """``open_reviewed(width=1280, seats=("human", "ai"))``: the page with the reviewed
    record opened, its seats as given."""

    def opener(width: int = 1280, seats: tuple[str, str] = ("human", "ai")):
        page = open_page(width=width, height=800)
        page.select_option("#seat0", seats[0])
        page.select_option("#seat1", seats[1])
        page.wait_for_function(f"document.querySelector('#seat1').value === '{seats[1]}'")
        page.set_input_files("#load-file", str(reviewed_record[1]))
        page.wait_for_function("document.querySelector('#message').textContent"
                               ".includes('Opened')")
        return page

    return opener
