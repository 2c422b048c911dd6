"""Match statistics for self-play: scores, Elo with intervals, LOS, SPRT and rating tables.

Pure Python maths (no numpy). A game scores 1 for a win, 0.5 for a draw and 0 for a loss; a
result over several games is given as ``(w, d, l)`` from one agent's view. Elo differences use
the logistic model: an Elo difference ``e`` gives the expected score ``1 / (1 + 10**(-e/400))``.

Infinite values are returned as ``math.inf`` / ``-math.inf`` (a 100% or 0% score); values that
are undefined (no games) as ``math.nan``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import Any

__all__ = ["elo_from_score", "elo_interval", "expected_score", "likelihood_of_superiority",
           "mean_interval", "paired_t_test", "PairedTest", "student_t_sf", "rating_table",
           "ratings_exist", "score_fraction", "score_variance", "sprt_bounds", "sprt_llr",
           "sprt_verdict", "wilson_interval"]


def _z(confidence: float) -> float:
    """The two-sided standard normal quantile for ``confidence`` (0.95 -> 1.95996...)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, not {confidence!r}")
    return NormalDist().inv_cdf((1.0 + confidence) / 2.0)


def _check_counts(*counts: float) -> None:
    for c in counts:
        if c < 0 or math.isnan(c):
            raise ValueError(f"game counts must be non-negative, not {c!r}")


def score_fraction(w: float, d: float, l: float) -> float:  # noqa: E741
    """The score per game, draws counting half: ``(w + d/2) / (w + d + l)`` (nan if no games)."""
    _check_counts(w, d, l)
    n = w + d + l
    if n == 0:
        return math.nan
    return (w + 0.5 * d) / n


def expected_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` points stronger (logistic model)."""
    if elo == math.inf:
        return 1.0
    if elo == -math.inf:
        return 0.0
    return 1.0 / (1.0 + float(10.0 ** (-elo / 400.0)))


def elo_from_score(p: float) -> float:
    """The Elo difference ``400*log10(p/(1-p))`` for a score fraction p (+-inf at 1 and 0)."""
    if math.isnan(p):
        return math.nan
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a score fraction must lie in [0, 1], not {p!r}")
    if p == 1.0:
        return math.inf
    if p == 0.0:
        return -math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def score_variance(w: float, d: float, l: float) -> float:  # noqa: E741
    """The (trinomial) variance of the per-game score: ``E[x^2] - E[x]^2`` with x in {1, .5, 0}.

    That is ``(w*(1-m)^2 + d*(0.5-m)^2 + l*m^2) / n`` with ``m`` the mean score (nan if no games).
    """
    m = score_fraction(w, d, l)
    if math.isnan(m):
        return math.nan
    n = w + d + l
    return (w * (1.0 - m) ** 2 + d * (0.5 - m) ** 2 + l * m ** 2) / n


def elo_interval(w: float, d: float, l: float,  # noqa: E741
                 confidence: float = 0.95) -> tuple[float, float, float]:
    """``(elo, low, high)``: the Elo difference of the score and its confidence interval.

    The interval is the Wilson score interval of the mean score (:func:`wilson_interval`,
    draws counting half) mapped through :func:`elo_from_score`, so it agrees with the score
    interval: it holds 0 exactly when the score interval holds 50%. (The normal interval
    ``m +- z*sqrt(var/n)`` is far too narrow for short matches: 8-2 gave [+36, +inf] while
    the Wilson interval [49%, 94%] holds 50%.) A bound at a score of 0 or 1 is -inf / +inf.
    """
    z = _z(confidence)
    m = score_fraction(w, d, l)
    if math.isnan(m):
        return (math.nan, math.nan, math.nan)
    low, high = wilson_interval(m, w + d + l, z)
    return (elo_from_score(m), elo_from_score(low), elo_from_score(high))


def wilson_interval(score: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of a score fraction over ``n`` games.

    ``(p + z^2/2n -+ z*sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)``; draws count half in ``p``.
    No games gives ``(0.0, 1.0)``.
    """
    if n < 0:
        raise ValueError(f"the number of games must be non-negative, not {n!r}")
    if n == 0:
        return (0.0, 1.0)
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score fraction must lie in [0, 1], not {score!r}")
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (score + z2 / (2.0 * n)) / denom
    half = z / denom * math.sqrt(score * (1.0 - score) / n + z2 / (4.0 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def likelihood_of_superiority(w: float, l: float) -> float:  # noqa: E741
    """LOS, the probability that the first player is the stronger: draws carry no information.

    ``0.5 * (1 + erf((w - l) / sqrt(2 (w + l))))`` (chessprogramming.org, Match Statistics);
    0.5 when there are no decisive games.
    """
    _check_counts(w, l)
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def sprt_llr(w: float, d: float, l: float, elo0: float, elo1: float) -> float:  # noqa: E741
    """The log-likelihood ratio of H1 (Elo difference ``elo1``) against H0 (``elo0``).

    The normal approximation of the generalised SPRT for a trinomial result, from M. Van den
    Bergh, "A practical introduction to the GSPRT" (hardy.uhasselt.be/Toga/GSPRT_approximation
    .pdf), as given in chessprogramming.org "Match Statistics", section SPRT. It needs no draw
    model, so it suits games without draws (the BayesElo LLR of cutechess needs some draws)::

        s0, s1 = expected_score(elo0), expected_score(elo1)
        m      = (w + d/2) / n                    # mean score per game
        var    = (w + d/4) / n - m**2             # trinomial per-game variance
        LLR    = (s1 - s0) * (2*m - s0 - s1) / (2 * var / n)

    i.e. ``n/2 * ((m - s0)^2 - (m - s1)^2) / var``. With no games, or no spread in the results
    yet (all wins, all draws or all losses: var = 0), the LLR is undefined and 0.0 is returned.
    """
    _check_counts(w, d, l)
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be less than elo1, not {elo0!r} >= {elo1!r}")
    n = w + d + l
    if n == 0:
        return 0.0
    m = (w + 0.5 * d) / n
    var = (w + 0.25 * d) / n - m * m
    if var <= 1e-12:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var / n)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(log(beta/(1-alpha)), log((1-beta)/alpha))`` (0.05/0.05: +-2.944)."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < v < 0.5:
            raise ValueError(f"{name} must be strictly between 0 and 0.5, not {v!r}")
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def sprt_verdict(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str:
    """``"H1"`` (accept elo1) at or above the upper bound, ``"H0"`` at or below the lower
    bound, otherwise ``"continue"``."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean +- ``z`` standard errors (sample standard deviation).

    No values give nan throughout; a single value gives nan bounds.
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (Lentz's method, as
    in Numerical Recipes' betacf)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t distribution with `df` degrees of freedom."""
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, not {df!r}")
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t > 0 else 1.0 - tail


class PairedTest(tuple[int, float, float, float, float, bool]):
    """The result of :func:`paired_t_test`: ``(n, mean_difference, sd, t, p, significant)``."""

    __slots__ = ()

    @property
    def n(self) -> int:
        return self[0]

    @property
    def mean(self) -> float:
        return self[1]

    @property
    def sd(self) -> float:
        return self[2]

    @property
    def t(self) -> float:
        return self[3]

    @property
    def p(self) -> float:
        return self[4]

    @property
    def significant(self) -> bool:
        return self[5]


def paired_t_test(candidate: Sequence[float], best: Sequence[float],
                  alpha: float = 0.05) -> PairedTest:
    """The one-sided paired t-test of H0: mean(candidate - best) <= 0 against H1: > 0, on
    scores paired by setup (the solo gate: both play the same setups). Significant when the
    p-value is below `alpha`. Differences that are all equal give sd 0: t is +-inf (a
    constant positive gain is significant, none or a loss never), and fewer than 2 pairs
    are never significant."""
    if len(candidate) != len(best):
        raise ValueError(f"paired scores need as many of each: {len(candidate)} and "
                         f"{len(best)}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")
    diffs = [float(a) - float(b) for a, b in zip(candidate, best, strict=True)]
    if any(not math.isfinite(d) for d in diffs):
        raise ValueError("paired scores must be finite numbers")
    n = len(diffs)
    if n < 2:
        mean = diffs[0] if diffs else math.nan
        return PairedTest((n, mean, math.nan, math.nan, math.nan, False))
    mean = math.fsum(diffs) / n
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    if sd == 0.0:
        t = math.inf if mean > 0 else (-math.inf if mean < 0 else math.nan)
        p = 0.0 if mean > 0 else 1.0
    else:
        t = mean / (sd / math.sqrt(n))
        p = student_t_sf(t, n - 1)
    return PairedTest((n, mean, sd, t, p, p < alpha))


def _strongly_connected(agents: list[Any], gained: dict[Any, set[Any]]) -> bool:
    """Whether every agent reaches every other along 'scored something against' edges."""
    if len(agents) <= 1:
        return True

    def reach(start: Any, edges: dict[Any, set[Any]]) -> set[Any]:
        seen, stack = {start}, [start]
        while stack:
            for nxt in edges.get(stack.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    reverse: dict[Any, set[Any]] = {}
    for a, bs in gained.items():
        for b in bs:
            reverse.setdefault(b, set()).add(a)
    everyone = set(agents)
    return reach(agents[0], gained) == everyone and reach(agents[0], reverse) == everyone


def ratings_exist(results: Iterable[tuple[Any, Any, float]]) -> bool:
    """Whether the maximum-likelihood ratings of games ``(a, b, score_of_a)`` are all finite
    (every agent scored against every group of the others)."""
    agents: list[Any] = []
    gained: dict[Any, set[Any]] = {}
    for a, b, s in results:
        for x in (a, b):
            if x not in agents:
                agents.append(x)
        if s > 0:
            gained.setdefault(a, set()).add(b)
        if s < 1:
            gained.setdefault(b, set()).add(a)
    return _strongly_connected(agents, gained)


def rating_table(results: Iterable[tuple[Any, Any, float]], prior: float | None = None,
                 tolerance: float = 1e-9, max_iterations: int = 100_000) -> list[dict[str, Any]]:
    """Maximum-likelihood Elo ratings from games ``(agent_a, agent_b, score_of_a)``.

    The Bradley-Terry model with the logistic Elo scale, draws counting half a win to each
    side (score_of_a in {0, 0.5, 1}), fitted by the minorisation-maximisation iteration of
    Hunter (2004): ``g_i <- S_i / sum_j n_ij / (g_i + g_j)`` with ``g = 10**(r/400)``,
    then anchored so that the mean rating is 0. For two agents the difference is exactly
    ``elo_from_score`` of their score.

    The maximum-likelihood ratings are finite only if every agent has scored against every
    group of the others (the 'scored against' graph is strongly connected). ``prior`` adds that
    many virtual draws to every pairing that played; ``None`` (the default) adds none when the
    fit exists and one otherwise; 0 when it does not exist raises ValueError. Returns one dict
    per agent, best first: ``agent``, ``rating``, ``games``, ``points``, ``score`` (fraction;
    the real games only).
    """
    agents: list[Any] = []
    games: dict[Any, int] = {}
    points: dict[Any, float] = {}
    pair_games: dict[tuple[Any, Any], float] = {}
    gained: dict[Any, set[Any]] = {}
    for a, b, s in results:
        if a == b:
            raise ValueError(f"an agent cannot play itself ({a!r})")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a game score must lie in [0, 1], not {s!r}")
        for x in (a, b):
            if x not in games:
                agents.append(x)
                games[x] = 0
                points[x] = 0.0
        games[a] += 1
        games[b] += 1
        points[a] += s
        points[b] += 1.0 - s
        key = (a, b) if (a, b) in pair_games or (b, a) not in pair_games else (b, a)
        pair_games[key] = pair_games.get(key, 0.0) + 1.0
        if s > 0:
            gained.setdefault(a, set()).add(b)
        if s < 1:
            gained.setdefault(b, set()).add(a)
    if not agents:
        return []
    connected = _strongly_connected(agents, gained)
    if prior is None:
        prior = 0.0 if connected else 1.0
    if prior < 0:
        raise ValueError(f"prior must be non-negative, not {prior!r}")
    if prior == 0 and not connected:
        raise ValueError("the maximum-likelihood ratings are infinite (some agents never scored "
                         "against the others); give a prior")
    fit_points = dict(points)
    opponents: dict[Any, list[tuple[Any, float]]] = {x: [] for x in agents}
    for (a, b), n in pair_games.items():
        fit_points[a] += 0.5 * prior
        fit_points[b] += 0.5 * prior
        opponents[a].append((b, n + prior))
        opponents[b].append((a, n + prior))

    ratings = {x: 0.0 for x in agents}
    for _ in range(max_iterations):
        gamma = {x: 10.0 ** (ratings[x] / 400.0) for x in agents}
        new = {x: 400.0 * math.log10(
            fit_points[x] / sum(n / (gamma[x] + gamma[y]) for y, n in opponents[x]))
            for x in agents}
        centre = math.fsum(new.values()) / len(new)
        new = {x: v - centre for x, v in new.items()}
        change = max(abs(new[x] - ratings[x]) for x in agents)
        ratings = new
        if change < tolerance:
            break
    rows = [{"agent": x, "rating": ratings[x], "games": games[x], "points": points[x],
             "score": points[x] / games[x]} for x in agents]
    rows.sort(key=lambda r: -r["rating"])
    return rows
