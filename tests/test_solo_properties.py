"""Property tests of the solo game: random solo play never reaches an impossible position
(arle_ai.engine.testing's invariants and JSON round trips after every decision), illegal
actions change nothing, every solo game ends after nine half-years of four workers each, and
the engine never lets a second player in."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arle_ai
from arle_ai.engine.testing import (
    biased_policy,
    check_illegal_rejected,
    check_invariants,
    game_states,
    legal_action,
    play_random_game,
    random_position,
    uniform_policy,
)

SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("policy", [uniform_policy, biased_policy], ids=["uniform", "biased"])
def test_invariants_hold_after_every_solo_decision(seed, policy):
    variant = ("standard", "first-game")[seed % 2]
    turns = []

    def on_step(state, action):
        assert state.players == 1 and state.current_player == 0
        if state.pending == "turn":
            turns.append((state.half_year, state.workers_placed))

    game = play_random_game(seed, variant, policy=policy, check=True, on_step=on_step,
                            players=1)
    final = game.final
    assert final.is_terminal() and final.half_year == 9 and game.replay() == final
    # four turns in each of the nine half-years, none skipped
    assert sorted(set(turns)) == [(h, w) for h in range(1, 10) for w in range(4)]
    assert len(final.scores()) == 1
    assert sum(final.score_breakdown(0).values()) == final.scores()[0]


@given(game_states(max_depth=160, players=(1,)))
@SLOW
def test_reachable_solo_positions_satisfy_the_invariants(state):
    assert state.players == 1
    check_invariants(state)
    again = arle_ai.GameState.from_json(state.to_json())
    assert again == state and again.to_dict() == state.to_dict()
    assert pickle.loads(pickle.dumps(state)) == state


@given(st.data())
@SLOW
def test_a_legal_solo_action_keeps_the_invariants(data):
    state = data.draw(game_states(max_depth=160, players=(1,)))
    if state.is_terminal():
        return
    action = data.draw(legal_action(state))
    twin = state.copy()
    state.apply(action)
    twin.apply(action)
    assert state == twin
    check_invariants(state)


@given(game_states(max_depth=160, players=(1,)), st.integers(-3, arle_ai.NUM_ACTIONS + 3))
@SLOW
def test_an_illegal_solo_action_is_rejected_and_changes_nothing(state, action):
    if 0 <= action < arle_ai.NUM_ACTIONS and state.is_legal(action):
        return
    check_illegal_rejected(state, action)


def test_solo_and_two_player_positions_never_compare_equal():
    solo, two = arle_ai.new_game(5, players=1), arle_ai.new_game(5)
    assert solo != two and solo.key() != two.key()
    assert random_position(5, 30, players=1).players == 1


def test_game_states_refuses_an_unknown_player_count():
    with pytest.raises(ValueError, match="players: 3 is not a player count"):
        game_states(players=(3,))
