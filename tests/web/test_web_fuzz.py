"""Property tests of the web API with malformed requests: every endpoint, bodies of any JSON
shape (nested, oddly typed, huge numbers, deep nesting), broken bytes, odd query strings.
The bar: never a 500; an error is a JSON object with a one-line 'error'; a refused request
changes no game. Searches are not started (a stand-in refuses them with 418), so the tests
stay fast."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.exceptions import HTTPException
from starlette.testclient import TestClient

import arle_ai
from arle_ai.formats.records import GameRecord
from arle_ai.web import app as web_app

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

ODD_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63 - 2, max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["", "0", "-1", "1e999", "human", "ai", "mcts", "standard", "first-game",
                     "place fisherman", "x" * 500, "\x00", "NaN"]),
)
JSON_VALUES = st.recursive(ODD_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12)
KEYS = ["action", "move", "ply", "seats", "ai", "seed", "variant", "position", "record", "text",
        "kind", "seconds", "format", "moves", "start"]
BODIES = st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=4)


def _no_search(self, gid, kind, args, deadline):
    raise HTTPException(418, "no searches in the fuzz tests")


@pytest.fixture(scope="module")
def client():
    mp = pytest.MonkeyPatch()
    mp.setattr(web_app.WebApp, "_start", _no_search)
    with TestClient(web_app.create_app(allowed_hosts=["testserver"]),
                    raise_server_exceptions=False) as c:
        yield c
    mp.undo()


@pytest.fixture(scope="module")
def gid(client):
    """A game with a few decisions played (undo, redo and goto have something to do)."""
    r = client.post("/api/games", json={"seed": 3})
    gid = r.json()["id"]
    state = arle_ai.new_game(seed=3)
    for _ in range(3):
        a = state.legal_actions()[0]
        state.apply(a)
        assert client.post(f"/api/games/{gid}/move", json={"action": a}).status_code == 200
    return gid


def check(r, before=None, client=None, gid=None) -> None:
    """Not a 500; an error has a one-line message; a refused request changed no game."""
    assert r.status_code < 500 or r.status_code == 503, (r.status_code, r.text[:500])
    if r.status_code >= 400:
        message = r.json()["error"]
        assert isinstance(message, str) and message and "\n" not in message
        assert len(message) < 2000, message[:200]
        if before is not None:
            assert client.get(f"/api/games/{gid}").json() == before


POSTS = ["/api/games", "/api/games/{gid}/move", "/api/games/{gid}/goto",
         "/api/games/{gid}/seats", "/api/games/{gid}/ai", "/api/position/check",
         "/api/tournament", "/api/games/{gid}/undo", "/api/games/{gid}/redo",
         "/api/games/{gid}/stop"]


@SETTINGS
@given(path=st.sampled_from(POSTS), body=BODIES)
def test_post_endpoints_refuse_odd_json_bodies_cleanly(client, gid, path, body):
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(path.format(gid=gid), json=body)
    check(r, before if r.status_code >= 400 else None, client, gid)


@SETTINGS
@given(path=st.sampled_from(POSTS), body=JSON_VALUES)
def test_post_endpoints_refuse_any_json_value(client, gid, path, body):
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(path.format(gid=gid), content=json.dumps(body),
                    headers={"content-type": "application/json"})
    check(r, before if r.status_code >= 400 else None, client, gid)


RAW = [b"", b"{", b"[" * 100_000, b"{\"a\":" * 50_000, b"1" * 10_000, b"{\"seed\": " +
       b"9" * 5000 + b"}", b"\xff\xfe", b"{\"seed\": NaN}", b"{\"seed\": Infinity}",
       b"{\"seed\": 1e999}", b"{\"text\": \"\\ud800\"}", b"\x00", b"null", b"[]",
       b"{\"text\": \"" + b"[" * 100_000 + b"\"}", b"{\"ply\": -0.0}",
       b"{\"action\": 1e300}", b"{\"action\": 99999999999999999999999}"]


@pytest.mark.parametrize("path", POSTS)
def test_post_endpoints_refuse_broken_bytes(client, gid, path):
    for raw in RAW:
        before = client.get(f"/api/games/{gid}").json()
        r = client.post(path.format(gid=gid), content=raw,
                        headers={"content-type": "application/json"})
        check(r, before if r.status_code >= 400 else None, client, gid)


@SETTINGS
@given(field=st.sampled_from(["text", "record", "position"]), value=JSON_VALUES)
def test_uploaded_files_of_any_shape_are_refused_cleanly(client, field, value):
    """A record or position inside the body (or inside 'text'), damaged anywhere."""
    data = GameRecord.new(seed=1).to_dict() if field == "record" else \
        arle_ai.new_game(seed=1).to_dict()
    if isinstance(value, dict):
        data.update(value)
    else:
        data[next(iter(data))] = value
    body = {field: json.dumps(data) if field == "text" else data}
    check(client.post("/api/games", json=body))
    check(client.post("/api/position/check", json={"position": data}))


QUERIES = st.dictionaries(st.sampled_from(["seconds", "seed", "iterations", "kind", "x"]),
                          st.one_of(st.text(max_size=20), st.sampled_from(
                              ["nan", "inf", "-1", "1e999", "9" * 400, "", "hint"])),
                          max_size=3)


@SETTINGS
@given(path=st.sampled_from(["/api/games/{gid}/hint", "/api/games/{gid}/analysis",
                             "/api/games/{gid}", "/api/games/{gid}/record",
                             "/api/games/{gid}/position", "/api/catalog"]), query=QUERIES)
def test_get_endpoints_refuse_odd_queries_cleanly(client, gid, path, query):
    check(client.get(path.format(gid=gid), params=query))


@pytest.mark.parametrize("gid_text", ["", "x" * 5000, "..", "%00", "null", "0" * 64])
def test_unknown_game_ids_are_404(client, gid_text):
    r = client.post(f"/api/games/{gid_text}/move", json={"action": 1})
    assert r.status_code in (404, 405), r.text


@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "-" + "9" * 5000, " 7 "])
def test_integer_query_parameters_of_odd_digits_are_400(client, gid, value):
    """'²'.isdigit() is true and int('²') fails; int() refuses 5000 digits: both were 500s."""
    for path, name in ((f"/api/games/{gid}/hint", "seed"),
                       (f"/api/games/{gid}/analysis", "iterations")):
        r = client.get(path, params={name: value})
        if value == "٣" or value == " 7 ":  # a decimal digit: a valid (small) number
            assert r.status_code in (400, 418), r.text
            continue
        assert r.status_code == 400, r.text
        message = r.json()["error"]
        assert name in message and len(message) < 200, message
