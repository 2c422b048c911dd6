"""The search: determinism, statistics, tree reuse, transpositions, evaluation, strength."""

from __future__ import annotations

import ctypes
import math
import pickle
import random

import pytest

import arle_ai
from arle_ai.engine.testing import random_position
from arle_ai.play.agents import GreedyAgent, MCTSAgent, RandomAgent, agent_from_spec
from arle_ai.search import heuristics
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.mcts import MCTS
from arle_ai.search.tree import make_evaluator
from helpers import base, exchange, make


def _visits(result):
    return [(a.action, a.visits, round(a.win_rate, 12)) for a in result.moves]


def test_same_seed_and_budget_give_the_same_result():
    s = arle_ai.new_game(3)
    a = MCTS(iterations=300, seed=5).search(s)
    b = MCTS(iterations=300, seed=5).search(s)
    assert _visits(a) == _visits(b)
    assert a.best_action == b.best_action


def test_a_different_seed_changes_the_rollouts():
    s = arle_ai.new_game(3)
    a = MCTS(iterations=300, seed=5).search(s)
    b = MCTS(iterations=300, seed=6).search(s)
    assert _visits(a) != _visits(b)


def test_root_parallel_search_is_deterministic():
    s = arle_ai.new_game(1)
    a = MCTS(iterations=200, seed=2, workers=2).search(s)
    b = MCTS(iterations=200, seed=2, workers=2).search(s)
    assert _visits(a) == _visits(b)
    assert a.iterations == 200
    assert sum(x.visits for x in a.moves) == 200


def test_best_action_is_legal_and_ranked_first():
    s = arle_ai.new_game(4)
    for _ in range(30):
        s.apply(s.legal_actions()[len(s.legal_actions()) // 2])
    r = MCTS(iterations=150, seed=1).search(s)
    assert r.best_action in s.legal_actions()
    assert r.moves[0].action == r.best_action
    assert r.moves[0].visits == max(a.visits for a in r.moves)
    assert sorted(a.action for a in r.moves) == s.legal_actions()
    assert r.player == s.current_player


def test_root_visits_sum_to_the_iterations_of_a_fresh_tree():
    s = arle_ai.new_game(0)
    r = MCTS(iterations=500, seed=0).search(s)
    assert r.iterations == 500
    assert sum(a.visits for a in r.moves) == 500
    for a in r.moves:
        if a.visits:
            assert 0.0 <= a.win_rate <= 1.0


def test_tree_reuse_keeps_the_subtree():
    s = arle_ai.new_game(0)
    m = MCTS(iterations=400, seed=0)
    r = m.search(s)
    child = s.copy().apply(r.best_action)
    before = m.node_stats(child)
    assert before is not None and sum(n for n, _ in before.values()) > 0
    kept = sum(n for n, _ in before.values())
    m.search(child)
    after = m.node_stats(child)
    assert sum(n for n, _ in after.values()) == kept + 400


def test_no_reuse_starts_fresh():
    s = arle_ai.new_game(0)
    m = MCTS(iterations=100, seed=0, reuse=False)
    m.search(s)
    r = m.search(s)
    assert sum(a.visits for a in r.moves) == 100


def test_transpositions_share_statistics():
    d = base(0)
    d["half_year"] = 2
    me = d["players"][d["start_player"]]
    me["barn"]["peat_boats"] = 1
    me["goods"]["peat"] = 5
    s = make(d)
    food_then_grain = s.copy().apply(exchange("food")).apply(exchange("grain"))
    grain_then_food = s.copy().apply(exchange("grain")).apply(exchange("food"))
    assert food_then_grain == grain_then_food
    m = MCTS(iterations=3000, seed=0, c=3.0, puct=False)  # UCT tries both orders
    m.search(s)
    after_food = s.copy().apply(exchange("food"))
    after_grain = s.copy().apply(exchange("grain"))
    n1 = m.node_stats(after_food)[exchange("grain")][0]
    n2 = m.node_stats(after_grain)[exchange("food")][0]
    shared = sum(n for n, _ in m.node_stats(food_then_grain).values())
    assert n1 > 0 and n2 > 0
    # every simulation into the shared position came by one of the two orders; the first one
    # created it (and ran the rollout there), the rest passed on through it. Two separate nodes
    # would hold n1 - 1 and n2 - 1.
    assert shared == n1 + n2 - 1


def test_puct_spends_its_visits_as_its_priors_say_when_the_values_say_nothing():
    """PUCT selects by q + c * P * sqrt(N + 1) / (1 + n). With every leaf valued 0.5 (leaf
    "null") the values are all equal, so the root's visits follow its priors alone: whenever
    an edge was chosen, its P / n was the largest, which stays so, and the visits are as
    uneven as the priors. A search that ignored its priors spreads them evenly."""
    s = arle_ai.new_game(3)
    r = MCTS(SearchConfig(leaf="null", puct=True, seed=0), Budget(iterations=400)).search(s)
    moves = r.moves
    assert sum(m.visits for m in moves) == 400 and all(m.win_rate == 0.5 for m in moves)
    priors = sorted(m.prior for m in moves)
    assert priors[-1] > 5 * priors[0]  # the heuristic's priors are far from even here
    for m in moves:
        if m.visits:
            for other in moves:
                assert m.prior / m.visits >= other.prior / (1 + other.visits) - 1e-12, \
                    (m.action, m.visits, m.prior, other.action, other.visits, other.prior)
    top = max(moves, key=lambda m: m.prior)
    assert top.visits == max(m.visits for m in moves) > 3 * min(m.visits for m in moves)
    # UCT (puct=False) on the same values ignores them
    uct = MCTS(SearchConfig(leaf="null", puct=False, seed=0), Budget(iterations=400)).search(s)
    assert max(m.visits for m in uct.moves) - min(m.visits for m in uct.moves) <= 1


def test_time_budget_stops_the_search():
    """The search ends by itself on its time budget (a bound for a hang, far above it, is the
    only clock here) and uses the budget rather than stopping short of it."""
    import threading

    found = []
    search = threading.Thread(
        target=lambda: found.append(MCTS(time_limit=0.2, seed=0).search(arle_ai.new_game(0))),
        daemon=True)
    search.start()
    search.join(120)
    assert not search.is_alive(), "a 0.2 s search still running after 120 s"
    (r,) = found
    assert r.iterations > 0 and sum(a.visits for a in r.moves) == r.iterations
    assert r.time_taken >= 0.2


def test_bad_options_are_rejected():
    for bad in (dict(iterations=0), dict(rollout="magic"), dict(workers=0), dict(c=-1),
                dict(time_limit=-1)):
        with pytest.raises(ValueError):
            MCTS(**bad)
    with pytest.raises(ValueError):
        MCTS(iterations=10).search(_finished_game())


def test_the_default_rollout_is_random_and_the_heuristic_one_selectable():
    assert MCTS(leaf="rollout").evaluator.kind == "random rollout"
    assert MCTS(leaf="rollout", rollout="heuristic").evaluator.kind == "heuristic rollout"
    agent = agent_from_spec("mcts:iterations=50,rollout=heuristic")
    assert agent.search.evaluator.kind == "heuristic rollout"
    s = arle_ai.new_game(3)
    # the two policies value leaves differently: the same seed gives other statistics
    assert _visits(MCTS(iterations=300, seed=4, leaf="rollout").search(s)) != _visits(
        MCTS(iterations=300, seed=4, leaf="rollout", rollout="heuristic").search(s))
    with pytest.raises(ValueError, match="rollout must be one of"):
        make_evaluator(SearchConfig(leaf="rollout", rollout="greedy"))


def _finished_game():
    s = arle_ai.new_game(0)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    return s


def test_principal_variation_starts_with_the_move():
    s = arle_ai.new_game(0)
    r = MCTS(iterations=400, seed=0).search(s)
    best = r.moves[0]
    assert best.pv[0] == best.move == s.action_to_string(best.action)
    assert len(best.pv) >= 2


# ---- the evaluation ----

def _evaluation_of(d, p):
    return heuristics.evaluate(make(d))[p]


def test_more_animal_diversity_scores_higher():
    d = base(0)
    d["players"][0]["home"]["stalls"] = 3
    d["players"][0]["animals"] = {"sheep": 3, "cattle": 0, "horse": 3}
    lopsided = _evaluation_of(d, 0)
    d["players"][0]["animals"] = {"sheep": 2, "cattle": 2, "horse": 2}
    balanced = _evaluation_of(d, 0)
    assert balanced > lopsided


def test_a_higher_tool_scores_higher():
    d = base(0)
    low = _evaluation_of(d, 0)
    d["players"][0]["tools"]["axes"] = 4
    assert _evaluation_of(d, 0) > low


def test_missing_food_lowers_the_evaluation():
    d = base(0)
    d["players"][0]["goods"]["food"] = 10
    fed = _evaluation_of(d, 0)
    d["players"][0]["goods"]["food"] = 0
    d["players"][0]["goods"]["grain"] = 0
    assert _evaluation_of(d, 0) < fed


def test_evaluation_at_the_end_is_the_score():
    s = _finished_game()
    assert heuristics.evaluate(s) == pytest.approx(s.scores())


# ---- agents ----

def test_agents_are_seeded_and_picklable():
    s = arle_ai.new_game(2)
    for agent in (RandomAgent(3), GreedyAgent(3), MCTSAgent(iterations=50, seed=3)):
        twin = pickle.loads(pickle.dumps(agent))
        assert agent.select(s) == twin.select(s)
        assert agent.select(s) in s.legal_actions()


def test_agent_specs():
    assert isinstance(agent_from_spec("random"), RandomAgent)
    assert isinstance(agent_from_spec("greedy"), GreedyAgent)
    a = agent_from_spec("mcts:iterations=20,c=1.2")
    assert isinstance(a, MCTSAgent) and a.budget == Budget(iterations=20) and a.config.c == 1.2
    assert agent_from_spec("mcts:time=0.5").budget == Budget(seconds=0.5)
    for bad in ("alphazero", "mcts:iterations", "mcts:depth=3", "mcts:iterations=ten",
                "random:iterations=3"):
        with pytest.raises(ValueError):
            agent_from_spec(bad)


def _play(agents, seed):
    s = arle_ai.new_game(seed)
    while not s.is_terminal():
        s.apply(agents[s.current_player].select(s))
    return s


def test_mcts_beats_random():
    """Strength smoke test: a short search wins both seats against random play."""
    for seat in (0, 1):
        agents = {seat: MCTSAgent(iterations=150, seed=seat), 1 - seat: RandomAgent(seat)}
        final = _play(agents, seed=10 + seat)
        assert final.winner() == seat
        assert final.scores()[seat] > final.scores()[1 - seat] + 20


def test_progress_reports_iterations_without_changing_the_search():
    state = arle_ai.new_game(seed=2)
    seen: list[int] = []
    with_progress = MCTS(iterations=1000, seed=4).search(
        state, progress=lambda p: seen.append(p.iterations))
    plain = MCTS(iterations=1000, seed=4).search(state)
    assert seen == [256, 512, 768, 1000]
    assert [(s.action, s.visits) for s in with_progress.moves] == \
        [(s.action, s.visits) for s in plain.moves]


def test_suggest_and_the_mcts_agent_pass_progress_on():
    state = arle_ai.new_game(seed=2)
    seen: list[int] = []
    arle_ai.suggest(state, iterations=300, progress=lambda p: seen.append(p.iterations))
    assert seen == [256, 300]
    agent = MCTSAgent(iterations=600, seed=1)
    agent.progress = lambda p: seen.append(p.iterations)
    agent.select(state)
    assert seen[2:] == [256, 512, 600]


# ---- the compiled tree ----

def test_key_collisions_are_handled():
    """With the 64-bit key cut to 4 bits nearly every position shares its key with others:
    the check hash keeps them apart and the search finds exactly the same."""
    s = arle_ai.new_game(5)
    plain = MCTS(iterations=600, seed=2)
    forced = MCTS(iterations=600, seed=2)
    forced.tree._set_key_mask(0xF)
    a, b = plain.search(s), forced.search(s)
    assert _visits(a) == _visits(b)
    assert plain.node_count() == forced.node_count() > 16
    assert [x.pv for x in a.moves] == [x.pv for x in b.moves]


def test_equal_positions_have_equal_hashes_and_different_ones_differ():
    s = random_position(1, 40)
    assert _core_hashes(s) == _core_hashes(s.copy())
    seen = {}
    for seed in range(40):
        p = random_position(seed, seed * 3)
        seen.setdefault(_core_hashes(p), p)
        assert seen[_core_hashes(p)] == p


def _core_hashes(state):
    from arle_ai.engine import _core

    return _core.state_hashes(state)


# Ceilings from the smallest allowed to about 1.2 MB at odd steps, so that each of the three
# growths (nodes, edges, the index) meets the ceiling first in some of them.
CEILINGS = [(1 << 16) + 23_117 * k + (k * k * 977) % 4_096 for k in range(48)]


def _fill(tree, state, evaluator, batches=200):
    """Search until the tree has refused a leaf at its ceiling (no clock: in batches)."""
    tree.ensure_root(state, evaluator)
    for _ in range(batches):
        tree.run(state, evaluator, 250)
        if tree.refused:
            return
    raise AssertionError(f"{tree.max_bytes} bytes never filled: {tree.bytes_allocated}")


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _mallinfo2():
    """glibc's mallinfo2, or None (another C library)."""
    try:
        function = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    function.restype = _Mallinfo2
    function.argtypes = []
    return function


def _malloc_held(mallinfo2) -> int:
    """Bytes the C allocator has handed out and not taken back (arena chunks + mmapped)."""
    info = mallinfo2()
    return info.uordblks + info.hblkhd


def test_the_memory_ceiling_holds_at_every_ceiling():
    from arle_ai.engine import _core

    evaluator = _core.NullEvaluator(heuristics.DEFAULT_WEIGHTS.as_array())
    states = [arle_ai.new_game(0), random_position(3, 60), random_position(5, 120)]
    full = 0
    for i, ceiling in enumerate(CEILINGS):
        tree = _core.SearchTree(max_bytes=ceiling)
        tree.seed(i)
        _fill(tree, states[i % 3], evaluator)
        assert tree.bytes_allocated <= ceiling, (ceiling, tree.bytes_allocated)
        # the arrays as counted from what they hold: capacity is at least the use
        assert tree.bytes_used <= tree.bytes_allocated
        assert tree.node_count * 24 + tree.edge_count * 16 <= tree.bytes_used
        full += tree.bytes_allocated > ceiling - 4096  # the ceiling was reached, not feared
    assert full >= len(CEILINGS) // 2


def test_the_bytes_the_tree_reports_are_the_bytes_it_holds():
    """Counted by the C allocator, not by the tree: freeing a full tree gives back what it
    said it held (glibc's own rounding aside: a few bytes a chunk, a page a large one), and
    never more than its ceiling, at every ceiling."""
    from arle_ai.engine import _core

    mallinfo2 = _mallinfo2()
    if mallinfo2 is None:
        pytest.skip("needs glibc's mallinfo2 to count the C heap")
    evaluator = _core.NullEvaluator(heuristics.DEFAULT_WEIGHTS.as_array())
    s = random_position(7, 30)
    slack = 3 * 4096 + 64  # glibc's headers and page rounding of the three arrays
    for i, ceiling in enumerate(CEILINGS):
        tree = _core.SearchTree(max_bytes=ceiling)
        tree.seed(i)
        _fill(tree, s, evaluator)
        reported = tree.bytes_allocated
        before = _malloc_held(mallinfo2)
        tree.clear()  # frees the three arrays, then allocates an empty 1024-slot index
        freed = before - _malloc_held(mallinfo2) + tree.bytes_allocated
        assert 0 <= freed - reported <= slack, (ceiling, reported, freed)
        assert freed <= ceiling + slack, (ceiling, freed)  # the ceiling, in real bytes


def test_a_full_tree_is_cut_to_the_new_root_and_stays_under_its_ceiling():
    ceiling = 1 << 17
    m = MCTS(iterations=6000, seed=0, max_memory=ceiling)
    s = arle_ai.new_game(0)
    r = m.search(s)
    assert m.tree.bytes_allocated <= ceiling
    assert m.tree.refused > 0, "6000 simulations fill 128 KiB: the ceiling was reached"
    assert sum(a.visits for a in r.moves) == r.iterations == 6000 > m.node_count()
    # the next search starts from a full tree: it is cut to what the new root reaches
    child = s.copy().apply(r.best_action)
    kept = sum(n for n, _ in m.node_stats(child).values())
    r2 = m.search(child)
    assert m.tree.bytes_allocated <= ceiling
    assert sum(a.visits for a in r2.moves) == kept + r2.iterations


def test_a_node_ceiling_stops_expansion_but_not_the_search():
    m = MCTS(iterations=2000, seed=1, max_nodes=50)
    r = m.search(arle_ai.new_game(1))
    assert m.node_count() <= 50
    assert sum(a.visits for a in r.moves) == 2000


def test_prune_keeps_the_subtree_of_the_new_root():
    s = arle_ai.new_game(2)
    m = MCTS(iterations=800, seed=0)
    r = m.search(s)
    child = s.copy().apply(r.best_action)
    before = m.node_stats(child)
    total = m.node_count()
    kept = m.tree.prune(child)
    assert 0 < kept < total
    assert m.node_stats(child) == before
    assert m.node_stats(s) is None


def test_searches_from_random_positions_return_legal_moves():
    options = [dict(), dict(puct=True), dict(leaf="rollout", rollout="random", horizon=-1),
               dict(leaf="static"), dict(leaf="null"), dict(leaf="rollout", horizon=0, c=2.0)]
    for i in range(36):
        s = random_position(100 + i, (i * 37) % 260)
        if s.is_terminal():
            continue
        r = MCTS(iterations=40, seed=i, **options[i % len(options)]).search(s)
        legal = s.legal_actions()
        assert r.best_action in legal
        assert sorted(a.action for a in r.moves) == legal
        for a in r.moves[:5]:
            if a.visits:
                replay = s.copy()
                for text in a.pv:
                    replay.apply(replay.parse_action(text))


def test_the_cheaper_rollout_policy_chooses_as_the_reference():
    from arle_ai.engine import _core

    w = heuristics.DEFAULT_WEIGHTS.as_array()
    for i in range(12):
        s = random_position(200 + i, i * 15)
        for seed in range(5):
            assert _core.rollout_value(s, w, seed, True, -1) == \
                _core.rollout_value(s, w, seed, True, -1, reference=True)


def test_evaluators_and_the_finished_game_value():
    from arle_ai.engine import _core

    w = heuristics.DEFAULT_WEIGHTS
    end = _finished_game()
    value, margin = _core.final_value(end, w.as_array())
    scores = end.scores()
    assert margin == scores[0] - scores[1]
    assert (value > 0.5) == (end.winner() == 0)
    with pytest.raises(ValueError):
        _core.final_value(arle_ai.new_game(0), w.as_array())
    s = arle_ai.new_game(0)
    assert _core.NullEvaluator(w.as_array()).evaluate(s) == (0.5, 0.0)
    static = _core.StaticEvaluator(w.as_array())
    assert static.evaluate(s)[1] == pytest.approx(
        heuristics.evaluate(s)[0] - heuristics.evaluate(s)[1])
    twin = pickle.loads(pickle.dumps(static))
    r1 = MCTS(iterations=100, seed=0, evaluator=static).search(s)
    r2 = MCTS(iterations=100, seed=0, evaluator=twin).search(s)
    assert _visits(r1) == _visits(r2)
    with pytest.raises(ValueError):
        MCTS(leaf="magic")
    with pytest.raises(ValueError):
        MCTS(evaluator="static")


def _random_game(seed):
    s = arle_ai.new_game(seed)
    moves = random.Random(seed)
    while not s.is_terminal():
        s.apply(moves.choice(s.legal_actions()))
    return s


def test_the_finished_game_value_in_numbers():
    """The value of a finished game from its scores, by the formula (default weights: margin
    share 0.2, sigma 12; own_blend k: each player keeps 1 - k of it and adds k * own VP / 200,
    a negative score counting 0), over random games whatever their scores are."""
    from arle_ai.engine import _core

    plain = heuristics.DEFAULT_WEIGHTS.as_array()
    own = heuristics.DEFAULT_WEIGHTS.with_(own_blend=0.25).as_array()
    negative = 0
    for seed in range(16):
        end = _random_game(seed)
        s0, s1 = end.scores()
        margin = s0 - s1
        win = 1.0 if end.winner() == 0 else 0.0
        v0 = 0.8 * win + 0.2 * (0.5 + 0.5 * math.tanh(margin / 12))
        (p0, p1), m = _core.final_values(end, plain)
        assert m == margin
        assert p0 == pytest.approx(v0, abs=1e-12) and p1 == 1.0 - p0  # zero-sum
        assert _core.final_value(end, plain) == (p0, margin)
        assert (p0 > 0.5) == (end.winner() == 0)
        (q0, q1), _ = _core.final_values(end, own)
        assert q0 == pytest.approx(0.75 * v0 + 0.25 * max(s0, 0) / 200, abs=1e-12)
        assert q1 == pytest.approx(0.75 * (1 - v0) + 0.25 * max(s1, 0) / 200, abs=1e-12)
        assert _core.final_value(end, own)[0] == q0
        negative += min(s0, s1) < 0
    assert negative >= 1, "random play ends some games below 0 VP: the clip was not tried"


def test_the_own_score_value_searches_deterministically_and_legally():
    from arle_ai.engine import _core

    w = heuristics.DEFAULT_WEIGHTS.with_(own_blend=0.3)
    for i, leaf in enumerate(("net", "rollout", "static")):
        s = random_position(40 + i, 20 * i)
        legal = s.legal_actions()
        runs = [MCTS(iterations=400, seed=5, leaf=leaf, weights=w).search(s) for _ in range(2)]
        assert _visits(runs[0]) == _visits(runs[1])
        assert runs[0].best_action in legal
        assert sum(a.visits for a in runs[0].moves) == 400
        assert all(0.0 <= a.win_rate <= 1.0 for a in runs[0].moves)
    # the own-score term changes what the search values (here: the values from the opening)
    s = arle_ai.new_game(2)
    plain = MCTS(iterations=400, seed=5).search(s)
    own = MCTS(iterations=400, seed=5, weights=w).search(s)
    assert [a.win_rate for a in plain.moves] != [a.win_rate for a in own.moves]
    # each evaluator's value of a position with own_blend: player 0's, in 0..1
    for ev in (_core.StaticEvaluator(w.as_array()), _core.RolloutEvaluator(w.as_array())):
        v, _m = ev.evaluate(s, 3)
        assert 0.0 <= v <= 1.0
    with pytest.raises(ValueError, match="own_blend is a share"):
        MCTS(iterations=10, weights=heuristics.DEFAULT_WEIGHTS.with_(own_blend=1.5))


def test_parallel_workers_keep_their_trees_and_stay_deterministic():
    s = arle_ai.new_game(6)
    runs = []
    for _ in range(2):
        m = MCTS(iterations=300, seed=4, workers=2)
        first = m.search(s)
        child = s.copy().apply(first.best_action)
        second = m.search(child)
        m.close()
        runs.append((_visits(first), _visits(second), [a.pv for a in second.moves]))
        assert first.best.pv and first.best.pv[0] == first.best.move
        # the workers' trees were kept: the second root already had visits before it
        assert sum(a.visits for a in second.moves) > 300
    assert runs[0] == runs[1]
