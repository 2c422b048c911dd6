# Game numbers as C arrays, filled from arle_ai.engine.rules (the single source) at import.
# The names and sizes are compiled in from the same module (_tables.pxi, generated); every
# number below is read here, none is typed into the rules code. _reload_tables() refills them
# from another rules-like module (the tests change a number and watch the engine follow).
#
# Offers: the number tables (TOOL_*, BUILDING_VP, VEH_*, DEST_*, DELIV_*, BCOST_*, SPACE_*,
#   EXCH_*, BUILD_*, USE_*, SUPPLY_*, the solo readings SOLO_*, ...), the codes GIVE_* and VK_*, the name tuples
#   GOOD_NAMES, ANIMAL_NAMES, LOAD_NAMES; _rules; _reload_tables and TABLES_LOADS (the
#   refills so far: what is built from the tables, like _position_limits, compares it).
# Uses: _tables, _state.
# Invariants: every table is filled before any rules code runs (at import) and refilled only
#   whole: a rules module that does not fit the arrays is refused with a ValueError naming the
#   constant (never assert), and the tables are restored from rules.py after a failed refill.

from arle_ai.engine import rules as _rules

cdef int8_t TOOL_LEN[NTOOLS]
cdef int8_t TOOL_VALUE[NTOOLS][MAX_TOOL_LEN]
cdef int8_t TOOL_VP[NTOOLS][MAX_TOOL_LEN]
cdef int8_t TOOL_COST_GOOD[NTOOLS]
cdef int8_t TOOL_COST_AMOUNT[NTOOLS]
cdef int8_t DIKE_VALUE[MAX_TOOL_LEN]

cdef int8_t BUILDING_VP[NBUILDINGS]
cdef uint32_t NOVEMBER_HOUSES               # timing 'november' (the 4 light-green houses in the
                                            # game): used before each November
cdef uint32_t CLOCK_BUILDINGS               # dark green: used any time

cdef int8_t VEH_VP[NVKINDS]
# what a barn piece is (rules.Vehicle.kind, named in _VKINDS): equipment, or a small or a large
# vehicle (each takes a barn space of its size, core.md 5.2)
cdef enum:
    VK_EQUIPMENT = 0
    VK_SMALL = 1
    VK_LARGE = 2

cdef int8_t VEH_KIND[NVKINDS]               # VK_EQUIPMENT, VK_SMALL or VK_LARGE
cdef int8_t VEH_COST_WOOD[NVKINDS]
cdef int8_t VEH_COST_HORSE[NVKINDS]
cdef int8_t VEH_COST_CATTLE_OR_HORSE[NVKINDS]
cdef int8_t VEH_NSPACES[NVKINDS]
cdef int8_t VEH_WIDTH[NVKINDS][NCOMPARTMENTS]
cdef int8_t VEH_COMBINABLE[NVKINDS]
cdef int8_t VEH_FRONT[NVKINDS]

cdef int8_t DEST_SIZE[NDEST]
cdef int8_t DEST_DELIVERIES[NDEST]          # printed deliveries
cdef int8_t DELIV_IDS[NDEST]                # delivery ids (choices) of each destination
cdef int8_t DELIV_SLOT[NDEST][NDELIVERY_IDS]    # the printed delivery a choice makes
cdef int8_t DELIV_FOOD[NDEST][NDELIVERY_IDS]
cdef int8_t DELIV_GIVE[NDEST][NDELIVERY_IDS][MAX_GIVES]     # GIVE_* code, -1 = none
cdef int8_t DELIV_GIVE_N[NDEST][NDELIVERY_IDS][MAX_GIVES]

cdef int8_t TRAVEL_VP[NTRAVEL]
cdef enum:
    MAX_ITEM_SIZE = 4                       # largest loadable item (load_actions' size table)
cdef int8_t GOODS_TRACK_VP[NTRACK]
cdef int16_t GOOD_CAP[NGOODS]               # goods track 15, food 30 (both indicators), else none
cdef int8_t HALF_VP[NGOODS]                 # end-game VP of goods in half points
cdef int8_t MILK_SHEEP[3]
cdef int8_t MILK_CATTLE[3]
cdef int8_t SHEAR_SHEEP[3]
cdef int8_t ANIMAL_VP_BY_RANK[NANIMALS]     # per animal of the least, middle, most kept type
cdef int8_t LOAD_SIZE[NLOAD]
cdef int8_t LOAD_GOOD[NLOAD]                # the good a loadable item is
cdef int8_t LOAD_RESULT_GOOD[NLOAD]         # what a loaded good becomes at inventorying
cdef int8_t LOAD_EXTRA_GOOD[NLOAD]          # paid on loading as well (-1 none)
cdef int8_t LOAD_EXTRA_N[NLOAD]

cdef int8_t BCOST_FIXED_G[NBUILDINGS][3]
cdef int8_t BCOST_FIXED_N[NBUILDINGS][3]
cdef int8_t BCOST_EITHER_G[NBUILDINGS][2]
cdef int8_t BCOST_EITHER_N[NBUILDINGS][2]
cdef int8_t BCOST_ANY_MATERIALS[NBUILDINGS]
cdef int8_t BCOST_DIFF_MATERIALS[NBUILDINGS]
cdef int8_t BCOST_DIFF_CLOTHING[NBUILDINGS]

cdef int8_t SPACE_FOOD_COST[NSPACES]         # food paid to use the space
cdef int8_t SPACE_GRAIN_PAYS[NSPACES]        # grain may pay it when no food is left
cdef int8_t SUSTENANCE_FOOD
cdef int8_t SUSTENANCE_FUEL_NOVEMBER
cdef int8_t BOTTLENECK_VP
cdef int8_t BARN_SMALL
cdef int8_t BARN_LARGE
cdef int8_t BARN_FLEX
cdef int8_t BARN_PENALTY_VP
cdef int8_t PEAT_BOAT_PEAT_N, PEAT_BOAT_GOOD_N     # the peat boat exchange

# what spaces and buildings give (rules.SPACE_GAINS ... rules.BUILDING_USES); a "code" is a
# good (0..NGOODS-1) or GIVE_ANIMAL + an animal type, -1 = none
cdef enum:
    MAX_PARTS = 3                           # goods (or tools) in one gain, pay or step list
    MAX_DIKE_STEPS = 15                     # bound of rules.DIKE_STEPS_MAX (int8 tables below)
cdef int8_t SPACE_GAIN_CODE[NSPACES][MAX_PARTS]
cdef int8_t SPACE_GAIN_N[NSPACES][MAX_PARTS]
cdef int8_t CHOICE_GAIN_CODE[NSPACES][MAX_PARTS]  # taken with a space's chosen item
cdef int8_t CHOICE_GAIN_N[NSPACES][MAX_PARTS]
cdef int8_t EXCH_PAY_GOOD[NSPACES]          # an exchange space: one repetition pays this
cdef int8_t EXCH_PAY_N[NSPACES]
cdef int8_t EXCH_GAIN_GOOD[NSPACES][MAX_PARTS]  # and gives these (-1 none)
cdef int8_t EXCH_GAIN_N[NSPACES][MAX_PARTS]
cdef int8_t PEAT_BOATMAN_PEAT_N, PEAT_BOATMAN_PER_BOAT
cdef int8_t BUTCHER_FOOD_BY_ANIMAL[NANIMALS]
cdef int8_t BUTCHER_HIDES_N, BAKER_FOOD_N, WOOD_TRADER_WOOD_N, DIKE_WARDEN_DIKES_N
cdef int8_t BAKER_GRAIN_N, BAKER_FUEL_N         # what one bake pays (rules.BAKER_GRAIN/_FUEL)
cdef int8_t PEAT_PER_CUT_N, WINTER_GROCER_CUTS_N
cdef int8_t SPACE_CHOICE_N[NSPACES]             # how many of a choice's item (0: no such choice)
cdef int8_t STALL_COST_GOOD[MAX_PARTS]      # -1 none; wood/clay may be paid by timber/brick
cdef int8_t STALL_COST_N[MAX_PARTS]
cdef int8_t STABLE_UPGRADE_BRICKS_N

cdef int8_t BUILD_GAIN_GOOD[NBUILDINGS][MAX_PARTS]  # taken when built
cdef int8_t BUILD_GAIN_N[NBUILDINGS][MAX_PARTS]
cdef int8_t BUILD_DIKES[NBUILDINGS]
cdef int8_t BUILD_STEP_TOOL[NBUILDINGS][MAX_PARTS]  # free tool steps when built (-1 none)
cdef int8_t BUILD_STEP_N[NBUILDINGS][MAX_PARTS]
cdef enum:
    MAX_GIFTS = 6                           # goods per Cooperage level; Mill / Cooperage thresholds
cdef int8_t TURNERY_WOOD_N, TURNERY_CUTS_N, JOINERY_PEAT_N, JOINERY_HORSES_N, FARMERS_INN_N
cdef int8_t GULF_TIMBER_N, GULF_BRICK_N, MILK_HOUSE_CATTLE_N
cdef int8_t NCOOPERAGE_LEVELS
cdef int8_t COOPERAGE_AT[MAX_GIFTS]         # sheep + cattle of each level
cdef int8_t COOPERAGE_GOOD[MAX_GIFTS]       # per level (-1 none)
cdef int8_t COOPERAGE_N[MAX_GIFTS]
cdef int8_t NMILL_STEPS
cdef int8_t MILL_AT[MAX_GIFTS]              # fields, ascending
cdef int8_t MILL_FOOD[MAX_GIFTS]
cdef int8_t BAKEHOUSE_PAY_GOOD[MAX_PARTS]   # one Bakehouse exchange (-1 none)
cdef int8_t BAKEHOUSE_PAY_N[MAX_PARTS]
cdef int8_t BAKEHOUSE_GAIN_GOOD[MAX_PARTS]
cdef int8_t BAKEHOUSE_GAIN_N[MAX_PARTS]
cdef int8_t USE_DEFINED[NBUILDINGS]         # has a rules.BUILDING_USES row (the Loading Station
                                            # has none: its peat is a load, _vehicles.pxi)
cdef int8_t USE_NEED_CODE[NBUILDINGS][MAX_PARTS]    # one use of a clock or November building
cdef int8_t USE_NEED_N[NBUILDINGS][MAX_PARTS]
cdef int8_t USE_PAY_GOOD[NBUILDINGS][MAX_PARTS]
cdef int8_t USE_PAY_N[NBUILDINGS][MAX_PARTS]
cdef int8_t USE_GAIN_CODE[NBUILDINGS][MAX_PARTS]
cdef int8_t USE_GAIN_N[NBUILDINGS][MAX_PARTS]
cdef int8_t USE_CUT[NBUILDINGS]
cdef int8_t USE_DIKES[NBUILDINGS]
cdef int8_t USE_FIELDS[NBUILDINGS]
cdef int8_t USE_MASTER[NBUILDINGS]
cdef int8_t USE_STALL_TO_STABLE[NBUILDINGS]

# dikes and land: per dike steps 0..MAX_DIKE_STEPS (past DIKE_STEPS_N as at DIKE_STEPS_N)
cdef int8_t DIKE_STEPS_N                    # rules.DIKE_STEPS_MAX
cdef int8_t LAND_BY_DIKES[MAX_DIKE_STEPS + 1]   # starting land plus the opened tidal rows
cdef int8_t TIDAL_VP_BY_DIKES[MAX_DIKE_STEPS + 1]   # VP of the empty top-row gaps
cdef int8_t MOOR_LAND_N

# animal housing (rules.STALL_PEN ...): the places of any type are the dikes' and the parks'
cdef int8_t STALL_PEN_N, STABLE_PEN_N, DIKE_PLACES_N, PARK_PLACES_N, DOUBLE_STALL_PENS_N
# breeding (rules.STALL_BREEDING, STABLE_BREEDING, read by _breeding_shape): a stall pen of
# exactly STALL_BREED_AT animals gets STALL_BREED_N newborns; a stable of STABLE_ONE_MIN..
# STABLE_ONE_MAX gets 1, one of STABLE_MORE_AT (-1: no such count) STABLE_MORE_N
cdef int8_t STALL_BREED_AT, STALL_BREED_N, STABLE_ONE_MIN, STABLE_ONE_MAX
cdef int8_t STABLE_MORE_AT, STABLE_MORE_N

# setup: starting goods, animals and home tiles; the building draw per variant
cdef int16_t START_GOODS_ARR[NGOODS]
cdef int16_t START_ANIMALS_ARR[NANIMALS]
cdef int8_t START_HYDRATED, START_BOARDWALK, START_GRAIN_FIELDS, START_FLAX_FIELDS, START_STALLS
cdef enum:
    MAX_DRAWS = 8
cdef int8_t NDRAWS[NVARIANTS]               # per variant (standard, first-game)
cdef int8_t DRAW_FIRST[NVARIANTS][MAX_DRAWS]  # a colour group: first building, group size,
cdef int8_t DRAW_COUNT[NVARIANTS][MAX_DRAWS]  # and how many go on the board (drawn at random
cdef int8_t DRAW_KEEP[NVARIANTS][MAX_DRAWS]   # when fewer than the group)

# the solo game's readings (rules.SOLO_*; docs/rules-decisions.md S2-S6)
cdef int8_t SOLO_TURNS          # workers the solo player places per half-year
cdef int8_t SOLO_SPECIAL        # 1: the special action at most once per half-year; 0: never
cdef int8_t SOLO_OWN_BLOCK      # 1: a space holding the solo player's worker is closed to the others
cdef int8_t SOLO_SUPPLY_TWO     # 1: the absent seat holds a second board's starting tiles

cdef int8_t HOME_VP_STALL, HOME_VP_DEPOT, HOME_VP_STABLE, HOME_VP_DOUBLE_STALL
cdef int8_t HOME_VP_FOREST, HOME_VP_PARK, HOME_VP_HYDRATED, HOME_VP_DEHYDRATED, HOME_VP_BOARDWALK

cdef int8_t SUPPLY_FIELDS
cdef int8_t SUPPLY_FOREST_PARK
cdef int8_t SUPPLY_STALL_DEPOT
cdef int8_t SUPPLY_STABLE_DOUBLE
cdef int8_t SUPPLY_BOAT_PLOW
cdef int8_t SUPPLY_HANDCART_WAGON
cdef int8_t SUPPLY_CART_PAIR
cdef int8_t SUPPLY_CARRIAGE_PAIR

# what a delivery hands over: a good (0..NGOODS-1), an animal (GIVE_ANIMAL + type), or a tile
cdef enum:
    GIVE_ANIMAL = NGOODS
    GIVE_ANY_ANIMAL = NGOODS + NANIMALS     # any animals, the owner's choice (a decision)
    GIVE_ANY_CLOTHING = NGOODS + NANIMALS + 1   # one clothing tile of the owner's choice
    GIVE_GRAIN_FIELD = NGOODS + NANIMALS + 2
    GIVE_FLAX_FIELD = NGOODS + NANIMALS + 3
    GIVE_PLOW = NGOODS + NANIMALS + 4
    GIVE_PEAT_BOAT = NGOODS + NANIMALS + 5
    GIVE_MOOR = NGOODS + NANIMALS + 6       # a moor tile (which one: discard_moor)

GOOD_NAMES = tuple(_rules.GOODS)
ANIMAL_NAMES = tuple(_rules.ANIMALS)
LOAD_NAMES = tuple(_rules.LOAD_GOODS)
_VKINDS = ("equipment", "small", "large")  # rules.Vehicle.kind, by VK_* value
# the board's building space of each building and the spaces of each colour, as loaded
# (position validation: _position_limits)
_BUILDING_SPACES = ()
_COLOUR_SPACES = {}


def _building_space(r, colour):
    """The board space colour a building of ``colour`` goes on (BUILDING_SPACE_OF_COLOUR)."""
    if colour not in r.BUILDING_SPACE_OF_COLOUR:
        raise ValueError(f"BUILDING_SPACE_OF_COLOUR: no board space for the building colour "
                         f"{colour!r}")
    space = r.BUILDING_SPACE_OF_COLOUR[colour]
    if space not in r.BUILDING_COLOUR_SPACES:
        raise ValueError(f"BUILDING_SPACE_OF_COLOUR: the building colour {colour!r} goes on "
                         f"{space!r} spaces, which BUILDING_COLOUR_SPACES does not count")
    return space
_GIVE_TILES = {"any_animal": GIVE_ANY_ANIMAL, "any_clothing": GIVE_ANY_CLOTHING,
               "grain_field": GIVE_GRAIN_FIELD, "flax_field": GIVE_FLAX_FIELD,
               "plow": GIVE_PLOW, "peat_boat": GIVE_PEAT_BOAT, "moor": GIVE_MOOR}


def _give_code(str what):
    if what in GOOD_NAMES:
        return GOOD_NAMES.index(what)
    if what in ANIMAL_NAMES:
        return GIVE_ANIMAL + ANIMAL_NAMES.index(what)
    return _GIVE_TILES[what]


# The checks below raise ValueError, never assert: they guard the writes into the fixed-size
# C arrays above and must hold under `python -O` too. Each names the rules constant and the
# bound it broke.

def _count(str name, n, int size):
    """ValueError unless table `name` has exactly `size` rows (a size compiled into the core)."""
    if n != size:
        raise ValueError(f"{name} must have {size} entries (compiled into the core), not {n}")


def _at_most(str name, n, int bound, str why):
    """ValueError when table `name` has more than `bound` entries (the C array's size)."""
    if n > bound:
        raise ValueError(f"{name} has {n} {why}; the core holds at most {bound}")


def _keys_within(str name, table, known, str what):
    """ValueError naming the keys of `table` that are not among `known`."""
    extra = sorted(set(table) - set(known))
    if extra:
        raise ValueError(f"{name} names unknown {what}: {', '.join(map(str, extra))}")


cdef void _load_tools(r) except *:
    cdef int i, j
    _count("TOOLS", len(r.TOOLS), NTOOLS)
    for i, t in enumerate(r.TOOLS):
        if len(t.values) != len(t.vp):
            raise ValueError(f"TOOLS[{t.key}]: values ({len(t.values)}) and vp ({len(t.vp)}) "
                             f"must have the same length")
        _at_most(f"TOOLS[{t.key}].values", len(t.values), MAX_TOOL_LEN,
                 "positions (MAX_TOOL_LEN)")
        TOOL_LEN[i] = len(t.values)
        for j in range(len(t.values)):
            TOOL_VALUE[i][j] = t.values[j]
            TOOL_VP[i][j] = t.vp[j]
        TOOL_COST_GOOD[i] = GOOD_NAMES.index(t.cost_good)
        TOOL_COST_AMOUNT[i] = t.cost_amount
    for j, v in enumerate(r.SHOVEL_DIKE_VALUES):
        DIKE_VALUE[j] = v


cdef void _load_buildings(r) except *:
    global NOVEMBER_HOUSES, CLOCK_BUILDINGS, _BUILDING_SPACES, _COLOUR_SPACES
    cdef int i, j
    _count("BUILDINGS", len(r.BUILDINGS), NBUILDINGS)
    NOVEMBER_HOUSES = 0
    CLOCK_BUILDINGS = 0
    _BUILDING_SPACES = tuple([_building_space(r, b.colour) for b in r.BUILDINGS])
    _COLOUR_SPACES = dict(r.BUILDING_COLOUR_SPACES)
    for i, b in enumerate(r.BUILDINGS):
        BUILDING_VP[i] = b.vp
        if b.timing == "november":
            if i >= NOVEMBER_BITS:
                raise ValueError(f"BUILDINGS[{b.key}]: a 'november' building must be among the "
                                 f"first {NOVEMBER_BITS} (november_used keeps them in "
                                 f"{NOVEMBER_BITS} bits), not at {i}")
            NOVEMBER_HOUSES |= (<uint32_t>1) << i
        elif b.timing == "anytime":
            CLOCK_BUILDINGS |= (<uint32_t>1) << i
        else:
            if b.timing != "on_build":
                raise ValueError(f"BUILDINGS[{b.key}].timing must be 'on_build', 'anytime' or "
                                 f"'november', not {b.timing!r}")
        c = b.cost
        _at_most(f"BUILDINGS[{b.key}].cost.fixed", len(c.fixed), 3, "goods")
        _at_most(f"BUILDINGS[{b.key}].cost.either", len(c.either), 2, "alternatives")
        for j in range(3):
            BCOST_FIXED_G[i][j] = -1
            BCOST_FIXED_N[i][j] = 0
        for j, (g, n) in enumerate(c.fixed):
            BCOST_FIXED_G[i][j] = GOOD_NAMES.index(g)
            BCOST_FIXED_N[i][j] = n
        BCOST_EITHER_G[i][0] = BCOST_EITHER_G[i][1] = -1
        BCOST_EITHER_N[i][0] = BCOST_EITHER_N[i][1] = 0
        for j, alt in enumerate(c.either):
            if len(alt) != 1:
                raise ValueError(f"BUILDINGS[{b.key}].cost.either: each alternative must be one "
                                 f"good, not {len(alt)}")
            BCOST_EITHER_G[i][j] = GOOD_NAMES.index(alt[0][0])
            BCOST_EITHER_N[i][j] = alt[0][1]
        BCOST_ANY_MATERIALS[i] = c.any_materials
        BCOST_DIFF_MATERIALS[i] = c.different_materials
        BCOST_DIFF_CLOTHING[i] = c.different_clothing


cdef void _load_setup_draws(r) except *:
    """The colour groups of rules.BUILDINGS (contiguous, in board order) and how many of each
    go on the board (BUILDING_COLOUR_SPACES, by BUILDING_SPACE_OF_COLOUR). Light and dark
    green share the green spaces:
    the first-game variant puts FIRST_GAME_GREEN there, the standard game draws from the other
    green buildings."""
    cdef int v, n
    keys = [b.key for b in r.BUILDINGS]
    groups = []     # [first, count]; no negative indexes here (the module is compiled without
    for i, b in enumerate(r.BUILDINGS):     # wraparound)
        if i == 0 or r.BUILDINGS[i - 1].colour != b.colour:
            groups.append([i, 0])
        groups[len(groups) - 1][1] += 1
    for v in range(NVARIANTS):
        n = 0
        for first, count in groups:
            space = _building_space(r, r.BUILDINGS[first].colour)
            if space == "green":
                first_game = keys[first] in r.FIRST_GAME_GREEN
                if first_game != (v == VARIANT_FIRST_GAME):
                    continue
            if n >= MAX_DRAWS:
                raise ValueError(f"BUILDINGS: more than {MAX_DRAWS} colour groups to draw "
                                 f"(MAX_DRAWS)")
            DRAW_FIRST[v][n] = first
            DRAW_COUNT[v][n] = count
            DRAW_KEEP[v][n] = min(count, r.BUILDING_COLOUR_SPACES[space])
            n += 1
        NDRAWS[v] = n


cdef void _load_vehicles(r) except *:
    cdef int i, j
    _count("VEHICLES", len(r.VEHICLES), NVKINDS)
    keys = [v.key for v in r.VEHICLES]
    for i, v in enumerate(r.VEHICLES):
        VEH_VP[i] = v.vp
        VEH_KIND[i] = _VKINDS.index(v.kind)
        cost = dict(v.cost)
        _keys_within(f"VEHICLES[{v.key}].cost", cost, ("wood", "horse", "cattle_or_horse"),
                     "costs")
        _at_most(f"VEHICLES[{v.key}].spaces", len(v.spaces), NCOMPARTMENTS,
                 "loading spaces (NCOMPARTMENTS)")
        VEH_COST_WOOD[i] = cost.get("wood", 0)
        VEH_COST_HORSE[i] = cost.get("horse", 0)
        VEH_COST_CATTLE_OR_HORSE[i] = cost.get("cattle_or_horse", 0)
        VEH_NSPACES[i] = len(v.spaces)
        for j in range(NCOMPARTMENTS):
            VEH_WIDTH[i][j] = v.spaces[j] if j < len(v.spaces) else 0
        VEH_COMBINABLE[i] = 1 if v.combinable else 0
        VEH_FRONT[i] = keys.index(v.front)
    global BARN_SMALL, BARN_LARGE, BARN_FLEX, BARN_PENALTY_VP, PEAT_BOAT_PEAT_N, PEAT_BOAT_GOOD_N
    PEAT_BOAT_PEAT_N = r.PEAT_BOAT_PEAT
    PEAT_BOAT_GOOD_N = r.PEAT_BOAT_GOOD
    BARN_SMALL = r.BARN_SMALL
    BARN_LARGE = r.BARN_LARGE
    BARN_FLEX = r.BARN_FLEX
    BARN_PENALTY_VP = r.BARN_PENALTY_VP
    _at_most("BARN_SMALL + BARN_LARGE + BARN_FLEX", r.BARN_SMALL + r.BARN_LARGE + r.BARN_FLEX,
             MAXVEH, "barn spaces (MAXVEH)")
    global SUPPLY_FIELDS, SUPPLY_FOREST_PARK, SUPPLY_STALL_DEPOT, SUPPLY_STABLE_DOUBLE
    global SUPPLY_BOAT_PLOW, SUPPLY_HANDCART_WAGON, SUPPLY_CART_PAIR, SUPPLY_CARRIAGE_PAIR
    sup = r.SUPPLY_TILES
    SUPPLY_FIELDS = sup["field"]
    SUPPLY_FOREST_PARK = sup["forest_park"]
    SUPPLY_STALL_DEPOT = sup["stall_depot"]
    SUPPLY_STABLE_DOUBLE = sup["stable_double_stall"]
    SUPPLY_BOAT_PLOW = sup["peat_boat_plow"]
    SUPPLY_HANDCART_WAGON = sup["handcart_wagon"]
    SUPPLY_CART_PAIR = sup["cart_horse_cart"]
    SUPPLY_CARRIAGE_PAIR = sup["carriage_droshky"]


cdef void _load_travel(r) except *:
    """Destinations, their delivery choices (rules.DELIVERY_CHOICES), loading."""
    cdef int d, k, j
    _count("DESTINATIONS", len(r.DESTINATIONS), NDEST)
    _count("DELIVERY_CHOICES", len(r.DELIVERY_CHOICES), NDEST)
    for d, dest in enumerate(r.DESTINATIONS):
        DEST_SIZE[d] = dest.size
        DEST_DELIVERIES[d] = len(dest.deliveries)
        choices = r.DELIVERY_CHOICES[d]
        _at_most(f"DELIVERY_CHOICES[{dest.key}]", len(choices), NDELIVERY_IDS,
                 "choices (NDELIVERY_IDS)")
        DELIV_IDS[d] = len(choices)
        for k in range(NDELIVERY_IDS):
            DELIV_SLOT[d][k] = DELIV_FOOD[d][k] = 0
            for j in range(MAX_GIVES):
                DELIV_GIVE[d][k][j] = -1
                DELIV_GIVE_N[d][k][j] = 0
        for k, c in enumerate(choices):
            if not 0 <= c.delivery < 8:
                raise ValueError(f"DELIVERY_CHOICES[{dest.key}][{k}].delivery must be in 0..7 "
                                 f"(the deliveries made are kept in 8 bits), not {c.delivery}")
            DELIV_SLOT[d][k] = c.delivery
            DELIV_FOOD[d][k] = c.food
            _at_most(f"DELIVERY_CHOICES[{dest.key}][{k}].gives", len(c.gives), MAX_GIVES,
                     "items (MAX_GIVES)")
            for j, (what, n) in enumerate(c.gives):
                DELIV_GIVE[d][k][j] = _give_code(what)
                DELIV_GIVE_N[d][k][j] = n
                if what == "any_clothing" and n != 1:
                    raise ValueError(f"DELIVERY_CHOICES[{dest.key}][{k}]: any_clothing must be 1 "
                                     f"(one clothing tile per choice), not {n}")
    _count("TRAVEL_VP", len(r.TRAVEL_VP), NTRAVEL)
    for i in range(NTRAVEL):
        TRAVEL_VP[i] = r.TRAVEL_VP[i]
    for i, name in enumerate(LOAD_NAMES):
        LOAD_GOOD[i] = GOOD_NAMES.index(name)
        if name in r.LOAD_SIZES:
            LOAD_SIZE[i] = r.LOAD_SIZES[name]
            LOAD_RESULT_GOOD[i] = GOOD_NAMES.index(r.LOAD_RESULT[name])
        else:
            if name != "peat":      # the Loading Station's peat
                raise ValueError(f"LOAD_SIZES has no size for {name}")
            LOAD_SIZE[i] = r.LOADING_STATION_PEAT_SIZE
            LOAD_RESULT_GOOD[i] = GOOD_NAMES.index(name)
        extra = r.LOAD_EXTRA_COST.get(name, ())
        _at_most(f"LOAD_EXTRA_COST[{name}]", len(extra), 1, "goods")
        LOAD_EXTRA_GOOD[i] = GOOD_NAMES.index(extra[0][0]) if extra else -1
        LOAD_EXTRA_N[i] = extra[0][1] if extra else 0


cdef void _load_goods_and_scoring(r) except *:
    cdef int i
    _count("GOODS_TRACK_VP", len(r.GOODS_TRACK_VP), NTRACK)
    if r.GOODS_CAP + 1 != NTRACK:
        raise ValueError(f"GOODS_CAP must be {NTRACK - 1} (GOODS_TRACK_VP has VP for "
                         f"0..{NTRACK - 1}), not {r.GOODS_CAP}")
    for i in range(NTRACK):
        GOODS_TRACK_VP[i] = r.GOODS_TRACK_VP[i]
    for i in range(NGOODS):
        HALF_VP[i] = r.VP_HALF_POINTS.get(GOOD_NAMES[i], 0)
        if GOOD_NAMES[i] == "food":
            GOOD_CAP[i] = r.FOOD_CAP
        elif GOOD_NAMES[i] in r.TRACK_GOODS:
            GOOD_CAP[i] = r.GOODS_CAP
        else:
            GOOD_CAP[i] = GOODS_MAX
    for i in range(3):
        MILK_SHEEP[i] = r.MILKING_SHEEP[i]
        MILK_CATTLE[i] = r.MILKING_CATTLE[i]
        SHEAR_SHEEP[i] = r.SHEARING_SHEEP[i]
    for i in range(NANIMALS):
        ANIMAL_VP_BY_RANK[i] = r.ANIMAL_VP_BY_RANK[i]
    global SUSTENANCE_FOOD, SUSTENANCE_FUEL_NOVEMBER, BOTTLENECK_VP
    SUSTENANCE_FOOD = r.SUSTENANCE_FOOD
    SUSTENANCE_FUEL_NOVEMBER = r.SUSTENANCE_FUEL_NOVEMBER
    BOTTLENECK_VP = r.BOTTLENECK_VP
    global HOME_VP_STALL, HOME_VP_DEPOT, HOME_VP_STABLE, HOME_VP_DOUBLE_STALL
    global HOME_VP_FOREST, HOME_VP_PARK, HOME_VP_HYDRATED, HOME_VP_DEHYDRATED, HOME_VP_BOARDWALK
    h = r.HOME_TILE_VP
    HOME_VP_STALL = h["stall"]
    HOME_VP_DEPOT = h["depot"]
    HOME_VP_STABLE = h["stable"]
    HOME_VP_DOUBLE_STALL = h["double_stall"]
    HOME_VP_FOREST = h["forest"]
    HOME_VP_PARK = h["park"]
    HOME_VP_HYDRATED = h["hydrated_moor"]
    HOME_VP_DEHYDRATED = h["dehydrated_moor"]
    HOME_VP_BOARDWALK = h["boardwalk"]


cdef void _load_spaces(r) except *:
    keys = [a.key for a in r.ACTION_SPACES]
    _keys_within("SPACE_FOOD_COST", r.SPACE_FOOD_COST, keys, "action spaces")
    _keys_within("GRAIN_PAYS_FOOD_COST", r.GRAIN_PAYS_FOOD_COST, keys, "action spaces")
    for i, key in enumerate(keys):
        SPACE_FOOD_COST[i] = r.SPACE_FOOD_COST.get(key, 0)
        SPACE_GRAIN_PAYS[i] = 1 if key in r.GRAIN_PAYS_FOOD_COST else 0


cdef void _load_start(r) except *:
    global START_HYDRATED, START_BOARDWALK, START_GRAIN_FIELDS, START_FLAX_FIELDS, START_STALLS
    for i in range(NGOODS):
        START_GOODS_ARR[i] = r.START_GOODS.get(GOOD_NAMES[i], 0)
    for i in range(NANIMALS):
        START_ANIMALS_ARR[i] = r.START_ANIMALS.get(ANIMAL_NAMES[i], 0)
    home = r.START_HOME
    START_HYDRATED = home["hydrated_moor"]
    START_BOARDWALK = home["boardwalk_peat"]
    START_GRAIN_FIELDS = home["grain_field"]
    START_FLAX_FIELDS = home["flax_field"]
    START_STALLS = home["stall"]


cdef void _load_solo(r) except *:
    global SOLO_TURNS, SOLO_SPECIAL, SOLO_OWN_BLOCK, SOLO_SUPPLY_TWO
    n = r.SOLO_WORKERS
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= TURNS_PER_HALF_YEAR:
        raise ValueError(f"SOLO_WORKERS must be an integer in 1..{TURNS_PER_HALF_YEAR} (the "
                         f"turns a half-year holds), not {n!r}")
    for name in ("SOLO_SPECIAL_ACTION", "SOLO_OWN_WORKERS_BLOCK", "SOLO_SUPPLY_AS_TWO_PLAYERS"):
        if not isinstance(getattr(r, name), bool):
            raise ValueError(f"{name} must be True or False, not {getattr(r, name)!r}")
    SOLO_TURNS = n
    SOLO_SPECIAL = 1 if r.SOLO_SPECIAL_ACTION else 0
    SOLO_OWN_BLOCK = 1 if r.SOLO_OWN_WORKERS_BLOCK else 0
    SOLO_SUPPLY_TWO = 1 if r.SOLO_SUPPLY_AS_TWO_PLAYERS else 0


cdef void _fill_codes(int8_t* codes, int8_t* counts, items, bint animals, str name) except *:
    """Up to MAX_PARTS (what, n) pairs of table `name` into a code row and a count row
    (-1 / 0 when unused)."""
    cdef int j
    items = tuple(items)
    _at_most(name, len(items), MAX_PARTS, "parts (MAX_PARTS)")
    for j in range(MAX_PARTS):
        codes[j] = -1
        counts[j] = 0
    for j, (what, n) in enumerate(items):
        if not (what in GOOD_NAMES or (animals and what in ANIMAL_NAMES)):
            raise ValueError(f"{name}: {what!r} is not a good"
                             + (" or an animal" if animals else ""))
        codes[j] = _give_code(what)
        counts[j] = n


# the spaces whose choice gives SPACE_CHOICE_N of the chosen item (their *_apply in _spaces.pxi)
_CHOICE_SPACES = ("summer_grocer", "dike_builder", "cattle_trader", "winter_grocer",
                  "builders_merchant")


cdef void _load_effects(r) except *:
    """What the spaces and buildings give: rules.SPACE_GAINS ... rules.BUILDING_USES."""
    global PEAT_BOATMAN_PEAT_N, PEAT_BOATMAN_PER_BOAT, BUTCHER_HIDES_N, BAKER_FOOD_N
    global WOOD_TRADER_WOOD_N, DIKE_WARDEN_DIKES_N, STABLE_UPGRADE_BRICKS_N
    global BAKER_GRAIN_N, BAKER_FUEL_N, PEAT_PER_CUT_N, WINTER_GROCER_CUTS_N
    cdef int i, j
    spaces = [a.key for a in r.ACTION_SPACES]
    keys = [b.key for b in r.BUILDINGS]
    tools = [t.key for t in r.TOOLS]
    for name in ("SPACE_GAINS", "SPACE_GAINS_WITH_CHOICE", "SPACE_EXCHANGES"):
        _keys_within(name, getattr(r, name), spaces, "action spaces")
    if set(r.SPACE_CHOICE_COUNT) != set(_CHOICE_SPACES):
        raise ValueError(f"SPACE_CHOICE_COUNT must name the spaces whose choice gives a counted "
                         f"item ({', '.join(_CHOICE_SPACES)}), not "
                         f"{', '.join(map(str, r.SPACE_CHOICE_COUNT))}")
    for name in ("BUILDING_GAINS", "BUILDING_DIKES", "BUILDING_TOOL_STEPS", "BUILDING_USES"):
        _keys_within(name, getattr(r, name), keys, "buildings")
    for i, key in enumerate(spaces):
        _fill_codes(SPACE_GAIN_CODE[i], SPACE_GAIN_N[i], r.SPACE_GAINS.get(key, ()), True,
                    f"SPACE_GAINS[{key}]")
        _fill_codes(CHOICE_GAIN_CODE[i], CHOICE_GAIN_N[i],
                    r.SPACE_GAINS_WITH_CHOICE.get(key, ()), True,
                    f"SPACE_GAINS_WITH_CHOICE[{key}]")
        SPACE_CHOICE_N[i] = r.SPACE_CHOICE_COUNT.get(key, 0)
        pay, gives = r.SPACE_EXCHANGES.get(key, ((None, 0), ()))
        EXCH_PAY_GOOD[i] = GOOD_NAMES.index(pay[0]) if pay[0] is not None else -1
        EXCH_PAY_N[i] = pay[1]
        _fill_codes(EXCH_GAIN_GOOD[i], EXCH_GAIN_N[i], gives, False, f"SPACE_EXCHANGES[{key}]")
    PEAT_BOATMAN_PEAT_N = r.PEAT_BOATMAN_PEAT
    PEAT_BOATMAN_PER_BOAT = r.PEAT_BOATMAN_PEAT_PER_BOAT
    if set(r.BUTCHER_FOOD) != set(ANIMAL_NAMES):
        raise ValueError(f"BUTCHER_FOOD must name each animal once ({', '.join(ANIMAL_NAMES)}), "
                         f"not {', '.join(map(str, r.BUTCHER_FOOD))}")
    for i in range(NANIMALS):
        BUTCHER_FOOD_BY_ANIMAL[i] = r.BUTCHER_FOOD[ANIMAL_NAMES[i]]
    BUTCHER_HIDES_N = r.BUTCHER_HIDES
    BAKER_FOOD_N = r.BAKER_FOOD
    BAKER_GRAIN_N = r.BAKER_GRAIN
    BAKER_FUEL_N = r.BAKER_FUEL
    PEAT_PER_CUT_N = r.PEAT_PER_CUT
    WINTER_GROCER_CUTS_N = r.WINTER_GROCER_CUTS
    WOOD_TRADER_WOOD_N = r.WOOD_TRADER_WOOD
    DIKE_WARDEN_DIKES_N = r.DIKE_WARDEN_DIKES
    _fill_codes(STALL_COST_GOOD, STALL_COST_N, r.STALL_COST, False, "STALL_COST")
    STABLE_UPGRADE_BRICKS_N = r.STABLE_UPGRADE_BRICKS
    for i, key in enumerate(keys):
        _fill_codes(BUILD_GAIN_GOOD[i], BUILD_GAIN_N[i], r.BUILDING_GAINS.get(key, ()), False,
                    f"BUILDING_GAINS[{key}]")
        BUILD_DIKES[i] = r.BUILDING_DIKES.get(key, 0)
        steps = tuple(r.BUILDING_TOOL_STEPS.get(key, ()))
        _at_most(f"BUILDING_TOOL_STEPS[{key}]", len(steps), MAX_PARTS, "steps (MAX_PARTS)")
        for j in range(MAX_PARTS):
            BUILD_STEP_TOOL[i][j] = tools.index(steps[j][0]) if j < len(steps) else -1
            BUILD_STEP_N[i][j] = steps[j][1] if j < len(steps) else 0
        use = r.BUILDING_USES.get(key)
        USE_DEFINED[i] = use is not None
        if use is None:
            use = r.BuildingUse()
        else:
            timing = r.BUILDINGS[i].timing
            if timing not in ("anytime", "november"):
                raise ValueError(f"BUILDING_USES[{key}]: only an 'anytime' or 'november' "
                                 f"building has uses, not an {timing!r} one")
        _fill_codes(USE_NEED_CODE[i], USE_NEED_N[i], use.needs, True,
                    f"BUILDING_USES[{key}].needs")
        _fill_codes(USE_PAY_GOOD[i], USE_PAY_N[i], use.pays, False, f"BUILDING_USES[{key}].pays")
        _fill_codes(USE_GAIN_CODE[i], USE_GAIN_N[i], use.gains, True,
                    f"BUILDING_USES[{key}].gains")
        USE_CUT[i] = use.cut
        USE_DIKES[i] = use.dikes
        USE_FIELDS[i] = use.fields
        USE_MASTER[i] = use.master_steps
        USE_STALL_TO_STABLE[i] = 1 if use.stall_to_stable else 0


cdef void _load_gifts(r) except *:
    """The one-off buildings counted per tile, animal or threshold (rules.TURNERY_... ff.)."""
    global TURNERY_WOOD_N, TURNERY_CUTS_N, JOINERY_PEAT_N, JOINERY_HORSES_N, FARMERS_INN_N
    global GULF_TIMBER_N, GULF_BRICK_N, MILK_HOUSE_CATTLE_N, NCOOPERAGE_LEVELS, NMILL_STEPS
    cdef int i
    TURNERY_WOOD_N = r.TURNERY_WOOD_PER_FOREST
    TURNERY_CUTS_N = r.TURNERY_CUTS_PER_FOREST
    JOINERY_PEAT_N = r.JOINERY_PEAT_PER_BOAT
    JOINERY_HORSES_N = r.JOINERY_HORSES_PER_PLOW
    FARMERS_INN_N = r.FARMERS_INN_FIELDS
    GULF_TIMBER_N = r.GULF_HOUSE_TIMBER_PER_STALL
    GULF_BRICK_N = r.GULF_HOUSE_BRICK_PER_STABLE
    MILK_HOUSE_CATTLE_N = r.MILK_HOUSE_CATTLE
    levels = tuple(r.COOPERAGE_LEVELS)
    per_level = tuple(r.COOPERAGE_PER_LEVEL)
    mill = tuple(r.MILL_FOOD_BY_FIELDS)
    _at_most("COOPERAGE_LEVELS", len(levels), MAX_GIFTS, "levels (MAX_GIFTS)")
    _at_most("COOPERAGE_PER_LEVEL", len(per_level), MAX_GIFTS, "goods (MAX_GIFTS)")
    _at_most("MILL_FOOD_BY_FIELDS", len(mill), MAX_GIFTS, "steps (MAX_GIFTS)")
    if list(levels) != sorted(levels):
        raise ValueError(f"COOPERAGE_LEVELS must be ascending, not {levels}")
    if [f for f, _ in mill] != sorted(f for f, _ in mill):
        raise ValueError(f"MILL_FOOD_BY_FIELDS must be ascending by fields, not {mill}")
    NCOOPERAGE_LEVELS = len(levels)
    NMILL_STEPS = len(mill)
    for i in range(MAX_GIFTS):
        COOPERAGE_AT[i] = levels[i] if i < len(levels) else 0
        COOPERAGE_GOOD[i] = GOOD_NAMES.index(per_level[i][0]) if i < len(per_level) else -1
        COOPERAGE_N[i] = per_level[i][1] if i < len(per_level) else 0
        MILL_AT[i] = mill[i][0] if i < len(mill) else 0
        MILL_FOOD[i] = mill[i][1] if i < len(mill) else 0
    pays, gives = r.BAKEHOUSE_EXCHANGE
    _fill_codes(BAKEHOUSE_PAY_GOOD, BAKEHOUSE_PAY_N, pays, False, "BAKEHOUSE_EXCHANGE pays")
    _fill_codes(BAKEHOUSE_GAIN_GOOD, BAKEHOUSE_GAIN_N, gives, False, "BAKEHOUSE_EXCHANGE gives")


def _breeding_shape(r):
    """The breeding tables of rules module `r` as the engine's breeding search reads them:
    (stall count, stall newborns, stable 1-newborn counts lo, hi, stable count of more newborns
    or -1, those newborns). ValueError naming the table unless it has that shape: a stall pen
    breeds at one count; a stable gives 1 newborn for a run of counts (a count inside giving
    more is allowed: it dominates) and more for at most one count; the newborns fit the pen."""
    stall = dict(r.STALL_BREEDING)
    stable = {c: n for c, n in dict(r.STABLE_BREEDING).items() if n != 0}
    for name, table in (("STALL_BREEDING", stall), ("STABLE_BREEDING", stable)):
        for c, n in table.items():
            if (isinstance(c, bool) or not isinstance(c, int) or isinstance(n, bool)
                    or not isinstance(n, int) or c < 1 or n < 0):
                raise ValueError(f"{name} must map animal counts (at least 1) to newborns, "
                                 f"not {c!r}: {n!r}")
    stall = {c: n for c, n in stall.items() if n != 0}
    if len(stall) != 1:
        raise ValueError(f"STALL_BREEDING must give newborns for exactly one animal count (the "
                         f"breeding search fills stall pens with that count), not {stall}")
    (c2, n2), = stall.items()
    if c2 + n2 > r.STALL_PEN:
        raise ValueError(f"STALL_BREEDING {c2}: {n2}: the newborns must fit the stall pen "
                         f"(STALL_PEN {r.STALL_PEN})")
    ones = [c for c, n in stable.items() if n == 1]     # (no negative indexes: the module is
    more = [(c, n) for c, n in stable.items() if n > 1]     # compiled without wraparound)
    lo = min(ones) if ones else 0
    hi = max(ones) if ones else 0
    if not ones or len(more) > 1 or any(c not in stable for c in range(lo, hi + 1)):
        raise ValueError(f"STABLE_BREEDING must give 1 newborn for a run of animal counts and "
                         f"more for at most one count (the breeding search reads it so), not "
                         f"{dict(r.STABLE_BREEDING)}")
    c4, n4 = more[0] if more else (-1, 0)
    if hi + 1 > r.STABLE_PEN or c4 + n4 > r.STABLE_PEN:
        raise ValueError(f"STABLE_BREEDING: the newborns must fit the stable (STABLE_PEN "
                         f"{r.STABLE_PEN}), not {dict(r.STABLE_BREEDING)}")
    return c2, n2, lo, hi, c4, n4


cdef void _load_land(r) except *:
    """Land and the top-row penalty per dike steps (rules.TIDAL_ROWS_OPEN_AT, ...), the
    animal housing (rules.STALL_PEN ...) and breeding (rules.STALL_BREEDING, STABLE_BREEDING)."""
    global DIKE_STEPS_N, MOOR_LAND_N, STALL_PEN_N, STABLE_PEN_N, DIKE_PLACES_N, PARK_PLACES_N
    global DOUBLE_STALL_PENS_N, STALL_BREED_AT, STALL_BREED_N, STABLE_ONE_MIN, STABLE_ONE_MAX, STABLE_MORE_AT
    global STABLE_MORE_N
    STALL_PEN_N = r.STALL_PEN
    STABLE_PEN_N = r.STABLE_PEN
    DIKE_PLACES_N = r.DIKES * r.DIKE_PLACES
    PARK_PLACES_N = r.PARK_PLACES
    DOUBLE_STALL_PENS_N = r.DOUBLE_STALL_PENS
    (STALL_BREED_AT, STALL_BREED_N, STABLE_ONE_MIN, STABLE_ONE_MAX, STABLE_MORE_AT,
     STABLE_MORE_N) = _breeding_shape(r)
    cdef int d, k
    DIKE_STEPS_N = r.DIKE_STEPS_MAX
    MOOR_LAND_N = r.MOOR_LAND
    for d in range(MAX_DIKE_STEPS + 1):
        k = d if d < r.DIKE_STEPS_MAX else r.DIKE_STEPS_MAX
        LAND_BY_DIKES[d] = r.START_LAND + r.TIDAL_ROW_LAND * sum(
            1 for step in r.TIDAL_ROWS_OPEN_AT if k >= step)
        TIDAL_VP_BY_DIKES[d] = r.TIDAL_GAP_VP * r.TOP_DIKE_ROW_GAPS[k]


def _check_numbers(r):
    """ValueError unless the numbers of rules module `r` fit what the core indexes with them:
    the dike row of the shovels as long as the track, start goods within their caps (the
    goods-track VP table is indexed by them), food within two track indicators, sizes of
    destinations and loads that a vehicle can hold and that fit the travel track, at most 3
    moor tiles (the struct holds 3). Type ranges (int8) are checked by the assignments."""
    shovels = next(t for t in r.TOOLS if t.key == "shovels")
    if len(r.SHOVEL_DIKE_VALUES) != len(shovels.values):
        raise ValueError(f"SHOVEL_DIKE_VALUES must have {len(shovels.values)} values (one per "
                         f"shovels position), not {len(r.SHOVEL_DIKE_VALUES)}")
    if not 0 <= r.FOOD_CAP <= 2 * r.GOODS_CAP:
        raise ValueError(f"FOOD_CAP must be in 0..{2 * r.GOODS_CAP} (two goods-track "
                         f"indicators), not {r.FOOD_CAP}")
    for g, n in r.START_GOODS.items():
        cap = (r.FOOD_CAP if g == "food" else r.GOODS_CAP if g in r.TRACK_GOODS
               else GOODS_MAX)
        if not 0 <= n <= cap:
            raise ValueError(f"START_GOODS[{g!r}] must be in 0..{cap}, not {n}")
    for a, n in r.START_ANIMALS.items():
        if n < 0:
            raise ValueError(f"START_ANIMALS[{a!r}] must not be negative, not {n}")
    home = r.START_HOME
    if not 0 <= home["hydrated_moor"] <= 3:
        raise ValueError(f"START_HOME['hydrated_moor'] must be in 0..3, not "
                         f"{home['hydrated_moor']}")
    for k, n in home.items():
        if n < 0:
            raise ValueError(f"START_HOME[{k!r}] must not be negative, not {n}")
    capacity = min(max(sum(v.spaces) for v in r.VEHICLES), MAX_ITEM_SIZE)
    for v in r.VEHICLES:
        if any(w < 1 for w in v.spaces):
            raise ValueError(f"vehicle {v.key}: every loading space must be at least 1 wide")
    sizes = dict(r.LOAD_SIZES, peat=r.LOADING_STATION_PEAT_SIZE)
    sizes.update({d.key: d.size for d in r.DESTINATIONS})
    for k, n in sizes.items():
        if not 1 <= n <= capacity:
            raise ValueError(f"the size of {k} must be in 1..{capacity} (the largest vehicle, "
                             f"at most MAX_ITEM_SIZE {MAX_ITEM_SIZE}), not {n}")
    total = sum(d.size for d in r.DESTINATIONS)
    if total > len(r.TRAVEL_VP) - 1:
        raise ValueError(f"the destinations cover {total} travel spaces; TRAVEL_VP has VP for "
                         f"0..{len(r.TRAVEL_VP) - 1}")
    if not 0 <= r.DIKE_STEPS_MAX <= MAX_DIKE_STEPS:
        raise ValueError(f"DIKE_STEPS_MAX must be in 0..{MAX_DIKE_STEPS}, not "
                         f"{r.DIKE_STEPS_MAX}")
    if len(r.TOP_DIKE_ROW_GAPS) != r.DIKE_STEPS_MAX + 1:
        raise ValueError(f"TOP_DIKE_ROW_GAPS must have {r.DIKE_STEPS_MAX + 1} values (dike "
                         f"steps 0..{r.DIKE_STEPS_MAX}), not {len(r.TOP_DIKE_ROW_GAPS)}")
    if any(not 1 <= step <= r.DIKE_STEPS_MAX for step in r.TIDAL_ROWS_OPEN_AT):
        raise ValueError(f"TIDAL_ROWS_OPEN_AT must be dike steps in 1..{r.DIKE_STEPS_MAX}, not "
                         f"{r.TIDAL_ROWS_OPEN_AT}")
    land = r.START_LAND + r.TIDAL_ROW_LAND * len(r.TIDAL_ROWS_OPEN_AT) + 3 * r.MOOR_LAND
    if min(r.START_LAND, r.TIDAL_ROW_LAND, r.MOOR_LAND) < 0 or land > 127:
        raise ValueError(f"land spaces must be counts that fit a home board (at most 127 in "
                         f"all), not {land}")
    if r.LAND_PEN != 2:
        raise ValueError(f"LAND_PEN must be 2: the housing search pairs leftover animals on empty "
                         f"land (pens of 2 only), not {r.LAND_PEN}")
    for name in ("STALL_PEN", "STABLE_PEN", "PARK_PLACES", "DIKES", "DIKE_PLACES",
                 "DOUBLE_STALL_PENS"):
        if not 0 <= getattr(r, name) <= 20:
            raise ValueError(f"{name} must be in 0..20, not {getattr(r, name)}")
    for name in ("PEAT_BOAT_PEAT", "PEAT_BOAT_GOOD", "BAKER_GRAIN", "BAKER_FUEL", "PEAT_PER_CUT",
                 "WINTER_GROCER_CUTS"):
        if not 1 <= getattr(r, name) <= r.GOODS_CAP:
            raise ValueError(f"{name} must be in 1..{r.GOODS_CAP}, not {getattr(r, name)}")
    for key, n in r.SPACE_CHOICE_COUNT.items():
        if not 1 <= n <= r.GOODS_CAP:
            raise ValueError(f"SPACE_CHOICE_COUNT[{key!r}] must be in 1..{r.GOODS_CAP}, not {n}")
    for name in ("MILKING_SHEEP", "MILKING_CATTLE", "SHEARING_SHEEP"):
        if len(getattr(r, name)) != 3:
            raise ValueError(f"{name} must have 3 thresholds")


cdef void _load_data(r) except *:
    import arle_ai.engine._gen_tables as _gen
    digest = _gen.names_digest(r)
    if digest != TABLES_DIGEST:
        raise ImportError(
            "arle_ai.engine._core was built from other names or sizes than arle_ai.engine.rules has now "
            "(rebuild: python setup.py build_ext --inplace, or pip install -e .)")
    _check_numbers(r)
    _load_spaces(r)
    _load_tools(r)
    _load_buildings(r)
    _load_setup_draws(r)
    _load_vehicles(r)
    _load_travel(r)
    _load_goods_and_scoring(r)
    _load_start(r)
    _load_solo(r)
    _load_effects(r)
    _load_gifts(r)
    _load_land(r)


cdef int TABLES_LOADS = 0  # refills by _reload_tables: a cache built from the tables keeps the count


def _reload_tables(rules_module=None):
    """Refill the engine's number tables from `rules_module` (default: arle_ai.engine.rules).

    For tests that change a rules number on a copy and check that the engine follows; call it
    again without an argument to restore. Names and sizes cannot change (they are compiled in)."""
    global TABLES_LOADS
    TABLES_LOADS += 1           # what was built from the old tables is stale (_position_limits)
    try:
        _load_data(_rules if rules_module is None else rules_module)
    except BaseException:
        _load_data(_rules)      # never leave half-filled tables behind
        raise


_load_data(_rules)
