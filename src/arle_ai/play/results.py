"""The ``arle selfplay`` results file, read and checked in one place: what a tournament
resuming its games (:meth:`arle_ai.play.tournament.Tournament.load`) and the web app's
results page (:mod:`arle_ai.web.tournaments`) both read.

The file is JSON lines: a header (``format``, ``version``, ``agents``, ``games``, ``seed``,
``variant``; ``"players": 1`` for the solo benchmark), then one game record per finished
game, whose ``meta`` holds the tournament's fields (see :mod:`arle_ai.play.tournament`).
Reading checks the header and every field of a game line the statistics read, so that a
damaged or foreign file is named by its line and never reaches them; blank lines are
skipped. A last line cut off by an interrupted run (not JSON, no newline) is left out, and
:attr:`Results.kept` says how much of the file holds the lines read (a run resuming the file
truncates it there). The agents are not built: a ``py:`` spec is only text here.

A game of the file is a game record: :meth:`Results.record` replays one, its seats named by
the agents that played them (``arle show`` and ``arle analyze`` with ``--game``, the web's
results page), and :meth:`Results.entries` lists them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from arle_ai.base.errors import PositionError
from arle_ai.base.files import MAX_FILE_BYTES
from arle_ai.base.jsontext import parse_json
from arle_ai.formats.records import GameRecord, RecordError, record_from_dict

__all__ = ["FORMAT", "MAX_VP", "VERSION", "GameEntry", "Results", "ResultsFileError",
           "agent_labels", "is_results_text", "read_file", "read_lines", "read_text"]

FORMAT = "arle-selfplay"
VERSION = 1
MAX_VP = 1e6  # far above any game's score: a line beyond it is damaged (and squaring a
# margin of 1e200 in the statistics overflowed)


class ResultsFileError(ValueError):
    """A results file that cannot be read; the message names the line and the problem."""


def agent_labels(agents: Sequence[str]) -> list[str]:
    """Display names: the spec, with ``#k`` (1-based position) added where specs repeat."""
    labels = []
    for i, spec in enumerate(agents):
        labels.append(spec if list(agents).count(spec) == 1 else f"{spec} #{i + 1}")
    return labels


@dataclass(frozen=True)
class GameEntry:
    """One game of a results file as a list shows it: its index, the agents on its seats
    (their labels, seat 0 first), their scores, the winning seat (None: a draw, or the solo
    game) and the decisions it took."""

    game: int
    agents: tuple[str, ...]
    scores: tuple[float, ...]
    winner: int | None
    decisions: int


@dataclass
class Results:
    """A results file read: its header (None: the file is empty), each game's record by
    game index with the number of its line (the first line of a game repeated is kept), and
    ``kept``, the bytes (characters, for text) of the lines read."""

    header: dict[str, Any] | None = None
    games: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    kept: int = 0

    @property
    def agents(self) -> list[str]:
        return list(self.header["agents"]) if self.header else []

    @property
    def players(self) -> int:
        """2 (a tournament) or 1 (the solo benchmark)."""
        return int(self.header.get("players", 2)) if self.header else 2

    def _seats(self, game: int) -> list[int]:
        return list(self.games[game][1]["meta"]["seats"])

    def entries(self) -> list[GameEntry]:
        """The games in the order of their index."""
        labels = agent_labels(self.agents)
        out = []
        for g in sorted(self.games):
            value = self.games[g][1]
            meta = value["meta"]
            moves = value.get("moves")
            out.append(GameEntry(g, tuple(labels[a] for a in self._seats(g)),
                                 tuple(meta["scores"]), meta["winner"],
                                 len(moves) if isinstance(moves, list) else 0))
        return out

    def record(self, game: int) -> GameRecord:
        """Game ``game``'s record, replayed, its seats named by the agents that played them
        (their labels; ``meta.agents`` their specs). ResultsFileError naming the games there
        are when there is no such game, or the line when its record does not replay."""
        if game not in self.games:
            have = sorted(self.games)
            there = (f"its games are {have[0]}..{have[-1]}" if have == list(
                range(have[0], have[-1] + 1)) else f"its games are {_listed(have)}"
                     ) if have else "it holds no game"
            raise ResultsFileError(f"there is no game {game} in the file: {there}")
        line, value = self.games[game]
        seats = self._seats(game)
        labels = agent_labels(self.agents)
        data = {**value, "players": [labels[a] for a in seats],
                "meta": {**value["meta"], "agents": [self.agents[a] for a in seats]}}
        try:
            return record_from_dict(data)
        except RecordError as exc:
            raise ResultsFileError(f"line {line}: game {game}'s record: {exc}") from None


def _listed(games: list[int], most: int = 10) -> str:
    shown = ", ".join(map(str, games[:most]))
    return shown + (f" and {len(games) - most} more" if len(games) > most else "")


def is_results_text(text: str) -> bool:
    """Whether ``text`` starts with a selfplay results header (its first line), so that a
    reader of game records and positions can tell a results file from them."""
    first = text.removeprefix("\ufeff").split("\n", 1)[0]
    try:
        head = parse_json(first)
    except PositionError:
        return False
    return isinstance(head, dict) and head.get("format") == FORMAT


def read_file(path: str | Path) -> Results:
    """The results file at ``path`` (each line at most MAX_FILE_BYTES); ResultsFileError
    naming the line and the problem, OSError when it cannot be read."""
    with Path(path).open("rb") as fh:
        return read_lines(iter(lambda: fh.readline(MAX_FILE_BYTES + 1), b""))


def read_text(text: str, max_agents: int | None = None) -> Results:
    """The results file whose text is ``text`` (see :func:`read_lines`)."""
    pieces = text.split("\n")
    return read_lines([p + "\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else []),
                      max_agents)


def read_lines(lines: Iterable[bytes | str], max_agents: int | None = None) -> Results:
    """The results file whose lines (each with its newline, the last maybe without) are
    ``lines``; ``max_agents`` bounds the header's agents. ResultsFileError names the first
    line that is not what it should be."""
    out = Results()
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_FILE_BYTES:
            raise ResultsFileError(f"line {n} is longer than {MAX_FILE_BYTES >> 20} MiB (not "
                                   f"a selfplay results file?)")
        ends = line.endswith(b"\n") if isinstance(line, bytes) else line.endswith("\n")
        if not line.strip():
            out.kept += len(line)
            continue
        try:  # not UTF-8, not JSON, nested too deeply, integers too long...
            value = parse_json(line)
        except PositionError:
            if out.header is not None and not ends:
                break  # after the header, the cut-off end of an interrupted write
            raise ResultsFileError(f"line {n} is not JSON (not a selfplay results "
                                   f"file?)") from None
        if out.header is None:
            out.header = _header(value, max_agents)
        else:
            game = _game(n, value, len(out.agents), out.players)
            out.games.setdefault(game, (n, value))
        out.kept += len(line)
    return out


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_vp(x: Any) -> bool:
    return (isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
            and abs(x) <= MAX_VP)


def _header(head: Any, max_agents: int | None) -> dict[str, Any]:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ResultsFileError(f"line 1: not a selfplay results file (its first line is not "
                               f"a {FORMAT!r} header)")
    if head.get("version") != VERSION:
        raise ResultsFileError(f"line 1: results file version {head.get('version')!r} is not "
                               f"supported (only {VERSION})")
    players = head.get("players", 2)
    if not _is_int(players) or players not in (1, 2):
        raise ResultsFileError("line 1: 'players' must be 1 (the solo benchmark) or 2")
    agents = head.get("agents")
    least = players  # two agents play a pairing; the solo benchmark may have one
    bound = f"{least}..{max_agents}" if max_agents is not None else f"at least {least}"
    if (not isinstance(agents, list) or len(agents) < least
            or (max_agents is not None and len(agents) > max_agents)
            or not all(isinstance(a, str) and a for a in agents)):
        raise ResultsFileError(f"line 1: 'agents' must be a list of {bound} agent specs")
    return head


def _game(n: int, result: Any, agents: int, players: int) -> int:
    """The game index of the game line ``result`` (line ``n``) of a file of ``agents`` and
    ``players``; ResultsFileError naming every field that is not what it should be."""
    meta = result.get("meta") if isinstance(result, dict) else None
    if not isinstance(meta, dict):
        raise ResultsFileError(f"line {n}: not a game record with 'meta'")
    g, pairing, seats = meta.get("game"), meta.get("pairing"), meta.get("seats")
    solo = players == 1
    problems = []
    if not _is_int(g) or g < 0:
        problems.append("meta.game must be a game index")
    if (not isinstance(pairing, list) or len(pairing) != players
            or not all(_is_int(a) and 0 <= a < agents for a in pairing)
            or len(set(pairing)) != players):
        which = "one agent index" if solo else "two different agent indexes"
        problems.append(f"meta.pairing must be {which} in 0..{agents - 1}")
    elif (not isinstance(seats, list) or not all(_is_int(s) for s in seats)
          or sorted(seats) != sorted(pairing)):
        problems.append("meta.seats must be the pairing's agents in seat order")
    scores = meta.get("scores")
    if not isinstance(scores, list) or len(scores) != players or not all(map(_is_vp, scores)):
        problems.append(f"meta.scores must be {'one number' if solo else 'two numbers'} of VP "
                        f"(at most {MAX_VP:g} each)")
    for key in ("winner", "winner_agent", "start_player"):
        if key not in meta:
            problems.append(f"meta.{key} is missing")
    if solo and (meta.get("winner") is not None or meta.get("start_player", 0) != 0):
        problems.append("a solo game has no winner (meta.winner null) and its player 0 "
                        "starts (meta.start_player 0)")
    if meta.get("winner") not in (0, 1, None):
        problems.append("meta.winner must be 0, 1 or null")
    if meta.get("start_player", 0) not in (0, 1):
        problems.append("meta.start_player must be 0 or 1")
    wa = meta.get("winner_agent")
    if isinstance(pairing, list) and wa is not None and wa not in pairing:
        problems.append("meta.winner_agent must be one of the pairing's agents or null")
    if not isinstance(result.get("result"), dict):
        problems.append("'result' must be the game's result (an object)")
    if problems:
        raise ResultsFileError(f"line {n}: {'; '.join(problems)}")
    assert _is_int(g)  # (checked above)
    return g
