"""The compiled core sees only checked data: every engine function given None, an illegal id,
an empty model, out-of-range weights or horizons raises a clear Python error instead of
reading memory it does not own (each case here crashed or read garbage before it was checked).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import arle_ai
from arle_ai.base.errors import IllegalActionError
from arle_ai.engine import _core
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS

W = DEFAULT_WEIGHTS.as_array()


def _tree_with_root(state: arle_ai.GameState) -> _core.SearchTree:
    tree = _core.SearchTree()
    tree.ensure_root(state, _core.NullEvaluator(W))
    return tree


NONE_CALLS = {
    "random_playout": lambda: _core.random_playout(None),
    "random_playout_steps": lambda: _core.random_playout_steps(None),
    "random_playouts": lambda: _core.random_playouts(None, 2),
    "copies": lambda: _core.copies(None, 2),
    "rollout_value": lambda: _core.rollout_value(None, W),
    "final_value": lambda: _core.final_value(None, W),
    "evaluate": lambda: _core.evaluate(None, W),
    "action_scores": lambda: _core.action_scores(None, W),
    "heuristic_playouts": lambda: _core.heuristic_playouts(None, W, 2),
    "state_hashes": lambda: _core.state_hashes(None),
    "_features": lambda: _core._features(None),
    "features_batch": lambda: _core.features_batch([arle_ai.new_game(0), None]),
    "evaluator.evaluate": lambda: _core.NullEvaluator(W).evaluate(None),
    "tree.stats": lambda: _core.SearchTree().stats(None),
    "tree.prune": lambda: _core.SearchTree().prune(None),
    "tree.ensure_root": lambda: _core.SearchTree().ensure_root(None, _core.NullEvaluator(W)),
    "tree.run(state=None)": lambda: _tree_with_root(arle_ai.new_game(0)).run(
        None, _core.NullEvaluator(W), 10),
    "tree.run(ev=None)": lambda: _tree_with_root(arle_ai.new_game(0)).run(
        arle_ai.new_game(0), None, 10),
    "tree.principal_variation": lambda: _core.SearchTree().principal_variation(None, 0),
}


@pytest.mark.parametrize("call", list(NONE_CALLS), ids=list(NONE_CALLS))
def test_none_for_an_engine_object_is_a_type_error(call):
    # before: the core read a State from None's memory (random_playout(None) returned scores
    # like [131360.5, 23142.0]) or crashed (tree.run with ev=None: segmentation fault)
    with pytest.raises(TypeError):
        NONE_CALLS[call]()


@pytest.mark.parametrize("action", [-5, 99999, 40000, 0])
def test_principal_variation_refuses_an_action_that_is_not_legal(action):
    s = arle_ai.new_game(0)
    assert action not in s.legal_actions()  # 0 = stop: not legal at a turn
    tree = _tree_with_root(s)
    tree.run(s, _core.NullEvaluator(W), 50)
    with pytest.raises(IllegalActionError, match="not a legal action"):
        tree.principal_variation(s, action)
    legal = s.legal_actions()[0]
    assert tree.principal_variation(s, legal, 3)[0] == legal


def test_a_value_net_without_weights_is_refused():
    empty = _core.ValueNet.__new__(_core.ValueNet)
    s = arle_ai.new_game(0)
    with pytest.raises(ValueError, match="holds no weights"):
        empty.outputs(np.zeros((1, _core.NUM_FEATURES)))
    with pytest.raises(ValueError, match="holds no weights"):
        empty.state_outputs(s)
    with pytest.raises(ValueError, match="holds no weights"):
        empty.value(s, 0.2, 12.0)
    with pytest.raises(ValueError, match="holds no weights"):
        _core.NetEvaluator(W, empty)


def _net_arrays(hidden: int = 4) -> dict[str, np.ndarray]:
    f = _core.NUM_FEATURES
    return {"mean": np.zeros(f), "inv_std": np.ones(f), "w0": np.zeros((2, f)),
            "w1": np.full((hidden, f), 0.01), "b1": np.zeros(hidden),
            "w2": np.ones((2, hidden)), "b2": np.zeros(2)}


def _net(**changes: np.ndarray) -> _core.ValueNet:
    a = dict(_net_arrays(), **changes)
    return _core.ValueNet(a["mean"], a["inv_std"], a["w0"], a["w1"], a["b1"], a["w2"], a["b2"])


def test_value_net_weights_that_overflow_once_folded_are_refused():
    f = _core.NUM_FEATURES
    # each array is finite, but w1 * inv_std is not (1e200 * 1e200)
    with pytest.raises(ValueError, match=r"w1 \* inv_std holds a value"):
        _net(inv_std=np.full(f, 1e200), w1=np.full((4, f), 1e200))
    # finite when folded but so large that a hidden unit overflows on real features
    with pytest.raises(ValueError, match="beyond 1e"):
        _net(w1=np.full((4, f), 1e300))
    with pytest.raises(ValueError, match=r"b1 - w1 @ mean"):
        _net(mean=np.full(f, 1e300))
    # the biggest accepted weights still give finite outputs on a position
    big = _net(w1=np.full((4, f), _core.NET_WEIGHT_MAX), w2=np.full((2, 4), _core.NET_WEIGHT_MAX))
    s = arle_ai.new_game(0)
    for _ in range(30):
        s.apply(s.legal_actions()[-1])
    assert all(np.isfinite(big.state_outputs(s)))


@pytest.mark.parametrize("name,value,words", [
    ("sample", float("nan"), "sample must be"),
    ("sample", 1e300, r"within 1e\+06"),
    ("sample", -1.0, "sample must be in 0.."),
    ("sigma", 0.0, "sigma must be positive"),
    ("sigma", float("nan"), "sigma must be"),
    ("epsilon", 1.5, "epsilon is a share"),
    ("margin_blend", -0.1, "margin_blend is a share"),
    ("own_blend", 1.01, "own_blend is a share"),
    ("tool", float("inf"), "tool must be a finite number"),
    ("food", -1e7, "food must be a finite number"),
])
def test_weights_out_of_range_are_refused(name, value, words):
    bad = DEFAULT_WEIGHTS.with_(**{name: value}).as_array()
    s = arle_ai.new_game(0)
    for call in (lambda: _core.rollout_value(s, bad), lambda: _core.evaluate(s, bad),
                 lambda: _core.StaticEvaluator(bad), lambda: _core.RolloutEvaluator(bad)):
        with pytest.raises(ValueError, match=words):
            call()
    with pytest.raises(ValueError, match=words):
        MCTS(iterations=10, weights=DEFAULT_WEIGHTS.with_(**{name: value}))


@pytest.mark.parametrize("horizon", [-2, 101, 2**31 - 1, 2**70, True, 1.5])
def test_rollout_horizons_out_of_range_are_refused(horizon):
    # before: 2**31 - 1 overflowed a C int in the rollout (undefined behaviour; it stopped at once)
    s = arle_ai.new_game(0)
    with pytest.raises(ValueError, match="horizon must be -1"):
        _core.rollout_value(s, W, horizon=horizon)
    with pytest.raises(ValueError, match="horizon must be -1"):
        _core.RolloutEvaluator(W, 2.0, True, horizon)
    with pytest.raises(ValueError, match="horizon must be -1"):
        MCTS(iterations=10, leaf="rollout", horizon=horizon)


def test_the_largest_horizon_plays_to_the_end_like_minus_one():
    s = arle_ai.new_game(3)
    for h in (-1, 9, _core.MAX_HORIZON):
        assert _core.rollout_value(s, W, seed=7, horizon=h) == _core.rollout_value(
            s, W, seed=7, horizon=-1)


@pytest.mark.parametrize("kwargs,words", [
    ({"max_bytes": 1 << 60}, "max_bytes must be in 65536.."),
    ({"max_bytes": 100}, "max_bytes must be in 65536.."),
    ({"max_nodes": 1 << 31}, "max_nodes must be in 1.."),
    ({"max_nodes": 0}, "max_nodes must be in 1.."),
])
def test_search_tree_ceilings_are_bounded(kwargs, words):
    # node ids are int32: a ceiling past 2**31 - 2 could not be honoured
    with pytest.raises(ValueError, match=words):
        _core.SearchTree(**kwargs)


@pytest.mark.parametrize("kwargs,words", [
    ({"max_memory": 1 << 60}, "max_memory must be"),
    ({"max_nodes": 1 << 40}, "max_nodes must be an integer in 1.."),
])
def test_mcts_tree_ceilings_name_the_option(kwargs, words):
    with pytest.raises(ValueError, match=words):
        MCTS(iterations=10, **kwargs)


def test_a_python_subclass_of_the_leaf_evaluator_is_refused():
    # the search calls the evaluator's C methods: a Python override of evaluate() was silently
    # ignored and every leaf valued 0.5 (the null evaluator)
    class Mine(_core.LeafEvaluator):
        def evaluate(self, state, seed=0):
            return 1.0, 99.0

    with pytest.raises(ValueError, match="one of the core's evaluators"):
        MCTS(iterations=10, evaluator=Mine(W))
    assert MCTS(iterations=10, evaluator=_core.StaticEvaluator(W)).evaluator.kind == "static"


# ---- _reload_tables: numbers that the core indexes with are checked first ----


def _rules_copy(**changes):
    import dataclasses
    import types

    from arle_ai.engine import rules

    copy = types.ModuleType("patched_rules")
    copy.__dict__.update(vars(rules))
    copy.__dict__.update(changes)
    for key, size in changes.items():
        if key.startswith("_dest_size_"):
            name = key[len("_dest_size_"):]
            copy.DESTINATIONS = tuple(dataclasses.replace(d, size=size) if d.key == name
                                      else d for d in copy.DESTINATIONS)
    copy.DELIVERY_CHOICES = tuple(rules._choices(d) for d in copy.DESTINATIONS)
    return copy


@pytest.mark.parametrize("changes,words", [
    # before: the extra dike values were written past the end of DIKE_VALUE
    ({"SHOVEL_DIKE_VALUES": (1, 2, 2, 3, 4, 5, 6)}, "SHOVEL_DIKE_VALUES must have 4"),
    # before: 20 grain indexed the goods-track VP table (16 entries) out of range in scoring
    ({"START_GOODS": {"food": 5, "grain": 20}}, r"START_GOODS\['grain'\] must be in 0..15"),
    ({"START_GOODS": {"peat": -1}}, r"START_GOODS\['peat'\] must be in 0..999"),
    ({"FOOD_CAP": 40}, "FOOD_CAP must be in 0..30"),
    ({"START_HOME": {"hydrated_moor": 5, "boardwalk_peat": 4, "grain_field": 1,
                     "flax_field": 1, "stall": 1}}, r"hydrated_moor'\] must be in 0..3"),
    ({"_dest_size_bremen": 7}, "the size of bremen must be in 1..4"),
    ({"_dest_size_hage": 0}, "the size of hage must be in 1..4"),
    ({"LOAD_SIZES": {"wood": 1, "clay": 1, "linen": 2, "woolen": 3, "leather": 9}},
     "the size of leather must be in 1..4"),
    ({"_dest_size_leer": 4, "_dest_size_emden": 4}, "cover 21 travel spaces"),
    ({"MILKING_SHEEP": (2, 5)}, "MILKING_SHEEP must have 3"),
])
def test_reload_tables_refuses_numbers_the_core_cannot_index_with(changes, words):
    before = arle_ai.random_playout(arle_ai.new_game(3), seed=1)
    with pytest.raises(ValueError, match=words):
        _core._reload_tables(_rules_copy(**changes))
    # the real tables are back
    assert arle_ai.random_playout(arle_ai.new_game(3), seed=1) == before


# ---- the table loaders refuse tables that do not fit the core's C arrays (a ValueError naming
# the constant and the bound, not an assert: asserts vanish under python -O) ----


def _replace_at(table, index, **changes):
    import dataclasses

    return tuple(dataclasses.replace(x, **changes) if i == index else x
                 for i, x in enumerate(table))


def _choice_table(dest, k, **changes):
    """rules.DELIVERY_CHOICES with choice k of destination index `dest` changed."""
    from arle_ai.engine import rules

    out = list(rules.DELIVERY_CHOICES)
    out[dest] = _replace_at(out[dest], k, **changes)
    return tuple(out)


def _bad_tables():
    from arle_ai.engine import rules

    T = rules.TOOLS
    B = rules.BUILDINGS
    V = rules.VEHICLES
    many = tuple(("food", 1) for _ in range(4))
    return [
        # tools: a track longer than the compiled TOOL_VALUE rows; values and vp out of step
        ("tool-too-long", {"TOOLS": _replace_at(T, 0, values=(1,) * 9, vp=(0,) * 9)},
         r"TOOLS\[fish_traps\].values has 9 positions \(MAX_TOOL_LEN\); the core holds at most 5"),
        ("tool-vp", {"TOOLS": _replace_at(T, 1, vp=(0, 1))},
         r"TOOLS\[fleshing_beams\]: values \(3\) and vp \(2\) must have the same length"),
        # buildings
        ("november-bit", {"BUILDINGS": _replace_at(B, 12, timing="november")},
         r"BUILDINGS\[smokehouse\]: a 'november' building must be among the first 8"),
        ("timing", {"BUILDINGS": _replace_at(B, 12, timing="weekly")},
         r"BUILDINGS\[smokehouse\].timing must be 'on_build', 'anytime' or 'november'"),
        ("cost-fixed", {"BUILDINGS": _replace_at(B, 28, cost=rules.Cost(fixed=many))},
         r"BUILDINGS\[village_church\].cost.fixed has 4 goods; the core holds at most 3"),
        ("cost-either", {"BUILDINGS": _replace_at(
            B, 28, cost=rules.Cost(fixed=(), either=((("wood", 1),),) * 3))},
         r"BUILDINGS\[village_church\].cost.either has 3 alternatives; .* at most 2"),
        ("cost-alt", {"BUILDINGS": _replace_at(
            B, 28, cost=rules.Cost(fixed=(), either=((("wood", 1), ("clay", 1)),)))},
         r"cost.either: each alternative must be one good, not 2"),
        ("draws", {"BUILDINGS": tuple(
            dataclasses.replace(b, colour=("yellow", "orange")[i % 2]) if i >= 11 else b
            for i, b in enumerate(B))},
         r"BUILDINGS: more than 8 colour groups to draw \(MAX_DRAWS\)"),
        # barn pieces
        ("vehicle-cost", {"VEHICLES": _replace_at(V, 0, cost=(("gold", 1),))},
         r"VEHICLES\[peat_boat\].cost names unknown costs: gold"),
        ("vehicle-spaces", {"VEHICLES": _replace_at(V, 5, spaces=(1,) * 5)},
         r"VEHICLES\[horse_cart\].spaces has 5 loading spaces \(NCOMPARTMENTS\); .* at most 4"),
        ("barn", {"BARN_SMALL": 5},
         r"BARN_SMALL \+ BARN_LARGE \+ BARN_FLEX has 8 barn spaces \(MAXVEH\); .* at most 7"),
        # travel
        ("choices", {"DELIVERY_CHOICES": tuple(
            cs + cs if d == 8 else cs for d, cs in enumerate(rules.DELIVERY_CHOICES))},
         r"DELIVERY_CHOICES\[\w+\] has 10 choices \(NDELIVERY_IDS\); .* at most 5"),
        ("delivery-bit", {"DELIVERY_CHOICES": _choice_table(8, 0, delivery=8)},
         r"DELIVERY_CHOICES\[\w+\]\[0\].delivery must be in 0..7"),
        ("gives", {"DELIVERY_CHOICES": _choice_table(8, 0, gives=(("wood", 1),) * 9)},
         r"DELIVERY_CHOICES\[\w+\]\[0\].gives has 9 items \(MAX_GIVES\)"),
        ("clothing", {"DELIVERY_CHOICES": _choice_table(8, 0, gives=(("any_clothing", 2),))},
         r"any_clothing must be 1 \(one clothing tile per choice\), not 2"),
        ("travel-vp", {"TRAVEL_VP": rules.TRAVEL_VP + (11,)},
         r"TRAVEL_VP must have 20 entries \(compiled into the core\), not 21"),
        ("load-size", {"LOAD_SIZES": {"clay": 1, "linen": 2, "woolen": 3, "leather": 3}},
         r"LOAD_SIZES has no size for wood"),
        ("load-extra", {"LOAD_EXTRA_COST": {"clay": (("peat", 1), ("wood", 1))}},
         r"LOAD_EXTRA_COST\[clay\] has 2 goods; the core holds at most 1"),
        # goods and scoring
        ("track-vp", {"GOODS_TRACK_VP": rules.GOODS_TRACK_VP + (3,)},
         r"GOODS_TRACK_VP must have 16 entries"),
        ("goods-cap", {"GOODS_CAP": 16}, r"GOODS_CAP must be 15 \(GOODS_TRACK_VP has VP"),
        ("food-cost", {"SPACE_FOOD_COST": {"forester": 1, "nowhere": 2}},
         r"SPACE_FOOD_COST names unknown action spaces: nowhere"),
        # effects: rows of MAX_PARTS codes
        ("gains-long", {"SPACE_GAINS": dict(rules.SPACE_GAINS, fisherman=many)},
         r"SPACE_GAINS\[fisherman\] has 4 parts \(MAX_PARTS\); the core holds at most 3"),
        ("gains-what", {"SPACE_GAINS": dict(rules.SPACE_GAINS, fisherman=(("gold", 1),))},
         r"SPACE_GAINS\[fisherman\]: 'gold' is not a good or an animal"),
        ("exchange-what", {"SPACE_EXCHANGES": dict(
            rules.SPACE_EXCHANGES, tanner=(("hide", 1), (("horse", 1),)))},
         r"SPACE_EXCHANGES\[tanner\]: 'horse' is not a good$"),
        ("gains-key", {"BUILDING_GAINS": dict(rules.BUILDING_GAINS, castle=(("food", 1),))},
         r"BUILDING_GAINS names unknown buildings: castle"),
        ("butcher", {"BUTCHER_FOOD": {"sheep": 3, "cattle": 4}},
         r"BUTCHER_FOOD must name each animal once"),
        ("tool-steps", {"BUILDING_TOOL_STEPS": dict(
            rules.BUILDING_TOOL_STEPS, saddlery=(("axes", 1),) * 4)},
         r"BUILDING_TOOL_STEPS\[saddlery\] has 4 steps \(MAX_PARTS\)"),
        ("use-timing", {"BUILDING_USES": dict(rules.BUILDING_USES, mill=rules.BuildingUse())},
         r"BUILDING_USES\[mill\]: only an 'anytime' or 'november' building has uses"),
        ("use-pays", {"BUILDING_USES": dict(
            rules.BUILDING_USES, wood_trader=rules.BuildingUse(pays=many))},
         r"BUILDING_USES\[wood_trader\].pays has 4 parts \(MAX_PARTS\)"),
        # gifts
        ("cooperage", {"COOPERAGE_LEVELS": tuple(range(1, 8))},
         r"COOPERAGE_LEVELS has 7 levels \(MAX_GIFTS\); the core holds at most 6"),
        ("cooperage-order", {"COOPERAGE_LEVELS": (10, 5, 15)},
         r"COOPERAGE_LEVELS must be ascending"),
        ("mill", {"MILL_FOOD_BY_FIELDS": ((5, 10), (3, 8))},
         r"MILL_FOOD_BY_FIELDS must be ascending by fields"),
        ("bakehouse", {"BAKEHOUSE_EXCHANGE": (many, (("food", 8),))},
         r"BAKEHOUSE_EXCHANGE pays has 4 parts \(MAX_PARTS\)"),
    ]


def _table_copy(changes):
    copy = _rules_copy(**{k: v for k, v in changes.items() if k != "DELIVERY_CHOICES"})
    if "DELIVERY_CHOICES" in changes:
        copy.DELIVERY_CHOICES = changes["DELIVERY_CHOICES"]
    return copy


@pytest.mark.parametrize("kind", [k for k, _, _ in _bad_tables()])
def test_table_loaders_refuse_tables_past_the_c_arrays(kind):
    changes, words = next((c, w) for k, c, w in _bad_tables() if k == kind)
    before = arle_ai.random_playout(arle_ai.new_game(3), seed=1)
    with pytest.raises(ValueError, match=words):
        _core._reload_tables(_table_copy(changes))
    assert arle_ai.random_playout(arle_ai.new_game(3), seed=1) == before


def test_table_checks_hold_under_python_O():
    # before: asserts, removed by -O; a track of 9 positions was then written past TOOL_VALUE
    import subprocess
    import sys

    code = (
        "import dataclasses, types\n"
        "from arle_ai.engine import _core, rules\n"
        "c = types.ModuleType('c'); c.__dict__.update(vars(rules))\n"
        "c.TOOLS = (dataclasses.replace(rules.TOOLS[0], values=(1,) * 9, vp=(0,) * 9),)"
        " + rules.TOOLS[1:]\n"
        "try:\n"
        "    _core._reload_tables(c)\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n"
    )
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "refused: TOOLS[fish_traps].values has 9 positions" in out.stdout


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, None])
def test_mcts_seeds_are_checked_when_the_search_is_made(seed):
    # before: 1.5 and "7" failed inside the first search ("7" * 1_000_003 built a 7 MB string)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        MCTS(iterations=10, seed=seed)


def test_the_largest_user_seed_plus_a_ply_still_searches():
    # arle analyze searches ply k with seed + k; the CLI allows seeds up to MAX_SEED
    s = arle_ai.new_game(0)
    assert MCTS(iterations=20, seed=_core.MAX_SEED + 5).search(s).iterations == 20


@pytest.mark.parametrize("change,words", [
    ({"meta": np.array("[1]")}, "meta is not a JSON object"),
    ({"meta": np.array("null")}, "meta is not a JSON object"),
    ({"b2": np.array([1 + 2j, 0])}, "b2: complex128 values, not real numbers"),
    ({"w1": np.array(["a"] * 4)}, "w1: <U1 values, not real numbers"),
])
def test_weights_files_with_odd_contents_are_net_errors(tmp_path, change, words):
    # before: a meta that is no JSON object raised AttributeError; complex weights were cast
    # to their real part with only a warning
    from arle_ai.search.net import NetError, features_digest, load_net

    parts = {k: v for k, v in _net_arrays().items()}
    parts["meta"] = np.array(json.dumps({"features_digest": features_digest()}))
    parts.update(change)
    path = tmp_path / "w.npz"
    np.savez(path, **parts)
    with pytest.raises(NetError, match=words):
        load_net(path)
