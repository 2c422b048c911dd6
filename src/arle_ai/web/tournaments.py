"""Reading an uploaded ``arle selfplay`` results file into its statistics for the page.

The file is read without building its agents (a ``py:`` spec names code to import, which a
web request must never cause): the header gives the agent specs as text, and each game line
is checked for the fields the statistics read before :func:`arle_ai.play.tournament.summarize`
computes the pairings table. The ratings chart uses the rating table (maximum likelihood,
with one virtual draw per pairing when some agent never scored against another).
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard

from arle_ai.base.jsontext import parse_json
from arle_ai.play.ratings import rating_table
from arle_ai.play.tournament import FORMAT, VERSION, agent_labels, json_safe, summarize

__all__ = ["TournamentFileError", "read_results"]

MAX_AGENTS = 32
MAX_VP = 1e6  # far above any game's score; 1e308 made the statistics overflow (a 500)


class TournamentFileError(ValueError):
    """A results file that cannot be read; the message names the line and the problem."""


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x: Any) -> bool:
    return (isinstance(x, int | float) and not isinstance(x, bool)
            and math.isfinite(float(x)))


def _check_header(head: Any) -> list[str]:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise TournamentFileError(f"line 1: not a selfplay results file (its first line is "
                                  f"not a {FORMAT!r} header)")
    if head.get("version") != VERSION:
        raise TournamentFileError(f"line 1: results file version {head.get('version')!r} is "
                                  f"not supported (only {VERSION})")
    agents = head.get("agents")
    if (not isinstance(agents, list) or not 2 <= len(agents) <= MAX_AGENTS
            or not all(isinstance(a, str) and a for a in agents)):
        raise TournamentFileError(f"line 1: 'agents' must be a list of 2..{MAX_AGENTS} agent "
                                  f"specs")
    return agents


def _check_game(n: int, result: Any, agents: int, seen: set[int]) -> bool:
    """True for a new valid game line; TournamentFileError naming the problem otherwise."""
    meta = result.get("meta") if isinstance(result, dict) else None
    if not isinstance(meta, dict):
        raise TournamentFileError(f"line {n}: not a game record with 'meta'")
    g = meta.get("game")
    pairing = meta.get("pairing")
    seats = meta.get("seats")
    scores = meta.get("scores")
    problems = []
    if not _is_int(g) or g < 0:
        problems.append("meta.game must be a game index")
    if (not isinstance(pairing, list) or len(pairing) != 2
            or not all(_is_int(a) and 0 <= a < agents for a in pairing)
            or pairing[0] == pairing[1]):
        problems.append(f"meta.pairing must be two different agent indexes in 0..{agents - 1}")
    elif (not isinstance(seats, list) or not all(_is_int(s) for s in seats)
          or sorted(seats) != sorted(pairing)):
        problems.append("meta.seats must be the pairing's agents in seat order")
    if (not isinstance(scores, list) or len(scores) != 2 or not all(map(_is_num, scores))
            or not all(abs(s) <= MAX_VP for s in scores)):
        problems.append(f"meta.scores must be two numbers of VP (at most {MAX_VP:g} each)")
    if meta.get("winner") not in (0, 1, None):
        problems.append("meta.winner must be 0, 1 or null")
    if meta.get("start_player") not in (0, 1):
        problems.append("meta.start_player must be 0 or 1")
    wa = meta.get("winner_agent")
    if not problems and wa is not None and isinstance(pairing, list) and wa not in pairing:
        problems.append("meta.winner_agent must be one of the pairing's agents or null")
    if problems:
        raise TournamentFileError(f"line {n}: {'; '.join(problems)}")
    if not _is_int(g) or g in seen:  # (a valid game index by now)
        return False
    seen.add(g)
    return True


def read_results(text: str) -> dict[str, Any]:
    """The statistics of a selfplay results file's text (JSON lines), JSON-safe."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        raise TournamentFileError("the file is empty")
    parsed = []
    for n, line in enumerate(lines, 1):
        try:  # deep nesting and over-long integers too (no JSONDecodeError from json.loads)
            parsed.append(parse_json(line, TournamentFileError))
        except TournamentFileError as exc:
            if n == len(lines) and n > 1:
                break  # the cut-off last line of an interrupted run, as arle selfplay reads it
            raise TournamentFileError(f"line {n} is not JSON ({exc})") from None
    agents = _check_header(parsed[0])
    seen: set[int] = set()
    results = [r for n, r in enumerate(parsed[1:], 2) if _check_game(n, r, len(agents), seen)]
    for r in results:  # the statistics read the seats' specs from the header
        r["meta"]["agents"] = [agents[i] for i in r["meta"]["seats"]]
    summary = summarize(results, agents=agents)
    labels = agent_labels(agents)
    games = []
    for r in results:
        meta = r["meta"]
        a, b = meta["pairing"]
        wa = meta["winner_agent"]
        games.append((labels[a], labels[b], 0.5 if wa is None else 1.0 if wa == a else 0.0))
    summary["chart"] = rating_table(games) if games else []
    summary["header"] = {k: parsed[0].get(k) for k in ("games", "seed", "variant")}
    safe: dict[str, Any] = json_safe(summary)
    return safe
