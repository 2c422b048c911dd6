"""Rules equivalence of this build against another build of arle-ai, game by game, and with
``--search N`` the default search's equivalence too.

    python bench/compare_games.py OTHER_PYTHON [--games 2000] [--first 0] [--busy]
                                  [--players 1] [--search N]

Both interpreters play the same seeded random games: game g starts from new_game(g) (every
third game in the first-game variant) and at each decision takes the choice
``random.Random(g).randrange(len(legal))`` of the legal actions, so equal engines play equal
games. With ``--busy`` the choice avoids stop and pass 9 times in 10 when anything else is
legal, so the games build, load, travel and convert much more. At every step each build
reports a digest of: the legal action ids, their printed names (action_to_string), the
decision pending and who decides, the breeding plans, and the position (to_dict, normalized
by ``normalize`` in the worker); and at the end the scores, the score
breakdowns, the winner and the tie-break player. Every few steps it also checks in its own
build that the position survives to_json -> from_json and a pickle unchanged.

``--players 1`` plays solo games (``new_game(g, variant, players=1)``; the final digest has
the one score and breakdown, no winner). ``--search N`` makes each choice the default search's
instead of a random one: game g is played by ``agent_from_spec("mcts:iterations=N", seed=g)``
(tree reuse as in a game), and each step's digest adds the chosen action and the root's
statistics (each move's action, visits, value and mean margin, exact floats), so equal searches
play equal games and any change to the default search shows at its first move (a refactor of
the search code changes no game). A search game takes seconds, a batch is 5 of them.

The first step where two builds' digests differ is replayed in both with the full data and
the report prints the fields that differ (position paths, legal lists, scores). Exit status
1 when any game differs. Runs each build in its own subprocess, one after the other, in
batches (so a long run shows progress and uses one core at a time).
"""

from __future__ import annotations

import json
import subprocess
import sys

_WORKER = r"""
import hashlib, json, pickle, random, sys
import arle_ai

BUSY = sys.argv[-3] == "busy"
PLAYERS = int(sys.argv[-2])
SEARCH = int(sys.argv[-1])

def normalize(d):
    # format-only differences between builds go here: setup.players (issue 26) is new and 2
    if d["setup"].get("players") == 2:
        del d["setup"]["players"]
    return d

def snapshot(s):
    legal = s.legal_actions()
    return {
        "legal": legal,
        "names": [s.action_to_string(a) for a in legal],
        "pending": s.pending if not s.is_terminal() else None,
        "player": s.current_player,
        "plans": s.breeding_plans() if s.pending == "breed" else None,
        "position": normalize(s.to_dict()),
    }

def final(s):
    scores = s.scores()
    out = {"scores": scores, "breakdown": [s.score_breakdown(p) for p in range(len(scores))]}
    if len(scores) == 2:  # the solo game has no winner
        out.update(winner=s.winner(), tie_break=s.tie_break_player())
    return out

def digest(obj):
    return hashlib.sha1(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]

STOP_PASS = (arle_ai.ACTION_LAYOUT["stop"], arle_ai.ACTION_LAYOUT["pass"])

def choose(rng, legal):
    if BUSY:
        doing = [a for a in legal if a not in STOP_PASS]
        if doing and rng.random() < 0.9:
            return doing[rng.randrange(len(doing))]
    return legal[rng.randrange(len(legal))]

def searcher(g):
    # game g's default search agent (--search N) and what a step records of its choice
    from arle_ai.play.agents import agent_from_spec

    agent = agent_from_spec(f"mcts:iterations={SEARCH}", seed=g)

    def choose_by_search(s):
        a = agent.select(s)
        r = agent.last_result
        moves = [] if r is None else [[m.action, m.visits, m.win_rate, m.mean_margin]
                                      for m in r.moves]
        return a, {"chosen": a, "root": moves}
    return choose_by_search

def play(g, detail_step=-1):
    variant = "first-game" if g % 3 == 2 else "standard"
    # two players: the call of the builds from before the solo game (3e0284b) too
    s = arle_ai.new_game(g, variant, players=1) if PLAYERS == 1 else arle_ai.new_game(g, variant)
    rng = random.Random(g)
    search = searcher(g) if SEARCH else None
    digests, step = [], 0
    while not s.is_terminal():
        snap = snapshot(s)
        if search is not None:
            a, snap["search"] = search(s)
        else:
            a = choose(rng, snap["legal"])
        if step == detail_step:
            return snap
        digests.append(digest(snap))
        if step % 37 == 0:
            assert arle_ai.GameState.from_json(s.to_json()) == s, (g, step, "json round trip")
            assert pickle.loads(pickle.dumps(s)) == s, (g, step, "pickle round trip")
        assert s.parse_action(s.action_to_string(a)) == a, (g, step, "parse_action")
        s.apply(a)
        step += 1
    end = final(s)
    if detail_step >= 0:
        return {"final": end, "position": normalize(s.to_dict())}
    return {"game": g, "steps": digests, "final": digest(end), "scores": end["scores"]}

mode = sys.argv[1]
if mode == "batch":
    first, n = int(sys.argv[2]), int(sys.argv[3])
    for g in range(first, first + n):
        print(json.dumps(play(g)), flush=True)
else:
    print(json.dumps(play(int(sys.argv[2]), int(sys.argv[3]))))
"""


POLICY = ["uniform"]
GAMES = {"players": 2, "search": 0}   # --players, --search


def _run(python: str, *args: object) -> list[dict]:
    # the other build isolated (-I): a PYTHONPATH meant for this build (a source tree) would
    # make it import this build's arle_ai and compare this build with itself
    isolated = [] if python == sys.executable else ["-I"]
    done = subprocess.run([python, *isolated, "-c", _WORKER, *map(str, args), POLICY[0],
                           str(GAMES["players"]), str(GAMES["search"])],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{python} failed:\n{done.stderr[-2000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def _diff(a: object, b: object, path: str = "") -> list[str]:
    """The paths where two JSON values differ, with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {a.get(k, '<missing>')!r} vs {b.get(k, '<missing>')!r}")
            else:
                out += _diff(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = enumerate(zip(a, b, strict=True))
        return [d for i, (x, y) in pairs for d in _diff(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def _explain(this: str, other: str, game: int, step: int) -> list[str]:
    mine = _run(this, "detail", game, step)[0]
    theirs = _run(other, "detail", game, step)[0]
    return _diff(theirs, mine)


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    other = argv[0]
    games = int(argv[argv.index("--games") + 1]) if "--games" in argv else 2000
    first = int(argv[argv.index("--first") + 1]) if "--first" in argv else 0
    if "--busy" in argv:
        POLICY[0] = "busy"
    if "--players" in argv:
        GAMES["players"] = int(argv[argv.index("--players") + 1])
        if GAMES["players"] not in (1, 2):
            raise SystemExit("--players must be 1 or 2")
    if "--search" in argv:
        GAMES["search"] = int(argv[argv.index("--search") + 1])
        if GAMES["search"] < 1:
            raise SystemExit("--search takes a number of iterations, at least 1")
    batch = 5 if GAMES["search"] else 100
    differing = steps = 0
    for start in range(first, first + games, batch):
        n = min(batch, first + games - start)
        mine = _run(sys.executable, "batch", start, n)
        theirs = _run(other, "batch", start, n)
        for a, b in zip(mine, theirs, strict=True):
            steps += len(a["steps"])
            if a["steps"] == b["steps"] and a["final"] == b["final"]:
                continue
            differing += 1
            pairs = enumerate(zip(a["steps"], b["steps"], strict=False))
            at = next((i for i, (x, y) in pairs if x != y),
                      min(len(a["steps"]), len(b["steps"])))
            if at == len(a["steps"]) == len(b["steps"]):
                at = -1
            where = "the end" if at < 0 else f"step {at}"
            print(f"game {a['game']}: first difference at {where} (other vs this):")
            detail_at = at if at >= 0 else len(a["steps"])
            for line in _explain(sys.executable, other, a["game"], detail_at)[:20]:
                print("   ", line)
        print(f"... games {start}..{start + n - 1}: {differing} differing so far, "
              f"{steps} steps compared", file=sys.stderr, flush=True)
    kind = "solo" if GAMES["players"] == 1 else "two-player"
    chosen = (f"the default search at {GAMES['search']} iterations" if GAMES["search"]
              else f"{POLICY[0]} choices")
    print(f"{games} {kind} games ({chosen}), {steps} decisions compared: "
          f"{differing} games differ")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
