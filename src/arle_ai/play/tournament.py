"""Self-play tournaments: seats, seeds, parallel games, resumable results and their statistics.

A tournament is a list of agent specs (see :func:`arle_ai.play.agents.agent_from_spec`), a number
``games`` of games per pairing (even), a master ``seed`` and a variant. Every pair of agents
plays (a round robin; two agents make one pairing). The plan is fixed before any game is played:

- ``games // 2`` setup seeds are drawn by ``random.Random(seed)``; every pairing plays the same
  setups, each twice with the seats swapped (so each agent is start player equally often);
- game ``g`` is pairing ``g // games``, setup ``(g % games) // 2``, seats swapped if ``g`` is
  odd; the agents' seeds are hashed from ``(seed, g, seat)``.

So every game is fully determined by the master seed and its index (with an iteration budget;
an agent with a time limit is not deterministic), and the results do not depend on how many
worker processes play them. A game result is a game record (``arle_ai.formats.records``, readable by
``load_record``) whose ``meta`` holds the tournament fields: ``game``, ``pairing``, ``seats``,
``agents``, ``agent_seeds``, ``setup_index``, ``setup_seed``, ``start_player``, ``scores``,
``winner`` (a seat), ``winner_agent`` (an agent index), ``tied`` (equal scores, decided by the
rules' tie-break) and ``decisions``.

Results stream to a JSON-lines file: a header line (``format``, ``version``, ``agents``,
``games``, ``seed``, ``variant``), then one record per finished game in the order they finish.
Running again with the same file skips the games already in it (after checking that the header
is the same tournament).

The agents' specs are also their names in the results. A tournament may record names other
than the specs it plays (``play_as``): the learning loop names a model by its file's place in
the run folder, which can move, and plays it from where the file is now.

With ``players=1`` it is the solo benchmark instead: each agent plays ``games`` solo games,
one on each of ``games`` setups drawn from the seed (the same setups for every agent); game
``g`` is agent ``g // games`` on setup ``g % games``. Its results have one seat (``seats``,
``agents``, ``scores`` of length 1, no winner), its header ``"players": 1``, and its summary
is each agent's mean score and distribution (:mod:`arle_ai.play.solo`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import multiprocessing
import os
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Protocol

from arle_ai import engine
from arle_ai.base import limits, procs
from arle_ai.base.files import (
    fsync_folder,
    lock_exclusive,
    regular_or_missing,
)
from arle_ai.formats.records import record_game
from arle_ai.play import results
from arle_ai.play.agents import Agent, AgentError, agent_from_spec, choose_action
from arle_ai.play.ratings import (
    elo_from_score,
    likelihood_of_superiority,
    mean_interval,
    rating_table,
    ratings_exist,
    score_fraction,
    sprt_bounds,
    sprt_llr,
    sprt_verdict,
    wilson_interval,
)
from arle_ai.play.results import FORMAT, VERSION, agent_labels
from arle_ai.play.solo import format_solo_summary, is_solo_result, solo_summary

__all__ = ["FORMAT", "VERSION", "Runner", "Tournament", "TournamentError", "agent_labels",
           "format_summary", "json_safe", "play_game", "setup_seeds", "summarize"]

MAX_DECISIONS = 20_000  # far above any real game (about 170 decisions); guards a looping agent
_HEADER_KEYS = ("agents", "games", "seed", "variant")
_TASK_KEYS = ("game", "pairing", "seats", "agents", "agent_seeds", "setup_index", "setup_seed")


class Runner(Protocol):
    """Plays jobs elsewhere (e.g. on Ray): ``fn(job)`` for each, ``finish(result)`` here as each
    ends. Results must not depend on the runner: only where the games are played does."""

    def run(self, fn: Callable[[Any], Any], jobs: Iterable[Any],
            finish: Callable[[Any], None]) -> None: ...


class TournamentError(ValueError):
    """Bad tournament settings, or a results file that belongs to another tournament."""


def setup_seeds(seed: int, count: int) -> list[int]:
    """The setup seeds of a tournament: ``count`` draws of ``random.Random(seed)``."""
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(count)]


def agent_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of game ``game`` (a hash, stable across runs)."""
    digest = hashlib.sha256(f"arle-selfplay:{seed}:{game}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def play_game(task: dict[str, Any]) -> dict[str, Any]:
    """Play one planned game (built from its task dict) and return its result record dict.

    Runs in a worker process: the agents are built here from their specs and seeds.
    """
    count = task.get("player_count", 2)
    state = engine.new_game(seed=task["setup_seed"], variant=task["variant"], players=count)
    start = state.copy()
    specs = task.get("play_as", task["agents"])
    agents = [agent_from_spec(spec, seed=s)
              for spec, s in zip(specs, task["agent_seeds"], strict=True)]
    actions: list[int] = []
    while not state.is_terminal():
        if len(actions) >= MAX_DECISIONS:
            raise RuntimeError(f"game {task['game']}: no end after {MAX_DECISIONS} decisions")
        player = state.current_player
        assert player is not None, "an unfinished game has a player to decide"
        action = _choose(agents[player], state, task, player)
        state.apply(action)
        actions.append(action)
    scores = state.scores()
    winner = state.winner() if count == 2 else None  # a solo game has its score only
    meta = {key: task[key] for key in _TASK_KEYS}
    meta.update({
        "start_player": start.start_player,
        "scores": scores,
        "winner": winner,
        "winner_agent": None if winner is None else task["seats"][winner],
        "tied": count == 2 and scores[0] == scores[1],
        "decisions": len(actions),
    })
    setup: dict[str, Any] = {"seed": task["setup_seed"], "variant": task["variant"]}
    if count == 1:
        setup["players"] = 1
    rec = record_game(start, actions, players=task["players"], setup=setup, meta=meta)
    return rec.to_dict()


def _choose(agent: Agent, state: engine.GameState, task: dict[str, Any], player: int) -> int:
    """The agent's checked choice; TournamentError names the game as well."""
    try:
        return choose_action(agent, state, label=f"agent {task['agents'][player]!r}")
    except AgentError as exc:
        raise TournamentError(f"game {task['game']}: {exc}") from None


class _Lazy(Sequence[Any]):
    """A read-only list whose items are made when asked for (a tournament of many games
    materialises nothing per game up front); equal to any sequence with the same items."""

    def __init__(self, count: int) -> None:
        self._count = count

    def _item(self, k: int) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._count))]
        if not -self._count <= k < self._count:
            raise IndexError(f"index {k} is outside 0..{self._count - 1}")
        return self._item(k % self._count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))


class _SetupSeeds(_Lazy):
    """``setup_seeds(seed, count)``, drawn only as far as the games asked for need."""

    def __init__(self, seed: int, count: int) -> None:
        super().__init__(count)
        self._rng = random.Random(seed)
        self._drawn: list[int] = []

    def _item(self, k: int) -> int:
        while len(self._drawn) <= k:
            self._drawn.append(self._rng.randrange(2**31))
        return self._drawn[k]


class _Tasks(_Lazy):
    """The tournament's game tasks by index, each built when asked for."""

    def __init__(self, make: Callable[[int], dict[str, Any]], count: int) -> None:
        super().__init__(count)
        self._make = make

    def _item(self, g: int) -> dict[str, Any]:
        return self._make(g)


class Tournament:
    """A planned round robin; :meth:`run` plays the games not yet in the results file."""

    def __init__(self, agents: Sequence[str], games: int, seed: int = 0,
                 variant: str = "standard", players: int = 2,
                 play_as: Sequence[str] | None = None) -> None:
        """`agents`: the agents' specs, as the results name them. `play_as`: the specs the
        games are played with instead, one per agent (checked when the games start: a
        tournament built to read its results builds no agent; without it, `agents` are
        checked here)."""
        agents = [str(a).strip() for a in agents]
        if isinstance(players, bool) or players not in engine.PLAYER_COUNTS:
            raise TournamentError(f"players must be 1 (the solo benchmark) or 2, not "
                                  f"{players!r}")
        solo = players == 1
        if len(agents) < (1 if solo else 2):
            raise TournamentError(f"a tournament needs at least 2 agents, not {len(agents)}")
        if play_as is None:
            for spec in agents:
                agent_from_spec(spec)  # ValueError naming the bad part
        elif len(play_as) != len(agents):
            raise TournamentError(f"play_as needs one spec per agent ({len(agents)}), not "
                                  f"{len(play_as)}")
        self.play_as = None if play_as is None else [str(a).strip() for a in play_as]
        if (isinstance(games, bool) or not isinstance(games, int)
                or not 0 < games <= limits.MAX_GAMES):
            raise TournamentError(f"--games must be a positive {'' if solo else 'even '}number "
                                  f"up to {limits.MAX_GAMES}, not {games!r}")
        if games % 2 and not solo:
            raise TournamentError(f"--games must be even (each setup is played twice, seats "
                                  f"swapped), not {games}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise TournamentError(f"seed must be a non-negative integer, not {seed!r}")
        engine.new_game(seed=0, variant=variant)  # ValueError on an unknown variant
        self.agents = agents
        self.labels = agent_labels(agents)
        self.games = games
        self.seed = seed
        self.variant = variant
        self.players = players
        self.pairings: list[tuple[int, ...]]
        if solo:  # each agent alone, on the same `games` setups
            self.pairings = [(i,) for i in range(len(agents))]
            self.setups = _SetupSeeds(seed, games)
            self.tasks = _Tasks(self._solo_task, len(agents) * games)
        else:
            self.pairings = list(itertools.combinations(range(len(agents)), 2))
            self.setups = _SetupSeeds(seed, games // 2)
            self.tasks = _Tasks(self._task, len(self.pairings) * games)  # each made when needed
        self.resumed = 0
        self.played = 0

    def _task(self, g: int) -> dict[str, Any]:
        i, j = self.pairings[g // self.games][:2]
        k = g % self.games
        seats = [i, j] if k % 2 == 0 else [j, i]
        return {
            "game": g,
            "pairing": [i, j],
            "seats": seats,
            "agents": [self.agents[a] for a in seats],
            "agent_seeds": [agent_seed(self.seed, g, 0), agent_seed(self.seed, g, 1)],
            "setup_index": k // 2,
            "setup_seed": self.setups[k // 2],
            "variant": self.variant,
            "players": [self.labels[a] for a in seats],
        } | self._played(seats)

    def _played(self, seats: list[int]) -> dict[str, Any]:
        """A task's specs to play, when they are not its agents' names."""
        return {} if self.play_as is None else {"play_as": [self.play_as[a] for a in seats]}

    def _solo_task(self, g: int) -> dict[str, Any]:
        i, k = divmod(g, self.games)
        return {
            "game": g,
            "pairing": [i],
            "seats": [i],
            "agents": [self.agents[i]],
            "agent_seeds": [agent_seed(self.seed, g, 0)],
            "setup_index": k,
            "setup_seed": self.setups[k],
            "variant": self.variant,
            "players": [self.labels[i]],
            "player_count": 1,
        } | self._played([i])

    @property
    def total(self) -> int:
        """The number of games in the tournament (all pairings)."""
        return len(self.tasks)

    def header(self) -> dict[str, Any]:
        """The first line of the results file."""
        head = {"format": FORMAT, "version": VERSION, "agents": self.agents,
                "games": self.games, "seed": self.seed, "variant": self.variant}
        if self.players == 1:
            head["players"] = 1  # a results file without it is a two-player tournament's
        return head

    # ---- the results file ----

    def load(self, path: str | Path, repair: bool = False) -> dict[int, dict[str, Any]]:
        """The finished games in the results file at ``path`` (none if missing or empty),
        read by :mod:`arle_ai.play.results`.

        Raises TournamentError if the file is not a results file of this tournament. A last
        line cut off by an interrupted run is ignored (with ``repair``, removed from the file).
        """
        path = Path(path)
        if not regular_or_missing(path, TournamentError, "results file"):
            return {}
        try:
            read = results.read_file(path)
        except results.ResultsFileError as exc:
            raise TournamentError(f"{path}: {exc}") from None
        except OSError as exc:
            raise TournamentError(f"{path}: cannot read: {exc.strerror or exc}") from None
        if read.header is None:
            return {}
        self._check_header(path, read.header)
        for g, (n, value) in read.games.items():
            self._check_plan(path, n, g, value)
        if repair and read.kept < path.stat().st_size:  # only once the file is ours
            with path.open("r+b") as fh:
                fh.truncate(read.kept)
                os.fsync(fh.fileno())
        return {g: value for g, (_, value) in read.games.items()}

    def _check_header(self, path: Path, head: dict[str, Any]) -> None:
        ours = self.header()
        diff = [f"{k} {head.get(k)!r} (now {ours[k]!r})" for k in _HEADER_KEYS
                if head.get(k) != ours[k]]
        if head.get("players", 2) != self.players:
            diff.append(f"players {head.get('players', 2)!r} (now {self.players!r})")
        if diff:
            raise TournamentError(f"{path} holds another tournament: " + ", ".join(diff)
                                  + "; use another --out file or the same settings")

    def _check_plan(self, path: Path, n: int, g: int, result: dict[str, Any]) -> None:
        """Game line ``n`` (game ``g``, read and checked) is that game of this plan."""
        if not g < self.total:
            raise TournamentError(f"{path}: line {n} is not a game of this tournament "
                                  f"(no game index in 0..{self.total - 1})")
        task = self.tasks[g]
        bad = [k for k in _TASK_KEYS if result["meta"].get(k) != task[k]]
        if bad:
            raise TournamentError(f"{path}: line {n} (game {g}) does not match this "
                                  f"tournament ({', '.join(bad)})")

    # ---- playing ----

    def run(self, workers: int = 1, out: str | Path | None = None,
            on_start: Callable[[int, int], None] | None = None,
            on_result: Callable[[dict[str, Any]], None] | None = None,
            mp_context: str = "spawn", runner: Runner | None = None) -> list[dict[str, Any]]:
        """Play the games not yet in ``out`` and return every result, ordered by game index.

        ``workers`` > 1 plays games in that many processes; a ``runner`` (e.g.
        :class:`arle_ai.adapters.ray_backend.RayRunner`) plays them instead, wherever it runs jobs.
        Each result is appended to ``out`` (flushed) as soon as its game ends.
        ``on_start(to_play, already_done)`` is called once before the first game,
        ``on_result(result)`` after each game played.
        """
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise TournamentError(f"--workers must be a positive integer, not {workers!r}")
        for spec in self.play_as or ():
            try:
                agent_from_spec(spec)
            except ValueError as exc:  # a weights file gone or damaged since
                raise TournamentError(str(exc)) from None
        lock = _lock_results(Path(out)) if out is not None else None
        try:
            return self._run_locked(workers, out, on_start, on_result, mp_context, runner)
        finally:
            if lock is not None:
                lock.close()  # releases the lock

    def _run_locked(self, workers: int, out: str | Path | None,
                    on_start: Callable[[int, int], None] | None,
                    on_result: Callable[[dict[str, Any]], None] | None,
                    mp_context: str, runner: Runner | None) -> list[dict[str, Any]]:
        done = self.load(out, repair=True) if out is not None else {}
        pending = (self.tasks[g] for g in range(self.total) if g not in done)
        to_play = self.total - len(done)
        self.resumed = len(done)
        self.played = 0
        if on_start is not None:
            on_start(to_play, len(done))
        fh = None
        if out is not None:
            path = Path(out)
            fresh = not path.exists() or path.stat().st_size == 0
            ends_line = fresh or _ends_with_newline(path)
            fh = path.open("a", encoding="utf-8")
            if fresh:
                fh.write(json.dumps(self.header()) + "\n")
            elif not ends_line:
                fh.write("\n")  # the last line was complete but for its newline
            _sync(fh)
            if fresh:
                fsync_folder(path.parent)
        results = dict(done)

        def finish(result: dict[str, Any]) -> None:
            if fh is not None:
                fh.write(json.dumps(result, separators=(",", ":")) + "\n")
                _sync(fh)  # on the disk before the game counts as finished
            results[result["meta"]["game"]] = result
            self.played += 1
            if on_result is not None:
                on_result(result)

        try:
            if runner is not None:
                runner.run(play_game, pending, finish)
            elif workers == 1 or to_play <= 1:
                for task in pending:
                    finish(play_game(task))
            else:
                _run_parallel(pending, min(workers, to_play), mp_context, finish)
        except BaseException:
            if fh is not None:
                fh.close()  # the lines written, on the disk (a line cut off is no game)
                fh = None
                self._count_written(Path(out) if out is not None else None)
            raise
        finally:
            if fh is not None:
                fh.close()
        return [results[g] for g in sorted(results)]

    def _count_written(self, path: Path | None) -> None:
        """After a run stopped (Ctrl-C, a worker's failure): ``played`` as the games of this
        run the results file holds, read back. A stop landing while a finished game's line is
        written or synced leaves that line in the file or not, whatever was counted; the file
        is what a resumed run goes on from, and what ``arle selfplay`` says it holds."""
        if path is None:
            return
        try:
            self.played = len(self.load(path)) - self.resumed
        except (OSError, TournamentError):
            pass  # the file cannot be read back: the count kept is the best known


def _sync(fh: Any) -> None:
    """Flush the results file's lines to the disk (a power loss keeps every finished game;
    a line cut off by a crash or a full disk is dropped by the next run's load)."""
    fh.flush()
    os.fsync(fh.fileno())


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def _lock_results(path: Path) -> Any:
    """An open handle on the results file holding its exclusive lock (released when closed):
    two runs appending to one file would interleave lines that neither can resume from."""
    return lock_exclusive(path, TournamentError,
                          f"{path} is being written by another selfplay run (it holds the "
                          f"file's lock): wait for it to end, or use another --out file")


def _run_parallel(tasks: Iterable[dict[str, Any]], workers: int, mp_context: str,
                  finish: Callable[[dict[str, Any]], None]) -> None:
    """Play ``tasks`` in ``workers`` processes, keeping only 2 per worker submitted at once."""
    ctx = multiprocessing.get_context(mp_context)
    todo = iter(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                             initializer=procs.exit_with_parent,  # a killed parent ends them
                             initargs=procs.parent_watch()) as pool:
        with procs.sigint_ignored():  # the workers start here; Ctrl-C is the parent's
            futures = {pool.submit(play_game, t) for t in itertools.islice(todo, 2 * workers)}
        try:
            while futures:
                finished, futures = wait(futures, return_when=FIRST_COMPLETED)
                for f in sorted(finished, key=lambda f: f.exception() is not None):
                    finish(f.result())  # re-raises a worker's exception after the good ones
                    nxt = next(todo, None)
                    if nxt is not None:
                        # starts no process: the executor started one a submission until it
                        # had `workers`, all in the first 2 * workers. Not under
                        # sigint_ignored, which drops a Ctrl-C arriving meanwhile: the run
                        # then went on to its last game and exited 0.
                        futures.add(pool.submit(play_game, nxt))
        except BaseException:
            # the games in play are lost anyway: stop their workers rather than wait for them.
            # No future is cancelled first: the executor marks the pending ones broken, and
            # Python 3.11's executor raises InvalidStateError (a thread traceback) on a
            # cancelled one.
            procs.stop(list((getattr(pool, "_processes", None) or {}).values()))
            pool.shutdown(wait=True)
            raise


# ---- statistics ----

def _view(result: dict[str, Any]) -> tuple[int, int, tuple[float, float, bool, bool]]:
    """(agent a, agent b, (a's game score, a's VP margin, start player won, tied))."""
    meta = result["meta"]
    a, b = meta["pairing"]
    seats = meta["seats"]
    sa = seats.index(a)
    scores = meta["scores"]
    if meta["winner_agent"] is None:
        points = 0.5
    else:
        points = 1.0 if meta["winner_agent"] == a else 0.0
    margin = float(scores[sa]) - float(scores[1 - sa])
    return a, b, (points, margin, meta["winner"] == meta["start_player"], bool(meta.get("tied")))


def summarize(results: Iterable[dict[str, Any]], agents: Sequence[str] | None = None,
              sprt: tuple[float, float] | None = None, alpha: float = 0.05,
              beta: float = 0.05) -> dict[str, Any]:
    """The statistics of a tournament's results (any order: they are sorted by game index).

    Per pairing, from the view of the agent listed first: W-D-L, score with its Wilson 95%
    interval, Elo difference with its 95% interval (the Wilson interval in Elo), LOS, mean VP margin
    with its 95% interval, the start player's wins; with ``sprt = (elo0, elo1)`` the LLR, the
    bounds and the verdict. With more than two agents, a maximum-likelihood rating table
    (``ratings``; ``ratings_prior`` is the number of virtual draws added per pairing, 1 when
    the plain fit is infinite because some agents never scored against the others).
    Infinite or undefined values are floats (inf, nan); see :func:`json_safe`. Solo results
    (one seat) give :func:`arle_ai.play.solo.solo_summary` instead.
    """
    ordered = sorted(results, key=lambda r: r["meta"]["game"])
    if ordered and is_solo_result(ordered[0]):
        return solo_summary(ordered, agents)
    if agents is None:
        found: dict[int, str] = {}
        for r in ordered:
            for idx, spec in zip(r["meta"]["seats"], r["meta"]["agents"], strict=True):
                found[idx] = spec
        agents = [found.get(i, f"agent {i}") for i in range(max(found, default=-1) + 1)]
    agents = list(agents)
    labels = agent_labels(agents)
    by_pair: dict[tuple[int, int], list[tuple[float, float, bool, bool]]] = {}
    games_for_table: list[tuple[str, str, float]] = []
    for r in ordered:
        a, b, row = _view(r)
        by_pair.setdefault((a, b), []).append(row)
        games_for_table.append((labels[a], labels[b], row[0]))
    pairings = []
    for (a, b) in sorted(by_pair):
        rows = by_pair[(a, b)]
        n = len(rows)
        w = sum(1 for row in rows if row[0] == 1.0)
        d = sum(1 for row in rows if row[0] == 0.5)
        lo = n - w - d
        score = score_fraction(w, d, lo)
        score_low, score_high = wilson_interval(score, n)
        elo = elo_from_score(score)  # its interval is the score interval's, in Elo
        elo_low, elo_high = elo_from_score(score_low), elo_from_score(score_high)
        margin, margin_low, margin_high = mean_interval([row[1] for row in rows])
        start_wins = sum(1 for row in rows if row[2])
        entry: dict[str, Any] = {
            "agents": [agents[a], agents[b]],
            "labels": [labels[a], labels[b]],
            "index": [a, b],
            "games": n,
            "wins": w,
            "draws": d,
            "losses": lo,
            "score": score,
            "score_interval": [score_low, score_high],
            "elo": elo,
            "elo_interval": [elo_low, elo_high],
            "los": likelihood_of_superiority(w, lo),
            "margin": margin,
            "margin_interval": [margin_low, margin_high],
            "start_player_wins": start_wins,
            "start_player_win_rate": start_wins / n,
            "start_player_interval": list(wilson_interval(start_wins / n, n)),
            "tied_scores": sum(1 for row in rows if row[3]),
        }
        if sprt is not None:
            elo0, elo1 = sprt
            llr = sprt_llr(w, d, lo, elo0, elo1)
            lower, upper = sprt_bounds(alpha, beta)
            entry["sprt"] = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
                             "llr": llr, "lower": lower, "upper": upper,
                             "verdict": sprt_verdict(llr, alpha, beta)}
        pairings.append(entry)
    summary: dict[str, Any] = {"agents": agents, "labels": labels, "games": len(ordered),
                               "pairings": pairings}
    if len(agents) > 2:
        exists = ratings_exist(games_for_table)
        summary["ratings"] = rating_table(games_for_table, prior=0.0 if exists else 1.0)
        summary["ratings_prior"] = 0.0 if exists else 1.0
    return summary


def json_safe(value: Any) -> Any:
    """``value`` with every infinite or nan float replaced by None (strict JSON)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def _num(x: float | None, fmt: str = "{:+.1f}") -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if x == math.inf:
        return "+inf"
    if x == -math.inf:
        return "-inf"
    return fmt.format(x)


def _pct(x: float | None) -> str:
    return _num(None if x is None else 100.0 * x, "{:.1f}%")


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as text: a block per pairing, then the rating table (more than 2 agents);
    a solo benchmark's: :func:`arle_ai.play.solo.format_solo_summary`."""
    if summary.get("players") == 1:
        return format_solo_summary(summary)
    out = []
    head = f"{len(summary['agents'])} agents, {summary['games']} games"
    extra = [f"{k} {summary[k]}" for k in ("seed", "variant") if k in summary]
    out.append("Self-play: " + ", ".join([head, *extra]))
    for p in summary["pairings"]:
        a, b = p["labels"]
        out.append("")
        out.append(f"{a} vs {b}: {p['games']} games ({a}'s view)")
        out.append(f"  W-D-L         {p['wins']}-{p['draws']}-{p['losses']}"
                   + (f" ({p['tied_scores']} on equal VP, decided by the tie-break)"
                      if p.get("tied_scores") else ""))
        lo, hi = p["score_interval"]
        out.append(f"  score         {_pct(p['score'])}  [{_pct(lo)}, {_pct(hi)}] Wilson 95%")
        lo, hi = p["elo_interval"]
        out.append(f"  Elo           {_num(p['elo'])}  [{_num(lo)}, {_num(hi)}] 95%")
        out.append(f"  LOS           {_pct(p['los'])}")
        lo, hi = p["margin_interval"]
        out.append(f"  VP margin     {_num(p['margin'], '{:+.2f}')}  "
                   f"[{_num(lo, '{:+.2f}')}, {_num(hi, '{:+.2f}')}] 95%")
        out.append(f"  start player  won {p['start_player_wins']} of {p['games']} "
                   f"({_pct(p['start_player_win_rate'])})")
        s = p.get("sprt")
        if s:
            out.append(f"  SPRT          elo0 {s['elo0']:g}, elo1 {s['elo1']:g} "
                       f"(alpha {s['alpha']:g}, beta {s['beta']:g}): LLR {_num(s['llr'], '{:.3f}')}"
                       f" in [{_num(s['lower'], '{:.3f}')}, {_num(s['upper'], '{:.3f}')}]"
                       f" -> {s['verdict']}")
    ratings = summary.get("ratings")
    if ratings:
        out.append("")
        note = ""
        if summary.get("ratings_prior"):
            note = (f"; {summary['ratings_prior']:g} virtual draw per pairing added, as some "
                    f"agents never scored against the others")
        out.append(f"Ratings (maximum-likelihood Elo, mean 0{note}):")
        width = max(len(str(r["agent"])) for r in ratings)
        out.append(f"  {'#':>2}  {'agent':<{width}}  {'rating':>8}  {'games':>5}  {'score':>6}")
        for k, r in enumerate(ratings, 1):
            out.append(f"  {k:>2}  {r['agent']:<{width}}  {_num(r['rating']):>8}  "
                       f"{r['games']:>5}  {_pct(r['score']):>6}")
    return "\n".join(out)

