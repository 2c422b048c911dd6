"""GameState.features(): exact slots of hand-built positions, perspective, the docs table."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import arle_ai
from arle_ai import FEATURE_NAMES, NUM_FEATURES
from arle_ai.engine._core import features_batch
from helpers import make, position, veh

DOC = Path(__file__).resolve().parent.parent / "docs" / "features.md"


def slot(name: str) -> int:
    return FEATURE_NAMES.index(name)


def built() -> arle_ai.GameState:
    """Half-year 4 (winter), player 1 started; player 0 to place its second worker."""
    d = position(
        {"goods": {"food": 7, "wood": 3, "linen": 2},
         "animals": {"sheep": 2, "cattle": 1, "horse": 0},
         "home": {"grain_fields": 2, "stalls": 1, "dikes": 5, "buildings": ["smokehouse"]},
         "barn": {"peat_boats": 1, "plows": 0, "vehicles": veh("handcart", "cart")},
         "bottlenecks": 1},
        {"goods": {"food": 1}, "animals": {"sheep": 0, "cattle": 0, "horse": 3}},
        half_year=4, start_player=1, workers_placed=3,
        occupied={"winter_grocer": 1, "tanner": 0, "potter": 1})
    d["buildings_on_board"].remove("smokehouse")
    return make(d)


def test_layout_names_and_size() -> None:
    assert NUM_FEATURES == len(FEATURE_NAMES) == len(set(FEATURE_NAMES))
    s = arle_ai.new_game(3)
    f = s.features()
    assert f.dtype == np.float32 and f.shape == (NUM_FEATURES,)
    assert np.all(np.isfinite(f))


def test_chosen_slots_of_a_hand_built_position() -> None:
    s = built()
    assert s.current_player == 0 and s.pending == "turn"
    f = s.features()
    want = {
        "me.goods.food": 7, "me.goods.wood": 3, "me.goods.linen": 2,
        "me.animals.sheep": 2, "me.animals.cattle": 1, "me.animals.horse": 0,
        "me.grain_fields": 2, "me.stalls": 1, "me.dikes": 5, "me.owns.smokehouse": 1,
        "available.smokehouse": 0, "in_play.smokehouse": 1,
        "me.peat_boats": 1, "me.vehicles.handcart": 1, "me.vehicles.cart": 1,
        "me.vehicles.wagon": 0, "me.bottlenecks": 1,
        "opp.goods.food": 1, "opp.animals.horse": 3, "opp.owns.smokehouse": 0,
        "half_year.4": 1, "half_year.3": 0, "summer": 0, "workers_placed": 3,
        "me_start_player": 0, "me_special": 0, "opp_special": 0, "first_game": 0,
        # player 1 started: turns 0 and 2 were theirs, turn 1 player 0's
        "me.workers_left": 3, "opp.workers_left": 2,
        "space_me.tanner": 1, "space_opp.winter_grocer": 1, "space_opp.potter": 1,
        "space_me.potter": 0, "space_opp.tanner": 0,
        "pending.me": 1, "pending.turn": 1, "pending.action": 0, "pending.game_over": 0,
        "stack_depth": 1,
    }
    for name, value in want.items():
        assert f[slot(name)] == value, name
    # the score slots are the score breakdown
    for cat, vp in s.score_breakdown(0).items():
        assert f[slot(f"me.score.{cat}")] == vp
    assert f[slot("me.score.total")] == s.scores()[0]
    assert f[slot("opp.score.total")] == s.scores()[1]
    # buildings on the board and in play, from the setup draw
    d = s.to_dict()
    for b in arle_ai.engine.rules.BUILDINGS:
        assert f[slot(f"in_play.{b.key}")] == (b.key in d["setup"]["buildings"])
        assert f[slot(f"available.{b.key}")] == (b.key in d["buildings_on_board"])


def test_tool_and_pending_action_step() -> None:
    s = built()
    s.apply(arle_ai.ACTION_LAYOUT["place"] + [a.key for a in arle_ai.engine.rules.ACTION_SPACES]
            .index("builders_merchant"))
    f = s.features()
    assert f[slot("space_me.builders_merchant")] == 1
    if s.current_player == 0:
        assert f[slot("pending.action")] == 1
        assert f[slot("pending_step.builders_merchant")] == 1
    d = position({"tools": {"fish_traps": 4}})
    f = make(d).features()
    assert f[slot("me.tool.fish_traps")] == 2   # value 4 is the third space (2, 3, 4, 5, 6)
    assert f[slot("opp.tool.fish_traps")] == 0


def test_perspective_swaps_the_player_blocks() -> None:
    s = built()
    f0, f1 = s.features(0), s.features(1)
    n = (NUM_FEATURES - sum(1 for x in FEATURE_NAMES if not x.startswith(("me.", "opp.")))) // 2
    assert np.array_equal(f0[:n], f1[n:2 * n]) and np.array_equal(f0[n:2 * n], f1[:n])
    assert f1[slot("pending.me")] == 0
    assert np.array_equal(f0, s.features())
    with pytest.raises(ValueError, match="player"):
        s.features(2)
    with pytest.raises(ValueError, match="player"):
        s.features(True)


def test_batch_equals_single_and_game_over() -> None:
    states = []
    s = arle_ai.new_game(11)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        states.append(s.copy())
        acts = s.legal_actions()
        s.apply(acts[int(rng.integers(len(acts)))])
    states.append(s)
    batch = features_batch(states)
    assert batch.shape == (len(states), NUM_FEATURES)
    for i, st in enumerate(states):
        assert np.array_equal(batch[i], st.features())
    end = s.features()
    assert end[slot("pending.game_over")] == 1 and end[slot("pending.me")] == 0
    assert end[slot("me.score.total")] == s.scores()[0]


def test_docs_list_every_slot_in_order() -> None:
    rows = re.findall(r"^\| (\d+) \| `([^`]+)` \|", DOC.read_text(), flags=re.M)
    assert [int(i) for i, _ in rows] == list(range(NUM_FEATURES))
    assert tuple(name for _, name in rows) == FEATURE_NAMES
