"""API tests of the web app (arle serve): every endpoint, with good and bad input."""

from __future__ import annotations

import json
import math
import re
import threading
import time

import pytest
from starlette.testclient import TestClient

import arle_ai
from arle_ai.engine.testing import play_random_game
from arle_ai.formats.records import GameRecord, load_record
from arle_ai.play.tournament import Tournament
from arle_ai.text.notation import action_label
from arle_ai.web import app as web_app
from arle_ai.web.app import MAX_BODY, create_app

# the module's tests share one server: a store with room for all their games (the default 64
# games, each in use for 5 minutes, filled up before the last tests and refused their games,
# 503; the store's bounds are tested on servers of their own)
MODULE_GAMES = 1024


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(allowed_hosts=["testserver"], capacity=MODULE_GAMES)) as c:
        yield c


def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()["id"], r.json()["game"]


def error(r, status):
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return message


def lines(client, url):
    with client.stream("GET", url) as s:
        assert s.status_code == 200
        return [json.loads(line) for line in s.iter_lines() if line.strip()]


# ---- catalog and the page ----

def test_page_and_assets_are_served(client):
    # (the page is native ES modules since issue 36: app.js is a module script, and imports
    # the others, each served as JavaScript)
    r = client.get("/")
    assert r.status_code == 200 and '<script type="module" src="/static/app.js">' in r.text
    for asset in ("app.js", "app.css", "favicon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200
    modules, seen = ["app.js"], set()
    while modules:
        name = modules.pop()
        seen.add(name)
        got = client.get(f"/static/{name}")
        assert got.status_code == 200 and "javascript" in got.headers["content-type"], name
        modules += [m for m in re.findall(r'from "\./([\w.]+\.js)"', got.text) if m not in seen]
    assert {"state.js", "api.js", "editor.js", "gameboard.js", "homeboard.js"} <= seen
    # fully offline: the page loads nothing from another host
    for asset in ("/", "/static/app.css", *(f"/static/{m}" for m in sorted(seen))):
        assert "http://" not in client.get(asset).text.replace("http://www.w3.org", "")
        assert "https://" not in client.get(asset).text


def test_catalog_has_printed_names(client):
    cat = client.get("/api/catalog").json()
    assert len(cat["spaces"]) == 30 and len(cat["tools"]) == 10
    grocer = next(sp for sp in cat["spaces"] if sp["key"] == "summer_grocer")
    assert grocer["name"] == "Grocer" and cat["names"]["summer_grocer"] == "Grocer (summer)"
    assert grocer["text"] == arle_ai.engine.rules.action_space("summer_grocer").text  # hover
    assert {b["key"] for b in cat["buildings"]} == {b.key for b in arle_ai.engine.rules.BUILDINGS}
    assert cat["variants"] == ["standard", "first-game"]


# ---- new games ----

def test_new_game_opens_on_the_standard_opening(client):
    _, game = new(client)
    assert game["position"] == arle_ai.new_game(seed=0).to_dict()
    assert game["setup"] == {"seed": 0, "variant": "standard"}
    assert game["ply"] == 0 and game["seats"] == ["human", "ai"]
    legal = {m["text"]: m for m in game["legal"]}
    assert legal["place summer_grocer"]["label"] == "place Grocer"  # printed names
    fisherman = legal["place fisherman"]  # the option shows what it brings and costs
    assert fisherman["gain"] == "3 food, 1 sheep" and fisherman["vp"] == 2
    assert fisherman["done"] == "Fish Traps 2 -> 3"  # said as done, never "get Fish Traps..."
    assert fisherman["amounts"] == ["+3 food", "+1 sheep"]  # as arle play's menu says them
    assert legal["place colonist"]["cost"] == ""
    assert game["breakdown"][0] == arle_ai.new_game(seed=0).score_breakdown(0)


def test_new_game_from_seed_variant_position_record_and_text(client):
    _, g = new(client, seed=5, variant="first-game")
    assert g["position"] == arle_ai.new_game(seed=5, variant="first-game").to_dict()
    pos = arle_ai.new_game(seed=2).to_dict()
    _, g = new(client, position=pos)
    assert g["position"] == pos and g["setup"] is None
    rec = _record(seed=1, plies=12)
    _, g = new(client, record=rec.to_dict())
    assert g["ply"] == g["length"] == 12
    _, g = new(client, text=rec.to_json())
    assert g["length"] == 12 and [m["text"] for m in g["moves"]] == rec.moves()
    _, g = new(client, text=json.dumps(pos), seats=["ai", "ai"])
    assert g["position"] == pos and g["seats"] == ["ai", "ai"]


@pytest.mark.parametrize("body, status, words", [
    ({"seed": -1}, 400, "seed must be an integer"),
    ({"seed": "x"}, 400, "seed must be an integer"),
    ({"seed": True}, 400, "seed must be an integer"),
    ({"seed": 2**64}, 400, "seed must be an integer"),
    ({"variant": "huge"}, 400, "variant must be one of"),
    ({"seats": ["human"]}, 400, "seats must be two of"),
    ({"seats": ["human", "py:evil.Agent"]}, 400, "seats must be two of"),
    ({"position": {"half_year": 12}}, 422, "invalid position"),
    ({"position": "nope"}, 422, "invalid position"),
    ({"record": {"format": "arle-game-record", "setup": {"seed": 0}, "moves": ["fly"]}},
     422, "move 1 ('fly')"),
    ({"record": []}, 422, "invalid game record"),
    ({"text": "{not json"}, 400, "the file is not JSON"),
    ({"text": 7}, 400, "text must be"),
])
def test_new_game_refuses_bad_input(client, body, status, words):
    assert words in error(client.post("/api/games", json=body), status)


def test_bodies_are_checked_and_bounded(client):
    def post(content, **headers):
        return client.post("/api/games", content=content,
                           headers={"content-type": "application/json", **headers})

    assert "JSON object" in error(post(b""), 400)
    assert "malformed JSON" in error(post(b"{"), 400)
    assert "must be a JSON object" in error(client.post("/api/games", json=[1, 2]), 400)
    assert "UTF-8" in error(post(b'{"a": "\xff"}'), 400)
    huge = b'{"text": "' + b"x" * (MAX_BODY + 10) + b'"}'
    assert "larger than the limit" in error(post(huge), 413)

    def chunks():  # no Content-Length: the limit is applied while reading
        yield b'{"text": "'
        for _ in range(MAX_BODY // 2**20 + 2):
            yield b"x" * 2**20
        yield b'"}'
    assert "larger than the limit" in error(post(chunks()), 413)
    r = post(b"{}", **{"content-length": "abc"})
    assert r.status_code in (400, 413)


def test_unknown_routes_games_and_hosts(client):
    assert "no game" in error(client.get("/api/games/nope"), 404)
    assert error(client.get("/api/nothing"), 404)
    assert error(client.get("/api/games"), 405)
    with TestClient(create_app()) as other:  # only 127.0.0.1 and localhost are accepted
        assert other.get("/", headers={"host": "evil.example"}).status_code == 400
        assert other.get("/api/catalog", headers={"host": "127.0.0.1:8765"}).status_code == 200


# ---- play ----

def test_moves_by_id_and_notation_and_illegal_moves(client):
    gid, g = new(client, seats=["human", "human"])
    first = g["legal"][2]
    r = client.post(f"/api/games/{gid}/move", json={"action": first["action"]})
    assert r.status_code == 200
    g = r.json()["game"]
    assert g["ply"] == 1 and g["moves"][0]["text"] == first["text"]
    assert g["moves"][0]["player"] == 0 and g["moves"][0]["event"].startswith(first["label"])
    text = g["legal"][0]["text"]
    g = client.post(f"/api/games/{gid}/move", json={"move": text.upper()}).json()["game"]
    assert g["ply"] == 2
    before = client.get(f"/api/games/{gid}").json()["game"]
    assert "illegal move" in error(client.post(f"/api/games/{gid}/move", json={"action": 672}),
                                   422)
    said = error(client.post(f"/api/games/{gid}/move", json={"action": 43}), 422)
    assert "action 43 (\"use Carpenter's Workshop\") is not legal now" in said  # printed names
    assert "'place Fisherman'" in said and "summer_grocer" not in said, said
    assert "not an action text" in error(
        client.post(f"/api/games/{gid}/move", json={"move": "place nowhere"}), 422)
    assert error(client.post(f"/api/games/{gid}/move", json={"action": -5}), 422)
    assert error(client.post(f"/api/games/{gid}/move", json={"action": 10**30}), 422)
    assert "integer" in error(client.post(f"/api/games/{gid}/move", json={"action": "3"}), 400)
    assert "integer" in error(client.post(f"/api/games/{gid}/move", json={"action": True}), 400)
    assert "text" in error(client.post(f"/api/games/{gid}/move", json={"move": 3}), 400)
    assert "needs 'action'" in error(client.post(f"/api/games/{gid}/move", json={}), 400)
    assert client.get(f"/api/games/{gid}").json()["game"] == before  # nothing changed


def test_a_repeated_conversion_is_answered_with_a_count(client):
    # issue 34: the Tanner is asked as "how many", each answer with its effect, played with
    # {"count": n}; the count 0 is told as converting nothing
    from helpers import place, position

    gid, g = new(client, position=position({"goods": {"hide": 3, "leather": 0}}, half_year=2),
                 seats=["human", "human"])
    assert g["counts"] is None
    g = client.post(f"/api/games/{gid}/move", json={"action": place("tanner")}).json()["game"]
    assert g["prompt"] == "P0 - Tanner: how many hides do you turn into leather? (0-3)"
    assert [c["count"] for c in g["counts"]] == [0, 1, 2, 3]
    two = g["counts"][2]
    assert two["label"] == "2 hide into 2 leather" and two["text"] == "more, more, stop"
    assert two["amounts"] == ["-2 hide", "+2 leather"] and two["vp"] == 2
    assert g["counts"][0]["label"] == "none" and g["counts"][0]["amounts"] == []
    before = client.get(f"/api/games/{gid}").json()["game"]
    for bad in (4, -1, "2", 2.5, None, True, 10**30):
        assert "illegal move" in error(client.post(f"/api/games/{gid}/move",
                                                   json={"count": bad}), 422)
    assert client.get(f"/api/games/{gid}").json()["game"] == before  # nothing changed
    g = client.post(f"/api/games/{gid}/move", json={"count": 2}).json()["game"]
    assert g["ply"] == 4 and g["to_move"] == 1 and g["counts"] is None
    assert g["position"]["players"][0]["goods"]["leather"] == 2
    g = client.post(f"/api/games/{gid}/undo", json={}).json()["game"]
    assert g["ply"] == 1  # the count is taken back whole
    g = client.post(f"/api/games/{gid}/move", json={"count": 0}).json()["game"]
    # the count 0 as the question lists it; the log says what it did, as arle play does
    assert g["moves"][-1]["label"] == "Tanner: none" and g["to_move"] == 1
    assert g["moves"][-1]["event"] == "Tanner: converted nothing"
    assert "no count is asked" in error(client.post(f"/api/games/{gid}/move",
                                                    json={"count": 0}), 422)


def test_the_move_list_and_the_log_read_a_count_as_the_answer_given(client):
    # issue 34: the move list and the event log said "Tanner once more", "Tanner once more",
    # "stop" where the player answered "how many hides?" with 2
    from helpers import MORE, place, position

    gid, g = new(client, position=position({"goods": {"hide": 3, "leather": 0}}, half_year=2),
                 seats=["human", "human"])
    client.post(f"/api/games/{gid}/move", json={"action": place("tanner")})
    g = client.post(f"/api/games/{gid}/move", json={"count": 2}).json()["game"]
    moves = g["moves"]
    assert [m["text"] for m in moves] == ["place tanner", "more", "more", "stop"]
    # one answer, on its last move; the moves before it fold into it (the count so far)
    assert [m["inner"] for m in moves] == [False, True, True, False]
    assert [m["label"] for m in moves] == ["place Tanner", "Tanner: 1 hide into 1 leather",
                                          "Tanner: 2 hide into 2 leather",
                                          "Tanner: 2 hide into 2 leather"]
    # the log's entry says what the whole count did
    assert moves[-1]["event"] == "Tanner: 2 hide into 2 leather: -2 hide, +2 leather (+2 VP)"
    assert not any("once more" in m["label"] + m["event"] for m in moves), moves
    assert [n["inner"] for n in g["tree"]] == [False, True, True, False]
    # the count answered up to each move (what the mistakes mode judges a count by)
    assert [m["count"] for m in moves] == [None, 1, 2, 2]
    assert [n["count"] for n in g["tree"]] == [None, 1, 2, 2]
    # another count from the same question: a variation, read as its own answer
    client.post(f"/api/games/{gid}/goto", json={"ply": 1})
    g = client.post(f"/api/games/{gid}/move", json={"count": 3}).json()["game"]
    # the last more ended the action: no stop, and no inner move left at its end
    assert [m["text"] for m in g["moves"]] == ["place tanner", "more", "more", "more"]
    assert g["moves"][-1]["label"] == "Tanner: 3 hide into 3 leather"
    assert [m["inner"] for m in g["moves"]] == [False, True, True, False]
    # a count in the making (the AI's, a move at a time): the count so far
    client.post(f"/api/games/{gid}/goto", json={"ply": 1})
    g = client.post(f"/api/games/{gid}/move", json={"action": MORE}).json()["game"]
    shown = g["moves"][g["ply"] - 1]
    assert g["ply"] == 2 and shown["inner"], shown
    assert shown["label"] == "Tanner: 1 hide into 1 leather" and shown["count"] == 1
    assert shown["event"] == "Tanner: 1 hide into 1 leather: -1 hide, +1 leather (+1 VP)"


def test_the_event_log_ends_with_the_game(client):
    game = play_random_game(2)
    rec = GameRecord.new(seed=2)
    for a in game.actions:
        rec.push(a)
    assert rec.final_state().is_terminal()
    _, g = new(client, record=rec.to_dict())
    steps = [s for m in g["moves"] for s in m["steps"]]
    assert "half-year 8 over; half-year 9 (summer) begins" in steps
    # no half-year after the ninth: its last actions (this game), or the end
    assert steps[-1] == "half-year 9 over; last actions before final scoring"


def test_the_event_log_tells_each_move_and_inventorying_step(client):
    rec = _record(seed=6, plies=80)
    gid, g = new(client, record=rec.to_dict())
    first = g["moves"][0]
    assert first["event"].startswith(first["label"] + ": ")
    steps = [s for m in g["moves"] for s in m["steps"]]
    assert any(s.startswith("feeding (half-year 1): P") for s in steps), steps
    assert "half-year 1 over; half-year 2 (winter) begins" in steps, steps
    # as arle play says it: no step that changed nothing, a move that changed nothing alone
    assert not [s for s in steps if s.endswith("nothing")], steps
    for m in g["moves"]:
        # (a count of none says what it did: "Tanner: converted nothing")
        assert (m["event"] == m["label"] or m["event"].startswith(m["label"] + ": ")
                or m["event"] == m["label"].replace(": none", ": converted nothing")), m
        # the log's tag names the mover: the event names only another player
        assert f"P{m['player']}:" not in m["event"], m
    # options show their costs as well as their gains somewhere along the game
    costs = set()
    for ply in range(0, 80, 4):
        view = client.post(f"/api/games/{gid}/goto", json={"ply": ply}).json()["game"]
        costs |= {m["cost"] for m in view["legal"]}
    assert costs - {""}


def test_a_finished_game_takes_no_moves(client):
    rec = _record(seed=4, plies=None)
    gid, g = new(client, record=rec.to_dict())
    assert g["terminal"] and g["legal"] == [] and g["winner"] in (0, 1)
    assert "game is over" in error(client.post(f"/api/games/{gid}/move", json={"action": 1}), 409)
    assert "game is over" in error(client.post(f"/api/games/{gid}/ai", json={}), 409)
    assert "game is over" in error(client.get(f"/api/games/{gid}/hint"), 409)


def test_undo_redo_and_navigation(client):
    gid, g = new(client, seats=["human", "human"])
    for _ in range(4):
        g = client.post(f"/api/games/{gid}/move",
                        json={"action": g["legal"][-1]["action"]}).json()["game"]
    line = [m["text"] for m in g["moves"]]
    g = client.post(f"/api/games/{gid}/undo").json()["game"]
    assert (g["ply"], g["length"]) == (3, 4)
    g = client.post(f"/api/games/{gid}/redo").json()["game"]
    assert g["ply"] == 4 and [m["text"] for m in g["moves"]] == line
    assert "nothing to redo" in error(client.post(f"/api/games/{gid}/redo"), 409)
    g = client.post(f"/api/games/{gid}/goto", json={"ply": 1}).json()["game"]
    assert g["ply"] == 1 and g["length"] == 4
    assert g["position"] == _replay(line[:1])
    # replaying the line's next move keeps the line; another move starts a variation, which
    # the line then follows, the moves played before staying in the tree
    g = client.post(f"/api/games/{gid}/move", json={"move": line[1]}).json()["game"]
    assert (g["ply"], g["length"]) == (2, 4)
    other = next(m for m in g["legal"] if m["text"] != line[2])
    g = client.post(f"/api/games/{gid}/move", json={"action": other["action"]}).json()["game"]
    assert (g["ply"], g["length"]) == (3, 3)
    assert len(g["tree"]) == 5 and [m["text"] for m in g["moves"]][:2] == line[:2]
    branch = next(n for n in g["tree"] if n["node"] == g["moves"][1]["node"])
    assert len(branch["children"]) == 2  # the old third move first: the game's own line
    g = client.post(f"/api/games/{gid}/goto", json={"node": branch["children"][0]}).json()["game"]
    assert (g["ply"], g["length"]) == (3, 4) and [m["text"] for m in g["moves"]] == line
    assert "node must be an integer in 0..5" in error(
        client.post(f"/api/games/{gid}/goto", json={"node": 6}), 400)
    client.post(f"/api/games/{gid}/goto", json={"ply": "0"})
    assert "nothing to undo" in error(client.post(f"/api/games/{gid}/undo"), 409)
    assert "ply must be an integer in 0..4" in error(
        client.post(f"/api/games/{gid}/goto", json={"ply": 9}), 400)
    assert "needs 'ply'" in error(client.post(f"/api/games/{gid}/goto", json={}), 400)


def test_undo_against_the_ai_goes_back_to_the_human_decision(client):
    gid, g = new(client, seats=["human", "ai"])
    g = client.post(f"/api/games/{gid}/move", json={"move": "place colonist"}).json()["game"]
    while not g["ai_to_move"]:
        g = client.post(f"/api/games/{gid}/move",
                        json={"action": g["legal"][0]["action"]}).json()["game"]
    r = client.post(f"/api/games/{gid}/ai", json={"ai": {"kind": "greedy"}})
    assert r.status_code == 200, r.text
    g = r.json()["game"]
    assert g["moves"][-1]["player"] == 1 and r.json()["ai"]["agent"] == "greedy"
    g = client.post(f"/api/games/{gid}/undo").json()["game"]
    assert not g["terminal"] and g["seats"][g["to_move"]] == "human"
    assert g["moves"][g["ply"]]["player"] == 0  # back before the human's own move


def test_seats_and_ai_moves(client):
    gid, g = new(client)
    g = client.post(f"/api/games/{gid}/seats", json={"seats": ["ai", "ai"]}).json()["game"]
    assert g["seats"] == ["ai", "ai"] and g["ai_to_move"]
    for ai in ({"kind": "random"}, {"kind": "mcts", "seconds": 0.1}):
        r = client.post(f"/api/games/{gid}/ai", json={"ai": ai})
        assert r.status_code == 200, r.text
    assert r.json()["game"]["ply"] == 2 and r.json()["ai"]["agent"] == "mcts:time=0.1"
    assert "seats must be" in error(client.post(f"/api/games/{gid}/seats", json={"seats": 1}),
                                    400)
    assert "needs 'seats'" in error(client.post(f"/api/games/{gid}/seats", json={}), 400)


def test_the_ai_move_carries_what_its_search_expected(client):
    """Issue 34: the page's expected-lead bar reads the AI's own search (no search of its
    own): the reply and the move in the game view carry the chosen move's root statistics for
    the mover; an AI that does not search carries none."""
    gid, g = new(client, seats=["ai", "ai"])
    r = client.post(f"/api/games/{gid}/ai", json={"ai": {"kind": "mcts", "seconds": 0.2}})
    assert r.status_code == 200, r.text
    ai = r.json()["ai"]
    assert 0.0 <= ai["value"] <= 1.0 and isinstance(ai["margin"], float)
    move = r.json()["game"]["moves"][0]
    assert move["ai"] == {k: ai[k] for k in ("agent", "seconds", "value", "margin")}
    r = client.post(f"/api/games/{gid}/ai", json={"ai": {"kind": "greedy"}})
    assert r.json()["ai"]["value"] is None and r.json()["ai"]["margin"] is None
    moves = r.json()["game"]["moves"]
    assert moves[1]["ai"]["agent"] == "greedy" and moves[0]["ai"]["margin"] == ai["margin"]
    # a move of a person carries no "ai"
    g = client.post(f"/api/games/{gid}/seats", json={"seats": ["human", "human"]}).json()
    g = client.post(f"/api/games/{gid}/move",
                    json={"action": g["game"]["legal"][0]["action"]}).json()["game"]
    assert "ai" not in g["moves"][-1]


def test_the_move_payload_is_the_searchs_statistics_of_the_chosen_move():
    from arle_ai.play.agents import GreedyAgent, MCTSAgent
    from arle_ai.web.jobs import move_payload

    state = arle_ai.new_game(seed=3)
    agent = MCTSAgent(iterations=300, seed=1)
    action = agent.select(state)
    best = agent.last_result.best
    assert move_payload(agent, action, 0.5) == {
        "action": action, "seconds": 0.5, "value": best.win_rate, "margin": best.mean_margin,
        "visits": best.visits}
    greedy = GreedyAgent()
    assert move_payload(greedy, greedy.select(state), 0.0).keys() == {"action", "seconds"}


@pytest.mark.parametrize("ai, words", [
    ({"kind": "py:os.System"}, "not loaded from the web"),
    ("py:arle_ai.play.agents.RandomAgent", "not loaded from the web"),
    ({"kind": "mcts", "seconds": 0}, "ai.seconds must be"),
    ({"kind": "mcts", "seconds": 1e9}, "ai.seconds must be"),
    ({"kind": "mcts", "seconds": "nan"}, "ai.seconds must be"),
])
def test_ai_choices_are_checked(client, ai, words):
    gid, _ = new(client)
    assert words in error(client.post(f"/api/games/{gid}/ai", json={"ai": ai}), 400)


def test_games_are_per_tab(client):
    a, _ = new(client, seats=["human", "human"])
    b, gb = new(client, seats=["human", "human"])
    client.post(f"/api/games/{a}/move", json={"move": "place colonist"})
    assert client.get(f"/api/games/{b}").json()["game"] == gb
    assert client.get(f"/api/games/{a}").json()["game"]["ply"] == 1


def test_the_store_forgets_the_least_recently_used_games():
    with TestClient(create_app(allowed_hosts=["testserver"], capacity=2)) as c:
        c.app.state.web.games.in_use_seconds = 0.0  # every game out of use (test_web_load.py)
        a, _ = new(c)
        b, _ = new(c)
        c.get(f"/api/games/{a}")
        new(c)
        assert c.get(f"/api/games/{a}").status_code == 200
        # the page is told what became of its game (it was a bare 404 'may have expired')
        assert error(c.get(f"/api/games/{b}"), 410) == (
            "this game is no longer on the server: it was closed to make room for a newer "
            "game: the server keeps 2 games, and this one had been unused longest (0 s). "
            "Save game keeps a game (open the file to go on with it)")
        assert error(c.post(f"/api/games/{b}/undo"), 410)
        assert "no game" in error(c.get("/api/games/never-was"), 404)


# ---- downloads ----

def test_record_and_position_downloads_read_back(client):
    gid, g = new(client, seats=["human", "human"])
    for _ in range(3):
        g = client.post(f"/api/games/{gid}/move",
                        json={"action": g["legal"][0]["action"]}).json()["game"]
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = load_record(r.text)
    assert rec.moves() == [m["text"] for m in g["moves"]]
    client.post(f"/api/games/{gid}/goto", json={"ply": 1})
    r = client.get(f"/api/games/{gid}/position")
    assert arle_ai.GameState.from_json(r.text).to_dict() == _replay(rec.moves()[:1])


# ---- searches ----

def test_hint_streams_live_statistics_with_who_moves(client):
    gid, _ = new(client)
    msgs = lines(client, f"/api/games/{gid}/hint?seconds=0.9&seed=1")
    assert msgs[0]["kind"] == "start" and msgs[0]["player"] == 0
    updates = [m["data"] for m in msgs if m["kind"] == "update"]
    assert len(updates) >= 3
    assert updates[-1]["iterations"] > updates[0]["iterations"] > 0
    best = updates[-1]["moves"][0]
    assert best["visits"] > 0 and 0 <= best["value"] <= 1
    assert best["near_best"] is False  # "~" as arle suggest marks the others
    assert all(isinstance(m["near_best"], bool) for m in updates[-1]["moves"])
    assert best["pv"][0]["player"] == 0 and {s["player"] for s in best["pv"]} <= {0, 1}
    assert msgs[-1]["kind"] == "done" and msgs[-1]["data"]["reason"] == "time"
    # the hint ends saying why its best move beats the second, by scoring category
    why = msgs[-1]["data"]["why"]
    assert why["better"] == updates[-1]["moves"][0]["move"]
    assert why["other"] == updates[-1]["moves"][1]["move"] and why["text"]
    assert not client.app.state.web.jobs  # the process was stopped and forgotten


def test_a_hint_of_a_number_of_simulations_is_reproducible(client):
    """?iterations=N searches N simulations of the seed, as MCTS does in the library: the
    same statistics every time, whatever the machine's load (the browser tests need it)."""
    from arle_ai.search.config import Budget, SearchConfig
    from arle_ai.search.mcts import MCTS
    from arle_ai.web.jobs import HINT_MEMORY

    gid, _ = new(client)
    runs = [lines(client, f"/api/games/{gid}/hint?iterations=3000&seed=2") for _ in range(2)]
    final = [[m["data"] for m in msgs if m["kind"] == "update"][-1] for msgs in runs]
    for msgs, last in zip(runs, final, strict=True):
        assert msgs[0]["kind"] == "start" and msgs[0]["iterations"] == 3000
        assert last["iterations"] == 3000
        assert msgs[-1]["kind"] == "done" and msgs[-1]["data"]["reason"] == "iterations"
    ranked = [[(m["action"], m["visits"], m["margin"]) for m in last["moves"]] for last in final]
    assert ranked[0] == ranked[1]
    state = arle_ai.GameState.from_json(client.get(f"/api/games/{gid}/position").text)
    search = MCTS(SearchConfig(seed=2, max_memory=HINT_MEMORY), Budget(iterations=3000))
    assert ranked[0] == [(m.action, m.visits, m.mean_margin) for m in search.search(state).moves]


def test_hint_stops_at_its_memory_bound():
    with TestClient(create_app(allowed_hosts=["testserver"], hint_nodes=2000)) as client:
        gid, _ = new(client)
        msgs = lines(client, f"/api/games/{gid}/hint?seconds=60")
    assert msgs[-1]["kind"] == "done" and msgs[-1]["data"]["reason"] == "memory"
    assert msgs[-1]["data"]["seconds"] < 30


@pytest.mark.parametrize("query, words", [
    ("seconds=0", "seconds must be"), ("seconds=abc", "seconds must be"),
    ("seconds=1e6", "seconds must be"), ("seconds=inf", "seconds must be"),
    ("seed=-3", "seed must be"), ("iterations=5", "iterations must be"),
    ("iterations=1.5", "iterations must be"), ("iterations=", "iterations must be"),
    ("iterations=-1000", "iterations must be"), ("iterations=abc", "iterations must be"),
    ("iterations=1e3", "iterations must be"), ("iterations=%C2%B2", "iterations must be"),
    ("iterations=50000001", "in 10..50000000"), ("iterations=" + "9" * 5000, "iterations must be"),
    ("iterations=1000&seed=x", "seed must be"), ("seconds=1&iterations=1000", "not both"),
])
def test_hint_refuses_bad_parameters(client, query, words):
    gid, _ = new(client)
    assert words in error(client.get(f"/api/games/{gid}/hint?{query}"), 400)
    assert not client.app.state.web.jobs  # no search started


def test_searches_are_limited_stoppable_and_end_with_their_page(live_server, monkeypatch):
    import httpx

    base, web = live_server
    monkeypatch.setattr(web_app, "MAX_JOBS", 1)
    with httpx.Client(base_url=base, timeout=30) as http:
        a = http.post("/api/games", json={}).json()["id"]
        b = http.post("/api/games", json={}).json()["id"]
        with http.stream("GET", f"/api/games/{a}/hint?seconds=60") as s:
            stream = s.iter_lines()
            assert json.loads(next(stream))["kind"] == "start"
            assert json.loads(next(stream))["kind"] == "update"
            job = web.jobs[(a, "hint")]
            assert "searches already" in error(http.get(f"/api/games/{b}/hint?seconds=1"), 429)
            # other requests are served while the search runs (speed: bench/web.py)
            assert http.post(f"/api/games/{b}/move", json={"move": "pass"}).status_code == 200
        # the page went away (the stream was closed): the search process is stopped, long
        # before its 60 s (waited for up to 20 s: on a loaded machine the server may take a
        # few seconds to see the closed connection)
        _wait_for(lambda: not job.process.is_alive() and (a, "hint") not in web.jobs)
        with http.stream("GET", f"/api/games/{a}/hint?seconds=60") as s:
            stream = s.iter_lines()  # (a dropped iterator closes the response)
            next(stream)
            job = web.jobs[(a, "hint")]
            assert job.running
            assert http.post(f"/api/games/{a}/stop").json() == {"stopped": True}
            _wait_for(lambda: not job.process.is_alive(), 10)  # killed (a join may time out)
        assert http.post(f"/api/games/{a}/stop").json() == {"stopped": False}


def test_an_ai_move_stops_when_its_page_goes_away(live_server):
    import httpx

    base, web = live_server
    with httpx.Client(base_url=base, timeout=30) as http:
        gid = http.post("/api/games", json={}).json()["id"]
    with httpx.Client(base_url=base, timeout=1.0) as http, pytest.raises(httpx.ReadTimeout):
        http.post(f"/api/games/{gid}/ai", json={"ai": {"kind": "mcts", "seconds": 30}})
    _wait_for(lambda: (gid, "move") not in web.jobs, 120)  # a bound for a hang, no timing
    # stopped, not run to its end: a search that ends plays its move (the page gone or not)
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.get(f"/api/games/{gid}").json()["game"]["ply"] == 0


def _in_thread(call):
    """Run ``call`` in a thread; the returned function waits for and gives its result."""
    box: list = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()

    def result():
        thread.join(timeout=60)
        return box[0]
    return result


def _wait_for(predicate, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_hint_runs_beside_the_ai_move_and_ends_when_the_ai_plays(live_server):
    import httpx

    base, web = live_server
    with httpx.Client(base_url=base, timeout=60) as http:
        gid = http.post("/api/games", json={"seats": ["ai", "ai"]}).json()["id"]
        with http.stream("GET", f"/api/games/{gid}/hint?seconds=60") as s:
            stream = (json.loads(line) for line in s.iter_lines() if line.strip())
            assert next(stream)["kind"] == "start" and next(stream)["kind"] == "update"
            ai = _in_thread(lambda: http.post(f"/api/games/{gid}/ai",
                                              json={"ai": {"kind": "mcts", "seconds": 1}}))
            _wait_for(lambda: (gid, "move") in web.jobs)
            # the AI's search does not stop the hint: it keeps reporting beside it
            assert next(stream)["kind"] == "update"
            assert web.jobs[(gid, "move")].running and web.jobs[(gid, "hint")].running
            reply = ai()
            assert reply.status_code == 200, reply.text
            # the AI played: the hint searched an old position, and says so
            rest = list(stream)
        assert rest[-1] == {"kind": "done", "data": {"reason": "stopped",
                                                     "message": "the position changed"}}
        assert (gid, "hint") not in web.jobs


def test_an_ai_move_runs_beside_a_hint_and_stop_can_name_the_kind(live_server):
    import httpx

    base, web = live_server
    with httpx.Client(base_url=base, timeout=60) as http:
        gid = http.post("/api/games", json={"seats": ["ai", "ai"]}).json()["id"]
        ai = _in_thread(lambda: http.post(f"/api/games/{gid}/ai",
                                          json={"ai": {"kind": "mcts", "seconds": 2}}))
        _wait_for(lambda: (gid, "move") in web.jobs)
        move_job = web.jobs[(gid, "move")]
        msgs = [json.loads(line) for line in
                http.get(f"/api/games/{gid}/hint?seconds=0.5").text.splitlines()]
        assert msgs[-1]["kind"] == "done" and msgs[-1]["data"]["reason"] == "time"
        assert any(m["kind"] == "update" for m in msgs)
        assert move_job.running  # the hint neither stopped nor waited for the AI's move
        assert "kind must be one of" in error(http.post(f"/api/games/{gid}/stop?kind=all"), 400)
        assert http.post(f"/api/games/{gid}/stop?kind=hint").json() == {"stopped": False}
        assert move_job.running
        reply = ai()
        assert reply.status_code == 200 and reply.json()["game"]["ply"] == 1


def test_a_move_while_the_ai_thinks_cancels_the_ai_with_a_409(live_server):
    import httpx

    base, web = live_server
    with httpx.Client(base_url=base, timeout=60) as http:
        gid, game = (lambda r: (r["id"], r["game"]))(
            http.post("/api/games", json={"seats": ["human", "human"]}).json())
        ai = _in_thread(lambda: http.post(f"/api/games/{gid}/ai",
                                          json={"ai": {"kind": "mcts", "seconds": 20}}))
        _wait_for(lambda: (gid, "move") in web.jobs)
        job = web.jobs[(gid, "move")]
        played = http.post(f"/api/games/{gid}/move", json={"action": game["legal"][0]["action"]})
        assert played.status_code == 200
        assert "position changed while the AI was thinking" in error(ai(), 409)
        assert not job.process.is_alive() and (gid, "move") not in web.jobs
        assert http.get(f"/api/games/{gid}").json()["game"]["ply"] == 1  # only the human's


def test_analysis_gives_values_margins_and_mistakes(client):
    rec = _record(seed=3, plies=14)
    gid, _ = new(client, record=rec.to_dict())
    msgs = lines(client, f"/api/games/{gid}/analysis?iterations=30")
    assert msgs[0] == {"kind": "start", "decisions": 14}
    assert [m["data"]["done"] for m in msgs if m["kind"] == "progress"] == list(range(1, 15))
    result = msgs[-1]["data"]
    assert msgs[-1]["kind"] == "done" and result["iterations"] == 30
    assert len(result["points"]) == len(result["decisions"]) > 0
    for p in result["points"]:
        assert 0 <= p["value"] <= 1 and p["player"] in (0, 1)
    assert result["mistakes"] == sorted(  # as analyze ranks them: by the loss beyond noise
        result["mistakes"], key=lambda d: (-d["loss_beyond_noise"], -d["value_lost"], d["ply"]))
    marks = {d["ply"]: d["mark"] for d in result["decisions"]}
    assert all(m["mark"] == marks[m["ply"]] for m in result["mistakes"])  # as analyze marks
    # each move also in printed names, for the page's list of mistakes
    states = list(rec.states())
    for d in result["decisions"]:
        state = states[d["ply"] - 1]
        assert d["played_label"] == action_label(state, state.parse_action(d["played"]))
        assert d["best_label"] == action_label(state, state.parse_action(d["best"]))
        assert len(d["near_best_labels"]) == len(d["near_best"])
    assert any(d["played_label"] != d["played"] for d in result["decisions"])
    assert msgs[-1]["stored"] is True
    kept = client.get(f"/api/games/{gid}").json()["game"]["analysis"]
    # kept with the line it reviewed (node ids), all of which the line shown shares
    assert kept.pop("nodes") == list(range(1, len(rec.actions) + 1))
    assert kept.pop("shared") == len(rec.actions)
    assert kept == result
    assert "iterations must be" in error(client.get(f"/api/games/{gid}/analysis?iterations=0"),
                                         400)
    assert "seconds must be" in error(client.get(f"/api/games/{gid}/analysis?seconds=0"), 400)
    assert "not both" in error(client.get(f"/api/games/{gid}/analysis?seconds=1&iterations=9"),
                               400)
    fresh, _ = new(client)
    assert "no decisions" in error(client.get(f"/api/games/{fresh}/analysis"), 409)


def test_a_solo_game_is_played_hinted_and_reviewed(client):
    gid, g = new(client, seed=4, players=1, seats=["human"])
    assert (g["players_count"], g["seats"], g["players"]) == (1, ["human"], ["player 0"])
    assert g["setup"] == {"seed": 4, "variant": "standard", "players": 1}
    assert len(g["position"]["players"]) == 1 and len(g["boards"]) == 1
    assert g["workers_left"] == [4] and g["workers_per_half_year"] == 4
    assert g["winner"] is None and g["scores"] == [-19.0] and len(g["breakdown"]) == 1
    assert g["ai_to_move"] is False
    msgs = lines(client, f"/api/games/{gid}/hint?seconds=0.5&seed=1")
    best = [m["data"] for m in msgs if m["kind"] == "update"][-1]["moves"][0]
    assert {st["player"] for st in best["pv"]} == {0} and 0 <= best["value"] <= 1
    # the whole game at the keyboard: the first legal move at every decision
    for _ in range(400):
        if g["terminal"]:
            break
        g = client.post(f"/api/games/{gid}/move", json={"action": g["legal"][0]["action"]}
                        ).json()["game"]
    assert g["terminal"] and g["winner"] is None and len(g["scores"]) == 1
    rec = load_record(client.get(f"/api/games/{gid}/record").text)
    assert rec.start.players == 1 and rec.final_state().scores() == g["scores"]
    # the review: reopen the first moves and analyse them, VP lost in score
    short = GameRecord.from_position(rec.start)
    for a in rec.actions[:5]:
        short.push(a)
    rid, _ = new(client, record=short.to_dict())
    msgs = lines(client, f"/api/games/{rid}/analysis?iterations=30")
    result = msgs[-1]["data"]
    assert list(result["players"]) == ["0"] and result["decisions"]
    assert all(d["player"] == 0 and d["vp_lost"] >= 0 for d in result["decisions"])


def test_a_solo_game_from_a_file_the_ai_alone_and_bad_solo_requests(client):
    solo = arle_ai.new_game(seed=0, players=1)
    for body in ({"position": solo.to_dict()}, {"text": solo.to_json()},
                 {"record": GameRecord.from_position(solo).to_dict()}):
        # the page sends its two seats: a solo game keeps the first
        gid, g = new(client, **body, seats=["human", "ai"])
        assert g["players_count"] == 1 and g["seats"] == ["human"]
    gid, g = new(client, players=1, seats=["ai"])
    assert g["ai_to_move"] is True
    r = client.post(f"/api/games/{gid}/ai", json={"ai": {"kind": "greedy"}})
    assert r.status_code == 200 and r.json()["game"]["ply"] == 1
    assert "seats of a solo game must be one of" in error(
        client.post(f"/api/games/{gid}/seats", json={"seats": ["human", "ai"]}), 400)
    assert "players must be 1 (the solo game) or 2" in error(
        client.post("/api/games", json={"players": 3}), 400)


def test_variations_and_the_review_are_saved_and_reopened(client):
    rec = _record(seed=3, plies=8)
    gid, g = new(client, record=rec.to_dict(), seats=["human", "human"])
    msgs = lines(client, f"/api/games/{gid}/analysis?iterations=20")
    reviewed = {d["ply"]: d["mark"] for d in msgs[-1]["data"]["decisions"]}
    g = client.get(f"/api/games/{gid}").json()["game"]
    assert {m["ply"]: m["review"]["mark"] for m in g["moves"] if "review" in m} == reviewed
    # try another move at decision 5: a variation; the marks stay on the decisions it shares
    g = client.post(f"/api/games/{gid}/goto", json={"ply": 4}).json()["game"]
    other = next(m for m in g["legal"] if m["text"] != rec.moves()[4])
    g = client.post(f"/api/games/{gid}/move", json={"action": other["action"]}).json()["game"]
    assert g["analysis"]["shared"] == 4
    assert {m["ply"] for m in g["moves"] if "review" in m} == {p for p in reviewed if p <= 4}
    # saved: the line shown as the moves, the game's own line as a variation, the review of
    # the decisions they share
    saved = client.get(f"/api/games/{gid}/record").json()
    assert saved["moves"] == rec.moves()[:4] + [other["text"]]
    assert saved["variations"] == [{"parent": None, "ply": 4, "moves": rec.moves()[4:]}]
    assert [d["ply"] for d in saved["review"]["decisions"]] == [p for p in reviewed if p <= 4]
    again = load_record(saved)
    assert again.line(0) == rec.actions
    # reopened: both lines in the tree, the marks where they were
    gid2, g2 = new(client, record=saved)
    assert len(g2["tree"]) == len(g["tree"]) and g2["length"] == 5
    assert {m["ply"]: m["review"]["mark"] for m in g2["moves"] if "review" in m} == {
        p: mark for p, mark in reviewed.items() if p <= 4}
    assert g2["analysis"]["points"] and g2["analysis"]["shared"] == 5
    # a record whose review does not match its moves is refused by name
    saved["review"]["decisions"][0]["played"] = "pass"
    assert "review.decisions[0].played 'pass' is not move" in error(
        client.post("/api/games", json={"record": saved}), 422)


def test_a_review_names_at_most_three_moves_as_good_and_no_vp_lost_on_the_best(client):
    # issue 34: a "??" came with "as good: 26 moves"; moves named the best showed VP lost.
    # A review stored under the earlier rule is shown under today's.
    rec = _record(seed=3, plies=8)
    state = rec.state_at(0)
    names = [m for m in (state.action_to_string(a) for a in state.legal_actions())
             if m != rec.moves()[0]][:26]
    base = {"ply": 1, "player": 0, "half_year": 1, "pending": state.pending,
            "played": rec.moves()[0], "best_visits": 40000, "played_visits": 40000}
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": [
        dict(base, best=names[0], played_value=0.40, best_value=0.60, value_lost=0.2,
             played_margin=-5.0, best_margin=1.0, vp_lost=6.0, near_best=names[1:]),
        dict(base, ply=2, player=1, played=rec.moves()[1], best=rec.moves()[1],
             pending=rec.state_at(1).pending, played_value=0.595, best_value=0.60,
             value_lost=0.005, played_margin=-4.0, best_margin=1.0, vp_lost=5.0)]}
    gid, g = new(client, record=rec.to_dict(), seats=["human", "human"])
    marked, best = g["moves"][0]["review"], g["moves"][1]["review"]
    assert marked["mark"] == "??" and marked["vp_lost"] == 6.0
    assert len(marked["near_best"]) == 3 and marked["unseparated"] == 22
    assert marked["as_good"] == (f"as good: {', '.join(marked['near_best'])}; the search "
                                 f"could not separate 22 other moves")
    assert best["mark"] == "" and best["vp_lost"] == 0.0 and best["as_good"] == ""
    points = {p["ply"]: p for p in g["analysis"]["points"]}
    assert points[2]["vp_lost"] == 0.0


# ---- the editor's checks ----

def test_position_check_uses_the_library_messages(client):
    pos = arle_ai.new_game(seed=0).to_dict()
    r = client.post("/api/position/check", json={"position": pos})
    assert r.json()["valid"] and r.json()["view"]["half_year"] == 1
    pos["players"][1]["goods"]["grain"] = 16
    r = client.post("/api/position/check", json={"position": pos})
    assert r.status_code == 200
    assert r.json() == {"valid": False,
                        "error": "players[1].goods.grain: 16 is out of range 0..15"}
    r = client.post("/api/position/check", json={"position": [1]})
    assert r.json()["valid"] is False and r.json()["error"]
    assert "needs 'position'" in error(client.post("/api/position/check", json={}), 400)


def test_position_entry_answers_arle_edits_questions(client):
    """POST /api/position/entry: the editor's answers, by question key, given by the entry
    arle edit asks with; a refused one changes nothing and is said in arle edit's words."""
    pos = arle_ai.new_game(seed=0, players=1).to_dict()
    keys = [q["key"] for q in client.get("/api/catalog").json()["entry"]["1"]]
    assert "p0.loaded" in keys and "start_player" not in keys
    r = client.post("/api/position/entry", json={"position": pos, "answers": {
        "p0.barn": "cart", "p0.loaded": "wood 1, clay 1, Hage", "p0.goods": "grain 16",
        "p0.tools": "ovens 2"}})
    assert r.status_code == 200
    got = r.json()
    assert got["refused"] == [{"question": "p0.goods", "field": "players.0.goods.grain",
                               "message": "P0 grain: 16 is out of range 0..15"}]
    player = got["position"]["players"][0]
    assert player["barn"]["vehicles"] == [{"kind": "cart", "used": [0, 1, 2]}]
    assert player["goods"]["grain"] == 1 and player["tools"]["ovens"] == 2
    assert got["view"]["players_count"] == 1 and "pending" not in got["position"]
    # the entry's own checks, in its words
    r = client.post("/api/position/entry", json={"position": pos, "answers": {
        "p0.tiles": "stalls 4 forests 2"}}).json()
    assert r["refused"][0]["message"].startswith("P0 has ") and r["refused"][0]["field"] is None
    # what is not a request for it
    bad = {"position": pos, "answers": {"p0.goods": 3}}
    assert "needs 'position'" in error(client.post("/api/position/entry", json=bad), 400)
    assert "needs 'position'" in error(client.post("/api/position/entry", json={}), 400)
    unknown = {"position": pos, "answers": {"p1.goods": "food 2"}}
    assert "no question is called 'p1.goods'" in error(
        client.post("/api/position/entry", json=unknown), 400)
    invalid = {"position": {**pos, "half_year": 99}, "answers": {}}
    assert "half_year: 99 is out of range" in error(
        client.post("/api/position/entry", json=invalid), 422)
    long = {"position": pos, "answers": {"p0.goods": "food 1, " * 1000}}
    assert "at most 2000 characters" in client.post(
        "/api/position/entry", json=long).json()["refused"][0]["message"]


# ---- tournament results ----

def test_tournament_results_file(client, tmp_path):
    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy", "mcts:iterations=20"], games=2, seed=1).run(out=out)
    text = out.read_text()
    s = client.post("/api/tournament", json={"text": text}).json()
    assert s["games"] == 6 and len(s["pairings"]) == 3
    p = s["pairings"][0]
    assert p["wins"] + p["draws"] + p["losses"] == 2 and len(p["score_interval"]) == 2
    assert {r["agent"] for r in s["chart"]} == {"random", "greedy", "mcts:iterations=20"}
    # a cut-off last line (an interrupted run) is ignored, as arle selfplay does
    cut = client.post("/api/tournament", json={"text": text[:-40]}).json()
    assert cut["games"] == 5


def test_every_game_of_a_tournament_is_listed_and_opens_with_its_agents(client, tmp_path):
    # issue 34: the results page listed no games, and an opened record called the seats
    # "you" and "AI"
    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy"], games=2, seed=5).run(out=out)
    text = out.read_text()
    s = client.post("/api/tournament", json={"text": text}).json()
    listed = s["game_list"]
    assert [g["game"] for g in listed] == [0, 1]
    assert {tuple(g["agents"]) for g in listed} == {("random", "greedy"), ("greedy", "random")}
    for g in listed:
        gid, view = new(client, text=text, game=g["game"], seats=["human", "human"])
        assert view["seat_names"] == g["agents"] and view["players"] == g["agents"]
        assert view["terminal"] and view["length"] == g["decisions"]
        assert view["scores"] == g["scores"]
        # it is a game like another: step back, try a move (a variation), save it
        back = client.post(f"/api/games/{gid}/goto", json={"ply": 3}).json()["game"]
        assert back["ply"] == 3 and back["seat_names"] == g["agents"]
        saved = client.get(f"/api/games/{gid}/record").json()
        assert saved["players"] == g["agents"]
    _, plain = new(client, seed=0)
    assert plain["seat_names"] is None
    assert "give 'game'" in error(client.post("/api/games", json={"text": text}), 422)
    assert "no game 9" in error(client.post("/api/games", json={"text": text, "game": 9}), 422)
    assert "game must be an integer" in error(
        client.post("/api/games", json={"text": text, "game": "one"}), 400)
    damaged = text.replace('"seats"', '"sits"', 1)
    assert "meta.seats" in error(client.post("/api/games", json={"text": damaged, "game": 0}),
                                 422)


def test_every_game_of_a_solo_benchmark_is_listed_and_opens_with_its_agent(client, tmp_path):
    # issue 34: a solo results file (arle selfplay --players 1) was a 422 ("the page shows a
    # tournament's pairings"): none of its games could be opened
    out = tmp_path / "solo.jsonl"
    Tournament(["random", "greedy"], games=2, seed=5, players=1).run(out=out)
    text = out.read_text()
    s = client.post("/api/tournament", json={"text": text}).json()
    assert s["players"] == 1 and s["games"] == 4
    assert [(e["label"], e["games"]) for e in s["solo"]] == [("random", 2), ("greedy", 2)]
    listed = s["game_list"]
    assert [(g["game"], g["agents"], g["winner"]) for g in listed] == [
        (0, ["random"], None), (1, ["random"], None), (2, ["greedy"], None),
        (3, ["greedy"], None)]
    for g in listed:  # the page's two seats: the solo game's one
        gid, view = new(client, text=text, game=g["game"], seats=["human", "human"])
        assert view["seat_names"] == g["agents"] and view["players"] == g["agents"]
        assert view["terminal"] and view["length"] == g["decisions"]
        assert view["scores"] == g["scores"]
        saved = client.get(f"/api/games/{gid}/record").json()
        assert saved["players"] == g["agents"] and saved["setup"]["players"] == 1


def test_tournament_file_never_loads_agent_code(client, tmp_path):
    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy"], games=2, seed=0).run(out=out)
    head, *games = out.read_text().splitlines()
    header = json.loads(head)
    header["agents"] = ["py:no_such_module_xyz.Agent", "greedy"]
    text = "\n".join([json.dumps(header), *games])
    s = client.post("/api/tournament", json={"text": text}).json()
    assert s["pairings"][0]["labels"][0].startswith("py:no_such_module_xyz")
    _, g = new(client, text=text, game=0)  # opened on the board: a name, never code
    assert "py:no_such_module_xyz.Agent" in g["seat_names"]


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("nope", "line 1 is not JSON"),
    ('{"format": "other"}', "not a selfplay results file"),
    ('{"format": "arle-selfplay", "version": 9, "agents": ["a", "b"]}', "version 9"),
    ('{"format": "arle-selfplay", "version": 1, "agents": "a"}', "'agents' must be"),
    ('{"format": "arle-selfplay", "version": 1, "agents": ["a", "b"]}\n{"meta": 3}\n{}',
     "line 2: not a game record"),
    ('{"format": "arle-selfplay", "version": 1, "agents": ["a", "b"]}\n'
     '{"meta": {"game": 0, "pairing": [0, 5], "seats": [0, 5], "scores": [1, 2]}}\n',
     "meta.pairing must be"),
    ('{"format": "arle-selfplay", "version": 1, "agents": ["a", "b"]}\n'
     '{"meta": {"game": 0, "pairing": [0, 1], "seats": [1, 0], "scores": [1, "x"], '
     '"winner": 0, "start_player": 0, "winner_agent": 0}}\n', "meta.scores must be"),
])
def test_tournament_refuses_bad_files(client, text, words):
    assert words in error(client.post("/api/tournament", json={"text": text}), 422)


def test_tournament_needs_text(client):
    assert "needs 'text'" in error(client.post("/api/tournament", json={"file": 1}), 400)


# ---- never a 500 ----

@pytest.mark.parametrize("body", [None, 1, "x", [], {}, {"action": None}, {"move": None},
                                  {"ply": -1}, {"seats": None}, {"ai": None}, {"seed": []},
                                  {"position": None}, {"record": None}, {"text": None}])
def test_no_endpoint_answers_500(client, body):
    gid, _ = new(client, seats=["human", "human"])
    for path in ("/api/games", f"/api/games/{gid}/move", f"/api/games/{gid}/goto",
                 f"/api/games/{gid}/seats", f"/api/games/{gid}/ai", "/api/position/check",
                 "/api/position/entry", "/api/tournament", f"/api/games/{gid}/undo",
                 f"/api/games/{gid}/redo"):
        r = client.post(path, content=json.dumps(body).encode() if body is not None else b"")
        assert r.status_code < 500, (path, body, r.text)
        if r.status_code >= 400:
            assert r.json()["error"]


# ---- helpers ----

def _record(seed: int, plies: int | None) -> GameRecord:
    """A game of random legal moves (to its end when ``plies`` is None)."""
    import random

    rng = random.Random(seed)
    rec = GameRecord.new(seed=seed)
    while not rec.final_state().is_terminal() and (plies is None or len(rec.actions) < plies):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    return rec


def _replay(moves: list[str]) -> dict:
    s = arle_ai.new_game(seed=0)
    for m in moves:
        s.apply(s.parse_action(m))
    return s.to_dict()


def test_the_page_gets_the_default_budgets_of_the_cli(client):
    """One verdict: the browser's hint and analysis default to arle play's hint and arle
    analyze's budgets, times (the page reads them from the catalog)."""
    from arle_ai.search.config import (
        ANALYZE_BUDGET,
        HINT_BUDGET,
        WEB_ANALYZE_BUDGET,
        WEB_HINT_BUDGET,
    )

    assert WEB_HINT_BUDGET == HINT_BUDGET and WEB_ANALYZE_BUDGET == ANALYZE_BUDGET
    assert HINT_BUDGET.seconds and ANALYZE_BUDGET.seconds
    budgets = client.get("/api/catalog").json()["budgets"]
    assert budgets == {"hint_seconds": HINT_BUDGET.seconds,
                       "analysis_seconds": ANALYZE_BUDGET.seconds}


def test_an_analysis_by_time_reports_its_budget(client):
    rec = _record(seed=3, plies=6)
    gid, _ = new(client, record=rec.to_dict(), seats=["human", "human"])
    msgs = lines(client, f"/api/games/{gid}/analysis?seconds=0.1")
    result = msgs[-1]["data"]
    assert msgs[-1]["kind"] == "done" and result["time_limit"] == 0.1
    assert result["iterations"] == 0


def test_a_solo_hint_marks_moves_as_good_by_their_score_in_vp():
    # issue 34: solo values are squashed flat (0.5 + 0.5 tanh((score - 120) / 40)), so every
    # move was "~"; the solo hint compares scores in VP
    from arle_ai.search.result import ActionStats, SearchResult
    from arle_ai.web.jobs import hint_payload

    state = arle_ai.new_game(seed=2, players=1)
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    stats = [(20000, 10.0), (5000, 9.4), (5000, 5.0), (20, 9.9)]  # (visits, score)
    moves = [ActionStats(rank=i + 1, action=state.parse_action(texts[i]), move=texts[i],
                         visits=n, win_rate=0.5 + 0.5 * math.tanh(
                             (score - 120) / 40), mean_margin=score, prior=0.0, pv=[])
             for i, (n, score) in enumerate(stats)]
    result = SearchResult(player=0, pending=state.pending, moves=moves, iterations=30020,
                          time_taken=1.0, players=1)
    payload = hint_payload(state, result, 30020, 1.0, 100)
    assert [m["near_best"] for m in payload["moves"]] == [False, True, False, False]
    assert [m["margin"] for m in payload["moves"]] == [10.0, 9.4, 5.0, 9.9]


def test_a_hints_rows_at_a_count_question_carry_the_counts_they_answer():
    # issue 34 item 6: the page marks a hinted answer on its count button, by the count the
    # server reads (never by parsing the row's label): a "more" the count its line converts
    # in all, a "stop" 0; no count elsewhere
    from arle_ai.search.result import ActionStats, SearchResult
    from arle_ai.web.jobs import hint_payload
    from helpers import place, position

    state = arle_ai.GameState.from_dict(position({"goods": {"hide": 3, "leather": 0}},
                                                 half_year=2))
    before = state.copy()
    state.apply(place("tanner"))

    def payload(s, rows):
        moves = [ActionStats(rank=i + 1, action=s.parse_action(move), move=move, visits=100,
                             win_rate=0.5, mean_margin=0.0, prior=0.0, pv=pv)
                 for i, (move, pv) in enumerate(rows)]
        result = SearchResult(player=s.current_player, pending=s.pending, moves=moves,
                              iterations=100 * len(moves), time_taken=1.0)
        return hint_payload(s, result, 100 * len(moves), 1.0, 10)["moves"]

    rows = payload(state, [("more", ["more", "more", "stop", "place fisherman (special)"]),
                           ("stop", ["stop"])])
    assert [(m["count"], m["label"]) for m in rows] == [
        (2, "Tanner: 2 hide into 2 leather"), (0, "Tanner: none")]
    assert rows[0]["pv"][0]["count"] == 2 and rows[0]["pv"][1]["count"] is None
    # a line cut short counts the conversions it shows; no line: the move alone, one
    assert [m["count"] for m in payload(state, [("more", ["more", "more", "more"]),
                                                ("stop", [])])] == [3, 0]
    assert payload(state, [("more", [])])[0]["count"] == 1
    assert [m["count"] for m in payload(before, [("place tanner", ["place tanner", "more"]),
                                                 ("pass", [])])] == [None, None]
