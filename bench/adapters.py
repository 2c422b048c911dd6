"""What the research adapters cost per step, against the bare core, measured in one run.

    python bench/adapters.py [--quick]

Needs the extras: pip install "arle-ai[openspiel,pettingzoo]". Times are CPU seconds of this
process (time.process_time), medians of repeats that alternate between the loops compared, so
a loaded machine slows every line alike. Figures and their reading: docs/research.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts

import arle_ai
from arle_ai.adapters.openspiel import RolloutEvaluator, load_game
from arle_ai.adapters.pettingzoo import env as pz_env
from arle_ai.adapters.pettingzoo import play_random


def core_loop(games: int) -> int:
    """Random play driven from Python through the core: the reference loop."""
    rng = random.Random(0)
    steps = 0
    for g in range(games):
        s = arle_ai.new_game(seed=g)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
    return steps


def pettingzoo_loop(games: int) -> int:
    """Random play through the AEC env: every step observes (features + mask) and picks a
    legal action from the mask (arle_ai.adapters.pettingzoo.play_random)."""
    rng = random.Random(0)
    e = pz_env()
    steps = 0
    for g in range(games):
        e.reset(seed=g)
        steps += play_random(e, rng)[0]
    return steps


def pettingzoo_sample_loop(games: int) -> int:
    """The same with gymnasium's ``action_space(agent).sample(mask)`` choosing."""
    e = pz_env()
    steps = 0
    for g in range(games):
        e.reset(seed=g)
        for agent in e.action_spaces:
            e.action_space(agent).seed(g)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(e.action_space(agent).sample(obs["action_mask"]))
            steps += 1
    return steps


def openspiel_loop(games: int) -> int:
    """Random play through the OpenSpiel game (legal_actions / apply_action)."""
    rng = random.Random(0)
    steps = 0
    for g in range(games):
        state = load_game(seed=g).new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def _median_rate(jobs: dict[str, Callable[[], int]], reps: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(reps):
        for name, job in jobs.items():  # alternate, so load changes hit every loop alike
            t = time.process_time()
            n = job()
            times[name].append(n / (time.process_time() - t))
    return {name: statistics.median(rates) for name, rates in times.items()}


def run(quick: bool = False) -> dict[str, float]:
    reps = 3 if quick else 5
    games = 10 if quick else 30
    out = _median_rate({
        "core": lambda: core_loop(games),
        "pettingzoo": lambda: pettingzoo_loop(games),
        "pettingzoo_sample": lambda: pettingzoo_sample_loop(games),
        "openspiel": lambda: openspiel_loop(games),
    }, reps)

    opening = arle_ai.new_game(seed=0)
    os_state = load_game(seed=0).new_initial_state()
    n = 20_000 if quick else 100_000
    out.update(_median_rate({
        "core_copy": lambda: len([opening.copy() for _ in range(n)]),
        "openspiel_clone": lambda: len([os_state.clone() for _ in range(n // 10)]),
    }, reps))

    sims = 1000 if quick else 3000
    game = load_game(seed=0)
    for horizon in (2, 1):
        def bot(h: int = horizon) -> int:
            b = os_mcts.MCTSBot(game, 2.0, sims, RolloutEvaluator(horizon=h, seed=1),
                                random_state=np.random.RandomState(1), solve=False)
            b.step(os_state)
            return sims

        def ours(h: int = horizon) -> int:
            arle_ai.MCTS(iterations=sims, leaf="rollout", horizon=h, reuse=False,
                         seed=1).search(opening)
            return sims

        rates = _median_rate({"bot": bot, "ours": ours}, reps)
        out[f"mctsbot_h{horizon}"] = rates["bot"]
        out[f"arle_mcts_h{horizon}"] = rates["ours"]
    return out


def report(r: dict[str, float]) -> str:
    core = r["core"]
    lines = [
        "random play, steps/s (CPU time)",
        f"  bare core, Python loop          {core:>12,.0f}",
        f"  PettingZoo env (mask pick)      {r['pettingzoo']:>12,.0f}   "
        f"1/{core / r['pettingzoo']:.1f} of the core",
        f"  PettingZoo env (space.sample)   {r['pettingzoo_sample']:>12,.0f}   "
        f"1/{core / r['pettingzoo_sample']:.1f} of the core",
        f"  OpenSpiel game                  {r['openspiel']:>12,.0f}   "
        f"1/{core / r['openspiel']:.1f} of the core",
        "copies/s",
        f"  GameState.copy()                {r['core_copy']:>12,.0f}",
        f"  OpenSpiel state.clone()         {r['openspiel_clone']:>12,.0f}",
        "search from the opening, simulations/s (one core)",
    ]
    for h in (2, 1):
        lines.append(f"  MCTSBot + RolloutEvaluator h{h}  {r[f'mctsbot_h{h}']:>12,.0f}   "
                     f"arle_ai.MCTS h{h}: {r[f'arle_mcts_h{h}']:,.0f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    args = parser.parse_args()
    print(f"pyspiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}".strip())
    print(report(run(args.quick)))


if __name__ == "__main__":
    main()
