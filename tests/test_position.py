"""Positions as dicts and JSON: round trips and validation (DESIGN.md "position file")."""

from __future__ import annotations

import copy
import json
import random
import types
from typing import Any

import pytest

import arle_ai
from arle_ai import GameState, PositionError
from helpers import base, make

# ---- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "first-game"])
@pytest.mark.parametrize("seed", [0, 1, 17])
def test_round_trip_start_position(seed, variant):
    s = arle_ai.new_game(seed, variant)
    t = GameState.from_json(s.to_json())
    assert t == s
    assert t.to_dict() == s.to_dict()
    assert t.legal_actions() == s.legal_actions()
    assert GameState.from_dict(s.to_dict()) == s


def _random_states(seed, n):
    rng = random.Random(seed)
    s = arle_ai.new_game(seed)
    out = []
    while not s.is_terminal() and len(out) < n:
        s.apply(rng.choice(s.legal_actions()))
        if rng.random() < 0.05:
            out.append(s.copy())
    out.append(s.copy())
    return out


@pytest.mark.parametrize("seed", range(8))
def test_round_trip_mid_game(seed):
    pendings = set()
    for s in _random_states(seed, 60):
        text = s.to_json()
        t = GameState.from_json(text)
        assert t == s, s.pending
        assert t.to_json() == text
        assert t.legal_actions() == s.legal_actions()
        assert t.pending == s.pending and t.current_player == s.current_player
        assert t.scores() == s.scores()
        pendings.add(s.pending.split(":")[0])
    assert "turn" in pendings


def test_round_trip_covers_sub_decisions():
    kinds = {s.pending.split(":")[0] for seed in range(8) for s in _random_states(seed, 60)}
    assert {"turn", "action", "end_window", "game_over"} <= kinds


def test_round_trip_keeps_playing_identically():
    s = _random_states(3, 10)[5]
    t = GameState.from_json(s.to_json())
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not s.is_terminal():
        a = rng_a.choice(s.legal_actions())
        assert rng_b.choice(t.legal_actions()) == a
        s.apply(a)
        t.apply(a)
        assert s == t
    assert t.is_terminal() and t.scores() == s.scores()


def test_round_trip_of_a_terminal_position():
    s = _random_states(4, 10**6)[-1]
    assert s.is_terminal()
    t = GameState.from_json(s.to_json())
    assert t == s and t.is_terminal() and t.winner() == s.winner()


# ---- rejected inputs -----------------------------------------------------------------------


def _rejected(d, *words):
    """from_dict must raise PositionError naming each of `words`, and return nothing."""
    original = copy.deepcopy(d)
    result = None
    with pytest.raises(PositionError) as e:
        result = GameState.from_dict(d)
    assert result is None
    assert d == original                              # the input is not modified
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    return str(e.value)


def _edit(f):
    d = base(0)
    d.pop("pending")
    f(d)
    return d


@pytest.mark.parametrize("good", ["food", "grain", "wood", "timber", "peat", "winter_wear"])
def test_negative_goods(good):
    d = _edit(lambda d: d["players"][0]["goods"].update({good: -1}))
    _rejected(d, f"players[0].goods.{good}")


@pytest.mark.parametrize("good, bad, good_value", [("grain", 16, 15), ("flax", 16, 15),
                                                   ("wool", 16, 15), ("hide", 16, 15),
                                                   ("food", 31, 30)])
def test_goods_over_cap(good, bad, good_value):
    _rejected(_edit(lambda d: d["players"][1]["goods"].update({good: bad})),
              f"players[1].goods.{good}")
    s = make(_edit(lambda d: d["players"][1]["goods"].update({good: good_value})))
    assert s.to_dict()["players"][1]["goods"][good] == good_value


def test_animals_without_room():
    # start: stall 3 + 2 empty land spaces of 2 + 5 dikes = 12 places
    ok = make(_edit(lambda d: d["players"][0]["animals"].update(horse=12)))
    assert ok.to_dict()["players"][0]["animals"]["horse"] == 12
    _rejected(_edit(lambda d: d["players"][0]["animals"].update(horse=13)), "players[0].animals")


def test_mixed_animals_without_room():
    # 4 sheep, 4 cattle, 4 horses: stall 3 of one type + 2 land pens of one type + 5 dikes
    # -> e.g. 3 horses in the stall, 4 sheep on 2 land pens, 4 cattle + 1 horse on dikes: fits
    make(_edit(lambda d: d["players"][0]["animals"].update(sheep=4, cattle=4, horse=4)))
    d = _edit(lambda d: d["players"][0]["animals"].update(sheep=5, cattle=4, horse=4))
    _rejected(d, "players[0].animals")


def _own(d, p, building):
    d["players"][p]["home"]["buildings"] = [building]
    if building in d["buildings_on_board"]:
        d["buildings_on_board"].remove(building)


def test_building_owned_by_both_players():
    def f(d):
        _own(d, 0, "mill")
        _own(d, 1, "mill")
    _rejected(_edit(f), "players", "also owned")


def test_building_owned_by_both_players_names_it():
    def f(d):
        _own(d, 0, "mill")
        _own(d, 1, "mill")
    msg = _rejected(_edit(f))
    assert "mill" in msg or "home.buildings" in msg


def test_building_not_in_play():
    d = _edit(lambda d: _own(d, 0, "turnery"))          # not drawn with seed 0
    assert "turnery" not in d["setup"]["buildings"]
    _rejected(d, "players[0].home.buildings")


def test_building_on_board_not_in_play():
    _rejected(_edit(lambda d: d["buildings_on_board"].append("turnery")), "buildings_on_board")


def test_building_both_on_board_and_owned():
    def f(d):
        d["players"][0]["home"]["buildings"] = ["mill"]
    _rejected(_edit(f), "players[0].home.buildings")


def test_more_fields_than_tiles_for_one_player():
    _rejected(_edit(lambda d: d["players"][0]["home"].update(grain_fields=15)),
              "players[0].home.grain_fields")


def test_more_fields_than_tiles_for_both_players():
    # 14 field tiles in the box (core.md 1.3); each player keeps the starting flax field:
    # 7 + 1 + 5 + 1 = 14 fit, one more grain field is the 15th
    def fields(n):
        def f(d):
            d["players"][0]["home"].update(dikes=7, grain_fields=7)
            d["players"][1]["home"].update(dikes=7, grain_fields=n)
        return _edit(f)
    make(fields(5))
    _rejected(fields(6), "fields")


def test_more_fields_than_land():
    # 6 land spaces at the start: grain + flax + stall + boardwalk = 4; 3 more grain fields = 7
    make(_edit(lambda d: d["players"][0]["home"].update(grain_fields=3)))
    _rejected(_edit(lambda d: d["players"][0]["home"].update(grain_fields=4)), "players[0].home")


@pytest.mark.parametrize("h", [0, 10, -1])
def test_half_year_out_of_range(h):
    _rejected(_edit(lambda d: (d.update(half_year=h), d.pop("season"))), "half_year")


@pytest.mark.parametrize("track, value", [("fish_traps", 7), ("fish_traps", 1), ("ovens", 0),
                                          ("ovens", 5), ("spades", 4), ("shovels", 2),
                                          ("fleshing_beams", 4)])
def test_tool_value_not_on_the_track(track, value):
    _rejected(_edit(lambda d: d["players"][0]["tools"].update({track: value})),
              f"players[0].tools.{track}")


@pytest.mark.parametrize("where, name", [((), "colour"), (("players", 0), "gold"),
                                         (("players", 1, "goods"), "gold"),
                                         (("players", 0, "home"), "lake"),
                                         (("players", 0, "animals"), "goat"),
                                         (("players", 0, "tools"), "hammers"),
                                         (("setup",), "mode")])
def test_unknown_field_names(where, name):
    def f(d):
        node = d
        for k in where:
            node = node[k]
        node[name] = 1
    msg = _rejected(_edit(f), name)
    assert "unknown" in msg


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2", '{"half_year": 1,}', "nul"])
def test_malformed_json(text):
    with pytest.raises(PositionError) as e:
        GameState.from_json(text)
    assert "JSON" in str(e.value)


@pytest.mark.parametrize("text", ["[]", "3", '"position"', "null"])
def test_json_not_an_object(text):
    with pytest.raises(PositionError):
        GameState.from_json(text)


@pytest.mark.parametrize("n", [-1, 9, 100])
def test_workers_placed_out_of_range(n):
    _rejected(_edit(lambda d: d.update(workers_placed=n)), "workers_placed")


@pytest.mark.parametrize("space", ["peat_boatman", "tanner", "wainwright"])
def test_other_season_space_needs_special_action_by(space):
    def f(d):
        d["workers_placed"] = 1
        d["occupied"] = {space: d["start_player"]}
    _rejected(_edit(f), f"occupied.{space}")
    ok = _edit(f)
    ok["special_action_by"] = ok["start_player"]
    assert make(ok).special_action_by == ok["start_player"]


def test_winter_half_year_summer_space_needs_special_action_by():
    def f(d):
        d.update(half_year=2, season="winter", workers_placed=1)
        d["occupied"] = {"fisherman": d["start_player"]}
    _rejected(_edit(f), "occupied.fisherman")


def test_rejected_json_leaves_no_partial_state():
    s = arle_ai.new_game(0)
    before = s.copy()
    d = s.to_dict()
    d["players"][1]["goods"]["grain"] = 16
    text = json.dumps(d)
    result = None
    with pytest.raises(PositionError):
        result = GameState.from_json(text)
    assert result is None
    assert s == before                                 # an existing state is untouched
    d["players"][1]["goods"]["grain"] = 15
    t = GameState.from_json(json.dumps(d))
    assert t.to_dict()["players"][1]["goods"]["grain"] == 15


def test_pickle_round_trip_and_corrupted_pickles_are_refused():
    import pickle

    from arle_ai.engine import _core

    s = arle_ai.new_game(seed=3)
    s.apply(s.legal_actions()[1])
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.raw_bytes() == s.raw_bytes() and t is not s
    body = s.raw_bytes()
    good = s.__reduce__()[1][0]
    assert good[:len(body)] == body
    flipped = bytearray(good)
    flipped[10] ^= 0xFF  # one changed byte in the struct
    for bad in (b"", body, good[:-1], bytes(flipped), b"\xff" * len(good)):
        with pytest.raises(ValueError, match="state bytes"):
            _core.GameState._from_bytes(bad)


def test_a_record_pushes_and_pops_moves_like_a_move_stack():
    from arle_ai.base.errors import IllegalActionError
    from arle_ai.formats.records import GameRecord, load_record

    rec = GameRecord.new(seed=2, players=["a", "b"])
    a = rec.push("place fisherman")
    assert rec.moves() == ["place fisherman"] and rec.actions == [a]
    b = rec.push(rec.final_state().legal_actions()[0])
    assert rec.actions == [a, b]
    with pytest.raises(IllegalActionError):
        rec.push("place fisherman")  # taken
    assert rec.actions == [a, b]
    assert rec.pop() == b and rec.actions == [a]
    rec.actions.append(b)  # edited by hand: the cached position must not go stale
    expected = arle_ai.new_game(seed=2)
    expected.apply(a)
    expected.apply(b)
    assert rec.final_state() == expected
    rec.final_state().apply(rec.final_state().legal_actions()[0])  # a copy each time
    assert rec.final_state() == expected
    assert load_record(rec.to_dict()).actions == [a, b]
    rec.pop()
    rec.pop()
    with pytest.raises(IndexError):
        rec.pop()


# ---- where the checks live: arle_ai.formats.position checks the Python objects, the core copies


def test_check_position_normalises_in_the_cores_order():
    from arle_ai.engine import _core
    from arle_ai.formats.position import CheckedFrame, CheckedPosition, check_position

    s = arle_ai.new_game(5)
    for _ in range(30):
        s.apply(random.Random(len(s.legal_actions())).choice(s.legal_actions()))
    d = s.to_dict()
    c = check_position(d)
    assert isinstance(c, CheckedPosition)
    p = c.players[1]
    assert p.goods == tuple(d["players"][1]["goods"][g] for g in _core.GOOD_NAMES)
    assert p.animals == tuple(d["players"][1]["animals"][a] for a in _core.ANIMAL_NAMES)
    tracks = {t.key: t.values for t in arle_ai.engine.rules.TOOLS}
    assert p.tools == tuple(tracks[k].index(d["players"][1]["tools"][k])
                            for k in _core.TOOL_KEYS)   # positions on the track, not values
    assert c.in_play == sum(1 << _core.BUILDING_KEYS.index(k) for k in d["setup"]["buildings"])
    assert c.pending is not None and all(isinstance(f, CheckedFrame) for f in c.pending)
    assert all(type(v) is int for v in (c.seed, c.half_year, c.occupied, c.special_by))
    assert GameState.from_dict(d) == s


def test_python_object_errors_come_from_check_position():
    from arle_ai.formats.position import check_position

    d = base(0)
    d["players"][1]["goods"]["grain"] = "3"
    with pytest.raises(PositionError, match=r"players\[1\].goods.grain: expected an integer"):
        check_position(d)
    d = base(0)
    d["pending"] = [{"kind": "turn", "player": 0, "z": 1}]
    with pytest.raises(PositionError, match=r"pending\[0\].z: unknown field"):
        check_position(d)


def test_engine_checks_stay_in_the_core():
    # land room needs the engine's land count: the Python check passes, loading refuses
    from arle_ai.formats.position import check_position

    d = base(0)
    d["players"][0]["home"].update(grain_fields=5, flax_fields=5)
    c = check_position(d)
    assert c.players[0].grain_fields == 5
    with pytest.raises(PositionError, match=r"players\[0\].home: \d+ tiles need land spaces"):
        GameState.from_dict(d)


def test_checked_values_are_plain_ints():
    # 1.0 compares equal to 1: accepted as before, and handed over as the int 1
    from arle_ai.formats.position import check_position

    d = base(0)
    d["special_action_by"] = 1.0
    assert type(check_position(d).special_by) is int
    assert GameState.from_dict(d).to_dict()["special_action_by"] == 1


def test_bounds_without_a_rules_number_are_the_cores():
    # animals, loaded items and frame fields: check_position reads the core's bounds (the ones
    # its guards use), so the two cannot disagree; the bound itself passes, one more is refused
    from arle_ai.engine import _core
    from arle_ai.formats.position import check_position

    lim = _core._position_limits()
    assert lim["animal_fields"] == tuple((a, lim["animals_max"]) for a in _core.ANIMAL_NAMES)
    cases = [(("players", 0, "animals", "sheep"), lim["animals_max"]),
             (("players", 1, "loaded", _core.LOAD_NAMES[0]), lim["loaded_max"]),
             (("pending", 0, "b"), lim["frame_b_max"]),
             (("pending", 0, "c"), lim["frame_a_max"]),
             (("pending", 0, "m"), lim["frame_m_max"])]
    for path, bound in cases:
        for value, ok in ((bound, True), (bound + 1, False)):
            d = base(0)
            d["pending"] = [{"kind": "turn", "player": 0}]
            node: Any = d
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            if ok:
                check_position(d)
            else:
                with pytest.raises(PositionError, match=rf"out of range 0\.\.{bound}$"):
                    check_position(d)


def test_position_limits_are_built_once_per_table_load():
    from arle_ai.engine import _core, rules
    from arle_ai.formats.position import check_position

    lim = _core._position_limits()
    assert _core._position_limits() is lim  # cached: from_dict does not rebuild it
    copy = types.ModuleType("patched_rules")
    copy.__dict__.update(vars(rules))
    fields = rules.SUPPLY_TILES["field"]
    copy.SUPPLY_TILES = dict(rules.SUPPLY_TILES, field=fields + 1)
    d = base(0)
    d["players"][0]["home"]["grain_fields"] = fields + 1
    with pytest.raises(PositionError, match=rf"grain_fields: {fields + 1} is out of range"):
        check_position(d)
    _core._reload_tables(copy)
    try:
        assert _core._position_limits() is not lim  # the cache follows the tables
        assert check_position(d).players[0].grain_fields == fields + 1
    finally:
        _core._reload_tables()
    assert _core._position_limits() == lim
