"""Reading an uploaded ``arle selfplay`` results file into its statistics for the page.

The file is read by :mod:`arle_ai.play.results` (the one reader of results files, which
checks every field the statistics read) without building its agents: a ``py:`` spec names
code to import, which a web request must never cause, so the seats' specs are taken from the
header as text. :func:`arle_ai.play.tournament.summarize` computes the pairings table; the
ratings chart uses the rating table (maximum likelihood, with one virtual draw per pairing
when some agent never scored against another). A solo benchmark's file (``"players": 1``) has
no pairing: its statistics are each agent's scores (:func:`arle_ai.play.solo.solo_summary`,
what ``arle selfplay --players 1`` prints). Every game is listed (``game_list``), and
:func:`results_game` opens one on the board, its seats named by their agents.
"""

from __future__ import annotations

from typing import Any

from arle_ai.formats.records import GameRecord
from arle_ai.play.ratings import rating_table
from arle_ai.play.results import ResultsFileError, read_text
from arle_ai.play.solo import solo_summary
from arle_ai.play.tournament import agent_labels, json_safe, summarize

__all__ = ["TournamentFileError", "read_results", "results_game"]

MAX_AGENTS = 32
TournamentFileError = ResultsFileError  # what the page is told: the line and the problem


def read_results(text: str) -> dict[str, Any]:
    """The statistics of a selfplay results file's text (JSON lines), JSON-safe: a
    tournament's pairings and ratings chart, or a solo benchmark's scores (``players`` 1,
    ``solo``: per agent), and every game (``game_list``)."""
    read = read_text(text, max_agents=MAX_AGENTS)
    if read.header is None:
        raise TournamentFileError("the file is empty")
    agents = read.agents
    games = [value for _, value in read.games.values()]
    for r in games:  # the statistics read the seats' specs from the header
        r["meta"]["agents"] = [agents[i] for i in r["meta"]["seats"]]
    summary = (solo_summary(games, agents=agents) if read.players == 1
               else _tournament(games, agents))
    summary["players"] = read.players
    summary["header"] = {k: read.header.get(k) for k in ("games", "seed", "variant")}
    # every game, to open on the board (POST /api/games {text, game})
    summary["game_list"] = [{"game": e.game, "agents": list(e.agents), "scores": list(e.scores),
                             "winner": e.winner, "decisions": e.decisions}
                            for e in read.entries()]
    safe: dict[str, Any] = json_safe(summary)
    return safe


def _tournament(games: list[dict[str, Any]], agents: list[str]) -> dict[str, Any]:
    """A tournament's pairings (:func:`arle_ai.play.tournament.summarize`) and its ratings
    chart (``chart``)."""
    summary = summarize(games, agents=agents)
    labels = agent_labels(agents)
    chart = []
    for r in games:
        meta = r["meta"]
        a, b = meta["pairing"]
        wa = meta["winner_agent"]
        chart.append((labels[a], labels[b], 0.5 if wa is None else 1.0 if wa == a else 0.0))
    summary["chart"] = rating_table(chart) if chart else []
    return summary


def results_game(text: str, game: int) -> GameRecord:
    """Game ``game`` of the selfplay results file whose text is ``text``, its seats named by
    the agents that played them; TournamentFileError naming the problem."""
    return read_text(text, max_agents=MAX_AGENTS).record(game)
