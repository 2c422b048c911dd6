"""The match statistics of arle_ai.play.ratings against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from arle_ai.play.ratings import (
    elo_from_score,
    elo_interval,
    expected_score,
    likelihood_of_superiority,
    mean_interval,
    rating_table,
    ratings_exist,
    score_fraction,
    score_variance,
    sprt_bounds,
    sprt_llr,
    sprt_verdict,
    wilson_interval,
)

approx = pytest.approx


def test_score_fraction_counts_draws_half():
    assert score_fraction(3, 2, 5) == 0.4
    assert score_fraction(1, 0, 0) == 1.0
    assert math.isnan(score_fraction(0, 0, 0))
    with pytest.raises(ValueError):
        score_fraction(-1, 0, 0)


def test_elo_from_score_known_values():
    # 400*log10(0.75/0.25) = 400*log10(3) = 190.849
    assert elo_from_score(0.75) == approx(190.8485, abs=1e-4)
    assert elo_from_score(0.25) == approx(-190.8485, abs=1e-4)
    assert elo_from_score(0.5) == 0.0
    # 400*log10(0.9/0.1) = 381.697
    assert elo_from_score(0.9) == approx(381.6970, abs=1e-4)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    with pytest.raises(ValueError):
        elo_from_score(1.5)


def test_expected_score_inverts_elo_from_score():
    for p in (0.1, 0.3, 0.5, 0.64, 0.99):
        assert expected_score(elo_from_score(p)) == approx(p)
    assert expected_score(math.inf) == 1.0
    assert expected_score(-math.inf) == 0.0


def test_score_variance_trinomial():
    # 30-40-30: mean 0.5; (30*0.25 + 40*0 + 30*0.25)/100 = 0.15
    assert score_variance(30, 40, 30) == approx(0.15)
    # no draws: Bernoulli p(1-p) = 0.6*0.4
    assert score_variance(60, 0, 40) == approx(0.24)


def _elo(p: float) -> float:
    return 400 * math.log10(p / (1 - p))


def test_elo_interval_is_the_wilson_interval_in_elo():
    z = 1.959963984540054
    for w, d, l in [(30, 40, 30), (60, 0, 40), (8, 0, 2), (3, 0, 1), (1, 5, 0)]:  # noqa: E741
        n = w + d + l
        p = (w + d / 2) / n
        lo, hi = wilson_interval(p, n, z)
        elo, low, high = elo_interval(w, d, l)
        assert elo == approx(_elo(p))
        assert low == approx(_elo(lo), abs=1e-9)
        assert high == approx(_elo(hi), abs=1e-9)
    # 30-40-30: centre 0.5, half = z/(1 + z^2/100) * sqrt(0.25/100 + z^2/40000) = 0.0960...
    elo, low, high = elo_interval(30, 40, 30)
    assert elo == 0.0
    assert high == approx(67.6675, abs=1e-3) and low == approx(-67.6675, abs=1e-3)
    _, low90, high90 = elo_interval(30, 40, 30, confidence=0.90)
    assert low < low90 < high90 < high  # narrower at a lower confidence


def test_elo_interval_holds_zero_when_the_score_interval_holds_half():
    # issue 14: two identical agents at 8-2 got Elo +240.8 [+36.3, +inf] from the normal
    # approximation while the Wilson score interval [49%, 94%] holds 50%
    elo, low, high = elo_interval(8, 0, 2)
    assert elo == approx(240.824, abs=1e-3)
    assert low < 0 < high
    assert low == approx(-6.84, abs=0.01) and high == approx(488.48, abs=0.01)
    z = 1.959963984540054
    for w in range(0, 13):
        for d in range(0, 5):
            for l in range(0, 13):  # noqa: E741
                n = w + d + l
                if n == 0:
                    continue
                lo, hi = wilson_interval((w + d / 2) / n, n, z)
                _, low, high = elo_interval(w, d, l)
                assert (low <= 0 <= high) == (lo <= 0.5 <= hi), (w, d, l)


def test_elo_interval_at_the_edges():
    elo, low, high = elo_interval(4, 0, 0)
    assert elo == math.inf and high == math.inf and math.isfinite(low) and low > 0
    elo, low, high = elo_interval(0, 0, 4)
    assert elo == -math.inf and low == -math.inf and math.isfinite(high) and high < 0
    elo, low, high = elo_interval(3, 0, 1)
    assert math.isfinite(high) and low < 0
    assert all(math.isnan(x) for x in elo_interval(0, 0, 0))
    with pytest.raises(ValueError):
        elo_interval(1, 1, 1, confidence=1.0)


def test_wilson_interval_known_inputs():
    # p = 0.5, n = 10, z = 1.96: centre 0.5, half = 1.96/1.38416*sqrt(0.025 + 0.009604)
    assert wilson_interval(0.5, 10) == approx((0.236590, 0.763410), abs=1e-6)
    # p = 0.8, n = 10: centre (0.8 + 0.19208)/1.38416 = 0.716738, half 0.226580
    assert wilson_interval(0.8, 10) == approx((0.490157, 0.943319), abs=1e-6)
    # p = 0: the lower end is 0, the upper z^2/(n + z^2) = 3.8416/13.8416
    low, high = wilson_interval(0.0, 10)
    assert low == approx(0.0, abs=1e-12)
    assert high == approx(3.8416 / 13.8416)
    assert wilson_interval(0.0, 0) == (0.0, 1.0)


def test_los_known_values():
    # 60-40: erf(20/sqrt(200)) = erf(sqrt 2), so LOS = Phi(2) = 0.977250
    assert likelihood_of_superiority(60, 40) == approx(0.977250, abs=1e-6)
    assert likelihood_of_superiority(40, 60) == approx(1 - 0.977250, abs=1e-6)
    assert likelihood_of_superiority(50, 50) == 0.5
    assert likelihood_of_superiority(0, 0) == 0.5
    # 10-0: 0.5*(1 + erf(10/sqrt 20)) = 0.5*(1 + erf(sqrt 5)) = Phi(sqrt 10) = 0.999217
    assert likelihood_of_superiority(10, 0) == approx(0.999217, abs=1e-6)


def test_sprt_bounds():
    assert sprt_bounds() == approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert sprt_bounds() == approx((-2.944439, 2.944439), abs=1e-6)
    assert sprt_bounds(0.05, 0.10) == approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))
    with pytest.raises(ValueError):
        sprt_bounds(0.0, 0.05)


def test_sprt_llr_hand_computed():
    # 60-0-40, H0: 0 Elo, H1: 10 Elo. n = 100, m = 0.6, var = 0.6 - 0.36 = 0.24.
    # s0 = 0.5, s1 = 1/(1 + 10**(-10/400)) = 0.5143872.
    # LLR = (s1 - s0)*(2m - s0 - s1)/(2 var/n) = 0.0143872*0.1856128/0.0048 = 0.55634
    assert sprt_llr(60, 0, 40, 0, 10) == approx(0.55634, abs=1e-5)
    # 45-20-35, H0: 0, H1: 20. m = 0.55, E[x^2] = 0.45 + 0.05 = 0.5, var = 0.1975.
    # s1 = 1/(1 + 10**(-0.05)) = 0.5287508.
    # LLR = 0.0287508*(1.1 - 0.5 - 0.5287508)/0.00395 = 0.51860
    assert sprt_llr(45, 20, 35, 0, 20) == approx(0.51860, abs=1e-5)
    # a score exactly half-way between s0 and s1 carries no evidence
    assert sprt_llr(30, 40, 30, -5, 5) == approx(0.0, abs=1e-12)
    # the sign follows the evidence
    assert sprt_llr(40, 0, 60, 0, 10) < 0
    # no games, or no spread yet: 0
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0
    assert sprt_llr(5, 0, 0, 0, 10) == 0.0
    with pytest.raises(ValueError):
        sprt_llr(1, 0, 1, 10, 0)


def test_sprt_llr_grows_with_the_sample():
    # the same proportions over 10x the games: 10x the LLR
    assert sprt_llr(600, 0, 400, 0, 10) == approx(10 * sprt_llr(60, 0, 40, 0, 10))


def test_sprt_verdict():
    assert sprt_verdict(3.0) == "H1"
    assert sprt_verdict(-3.0) == "H0"
    assert sprt_verdict(0.5) == "continue"
    assert sprt_verdict(2.95) == "H1"
    assert sprt_verdict(2.9) == "continue"
    assert sprt_verdict(sprt_llr(600, 0, 400, 0, 10)) == "H1"  # LLR 5.56
    assert sprt_verdict(sprt_llr(400, 0, 600, 0, 10)) == "H0"


def test_mean_interval():
    # mean 2.5, sd = sqrt(5/3) = 1.290994, se = 0.645497, 1.96*se = 1.265174
    assert mean_interval([1, 2, 3, 4]) == approx((2.5, 1.234826, 3.765174), abs=1e-6)
    assert mean_interval([2, 2, 2]) == (2.0, 2.0, 2.0)
    m, lo, hi = mean_interval([7.0])
    assert m == 7.0 and math.isnan(lo) and math.isnan(hi)
    assert all(math.isnan(x) for x in mean_interval([]))


def _games(a, b, w, d, l):  # noqa: E741
    return [(a, b, 1.0)] * w + [(a, b, 0.5)] * d + [(a, b, 0.0)] * l


def test_rating_table_two_agents_matches_elo_from_score():
    table = rating_table(_games("a", "b", 3, 0, 1))
    assert [r["agent"] for r in table] == ["a", "b"]
    assert table[0]["rating"] - table[1]["rating"] == approx(elo_from_score(0.75))
    assert table[0]["rating"] + table[1]["rating"] == approx(0.0, abs=1e-9)  # anchored
    assert table[0]["games"] == table[1]["games"] == 4
    assert table[0]["score"] == 0.75 and table[0]["points"] == 3.0
    # with draws: 5-4-1 is a 0.7 score
    table = rating_table(_games("x", "y", 5, 4, 1))
    assert table[0]["rating"] - table[1]["rating"] == approx(elo_from_score(0.7))


def test_rating_table_recovers_the_order_and_the_likelihood_equations():
    # games made to the expected scores of true ratings +200, 0, -200 (76%, 76%, 91%)
    results = (_games("b", "a", 24, 0, 76) + _games("b", "c", 76, 0, 24)
               + _games("a", "c", 91, 0, 9))
    table = rating_table(results)
    assert [r["agent"] for r in table] == ["a", "b", "c"]
    rating = {r["agent"]: r["rating"] for r in table}
    assert rating["a"] == approx(200, abs=10)
    assert rating["b"] == approx(0, abs=10)
    assert rating["c"] == approx(-200, abs=10)
    assert sum(rating.values()) == approx(0.0, abs=1e-6)
    # the maximum-likelihood fit: every agent's expected points equal its real points
    for r in table:
        x = r["agent"]
        expected = 0.0
        for a, b, _ in results:
            if x in (a, b):
                other = b if x == a else a
                expected += expected_score(rating[x] - rating[other])
        assert expected == approx(r["points"], abs=1e-6)


def test_rating_table_without_a_finite_fit_uses_a_prior():
    # a wins everything: the plain fit is infinite
    results = _games("a", "b", 2, 0, 0) + _games("a", "c", 2, 0, 0) + _games("b", "c", 1, 0, 1)
    assert not ratings_exist(results)
    table = rating_table(results)
    assert [r["agent"] for r in table][0] == "a"
    assert all(math.isfinite(r["rating"]) for r in table)
    assert table[0]["score"] == 1.0  # the real games only
    with pytest.raises(ValueError, match="infinite"):
        rating_table(results, prior=0.0)
    assert ratings_exist(results + [("c", "a", 0.5)])
    assert rating_table([]) == []


# ---- the solo gate's paired test (issue 33) ----

def test_student_t_tail_matches_the_tables() -> None:
    from arle_ai.play.ratings import student_t_sf

    # critical values of the t tables: P(T > t) for df degrees of freedom
    for t, df, p in ((2.262, 9, 0.025), (1.833, 9, 0.05), (2.086, 20, 0.025),
                     (1.697, 30, 0.05), (3.250, 9, 0.005), (6.314, 1, 0.05)):
        assert abs(student_t_sf(t, df) - p) < 2e-4, (t, df)
        assert abs(student_t_sf(-t, df) - (1 - p)) < 2e-4
    assert student_t_sf(1.0, 1) == pytest.approx(0.25)   # Cauchy: 1/2 - atan(1)/pi
    assert student_t_sf(0.0, 7) == pytest.approx(0.5)
    assert student_t_sf(math.inf, 3) == 0.0 and student_t_sf(-math.inf, 3) == 1.0
    with pytest.raises(ValueError, match="degrees of freedom"):
        student_t_sf(1.0, 0)


def test_paired_t_test_on_students_sleep_data() -> None:
    from arle_ai.play.ratings import paired_t_test

    # Student (1908) / Cushny and Peebles: extra sleep under two drugs, the same 10 patients;
    # R's t.test(x, y, paired = TRUE, alternative = "greater"): t = 4.0621, df = 9,
    # p-value = 0.001416, mean of the differences 1.58
    drug2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    drug1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    r = paired_t_test(drug2, drug1, alpha=0.05)
    assert r.n == 10 and r.mean == pytest.approx(1.58)
    assert r.t == pytest.approx(4.0621, abs=1e-4) and r.p == pytest.approx(0.001416, abs=1e-6)
    assert r.significant
    # the other way round: no evidence that drug 1 is better
    back = paired_t_test(drug1, drug2)
    assert back.p == pytest.approx(1 - 0.001416, abs=1e-6) and not back.significant
    # a stricter alpha than the p-value refuses
    assert not paired_t_test(drug2, drug1, alpha=0.001).significant


def test_paired_t_test_edge_cases() -> None:
    from arle_ai.play.ratings import paired_t_test

    assert paired_t_test([130, 125, 128], [128, 123, 126]).significant       # +2 each time
    assert not paired_t_test([120, 120], [120, 120]).significant            # no difference
    assert not paired_t_test([119, 118], [120, 119]).significant            # -1 each time
    assert not paired_t_test([130.0], [100.0]).significant                  # one pair
    with pytest.raises(ValueError, match="as many of each"):
        paired_t_test([1, 2], [1])
    with pytest.raises(ValueError, match="finite"):
        paired_t_test([1, math.nan], [1, 2])
    with pytest.raises(ValueError, match="alpha"):
        paired_t_test([1, 2], [1, 2], alpha=1.5)
