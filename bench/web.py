"""Measure arle serve: python bench/web.py [--seconds S] [--moves N] [--runs R] [--json].

Starts ``arle serve`` on a free port (a separate process, as a user would) and measures:

- first page load in headless Chromium (Debian's ``chromium``): the browser's load event and
  the moment the app is ready (its catalog and first game fetched and drawn), median of 5
  fresh browser contexts;
- the move round trip: POST a move and receive the new view (board, legal moves with costs
  and gains, move list), median and 90th percentile over N random legal moves;
- a hint of S seconds on the standard opening: updates per second on the stream, and the
  search's iterations per second (wall clock, and per CPU second of the search process, which
  a loaded machine does not skew) against the search ``arle suggest --time S`` runs on the
  same position (one after the other, R times each, alternating; medians).
"""

from __future__ import annotations

import json
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time

import httpx

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page_load(base: str, runs: int = 5) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    loads, ready = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=FLAGS)
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            start = time.perf_counter()
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready='1']")
            ready.append(time.perf_counter() - start)
            loads.append(page.evaluate("performance.getEntriesByType('navigation')[0]"
                                       ".loadEventEnd") / 1000)
            context.close()
        browser.close()
    return {"load_event_s": statistics.median(loads), "app_ready_s": statistics.median(ready)}


def move_round_trips(base: str, moves: int) -> dict[str, float]:
    rng = random.Random(0)
    times = []
    with httpx.Client(base_url=base, timeout=30) as http:
        reply = http.post("/api/games", json={"seed": 1, "seats": ["human", "human"]}).json()
        gid, game = reply["id"], reply["game"]
        while len(times) < moves:
            if game["terminal"]:
                reply = http.post("/api/games", json={"seed": len(times),
                                                      "seats": ["human", "human"]}).json()
                gid, game = reply["id"], reply["game"]
            action = rng.choice(game["legal"])["action"]
            start = time.perf_counter()
            r = http.post(f"/api/games/{gid}/move", json={"action": action})
            times.append(time.perf_counter() - start)
            game = r.json()["game"]
    times.sort()
    return {"moves": moves, "median_ms": 1000 * statistics.median(times),
            "p90_ms": 1000 * times[int(0.9 * len(times))]}


def hint(base: str, seconds: float) -> dict[str, float]:
    with httpx.Client(base_url=base, timeout=seconds + 30) as http:
        gid = http.post("/api/games", json={}).json()["id"]
        stamps, last = [], None
        with http.stream("GET", f"/api/games/{gid}/hint?seconds={seconds}") as s:
            for line in s.iter_lines():
                msg = json.loads(line)
                if msg["kind"] == "update":
                    stamps.append(time.perf_counter())
                    last = msg["data"]
    span = stamps[-1] - stamps[0] if len(stamps) > 1 else float("nan")
    return {"updates": len(stamps), "updates_per_s": (len(stamps) - 1) / span,
            "iterations": last["iterations"], "iterations_per_s": last["iterations_per_second"],
            "iterations_per_cpu_s": last["iterations"] / last["cpu_seconds"]}


CLI_SEARCH = """
import json, sys, time
import arle_ai
state = arle_ai.new_game(seed=0)
cpu = time.process_time()
report = arle_ai.suggest(state, time_limit=float(sys.argv[1]))
print(json.dumps([report.iterations, report.time_taken, time.process_time() - cpu]))
"""


def cli_suggest(seconds: float) -> tuple[float, float]:
    """Iterations per second and per CPU second of the search ``arle suggest --time S``
    runs (arle_ai.play.suggest on the standard opening, in a fresh process)."""
    out = subprocess.run([sys.executable, "-c", CLI_SEARCH, str(seconds)],
                         capture_output=True, text=True, check=True).stdout
    iterations, wall, cpu = json.loads(out)
    return iterations / wall, iterations / cpu


def main(argv: list[str]) -> int:
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 10.0
    moves = int(argv[argv.index("--moves") + 1]) if "--moves" in argv else 300
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(["arle", "serve", "--port", str(port)],
                              stderr=subprocess.PIPE, text=True)
    try:
        server.stderr.readline()  # "arle serve: open http://..." once it listens
        figures: dict[str, object] = {"page": page_load(base),
                                      "move": move_round_trips(base, moves)}
        hints, cli = [], []
        for _ in range(runs):
            hints.append(hint(base, seconds))
            cli.append(cli_suggest(seconds))
        med = statistics.median
        web_wall = med(h["iterations_per_s"] for h in hints)
        web_cpu = med(h["iterations_per_cpu_s"] for h in hints)
        cli_wall, cli_cpu = med(c[0] for c in cli), med(c[1] for c in cli)
        figures["hint"] = {
            "seconds": seconds, "runs": runs,
            "updates_per_s": med(h["updates_per_s"] for h in hints),
            "web_iterations_per_s": web_wall, "cli_iterations_per_s": cli_wall,
            "ratio": web_wall / cli_wall,
            "web_iterations_per_cpu_s": web_cpu, "cli_iterations_per_cpu_s": cli_cpu,
            "cpu_ratio": web_cpu / cli_cpu,
        }
    finally:
        server.terminate()
        server.wait(timeout=10)
    if "--json" in argv:
        print(json.dumps(figures, indent=1))
        return 0
    p, m, h = figures["page"], figures["move"], figures["hint"]
    print(f"first page load: load event {1000 * p['load_event_s']:.0f} ms, app ready "
          f"{1000 * p['app_ready_s']:.0f} ms (median of 5)")
    print(f"move round trip: median {m['median_ms']:.1f} ms, p90 {m['p90_ms']:.1f} ms "
          f"({m['moves']} moves)")
    print(f"hint ({h['seconds']:g} s, median of {h['runs']}): {h['updates_per_s']:.1f} "
          f"updates/s; iterations/s {h['web_iterations_per_s']:.0f} in the app vs "
          f"{h['cli_iterations_per_s']:.0f} from arle suggest (ratio {h['ratio']:.3f}); per "
          f"CPU second {h['web_iterations_per_cpu_s']:.0f} vs {h['cli_iterations_per_cpu_s']:.0f}"
          f" (ratio {h['cpu_ratio']:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
