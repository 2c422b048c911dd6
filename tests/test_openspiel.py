"""arle_ai.adapters.openspiel: the game passes OpenSpiel's own checks, and OpenSpiel's MCTSBot
plays it."""

from __future__ import annotations

import random

import numpy as np
import pytest

import arle_ai
from arle_ai.engine import _core
from arle_ai.search.heuristics import DEFAULT_WEIGHTS

# skipped only without the third-party extra; our adapter is imported as any module (an
# import error in it fails these tests, never skips them)
pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

from arle_ai.adapters import openspiel as aos  # noqa: E402


def random_state(seed: int, steps: int):
    game = aos.load_game(seed=seed)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def test_registered_with_its_parameters_and_type():
    game = pyspiel.load_game("fields_of_arle", {"seed": 7, "variant": "first-game"})
    assert game.get_parameters() == {"seed": 7, "variant": "first-game", "players": 2}
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_distinct_actions() == arle_ai.NUM_ACTIONS
    assert game.observation_tensor_shape() == [arle_ai.NUM_FEATURES]
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.new_initial_state().core == arle_ai.new_game(seed=7, variant="first-game")
    assert aos.load_game().get_parameters() == {"seed": 0, "variant": "standard", "players": 2}


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="variant must be one of"):
        pyspiel.load_game("fields_of_arle", {"variant": "bogus"})
    with pytest.raises(pyspiel.SpielError, match="seed"):
        pyspiel.load_game("fields_of_arle", {"seed": "x"})


def test_openspiel_random_sim_test_with_serialization():
    pyspiel.random_sim_test(aos.load_game(seed=11), num_sims=2, serialize=True, verbose=False)


def test_clone_is_an_independent_core_copy_with_the_history():
    _, state = random_state(3, 40)
    clone = state.clone()
    assert clone.core == state.core and clone.core is not state.core
    assert clone.history() == state.history() and clone.move_number() == state.move_number()
    before = state.core.copy()
    clone.apply_action(clone.legal_actions()[-1])
    assert state.core == before
    assert len(clone.history()) == len(state.history()) + 1


def test_serialize_round_trip_through_the_position_json():
    game, state = random_state(5, 60)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, back = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert back.core == state.core
    assert back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    # the Python side of the state pickles as the position JSON, checked on load
    assert aos._Position(state.core).__reduce__()[1] == (state.core.to_json(),)


def test_observations_are_the_core_features_of_each_player():
    _, state = random_state(2, 25)
    for p in (0, 1):
        assert np.array_equal(np.array(state.observation_tensor(p), np.float32),
                              state.core.features(p))
    assert state.observation_string(0) == arle_ai.describe(state.core)


def test_action_strings_are_the_notation():
    _, state = random_state(4, 10)
    for a in state.legal_actions():
        text = state.action_to_string(state.current_player(), a)
        assert text == state.core.action_to_string(a)
        assert state.string_to_action(text) == a


def test_terminal_returns_follow_the_winner():
    _, state = random_state(8, 10_000)
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    w = state.core.winner()
    assert state.returns() == ([1.0, -1.0] if w == 0 else [-1.0, 1.0])
    assert sum(state.returns()) == 0.0
    _, mid = random_state(8, 30)
    assert mid.returns() == [0.0, 0.0] and mid.rewards() == [0.0, 0.0]


def test_rollout_evaluator_is_the_core_rollout():
    _, state = random_state(6, 30)
    seed = random.Random(9).getrandbits(62)
    # the default is arle_ai.MCTS's default: uniformly random rollouts
    for ev, heuristic in ((aos.RolloutEvaluator(horizon=2, seed=9), False),
                          (aos.RolloutEvaluator(horizon=2, rollout="heuristic", seed=9), True)):
        v0, _ = _core.rollout_value(state.core, DEFAULT_WEIGHTS.as_array(), seed, heuristic, 2)
        assert np.allclose(ev.evaluate(state), [2 * v0 - 1, 1 - 2 * v0])
    prior = ev.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="rollout"):
        aos.RolloutEvaluator(rollout="greedy")


def _bot(game, seed):
    return mcts.MCTSBot(game, 2.0, 30, aos.RolloutEvaluator(seed=seed),
                        random_state=np.random.RandomState(seed), solve=True)


def test_openspiel_mctsbot_plays_a_whole_game_deterministically():
    game = aos.load_game(seed=1)
    moves = []
    for _ in range(2):
        bots = [_bot(game, 1), _bot(game, 2)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert sum(state.returns()) == 0.0
        moves.append(state.history())
    assert moves[0] == moves[1]
    assert len(moves[0]) > 100


# ---- the solo game (players=1) ----

def test_the_solo_game_is_a_general_sum_game_of_one_player_returning_its_score():
    game = pyspiel.load_game("fields_of_arle", {"seed": 5, "players": 1})
    assert game.num_players() == 1 and game.get_parameters()["players"] == 1
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (aos.SOLO_MIN_VP, aos.SOLO_MAX_VP)
    state = game.new_initial_state()
    assert state.core == arle_ai.new_game(seed=5, players=1)
    rng = random.Random(5)
    while not state.is_terminal():
        assert state.current_player() == 0 and state.returns() == [0.0]
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns() == state.core.scores() and len(state.returns()) == 1
    with pytest.raises(ValueError, match="players must be 1 .the solo game. or 2"):
        pyspiel.load_game("fields_of_arle", {"players": 3})


def test_openspiel_random_sim_test_of_the_solo_game():
    pyspiel.random_sim_test(aos.load_game(seed=13, players=1), num_sims=2, serialize=True,
                            verbose=False)


def test_openspiel_mctsbot_plays_solo_with_the_core_rollouts():
    game = aos.load_game(seed=2, players=1)
    bot = mcts.MCTSBot(game, 2.0, 40, aos.RolloutEvaluator(seed=3),
                       random_state=np.random.RandomState(3))
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(bot.step(state))
    value = aos.RolloutEvaluator(seed=1).evaluate(state)
    assert value.shape == (1,) and aos.SOLO_MIN_VP < value[0] < aos.SOLO_MAX_VP
