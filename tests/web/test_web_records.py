"""Records opened on the web (issue 35): beyond the caps refused by their count (D2), made
off the event loop (D2), a long chain of variations (D5) and a review's figures (D12) each
answered without a 500."""

from __future__ import annotations

import json
import threading

import httpx
from starlette.testclient import TestClient

from arle_ai.formats.records import MAX_VARIATIONS, GameRecord, Variation
from arle_ai.play.analysis import analyze_game
from arle_ai.web.app import create_app


def error(r, status: int) -> str:
    assert r.status_code == status, r.text
    return r.json()["error"]


def opening(decisions: int, players: int = 2) -> GameRecord:
    rec = GameRecord.new(seed=1, players=["a", "b"][:players])
    for _ in range(decisions):
        rec.push(rec.final_state().legal_actions()[0])
    return rec


def test_a_record_beyond_the_caps_is_refused_by_its_count(live_server):
    """A 7.8 MB record of 5,200 variations held every tab for about 150 s and added 820
    MiB; now it is refused by its count before any replay (the time, and the other
    requests' meanwhile: bench/web_load.py record)."""
    base, _ = live_server
    data = json.loads(opening(30).to_json())
    data["variations"] = [{"parent": None, "ply": p % 30, "moves": [data["moves"][p % 30]]}
                          for p in range(MAX_VARIATIONS + 1)]
    with httpx.Client(base_url=base, timeout=120) as http:
        r = http.post("/api/games", json={"text": json.dumps(data)})
        assert f"the record holds {MAX_VARIATIONS + 1:,} variations" in error(r, 422)
        data["variations"] = data["variations"][:MAX_VARIATIONS]  # within the caps: read
        r = http.post("/api/games", json={"record": data})
        assert r.status_code == 200, r.text[:300]
        assert len(r.json()["game"]["tree"]) == 30  # the game's own moves again: one line


def test_a_records_game_is_made_off_the_event_loop(monkeypatch):
    """Game.from_record and the first view of a record's tree ran on the event loop: every
    other request waited for them (about 2.3 KB and 1 ms a position)."""
    from arle_ai.web import app as web_app

    threads: dict[str, int] = {}
    made, catalog = web_app._game_from_body, web_app.view.catalog

    def making(body):
        threads["record"] = threading.get_ident()
        return made(body)

    def cataloguing():
        threads["loop"] = threading.get_ident()
        return catalog()

    monkeypatch.setattr(web_app, "_game_from_body", making)
    monkeypatch.setattr(web_app.view, "catalog", cataloguing)
    rec = opening(1)
    with TestClient(create_app(allowed_hosts=["testserver"])) as c:
        assert c.get("/api/catalog").status_code == 200
        assert c.post("/api/games", json={"record": rec.to_dict()}).status_code == 200
    assert threads["record"] != threads["loop"]


def test_a_long_chain_of_variations_opens():
    """1,500 chained variations (86 KB): a 500 (RecursionError in GameRecord.line)."""
    rec = opening(20)
    before = rec.state_at(19)
    others = [a for a in before.legal_actions() if a != rec.actions[19]]
    rec.variations = [Variation(None if i == 0 else i - 1, 19, [others[i % len(others)]])
                      for i in range(1500)]
    with TestClient(create_app(allowed_hosts=["testserver"])) as c:
        r = c.post("/api/games", json={"text": rec.to_json()})
        assert r.status_code == 200, r.text[:300]
        assert len(r.json()["game"]["tree"]) == 20 + len(set(others))


def test_review_figures_out_of_bounds_are_named_not_a_500():
    """value_lost 1e308 was a 500 (the accuracy -inf is not JSON); a player-1 decision was
    accepted in a solo review."""
    with TestClient(create_app(allowed_hosts=["testserver"])) as c:
        for players, key, value, words in [
            (2, "value_lost", 1e308, "review.decisions[0].value_lost must be a value in 0..1"),
            (1, "player", 1, "review.decisions[0].player 1 is not the player who made move"),
        ]:
            rec = opening(6, players)
            rec.review = analyze_game(rec, iterations=20).to_review()
            data = json.loads(rec.to_json())
            data["review"]["decisions"][0][key] = value
            assert words in error(c.post("/api/games", json={"record": data}), 422)


def test_a_move_beyond_the_caps_is_a_409_the_page_knows_by_its_reason(monkeypatch):
    """Yours or the AI's: the game unchanged, and ``reason`` says what the page offers
    (save the game, a new game from its position), not the message's words."""
    from arle_ai.play import session as session_module

    monkeypatch.setattr(session_module, "MAX_DECISIONS", 1)
    with TestClient(create_app(allowed_hosts=["testserver"])) as c:
        gid = c.post("/api/games", json={"seed": 1}).json()["id"]
        game = c.get(f"/api/games/{gid}").json()["game"]
        assert c.post(f"/api/games/{gid}/move",
                      json={"action": game["legal"][0]["action"]}).status_code == 200
        for route, body in (("move", {"move": "pass"}), ("ai", {"ai": {"kind": "greedy"}})):
            r = c.post(f"/api/games/{gid}/{route}", json=body)
            assert r.status_code == 409 and r.json() == {
                "error": "this game holds 1 decisions with its variations, the most a game "
                         "record keeps: go on along the moves tried already, or save it and "
                         "start a new game from its position",
                "reason": "record_full"}
        assert c.get(f"/api/games/{gid}").json()["game"]["length"] == 1
        assert set(c.post(f"/api/games/{gid}/undo", json={}).json()) == {"id", "game"}
