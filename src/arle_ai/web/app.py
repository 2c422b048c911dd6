"""The web app: a Starlette ASGI application over the library (``arle serve`` runs it).

Every route answers JSON; a bad request gets a 4xx whose ``error`` names the problem in the
library's own words, never a 500. Request bodies are read up to ``MAX_BODY`` bytes. Each tab
holds the id of its own game. Searches (hints, AI moves, analyses) run in child processes
(:mod:`arle_ai.web.jobs`), at most ``MAX_JOBS`` at once, each bounded in time and memory. A
game has one slot per kind of search (hint, AI move, analysis), so asking for a hint never
stops the AI's move, nor the reverse; a newer search of a kind replaces the older one. A hint
or AI move stops when the position it searches is no longer the game's (a move, undo, redo or
step), and a hint also when its stream is closed (the page went away or cancelled). A search
is forgotten only by the request that reads it, when it has read its end (or gone away): one
game's search never ends another's, so a finished answer is never lost to another request. A
record's game and its first view are made in a worker thread: a large record never holds the
other tabs' requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from arle_ai import engine
from arle_ai.base.errors import PositionError
from arle_ai.base.jsontext import parse_json
from arle_ai.base.jsontext import shown as _short
from arle_ai.formats import entry
from arle_ai.formats.records import FORMAT as RECORD_FORMAT
from arle_ai.formats.records import RecordError, record_from_dict
from arle_ai.play.agents import agent_from_spec, choose_action, mcts_spec
from arle_ai.play.results import is_results_text
from arle_ai.play.session import AIChoice, Session, TreeFullError, check_seats
from arle_ai.search.config import WEB_AI_BUDGET, WEB_ANALYZE_BUDGET, WEB_HINT_BUDGET, Budget
from arle_ai.web import jobs, view
from arle_ai.web.games import Game, GameStore, StoreFull, ai_view, analysis_view
from arle_ai.web.guard import RequestGuard
from arle_ai.web.tournaments import TournamentFileError, read_results, results_game

__all__ = ["create_app", "MAX_BODY"]

STATIC = Path(__file__).parent / "static"
MAX_BODY = 8 * 2**20  # bytes of a request body (an uploaded record or results file)
BODY_SECONDS = 30.0  # a request body must arrive within this time (8 MiB at 2 Mbit/s)
MAX_JOBS = 4  # searches running at once over all tabs
MAX_HINT_SECONDS = 120.0  # a hint of a number of simulations stops at this time too
MAX_HINT_ITERATIONS = 50_000_000  # (the memory bound, 2 million positions, comes first)
MAX_AI_SECONDS = 30.0
MAX_ANALYSIS_ITERATIONS = 5000
MAX_ANALYSIS_SECONDS = 30.0  # per decision
MAX_SEED = 2**63 - 1
MAX_GAME_INDEX = 2**31  # a game of a results file (far beyond any tournament's)
GRACE = 5.0  # seconds a search may overrun its budget before it is killed
AI_KINDS = ("mcts", "greedy", "random")
SEARCHLESS = ("greedy", "random")  # AIs whose move is instant: no search process, no slot
JOB_KINDS = ("hint", "move", "analysis")  # a game's search slots
CHANGED = "the position changed"  # why a hint or AI move of an old position was stopped


def _error(status: int, message: str, reason: str | None = None) -> JSONResponse:
    body = {"error": " ".join(str(message).split())}
    if reason is not None:
        body["reason"] = reason
    return JSONResponse(body, status_code=status)


class _Refused(HTTPException):
    """A refusal the page acts on by its ``reason`` (the answer's "reason"), not by its
    words: ``record_full``, a move that would outgrow what a game record keeps."""

    def __init__(self, status: int, message: str, reason: str) -> None:
        super().__init__(status_code=status, detail=message)
        self.reason = reason


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    response = _error(exc.status_code, exc.detail,
                      exc.reason if isinstance(exc, _Refused) else None)
    response.headers.update(exc.headers or {})
    return response


async def _server_error(request: Request, exc: Exception) -> Response:
    """A bug: the answer is JSON too (the traceback goes to the server's log)."""
    return _error(500, f"internal error ({type(exc).__name__}); the server's log has the "
                       f"details")


def _bad(message: str, status: int = 400) -> HTTPException:
    return HTTPException(status_code=status, detail=message)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to MAX_BODY bytes (413 beyond)."""
    length = request.headers.get("content-length")
    too_big = f"the request body is larger than the limit of {MAX_BODY // 2**20} MiB"
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise _bad(too_big, 413)
    data = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):  # a body sent a byte at a time
            async for chunk in request.stream():
                data += chunk
                if len(data) > MAX_BODY:
                    raise _bad(too_big, 413)
    except TimeoutError:
        raise _bad(f"the request body did not arrive within {BODY_SECONDS:g} s", 408) from None
    except ClientDisconnect:  # the page went away mid-body: nobody reads the answer
        raise _bad("the request was cut off: the client went away", 400) from None
    if not data:
        raise _bad("the request needs a JSON object as its body")
    try:  # deep nesting and over-long integers too (json.loads raises no JSONDecodeError)
        body = parse_json(bytes(data))
    except PositionError as exc:
        raise _bad(f"the request body: {exc}") from None
    if not isinstance(body, dict):
        raise _bad("the request body must be a JSON object")
    return body


def _int(value: Any, name: str, lo: int, hi: int) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        try:  # isdigit let '²' through; past 4300 digits int() refuses: both were 500s
            value = int(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(f"{name} must be an integer in {lo}..{hi}, not {_short(value)}")
    return value


def _float(value: Any, name: str, lo: float, hi: float) -> float:
    try:
        x = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        x = math.nan
    if not (math.isfinite(x) and lo <= x <= hi):
        raise _bad(f"{name} must be a number of seconds in {lo:g}..{hi:g}, not {_short(value)}")
    return x


class WebApp:
    """The app's state: the games of the open tabs and the searches running."""

    def __init__(self, capacity: int = 64, hint_nodes: int = jobs.MAX_NODES) -> None:
        self.games = GameStore(capacity=capacity)
        self.hint_nodes = hint_nodes
        self.jobs: dict[tuple[str, str], jobs.Job] = {}  # (game id, kind) -> its search

    # ---- helpers ----

    def game(self, request: Request) -> tuple[str, Game]:
        gid = request.path_params["gid"]
        game = self.games.get(gid)
        if game is None:
            gone = self.games.gone(gid)
            if gone is not None:  # the page says so (it starts a new game)
                raise _bad(f"this game is no longer on the server: it was {gone}. Save game "
                           f"keeps a game (open the file to go on with it)", 410)
            raise _bad(f"no game {_short(gid)} (start a new game)", 404)
        return gid, game

    def _start(self, gid: str, kind: str, args: tuple[Any, ...], deadline: float) -> jobs.Job:
        """Start a ``kind`` search for game ``gid``, replacing only the game's previous search
        of that kind; 429 when ``MAX_JOBS`` search processes are running. Other games'
        searches are left to their readers, finished or not (one that has sent its answer
        while its reader waits for its next poll was ended here, and its answer lost: a
        409 'the AI's search was stopped')."""
        self._stop_jobs(gid, kind, reason="a newer search of this game replaced it")
        if sum(job.running for job in self.jobs.values()) >= MAX_JOBS:
            raise _bad(f"the server is running {MAX_JOBS} searches already; try again when "
                       f"one has finished", 429)
        job = jobs.start_job(kind, args, deadline)
        self.jobs[(gid, kind)] = job
        return job

    def _finish(self, gid: str, job: jobs.Job) -> None:
        job.stop()
        if self.jobs.get((gid, job.kind)) is job:
            del self.jobs[(gid, job.kind)]

    def _stop_jobs(self, gid: str, *kinds: str, reason: str) -> bool:
        """Stop game ``gid``'s searches of ``kinds`` (all kinds when none are named), telling
        their readers ``reason``; whether there was one."""
        found = False
        for kind in kinds or JOB_KINDS:
            job = self.jobs.pop((gid, kind), None)
            if job is not None:
                job.stop(reason)
                found = True
        return found

    def _moved(self, gid: str) -> None:
        """The game's position changed: its hint and AI move searched an old one."""
        self._stop_jobs(gid, "hint", "move", reason=CHANGED)

    def _reply(self, gid: str, game: Game, **extra: Any) -> JSONResponse:
        return JSONResponse({"id": gid, "game": game.to_view(), **extra})

    # ---- routes ----

    async def catalog(self, request: Request) -> Response:
        """The game's pieces, and what the server keeps (``server``: the store's terms)."""
        return JSONResponse({**view.catalog(), "server": self.games.terms()})

    async def new_game(self, request: Request) -> Response:
        """A new game, and the store's terms (how many games it keeps, and for how long a
        game unused stays in use); 503 when every game kept is in use."""
        body = await _body(request)
        with _full_store():  # before a record is read: refused at once when there is no room
            self.games.check_room()
        # a record's tree and its first view (every move's entry) take up to seconds: made
        # in a worker thread, where the game is no one else's yet
        game, shown = await run_in_threadpool(_new_game, body)
        with _full_store():
            gid = self.games.add(game)
        return JSONResponse({"id": gid, "game": shown, "store": self.games.terms()})

    async def get_game(self, request: Request) -> Response:
        gid, game = self.game(request)
        return self._reply(gid, game)

    async def move(self, request: Request) -> Response:
        gid, game = self.game(request)
        body = await _body(request)
        if game.session.state.is_terminal():
            raise _bad("the game is over: there is no move to play", 409)
        if "count" in body:  # the answer to a how-many question: its moves (view.counts)
            count = body["count"]
            try:
                game.session.play_count(count)
            except ValueError as exc:  # IllegalActionError: no count asked, or not an answer
                raise _bad(f"illegal move: {exc}", 422) from None
            self._moved(gid)
            return self._reply(gid, game)
        if "action" in body:
            move = body["action"]
            if isinstance(move, bool) or not isinstance(move, int):
                raise _bad(f"action must be an action id (an integer), not {_short(move)}")
        elif "move" in body:
            if not isinstance(body["move"], str):
                raise _bad(f"move must be a move in notation (text), not {_short(body['move'])}")
            move = body["move"][:200]
        else:
            raise _bad("the request needs 'action' (an id), 'move' (notation) or 'count' (the "
                       "answer to a how-many question)")
        try:  # an id too: the message names the moves with their printed names
            game.session.play(move)
        except TreeFullError as exc:
            raise _Refused(409, str(exc), "record_full") from None
        except ValueError as exc:  # IllegalActionError
            raise _bad(f"illegal move: {exc}", 422) from None
        self._moved(gid)
        return self._reply(gid, game)

    async def undo(self, request: Request) -> Response:
        gid, game = self.game(request)
        try:
            game.session.undo()
        except ValueError as exc:
            raise _bad(str(exc), 409) from None
        self._moved(gid)
        return self._reply(gid, game)

    async def redo(self, request: Request) -> Response:
        gid, game = self.game(request)
        try:
            game.session.redo()
        except ValueError as exc:
            raise _bad(str(exc), 409) from None
        self._moved(gid)
        return self._reply(gid, game)

    async def goto(self, request: Request) -> Response:
        gid, game = self.game(request)
        body = await _body(request)
        if "ply" not in body and "node" not in body:
            raise _bad("the request needs 'ply' (the number of decisions of the line to show) "
                       "or 'node' (a position of the game's tree)")
        session = game.session
        try:
            if "node" in body:
                session.goto_node(_int(body["node"], "node", 0, len(session.nodes) - 1))
            else:
                session.goto(_int(body["ply"], "ply", 0, len(session.line)))
        except ValueError as exc:
            raise _bad(str(exc)) from None
        self._moved(gid)
        return self._reply(gid, game)

    async def seats(self, request: Request) -> Response:
        gid, game = self.game(request)
        body = await _body(request)
        if "seats" not in body:
            raise _bad("the request needs 'seats', e.g. [\"human\", \"ai\"]")
        game.session.seats = _seats(body["seats"], game.session.start.players)
        return self._reply(gid, game)

    async def ai_move(self, request: Request) -> Response:
        gid, game = self.game(request)
        body = await _body(request)
        spec, seconds = _agent_spec(body.get("ai", {"kind": "mcts"}))
        session = game.session
        state = session.state
        if state.is_terminal():
            raise _bad("the game is over: there is no move for the AI", 409)
        ply, key = session.cursor, state.key()
        seed = _int(body.get("seed", ply), "seed", 0, MAX_SEED)
        changed = "the position changed while the AI was thinking; ask again"
        if spec in SEARCHLESS:  # instant: played here, never waits for a search slot
            self._stop_jobs(gid, "move", reason="a newer AI move of this game replaced it")
            result = await run_in_threadpool(_searchless_move, state.copy(), spec, seed)
        else:
            job = self._start(gid, "move", (state.copy(), spec, seed), seconds + GRACE)
            try:
                result = await job.result(gone=request.is_disconnected)
            except jobs.JobStopped as exc:
                raise _bad(changed if str(exc) == CHANGED else f"the AI's search was "
                           f"stopped: {exc}", 409) from None
            except jobs.JobError as exc:
                raise _bad(str(exc), 503 if "stopped" in str(exc) else 422) from None
            finally:
                self._finish(gid, job)
        if session.cursor != ply or session.state.key() != key:
            raise _bad(changed, 409)
        # with what its search expected of the move (no search for the page's lead bar)
        choice = AIChoice(spec, result["seconds"], result.get("value"), result.get("margin"))
        try:
            node = session.nodes[session.play(result["action"], ai=choice)]
        except TreeFullError as exc:
            raise _Refused(409, str(exc), "record_full") from None
        self._moved(gid)
        return self._reply(gid, game, ai={"action": node.action, **ai_view(choice)})

    async def hint(self, request: Request) -> Response:
        gid, game = self.game(request)
        query = request.query_params
        if "seconds" in query and "iterations" in query:
            raise _bad("give the hint seconds or iterations, not both")
        iterations = None
        if "iterations" in query:  # reproducible: so many simulations of the seed, stopped
            # at the longest hint's time all the same
            iterations = _int(query["iterations"], "iterations", 10, MAX_HINT_ITERATIONS)
            seconds = MAX_HINT_SECONDS
        else:
            seconds = _float(query.get("seconds", WEB_HINT_BUDGET.seconds), "seconds", 0.2,
                             MAX_HINT_SECONDS)
        budget = Budget(iterations=iterations, seconds=seconds)
        session = game.session
        state = session.state
        if state.is_terminal():
            raise _bad("the game is over: there is nothing to search", 409)
        seed = _int(query.get("seed", "0"), "seed", 0, MAX_SEED)
        searched, node = state.copy(), session.node
        job = self._start(gid, "hint", (searched, budget, seed, self.hint_nodes),
                          seconds + GRACE)
        head = {"ply": session.cursor, "player": state.current_player, "seconds": seconds,
                "iterations": iterations}
        last: list[Any] = []  # the newest statistics: kept on the decision when it is done

        def update(raw: tuple[Any, ...]) -> dict[str, Any]:
            last[:] = [raw[0]]
            return jobs.hint_payload(searched, *raw)

        def done() -> None:
            if last:
                session.add_hint(last[0], node)

        return _SearchStream(self._stream(gid, job, head, update, done),
                             lambda: self._finish(gid, job))

    async def stop_search(self, request: Request) -> Response:
        """Stop the game's search of ``?kind=`` (hint, move or analysis), or all of them."""
        gid, _ = self.game(request)
        kind = request.query_params.get("kind")
        if kind is not None and kind not in JOB_KINDS:
            raise _bad(f"kind must be one of {list(JOB_KINDS)}, not {kind[:40]!r}")
        kinds = (kind,) if kind else ()
        return JSONResponse({"stopped": self._stop_jobs(gid, *kinds,
                                                        reason="stopped on request")})

    async def _stream(self, gid: str, job: jobs.Job, head: dict[str, Any],
                      update: Callable[[tuple[Any, ...]], dict[str, Any]],
                      done: Callable[[], None]) -> AsyncIterator[bytes]:
        """The job's messages as JSON lines (``update`` payloads made readable in a worker
        thread; ``done`` called when the search has finished); a hint the server stopped ends
        with ``done`` whose reason is ``stopped`` and whose message says why. The job is
        stopped however the stream ends."""
        messages = job.messages()
        try:
            yield (json.dumps({"kind": "start", **head}) + "\n").encode()
            async for kind, payload in messages:
                if kind == "update":
                    payload = await run_in_threadpool(update, payload)
                elif kind == "done":
                    done()
                elif kind == "stopped":
                    kind, payload = "done", {"reason": "stopped", "message": payload}
                yield (json.dumps({"kind": kind, "data": payload}) + "\n").encode()
        finally:
            await messages.aclose()
            self._finish(gid, job)

    async def analysis(self, request: Request) -> Response:
        gid, game = self.game(request)
        query = request.query_params
        if "seconds" in query and "iterations" in query:
            raise _bad("give seconds or iterations per decision, not both")
        if "iterations" in query:
            per = Budget(iterations=_int(query["iterations"], "iterations", 10,
                                         MAX_ANALYSIS_ITERATIONS))
        else:  # a time budget, the default as arle analyze's: the same verdicts
            per = Budget(seconds=_float(query.get("seconds", WEB_ANALYZE_BUDGET.seconds),
                                        "seconds", 0.1, MAX_ANALYSIS_SECONDS))
        if not game.session.line:
            raise _bad("the game has no decisions to analyse yet", 409)
        actions, line = list(game.session.actions), list(game.session.line)
        record = game.session.record()
        # seconds; far above the expected time (a decision searches up to twice its budget)
        each = 3 * per.seconds if per.seconds is not None else (per.iterations or 0) / 500
        job = self._start(gid, "analysis", (record, per, 0), 60 + len(actions) * each)

        async def stream() -> AsyncIterator[bytes]:
            messages = job.messages()
            try:
                yield (json.dumps({"kind": "start", "decisions": len(actions)}) + "\n").encode()
                async for kind, payload in messages:
                    extra: dict[str, bool] = {}
                    if kind == "done":
                        payload = analysis_view(payload, record)
                        game.keep_analysis(payload, line)  # its marks follow its line
                        extra["stored"] = True
                    elif kind == "stopped":
                        kind, payload = "error", f"the analysis was stopped: {payload}"
                    yield (json.dumps({"kind": kind, "data": payload, **extra}) + "\n").encode()
            finally:
                await messages.aclose()
                self._finish(gid, job)

        return _SearchStream(stream(), lambda: self._finish(gid, job))

    async def record(self, request: Request) -> Response:
        gid, game = self.game(request)
        text = game.session.record().to_json()
        return Response(text + "\n", media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="arle-game-{gid[:6]}.json"'})

    async def position(self, request: Request) -> Response:
        gid, game = self.game(request)
        session = game.session
        return Response(session.state.to_json() + "\n", media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="arle-position-{session.cursor}.json"'})

    async def check_position(self, request: Request) -> Response:
        body = await _body(request)
        if "position" not in body:
            raise _bad("the request needs 'position' (a position object)")
        try:
            state = engine.GameState.from_dict(body["position"])
        except (PositionError, ValueError, TypeError) as exc:
            return JSONResponse({"valid": False, "error": str(exc)})
        return JSONResponse({"valid": True, "error": None, "view": view.position_view(state),
                             "position": state.to_dict()})

    async def entry(self, request: Request) -> Response:
        """The position editor's answers (``{position, answers: {question key: text}}``), by
        the entry ``arle edit`` asks with (:func:`arle_ai.formats.entry.enter`): the position
        with every accepted answer, and each refused one's words and field."""
        body = await _body(request)
        answers = body.get("answers")
        if "position" not in body or not isinstance(answers, dict) or not all(
                isinstance(v, str) for v in answers.values()):
            raise _bad("the request needs 'position' (a position object) and 'answers' (an "
                       "object of texts by question key, as /api/catalog's entry lists them)")
        try:
            got = await run_in_threadpool(entry.enter, body["position"], answers)
        except (PositionError, ValueError, TypeError) as exc:
            raise _bad(f"invalid position: {exc}", 422) from None
        except KeyError as exc:
            raise _bad(str(exc.args[0])) from None
        state = engine.GameState.from_dict(got.position)
        return JSONResponse({
            "position": got.position, "notes": got.notes, "view": view.position_view(state),
            "refused": [{"question": k, "message": str(e), "field": e.field}
                        for k, e in got.refused.items()]})

    async def tournament(self, request: Request) -> Response:
        body = await _body(request)
        text = body.get("text")
        if not isinstance(text, str):
            raise _bad("the request needs 'text': the contents of a selfplay results file")
        try:
            summary = await run_in_threadpool(read_results, text)
        except (TournamentFileError, ValueError) as exc:
            raise _bad(f"not a readable results file: {exc}", 422) from None
        return JSONResponse(summary)

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    def stop_all(self) -> None:
        for job in self.jobs.values():
            job.stop()
        self.jobs.clear()


@contextlib.contextmanager
def _full_store() -> Iterator[None]:
    """StoreFull as a 503 saying when to try again."""
    try:
        yield
    except StoreFull as exc:
        raise HTTPException(503, str(exc), {"Retry-After": f"{math.ceil(exc.retry_after)}"}
                            ) from None


class _SearchStream(StreamingResponse):
    """A search's JSON lines. ``finish`` forgets the search however the response ends, also
    when its lines never began (the client gone before the first): nothing else does."""

    def __init__(self, lines: AsyncIterator[bytes], finish: Callable[[], None]) -> None:
        super().__init__(lines, media_type="application/x-ndjson",
                         headers={"Cache-Control": "no-store"})
        self.finish = finish

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.finish()


def _new_game(body: dict[str, Any]) -> tuple[Game, dict[str, Any]]:
    """The game a new game's request asks for, with its seats, and its first view."""
    game = _game_from_body(body)
    if "seats" in body:
        seats = body["seats"]
        if game.session.start.players == 1 and isinstance(seats, list) and len(seats) == 2:
            seats = seats[:1]  # a file opened with the page's two seats: a solo game's one
        game.session.seats = _seats(seats, game.session.start.players)
    return game, game.to_view()


def _searchless_move(state: engine.GameState, spec: str, seed: int) -> dict[str, Any]:
    """The move of an AI that does not search (random, greedy: milliseconds), as a search
    process reports it."""
    start = time.perf_counter()
    action = choose_action(agent_from_spec(spec, seed=seed), state, spec)
    return {"action": action, "seconds": time.perf_counter() - start}


def _seats(value: Any, players: int = 2) -> list[str]:
    """Who plays each seat: two of the session's seat kinds, or one in the solo game (the AI
    may play it alone too); 400 naming what is wrong."""
    try:
        return check_seats(value, players)
    except ValueError as exc:
        raise _bad(str(exc)) from None


def _agent_spec(ai: Any) -> tuple[str, float]:
    """The agent spec built from the page's choice (never text from the request: no py:)."""
    if not isinstance(ai, dict) or ai.get("kind") not in AI_KINDS:
        raise _bad(f"ai must be an object whose kind is one of {list(AI_KINDS)} (agent code "
                   f"is not loaded from the web), not {_short(ai)}")
    if ai["kind"] != "mcts":
        return ai["kind"], 1.0
    seconds = _float(ai.get("seconds", WEB_AI_BUDGET.seconds), "ai.seconds", 0.05,
                     MAX_AI_SECONDS)
    return mcts_spec(Budget(seconds=seconds)), seconds


def _game_from_body(body: dict[str, Any]) -> Game:
    """A game from {seed, variant, players}, {position}, {record} or {text} (an uploaded
    file; a selfplay results file's with {game}, the index of one of its games); players 1
    is the solo game."""
    if "text" in body:
        text = body["text"]
        if not isinstance(text, str):
            raise _bad("text must be the contents of a position or game record file")
        if is_results_text(text):  # a tournament's game: {text, game}
            return _results_game(text, body.get("game"))
        try:
            data = parse_json(text)
        except PositionError as exc:
            raise _bad(f"the file is not JSON: {exc}") from None
        key = "record" if isinstance(data, dict) and data.get("format") == RECORD_FORMAT \
            else "position"
        body = {key: data}
    if "record" in body:
        try:
            return Game.from_record(record_from_dict(body["record"]))
        except RecordError as exc:
            raise _bad(f"invalid game record: {exc}", 422) from None
    if "position" in body:
        try:
            return Game(Session(engine.GameState.from_dict(body["position"])))
        except (PositionError, ValueError, TypeError) as exc:
            raise _bad(f"invalid position: {exc}", 422) from None
    seed = _int(body.get("seed", 0), "seed", 0, MAX_SEED)
    variant = body.get("variant", "standard")
    if variant not in engine.VARIANTS:
        raise _bad(f"variant must be one of {list(engine.VARIANTS)}, not {_short(variant)}")
    players = body.get("players", 2)
    if isinstance(players, bool) or players not in engine.PLAYER_COUNTS:
        raise _bad(f"players must be 1 (the solo game) or 2, not {_short(players)}")
    return Game(Session.new(seed, variant, players))


def _results_game(text: str, game: Any) -> Game:
    """Game ``game`` of a selfplay results file's text, its seats named by its agents."""
    if game is None:
        raise _bad("a selfplay results file holds many games: give 'game' (its index; the "
                   "Tournament results page lists them)", 422)
    index = _int(game, "game", 0, MAX_GAME_INDEX)
    try:
        record = results_game(text, index)
    except TournamentFileError as exc:
        raise _bad(f"the results file: {exc}", 422) from None
    return Game.from_record(record, seat_names=record.players)


def create_app(allowed_hosts: list[str] | None = None, capacity: int = 64,
               hint_nodes: int = jobs.MAX_NODES) -> Starlette:
    """The ASGI app. ``allowed_hosts``: the Host headers accepted (guards against DNS
    rebinding from web pages; see arle_ai.web.guard, which also refuses requests from other
    sites' pages and bodies that are not JSON); default 127.0.0.1, localhost and ::1.
    ``capacity``: games kept (one per tab); ``hint_nodes``: the tree size at which a hint
    stops (its memory bound)."""
    web = WebApp(capacity=capacity, hint_nodes=hint_nodes)
    hosts = allowed_hosts or ["127.0.0.1", "localhost", "::1"]
    g = "/api/games/{gid}"
    routes = [
        Route("/", web.index),
        Route("/api/catalog", web.catalog),
        Route("/api/games", web.new_game, methods=["POST"]),
        Route(g, web.get_game),
        Route(g + "/move", web.move, methods=["POST"]),
        Route(g + "/undo", web.undo, methods=["POST"]),
        Route(g + "/redo", web.redo, methods=["POST"]),
        Route(g + "/goto", web.goto, methods=["POST"]),
        Route(g + "/seats", web.seats, methods=["POST"]),
        Route(g + "/ai", web.ai_move, methods=["POST"]),
        Route(g + "/hint", web.hint),
        Route(g + "/stop", web.stop_search, methods=["POST"]),
        Route(g + "/analysis", web.analysis),
        Route(g + "/record", web.record),
        Route(g + "/position", web.position),
        Route("/api/position/check", web.check_position, methods=["POST"]),
        Route("/api/position/entry", web.entry, methods=["POST"]),
        Route("/api/tournament", web.tournament, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes,
                    middleware=[Middleware(RequestGuard, hosts=hosts)],
                    exception_handlers={HTTPException: _http_error,
                                        Exception: _server_error})
    app.state.web = web
    return app
