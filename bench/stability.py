"""How stable the default verdicts are: two search seeds over the positions of one recorded
game, with the default budget of ``arle analyze``; the share of positions where both seeds
agree on the best move, and on the mark (none, ``?``, ``??``) of the move played.

    python bench/stability.py [--time SEC] [--games-seed S] [--out FILE]

It writes one JSON line per decision to FILE (resumable: decisions already there are kept)
and prints the agreement figures (docs/benchmarks.md, "Stability of verdicts"): the same
best move, the same mark, and the same best move up to noise (the two bests are equal, or each
is within statistical noise of the other in the other's search).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from arle_ai.agents import agent_from_spec  # noqa: E402
from arle_ai.analysis import DEFAULT_TIME, analyze_game  # noqa: E402
from arle_ai.records import GameRecord  # noqa: E402


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


def _same_up_to_noise(a: dict, b: dict) -> bool:
    """Both seeds' best moves agree, or each is within noise of the other's best."""
    if a["best"] == b["best"]:
        return True
    return b["best"] in a.get("near", []) and a["best"] in b.get("near", [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=DEFAULT_TIME)
    parser.add_argument("--games-seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=1, help="analyse every k-th decision")
    parser.add_argument("--out", default="stability.jsonl")
    args = parser.parse_args()
    rec = recorded_game(args.games_seed)
    out = Path(args.out)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[row["ply"]] = row
    states = list(rec.states())
    plies = [p for p in range(len(rec.actions))
             if p % args.every == 0 and len(states[p].legal_actions()) > 1]
    with out.open("a") as f:
        for ply in tqdm(plies, desc="positions", file=sys.stderr):
            if ply + 1 in done:
                continue
            part = GameRecord(start=states[ply].copy(), actions=rec.actions[ply:ply + 1],
                              setup=None, players=rec.players)
            row = {"ply": ply + 1}
            for seed in (0, 1):
                t = time.perf_counter()
                d = analyze_game(part, time_limit=args.time, seed=seed * 7919).decisions[0]
                row[f"seed{seed}"] = {"best": d.best, "mark": d.mark, "near": list(d.near_best),
                                      "lost": d.value_lost, "s": time.perf_counter() - t}
            f.write(json.dumps(row) + "\n")
            f.flush()
            done[row["ply"]] = row
    rows = list(done.values())
    best = sum(r["seed0"]["best"] == r["seed1"]["best"] for r in rows)
    marks = sum(r["seed0"]["mark"] == r["seed1"]["mark"] for r in rows)
    both = sum(r["seed0"]["best"] == r["seed1"]["best"]
               and r["seed0"]["mark"] == r["seed1"]["mark"] for r in rows)
    near = sum(_same_up_to_noise(r["seed0"], r["seed1"]) for r in rows)
    near_both = sum(_same_up_to_noise(r["seed0"], r["seed1"])
                    and r["seed0"]["mark"] == r["seed1"]["mark"] for r in rows)
    n = len(rows)
    print(f"{n} positions of a {len(rec.actions)}-decision game, {args.time:g} s per search:")
    print(f"  same best move   {best}/{n} = {100 * best / n:.1f}%")
    print(f"  same mark        {marks}/{n} = {100 * marks / n:.1f}%")
    print(f"  both             {both}/{n} = {100 * both / n:.1f}%")
    print(f"  same best move up to noise (each seed's best is the other's or within noise of "
          f"it) {near}/{n} = {100 * near / n:.1f}%; with the same mark {near_both}/{n} = "
          f"{100 * near_both / n:.1f}%")


if __name__ == "__main__":
    main()
