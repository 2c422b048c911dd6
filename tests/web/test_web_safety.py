"""The server against hostile pages and connections (issue 29, reproductions 3, 4, 5, 10):
requests from other sites' pages, Host headers of other names, idle and slow connections,
malformed HTTP and clients that go away; every refusal is JSON."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import threading
import time

import pytest
from starlette.testclient import TestClient

from arle_ai.web import app as web_app
from arle_ai.web import server as web_server
from arle_ai.web.app import create_app
from arle_ai.web.guard import host_name
from arle_ai.web.server import allowed_hosts, machine_hosts

OWN = "http://testserver"
TEXT = {"content-type": "text/plain"}


@pytest.fixture()
def client():
    with TestClient(create_app(allowed_hosts=["testserver"])) as c:
        yield c


def error(r, status: int) -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    return r.json()["error"]


# ---- other sites' pages (reproduction 3) ----


def test_a_text_plain_post_from_another_site_is_refused(client):
    """A page elsewhere could post text/plain (no preflight) and play, undo or start games."""
    r = client.post("/api/games", content=b'{"seed": 1}',
                    headers={**TEXT, "origin": "http://evil.example"})
    assert "another site's page is refused" in error(r, 403)
    gid = client.post("/api/games", json={}, headers={"origin": OWN}).json()["id"]
    for path in (f"/api/games/{gid}/undo", f"/api/games/{gid}/stop", "/api/games"):
        r = client.post(path, headers={"origin": "http://127.0.0.1:9999"})  # another port
        assert "its Origin 'http://127.0.0.1:9999' is not 'http://testserver'" in error(r, 403)
    r = client.post("/api/games", json={}, headers={"origin": "null"})  # a sandboxed frame
    assert error(r, 403)


def test_pages_elsewhere_cannot_crowd_out_the_users_games():
    """64 cross-site posts used to replace every game of the user's tabs."""
    with TestClient(create_app(allowed_hosts=["testserver"], capacity=4)) as c:
        mine = c.post("/api/games", json={"seed": 3}).json()["id"]
        for _ in range(10):
            c.post("/api/games", content=b"{}", headers={**TEXT, "origin": "http://evil.example"})
            c.post("/api/games", data={"seed": "1"})  # a form post, no Origin (old browser)
        assert c.get(f"/api/games/{mine}").status_code == 200
        assert len(c.app.state.web.games) == 1


def test_a_body_must_be_json_by_its_content_type(client):
    assert "Content-Type: application/json (it was text/plain)" in error(
        client.post("/api/games", content=b"{}", headers=TEXT), 415)
    assert "(it was application/x-www-form-urlencoded)" in error(
        client.post("/api/games", data={"seed": "1"}), 415)
    assert "(it was none)" in error(client.post("/api/games", content=b"{}"), 415)
    r = client.post("/api/games", content=b"{}",
                    headers={"content-type": "application/json; charset=utf-8", "origin": OWN})
    assert r.status_code == 200, r.text
    gid = r.json()["id"]
    # a bodiless post (the page's Stop, its beacon when it closes) needs no type
    assert client.post(f"/api/games/{gid}/stop", headers={"origin": OWN}).status_code == 200


def test_the_browsers_cross_site_mark_is_refused_on_the_api(client):
    for site in ("cross-site", "same-site"):
        r = client.get("/api/catalog", headers={"sec-fetch-site": site})
        assert f"(Sec-Fetch-Site: {site})" in error(r, 403)
    assert client.get("/api/catalog", headers={"sec-fetch-site": "same-origin"}).status_code \
        == 200
    assert client.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200  # a link


# ---- Host names (reproduction 4) ----


@pytest.mark.parametrize("header, name", [
    ("127.0.0.1:8765", "127.0.0.1"), ("[::1]:8765", "::1"), ("LocalHost.:80", "localhost"),
    ("example.org", "example.org"), ("::1", "::1"), ("[fe80::1%25eth0]", "fe80::1%25eth0"),
])
def test_host_names_are_read_without_port_brackets_or_case(header, name):
    assert host_name(header) == name


def test_a_wildcard_bind_accepts_the_machines_names_and_allowed_ones_only():
    hosts = allowed_hosts("0.0.0.0", ("arle.lan",))
    assert "*" not in hosts
    assert {"127.0.0.1", "localhost", "::1", socket.gethostname(), "arle.lan"} <= set(hosts)
    assert machine_hosts() <= set(hosts)
    with TestClient(create_app(allowed_hosts=hosts)) as c:
        for good in (f"{socket.gethostname()}:8765", "ARLE.lan", "[::1]:8765"):
            assert c.get("/api/catalog", headers={"host": good}).status_code == 200, good
        r = c.get("/api/catalog", headers={"host": "rebound.evil.example:8765"})
        assert "does not name this server" in error(r, 400)
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]


def test_arle_serve_on_every_address_refuses_other_host_names():
    """`arle serve --host 0.0.0.0` accepted any Host header (DNS rebinding could read)."""
    import urllib.error
    import urllib.request

    p = subprocess.Popen([sys.executable, "-m", "arle_cli.entry", "serve", "--host", "0.0.0.0",
                          "--port", "0", "--allow-host", "board.lan"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stderr is not None
        line = p.stderr.readline()
        port = int(line.split(":")[-1].split("/")[0])

        def get(host: str) -> tuple[int, dict]:
            req = urllib.request.Request(f"http://127.0.0.1:{port}/api/catalog",
                                         headers={"Host": host})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as exc:
                return exc.code, json.loads(exc.read())

        assert get("evil.example")[0] == 400
        assert "does not name this server" in get("evil.example:80")[1]["error"]
        assert get(f"{socket.gethostname()}:{port}")[0] == 200
        assert get(f"board.lan:{port}")[0] == 200
    finally:
        p.kill()
        p.wait()


# ---- connections (reproduction 5): a real server, as arle serve runs it ----


class Served:
    def __init__(self) -> None:
        import uvicorn

        self.app = create_app()
        config = web_server.uvicorn_config(self.app)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config.host, config.port = "127.0.0.1", self.port
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive(), "no server"
            time.sleep(0.02)

    def connect(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        return s

    def exchange(self, data: bytes, sock: socket.socket | None = None) -> bytes:
        """Send ``data`` and read until the server closes the connection."""
        s = sock or self.connect()
        with s:
            if data:
                s.sendall(data)
            out = b""
            while chunk := s.recv(65536):
                out += chunk
        return out

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.app.state.web.stop_all()


@pytest.fixture()
def served():
    s = Served()
    yield s
    s.stop()


def _json_answer(raw: bytes, status: int) -> str:
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.split(b" ", 2)[1] == str(status).encode(), raw[:300]
    assert b"content-type: application/json" in head.lower(), head
    return json.loads(body)["error"]


GET = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def test_idle_connections_do_not_hold_the_server(served):
    """200 idle connections made every other request a 503 for as long as they stayed."""
    idle = [served.connect() for _ in range(web_server.MAX_CONNECTIONS + 50)]
    try:
        answer = served.exchange(GET)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    finally:
        for s in idle:
            s.close()


def test_a_slow_request_head_is_answered_408_and_an_idle_connection_closed(served, monkeypatch):
    monkeypatch.setattr(web_server, "HEAD_SECONDS", 0.3)
    assert "head did not arrive within 0.3 s" in _json_answer(
        served.exchange(b"GET /api/catalog HTTP/1.1\r\nHost: 127."), 408)
    assert served.exchange(b"") == b""  # nothing sent: closed without a word


def test_a_slow_body_is_answered_408(served, monkeypatch):
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.3)
    request = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
               b"\r\nContent-Length: 50\r\n\r\n{\"se")
    assert "body did not arrive within 0.3 s" in _json_answer(served.exchange(request), 408)


def test_when_every_connection_is_busy_the_503_is_json(served, monkeypatch):
    monkeypatch.setattr(web_server, "MAX_CONNECTIONS", 3)
    busy = []
    try:
        for _ in range(3):  # each in the middle of sending its body: busy, not idle
            s = served.connect()
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 50\r\n\r\n{")
            busy.append(s)
        end = time.monotonic() + 30  # until the server has taken all three requests
        while len(served.server.server_state.tasks) < 3:
            assert time.monotonic() < end
            time.sleep(0.02)
        assert "3 connections busy" in _json_answer(served.exchange(GET), 503)
    finally:
        for s in busy:
            s.close()


def test_malformed_http_is_answered_with_json(served):
    assert "not an HTTP request" in _json_answer(served.exchange(b"HELLO\x00 there\r\n\r\n"),
                                                 400)


def test_a_client_gone_mid_body_is_no_error_in_the_log(served):
    """It logged a 30-line 'Exception in ASGI application' traceback."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(level=logging.WARNING)
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(keep)
    try:
        s = served.connect()
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  b"application/json\r\nContent-Length: 1000\r\n\r\n{\"seed\": ")
        end = time.monotonic() + 30
        while not served.server.server_state.tasks:  # the app is reading the body
            assert time.monotonic() < end
            time.sleep(0.02)
        s.close()
        while served.server.server_state.tasks:  # ...and has finished with it
            assert time.monotonic() < end
            time.sleep(0.02)
    finally:
        logger.removeHandler(keep)
    assert [r.getMessage() for r in records] == []


# ---- an AI that needs no search never waits for a search slot (reproduction 10) ----


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_instant_ai_moves_need_no_search_slot(client, monkeypatch, kind):
    """Four hints in other tabs made an instant random or greedy move answer 429."""
    monkeypatch.setattr(web_app, "MAX_JOBS", 0)  # every search slot taken
    gid = client.post("/api/games", json={"seed": 2}).json()["id"]
    assert "searches already" in error(client.get(f"/api/games/{gid}/hint?seconds=1"), 429)
    r = client.post(f"/api/games/{gid}/ai", json={"ai": {"kind": kind}})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["ply"] == 1 and r.json()["ai"]["agent"] == kind
    assert "searches already" in error(
        client.post(f"/api/games/{gid}/ai", json={"ai": {"kind": "mcts", "seconds": 1}}), 429)
