"""Game data of *Fields of Arle* (base game): the single source for the engine and the docs.

Every number here comes from the project's rules reference: the complete rules written out
for implementers, each fact tagged with its source, in three parts that comments here and in
the engine cite by section (``core.md``: setup, home board, animals, rounds, scoring;
``actions.md``: the action spaces and tool tracks; ``tiles.md``: buildings, vehicles,
destinations). It is kept beside the project, not in this repository; docs/rules-decisions.md
lists each point it leaves open and the reading chosen. Where the reference reads a value off
the printed components (``[tile: ...]``, ``[src: BOARD]``, ``[src: IMG ...]``) and the
project's first summary of the rules or the public code bases (PH: philihp/fields-of-arle, BJ:
binje/Fields, both partial) say something else, the printed value is used.

The Cython engine (``arle_ai.engine._core``) reads these tables once at import time to fill its C
arrays, so the names, shapes and the *order* of every tuple are a contract: the engine uses the
indexes. Do not reorder entries; append nothing without changing the engine's enums too.

Conventions:

- Goods and animal names: food, grain, flax, wool, hide, wood, timber, clay, brick, peat, linen,
  woolen, leather, summer_wear, winter_wear, leather_wear, sheep, cattle, horse; plus the
  placeholders any_animal, cattle_or_horse, field, plow, peat_boat, moor, any_clothing used in
  costs and deliveries.
- End-game VP that can be fractional (timber ½, winter/leather wear 2½) are kept in half points
  (``VP_HALF_POINTS``); everything else is in whole VP.
- Positions on tool tracks and the goods track are 0-based indexes from the left.

This module is pure Python and imports nothing from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

__all__ = [
    # seasons and action spaces
    "SEASONS",
    "ActionSpace",
    "ACTION_SPACES",
    "SPACE_FOOD_COST",
    "GRAIN_PAYS_FOOD_COST",
    # tools
    "ToolTrack",
    "TOOLS",
    "SHOVEL_DIKE_VALUES",
    # buildings
    "Cost",
    "Building",
    "BUILDINGS",
    "BUILDING_COLOUR_SPACES",
    "BUILDING_SPACE_OF_COLOUR",
    "FIRST_GAME_GREEN",
    # barn pieces
    "Vehicle",
    "VEHICLES",
    "SUPPLY_TILES",
    # travel
    "Delivery",
    "Destination",
    "DESTINATIONS",
    "TRAVEL_VP",
    # goods and scoring constants
    "GOODS_TRACK_VP",
    "GOODS_CAP",
    "FOOD_CAP",
    "TRACK_GOODS",
    "MATERIALS",
    "TEXTILES",
    "ANIMALS",
    "VP_HALF_POINTS",
    "HOME_TILE_VP",
    "MILKING_SHEEP",
    "MILKING_CATTLE",
    "SHEARING_SHEEP",
    "START_GOODS",
    "START_FOOD_INDICATORS",
    "SUSTENANCE_FOOD",
    "SUSTENANCE_FUEL_NOVEMBER",
    "BOTTLENECK_VP",
    "BARN_SMALL",
    "BARN_LARGE",
    "BARN_FLEX",
    "BARN_PENALTY_VP",
    "LOAD_SIZES",
    "LOAD_RESULT",
    "LOAD_EXTRA_COST",
    "LOADING_STATION_PEAT_SIZE",
    # the engine's setup and home-board numbers
    "PLAYERS",
    "PLAYER_COUNTS",
    "HALF_YEARS",
    "WORKERS_PER_PLAYER",
    # the solo game's readings
    "SOLO_WORKERS",
    "SOLO_SPECIAL_ACTION",
    "SOLO_OWN_WORKERS_BLOCK",
    "SOLO_SUPPLY_AS_TWO_PLAYERS",
    "START_ANIMALS",
    "START_HOME",
    "MOOR_PEAT",
    "ANIMAL_VP_BY_RANK",
    # dikes and land
    "DIKE_STEPS_MAX",
    "TIDAL_ROWS_OPEN_AT",
    "TIDAL_ROW_LAND",
    "START_LAND",
    "MOOR_LAND",
    "TOP_DIKE_ROW_GAPS",
    "TIDAL_GAP_VP",
    # animal housing
    "STALL_PEN",
    "STABLE_PEN",
    "PARK_PLACES",
    "DIKES",
    "DIKE_PLACES",
    "LAND_PEN",
    "PEAT_BOAT_PEAT",
    "PEAT_BOAT_GOOD",
    "DOUBLE_STALL_PENS",
    "STALL_BREEDING",
    "STABLE_BREEDING",
    # what the action spaces and buildings give
    "SPACE_GAINS",
    "SPACE_GAINS_WITH_CHOICE",
    "SPACE_EXCHANGES",
    "PEAT_BOATMAN_PEAT",
    "PEAT_BOATMAN_PEAT_PER_BOAT",
    "BUTCHER_FOOD",
    "BUTCHER_HIDES",
    "BAKER_FOOD",
    "BAKER_GRAIN",
    "BAKER_FUEL",
    "PEAT_PER_CUT",
    "WINTER_GROCER_CUTS",
    "SPACE_CHOICE_COUNT",
    "WOOD_TRADER_WOOD",
    "DIKE_WARDEN_DIKES",
    "STALL_COST",
    "STABLE_UPGRADE_BRICKS",
    "BUILDING_GAINS",
    "BUILDING_DIKES",
    "BUILDING_TOOL_STEPS",
    "TURNERY_WOOD_PER_FOREST",
    "TURNERY_CUTS_PER_FOREST",
    "COOPERAGE_LEVELS",
    "COOPERAGE_PER_LEVEL",
    "BAKEHOUSE_EXCHANGE",
    "MILL_FOOD_BY_FIELDS",
    "JOINERY_PEAT_PER_BOAT",
    "JOINERY_HORSES_PER_PLOW",
    "FARMERS_INN_FIELDS",
    "GULF_HOUSE_TIMBER_PER_STALL",
    "GULF_HOUSE_BRICK_PER_STABLE",
    "MILK_HOUSE_CATTLE",
    "BuildingUse",
    "BUILDING_USES",
    # names in the engine's order, and the action-id layout
    "GOODS",
    "LOAD_GOODS",
    "FLIP_TARGETS",
    "FLIP_BACKS",
    "HOME_TILES",
    "DeliveryChoice",
    "DELIVERY_CHOICES",
    "DELIVERY_IDS_PER_DESTINATION",
    "MAX_VEHICLES",
    "VEHICLE_COMPARTMENTS",
    "MAX_BREEDING_PLANS",
    "ACTION_RANGES",
    "ACTION_LAYOUT",
    "NUM_ACTIONS",
    # helpers
    "action_space",
    "tool",
    "building",
    "vehicle",
    "destination",
    "tool_value",
    "tool_vp",
    "goods_track_vp",
    "food_vp",
    "travel_vp",
]

SEASONS = ("summer", "winter")


# ---------------------------------------------------------------------------------------------
# Action spaces (actions.md §2-§4)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionSpace:
    """One of the 30 action spaces of the game board.

    ``order`` is the board reading order within its season (actions.md §2: S1..S15, W1..W15);
    ``tool`` is the key of the tool track the action reads (``None`` if it reads none);
    ``text`` what the space does, in short (actions.md §3, §4, §6; for people, not the engine).
    """

    key: str
    name: str
    season: str
    order: int
    tool: str | None
    text: str = ""


def _space(key: str, name: str, season: str, order: int, tool: str | None = None) -> ActionSpace:
    return ActionSpace(key=key, name=name, season=season, order=order, tool=tool,
                       text=SPACE_TEXTS[key])


# What each action space does, as printed on the board (actions.md §3, §4; the Laborer §6).
SPACE_TEXTS = {
    "fisherman": "Take 1 sheep; move your Fish Traps one space right for free, then take 1 food "
                 "per fish trap.",
    "summer_grocer": "Take 1 grain and 1 leather, and 1 timber, 1 brick or 1 animal of your "
                     "choice.",
    "wool_weaver": "Per weaving loom, exchange 1 wool for 1 woolen.",
    "colonist": "Take 1 horse and dehydrate 1 of your moors (4 peat are put on it).",
    "peat_cutter": "Per spade, cut 1 peat from your moors.",
    "dike_builder": "Take 1 sheep or 1 cattle, and build 1 dike per pair of shovels.",
    "clay_worker": "Take 1 clay per shovel.",
    "farmer": "You may build 1 plow (1 wood and 1 cattle or horse); then place 1 field (grain or "
              "flax) per plow you own.",
    "forester": "Pay 1 food: place 1 forest, or build 1 building.",
    "woodcutter": "Take 1 wood per axe.",
    "summer_master": "Per workbench, move one tool indicator one space right, paying its cost.",
    "summer_carpenter": "Build 1 building, or build 1 stall for 2 clay and 1 grain.",
    "builder": "Build 1 building.",
    "warden": "Flip 1 of your tiles to its other side, free.",
    "summer_laborer": "Pay 2 food: build 1 vehicle, or do the action of an occupied space of its "
                      "season (paying its cost too).",
    "peat_boatman": "Take 3 peat, plus 1 per peat boat you own.",
    "tanner": "Per fleshing beam, exchange 1 hide for 1 leather.",
    "linen_weaver": "Per weaving loom, exchange 1 flax for 1 linen.",
    "butcher": "Per slaughtering table, slaughter 1 animal for 3 food and 2 hides (cattle: 4 "
               "food).",
    "cattle_trader": "Take 2 grain, 1 sheep, and 1 cattle or 1 horse.",
    "winter_grocer": "Cut 1 peat, and take 1 animal of your choice, 1 wood and 1 clay.",
    "builders_merchant": "Take 2 hides, 1 wood or 1 clay, and 1 timber or 1 brick.",
    "potter": "Per potter's wheel, exchange 1 clay for 3 food and 1 peat.",
    "baker": "Per oven, exchange 1 grain and 1 peat for 6 food (flax for grain and wood for peat "
             "when you have none).",
    "wood_trader": "Pay 1 food (1 grain if you have no food): take 4 wood, or build 1 building.",
    "winter_master": "Per workbench, move one tool indicator one space right, paying its cost.",
    "wainwright": "Build 1 vehicle and/or 1 peat boat, paying their costs.",
    "dike_warden": "Flip 1 of your tiles to its other side, and build 1 dike.",
    "winter_carpenter": "Upgrade 1 stall to a stable for 2 brick, or build 1 stall for 2 clay and"
                        " 1 grain.",
    "winter_laborer": "Pay 2 food: build 1 building, or do the action of an occupied space of its"
                      " season (paying its cost too).",
}


# Rows 1-11 pair a summer space, a tool track and a winter space; the track is read by the side
# it is drawn toward (actions.md §2, §5). The block S12-S15 / W12-W15 has no tool tracks.
ACTION_SPACES: tuple[ActionSpace, ...] = (
    _space("fisherman", "Fisherman", "summer", 1, "fish_traps"),
    _space("summer_grocer", "Grocer", "summer", 2),
    _space("wool_weaver", "Wool Weaver", "summer", 3, "weaving_looms"),
    _space("colonist", "Colonist", "summer", 4),
    _space("peat_cutter", "Peat Cutter", "summer", 5, "spades"),
    _space("dike_builder", "Dike Builder", "summer", 6, "shovels"),  # upper row 1/2/2/3
    _space("clay_worker", "Clay Worker", "summer", 7, "shovels"),  # lower row 3/4/5/6
    _space("farmer", "Farmer", "summer", 8),
    _space("forester", "Forester", "summer", 9),
    _space("woodcutter", "Woodcutter", "summer", 10, "axes"),
    _space("summer_master", "Master", "summer", 11, "workbenches"),
    _space("summer_carpenter", "Carpenter", "summer", 12),
    _space("builder", "Builder", "summer", 13),
    _space("warden", "Warden", "summer", 14),
    _space("summer_laborer", "Laborer", "summer", 15),
    _space("peat_boatman", "Peat Boatman", "winter", 1),
    _space("tanner", "Tanner", "winter", 2, "fleshing_beams"),
    _space("linen_weaver", "Linen Weaver", "winter", 3, "weaving_looms"),
    _space("butcher", "Butcher", "winter", 4, "slaughtering_tables"),
    _space("cattle_trader", "Cattle Trader", "winter", 5),
    _space("winter_grocer", "Grocer", "winter", 6),
    _space("builders_merchant", "Builders' Merchant", "winter", 7),
    _space("potter", "Potter", "winter", 8, "pottery_wheels"),
    _space("baker", "Baker", "winter", 9, "ovens"),
    _space("wood_trader", "Wood Trader", "winter", 10),
    _space("winter_master", "Master", "winter", 11, "workbenches"),
    _space("wainwright", "Wainwright", "winter", 12),
    _space("dike_warden", "Dike Warden", "winter", 13),
    _space("winter_carpenter", "Carpenter", "winter", 14),
    _space("winter_laborer", "Laborer", "winter", 15),
)

# Food paid to use a space (a worker may go there only if it can be paid), and the spaces where
# grain pays it when no food is left (actions.md S9, S15, W10, W15).
SPACE_FOOD_COST = {"forester": 1, "summer_laborer": 2, "wood_trader": 1, "winter_laborer": 2}
GRAIN_PAYS_FOOD_COST = ("wood_trader",)


# ---------------------------------------------------------------------------------------------
# Tool tracks (actions.md §5, core.md §8.4)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolTrack:
    """A tool track: tool count and VP per position (leftmost first), and the cost of one step.

    The Shovels track has one indicator and two printed rows; ``values`` is the clay row
    (3, 4, 5, 6) and ``SHOVEL_DIKE_VALUES`` the dike row read with the same index.
    """

    key: str
    name: str
    values: tuple[int, ...]
    vp: tuple[int, ...]
    cost_good: str
    cost_amount: int


TOOLS: tuple[ToolTrack, ...] = (
    ToolTrack("fish_traps", "Fish Traps", (2, 3, 4, 5, 6), (0, 0, 0, 0, 3), "wood", 1),
    ToolTrack("fleshing_beams", "Fleshing Beams", (3, 5, 6), (0, 1, 3), "wood", 1),
    ToolTrack("weaving_looms", "Weaving Looms", (2, 3, 4, 5), (0, 1, 3, 4), "wood", 2),
    ToolTrack("slaughtering_tables", "Slaughtering Tables", (2, 3, 4), (0, 1, 2), "clay", 1),
    ToolTrack("spades", "Spades", (3, 5, 7), (0, 0, 2), "wood", 1),
    ToolTrack("shovels", "Shovels", (3, 4, 5, 6), (0, 0, 0, 0), "wood", 1),
    ToolTrack("pottery_wheels", "Potter's Wheels", (2, 3, 4), (0, 0, 2), "clay", 1),
    ToolTrack("ovens", "Ovens", (1, 2, 3, 4), (0, 1, 5, 7), "brick", 1),
    ToolTrack("axes", "Axes", (3, 4, 5, 6), (0, 0, 0, 0), "wood", 1),
    ToolTrack("workbenches", "Workbenches", (2, 3, 4), (0, 1, 4), "clay", 2),
)

# Dikes built by the Dike Builder per Shovels position (upper row = floor(shovels / 2)).
SHOVEL_DIKE_VALUES = (1, 2, 2, 3)


# ---------------------------------------------------------------------------------------------
# Buildings (tiles.md §2, actions.md §8.4)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """A building cost.

    ``fixed`` is always paid; exactly one alternative of ``either`` is paid in addition (if any);
    ``any_materials`` building materials of any kind (wood, clay, timber, brick);
    ``different_materials`` building materials of pairwise different kinds;
    ``different_clothing`` clothing tiles (summer/winter/leather wear) of different kinds.
    Timber may pay for wood and brick for clay (never the reverse); that rule lives in the engine.
    """

    fixed: tuple[tuple[str, int], ...]
    either: tuple[tuple[tuple[str, int], ...], ...] = ()
    any_materials: int = 0
    different_materials: int = 0
    different_clothing: int = 0


@dataclass(frozen=True)
class Building:
    """One of the 31 building tiles: colour, printed VP, when its ability acts, cost, ability."""

    key: str
    name: str
    colour: str
    vp: int
    timing: str
    cost: Cost
    ability: str


_GREEN_COST = Cost(fixed=(("grain", 1),), any_materials=1)
_YELLOW_COST = Cost(fixed=(("timber", 1), ("brick", 1)))
_BLUE_COST = Cost(fixed=(("food", 9),), different_materials=2)
_RED_COST = Cost(fixed=(("timber", 3), ("brick", 3), ("food", 15)))


def _light(key: str, name: str, ability: str) -> Building:
    return Building(key, name, "light_green", 1, "november", _GREEN_COST, ability)


def _dark(key: str, name: str, ability: str) -> Building:
    return Building(key, name, "dark_green", 1, "anytime", _GREEN_COST, ability)


def _yellow(key: str, name: str, vp: int, ability: str) -> Building:
    return Building(key, name, "yellow", vp, "on_build", _YELLOW_COST, ability)


def _orange(key: str, name: str, vp: int, cost: Cost, ability: str) -> Building:
    return Building(key, name, "orange", vp, "on_build", cost, ability)


def _blue(key: str, name: str, vp: int, ability: str) -> Building:
    return Building(key, name, "blue", vp, "on_build", _BLUE_COST, ability)


def _red(key: str, name: str, ability: str) -> Building:
    return Building(key, name, "red", 15, "on_build", _RED_COST, ability)


BUILDINGS: tuple[Building, ...] = (
    # light green: each November (autumn-tree symbol)
    _light("farmers_house", "Farmer's House", "Take 1 clay and cut 1 peat."),
    _light(
        "plow_makers_workshop",
        "Plow Maker's Workshop",
        "Place 1 field (flax or grain side up) on an empty land space.",
    ),
    _light("novices_hut", "Novice's Hut", "Take 1 grain and build 1 dike."),
    _light("workshop", "Workshop", "Take 1 wood and take one Master step (pay the tool cost)."),
    # dark green: any time (clock symbol)
    _dark("weaving_parlor", "Weaving Parlor", "Pay 3 flax: gain 1 linen and cut 1 peat."),
    _dark("colonists_house", "Colonists' House", "Pay 2 wool: gain 1 clay and cut 1 peat."),
    _dark(
        "carpenters_workshop",
        "Carpenter's Workshop",
        "Pay 1 brick and 4 food: turn one of your stalls into a stable.",
    ),
    _dark("schnapps_distillery", "Schnapps Distillery", "Pay 1 grain and 1 peat: gain 3 food."),
    _dark(
        "loading_station",
        "Loading Station",
        "Put peat onto empty single spaces of your vehicles (picture only; exact rule open).",
    ),
    _dark(
        "litter_storage",
        "Litter Storage",
        "If you have at least 2 horses: pay 3 flax, gain 1 horse.",
    ),
    _dark("wood_trader", "Wood Trader", "Pay 1 food and 1 timber: gain 2 wood."),
    # yellow: once, when built
    _yellow("turnery", "Turnery", 5, "Per forest: cut 2 peat and take 1 wood."),
    _yellow("smokehouse", "Smokehouse", 5, "Per fish trap: cut 1 peat."),
    _yellow(
        "smithy",
        "Smithy",
        3,
        "Swap as many of your peat boats, wagons and handcarts as you like for plows.",
    ),
    _yellow(
        "cooperage",
        "Cooperage",
        4,
        "At 5 / 10 / 15 sheep + cattle: +1 / +2 / +3 each of food, food, grain, flax, wool, hide.",
    ),
    _yellow("bakehouse", "Bakehouse", 4, "Per oven: pay 2 grain and 1 flax for 8 food."),
    # orange: once, when built; each has its own cost
    _orange(
        "mill",
        "Mill",
        6,
        Cost(fixed=(("timber", 1),), either=((("flax", 8),), (("grain", 8),))),
        "With 3 / 5 / 6 fields: +8 / +10 / +12 food.",
    ),
    _orange(
        "weaving_mill",
        "Weaving Mill",
        7,
        Cost(fixed=(("brick", 2),), either=((("flax", 10),), (("wool", 10),))),
        "Take 1 winter wear; weaving looms +2.",
    ),
    _orange(
        "textile_house",
        "Textile House",
        9,
        Cost(fixed=(("brick", 1),), different_clothing=2),
        "Take 1 linen, 1 woolen and 1 leather.",
    ),
    _orange(
        "saddlery",
        "Saddlery",
        8,
        Cost(fixed=(("timber", 2), ("leather", 3))),
        "Per horse: cut 1 peat; fleshing beams +1.",
    ),
    _orange(
        "joinery",
        "Joinery",
        6,
        Cost(fixed=(("timber", 2), ("grain", 5))),
        "Per plow: take 1 horse; per peat boat: take 2 peat.",
    ),
    _orange(
        "waterfront_house",
        "Waterfront House",
        10,
        Cost(fixed=(("brick", 2), ("food", 25))),
        "Take 10 food; build 2 dikes; fish traps +3.",
    ),
    # blue inns: once, when built
    _blue("potters_inn", "Potter's Inn", 5, "Per pottery wheel: take 1 animal of any kind."),
    _blue(
        "farmers_inn", "Farmer's Inn", 3, "Up to 3 times: turn one of your fields into a forest."
    ),
    _blue(
        "junk_dealers_inn",
        "Junk Dealer's Inn",
        4,
        "Take 1 peat boat or 1 handcart, plus 1 leather wear and 1 woolen.",
    ),
    _blue("gulf_house_inn", "Gulf House Inn", 5, "Per stall: take 1 timber; per stable: 1 brick."),
    _blue("milk_house_inn", "Milk House Inn", 5, "Take 1 cattle, then per cattle: cut 1 peat."),
    _blue("sluice_yard_inn", "Sluice Yard Inn", 4, "Fish traps +2, then per fish trap: 1 wood."),
    # red: once, when built; one shared cost
    _red("village_church", "Village Church", "Take a carriage into a free large barn space."),
    _red(
        "lutetsburg_castle",
        "Lutetsburg Castle",
        "Place 1 forest; spades, pottery wheels and workbenches +1 each.",
    ),
    _red("berum_castle", "Berum Castle", "Ovens and weaving looms +1 each; flip 1 tile (upgrade)."),
)

# Building spaces on the game board (light and dark green share the 4 green spaces).
BUILDING_COLOUR_SPACES = {"green": 4, "yellow": 2, "orange": 6, "blue": 3, "red": 3}
# The board's building spaces each building colour goes on.
BUILDING_SPACE_OF_COLOUR = {"light_green": "green", "dark_green": "green", "yellow": "yellow",
                            "orange": "orange", "blue": "blue", "red": "red"}

# The green houses of the first-game variant (the 4 light-green houses).
FIRST_GAME_GREEN = ("farmers_house", "plow_makers_workshop", "novices_hut", "workshop")


# ---------------------------------------------------------------------------------------------
# Barn pieces: equipment and vehicles (tiles.md §3, core.md §5.3)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Vehicle:
    """A barn piece (equipment or vehicle side of a double-sided tile).

    ``spaces`` lists the loading compartments left to right by width (the carriage/droshky bench
    is one compartment of width 2); ``combinable`` says whether adjacent compartments may hold
    one multi-space item; ``front`` is the key of the front side of the same tile.
    """

    key: str
    name: str
    kind: str
    vp: int
    cost: tuple[tuple[str, int], ...]
    spaces: tuple[int, ...]
    combinable: bool
    front: str


VEHICLES: tuple[Vehicle, ...] = (
    Vehicle("peat_boat", "Peat Boat", "equipment", 1, (("wood", 1),), (), False, "peat_boat"),
    Vehicle(
        "plow",
        "Plow",
        "equipment",
        3,
        (("wood", 1), ("cattle_or_horse", 1)),
        (),
        False,
        "peat_boat",
    ),
    Vehicle("handcart", "Handcart", "small", 0, (("wood", 2),), (1,), False, "handcart"),
    Vehicle("wagon", "Wagon", "small", 1, (("wood", 4),), (1, 1), False, "handcart"),
    Vehicle("cart", "Cart", "large", 1, (("wood", 5), ("horse", 1)), (1, 1, 1), True, "cart"),
    Vehicle(
        "horse_cart",
        "Horse Cart",
        "large",
        2,
        (("wood", 7), ("horse", 1)),
        (1, 1, 1, 1),
        True,
        "cart",
    ),
    Vehicle(
        "carriage", "Carriage", "large", 4, (("wood", 4), ("horse", 2)), (1, 2), True, "carriage"
    ),
    Vehicle(
        "droshky",
        "Droshky",
        "large",
        5,
        (("wood", 6), ("horse", 2)),
        (1, 2, 1),
        True,
        "carriage",
    ),
)

# Peat boat exchange (core.md §4.4): with at least one peat boat, any time, pay this much peat
# for this much of one goods-track good (food, grain, flax, wool, hide).
PEAT_BOAT_PEAT = 1
PEAT_BOAT_GOOD = 1

# Tiles in the box per double-sided tile type; both players share these limits.
SUPPLY_TILES = {
    "field": 14,
    "forest_park": 5,
    "stall_depot": 7,
    "stable_double_stall": 3,
    "peat_boat_plow": 6,  # PH only (no print)
    "handcart_wagon": 2,  # PH only (no print)
    "cart_horse_cart": 3,  # PH only (no print)
    "carriage_droshky": 3,  # PH only (no print)
}


# ---------------------------------------------------------------------------------------------
# Travel destinations (tiles.md §6, core.md §6)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Delivery:
    """One delivery pictured on a destination tile: what is handed over, and the food it pays."""

    key: str
    gives: tuple[tuple[str, int], ...]
    food: int


@dataclass(frozen=True)
class Destination:
    """A travel destination: its size in vehicle spaces and its deliveries (left to right)."""

    key: str
    name: str
    size: int
    deliveries: tuple[Delivery, ...]


def _d(key: str, food: int, *gives: tuple[str, int]) -> Delivery:
    return Delivery(key=key, gives=tuple(gives), food=food)


DESTINATIONS: tuple[Destination, ...] = (
    Destination("hage", "Hage", 1, (_d("field", 1, ("field", 1)),)),
    Destination("beemoor", "Beemoor", 1, (_d("peat", 2, ("peat", 1)),)),
    Destination("dornum", "Dornum", 1, (_d("plow", 8, ("plow", 1)),)),
    Destination(
        "norden",
        "Norden",
        2,
        (
            _d("sheep", 4, ("sheep", 1)),
            _d("peat_boat", 5, ("peat_boat", 1)),
            _d("winter_wear", 7, ("winter_wear", 1)),
        ),
    ),
    Destination(
        "aurich",
        "Aurich",
        2,
        (
            _d("leather", 4, ("leather", 1)),
            _d("any_animal", 4, ("any_animal", 1)),
            _d("horse", 5, ("horse", 1)),
        ),
    ),
    Destination(
        "esens",
        "Esens",
        2,
        (
            _d("hide", 2, ("hide", 1)),
            _d("grain", 4, ("grain", 2)),
            _d("woolen", 4, ("woolen", 1)),
        ),
    ),
    Destination(
        "emden",
        "Emden",
        3,
        (
            _d("peat", 3, ("peat", 1)),
            _d("summer_wear", 6, ("summer_wear", 1)),
            _d("leather_wear", 7, ("leather_wear", 1)),
            _d("winter_wear", 7, ("winter_wear", 1)),
        ),
    ),
    Destination(
        "leer",
        "Leer",
        3,
        (
            _d("flax", 2, ("flax", 1)),
            _d("linen", 3, ("linen", 1)),
            _d("cattle", 5, ("cattle", 1)),
            _d("any_clothing", 6, ("any_clothing", 1)),
        ),
    ),
    Destination(
        "bremen",
        "Bremen",
        4,
        (
            _d("moor", 0, ("moor", 1)),
            _d("timber", 5, ("timber", 1)),
            _d("animals", 9, ("any_animal", 2)),
            _d("fabrics", 12, ("linen", 1), ("woolen", 1), ("leather", 1)),
            _d("clothing", 30, ("summer_wear", 1), ("winter_wear", 1), ("leather_wear", 1)),
        ),
    ),
)

# Travel-experience VP by spaces covered (0..19).
# PLACEHOLDER: BJ travel_test.go's table (core.md §6.3, tiles.md §6.3); the printed track on the
# home board was never read. Correct this one tuple (and its test) when it is.
TRAVEL_VP = (0, 0, 1, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10)


# ---------------------------------------------------------------------------------------------
# Goods, scoring and inventorying constants (core.md §1-§8)
# ---------------------------------------------------------------------------------------------

# VP of one goods indicator by its position 0..15 (core.md §8.5).
GOODS_TRACK_VP = (0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3)
GOODS_CAP = 15  # grain, flax, wool, hide (and each food indicator)
FOOD_CAP = 30  # food over both indicators

TRACK_GOODS = ("food", "grain", "flax", "wool", "hide")
MATERIALS = ("wood", "timber", "clay", "brick")
TEXTILES = ("linen", "woolen", "leather", "summer_wear", "winter_wear", "leather_wear")
ANIMALS = ("sheep", "cattle", "horse")

# End-game VP in HALF points (printed: timber ½, winter and leather wear 2½; the seed's 2 is wrong).
VP_HALF_POINTS = {
    "timber": 1,
    "brick": 2,
    "linen": 2,
    "woolen": 2,
    "leather": 2,
    "summer_wear": 4,
    "winter_wear": 5,
    "leather_wear": 5,
}

# VP of home-board tiles at final scoring (moor tiles are per tile, each covering 2 spaces).
HOME_TILE_VP = {
    "stall": 2,
    "depot": 2,
    "stable": 6,
    "double_stall": 9,
    "forest": 2,
    "park": 6,
    "field": 0,
    "hydrated_moor": -4,
    "dehydrated_moor": -1,
    "boardwalk": -3,
}

# November milking / May shearing: +1 food (wool) per threshold reached.
MILKING_SHEEP = (2, 5, 8)
MILKING_CATTLE = (1, 3, 5)
SHEARING_SHEEP = (1, 4, 6)

# Per player at the start: goods-track goods (food is the sum of both indicators) and supply.
START_GOODS = {
    "food": 5,
    "wool": 4,
    "flax": 3,
    "hide": 2,
    "grain": 1,
    "wood": 4,
    "clay": 4,
    "peat": 3,
}
START_FOOD_INDICATORS = (5, 0)

SUSTENANCE_FOOD = 3  # every inventorying
SUSTENANCE_FUEL_NOVEMBER = 2  # peat (or wood/timber), November only
BOTTLENECK_VP = -2  # per unit left unpaid (seed; not confirmed elsewhere)

BARN_SMALL = 4  # spaces for small pieces
BARN_LARGE = 2  # spaces for large vehicles
BARN_FLEX = 1  # one space taking either
BARN_PENALTY_VP = -3  # unless at least one large vehicle is in the barn

# Loadable goods: vehicle spaces taken, what they become when unloaded, extra cost when loaded.
# Destinations take Destination.size spaces.
LOAD_SIZES = {"wood": 1, "clay": 1, "linen": 2, "woolen": 3, "leather": 3}
LOAD_RESULT = {
    "wood": "timber",
    "clay": "brick",
    "linen": "summer_wear",
    "woolen": "winter_wear",
    "leather": "leather_wear",
}
LOAD_EXTRA_COST = {"clay": (("peat", 1),)}
# Loading Station (picture only): peat from the general supply, 1 space, unloaded as peat.
LOADING_STATION_PEAT_SIZE = 1


# ---------------------------------------------------------------------------------------------
# Setup and the home board (core.md §1, §2-§3, §8.5)
# ---------------------------------------------------------------------------------------------

PLAYERS = 2  # seats of a position: the two-player game; a solo game uses the first only
PLAYER_COUNTS = (1, 2)  # the games the engine plays: solo (core.md §1.4, §8.7) and two players
HALF_YEARS = 9  # summer 1, winter 1, ..., summer 5 (core.md §7)
WORKERS_PER_PLAYER = 4  # placed alternately each half-year

# The solo game (core.md §1.4, §7.2-§7.4, §8.7): the two-player game without the opponent. The
# reference knows its rules only from memory and reviews; each reading below is one switch,
# pinned by a test (docs/rules-decisions.md, S1-S8; tests/rules/test_solo.py).
# S2: workers placed per half-year, on the four month spaces, one after another.
SOLO_WORKERS = 4
# S4: no special action in the solo game: no worker may use a space of the other half-year
# (core.md §8.7: philihp/fields-of-arle closes the other season's spaces whenever there is one
# player; a strategy guide compiled from players' solo threads: "the cross-season special action
# is gone"). True: at most once per half-year, as in the two-player game (an earlier reading
# that no source supports).
SOLO_SPECIAL_ACTION = False
# S5: a space holding your worker is closed to your later workers of the half-year, as an
# occupied space is in the two-player game. False: your own workers close nothing.
SOLO_OWN_WORKERS_BLOCK = True
# S6: the shared tile supply. False: no second home board is set up, so its starting tiles (a
# grain field, a flax field, a stall) stay in the supply. True: the supply is what a two-player
# set-up leaves.
SOLO_SUPPLY_AS_TWO_PLAYERS = False

START_ANIMALS = {"horse": 1}
# Home-board tiles at the start: 3 hydrated moors, the boardwalk with 4 peat, 1 grain field,
# 1 flax field and 1 stall.
START_HOME = {
    "hydrated_moor": 3,
    "boardwalk_peat": 4,
    "grain_field": 1,
    "flax_field": 1,
    "stall": 1,
}
MOOR_PEAT = 4  # peat put on a moor tile when it is dehydrated

# Final scoring of animals: VP per animal of the least, the second least and the most kept type.
ANIMAL_VP_BY_RANK = (2, 1, 0)


# ---------------------------------------------------------------------------------------------
# Dikes and land (core.md §2.3-§2.4, §8.5)
# ---------------------------------------------------------------------------------------------

DIKE_STEPS_MAX = 7  # dike steps a player can take (D = 0..7); steps after the last are lost
TIDAL_ROWS_OPEN_AT = (1, 4, 7)  # the dike step at which each tidal-flat row becomes land
TIDAL_ROW_LAND = 3  # land spaces of an opened tidal row
START_LAND = 6  # land spaces at the start (rows 3-4; the starting tiles stand on them)
MOOR_LAND = 2  # land spaces freed by a moor tile once it is gone
# Empty gaps of the top gap row G0 by dike steps D = 0..7 (the core.md §2.4 table), and the VP
# of each at the end: reading (a) of core.md §8.5 (docs/rules-decisions.md).
TOP_DIKE_ROW_GAPS = (3, 3, 3, 3, 3, 2, 1, 0)
TIDAL_GAP_VP = -1


# Animal housing (core.md §3.2): a stall pen (a double stall has two) and a stable hold animals
# of one type; each dike and each park hold animals of any types; an empty land space is a pen of
# one type.
STALL_PEN = 3
STABLE_PEN = 6
PARK_PLACES = 2
DIKES = 5  # always on the board, wherever they stand
DIKE_PLACES = 1
DOUBLE_STALL_PENS = 2  # a double stall is this many stall pens (it breeds, houses and counts as
# that many stalls: core.md §3.2, the Gulf House Inn)
LAND_PEN = 2  # the housing search pairs leftover animals on land: pens of 2 only

# Breeding in May (core.md §3.4): newborns by the animals of one type in a pen before breeding
# (other counts breed nothing). Each pen of a double stall breeds as a stall; parks, land and
# dikes never breed. The engine's breeding search reads a stall pen's table as one count, a
# stable's as 1 newborn for a run of counts and more for at most one count, newborns fitting
# the pen; other shapes are refused at import.
STALL_BREEDING = {2: 1}  # exactly 2 -> +1
STABLE_BREEDING = {2: 1, 3: 1, 4: 2, 5: 1}  # 2, 3 or 5 -> +1; 4 -> +2; 0, 1, 6 -> none


# ---------------------------------------------------------------------------------------------
# What the action spaces give (actions.md §3, §4): the numbers the rules code reads
# ---------------------------------------------------------------------------------------------

# Goods and animals a space gives outright when it is used, before its choices (the Fisherman
# after its food, the Colonist after the dehydrated moor). Each choice of a space is 1 of what
# it names (Grocer: 1 timber, 1 brick or 1 animal; Builders' Merchant: 1 wood or clay, then 1
# timber or brick; Dike Builder, Cattle Trader, winter Grocer: 1 animal).
SPACE_GAINS: dict[str, tuple[tuple[str, int], ...]] = {
    "fisherman": (("sheep", 1),),
    "summer_grocer": (("grain", 1), ("leather", 1)),
    "colonist": (("horse", 1),),
    "cattle_trader": (("grain", 2),),
    "winter_grocer": (("wood", 1), ("clay", 1)),
    "builders_merchant": (("hide", 2),),
}
# Taken with the chosen item of a space's choice: the Cattle Trader's sheep comes with the cattle
# or horse.
SPACE_GAINS_WITH_CHOICE: dict[str, tuple[tuple[str, int], ...]] = {
    "cattle_trader": (("sheep", 1),),
}
# "Per <tool>, exchange ...": what one repetition pays and what it gives.
SPACE_EXCHANGES: dict[str, tuple[tuple[str, int], tuple[tuple[str, int], ...]]] = {
    "wool_weaver": (("wool", 1), (("woolen", 1),)),
    "tanner": (("hide", 1), (("leather", 1),)),
    "linen_weaver": (("flax", 1), (("linen", 1),)),
    "potter": (("clay", 1), (("food", 3), ("peat", 1))),
}
PEAT_BOATMAN_PEAT = 3  # W1: peat taken ...
PEAT_BOATMAN_PEAT_PER_BOAT = 1  # ... and more per peat boat owned
BUTCHER_FOOD = {"sheep": 3, "cattle": 4, "horse": 3}  # W4, per animal slaughtered
BUTCHER_HIDES = 2  # W4, per animal slaughtered
# How many of the chosen item a space's choice gives (summer Grocer: timber, brick or an animal;
# Dike Builder, Cattle Trader, winter Grocer: an animal; Builders' Merchant: wood or clay, then
# timber or brick, this many at each of its two choices).
SPACE_CHOICE_COUNT: dict[str, int] = {
    "summer_grocer": 1,
    "dike_builder": 1,
    "cattle_trader": 1,
    "winter_grocer": 1,
    "builders_merchant": 1,
}
WINTER_GROCER_CUTS = 1  # W6: peat cuts from your own moors, with the animal
PEAT_PER_CUT = 1  # peat taken per cut from a moor or the boardwalk (Peat Cutter, winter Grocer)
BAKER_FOOD = 6  # W9, per BAKER_GRAIN grain (or flax) and BAKER_FUEL peat (or wood) baked
BAKER_GRAIN = 1  # W9: grain per bake; flax pays what grain cannot
BAKER_FUEL = 1  # W9: peat per bake; wood (then timber) pays what peat cannot
WOOD_TRADER_WOOD = 4  # W10
DIKE_WARDEN_DIKES = 1  # W13, with the flip
STALL_COST = (("clay", 2), ("grain", 1))  # S12 / W14 (clay: brick may pay)
STABLE_UPGRADE_BRICKS = 2  # W14: a stall becomes a stable


# ---------------------------------------------------------------------------------------------
# What the buildings give (tiles.md §2.5, §2.6): the numbers the rules code reads
# ---------------------------------------------------------------------------------------------
# The parts below are carried out first, in this order (gains, dikes, tool steps); what a
# building does besides (cutting, choices, counts of tiles) follows them in the engine.

# Goods taken when the building is built.
BUILDING_GAINS: dict[str, tuple[tuple[str, int], ...]] = {
    "weaving_mill": (("winter_wear", 1),),
    "textile_house": (("linen", 1), ("woolen", 1), ("leather", 1)),
    "waterfront_house": (("food", 10),),
    "junk_dealers_inn": (("leather_wear", 1), ("woolen", 1)),
}
# Dikes built when the building is built.
BUILDING_DIKES = {"waterfront_house": 2}
# Free tool steps when the building is built (a step past the track's end is lost).
BUILDING_TOOL_STEPS: dict[str, tuple[tuple[str, int], ...]] = {
    "weaving_mill": (("weaving_looms", 2),),
    "saddlery": (("fleshing_beams", 1),),
    "waterfront_house": (("fish_traps", 3),),
    "sluice_yard_inn": (("fish_traps", 2),),
    "lutetsburg_castle": (("spades", 1), ("pottery_wheels", 1), ("workbenches", 1)),
    "berum_castle": (("ovens", 1), ("weaving_looms", 1)),
}

# What the other one-off buildings give, counted per tile, animal or threshold (tiles.md §2.6).
TURNERY_WOOD_PER_FOREST = 1
TURNERY_CUTS_PER_FOREST = 2
# Sheep and cattle held: each threshold reached is one level, and each level gives these.
COOPERAGE_LEVELS = (5, 10, 15)
COOPERAGE_PER_LEVEL = (("food", 2), ("grain", 1), ("flax", 1), ("wool", 1), ("hide", 1))
# Per oven: what one Bakehouse exchange pays and gives.
BAKEHOUSE_EXCHANGE: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = (
    (("grain", 2), ("flax", 1)),
    (("food", 8),),
)
# (fields at least, food): the Mill gives the food of the highest threshold reached.
MILL_FOOD_BY_FIELDS = ((3, 8), (5, 10), (6, 12))
JOINERY_PEAT_PER_BOAT = 2
JOINERY_HORSES_PER_PLOW = 1
FARMERS_INN_FIELDS = 3  # fields that may be turned into forests
GULF_HOUSE_TIMBER_PER_STALL = 1  # a double stall counts as two stalls (docs/rules-decisions.md)
GULF_HOUSE_BRICK_PER_STABLE = 1
MILK_HOUSE_CATTLE = 1  # taken first; then 1 peat cut per cattle


@dataclass(frozen=True)
class BuildingUse:
    """One use of a clock building (any time, as often as paid) or a light-green house (once
    before each November): what it needs held, what it pays, then what it gives, in this order.

    ``needs`` are kept, not paid (Litter Storage: 2 horses); ``gains`` are goods or animals;
    ``cut`` peat cut from the player's moors; ``fields`` placed (grain or flax side);
    ``master_steps`` tool steps paid as the Master's; ``stall_to_stable`` one stall upgraded.
    """

    pays: tuple[tuple[str, int], ...] = ()
    gains: tuple[tuple[str, int], ...] = ()
    needs: tuple[tuple[str, int], ...] = ()
    cut: int = 0
    dikes: int = 0
    fields: int = 0
    master_steps: int = 0
    stall_to_stable: bool = False


BUILDING_USES: dict[str, BuildingUse] = {
    # light green, once before each November
    "farmers_house": BuildingUse(gains=(("clay", 1),), cut=1),
    "plow_makers_workshop": BuildingUse(fields=1),
    "novices_hut": BuildingUse(gains=(("grain", 1),), dikes=1),
    "workshop": BuildingUse(gains=(("wood", 1),), master_steps=1),
    # dark green, any time
    "weaving_parlor": BuildingUse(pays=(("flax", 3),), gains=(("linen", 1),), cut=1),
    "colonists_house": BuildingUse(pays=(("wool", 2),), gains=(("clay", 1),), cut=1),
    "carpenters_workshop": BuildingUse(pays=(("brick", 1), ("food", 4)), stall_to_stable=True),
    "schnapps_distillery": BuildingUse(pays=(("grain", 1), ("peat", 1)), gains=(("food", 3),)),
    "litter_storage": BuildingUse(needs=(("horse", 2),), pays=(("flax", 3),),
                                  gains=(("horse", 1),)),
    "wood_trader": BuildingUse(pays=(("food", 1), ("timber", 1)), gains=(("wood", 2),)),
}


# ---------------------------------------------------------------------------------------------
# Names in the engine's order and the action-id layout (docs/notation.md)
# ---------------------------------------------------------------------------------------------
# The build generates the engine's enums (src/arle_ai/engine/_tables.pxi) from these names and from
# the keys of the tables above; the engine fills its number tables from this module at import.

GOODS = (
    "food", "grain", "flax", "wool", "hide",  # the goods track (TRACK_GOODS), in this order
    "wood", "timber", "clay", "brick", "peat",
    "linen", "woolen", "leather", "summer_wear", "winter_wear", "leather_wear",
)  # fmt: skip
# Goods a vehicle can carry (each becomes LOAD_RESULT at inventorying; peat stays peat).
LOAD_GOODS = ("wood", "clay", "linen", "woolen", "leather", "peat")
# What a flip (Warden, Dike Warden, Berum Castle) can turn over (actions.md §8.5).
FLIP_TARGETS = ("moor", "forest", "stall", "stable", "peat_boat", "handcart", "cart", "carriage")
# The back side each flip turns a target into (actions.md §8.5; a vehicle's back is the vehicle
# with that front), as the menus name it; the engine's apply_flip does the same (tested).
FLIP_BACKS: dict[str, str] = {
    "moor": "dehydrated_moor", "forest": "park", "stall": "depot", "stable": "double_stall",
    **{v.front: v.key for v in VEHICLES if v.front != v.key},
}
# Home tiles a choice places.
HOME_TILES = ("grain_field", "flax_field", "forest", "stall")


@dataclass(frozen=True)
class DeliveryChoice:
    """One way to make a delivery: a printed delivery, or one of its alternatives (Hage takes a
    grain field or a flax field). ``delivery`` is the index in ``Destination.deliveries``."""

    key: str
    delivery: int
    gives: tuple[tuple[str, int], ...]
    food: int


def _choices(dest: Destination) -> tuple[DeliveryChoice, ...]:
    out: list[DeliveryChoice] = []
    for k, d in enumerate(dest.deliveries):
        if d.gives == (("field", 1),):
            for side in ("grain_field", "flax_field"):
                out.append(DeliveryChoice(side, k, ((side, 1),), d.food))
        else:
            out.append(DeliveryChoice(d.key, k, d.gives, d.food))
    return tuple(out)


# Per destination (DESTINATIONS order) the choices a delivery id names.
DELIVERY_CHOICES: tuple[tuple[DeliveryChoice, ...], ...] = tuple(_choices(d) for d in DESTINATIONS)
DELIVERY_IDS_PER_DESTINATION = max(len(c) for c in DELIVERY_CHOICES)

MAX_VEHICLES = BARN_SMALL + BARN_LARGE + BARN_FLEX  # barn slots a load id can name
VEHICLE_COMPARTMENTS = max(len(v.spaces) for v in VEHICLES)
MAX_BREEDING_PLANS = 24  # ids reserved for breeding plans (an engine bound, never reached)

# Each action id has one fixed meaning: ranges of ids in this order (docs/notation.md).
ACTION_RANGES: tuple[tuple[str, int], ...] = (
    ("stop", 1),  # end an "up to" choice / an anytime window
    ("pass", 1),  # take the worker off its month without acting
    ("place", len(ACTION_SPACES)),  # place a worker there (other season = special action)
    ("exchange", len(TRACK_GOODS)),  # peat boat: 1 peat -> 1 goods-track good
    ("use", len(BUILDINGS)),  # use a clock (any time) or November building
    # (load good or destination, barn slot, first compartment)
    ("load", (len(LOAD_GOODS) + len(DESTINATIONS)) * MAX_VEHICLES * VEHICLE_COMPARTMENTS),
    ("good", len(GOODS)),  # choose / take / pay that good
    ("animal", len(ANIMALS)),  # choose / take / give / return that animal
    ("tool", len(TOOLS)),  # advance that tool
    ("build", len(BUILDINGS)),  # build that building
    ("vehicle", len(VEHICLES)),  # build / take that barn piece
    ("cut", 1 + MOOR_PEAT),  # cut 1 peat: 0 = boardwalk, k = a dehydrated moor holding k
    ("imitate", len(ACTION_SPACES)),  # the Laborer uses that occupied space
    ("flip", len(FLIP_TARGETS)),
    ("tile", len(HOME_TILES)),
    ("breed", MAX_BREEDING_PLANS),  # the k-th breeding plan (Pareto-maximal newborns, sorted)
    ("more", 1),  # one more repetition of the pending exchange
    ("deliver", len(DESTINATIONS) * DELIVERY_IDS_PER_DESTINATION),  # destination * 5 + choice
)


def _layout() -> dict[str, int]:
    starts: dict[str, int] = {}
    first = 0
    for name, size in ACTION_RANGES:
        starts[name] = first
        first += size
    starts["num_actions"] = first
    starts["max_vehicles"] = MAX_VEHICLES
    return starts


# First id of each range, plus "num_actions" and "max_vehicles" (arle_ai.ACTION_LAYOUT).
ACTION_LAYOUT: dict[str, int] = _layout()
NUM_ACTIONS = ACTION_LAYOUT["num_actions"]


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


_T = TypeVar("_T", bound=_Keyed)


def _lookup(table: tuple[_T, ...], key: str, what: str) -> _T:
    for item in table:
        if item.key == key:
            return item
    known = ", ".join(item.key for item in table)
    raise KeyError(f"unknown {what} {key!r}; known: {known}")


def action_space(key: str) -> ActionSpace:
    """Return the action space with this key; KeyError if there is none."""
    return _lookup(ACTION_SPACES, key, "action space")


def tool(key: str) -> ToolTrack:
    """Return the tool track with this key; KeyError if there is none."""
    return _lookup(TOOLS, key, "tool track")


def building(key: str) -> Building:
    """Return the building with this key; KeyError if there is none."""
    return _lookup(BUILDINGS, key, "building")


def vehicle(key: str) -> Vehicle:
    """Return the barn piece (equipment or vehicle) with this key; KeyError if there is none."""
    return _lookup(VEHICLES, key, "vehicle")


def destination(key: str) -> Destination:
    """Return the travel destination with this key; KeyError if there is none."""
    return _lookup(DESTINATIONS, key, "destination")


def _check_index(value: int, size: int, what: str) -> None:
    if not 0 <= value < size:
        raise ValueError(f"{what} must be in 0..{size - 1}, got {value}")


def tool_value(key: str, position: int) -> int:
    """Tool count of track ``key`` at 0-based ``position`` (Shovels: the clay row)."""
    t = tool(key)
    _check_index(position, len(t.values), f"position on {key}")
    return t.values[position]


def tool_vp(key: str, position: int) -> int:
    """End-game VP of track ``key`` with its indicator at 0-based ``position``."""
    t = tool(key)
    _check_index(position, len(t.vp), f"position on {key}")
    return t.vp[position]


def goods_track_vp(position: int) -> int:
    """VP of one goods indicator at ``position`` (0..15)."""
    _check_index(position, len(GOODS_TRACK_VP), "goods-track position")
    return GOODS_TRACK_VP[position]


def food_vp(total_food: int) -> int:
    """Best goods-track VP of ``total_food`` (0..30) split over the two food indicators.

    Each indicator holds at most 15 (core.md §8.5): max over x of v(x) + v(total - x).
    """
    _check_index(total_food, FOOD_CAP + 1, "total food")
    low = max(0, total_food - GOODS_CAP)
    high = min(GOODS_CAP, total_food)
    return max(GOODS_TRACK_VP[x] + GOODS_TRACK_VP[total_food - x] for x in range(low, high + 1))


def travel_vp(spaces: int) -> int:
    """Travel-experience VP for ``spaces`` (0..19) covered on the track (placeholder table)."""
    _check_index(spaces, len(TRAVEL_VP), "travel spaces")
    return TRAVEL_VP[spaces]
