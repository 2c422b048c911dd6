"""Root exploration for self-play searches (``SearchConfig.root_noise``) and the improved
policy a search gives as a training target.

Two ways to make self-play try moves its priors rate low, both at the root only:

- **Dirichlet noise** (AlphaZero): each search's root priors are mixed with a draw of a
  symmetric Dirichlet, ``(1 - fraction) P + fraction Dir(alpha / n)`` over the n legal moves
  (``alpha`` is the total concentration, so the noise is as spread whatever the move count);
  the search is PUCT with these priors at the root. Its policy target is the root's visit
  shares.
- **Gumbel-Top-k with sequential halving** (Danihelka et al., "Policy improvement by planning
  with Gumbel", ICLR 2022): ``k`` moves are drawn without replacement by ``logit + g`` (g
  Gumbel noise; logit = log prior), and the budget is spent in ``ceil(log2 k)`` rounds: each
  round gives every remaining move the same number of simulations (through the core's
  ``root_edge``), then keeps the better half by ``g + logit + sigma(q)``, where
  ``sigma(q) = (C_VISIT + max visits) * C_SCALE * q``. The last survivor is the search's
  choice. Its policy target is the *completed-Q policy* ``softmax(logit + sigma(completed
  q))``, where an unvisited move's q is the prior-weighted mean value of the visited ones. It
  improves on the prior even when the search cannot visit every move.

Both draw their noise from the search's seed, so a seeded search with an iteration budget is
reproducible.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from arle_ai import engine

__all__ = ["C_VISIT", "C_SCALE", "dirichlet_mix", "gumbel_halving", "completed_q_policy",
           "visit_policy", "sigma"]

# The paper's constants (its Table 4): the scale of q grows with the most visited move's
# count, so values weigh more against the prior as the search learns more.
C_VISIT = 50.0
C_SCALE = 1.0
_MIN_PRIOR = 1e-30  # a prior of 0 (an underflow) as a logit
PROBE = 4  # simulations per sampled move that measure the speed of a timed search
PLAN = 0.8  # the share of the time left a timed search plans its rounds for (the rest: slack)


def dirichlet_mix(priors: Sequence[float], alpha: float, fraction: float,
                  rng: random.Random) -> list[float]:
    """``(1 - fraction) P + fraction Dir(alpha / n)`` for the n priors P."""
    n = len(priors)
    draws = [rng.gammavariate(alpha / n, 1.0) for _ in range(n)]
    total = sum(draws)
    if total <= 0:  # every draw underflowed: tiny alphas; the mass goes to one move
        draws = [1.0 if i == rng.randrange(n) else 0.0 for i in range(n)]
        total = 1.0
    return [(1 - fraction) * p + fraction * d / total for p, d in zip(priors, draws, strict=True)]


def sigma(q: float, max_visits: int) -> float:
    """The paper's monotone transform of a value q in 0..1, in logit units."""
    return (C_VISIT + max_visits) * C_SCALE * q


def _logits(priors: Sequence[float]) -> list[float]:
    return [math.log(max(p, _MIN_PRIOR)) for p in priors]


def _softmax(z: Sequence[float]) -> list[float]:
    top = max(z)
    e = [math.exp(v - top) for v in z]
    total = sum(e)
    return [v / total for v in e]


def completed_q_policy(visits: Sequence[int], values: Sequence[float],
                       priors: Sequence[float]) -> list[float]:
    """The completed-Q policy of a root (per move, in the order given): ``softmax(logit +
    sigma(q))``, an unvisited move's q being the prior-weighted mean value of the visited
    moves (the paper's v_mix without the value network's own estimate of the root, which
    this search has not: the visited moves' values stand for it). No visits: the prior."""
    logits = _logits(priors)
    seen = [i for i, n in enumerate(visits) if n > 0]
    if not seen:
        return _softmax(logits)
    mass = sum(priors[i] for i in seen)
    v_mix = (sum(priors[i] * values[i] for i in seen) / mass if mass > 0
             else sum(values[i] for i in seen) / len(seen))
    top = max(visits)
    return _softmax([logits[i] + sigma(values[i] if visits[i] > 0 else v_mix, top)
                     for i in range(len(visits))])


def visit_policy(visits: Sequence[int]) -> list[float]:
    """The visit shares of a root's moves (AlphaZero's policy target)."""
    total = sum(visits)
    return [n / total for n in visits] if total else [1.0 / len(visits)] * len(visits)


def gumbel_halving(tree: engine.SearchTree, state: engine.GameState, ev: engine.LeafEvaluator,
                   c: float, iterations: int | None, seconds: float | None, k: int,
                   scale: float, rng: random.Random) -> tuple[int, int]:
    """Sequential halving over the Gumbel-Top-k moves of `state`'s node (which must be in the
    tree), within `iterations` simulations and/or `seconds`; PUCT below the root. Returns
    (the chosen action, the simulations done)."""
    actions = [a for a, *_ in tree.stats(state) or ()]
    priors = [p for _, p in ev.action_priors(state)]
    n = len(actions)
    logits = _logits(priors)
    g = [scale * -math.log(-math.log(rng.random() or 1e-300)) for _ in range(n)]
    m = min(k, n)
    alive = sorted(range(n), key=lambda i: (-(g[i] + logits[i]), i))[:m]
    phases = max(1, math.ceil(math.log2(m))) if m > 1 else 1
    deadline = None if seconds is None else time.perf_counter() + seconds
    start = time.perf_counter()
    done = 0

    def simulate(i: int, count: int) -> bool:
        """`count` simulations through edge i (the deadline a hard stop); False once out of
        time."""
        nonlocal done
        left = -1.0
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
        done += tree.run(state, ev, count, left, c, True, root_edge=i)
        return True

    def score(i: int, stats: list[tuple[int, int, float, float, float]], top: int) -> float:
        visits, q = stats[i][1], stats[i][2]
        return g[i] + logits[i] + (sigma(q, top) if visits else 0.0)

    if iterations is None:  # a time budget: the speed of a first probe plans the rounds
        for i in alive:
            simulate(i, PROBE)
    for phase in range(phases):
        last = phase == phases - 1
        if iterations is None:
            counts = [0] * len(alive)  # each planned when its turn comes (the speed so far)
        elif last:  # what is left, the better-ranked moves first for the remainder
            left = iterations - done
            counts = [max(1, left // len(alive) + (r < left % len(alive)))
                      for r in range(len(alive))]
        else:
            counts = [max(1, iterations // (phases * len(alive)))] * len(alive)
        finished = []
        for r, (i, count) in enumerate(zip(alive, counts, strict=True)):
            if iterations is None:
                assert deadline is not None, "a budget has iterations or seconds"
                now = time.perf_counter()
                rate = done / max(now - start, 1e-9)
                count = max(1, int(PLAN * rate * max(deadline - now, 0.0)
                                   / ((phases - phase) * (len(alive) - r))))
            before = done
            if not simulate(i, count) or done - before < count:
                break  # out of time: the moves not given this round's share drop out
            finished.append(i)
        alive = finished or alive[:1]
        stats = tree.stats(state) or []
        top = max(s[1] for s in stats)
        alive.sort(key=lambda i: (-score(i, stats, top), i))
        if not last:
            alive = alive[:math.ceil(len(alive) / 2)]
    return actions[alive[0]], done
