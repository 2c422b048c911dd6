"""One verdict: does the review (``arle analyze``) agree with the hint (``arle play``'s hint,
``arle suggest``) and with the browser's analysis, each at its default budget?

    python bench/verdicts.py hint [--games N] [--every K] [--out FILE]
    python bench/verdicts.py web [--game-seed S] [--out FILE]
    python bench/verdicts.py as-good [--positions N] [--every K] [--out FILE]

``hint``: over the decisions of recorded games (two 400-iteration searches playing each other,
bench/stability.py's games; every K-th decision with a choice), the move the hint names best
at its default budget (:data:`~arle_ai.search.config.HINT_BUDGET`) is reviewed as
``arle analyze`` reviews a played move at its default (:data:`~arle_ai.search.config.
ANALYZE_BUDGET`, the seed it gives that decision): the share marked ``?`` or ``??`` (target:
under 5%).

``web``: one recorded game analysed twice, as ``arle analyze`` does (its default budget and
seed) and as the browser's "Analyse game" does (``arle_ai.web.jobs``: its default budget): the
share of decisions with the same mark (target: at least 90%).

``as-good``: positions of recorded games (every K-th decision with a choice, N in all),
each reviewed as ``arle analyze`` reviews its recorded move (its default budget): the moves the
review names as good as the best must number at most 3, and each must have been measured
(its interval at most :data:`~arle_ai.text.reading.MEASURED_HALF_WIDTH` either side) with an
interval overlapping the best's (target: no named move outside the best's interval). As a
check that does not take the review's word for it, each named move is then searched on from
the position after it, as a played move is (as many simulations as the best got, at most the
budget again): the share whose interval still overlaps the best's, and whose mean lies inside
it.

All write one JSON line per decision to FILE (resumable: decisions already there are kept)
and print the figures with the machine's load (``os.getloadavg``) and the simulations the
searches ran: a time budget gives fewer on a loaded machine (docs/benchmarks.md, "One
verdict").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from stability import recorded_game  # noqa: E402

import arle_ai  # noqa: E402
from arle_ai.play.analysis import _value_after, analyze_game, review_position  # noqa: E402
from arle_ai.search.config import (  # noqa: E402
    ANALYZE_BUDGET,
    HINT_BUDGET,
    WEB_ANALYZE_BUDGET,
    Budget,
    SearchConfig,
)
from arle_ai.search.mcts import MCTS  # noqa: E402
from arle_ai.text.reading import AS_GOOD_NAMED, VALUE  # noqa: E402


def _done(path: Path) -> dict[tuple[int, int], dict]:
    rows = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                rows[(row["game"], row["ply"])] = row
    return rows


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def hint_against_review(games: int, every: int, out: Path, first_seed: int,
                        hint_budget: Budget = HINT_BUDGET,
                        review_budget: Budget = ANALYZE_BUDGET) -> None:
    """The hint's best move, reviewed: how often is it marked?"""
    rows = _done(out)
    with out.open("a") as f:
        for g in range(first_seed, first_seed + games):
            rec = recorded_game(g)
            states = list(rec.states())
            chosen = [ply for ply in range(len(rec.actions))
                      if len(states[ply].legal_actions()) > 1][::every]
            for ply in chosen:
                if (g, ply + 1) in rows:
                    continue
                state = states[ply]
                t = time.perf_counter()
                hint = arle_ai.suggest(state, hint_budget, SearchConfig(seed=0))
                review, first = review_position(state, hint.best_action, review_budget,
                                                SearchConfig(seed=0), ply=ply)
                row = {"game": g, "ply": ply + 1, "hint": hint.best.move,
                       "hint_simulations": hint.iterations, "mark": review.mark,
                       "review_best": review.best, "review_top": review.top,
                       "loss_beyond_noise": review.loss_beyond_noise,
                       "review_simulations": first.iterations,
                       "seconds": time.perf_counter() - t, "load": os.getloadavg()[0]}
                rows[(g, ply + 1)] = row
                f.write(json.dumps(row) + "\n")
                f.flush()
                marked = sum(r["mark"] != "" for r in rows.values())
                print(f"game {g} ply {ply + 1}: hint {row['hint']} -> {row['mark'] or 'ok'} "
                      f"({marked}/{len(rows)} marked)", flush=True)
    _report_hint(list(rows.values()), hint_budget, review_budget)


def _report_hint(rows: list[dict], hint_budget: Budget, review_budget: Budget) -> None:
    marked = [r for r in rows if r["mark"]]
    doubtful = sum(r["mark"] == "?" for r in rows)
    sims = sorted(r["hint_simulations"] for r in rows)
    review = sorted(r["review_simulations"] for r in rows)
    print(f"hint ({hint_budget}) reviewed at {review_budget}: {len(marked)} of {len(rows)} "
          f"hint-best moves marked = {100 * len(marked) / max(1, len(rows)):.1f}% "
          f"({doubtful} ?, {len(marked) - doubtful} ??)")
    print(f"median simulations: hint {sims[len(sims) // 2]}, review {review[len(review) // 2]}; "
          f"{_load()}")


def web_against_cli(game_seed: int, out: Path, cli_budget: Budget = ANALYZE_BUDGET,
                    web_budget: Budget = WEB_ANALYZE_BUDGET) -> None:
    """One game analysed as arle analyze and as the browser do: the same marks?"""
    rec = recorded_game(game_seed)
    rows = _done(out)
    if not rows:
        t = time.perf_counter()
        cli = analyze_game(rec, None, cli_budget, SearchConfig(seed=0))
        cli_seconds = time.perf_counter() - t
        t = time.perf_counter()
        # the browser's analysis job (arle_ai.web.jobs: the default budget, seed 0)
        web = analyze_game(rec, None, web_budget, SearchConfig(seed=0))
        web_seconds = time.perf_counter() - t
        with out.open("w") as f:
            for a, b in zip(cli.decisions, web.decisions, strict=True):
                row = {"game": game_seed, "ply": a.ply, "cli_mark": a.mark, "web_mark": b.mark,
                       "cli_best": a.best, "web_best": b.best,
                       "cli_simulations": a.simulations, "web_simulations": b.simulations}
                rows[(game_seed, a.ply)] = row
                f.write(json.dumps(row) + "\n")
        print(f"arle analyze {cli_seconds:.0f} s, the browser's analysis {web_seconds:.0f} s")
    same = sum(r["cli_mark"] == r["web_mark"] for r in rows.values())
    marks = sum(bool(r["cli_mark"]) for r in rows.values())
    print(f"arle analyze ({cli_budget}) and the browser's analysis ({web_budget}): "
          f"the same mark on {same} of {len(rows)} decisions = {100 * same / len(rows):.1f}% "
          f"({marks} marked by arle analyze); {_load()}")


def named_against_best(positions: int, every: int, out: Path, first_seed: int,
                       budget: Budget = ANALYZE_BUDGET) -> None:
    """The moves a review names as good as the best: how many, and are they within the best's
    interval, as the review found them and searched on?"""
    rows = _done(out)
    with out.open("a") as f:
        g = first_seed
        while len(rows) < positions:
            rec = recorded_game(g)
            states = list(rec.states())
            chosen = [ply for ply in range(len(rec.actions))
                      if len(states[ply].legal_actions()) > 1][::every]
            for ply in chosen:
                if len(rows) >= positions:
                    break
                if (g, ply + 1) in rows:
                    continue
                rows[(g, ply + 1)] = row = _as_good_row(g, ply, states[ply], rec.actions[ply],
                                                        budget)
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(f"game {g} ply {ply + 1}: {row['mark'] or 'no mark'}, "
                      f"{len(row['named'])} named as good "
                      f"({sum(n['overlaps'] for n in row['named'])} overlapping the best), "
                      f"{row['unseparated']} more unseparated, {row['simulations']} simulations",
                      flush=True)
            g += 1
    _report_as_good(list(rows.values())[:positions], budget)


def _as_good_row(game: int, ply: int, state: arle_ai.GameState, action: int,
                 budget: Budget) -> dict:
    """One position reviewed, and each move named as good checked against the best's
    interval, as found and searched on."""
    review, first = review_position(state, action, budget, SearchConfig(seed=0), ply=ply)
    stats = {m.move: m for m in first.moves}
    best = (review.best_value, review.best_visits)
    low, high = VALUE.interval(*best)
    named = []
    for text in review.near_best:
        m = stats[text]
        entry = {"move": text, "value": m.win_rate, "visits": m.visits,
                 "measured": VALUE.measured(m.win_rate, m.visits),
                 "overlaps": VALUE.as_good(best, (m.win_rate, m.visits))}
        if text != review.top:  # searched on, as a played move is
            more = MCTS(SearchConfig(seed=1000 + ply, reuse=False),
                        Budget(iterations=max(1, review.best_visits), seconds=budget.seconds))
            value, _, visits, _ = _value_after(state, m.action, first.player, more)
            entry.update(again_value=value, again_visits=visits,
                         again_overlaps=VALUE.interval(value, visits)[0] <= high
                         and low <= VALUE.interval(value, visits)[1],
                         again_inside=low <= value <= high)
        named.append(entry)
    # the rule before (issue 34): every other move within noise of the most visited one
    before = sum(1 for m in first.moves if m.move not in (review.best, review.played) and (
        m.move == review.top or VALUE.within_noise((review.best_value, review.best_visits),
                                                   (m.win_rate, m.visits))))
    return {"game": game, "ply": ply + 1, "mark": review.mark, "best": review.best,
            "named_before": before,
            "top": review.top, "best_value": review.best_value,
            "best_visits": review.best_visits, "best_interval": [low, high], "named": named,
            "unseparated": review.unseparated, "simulations": first.iterations,
            "load": os.getloadavg()[0]}


def _report_as_good(rows: list[dict], budget: Budget) -> None:
    named = [n for r in rows for n in r["named"]]
    outside = [n for n in named if not (n["measured"] and n["overlaps"])]
    most = max((len(r["named"]) for r in rows), default=0)
    again = [n for n in named if "again_value" in n]
    sims = sorted(r["simulations"] for r in rows)
    counts = {k: sum(len(r["named"]) == k for r in rows) for k in range(AS_GOOD_NAMED + 1)}
    if all("named_before" in r for r in rows):
        before = [r["named_before"] for r in rows]
        print(f"the rule before named {sum(before)} moves 'within noise' in these positions, "
              f"up to {max(before, default=0)} in one")
    print(f"{len(rows)} positions reviewed at {budget}: {len(named)} moves named as good "
          f"(positions with 0/1/2/3 named: {'/'.join(str(counts[k]) for k in counts)}), at "
          f"most {most} in a position (target: at most {AS_GOOD_NAMED}); {len(outside)} "
          f"named outside the best's interval or unmeasured (target: 0); "
          f"{sum(r['unseparated'] for r in rows)} more counted as unseparated")
    if again:
        print(f"searched on from the position after it: {sum(n['again_overlaps'] for n in again)}"
              f" of {len(again)} named moves still overlap the best's interval, "
              f"{sum(n['again_inside'] for n in again)} have their mean inside it")
    print(f"median simulations {sims[len(sims) // 2]}; {_load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    h = sub.add_parser("hint", help="the hint's best move against the review")
    h.add_argument("--games", type=int, default=4)
    h.add_argument("--first-seed", type=int, default=100)
    h.add_argument("--every", type=int, default=5, help="every K-th decision with a choice")
    h.add_argument("--out", type=Path, default=Path("verdicts-hint.jsonl"))
    w = sub.add_parser("web", help="the browser's analysis against arle analyze")
    w.add_argument("--game-seed", type=int, default=100)
    w.add_argument("--out", type=Path, default=Path("verdicts-web.jsonl"))
    a = sub.add_parser("as-good", help="the moves a review names as good as the best")
    a.add_argument("--positions", type=int, default=30)
    a.add_argument("--first-seed", type=int, default=100)
    a.add_argument("--every", type=int, default=12, help="every K-th decision with a choice")
    a.add_argument("--out", type=Path, default=Path("verdicts-as-good.jsonl"))
    a.add_argument("--seconds", type=float, default=None,
                   help="the review's budget in seconds instead of its default")
    a.add_argument("--iterations", type=int, default=None,
                   help="the review's budget in simulations instead of its default")
    for p, first, second in ((h, "hint", "review"), (w, "cli", "web")):
        for who in (first, second):
            p.add_argument(f"--{who}-seconds", type=float, default=None,
                           help=f"the {who}'s budget in seconds instead of its default")
            p.add_argument(f"--{who}-iterations", type=int, default=None,
                           help=f"the {who}'s budget in simulations instead of its default "
                                f"(what its time gives on an idle machine: load-free figures)")
    args = parser.parse_args()
    print(_load(), flush=True)

    def budget(who: str, default: Budget) -> Budget:
        return Budget.of(getattr(args, f"{who}_iterations"), getattr(args, f"{who}_seconds"),
                         default)

    if args.what == "as-good":
        named_against_best(args.positions, args.every, args.out, args.first_seed,
                           Budget.of(args.iterations, args.seconds, ANALYZE_BUDGET))
        return
    if args.what == "hint":
        hint_against_review(args.games, args.every, args.out, args.first_seed,
                            budget("hint", HINT_BUDGET), budget("review", ANALYZE_BUDGET))
    else:
        web_against_cli(args.game_seed, args.out, budget("cli", ANALYZE_BUDGET),
                        budget("web", WEB_ANALYZE_BUDGET))


if __name__ == "__main__":
    main()
