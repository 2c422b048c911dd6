"""Helpers the browser tests share: a hint the page is served instead of a search (the
server's own update of fixed statistics), and a game of a tournament's results opened on the
board. (Named apart from tests/helpers.py, which the tests import as ``helpers``.)"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from arle_ai.engine import GameState
from arle_ai.search.result import ActionStats, SearchResult
from arle_ai.web.jobs import hint_payload

HINT_URL = re.compile(r"/api/games/[^/]+/hint\?")


def root_move(state: GameState, move: str, rank: int = 1, visits: int = 300,
              value: float = 0.5, margin: float = 0.0, pv: Sequence[str] = ()) -> ActionStats:
    """A root move of ``state`` (notation) with these statistics and line, as a search
    reports it."""
    return ActionStats(rank=rank, action=state.parse_action(move), move=move, visits=visits,
                       win_rate=value, mean_margin=margin, prior=0.0, pv=list(pv))


def served_hint(state: GameState, moves: list[ActionStats],
                iterations: int | None = None) -> str:
    """A finished hint's stream (the server's own update, arle_ai.web.jobs.hint_payload) of a
    search of ``state`` that ranked ``moves`` (``iterations``: the sum of their visits)."""
    total = sum(m.visits for m in moves) if iterations is None else iterations
    result = SearchResult(player=state.current_player, pending=state.pending, moves=moves,
                          iterations=total, time_taken=1.0, players=state.players)
    lines = [{"kind": "start", "ply": 0, "player": state.current_player, "seconds": 1.0},
             {"kind": "update", "data": hint_payload(state, result, total, 1.0, 100)},
             {"kind": "done", "data": {"reason": "time"}}]
    return "".join(json.dumps(m) + "\n" for m in lines)


def serve_hint(page, body: Callable[[], str]) -> None:
    """The page's hint is answered with ``body()`` (a :func:`served_hint`), no search run."""
    page.route(HINT_URL, lambda route: route.fulfill(
        status=200, content_type="application/x-ndjson", body=body()))


def open_tournament_game(page, game: int, message: str, decisions: int) -> None:
    """Open game ``game`` of the results the Tournament page shows: the board shows it at its
    end, the page says ``message``, and no seat is called "you" (agents played them)."""
    page.click(f"#games tr[data-game='{game}'] button.open-game")
    page.wait_for_function("!document.querySelector('#page-play').hidden")
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")
    assert page.inner_text("#message") == message
    assert page.inner_text("#ply-text") == f"decision {decisions} of {decisions}"
    assert "(you)" not in page.inner_text("#event-log")


def step_to(page, ply: int, decisions: int) -> None:
    """Click decision ``ply`` of the move list; the board shows it."""
    page.click(f"#move-list li[data-ply='{ply}']")
    page.wait_for_function(f"document.querySelector('#ply-text').textContent === "
                           f"'decision {ply} of {decisions}'")
