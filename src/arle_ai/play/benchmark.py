"""Speed benchmarks (not tests): each figure beside a reference measured in the same run.

Used by ``arle bench`` and ``bench/run.py``. Timings are medians over repeats of CPU time
(fair on a shared machine), except the root-parallel ones, which are per wall-clock second.
bench/compare_builds.py compares the search rates with another build in one run.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from arle_ai import engine
from arle_ai.engine.testing import random_position
from arle_ai.search.config import Budget
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS

__all__ = ["run_benchmarks", "format_report", "mid_game_state"]


def _median_time(fn: Callable[[], Any], repeats: int) -> float:
    """Median CPU seconds of fn() (CPU time: a busy machine does not count against it)."""
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def _median_wall(fn: Callable[[], Any], repeats: int) -> float:
    """Median wall-clock seconds of fn() (for work spread over processes)."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def mid_game_state(seed: int = 0, decisions: int = 80) -> engine.GameState:
    """A reproducible mid-game position: `decisions` random legal actions from the opening."""
    return random_position(seed, decisions)


def _python_playout(state: engine.GameState, rng: random.Random) -> int:
    s = state.copy()
    n = 0
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
        n += 1
    return n


def run_benchmarks(quick: bool = False,
                   progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Measure and return the figures (per second unless named otherwise)."""
    say = progress or (lambda _msg: None)
    reps = 3 if quick else 5
    opening = engine.new_game(0)
    mid = mid_game_state()
    w = DEFAULT_WEIGHTS.as_array()
    out: dict[str, Any] = {}

    say("state copies")
    n = 200_000 if quick else 1_000_000
    t_c = _median_time(lambda: engine.copies(opening, n), reps)
    m = 20_000 if quick else 100_000
    t_py = _median_time(lambda: [opening.copy() for _ in range(m)], reps)
    out["copies_per_s_c"] = n / t_c
    out["copies_per_s_python_api"] = m / t_py

    say("random playouts")
    games = 200 if quick else 1000
    t_c = _median_time(lambda: engine.random_playouts(opening, games, 1), reps)
    out["random_playouts_per_s_c"] = games / t_c
    out["decisions_per_game"] = engine.random_playouts(opening, games, 7)
    py_games = 10 if quick else 30
    rng = random.Random(1)
    t_py = _median_time(lambda: [_python_playout(opening, rng) for _ in range(py_games)], reps)
    out["random_playouts_per_s_python"] = py_games / t_py
    out["c_vs_python_playout_ratio"] = (out["random_playouts_per_s_c"]
                                        / out["random_playouts_per_s_python"])
    single = []
    for i in range(games):
        t = time.process_time()
        engine.random_playout(opening, i)
        single.append(time.process_time() - t)
    out["random_playout_median_ms"] = 1000 * statistics.median(single)

    say("heuristic playouts")
    hg = 100 if quick else 400
    t_h = _median_time(lambda: engine.heuristic_playouts(opening, w, hg, 3), reps)
    out["heuristic_playouts_per_s_c"] = hg / t_h

    say("MCTS")
    iters = 1000 if quick else 5000
    for name, st in (("opening", opening), ("mid_game", mid)):
        out[f"mcts_iterations_per_s_{name}"] = _search_rate(st, iters, reps)
    out["mcts_iterations_per_s_opening_heuristic_rollouts"] = _search_rate(
        opening, iters, reps, leaf="rollout", rollout="heuristic")
    out["mcts_iterations_per_s_opening_full_random_rollouts"] = _search_rate(
        opening, iters // 5, reps, leaf="rollout", rollout="random", horizon=-1)
    null = _search_rate(opening, iters * 10, reps, leaf="null")
    out["mcts_iterations_per_s_opening_null_leaf"] = null
    out["mcts_tree_us_per_iteration"] = 1e6 / null
    # the leaf's share: an iteration's cost less the tree's (the null leaf's)
    out["mcts_leaf_us_per_iteration"] = 1e6 / out["mcts_iterations_per_s_opening"] - 1e6 / null
    out["mcts_leaf_us_per_iteration_heuristic_rollout"] = (
        1e6 / out["mcts_iterations_per_s_opening_heuristic_rollouts"] - 1e6 / null)
    ratios = []  # the same playouts by the reference policy code, interleaved
    for _ in range(reps):
        t_new = _median_time(lambda: engine.heuristic_playouts(opening, w, hg, 3), 1)
        t_ref = _median_time(
            lambda: engine.heuristic_playouts(opening, w, hg, 3, reference=True), 1)
        ratios.append(t_ref / t_new)
    out["heuristic_policy_speedup_vs_reference"] = statistics.median(ratios)

    say("tree memory")
    search = MCTS(iterations=iters, seed=0, reuse=False)
    search.search(opening)
    nodes = max(search.node_count(), 1)
    out["tree_nodes"] = search.node_count()
    out["tree_edges_per_node"] = search.tree.edge_count / nodes
    out["bytes_per_tree_node"] = search.tree.bytes_allocated / nodes
    out["bytes_per_tree_node_used"] = search.tree.bytes_used / nodes
    out["state_struct_bytes"] = len(opening.raw_bytes())

    say("root parallelism")
    out.update(_parallel_rates(opening, iters, reps))
    return out


def _search_rate(state: engine.GameState, iterations: int, reps: int, **options: Any) -> float:
    """Median search iterations per CPU second (fresh trees, default options otherwise)."""
    rates = []
    for r in range(reps):
        search = MCTS(iterations=iterations, seed=r, reuse=False, **options)
        t = time.process_time()
        search.search(state)
        rates.append(iterations / max(time.process_time() - t, 1e-9))
    return statistics.median(rates)


def _parallel_rates(state: engine.GameState, iterations: int, reps: int) -> dict[str, float]:
    """Iterations per wall-clock second with 1 and 2 workers (persistent pool, started by a
    first search outside the timing; each timed search starts from a fresh tree)."""
    out = {}
    for k in (1, 2):
        search = MCTS(iterations=iterations * k, seed=0, reuse=False, workers=k)
        search.search(state)
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            search.search(state)
            times.append(time.perf_counter() - t)
        out[f"mcts_iterations_per_wall_s_workers_{k}"] = iterations * k / statistics.median(times)
        # the fixed cost of a search: a tiny budget, so that almost all is overhead (for 2
        # workers: sending the root, gathering statistics and principal variations, merging)
        search.budget = Budget(iterations=k)
        out[f"mcts_search_overhead_ms_workers_{k}"] = 1000 * _median_wall(
            functools.partial(search.search, state), 5)
        search.close()
    out["mcts_parallel_speedup_2_workers"] = (out["mcts_iterations_per_wall_s_workers_2"]
                                              / out["mcts_iterations_per_wall_s_workers_1"])
    return out


def format_report(r: dict[str, Any]) -> str:
    """The figures as readable lines."""
    lines = [
        f"state copies/s (C loop)            {r['copies_per_s_c']:>14,.0f}",
        f"state copies/s (Python .copy())    {r['copies_per_s_python_api']:>14,.0f}",
        f"random playouts/s (C)              {r['random_playouts_per_s_c']:>14,.1f}",
        f"random playouts/s (Python loop)    {r['random_playouts_per_s_python']:>14,.1f}",
        f"  ratio C / Python                 {r['c_vs_python_playout_ratio']:>14,.1f}x",
        f"  median random playout (one game) {r['random_playout_median_ms']:>14,.3f} ms",
        f"heuristic playouts/s (C)           {r['heuristic_playouts_per_s_c']:>14,.1f}",
        "  speed-up vs the reference policy "
        f"{r['heuristic_policy_speedup_vs_reference']:>14,.2f}x",
        f"MCTS iterations/s, opening         {r['mcts_iterations_per_s_opening']:>14,.0f}",
        f"MCTS iterations/s, mid-game        {r['mcts_iterations_per_s_mid_game']:>14,.0f}",
        "MCTS iterations/s, heuristic rollout "
        f"{r['mcts_iterations_per_s_opening_heuristic_rollouts']:>12,.0f}",
        "MCTS iterations/s, full random     "
        f"{r['mcts_iterations_per_s_opening_full_random_rollouts']:>14,.0f}",
        "MCTS iterations/s, null leaf       "
        f"{r['mcts_iterations_per_s_opening_null_leaf']:>14,.0f}",
        f"  per iteration: tree              {r['mcts_tree_us_per_iteration']:>14,.2f} us",
        f"  per iteration: leaf (default)    {r['mcts_leaf_us_per_iteration']:>14,.2f} us",
        "  per iteration: leaf (heuristic)  "
        f"{r['mcts_leaf_us_per_iteration_heuristic_rollout']:>14,.2f} us",
        f"MCTS iterations/wall s, 1 worker   {r['mcts_iterations_per_wall_s_workers_1']:>14,.0f}",
        f"MCTS iterations/wall s, 2 workers  {r['mcts_iterations_per_wall_s_workers_2']:>14,.0f}",
        f"  speed-up with 2 workers          {r['mcts_parallel_speedup_2_workers']:>14,.2f}x",
        "  fixed cost a search, 1 / 2 workers "
        f"{r['mcts_search_overhead_ms_workers_1']:>6,.2f} / "
        f"{r['mcts_search_overhead_ms_workers_2']:.2f} ms",
        f"tree bytes per node (allocated)    {r['bytes_per_tree_node']:>14,.0f} bytes",
        f"tree bytes per node (in use)       {r['bytes_per_tree_node_used']:>14,.0f} bytes",
        f"  legal actions per node (mean)    {r['tree_edges_per_node']:>14,.1f}",
        f"state struct                       {r['state_struct_bytes']:>14,} bytes",
        f"decisions per random game (mean)   {r['decisions_per_game']:>14,.1f}",
    ]
    return "\n".join(lines)
