"""How stable the default verdicts are: two search seeds over the positions of one recorded
game, with the default budget of ``arle analyze``; the share of positions where both seeds
agree on the best move, and on the mark (none, ``?``, ``??``) of the move played.

    python bench/stability.py [--time SEC | --iterations N] [--every K] [--start K]
                              [--games-seed S] [--out FILE]

A time budget gives fewer simulations on a loaded machine; ``--iterations N`` fixes the
simulations per search instead (e.g. what the default time gives on an idle machine), so the
figure does not depend on the load.

It writes one JSON line per decision to FILE (resumable: decisions already there are kept)
and prints the agreement figures (docs/benchmarks.md, "Stability of verdicts"): the same
best move (the same action, or another order of the same own decisions that reaches the
identical position: :func:`arle_ai.text.reading.same_move` on the two principal variations), the
same action strictly, the same most visited move (the search's own choice, which ``arle
suggest`` lists first; the review may name another move within noise of it the best:
:mod:`arle_ai.play.analysis`), the same mark, and the same best move up to noise (the two bests
are equal, or each is within statistical noise of the other in the other's search).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from arle_ai.formats.records import GameRecord  # noqa: E402
from arle_ai.play.agents import agent_from_spec  # noqa: E402
from arle_ai.play.analysis import review_position  # noqa: E402
from arle_ai.search.config import ANALYZE_BUDGET  # noqa: E402
from arle_ai.text.reading import same_move  # noqa: E402


def recorded_game(seed: int) -> GameRecord:
    """A game between two 400-iteration searches, the same for the same seed."""
    agents = [agent_from_spec("mcts:iterations=400", seed=seed + i) for i in (0, 1)]
    rec = GameRecord.new(seed=seed, players=["mcts:iterations=400"] * 2)
    state = rec.final_state()
    while not state.is_terminal():
        a = agents[state.current_player].select(state)
        rec.actions.append(a)
        state.apply(a)
    return rec


def _same(states: list, row: dict) -> bool:
    """Both seeds' best moves are the same move: the same action, or the turns of their
    principal variations reach the identical position."""
    a, b = row["seed0"], row["seed1"]
    return a["best"] == b["best"] or same_move(states[row["ply"] - 1], a.get("pv", []),
                                                b.get("pv", []))


def _same_up_to_noise(a: dict, b: dict) -> bool:
    """Both seeds' best moves agree, or each is within noise of the other's best."""
    if a["best"] == b["best"]:
        return True
    return b["best"] in a.get("near", []) and a["best"] in b.get("near", [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=ANALYZE_BUDGET.seconds)
    parser.add_argument("--iterations", type=int, default=None,
                        help="simulations per search instead of a time budget")
    parser.add_argument("--games-seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=1, help="analyse every k-th decision")
    parser.add_argument("--start", type=int, default=0,
                        help="from the k-th decision (0-based; with --every, e.g. two "
                             "processes --every 2 --start 0 / 1 writing one --out file each, "
                             "concatenated to one file and read with --every 1)")
    parser.add_argument("--out", default="stability.jsonl")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rec = recorded_game(args.games_seed)
    out = Path(args.out)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[row["ply"]] = row
    states = list(rec.states())
    plies = [p for p in range(len(rec.actions))
             if p % args.every == args.start % args.every
             and len(states[p].legal_actions()) > 1]
    with out.open("a") as f:
        for ply in tqdm(plies, desc="positions", file=sys.stderr):
            if ply + 1 in done:
                continue
            row = {"ply": ply + 1}
            for seed in (0, 1):
                t = time.perf_counter()
                budget = ({"iterations": args.iterations} if args.iterations
                          else {"time_limit": args.time})
                # what analyze_game does for this decision (seed + ply, the ply being 0 here)
                d, result = review_position(states[ply], rec.actions[ply], seed=seed * 7919,
                                            **budget)
                row[f"seed{seed}"] = {"best": d.best, "top": d.top,
                                      "mark": d.mark, "near": list(d.near_best),
                                      "lost": d.value_lost, "pv": list(d.best_pv),
                                      "sims": d.simulations,
                                      "s": time.perf_counter() - t,
                                      # the numbers behind the verdicts, to study rules of
                                      # marks and ties offline on the same searches
                                      "played": d.played,
                                      "best_value": d.best_value, "best_visits": d.best_visits,
                                      "played_value": d.played_value,
                                      "played_visits": d.played_visits,
                                      "moves": [[a.text, a.mean_value, a.visits]
                                                for a in result.actions]}
            f.write(json.dumps(row) + "\n")
            f.flush()
            done[row["ply"]] = row
    rows = list(done.values())
    strict = sum(r["seed0"]["best"] == r["seed1"]["best"] for r in rows)
    top = sum(r["seed0"].get("top", r["seed0"]["best"]) == r["seed1"].get("top", r["seed1"]["best"])
              for r in rows)
    best = sum(_same(states, r) for r in rows)
    marks = sum(r["seed0"]["mark"] == r["seed1"]["mark"] for r in rows)
    both = sum(_same(states, r) and r["seed0"]["mark"] == r["seed1"]["mark"] for r in rows)
    sims = sorted(r[k].get("sims", 0) for r in rows for k in ("seed0", "seed1"))
    near = sum(_same_up_to_noise(r["seed0"], r["seed1"]) for r in rows)
    near_both = sum(_same_up_to_noise(r["seed0"], r["seed1"])
                    and r["seed0"]["mark"] == r["seed1"]["mark"] for r in rows)
    n = len(rows)
    per = f"{args.iterations} simulations" if args.iterations else f"{args.time:g} s"
    print(f"{n} positions of a {len(rec.actions)}-decision game, {per} per search "
          f"(simulations per search: median {sims[len(sims) // 2]}, range {sims[0]}-{sims[-1]}; "
          f"load average now {os.getloadavg()[0]:.1f}, at the start {load:.1f}):")
    print(f"  same best move   {best}/{n} = {100 * best / n:.1f}% (the same action, or the "
          f"same own decisions in another order reaching the identical position)")
    print(f"  same action      {strict}/{n} = {100 * strict / n:.1f}%")
    print(f"  same most visited move (the search's own choice, what arle suggest lists first) "
          f"{top}/{n} = {100 * top / n:.1f}%")
    marked = [sum(r[k]["mark"] != "" for r in rows) for k in ("seed0", "seed1")]
    blunders = [sum(r[k]["mark"] == "??" for r in rows) for k in ("seed0", "seed1")]
    print(f"  same mark        {marks}/{n} = {100 * marks / n:.1f}% (moves marked by seed 0: "
          f"{marked[0]}, {blunders[0]} of them ??; by seed 1: {marked[1]}, {blunders[1]} ??)")
    print(f"  both             {both}/{n} = {100 * both / n:.1f}% (same best move and mark)")
    print(f"  same best move up to noise (each seed's best is the other's or within noise of "
          f"it) {near}/{n} = {100 * near / n:.1f}%; with the same mark {near_both}/{n} = "
          f"{100 * near_both / n:.1f}%")


if __name__ == "__main__":
    main()
