"""arle_ai.describe(): the plain-text view of a position (arle_ai.text.display)."""

from __future__ import annotations

import random

import pytest

import arle_ai
from arle_ai.text import decisions, names
from arle_ai.text.display import free_land
from helpers import base, make, place


def _play_until(state, rng, stop):
    while not state.is_terminal() and not stop(state):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _mid_game(seed=1):
    return _play_until(arle_ai.new_game(seed=seed), random.Random(seed),
                       lambda s: s.half_year >= 4 and s.workers_placed >= 3)


def _final(seed=2):
    return _play_until(arle_ai.new_game(seed=seed), random.Random(seed), lambda s: False)


def _player_blocks(text):
    """The text of each player's part, in player order."""
    parts = text.split("-" * 40 + "\n")
    assert len(parts) == 3
    return parts[1:]


def _num(x):
    return str(int(x)) if float(x).is_integer() else str(x)


@pytest.fixture(params=["start", "mid", "final"])
def position(request):
    if request.param == "start":
        return arle_ai.new_game(seed=0)
    if request.param == "mid":
        return _mid_game()
    return _final()


def test_describe_is_short_plain_ascii(position):
    text = arle_ai.describe(position)
    lines = text.splitlines()
    assert 20 <= len(lines) <= 60
    assert all(len(line) <= 100 for line in lines)
    text.encode("ascii")
    assert "\x1b" not in text and "\x00" not in text


def test_describe_shows_half_year_and_each_players_food(position):
    text = arle_ai.describe(position)
    d = position.to_dict()
    assert f"half-year {d['half_year']}/9 ({d['season']})" in text.splitlines()[0]
    for i, block in enumerate(_player_blocks(text)):
        g = d["players"][i]["goods"]
        assert block.startswith(f"Player {i}")
        assert (f"goods track: food {g['food']} grain {g['grain']} flax {g['flax']} "
                f"wool {g['wool']} hide {g['hide']}") in block
        a = d["players"][i]["animals"]
        assert f"animals: sheep {a['sheep']} cattle {a['cattle']} horse {a['horse']}" in block
        assert f"{_num(position.scores()[i])} VP" in block.splitlines()[0]
        assert f"bottlenecks {d['players'][i]['bottlenecks']}" in block


def test_start_position_header_and_home_board():
    s = arle_ai.new_game(seed=0)
    text = arle_ai.describe(s)
    assert "Start player: P0 | workers placed: 0/8 | to decide: P0, your turn" in text
    assert "special action: free" in text
    p0 = _player_blocks(text)[0]
    assert "Player 0 (start player)" in p0
    assert "<- to decide" in p0
    assert "materials: wood 4 timber 0 clay 4 brick 0 peat 3" in p0
    assert "home: dikes 0/7, moors 3 hydrated, boardwalk 4 peat, free land 2" in p0
    assert "fields 1 grain + 1 flax" in p0 and "stalls 1" in p0
    assert "tools: Fish Traps 2/6, Fleshing Beams 3/6" in p0
    assert "Shovels 3/6 (dikes 1)" in p0
    assert "barn: peat boats 0, plows 0, vehicles: none; loaded: nothing" in p0
    assert "travel: none (0 spaces)" in p0
    # the breakdown of -19 at the start: barn -3, home board -16 (3 moors -12, boardwalk -3, ...)
    parts = s.score_breakdown(0)
    assert f"barn {_num(parts['barn'])}" in p0
    assert f"home board {_num(parts['home_board'])}" in p0


def test_buildings_on_board_are_listed():
    s = arle_ai.new_game(seed=0)
    flat = " ".join(arle_ai.describe(s).split())
    for key in s.to_dict()["buildings_on_board"]:
        assert names.building(key) in flat  # printed names


def test_taken_space_shows_its_holder_and_leaves_the_free_list():
    s = arle_ai.new_game(seed=0)
    s.apply(place("fisherman"))
    while s.pending != "turn":  # finish the fisherman's decisions if any
        s.apply(s.legal_actions()[0])
    text = arle_ai.describe(s)
    taken = next(line for line in text.splitlines() if "taken:" in line)
    free = next(line for line in text.splitlines() if "free:" in line)
    assert "Fisherman (P0)" in taken
    assert "Fisherman" not in free
    assert "workers placed: 1/8" in text


def test_special_action_shows_space_and_player():
    s = arle_ai.new_game(seed=0)
    s.apply(place("peat_boatman"))
    text = arle_ai.describe(s)
    assert "special action: Peat Boatman (P0)" in text


def test_home_board_of_an_edited_position():
    d = base(0)
    h = d["players"][1]["home"]
    h.update({"dikes": 4, "hydrated_moors": 1, "dehydrated_moors": [4, 2], "boardwalk_peat": 0,
              "forests": 1, "buildings": ["mill"]})
    d["buildings_on_board"].remove("mill")
    d["players"][1]["barn"]["vehicles"] = [{"kind": "cart", "used": [0]}]
    d["players"][1]["loaded"]["wood"] = 1
    d["players"][1]["travel"] = ["hage", "norden"]
    s = make(d)
    p1 = _player_blocks(arle_ai.describe(s))[1]
    # land: 6 + 3 * 2 rows = 12; tiles 2 fields + 1 stall + 1 forest + 1 building = 5
    assert free_land(s.to_dict()["players"][1]["home"]) == 7
    assert ("home: dikes 4/7, moors 1 hydrated, 2 dehydrated (peat 4+2), boardwalk gone, "
            "free land 7") in p1
    assert "forests 1" in p1
    assert "buildings: Mill" in p1
    assert "vehicles: Cart (1 of 3 spaces loaded); loaded: wood 1" in p1
    assert "travel: Hage, Norden (3 spaces)" in p1


def test_free_land_counts_removed_moors_and_the_boardwalk():
    home = {"dikes": 0, "hydrated_moors": 2, "dehydrated_moors": [], "boardwalk_peat": 0,
            "grain_fields": 1, "flax_fields": 1, "forests": 0, "parks": 0, "stalls": 1,
            "depots": 0, "stables": 0, "double_stalls": 0, "buildings": []}
    assert free_land(home) == 6 + 2 - 3  # one moor removed, boardwalk gone
    home["boardwalk_peat"] = 1
    assert free_land(home) == 4


def test_mid_game_shows_whose_turn_and_the_pending_decision():
    s = _mid_game()
    assert not s.is_terminal()
    text = arle_ai.describe(s)
    assert (f"to decide: P{s.current_player}, {decisions.context(s)}") in text
    assert f"workers placed: {s.workers_placed}/8" in text
    block = _player_blocks(text)[s.current_player]
    assert "<- to decide" in block.splitlines()[0]


def test_final_position_shows_final_scores_and_winner():
    s = _final()
    assert s.is_terminal()
    text = arle_ai.describe(s)
    sc = s.scores()
    assert (f"GAME OVER - final scores: P0 {_num(sc[0])}, P1 {_num(sc[1])}; "
            f"winner: P{s.winner()}") in text
    assert "<- to decide" not in text


def test_package_describe_wraps_display():
    from arle_ai.text.display import describe

    s = _mid_game()
    assert arle_ai.describe(s) == describe(s)


def test_a_long_name_is_cut_in_the_middle_where_names_agree_not_at_the_end():
    from arle_ai.text.display import fit

    a, b = "place Builders' Merchant (special)", "place Builders' Merchant"
    assert fit(a, 40) == a
    cut = fit(a, 24)
    assert len(cut) <= 24 and cut.startswith("place") and cut.endswith("(special)")
    assert fit(b, 20).endswith("Merchant") and fit(a, 20) != fit(b, 20)
    moors = [f"cut 1 peat from a dehydrated moor with {n} peat" for n in (4, 3)]
    assert len({fit(m, 30) for m in moors}) == 2  # the end, where they differ, is kept
    assert fit("x" * 50, 11) == "xxxx...xxxx"


def test_menus_have_no_more_columns_than_options_and_a_short_menu_wraps_nothing():
    from arle_ai.text.display import columns

    two = ["1. stop", "2. Wool Weaver once more  [-1 wool, +1 woolen (+1 VP)]"]
    assert columns(two, 80) == ["  " + two[0], "  " + two[1]]  # one column: both whole
    wide = columns(two, 200)  # two columns side by side, never four
    assert len(wide) == 1 and [c.strip() for c in wide[0].split("   ") if c.strip()] == two
    five = [f"{i}. move {i}" for i in range(1, 6)]
    lines = columns(five, 100)
    assert len(lines) == 2 and lines[0].split() == ["1.", "move", "1", "3.", "move", "3", "5.",
                                                    "move", "5"]


def test_table_rows_wrap_a_long_cell_in_its_column():
    from arle_ai.text.display import table_rows

    rows = table_rows([("12", -4), ("place Builders' Merchant (special)", 20), ("0.051", -6),
                       ("?", 1)])
    assert rows == ["  12 place Builders'       0.051 ?",
                    "     Merchant (special)"]
