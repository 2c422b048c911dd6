"""Tool tracks (actions.md §5, §3 S11; core.md 8.4): for every track, what the linked action
yields at each position, what a Master step from each position costs (and when it is not
offered), and the end-game VP of each position."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import arle_ai
from helpers import MORE, STOP, animal, base, make, place, play, tool

# track: (values left -> last, VP per position, cost good, cost amount)  [actions.md §5 table]
TRACKS: dict[str, tuple[tuple[int, ...], tuple[int, ...], str, int]] = {
    "fish_traps": ((2, 3, 4, 5, 6), (0, 0, 0, 0, 3), "wood", 1),
    "fleshing_beams": ((3, 5, 6), (0, 1, 3), "wood", 1),
    "weaving_looms": ((2, 3, 4, 5), (0, 1, 3, 4), "wood", 2),
    "slaughtering_tables": ((2, 3, 4), (0, 1, 2), "clay", 1),
    "spades": ((3, 5, 7), (0, 0, 2), "wood", 1),
    "shovels": ((3, 4, 5, 6), (0, 0, 0, 0), "wood", 1),
    "pottery_wheels": ((2, 3, 4), (0, 0, 2), "clay", 1),
    "ovens": ((1, 2, 3, 4), (0, 1, 5, 7), "brick", 1),
    "axes": ((3, 4, 5, 6), (0, 0, 0, 0), "wood", 1),
    "workbenches": ((2, 3, 4), (0, 1, 4), "clay", 2),
}
SHOVEL_DIKES = (1, 2, 2, 3)     # the upper row of the Shovels track

POSITIONS = [(t, i) for t, (values, _, _, _) in TRACKS.items() for i in range(len(values))]
STEPS = [(t, i) for t, (values, _, _, _) in TRACKS.items() for i in range(len(values) - 1)]


def pos(tools: dict[str, int] | None = None, goods: dict[str, int] | None = None,
        animals: dict[str, int] | None = None, home: dict[str, Any] | None = None,
        half_year: int = 1) -> dict[str, Any]:
    d = base(0)
    d["half_year"] = half_year
    d["season"] = "summer" if half_year % 2 else "winter"
    d["start_player"] = 0
    d["workers_placed"] = 0
    d["occupied"] = {}
    d["special_action_by"] = None
    pl = d["players"][0]
    pl["tools"].update(tools or {})
    pl["goods"].update(goods or {})
    pl["animals"].update(animals or {})
    pl["home"].update(home or {})
    d.pop("pending", None)
    return d


def check(s: arle_ai.GameState, d: dict[str, Any], **changes: dict[str, int]) -> None:
    """Player 0's part is d's with `changes`; player 1 untouched; the action is over."""
    want = copy.deepcopy(d["players"][0])
    for section, vals in changes.items():
        want[section].update(vals)
    after = s.to_dict()
    assert after["players"][0] == want
    assert after["players"][1] == d["players"][1]
    assert s.pending == "turn" and s.current_player == 1


def repeat(s: arle_ai.GameState, pending: str, a: int) -> int:
    """Apply `a` while the decision `pending` offers it; return how often."""
    n = 0
    while s.pending == pending and a in s.legal_actions():
        s.apply(a)
        n += 1
    if s.pending == pending:
        s.apply(STOP)
    return n


# ---------------------------------------------------------------------------------------------
# value: what the linked action yields at each position
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("v", TRACKS["fish_traps"][0])
def test_fish_traps_value_fisherman(v):
    new = min(v + 1, 6)              # the free step comes first, the food uses the new value
    d = pos({"fish_traps": v}, {"food": 0})
    s = play(make(d), place("fisherman"))
    check(s, d, goods={"food": new}, animals={"sheep": 1}, tools={"fish_traps": new})


@pytest.mark.parametrize("v", TRACKS["fleshing_beams"][0])
def test_fleshing_beams_value_tanner(v):
    d = pos({"fleshing_beams": v}, {"hide": 15}, half_year=2)
    s = make(d)
    s.apply(place("tanner"))
    assert repeat(s, "action:tanner", MORE) == v
    check(s, d, goods={"hide": 15 - v, "leather": v})


@pytest.mark.parametrize("v", TRACKS["weaving_looms"][0])
def test_weaving_looms_value_wool_weaver(v):
    d = pos({"weaving_looms": v}, {"wool": 15})
    s = make(d)
    s.apply(place("wool_weaver"))
    assert repeat(s, "action:wool_weaver", MORE) == v
    check(s, d, goods={"wool": 15 - v, "woolen": v})


@pytest.mark.parametrize("v", TRACKS["weaving_looms"][0])
def test_weaving_looms_value_linen_weaver(v):
    d = pos({"weaving_looms": v}, {"flax": 15}, half_year=2)
    s = make(d)
    s.apply(place("linen_weaver"))
    assert repeat(s, "action:linen_weaver", MORE) == v
    check(s, d, goods={"flax": 15 - v, "linen": v})


@pytest.mark.parametrize("v", TRACKS["slaughtering_tables"][0])
def test_slaughtering_tables_value_butcher(v):
    d = pos({"slaughtering_tables": v}, {"food": 0, "hide": 0}, {"sheep": 10}, half_year=2)
    s = make(d)
    s.apply(place("butcher"))
    assert repeat(s, "action:butcher", animal("sheep")) == v
    check(s, d, goods={"food": 3 * v, "hide": 2 * v}, animals={"sheep": 10 - v})


@pytest.mark.parametrize("v", TRACKS["spades"][0])
def test_spades_value_peat_cutter(v):
    # 16 peat lie on the moors: 3 dehydrated moors with 4 each and the boardwalk with 4
    d = pos({"spades": v}, {"peat": 0}, home={"hydrated_moors": 0, "dehydrated_moors": [4, 4, 4]})
    s = make(d)
    s.apply(place("peat_cutter"))
    while s.pending == "action:cut":
        s.apply(s.legal_actions()[0])          # cut(0): the boardwalk first
    after = s.to_dict()["players"][0]
    assert after["goods"]["peat"] == v
    assert sum(after["home"]["dehydrated_moors"]) + after["home"]["boardwalk_peat"] == 16 - v


@pytest.mark.parametrize("i", range(4))
def test_shovels_clay_value_clay_worker(i):
    v = TRACKS["shovels"][0][i]
    d = pos({"shovels": v}, {"clay": 0})
    s = play(make(d), place("clay_worker"))
    check(s, d, goods={"clay": v})


@pytest.mark.parametrize("i", range(4))
def test_shovels_dike_value_dike_builder(i):
    v = TRACKS["shovels"][0][i]
    d = pos({"shovels": v})
    s = play(make(d), place("dike_builder"), animal("sheep"))
    check(s, d, animals={"sheep": 1}, home={"dikes": SHOVEL_DIKES[i]})


@pytest.mark.parametrize("v", TRACKS["pottery_wheels"][0])
def test_pottery_wheels_value_potter(v):
    d = pos({"pottery_wheels": v}, {"clay": 10, "food": 0, "peat": 0}, half_year=2)
    s = make(d)
    s.apply(place("potter"))
    assert repeat(s, "action:potter", MORE) == v
    check(s, d, goods={"clay": 10 - v, "food": 3 * v, "peat": v})


@pytest.mark.parametrize("v", TRACKS["ovens"][0])
def test_ovens_value_baker(v):
    d = pos({"ovens": v}, {"grain": 10, "peat": 10, "food": 0}, half_year=2)
    s = make(d)
    s.apply(place("baker"))
    assert repeat(s, "action:baker", MORE) == v
    check(s, d, goods={"grain": 10 - v, "peat": 10 - v, "food": 6 * v})


@pytest.mark.parametrize("v", TRACKS["axes"][0])
def test_axes_value_woodcutter(v):
    d = pos({"axes": v}, {"wood": 0})
    s = play(make(d), place("woodcutter"))
    check(s, d, goods={"wood": v})


@pytest.mark.parametrize("space", ["summer_master", "winter_master"])
@pytest.mark.parametrize("v", TRACKS["workbenches"][0])
def test_workbenches_value_master_moves(v, space):
    d = pos({"workbenches": v}, {"wood": 10, "clay": 10}, half_year=1 if space[0] == "s" else 2)
    s = make(d)
    s.apply(place(space))
    order = ["fish_traps", "fleshing_beams", "weaving_looms", "slaughtering_tables"]
    n = 0
    while s.pending == "action:master":
        s.apply(tool(order[n]))
        n += 1
    assert n == v
    moved = {"fish_traps": 3, "fleshing_beams": 5, "weaving_looms": 3, "slaughtering_tables": 3}
    cost = {"fish_traps": 1, "fleshing_beams": 1, "weaving_looms": 2, "slaughtering_tables": 0}
    check(s, d, goods={"wood": 10 - sum(cost[t] for t in order[:v]),
                       "clay": 10 - (1 if v >= 4 else 0)},
          tools={t: moved[t] for t in order[:v]})


# ---------------------------------------------------------------------------------------------
# cost: a Master step from each position
# ---------------------------------------------------------------------------------------------

RICH = {"wood": 5, "timber": 0, "clay": 5, "brick": 5}


@pytest.mark.parametrize("space", ["summer_master", "winter_master"])
@pytest.mark.parametrize("track,i", STEPS)
def test_master_step_pays_the_track_cost(track, i, space):
    values, _, cost_good, amount = TRACKS[track]
    d = pos({track: values[i]}, RICH, half_year=1 if space[0] == "s" else 2)
    s = make(d)
    s.apply(place(space))
    s.apply(tool(track))
    if s.pending == "action:master":
        s.apply(STOP)
    check(s, d, goods={cost_good: RICH[cost_good] - amount}, tools={track: values[i + 1]})


@pytest.mark.parametrize("track", TRACKS)
def test_master_step_not_offered_at_the_last_space(track):
    values = TRACKS[track][0]
    s = make(pos({track: values[-1]}, RICH))
    s.apply(place("summer_master"))
    assert tool(track) not in s.legal_actions()


@pytest.mark.parametrize("track,i", STEPS)
def test_master_step_not_offered_when_unaffordable(track, i):
    values, _, cost_good, amount = TRACKS[track]
    goods = {"wood": 0, "timber": 0, "clay": 0, "brick": 0}
    goods[cost_good] = amount - 1
    if cost_good == "brick":
        goods["clay"] = 5                       # clay never pays for brick
    goods["food"] = 5
    s = make(pos({track: values[i]}, goods))
    s.apply(place("summer_master"))
    assert tool(track) not in s.legal_actions()


@pytest.mark.parametrize("track,i", [(t, i) for t, i in STEPS if TRACKS[t][2] != "brick"])
def test_master_step_substitute_pays(track, i):
    # one short of wood, one timber; one short of clay, one brick (actions.md §1.3)
    values, _, cost_good, amount = TRACKS[track]
    sub = {"wood": "timber", "clay": "brick"}[cost_good]
    goods = {"wood": 0, "timber": 0, "clay": 0, "brick": 0, cost_good: amount - 1, sub: 1}
    d = pos({track: values[i]}, goods)
    s = make(d)
    s.apply(place("summer_master"))
    assert tool(track) in s.legal_actions()
    s.apply(tool(track))
    if s.pending == "action:master":
        s.apply(STOP)
    check(s, d, goods={cost_good: 0, sub: 0}, tools={track: values[i + 1]})


def test_master_wood_first_then_timber():
    d = pos(goods={"wood": 1, "timber": 3})
    s = play(make(d), place("summer_master"), tool("weaving_looms"), STOP)
    check(s, d, goods={"wood": 0, "timber": 2}, tools={"weaving_looms": 3})


def test_only_the_fisherman_moves_fish_traps_for_free():
    # the same step by the Master costs 1 wood
    d = pos(goods={"wood": 1})
    s = play(make(d), place("summer_master"), tool("fish_traps"), STOP)
    check(s, d, goods={"wood": 0}, tools={"fish_traps": 3})


# ---------------------------------------------------------------------------------------------
# VP: only the space the indicator stands on scores
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("track,i", POSITIONS)
def test_tool_vp_of_each_position(track, i):
    values, points, _, _ = TRACKS[track]
    s = make(pos({track: values[i]}))
    assert s.score_breakdown(0)["tools"] == float(points[i])
    assert s.score_breakdown(1)["tools"] == 0.0


def test_tool_vp_is_per_indicator_not_a_sum_of_spaces():
    s = make(pos({"ovens": 4, "weaving_looms": 4}))
    assert s.score_breakdown(0)["tools"] == 7.0 + 3.0


def test_tool_vp_all_at_maximum_is_27():
    s = make(pos({t: v[0][-1] for t, v in TRACKS.items()}))
    assert s.score_breakdown(0)["tools"] == 27.0


def test_tool_tracks_match_rules_table():
    from arle_ai.engine import rules
    assert {t.key: (t.values, t.vp, t.cost_good, t.cost_amount) for t in rules.TOOLS} == TRACKS
    assert rules.SHOVEL_DIKE_VALUES == SHOVEL_DIKES
