"""A real server for the web tests that need one: uvicorn on a free port, in a thread."""

from __future__ import annotations

import socket
import threading
import time

import pytest


@pytest.fixture(scope="session")
def live_server():
    """(base URL, WebApp state) of an ``arle serve`` app running in this process."""
    uvicorn = pytest.importorskip("uvicorn")
    from arle_ai.web.app import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app.state.web
    server.should_exit = True
    thread.join(timeout=10)
    app.state.web.stop_all()
