"""Load arle serve with many players at once, and with a hostile record (issue 35).

    python bench/web_load.py clients [--clients N] [--seconds S] [--ai-seconds T]
                                     [--hints P]
    python bench/web_load.py record [--mib M | --decisions D]

Each starts ``arle serve`` on a free port (a separate process, as a user would).

``clients``: N clients (default 60) play S seconds (default 90) at once, each its own game
against the AI (seats human and AI), as a page does: the human's decision is a random legal
move sent at once, the AI's is asked of the server (``mcts`` at T seconds, default 0.05), a
finished game is followed by a new one, and a refused request (429: every search slot busy;
503: the server keeps its most games) is asked again after a short wait (a person pressing
again). With ``--hints P`` a human decision is preceded by a hint (0.3 s) with probability
P, which must end with its ``done``. It counts every answer by kind and status, the games
finished, and at the end asks each client's game once more: every game a client was given
must still answer (finished or playable). Targets (issue 35): no 409 and no 5xx but the
"server full" refusals of a new game, none of them with N <= the games the server keeps
(64), and every game still open one the server said it keeps (no 410).

``record``: uploads a record of about M MiB (default 7.8 MB, under the 8 MiB body limit: a
random game and variations of random games on from its decisions, about 4,900 of them) while
another client asks for the catalog every 50 ms: how long the answer took (a refusal: the
record breaks the caps of docs/game-record.md), and the slowest answer the other client got
meanwhile. ``--decisions D`` makes the record D decisions instead (5000: at the cap, read).
"""

from __future__ import annotations

import asyncio
import collections
import json
import random
import socket
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx

HINT_SECONDS = 0.3
RETRY_SECONDS = (0.1, 0.5)  # a refused request is asked again after a wait in this range
FULL_RETRY_SECONDS = (1.0, 4.0)  # ... and a new game the server had no room for


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _arg(argv: list[str], name: str, default: float) -> float:
    return float(argv[argv.index(name) + 1]) if name in argv else default


class Tally:
    """Answers by (route, status), latencies by route, and the oddities seen."""

    def __init__(self) -> None:
        self.answers: collections.Counter[tuple[str, int]] = collections.Counter()
        self.seconds: dict[str, list[float]] = collections.defaultdict(list)
        self.examples: dict[tuple[str, int], str] = {}
        self.finished = 0  # games played to their end
        self.hints_done = 0
        self.hints_cut = 0  # a hint stream that ended without its done (reason time/memory)
        self.told_kept = 0  # new games whose reply said how many games the server keeps

    def note(self, route: str, status: int, seconds: float, text: str = "") -> None:
        self.answers[(route, status)] += 1
        self.seconds[route].append(seconds)
        if status >= 400:
            self.examples.setdefault((route, status), text[:200])


class _Lost:
    """What a request whose connection was lost gets (status 0): the server closed a
    keep-alive connection (idle 5 s) as the client sent on it. Asked again, as a browser
    does."""

    status_code = 0
    text = "the connection was closed"


async def _call(http: httpx.AsyncClient, tally: Tally, route: str, method: str, url: str,
                body: dict[str, Any] | None = None) -> httpx.Response | _Lost:
    start = time.perf_counter()
    try:
        r: httpx.Response | _Lost = await http.request(method, url, json=body)
    except httpx.TransportError as exc:
        r = _Lost()
        r.text = f"{type(exc).__name__}: {exc}"
    tally.note(route, r.status_code, time.perf_counter() - start,
               r.text if r.status_code >= 400 or not r.status_code else "")
    return r


async def _hint(http: httpx.AsyncClient, tally: Tally, gid: str) -> None:
    start = time.perf_counter()
    async with http.stream("GET", f"/api/games/{gid}/hint?seconds={HINT_SECONDS}") as s:
        if s.status_code != 200:
            text = (await s.aread()).decode()
            tally.note("hint", s.status_code, time.perf_counter() - start, text)
            return
        last: dict[str, Any] = {}
        async for line in s.aiter_lines():
            if line.strip():
                last = json.loads(line)
    tally.note("hint", 200, time.perf_counter() - start)
    if last.get("kind") == "done" and last["data"].get("reason") in ("time", "memory"):
        tally.hints_done += 1
    else:
        tally.hints_cut += 1
        tally.examples.setdefault(("hint", -1), json.dumps(last)[:200])


async def _client(base: str, index: int, end: float, ai_seconds: float, hints: float,
                  tally: Tally, games: dict[int, str]) -> None:
    """One player: games against the AI until ``end``; its game id kept in ``games``."""
    rng = random.Random(index)
    body = {"seats": ["human", "ai"]}
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        game: dict[str, Any] | None = None
        gid = ""
        while time.monotonic() < end:
            if game is None or game["terminal"]:
                if game is not None:
                    tally.finished += 1
                r = await _call(http, tally, "new", "POST", "/api/games",
                                {"seed": rng.randrange(2**31), **body})
                if not isinstance(r, httpx.Response) or r.status_code != 200:
                    await asyncio.sleep(rng.uniform(*FULL_RETRY_SECONDS))
                    continue
                gid, game = r.json()["id"], r.json()["game"]
                games[index] = gid
                tally.told_kept += "games_kept" in r.json().get("store", {})
                continue
            if game["ai_to_move"]:
                r = await _call(http, tally, "ai", "POST", f"/api/games/{gid}/ai",
                                {"ai": {"kind": "mcts", "seconds": ai_seconds}})
            else:
                if hints and rng.random() < hints:
                    await _hint(http, tally, gid)
                action = rng.choice(game["legal"])["action"]
                r = await _call(http, tally, "move", "POST", f"/api/games/{gid}/move",
                                {"action": action})
            if isinstance(r, httpx.Response) and r.status_code == 200:
                game = r.json()["game"]
            elif r.status_code in (404, 410):
                game = None  # the page starts a new game
            else:
                await asyncio.sleep(rng.uniform(*RETRY_SECONDS))


def _serve(port: int) -> subprocess.Popen[str]:
    server = subprocess.Popen(["arle", "serve", "--port", str(port)],
                              stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    server.stderr.readline()  # "arle serve: open http://..." once it listens
    return server


def clients(argv: list[str]) -> dict[str, Any]:
    count = int(_arg(argv, "--clients", 60))
    seconds = _arg(argv, "--seconds", 90)
    ai_seconds = _arg(argv, "--ai-seconds", 0.05)
    hints = _arg(argv, "--hints", 0.0)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(port)
    tally = Tally()
    games: dict[int, str] = {}
    try:
        async def run() -> dict[str, int]:
            end = time.monotonic() + seconds
            await asyncio.gather(*(_client(base, i, end, ai_seconds, hints, tally, games)
                                   for i in range(count)))
            # every game a client was given: finished or still playable
            out: collections.Counter[str] = collections.Counter()
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                for gid in games.values():
                    r = await http.get(f"/api/games/{gid}")
                    out["finished" if r.status_code == 200 and r.json()["game"]["terminal"]
                        else "playable" if r.status_code == 200 else str(r.status_code)] += 1
                catalog = (await http.get("/api/catalog")).json()
            out["kept"] = catalog.get("server", {}).get("games_kept", -1)
            return dict(out)

        ends = asyncio.run(run())
    finally:
        server.terminate()
        server.wait(timeout=10)
    statuses: dict[str, dict[str, int]] = collections.defaultdict(dict)
    for (route, status), n in sorted(tally.answers.items()):
        statuses[route][str(status)] = n
    return {
        "clients": count, "seconds": seconds, "ai_seconds": ai_seconds, "hints": hints,
        "answers": dict(statuses),
        "bad": sum(n for (r, s), n in tally.answers.items() if s in (409, 410)
                   or (s >= 500 and not (r == "new" and s == 503))),
        "connections_lost": sum(n for (_, s), n in tally.answers.items() if s == 0),
        "games_told_kept": tally.told_kept,
        "server_full": sum(n for (r, s), n in tally.answers.items() if r == "new" and s == 503),
        "games_finished": tally.finished, "hints_done": tally.hints_done,
        "hints_cut": tally.hints_cut,
        "clients_with_a_game": len(games), "games_at_the_end": ends,
        "median_ms": {r: round(1000 * statistics.median(v), 1)
                      for r, v in tally.seconds.items()},
        "p90_ms": {r: round(1000 * sorted(v)[int(0.9 * len(v))], 1)
                   for r, v in tally.seconds.items()},
        "examples": {f"{r} {s}": t for (r, s), t in tally.examples.items()},
    }


def hostile_record(mib: float, decisions: int | None = None) -> dict[str, Any]:
    """A record of about ``mib`` MiB: a random game, then variations (each a random game on
    from a random decision of it) until the size is reached: every one new positions. With
    ``decisions``: until the record holds that many decisions instead (the last variation
    cut to fit)."""
    import arle_ai
    from arle_ai.engine.testing import play_random_game
    from arle_ai.formats.records import record_game

    game = play_random_game(seed=1)
    start = arle_ai.new_game(seed=1)
    rec = record_game(start, game.actions, ["a", "b"], setup={"seed": 1, "variant": "standard"})
    rng = random.Random(1)
    variations, size, count = [], 0, len(rec.actions)
    while (count < decisions) if decisions is not None else (size < mib * 2**20):
        ply = rng.randrange(len(rec.actions))
        state = rec.state_at(ply)
        moves = []
        for action in play_random_game(seed=rng.randrange(2**31), start=state).actions:
            moves.append(state.action_to_string(action))
            state.apply(action)
        if decisions is not None:
            moves = moves[:decisions - count]
        v = {"parent": None, "ply": ply, "moves": moves}
        variations.append(v)
        size += len(json.dumps(v))
        count += len(moves)
    return {**rec.to_dict(), "variations": variations}


def record(argv: list[str]) -> dict[str, Any]:
    mib = _arg(argv, "--mib", 7.8e6 / 2**20)  # 7.8 MB: the body stays under the 8 MiB limit
    decisions = int(_arg(argv, "--decisions", 0)) or None
    text = json.dumps({"record": hostile_record(mib, decisions)})
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(port)
    try:
        async def run() -> dict[str, Any]:
            stop = asyncio.Event()
            pings: list[float] = []

            async def ping() -> None:
                async with httpx.AsyncClient(base_url=base, timeout=600) as http:
                    while not stop.is_set():
                        start = time.perf_counter()
                        r = await http.get("/api/catalog")
                        assert r.status_code == 200
                        pings.append(time.perf_counter() - start)
                        await asyncio.sleep(0.05)

            pinger = asyncio.create_task(ping())
            await asyncio.sleep(0.5)
            async with httpx.AsyncClient(base_url=base, timeout=600) as http:
                start = time.perf_counter()
                r = await http.post("/api/games", content=text,
                                    headers={"content-type": "application/json"})
                took = time.perf_counter() - start
            await asyncio.sleep(0.3)
            stop.set()
            await pinger
            record = json.loads(text)["record"]
            return {"bytes": len(text), "variations": len(record["variations"]),
                    "decisions": len(record["moves"]) + sum(
                        len(v["moves"]) for v in record["variations"]),
                    "status": r.status_code, "seconds": round(took, 3),
                    "answer": r.text[:300], "other_requests": len(pings),
                    "slowest_other_s": round(max(pings), 3),
                    "median_other_s": round(statistics.median(pings), 4)}

        return asyncio.run(run())
    finally:
        server.terminate()
        server.wait(timeout=10)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("clients", "record"):
        print(__doc__)
        return 2
    figures = clients(argv[1:]) if argv[0] == "clients" else record(argv[1:])
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
