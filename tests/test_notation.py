"""The action notation (docs/notation.md): texts of ids, parsing, round trips."""

from __future__ import annotations

import random
import re

import pytest

import arle_ai
from arle_ai.text.answers import parse_action
from arle_ai.text.notation import (
    BUILDINGS,
    DESTINATIONS,
    SPACES,
    TOOLS,
    VEHICLES,
    action_range,
    action_to_string,
    legal_moves_text,
)
from helpers import (
    MORE,
    PASS,
    STOP,
    animal,
    base,
    breed,
    build,
    cut,
    deliver,
    exchange,
    flip,
    good,
    imitate,
    load,
    make,
    place,
    tile,
    tool,
    use,
    vehicle,
)

N = arle_ai.NUM_ACTIONS


def _random_states(games: int = 30, every: int = 3):
    """States of `games` random games (seeded), every `every` decisions, and the final ones."""
    for g in range(games):
        rng = random.Random(1000 + g)
        s = arle_ai.new_game(seed=g)
        step = 0
        while not s.is_terminal():
            if step % every == 0:
                yield s
            s.apply(rng.choice(s.legal_actions()))
            step += 1
        yield s


def _summer_state():
    s = arle_ai.new_game(seed=0)
    assert s.season == "summer"
    return s


def _with_cart():
    d = base(0)
    d["players"][0]["barn"]["vehicles"] = [{"kind": "cart", "used": []}]
    return make(d)


# ---- texts of the fixed ids ----


@pytest.mark.parametrize("a, text", [
    (STOP, "stop"),
    (PASS, "pass"),
    (MORE, "more"),
    (place("fisherman"), "place fisherman"),
    (place("peat_boatman"), "place peat_boatman (special)"),
    (exchange("grain"), "exchange grain"),
    (use("weaving_parlor"), "use weaving_parlor"),
    (good("timber"), "good timber"),
    (animal("sheep"), "animal sheep"),
    (animal("cattle"), "animal cattle"),
    (tool("ovens"), "tool ovens"),
    (build("mill"), "build mill"),
    (vehicle("droshky"), "vehicle droshky"),
    (cut(0), "cut boardwalk"),
    (cut(3), "cut moor(3)"),
    (imitate("forester"), "imitate forester"),
    (flip("stall"), "flip stall"),
    (tile("grain_field"), "tile grain_field"),
    (deliver("bremen", 1), "deliver bremen:timber"),
    (deliver("bremen", 4), "deliver bremen:clothing"),
    (deliver("emden", 3), "deliver emden:winter_wear"),
    (deliver("hage", 0), "deliver hage:grain_field"),
    (deliver("hage", 1), "deliver hage:flax_field"),
])
def test_text_of_fixed_id(a, text):
    assert action_to_string(_summer_state(), a) == text


def test_place_of_other_season_is_marked_special_only_in_that_season():
    summer = _summer_state()
    d = base(0)
    d["half_year"] = 2
    d.pop("season", None)
    winter = make(d)
    assert winter.season == "winter"
    assert action_to_string(summer, place("peat_boatman")) == "place peat_boatman (special)"
    assert action_to_string(winter, place("peat_boatman")) == "place peat_boatman"
    assert action_to_string(winter, place("fisherman")) == "place fisherman (special)"


def test_load_names_the_vehicle_kind_in_the_slot():
    s = _with_cart()
    assert s.current_player == 0
    assert action_to_string(s, load("wood", 0, 0)) == "load wood on cart#0 at 0"
    assert action_to_string(s, load("bremen", 1, 2)) == "load bremen on vehicle#1 at 2"
    assert load("wood", 0, 0) in s.legal_actions()
    assert parse_action(s, "load wood on cart#0 at 0") == load("wood", 0, 0)
    assert parse_action(s, "LOAD wood on vehicle # 0 at 0") == load("wood", 0, 0)


def test_load_without_vehicle_is_named_vehicle():
    assert action_to_string(_summer_state(), load("clay", 0, 1)) == "load clay on vehicle#0 at 1"


def test_every_id_has_a_distinct_text():
    for s in list(_random_states(games=3, every=25)):
        texts = [action_to_string(s, a) for a in range(N)]
        assert len(set(texts)) == N


def test_unused_ids_of_a_range_still_have_a_text():
    s = _summer_state()
    assert action_to_string(s, deliver("esens", 3)) == "deliver esens:#3"
    assert action_to_string(s, deliver("hage", 2)) == "deliver hage:#2"
    assert action_to_string(s, breed(0)) == "breed plan#0"  # no breeding decision pending


@pytest.mark.parametrize("bad", [-1, N, N + 100, True, "2", 2.0, None])
def test_out_of_range_id_gives_value_error(bad):
    with pytest.raises(ValueError):
        action_to_string(_summer_state(), bad)


def test_action_range_splits_layout():
    assert action_range(0) == ("stop", 0)
    assert action_range(place("peat_boatman")) == ("place", 15)
    assert action_range(deliver("bremen", 4)) == ("deliver", 44)
    assert action_range(N - 1) == ("deliver", 44)
    with pytest.raises(ValueError):
        action_range(N)


# ---- breeding ----


def _breed_state():
    for s in _random_states(games=30, every=1):
        if s.pending == "breed":
            return s.copy()
    raise AssertionError("no breeding decision with a choice in 30 random games")


def test_breed_text_spells_out_the_plan():
    s = _breed_state()
    plans = s.breeding_plans()
    assert len(plans) >= 2
    for k, (sh, ca, ho) in enumerate(plans):
        text = f"breed sheep+{sh} cattle+{ca} horse+{ho}"
        assert action_to_string(s, breed(k)) == text
        assert parse_action(s, text) == breed(k)
    assert action_to_string(s, breed(len(plans))) == f"breed plan#{len(plans)}"


# ---- parsing ----


def test_round_trip_of_every_legal_action_in_random_games():
    checked = 0
    for s in _random_states():
        for a in s.legal_actions():
            text = action_to_string(s, a)
            assert parse_action(s, text) == a, text
            assert parse_action(s, "  " + text.upper().replace(" ", "   ") + " ") == a, text
            checked += 1
    assert checked > 5000


def test_parse_is_case_and_space_insensitive():
    s = _summer_state()
    assert parse_action(s, "  Place   FISHERMAN ") == place("fisherman")


def test_special_place_parses_with_or_without_suffix():
    s = _summer_state()
    assert parse_action(s, "place peat_boatman (special)") == place("peat_boatman")
    assert parse_action(s, "place peat_boatman") == place("peat_boatman")
    assert parse_action(s, "place peat_boatman(special)") == place("peat_boatman")


def test_parse_of_integer_strings():
    s = _summer_state()
    assert parse_action(s, "2") == 2
    assert parse_action(s, " 17 ") == 17
    assert parse_action(s, "1") == PASS
    assert parse_action(s, 3) == 3


@pytest.mark.parametrize("text", ["591", "673", "-1", "0"])
def test_parse_of_illegal_integer_string_fails(text):
    with pytest.raises(arle_ai.IllegalActionError):
        parse_action(_summer_state(), text)


def test_bad_text_gives_illegal_action_error_naming_text_decision_and_alternatives():
    s = _summer_state()
    with pytest.raises(arle_ai.IllegalActionError) as e:
        parse_action(s, "place the moon")
    msg = str(e.value)
    assert "'place the moon'" in msg
    assert "(decision: P0, your turn: place a worker on an action space, or pass)" in msg
    assert "'place Fisherman'" in msg
    assert "more)" in msg  # 31 legal actions: only 10 listed
    assert e.value.reason == "cannot play 'place the moon': not an action text"


def test_real_but_illegal_action_text_is_reported_as_not_legal():
    s = _summer_state()
    with pytest.raises(arle_ai.IllegalActionError, match="flip moor.*not legal now"):
        parse_action(s, "flip moor")


KEYS = re.compile(r"\b(" + "|".join(
    k for k in (*SPACES, *BUILDINGS, *VEHICLES, *DESTINATIONS, *TOOLS) if "_" in k) + r")\b")


@pytest.mark.parametrize("typed", ["place the moon", "place summer_grocer", "use weaving_parlor",
                                   "flip moor", "more", 43, 672, 10**30, -1, "99999999999"])
def test_errors_name_moves_and_decisions_with_printed_names_not_keys(typed):
    """A person reads these (arle play, the browser): no engine key, no engine decision name;
    the keys are still read as input."""
    states = [_summer_state()]
    s = _summer_state()
    s.apply(parse_action(s, "place wool_weaver"))  # P0 at the Wool Weaver: stop or more
    states.append(s)
    s = arle_ai.new_game(seed=0)
    s.apply(parse_action(s, "place summer_grocer"))  # the keys work as input
    states.append(s)
    errors = 0
    for s in states:
        try:
            parse_action(s, typed)
            continue  # legal here
        except arle_ai.IllegalActionError as e:
            msg = str(e).replace(repr(typed), "")  # what was typed is echoed as it was
            errors += 1
        assert not KEYS.search(msg), msg
        assert s.pending not in msg.replace("your turn", ""), msg  # 'turn', 'action:...'
    assert errors >= 2
    with pytest.raises(arle_ai.IllegalActionError, match=r"'place Grocer' is not legal now"):
        parse_action(states[2], "place summer_grocer")  # taken
    with pytest.raises(arle_ai.IllegalActionError) as e:
        parse_action(states[1], "use weaving_parlor")
    assert str(e.value) == (
        "cannot play 'use weaving_parlor': 'use Weaving Parlor' is not legal now (decision: "
        "P0 - Wool Weaver: how much wool do you turn into woolen? (0-2)); legal: 'stop', "
        "'Wool Weaver once more'")


@pytest.mark.parametrize("a", [place("summer_grocer"), 0, -1, N, 10**30, "3", None,
                               True, 2.0])
def test_apply_refuses_in_printed_names_like_parse_action(a):
    # GameState.apply and apply_traced speak the player's language too: no engine key, no
    # engine decision name; the message of an int id is parse_action's for the same id
    s = arle_ai.new_game(seed=0)
    s.apply(parse_action(s, "place summer_grocer"))  # P0 at the Grocer: which good?
    before = s.copy()
    for method in (s.apply, s.apply_traced):
        with pytest.raises(arle_ai.IllegalActionError) as e:
            method(a)
        msg = str(e.value)
        assert not KEYS.search(msg), msg
        assert "(decision: P0 - Grocer: which good" in msg and "; legal: 'good timber'" in msg
        if isinstance(a, int) and not isinstance(a, bool):
            with pytest.raises(arle_ai.IllegalActionError) as parsed:
                parse_action(s, a)
            assert str(e.value) == str(parsed.value)
        assert s == before
    with pytest.raises(arle_ai.IllegalActionError,
                       match=r"^cannot play \d+: action \d+ \('place Grocer'\) is not legal now"):
        s.apply(place("summer_grocer"))


def test_taken_space_cannot_be_parsed():
    s = _summer_state()
    s.apply(place("fisherman"))
    with pytest.raises(arle_ai.IllegalActionError):
        parse_action(s, "place fisherman")


def test_nothing_parses_when_the_game_is_over():
    s = arle_ai.new_game(seed=0)
    rng = random.Random(0)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    with pytest.raises(arle_ai.IllegalActionError, match=r"the game is over\); legal: none"):
        parse_action(s, "pass")


def test_non_string_input_is_rejected():
    with pytest.raises(arle_ai.IllegalActionError):
        parse_action(_summer_state(), None)


# ---- the GameState methods and helpers ----


def test_gamestate_methods_use_the_notation():
    s = _summer_state()
    assert s.action_to_string(place("farmer")) == "place farmer"
    assert s.parse_action("place farmer") == place("farmer")


def test_apply_error_names_the_action_text():
    s = _summer_state()
    with pytest.raises(arle_ai.IllegalActionError, match="'flip moor to dehydrated moor'"):
        s.apply(flip("moor"))


def test_legal_moves_text_pairs_ids_with_texts():
    s = _summer_state()
    moves = legal_moves_text(s)
    assert [a for a, _ in moves] == s.legal_actions()
    assert moves[:2] == [(PASS, "pass"), (place("fisherman"), "place fisherman")]
    assert all(t == action_to_string(s, a) for a, t in moves)
