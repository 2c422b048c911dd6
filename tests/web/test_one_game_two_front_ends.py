"""Both front ends hold a game with one model (arle_ai.play.session): the same moves, undos
and variations typed in the terminal (``arle play``) and sent to the web API make the same
game record. The records differ only where the front ends know different things: the seats'
names (``arle play`` writes who played them, ``human`` or the AI's spec; the page does not
know, ``player 0``) and ``meta`` (what saved the game, which the page leaves out)."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from arle_ai.formats.records import load_record
from arle_ai.web.app import create_app
from arle_cli.main import cli

FRONT_END_FIELDS = ("players", "meta")


@pytest.mark.parametrize("seed, players", [(5, 2), (2, 1)], ids=["two players", "solo"])
def test_the_same_moves_in_the_terminal_and_the_browser_make_the_same_record(
        tmp_path, seed, players):
    rng = random.Random(seed)
    typed: list[str] = []
    with TestClient(create_app(allowed_hosts=["testserver"])) as client:
        r = client.post("/api/games", json={"seed": seed, "players": players,
                                            "seats": ["human"] * players})
        gid, g = r.json()["id"], r.json()["game"]
        while not g["terminal"]:  # a whole game, some moves taken back and others tried
            if g["ply"] and rng.random() < 0.08:
                typed.append("undo")
                r = client.post(f"/api/games/{gid}/undo")
            else:
                typed.append(rng.choice(g["legal"])["text"])
                r = client.post(f"/api/games/{gid}/move", json={"move": typed[-1]})
            assert r.status_code == 200, r.text
            g = r.json()["game"]
        browser = client.get(f"/api/games/{gid}/record").json()
    out = tmp_path / "terminal.json"
    seats = ["--ai", "human"] if players == 2 else ["--players", "1"]
    result = CliRunner().invoke(cli, ["play", "--seed", str(seed), "--out", str(out), *seats],
                                input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output[-3000:]
    assert "game over" in result.output and "illegal move" not in result.output
    terminal = json.loads(out.read_text())
    assert typed.count("undo") >= 5 and len(terminal["variations"]) >= 3  # a real test
    assert terminal["result"] is not None and load_record(terminal).final_state().is_terminal()
    assert terminal["players"] == ["human"] * players
    assert browser["players"] == [f"player {p}" for p in range(players)]
    for rec in (terminal, browser):
        for key in FRONT_END_FIELDS:
            rec.pop(key, None)
    assert terminal == browser
