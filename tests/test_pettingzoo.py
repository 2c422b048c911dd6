"""arle_ai.adapters.pettingzoo: the AEC env passes PettingZoo's API and seed tests and plays the
game."""

from __future__ import annotations

import random

import numpy as np
import pytest

import arle_ai
from arle_ai.base.errors import IllegalActionError

# skipped only without the third-party extra; our adapter is imported as any module (an
# import error in it fails these tests, never skips them)
pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from arle_ai.adapters import pettingzoo as pz  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test():
    api_test(pz.env(), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(pz.env, num_cycles=300)


def test_observations_masks_and_turns_come_from_the_game():
    e = pz.env()
    e.reset(seed=3)
    rng = random.Random(0)
    for _ in range(80):
        s = e.game_state
        agent = e.agent_selection
        assert agent == f"player_{s.current_player}"
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert np.array_equal(obs["observation"], s.features(s.current_player))
        assert obs["action_mask"].dtype == np.int8
        assert list(np.flatnonzero(obs["action_mask"])) == s.legal_actions()
        other = e.observe(f"player_{1 - s.current_player}")
        assert not other["action_mask"].any()
        assert np.array_equal(other["observation"], s.features(1 - s.current_player))
        assert e.observation_space(agent).contains(obs)
        e.step(rng.choice(s.legal_actions()))


def test_rewards_and_vp_margin_at_the_end():
    e = pz.env(variant="first-game")
    e.reset(seed=5)
    steps, seen = pz.play_random(e, random.Random(1))
    s = e.game_state
    assert s.is_terminal() and e.agents == [] and steps > 100
    scores = s.scores()
    w = s.winner()
    assert seen[f"player_{w}"][0] == 1 and seen[f"player_{1 - w}"][0] == -1
    for i in (0, 1):
        info = seen[f"player_{i}"][1]
        assert info["vp_margin"] == scores[i] - scores[1 - i]
        assert info["scores"] == list(scores) and info["winner"] == w


def test_play_random_is_seeded_and_counts_the_actions():
    e = pz.env(variant="first-game")
    e.reset(seed=5)
    steps, _ = pz.play_random(e, random.Random(1))
    replay = arle_ai.new_game(seed=e.setup_seed, variant="first-game")
    rng = random.Random(1)
    n = 0
    while not replay.is_terminal():
        legal = replay.legal_actions()
        replay.apply(legal[rng.randrange(len(legal))])
        n += 1
    assert n == steps and replay == e.game_state


def test_same_seed_same_game_and_unseeded_resets_continue_the_stream():
    a, b = pz.env(), pz.env()
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.game_state == b.game_state
    a.reset()
    b.reset()
    assert a.game_state == b.game_state and a.setup_seed == b.setup_seed
    c = pz.env()
    c.reset(seed=10)
    assert c.setup_seed != b.setup_seed  # another seed, another setup
    a.reset(seed=9)
    assert a.setup_seed == random.Random(9).randrange(2**31)  # reset(seed) restarts the stream
    assert a.game_state == arle_ai.new_game(seed=a.setup_seed)


def test_bad_input_is_refused_and_changes_nothing():
    e = pz.env()
    e.reset(seed=1)
    before = e.game_state.copy()
    agent = e.agent_selection
    illegal = next(a for a in range(arle_ai.NUM_ACTIONS) if not before.is_legal(a))
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(IllegalActionError, match="must act"):
        e.step(None)
    assert e.game_state == before and e.agent_selection == agent
    with pytest.raises(ValueError, match="variant"):
        pz.env(variant="bogus")
    with pytest.raises(ValueError, match="render_mode"):
        pz.env(render_mode="rgb_array")


def test_render_is_text(capsys):
    e = pz.env(render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == arle_ai.describe(e.game_state)
    h = pz.env(render_mode="human")
    h.reset(seed=2)
    assert h.render() is None
    assert capsys.readouterr().out == arle_ai.describe(h.game_state) + "\n"


def test_legal_mask_matches_legal_actions_to_the_end():
    rng = random.Random(4)
    s = arle_ai.new_game(seed=4)
    while True:
        m = s.legal_mask()
        assert m.dtype == np.int8 and m.shape == (arle_ai.NUM_ACTIONS,)
        assert list(np.flatnonzero(m)) == s.legal_actions()
        if s.is_terminal():
            assert not m.any()
            break
        s.apply(rng.choice(s.legal_actions()))


# ---- the solo game (players=1) ----

@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_of_the_solo_game():
    api_test(pz.env(players=1), num_cycles=300)


def test_the_solo_env_has_one_agent_rewarded_with_its_score():
    e = pz.env(players=1)
    assert e.possible_agents == ["player_0"]
    e.reset(seed=8)
    assert e.agents == ["player_0"] and e.game_state.players == 1
    steps, ended = pz.play_random(e, random.Random(2))
    reward, info = ended["player_0"]
    assert steps > 0 and set(ended) == {"player_0"}
    assert reward == info["scores"][0] == e.game_state.scores()[0]
    assert info["breakdown"] == e.game_state.score_breakdown(0)
    with pytest.raises(ValueError, match="players must be 1 .the solo game. or 2"):
        pz.env(players=0)
