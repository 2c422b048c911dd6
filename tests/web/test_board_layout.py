"""Where the page draws the pieces (arle_ai.web.board): every piece of the position has its
place, as the rules allow it, and a tile stays on its space while the game goes on."""

from __future__ import annotations

from collections import Counter

import pytest

from arle_ai.engine import _core, rules
from arle_ai.engine.testing import biased_policy, play_random_game
from arle_ai.play.session import Session
from arle_ai.text.display import free_land
from arle_ai.text.loads import assign_loads
from arle_ai.web import board
from arle_ai.web.games import Game


def test_the_dike_rows_follow_the_rules_reference():
    # core.md 2.4: gap rows (G0 at the sea .. G3 above the land) by dike steps
    assert board.dike_rows(0) == [0, 0, 2, 3]
    assert board.dike_rows(2) == [0, 1, 3, 1]
    assert board.dike_rows(5) == [1, 3, 1, 0]
    assert board.dike_rows(7) == [3, 2, 0, 0]
    assert board.dike_rows(9) == board.dike_rows(rules.DIKE_STEPS_MAX)  # later steps are lost
    for steps in range(rules.DIKE_STEPS_MAX + 1):
        rows = board.dike_rows(steps)
        assert sum(rows) == rules.DIKES
        assert board.COLUMNS - rows[0] == rules.TOP_DIKE_ROW_GAPS[steps]
        line = min(i for i, n in enumerate(rows) if n == board.COLUMNS)  # the dike line
        opened = sum(1 for at in rules.TIDAL_ROWS_OPEN_AT if steps >= at)
        assert board.TIDAL_ROWS - line == opened


def test_the_opening_is_laid_out_as_printed():
    view = board.home_board(_core.new_game(seed=0).to_dict()["players"][0],
                            board.place_tiles(_core.new_game(seed=0).to_dict()["players"][0]
                                              ["home"], None))
    where = {(c["row"], c["col"]): c for c in view["cells"]}
    land = board.FIRST_LAND
    assert where[(land, 2)]["tile"] == "grain_field"
    assert where[(land + 1, 2)]["tile"] == "flax_field"
    assert where[(land + 1, 0)]["tile"] == "stall" and where[(land + 1, 0)]["animals"] == [
        "horse"]
    assert where[board.BOARDWALK]["kind"] == "boardwalk" and where[board.BOARDWALK]["peat"] == 4
    assert [where[(board.FIRST_MOOR, c)]["kind"] for c in range(3)] == ["hydrated_moor"] * 3
    assert [where[(r, c)]["kind"] for r in range(board.TIDAL_ROWS) for c in range(3)] == [
        "tidal"] * 9
    assert view["goods_track"] == [{"good": "food", "space": 5}, {"good": "food", "space": 0},
                                   {"good": "grain", "space": 1}, {"good": "flax", "space": 3},
                                   {"good": "wool", "space": 4}, {"good": "hide", "space": 2}]


def test_animals_are_housed_as_the_rules_allow_or_not_at_all():
    home = _core.new_game(seed=0).to_dict()["players"][0]["home"]
    layout = board.place_tiles(home, None)
    # 1 stall (3 of a type), 2 empty land spaces (2 of a type each), 5 dikes (1 each)
    pens, unhoused = board.house_animals(layout, home, {"sheep": 3, "cattle": 4, "horse": 5})
    assert unhoused == []
    kept = Counter(a for p in pens for a in p.animals)
    assert kept == {"sheep": 3, "cattle": 4, "horse": 5}
    for p in pens:
        assert len(p.animals) <= p.size
        assert p.mixed or len(set(p.animals)) <= 1
    stall = next(p for p in pens if p.index == (board.FIRST_LAND + 1, 0))
    assert len(stall.animals) == rules.STALL_PEN  # the stall pen is filled first
    # while the owner decides which to return: 3 + 2 + 2 + 5 places for 13 sheep
    pens, unhoused = board.house_animals(layout, home, {"sheep": 13})
    assert unhoused == ["sheep"] and sum(len(p.animals) for p in pens) == 12


def test_loads_fill_the_used_compartments_exactly():
    assert assign_loads([("cart", [0, 1, 2]), ("handcart", [0])],
                        {"wood": 1, "linen": 1, "destinations": ["hage"]}) == [
        [("linen", [0, 1]), ("wood", [2])], [("hage", [0])]]
    assert assign_loads([("droshky", [0, 1, 2])], {"destinations": ["bremen"]}) == [
        [("bremen", [0, 1, 2])]]
    assert assign_loads([("carriage", [0])], {"linen": 1}) is None  # the single space is 1 wide
    assert assign_loads([("wagon", [0, 1])], {"wood": 1}) is None  # a used space left empty


def check_board(d: dict, view: dict, player: int) -> None:
    """The drawn home board holds exactly the player's pieces."""
    p = d["players"][player]
    home = p["home"]
    cells = view["cells"]
    tiles = Counter(c["tile"] for c in cells if c["kind"] == "land" and c.get("tile"))
    want = Counter({key: home[name] for key, name in board.TILE_FIELDS if home[name]})
    want.update(home["buildings"])
    assert tiles == want
    assert sum(1 for c in cells if c["kind"] == "land" and not c["tile"]) == free_land(home)
    moors = [c for c in cells if c["kind"] in ("hydrated_moor", "dehydrated_moor")]
    assert sum(c["kind"] == "hydrated_moor" for c in moors) == home["hydrated_moors"]
    assert sorted(c["peat"] for c in moors if c["kind"] == "dehydrated_moor") == sorted(
        home["dehydrated_moors"])
    walk = [c for c in cells if c["kind"] == "boardwalk"]
    assert [c["peat"] for c in walk] == ([home["boardwalk_peat"]] if home["boardwalk_peat"]
                                         else [])
    # animals: all of them, each pen as the rules allow
    animals = Counter(a for c in cells for a in c["animals"])
    animals.update(a for a in view["dike_animals"] if a)
    animals.update(view["unhoused"])
    assert animals == Counter({k: n for k, n in p["animals"].items() if n})
    if view["unhoused"]:  # only while the owner is asked which animals to return
        assert d["pending"][-1]["kind"] == "discard" and d["pending"][-1]["player"] == player
    for c in cells:
        n, kinds = len(c["animals"]), set(c["animals"])
        tile = c.get("tile")
        if tile == "stall":
            assert n <= rules.STALL_PEN and len(kinds) <= 1
        elif tile == "double_stall":
            assert n <= rules.DOUBLE_STALL_PENS * rules.STALL_PEN
        elif tile == "stable":
            assert n <= rules.STABLE_PEN and len(kinds) <= 1
        elif tile == "park":
            assert n <= rules.PARK_PLACES
        elif c["kind"] == "land" and not tile:
            assert n <= rules.LAND_PEN and len(kinds) <= 1
        else:
            assert n == 0, c
    assert sum(view["dikes"]) == rules.DIKES
    # the goods track
    track = Counter()
    for m in view["goods_track"]:
        track[m["good"]] += m["space"]
    assert dict(track) == {g: p["goods"][g] for g in rules.TRACK_GOODS}
    # the barn: every piece in a slot, the loads on the used compartments
    b = view["barn"]
    pieces = [x for slots in (b["small"], b["large"], b["flex"]) for x in slots if x]
    assert Counter(x["kind"] for x in pieces) == Counter(
        [v["kind"] for v in p["barn"]["vehicles"]] + ["peat_boat"] * p["barn"]["peat_boats"]
        + ["plow"] * p["barn"]["plows"])
    assert all(x["size"] != "large" for x in b["small"] if x)
    assert not b["loads_unplaced"]
    items = Counter()
    for x in pieces:
        used = [j for j, c in enumerate(x["compartments"]) if c["used"]]
        if x["index"] is not None:
            assert used == sorted(p["barn"]["vehicles"][x["index"]]["used"])
        covered = []
        for j, c in enumerate(x["compartments"]):
            if c["item"]:
                items[c["item"]] += 1
                covered += range(j, j + c["span"])
        assert covered == used
    loaded = Counter({k: n for k, n in p["loaded"].items() if k != "destinations" and n})
    loaded.update(p["loaded"]["destinations"])
    assert items == loaded


def targets(d: dict, view: dict, player: int) -> set[str]:
    """Every move target the drawn boards offer (as the page marks them with data-on)."""
    out = {f"space:{a.key}" for a in rules.ACTION_SPACES}
    out |= {f"tool:{t.key}" for t in rules.TOOLS}
    out |= {f"building:{s['building']}" for s in view["building_spaces"] if s["building"]}
    out |= {f"building:{b}" for p in d["players"] for b in p["home"]["buildings"]}
    home = view["boards"][player]
    for c in home["cells"]:
        if c["kind"] == "boardwalk":
            out.add(f"cut:{player}:boardwalk")
        elif c["kind"] == "dehydrated_moor":
            out.add(f"cut:{player}:moor:{c['peat']}")
        elif c["kind"] == "hydrated_moor":
            out.add(f"flip:{player}:moor")
        elif c["kind"] == "land":
            out.add(f"flip:{player}:{c['tile']}" if c["tile"] else f"land:{player}")
    b = home["barn"]
    for x in [x for slots in (b["small"], b["large"], b["flex"]) for x in slots if x]:
        out.add(f"flip:{player}:{x['kind']}")
        if x["index"] is not None:
            out.add(f"vehicle:{player}:{x['index']}")
    out.add(f"barn:{player}")
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_position_of_a_game_is_drawn_whole_and_tiles_stay_put(seed):
    record = play_random_game(seed, policy=biased_policy)
    game = Game(Session(record.start))
    session = game.session
    seen_loads = 0
    previous = game.homes(0)
    for action in record.actions:
        view = game.to_view()
        d = session.state.to_dict()
        for i in (0, 1):
            check_board(d, view["boards"][i], i)
        seen_loads += any(p["barn"]["vehicles"] and any(v["used"] for v in p["barn"]["vehicles"])
                          for p in d["players"])
        mover = session.state.current_player
        offered = targets(d, view, mover)
        for m in view["legal"]:
            assert m["on"] is None or m["on"] in offered, (m["label"], m["on"])
        session.play(action)
        now = game.homes(session.node)
        for i in (0, 1):  # a tile still wanted and on land keeps its space
            home = session.state.to_dict()["players"][i]["home"]
            land = set(board._land(home))
            wanted = Counter(board._wanted(home))
            kept = Counter()
            for cell, key in previous[i].tiles.items():
                if cell in land and kept[key] < wanted[key]:
                    kept[key] += 1
                    assert now[i].tiles.get(cell) == key, (cell, key)
        previous = now
    assert seen_loads  # the games load vehicles: their loads were drawn too


def test_workers_left_on_the_months():
    d = _core.new_game(seed=0).to_dict()
    assert board.workers_left(d) == [rules.WORKERS_PER_PLAYER] * 2
    d["workers_placed"] = 3  # the start player's turns 0 and 2, the other's 1
    assert board.workers_left(d) == [2, 3]
    d["start_player"] = 1
    assert board.workers_left(d) == [3, 2]


def test_the_building_spaces_hold_the_buildings_in_play_by_colour():
    state = _core.new_game(seed=7)
    d = state.to_dict()
    spaces = board.building_spaces(d)
    assert len(spaces) == sum(rules.BUILDING_COLOUR_SPACES.values())
    assert sorted(s["building"] for s in spaces) == sorted(d["setup"]["buildings"])
    for s in spaces:
        colour = rules.building(s["building"]).colour
        assert rules.BUILDING_SPACE_OF_COLOUR[colour] == s["space"]
        assert s["built_by"] is None
    d["players"][1]["home"]["buildings"] = [d["buildings_on_board"].pop(0)]
    built = [s for s in board.building_spaces(d) if s["built_by"] is not None]
    assert [(s["building"], s["built_by"]) for s in built] == [
        (d["players"][1]["home"]["buildings"][0], 1)]
