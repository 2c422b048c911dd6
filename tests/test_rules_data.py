"""Exact checks of the game-data tables in src/arle_ai/engine/rules.py against the rules reference.

Pure Python: loads rules.py by file path, so it neither needs the built package nor imports
arle_ai.engine._core. Section numbers refer to /work/shared/rules (core.md, actions.md, tiles.md).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "src" / "arle_ai" / "engine" / "rules.py"


def _load_rules():
    name = "_arle_rules_under_test"
    spec = importlib.util.spec_from_file_location(name, _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses resolve string annotations through sys.modules
    spec.loader.exec_module(module)
    return module


rules = _load_rules()

GOOD_NAMES = {
    "food", "grain", "flax", "wool", "hide", "wood", "timber", "clay", "brick", "peat",
    "linen", "woolen", "leather", "summer_wear", "winter_wear", "leather_wear",
    "sheep", "cattle", "horse", "any_animal", "cattle_or_horse", "field", "plow", "peat_boat",
    "moor", "any_clothing",
}  # fmt: skip


# --- module hygiene --------------------------------------------------------------------------


def test_all_names_exist():
    for name in rules.__all__:
        assert hasattr(rules, name), name
    assert len(set(rules.__all__)) == len(rules.__all__)


def test_dataclasses_are_frozen():
    for obj in (
        rules.ACTION_SPACES[0],
        rules.TOOLS[0],
        rules.BUILDINGS[0],
        rules.VEHICLES[0],
        rules.DESTINATIONS[0],
        rules.DESTINATIONS[0].deliveries[0],
        rules.BUILDINGS[0].cost,
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.key = "x"  # Cost has no key, but frozen classes refuse any attribute


def test_tables_are_tuples():
    for name in (
        "ACTION_SPACES",
        "TOOLS",
        "BUILDINGS",
        "VEHICLES",
        "DESTINATIONS",
        "TRAVEL_VP",
        "GOODS_TRACK_VP",
        "SHOVEL_DIKE_VALUES",
        "SEASONS",
        "FIRST_GAME_GREEN",
    ):
        assert isinstance(getattr(rules, name), tuple), name


# --- action spaces (actions.md §2-§5) --------------------------------------------------------

SUMMER_KEYS = (
    "fisherman", "summer_grocer", "wool_weaver", "colonist", "peat_cutter", "dike_builder",
    "clay_worker", "farmer", "forester", "woodcutter", "summer_master", "summer_carpenter",
    "builder", "warden", "summer_laborer",
)  # fmt: skip
WINTER_KEYS = (
    "peat_boatman", "tanner", "linen_weaver", "butcher", "cattle_trader", "winter_grocer",
    "builders_merchant", "potter", "baker", "wood_trader", "winter_master", "wainwright",
    "dike_warden", "winter_carpenter", "winter_laborer",
)  # fmt: skip
SPACE_TOOLS = {
    "fisherman": "fish_traps",
    "wool_weaver": "weaving_looms",
    "peat_cutter": "spades",
    "dike_builder": "shovels",
    "clay_worker": "shovels",
    "woodcutter": "axes",
    "summer_master": "workbenches",
    "tanner": "fleshing_beams",
    "linen_weaver": "weaving_looms",
    "butcher": "slaughtering_tables",
    "potter": "pottery_wheels",
    "baker": "ovens",
    "winter_master": "workbenches",
}


def test_thirty_spaces_in_board_order():
    spaces = rules.ACTION_SPACES
    assert len(spaces) == 30
    assert rules.SEASONS == ("summer", "winter")
    assert tuple(s.key for s in spaces[:15]) == SUMMER_KEYS
    assert tuple(s.key for s in spaces[15:]) == WINTER_KEYS
    assert all(s.season == "summer" for s in spaces[:15])
    assert all(s.season == "winter" for s in spaces[15:])
    assert [s.order for s in spaces[:15]] == list(range(1, 16))
    assert [s.order for s in spaces[15:]] == list(range(1, 16))
    assert len({s.key for s in spaces}) == 30


def test_space_names():
    names = {s.key: s.name for s in rules.ACTION_SPACES}
    assert names["summer_grocer"] == names["winter_grocer"] == "Grocer"
    assert names["summer_master"] == names["winter_master"] == "Master"
    assert names["summer_carpenter"] == names["winter_carpenter"] == "Carpenter"
    assert names["summer_laborer"] == names["winter_laborer"] == "Laborer"
    assert names["builders_merchant"] == "Builders' Merchant"
    assert names["peat_boatman"] == "Peat Boatman"


def test_space_tools():
    tool_keys = {t.key for t in rules.TOOLS}
    for s in rules.ACTION_SPACES:
        assert s.tool == SPACE_TOOLS.get(s.key), s.key
        assert s.tool is None or s.tool in tool_keys
    # the block spaces (orders 12-15) read no tool track
    assert all(s.tool is None for s in rules.ACTION_SPACES if s.order >= 12)
    # every tool track is read by some space
    assert {s.tool for s in rules.ACTION_SPACES} - {None} == tool_keys


def test_engine_indexes():
    keys = [s.key for s in rules.ACTION_SPACES]
    assert keys.index("fisherman") == 0
    assert keys.index("summer_laborer") == 14
    assert keys.index("peat_boatman") == 15
    assert keys.index("winter_laborer") == 29


# --- tool tracks (actions.md §5, core.md §8.4) -----------------------------------------------

TOOL_TABLE = (
    ("fish_traps", (2, 3, 4, 5, 6), (0, 0, 0, 0, 3), "wood", 1),
    ("fleshing_beams", (3, 5, 6), (0, 1, 3), "wood", 1),
    ("weaving_looms", (2, 3, 4, 5), (0, 1, 3, 4), "wood", 2),
    ("slaughtering_tables", (2, 3, 4), (0, 1, 2), "clay", 1),
    ("spades", (3, 5, 7), (0, 0, 2), "wood", 1),
    ("shovels", (3, 4, 5, 6), (0, 0, 0, 0), "wood", 1),
    ("pottery_wheels", (2, 3, 4), (0, 0, 2), "clay", 1),
    ("ovens", (1, 2, 3, 4), (0, 1, 5, 7), "brick", 1),
    ("axes", (3, 4, 5, 6), (0, 0, 0, 0), "wood", 1),
    ("workbenches", (2, 3, 4), (0, 1, 4), "clay", 2),
)


def test_tool_tracks_exact():
    assert len(rules.TOOLS) == 10
    got = tuple((t.key, t.values, t.vp, t.cost_good, t.cost_amount) for t in rules.TOOLS)
    assert got == TOOL_TABLE
    for t in rules.TOOLS:
        assert len(t.values) == len(t.vp)
        assert list(t.values) == sorted(t.values)
        assert t.cost_good in rules.MATERIALS


def test_shovel_dike_row():
    assert rules.SHOVEL_DIKE_VALUES == (1, 2, 2, 3)
    shovels = rules.tool("shovels")
    assert len(rules.SHOVEL_DIKE_VALUES) == len(shovels.values)
    assert tuple(v // 2 for v in shovels.values) == rules.SHOVEL_DIKE_VALUES


def test_max_tool_vp_is_27():
    assert sum(t.vp[-1] for t in rules.TOOLS) == 27
    assert sum(max(t.vp) for t in rules.TOOLS) == 27


def test_tool_helpers():
    assert rules.tool_value("fish_traps", 0) == 2
    assert rules.tool_value("fish_traps", 4) == 6
    assert rules.tool_value("ovens", 3) == 4
    assert rules.tool_vp("ovens", 3) == 7
    assert rules.tool_vp("workbenches", 2) == 4
    with pytest.raises(ValueError):
        rules.tool_value("spades", 3)
    with pytest.raises(ValueError):
        rules.tool_value("spades", -1)
    with pytest.raises(KeyError, match="tool track"):
        rules.tool_value("hammers", 0)


# --- buildings (tiles.md §2.2, §2.5; actions.md §8.4) -----------------------------------------

BUILDING_TABLE = (
    # key, colour, vp, timing
    ("farmers_house", "light_green", 1, "november"),
    ("plow_makers_workshop", "light_green", 1, "november"),
    ("novices_hut", "light_green", 1, "november"),
    ("workshop", "light_green", 1, "november"),
    ("weaving_parlor", "dark_green", 1, "anytime"),
    ("colonists_house", "dark_green", 1, "anytime"),
    ("carpenters_workshop", "dark_green", 1, "anytime"),
    ("schnapps_distillery", "dark_green", 1, "anytime"),
    ("loading_station", "dark_green", 1, "anytime"),
    ("litter_storage", "dark_green", 1, "anytime"),
    ("wood_trader", "dark_green", 1, "anytime"),
    ("turnery", "yellow", 5, "on_build"),
    ("smokehouse", "yellow", 5, "on_build"),
    ("smithy", "yellow", 3, "on_build"),
    ("cooperage", "yellow", 4, "on_build"),
    ("bakehouse", "yellow", 4, "on_build"),
    ("mill", "orange", 6, "on_build"),
    ("weaving_mill", "orange", 7, "on_build"),
    ("textile_house", "orange", 9, "on_build"),
    ("saddlery", "orange", 8, "on_build"),
    ("joinery", "orange", 6, "on_build"),
    ("waterfront_house", "orange", 10, "on_build"),
    ("potters_inn", "blue", 5, "on_build"),
    ("farmers_inn", "blue", 3, "on_build"),
    ("junk_dealers_inn", "blue", 4, "on_build"),
    ("gulf_house_inn", "blue", 5, "on_build"),
    ("milk_house_inn", "blue", 5, "on_build"),
    ("sluice_yard_inn", "blue", 4, "on_build"),
    ("village_church", "red", 15, "on_build"),
    ("lutetsburg_castle", "red", 15, "on_build"),
    ("berum_castle", "red", 15, "on_build"),
)


def _cost(fixed, either=(), any_materials=0, different_materials=0, different_clothing=0):
    return rules.Cost(fixed, either, any_materials, different_materials, different_clothing)


GREEN = _cost((("grain", 1),), any_materials=1)
YELLOW = _cost((("timber", 1), ("brick", 1)))
BLUE = _cost((("food", 9),), different_materials=2)
RED = _cost((("timber", 3), ("brick", 3), ("food", 15)))
ORANGE = {
    "mill": _cost((("timber", 1),), ((("flax", 8),), (("grain", 8),))),
    "weaving_mill": _cost((("brick", 2),), ((("flax", 10),), (("wool", 10),))),
    "textile_house": _cost((("brick", 1),), different_clothing=2),
    "saddlery": _cost((("timber", 2), ("leather", 3))),
    "joinery": _cost((("timber", 2), ("grain", 5))),
    "waterfront_house": _cost((("brick", 2), ("food", 25))),
}


def test_buildings_exact():
    assert len(rules.BUILDINGS) == 31
    got = tuple((b.key, b.colour, b.vp, b.timing) for b in rules.BUILDINGS)
    assert got == BUILDING_TABLE


def test_building_colour_counts():
    counts: dict[str, int] = {}
    for b in rules.BUILDINGS:
        counts[b.colour] = counts.get(b.colour, 0) + 1
    assert counts == {
        "light_green": 4,
        "dark_green": 7,
        "yellow": 5,
        "orange": 6,
        "blue": 6,
        "red": 3,
    }
    assert rules.BUILDING_COLOUR_SPACES == {
        "green": 4,
        "yellow": 2,
        "orange": 6,
        "blue": 3,
        "red": 3,
    }
    assert sum(rules.BUILDING_COLOUR_SPACES.values()) == 18
    # 31 tiles minus the removed ones (7 green, 3 yellow, 3 blue) fill the 18 spaces
    assert 31 - (7 + 3 + 3) == sum(rules.BUILDING_COLOUR_SPACES.values())


def test_building_costs():
    for b in rules.BUILDINGS:
        if b.colour in ("light_green", "dark_green"):
            expected = GREEN
        elif b.colour == "yellow":
            expected = YELLOW
        elif b.colour == "blue":
            expected = BLUE
        elif b.colour == "red":
            expected = RED
        else:
            expected = ORANGE[b.key]
        assert b.cost == expected, b.key


def test_building_text_and_names():
    for b in rules.BUILDINGS:
        assert b.name and b.ability and "\n" not in b.ability, b.key
        assert isinstance(b.cost, rules.Cost)
        for good, n in b.cost.fixed:
            assert good in GOOD_NAMES and n > 0
        for alt in b.cost.either:
            for good, n in alt:
                assert good in GOOD_NAMES and n > 0
    assert rules.building("colonists_house").name == "Colonists' House"
    assert "wool" in rules.building("colonists_house").ability
    assert "woolen" not in rules.building("colonists_house").ability
    assert rules.building("lutetsburg_castle").name == "Lutetsburg Castle"


def test_first_game_green():
    assert rules.FIRST_GAME_GREEN == (
        "farmers_house",
        "plow_makers_workshop",
        "novices_hut",
        "workshop",
    )
    assert (
        tuple(b.key for b in rules.BUILDINGS if b.colour == "light_green") == rules.FIRST_GAME_GREEN
    )


# --- vehicles (tiles.md §3.2, core.md §5.3) ---------------------------------------------------

VEHICLE_TABLE = (
    # key, kind, vp, cost, spaces, combinable, front
    ("peat_boat", "equipment", 1, (("wood", 1),), (), False, "peat_boat"),
    ("plow", "equipment", 3, (("wood", 1), ("cattle_or_horse", 1)), (), False, "peat_boat"),
    ("handcart", "small", 0, (("wood", 2),), (1,), False, "handcart"),
    ("wagon", "small", 1, (("wood", 4),), (1, 1), False, "handcart"),
    ("cart", "large", 1, (("wood", 5), ("horse", 1)), (1, 1, 1), True, "cart"),
    ("horse_cart", "large", 2, (("wood", 7), ("horse", 1)), (1, 1, 1, 1), True, "cart"),
    ("carriage", "large", 4, (("wood", 4), ("horse", 2)), (1, 2), True, "carriage"),
    ("droshky", "large", 5, (("wood", 6), ("horse", 2)), (1, 2, 1), True, "carriage"),
)


def test_vehicles_exact():
    got = tuple(
        (v.key, v.kind, v.vp, v.cost, v.spaces, v.combinable, v.front) for v in rules.VEHICLES
    )
    assert got == VEHICLE_TABLE


def test_vehicle_consistency():
    keys = [v.key for v in rules.VEHICLES]
    for v in rules.VEHICLES:
        assert v.front in keys
        assert rules.vehicle(v.front).front == v.front  # fronts point to themselves
        assert v.combinable == (v.kind == "large")
        assert sum(v.spaces) <= 4
    # each back costs its front plus 2 wood (tiles.md §3.2)
    for back, front in (("wagon", "handcart"), ("horse_cart", "cart"), ("droshky", "carriage")):
        b, f = dict(rules.vehicle(back).cost), dict(rules.vehicle(front).cost)
        assert b["wood"] == f["wood"] + 2
        assert b.get("horse", 0) == f.get("horse", 0)


def test_supply_tiles():
    assert rules.SUPPLY_TILES == {
        "field": 14, "forest_park": 5, "stall_depot": 7, "stable_double_stall": 3,
        "peat_boat_plow": 6, "handcart_wagon": 2, "cart_horse_cart": 3, "carriage_droshky": 3,
    }  # fmt: skip


# --- destinations (core.md §6.2, tiles.md §6.2) -----------------------------------------------

DESTINATION_TABLE = (
    (
        "hage",
        1,
        ((("field", 1),), 1),
    ),
    (
        "beemoor",
        1,
        ((("peat", 1),), 2),
    ),
    (
        "dornum",
        1,
        ((("plow", 1),), 8),
    ),
    ("norden", 2, ((("sheep", 1),), 4), ((("peat_boat", 1),), 5), ((("winter_wear", 1),), 7)),
    ("aurich", 2, ((("leather", 1),), 4), ((("any_animal", 1),), 4), ((("horse", 1),), 5)),
    ("esens", 2, ((("hide", 1),), 2), ((("grain", 2),), 4), ((("woolen", 1),), 4)),
    (
        "emden",
        3,
        ((("peat", 1),), 3),
        ((("summer_wear", 1),), 6),
        ((("leather_wear", 1),), 7),
        ((("winter_wear", 1),), 7),
    ),
    (
        "leer",
        3,
        ((("flax", 1),), 2),
        ((("linen", 1),), 3),
        ((("cattle", 1),), 5),
        ((("any_clothing", 1),), 6),
    ),
    (
        "bremen",
        4,
        ((("moor", 1),), 0),
        ((("timber", 1),), 5),
        ((("any_animal", 2),), 9),
        ((("linen", 1), ("woolen", 1), ("leather", 1)), 12),
        ((("summer_wear", 1), ("winter_wear", 1), ("leather_wear", 1)), 30),
    ),
)


def test_destinations_exact():
    got = tuple(
        (d.key, d.size, *((x.gives, x.food) for x in d.deliveries)) for d in rules.DESTINATIONS
    )
    assert got == DESTINATION_TABLE


def test_destination_consistency():
    assert sum(d.size for d in rules.DESTINATIONS) == 19
    assert len(rules.TRAVEL_VP) == 19 + 1
    names = {d.key: d.name for d in rules.DESTINATIONS}
    assert names["beemoor"] == "Beemoor" and names["bremen"] == "Bremen"
    for d in rules.DESTINATIONS:
        keys = [x.key for x in d.deliveries]
        assert len(keys) == len(set(keys)), d.key
        for x in d.deliveries:
            assert x.gives and x.food >= 0
            for good, n in x.gives:
                assert good in GOOD_NAMES and n > 0
    assert [x.key for x in rules.destination("norden").deliveries] == [
        "sheep",
        "peat_boat",
        "winter_wear",
    ]
    # the RBQ3 worked example (tiles.md §6.2): one 4-food Aurich delivery + Bremen's clothing,
    # animals and timber deliveries = 4 + 30 + 9 + 5 = 48 food
    bremen = {x.key: x.food for x in rules.destination("bremen").deliveries}
    aurich = {x.key: x.food for x in rules.destination("aurich").deliveries}
    assert aurich["any_animal"] + bremen["clothing"] + bremen["animals"] + bremen["timber"] == 48


# --- travel, goods track, food ---------------------------------------------------------------


def test_travel_table():
    assert rules.TRAVEL_VP == (0, 0, 1, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10)
    assert [rules.travel_vp(i) for i in range(20)] == list(rules.TRAVEL_VP)
    assert max(rules.TRAVEL_VP) == 10
    with pytest.raises(ValueError):
        rules.travel_vp(20)


def test_goods_track():
    assert rules.GOODS_TRACK_VP == (0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3)
    assert (rules.GOODS_CAP, rules.FOOD_CAP) == (15, 30)
    assert [rules.goods_track_vp(p) for p in (0, 6, 7, 10, 11, 14, 15)] == [0, 0, 1, 1, 2, 2, 3]
    with pytest.raises(ValueError):
        rules.goods_track_vp(16)


@pytest.mark.parametrize(
    ("food", "vp"),
    [
        (0, 0),
        (6, 0),
        (7, 1),
        (10, 1),
        (11, 2),
        (14, 2),
        (15, 3),
        (21, 3),
        (22, 4),
        (25, 4),
        (26, 5),
        (29, 5),
        (30, 6),
    ],
)
def test_food_vp(food, vp):
    assert rules.food_vp(food) == vp


def test_food_vp_range():
    values = [rules.food_vp(f) for f in range(31)]
    assert values == sorted(values)
    for bad in (-1, 31):
        with pytest.raises(ValueError):
            rules.food_vp(bad)


# --- goods names, scoring constants ----------------------------------------------------------


def test_goods_lists():
    assert rules.TRACK_GOODS == ("food", "grain", "flax", "wool", "hide")
    assert rules.MATERIALS == ("wood", "timber", "clay", "brick")
    assert rules.TEXTILES == (
        "linen",
        "woolen",
        "leather",
        "summer_wear",
        "winter_wear",
        "leather_wear",
    )
    assert rules.ANIMALS == ("sheep", "cattle", "horse")


def test_half_point_vp():
    assert rules.VP_HALF_POINTS == {
        "timber": 1, "brick": 2, "linen": 2, "woolen": 2, "leather": 2,
        "summer_wear": 4, "winter_wear": 5, "leather_wear": 5,
    }  # fmt: skip
    # core.md §8.2 examples: 3 timber = 1.5; winter wear + leather wear = 5; 5 bricks = 5
    hp = rules.VP_HALF_POINTS
    assert 3 * hp["timber"] / 2 == 1.5
    assert (hp["winter_wear"] + hp["leather_wear"]) / 2 == 5
    assert 5 * hp["brick"] / 2 == 5
    for good in ("wood", "clay", "peat"):
        assert good not in hp


def test_home_tile_vp():
    assert rules.HOME_TILE_VP == {
        "stall": 2, "depot": 2, "stable": 6, "double_stall": 9, "forest": 2, "park": 6,
        "field": 0, "hydrated_moor": -4, "dehydrated_moor": -1, "boardwalk": -3,
    }  # fmt: skip


def test_animal_and_inventory_constants():
    assert rules.MILKING_SHEEP == (2, 5, 8)
    assert rules.MILKING_CATTLE == (1, 3, 5)
    assert rules.SHEARING_SHEEP == (1, 4, 6)
    assert (rules.SUSTENANCE_FOOD, rules.SUSTENANCE_FUEL_NOVEMBER, rules.BOTTLENECK_VP) == (
        3,
        2,
        -2,
    )
    assert (rules.BARN_SMALL, rules.BARN_LARGE, rules.BARN_FLEX, rules.BARN_PENALTY_VP) == (
        4,
        2,
        1,
        -3,
    )


def test_start_goods():
    assert rules.START_GOODS == {
        "food": 5,
        "wool": 4,
        "flax": 3,
        "hide": 2,
        "grain": 1,
        "wood": 4,
        "clay": 4,
        "peat": 3,
    }
    assert rules.START_FOOD_INDICATORS == (5, 0)
    assert sum(rules.START_FOOD_INDICATORS) == rules.START_GOODS["food"]
    # the six indicators start on spaces 0..5, one per space (core.md §1.2)
    positions = [*rules.START_FOOD_INDICATORS] + [
        rules.START_GOODS[g] for g in ("wool", "flax", "hide", "grain")
    ]
    assert sorted(positions) == [0, 1, 2, 3, 4, 5]


def test_loading_tables():
    assert rules.LOAD_SIZES == {"wood": 1, "clay": 1, "linen": 2, "woolen": 3, "leather": 3}
    assert rules.LOAD_RESULT == {
        "wood": "timber",
        "clay": "brick",
        "linen": "summer_wear",
        "woolen": "winter_wear",
        "leather": "leather_wear",
    }
    assert rules.LOAD_EXTRA_COST == {"clay": (("peat", 1),)}


# --- lookup helpers --------------------------------------------------------------------------


def test_lookup_helpers():
    assert rules.action_space("baker").tool == "ovens"
    assert rules.tool("ovens").cost_good == "brick"
    assert rules.building("mill").vp == 6
    assert rules.vehicle("droshky").spaces == (1, 2, 1)
    assert rules.destination("bremen").size == 4
    for fn, what in (
        (rules.action_space, "action space"),
        (rules.tool, "tool track"),
        (rules.building, "building"),
        (rules.vehicle, "vehicle"),
        (rules.destination, "destination"),
    ):
        with pytest.raises(KeyError, match=what):
            fn("no_such_key")
