# Game data as C arrays, filled once at import from arle_ai.rules (the single source).

from arle_ai import rules as _rules

cdef int8_t TOOL_LEN[NTOOLS]
cdef int8_t TOOL_VALUE[NTOOLS][6]
cdef int8_t TOOL_VP[NTOOLS][6]
cdef int8_t TOOL_COST_GOOD[NTOOLS]
cdef int8_t TOOL_COST_AMOUNT[NTOOLS]
cdef int8_t DIKE_VALUE[6]

cdef int8_t BUILDING_COLOUR[NBUILDINGS]     # 0 light green, 1 dark green, 2 yellow, 3 orange, 4 blue, 5 red
cdef int8_t BUILDING_VP[NBUILDINGS]
cdef int8_t BUILDING_TIMING[NBUILDINGS]     # 0 november, 1 anytime, 2 on build

cdef int8_t VEH_VP[NVKINDS]
cdef int8_t VEH_KIND[NVKINDS]               # 0 equipment, 1 small, 2 large
cdef int8_t VEH_COST_WOOD[NVKINDS]
cdef int8_t VEH_COST_HORSE[NVKINDS]
cdef int8_t VEH_COST_CATTLE_OR_HORSE[NVKINDS]
cdef int8_t VEH_NSPACES[NVKINDS]
cdef int8_t VEH_WIDTH[NVKINDS][4]
cdef int8_t VEH_COMBINABLE[NVKINDS]
cdef int8_t VEH_FRONT[NVKINDS]

cdef int8_t DEST_SIZE[NDEST]
cdef int8_t TRAVEL_VP[20]
cdef int8_t GOODS_TRACK_VP[16]
cdef int8_t HALF_VP[NGOODS]                 # end-game VP of goods in half points
cdef int8_t MILK_SHEEP[3]
cdef int8_t MILK_CATTLE[3]
cdef int8_t SHEAR_SHEEP[3]
cdef int8_t LOAD_SIZE[NLOAD]

cdef int8_t BCOST_FIXED_G[NBUILDINGS][3]
cdef int8_t BCOST_FIXED_N[NBUILDINGS][3]
cdef int8_t BCOST_EITHER_G[NBUILDINGS][2]
cdef int8_t BCOST_EITHER_N[NBUILDINGS][2]
cdef int8_t BCOST_ANY_MATERIALS[NBUILDINGS]
cdef int8_t BCOST_DIFF_MATERIALS[NBUILDINGS]
cdef int8_t BCOST_DIFF_CLOTHING[NBUILDINGS]

cdef int16_t START_GOODS_ARR[NGOODS]
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

GOOD_NAMES = ("food", "grain", "flax", "wool", "hide", "wood", "timber", "clay", "brick", "peat",
              "linen", "woolen", "leather", "summer_wear", "winter_wear", "leather_wear")
ANIMAL_NAMES = ("sheep", "cattle", "horse")
LOAD_NAMES = ("wood", "clay", "linen", "woolen", "leather", "peat")
_COLOURS = ("light_green", "dark_green", "yellow", "orange", "blue", "red")
_TIMINGS = ("november", "anytime", "on_build")
_VKINDS = ("equipment", "small", "large")


cdef void _load_data() except *:
    cdef int i, j
    assert len(_rules.TOOLS) == NTOOLS
    for i, t in enumerate(_rules.TOOLS):
        TOOL_LEN[i] = len(t.values)
        for j in range(len(t.values)):
            TOOL_VALUE[i][j] = t.values[j]
            TOOL_VP[i][j] = t.vp[j]
        TOOL_COST_GOOD[i] = GOOD_NAMES.index(t.cost_good)
        TOOL_COST_AMOUNT[i] = t.cost_amount
    for j, v in enumerate(_rules.SHOVEL_DIKE_VALUES):
        DIKE_VALUE[j] = v
    assert len(_rules.BUILDINGS) == NBUILDINGS
    for i, b in enumerate(_rules.BUILDINGS):
        BUILDING_COLOUR[i] = _COLOURS.index(b.colour)
        BUILDING_VP[i] = b.vp
        BUILDING_TIMING[i] = _TIMINGS.index(b.timing)
    assert len(_rules.VEHICLES) == NVKINDS
    keys = [v.key for v in _rules.VEHICLES]
    for i, v in enumerate(_rules.VEHICLES):
        VEH_VP[i] = v.vp
        VEH_KIND[i] = _VKINDS.index(v.kind)
        cost = dict(v.cost)
        VEH_COST_WOOD[i] = cost.get("wood", 0)
        VEH_COST_HORSE[i] = cost.get("horse", 0)
        VEH_COST_CATTLE_OR_HORSE[i] = cost.get("cattle_or_horse", 0)
        VEH_NSPACES[i] = len(v.spaces)
        for j in range(4):
            VEH_WIDTH[i][j] = v.spaces[j] if j < len(v.spaces) else 0
        VEH_COMBINABLE[i] = 1 if v.combinable else 0
        VEH_FRONT[i] = keys.index(v.front)
    assert len(_rules.DESTINATIONS) == NDEST
    for i, d in enumerate(_rules.DESTINATIONS):
        DEST_SIZE[i] = d.size
    for i in range(20):
        TRAVEL_VP[i] = _rules.TRAVEL_VP[i]
    for i in range(16):
        GOODS_TRACK_VP[i] = _rules.GOODS_TRACK_VP[i]
    for i in range(NGOODS):
        HALF_VP[i] = _rules.VP_HALF_POINTS.get(GOOD_NAMES[i], 0)
    for i in range(3):
        MILK_SHEEP[i] = _rules.MILKING_SHEEP[i]
        MILK_CATTLE[i] = _rules.MILKING_CATTLE[i]
        SHEAR_SHEEP[i] = _rules.SHEARING_SHEEP[i]
    for i in range(NLOAD):
        LOAD_SIZE[i] = _rules.LOAD_SIZES.get(LOAD_NAMES[i], 1)   # Loading Station peat: 1 space
    for i, b in enumerate(_rules.BUILDINGS):
        c = b.cost
        for j in range(3):
            BCOST_FIXED_G[i][j] = -1
            BCOST_FIXED_N[i][j] = 0
        for j, (g, n) in enumerate(c.fixed):
            BCOST_FIXED_G[i][j] = GOOD_NAMES.index(g)
            BCOST_FIXED_N[i][j] = n
        BCOST_EITHER_G[i][0] = BCOST_EITHER_G[i][1] = -1
        BCOST_EITHER_N[i][0] = BCOST_EITHER_N[i][1] = 0
        for j, alt in enumerate(c.either):
            assert len(alt) == 1
            BCOST_EITHER_G[i][j] = GOOD_NAMES.index(alt[0][0])
            BCOST_EITHER_N[i][j] = alt[0][1]
        BCOST_ANY_MATERIALS[i] = c.any_materials
        BCOST_DIFF_MATERIALS[i] = c.different_materials
        BCOST_DIFF_CLOTHING[i] = c.different_clothing
    global SUPPLY_FIELDS, SUPPLY_FOREST_PARK, SUPPLY_STALL_DEPOT, SUPPLY_STABLE_DOUBLE
    global SUPPLY_BOAT_PLOW, SUPPLY_HANDCART_WAGON, SUPPLY_CART_PAIR, SUPPLY_CARRIAGE_PAIR
    sup = _rules.SUPPLY_TILES
    SUPPLY_FIELDS = sup["field"]
    SUPPLY_FOREST_PARK = sup["forest_park"]
    SUPPLY_STALL_DEPOT = sup["stall_depot"]
    SUPPLY_STABLE_DOUBLE = sup["stable_double_stall"]
    SUPPLY_BOAT_PLOW = sup["peat_boat_plow"]
    SUPPLY_HANDCART_WAGON = sup["handcart_wagon"]
    SUPPLY_CART_PAIR = sup["cart_horse_cart"]
    SUPPLY_CARRIAGE_PAIR = sup["carriage_droshky"]
    for i in range(NGOODS):
        START_GOODS_ARR[i] = _rules.START_GOODS.get(GOOD_NAMES[i], 0)
    global HOME_VP_STALL, HOME_VP_DEPOT, HOME_VP_STABLE, HOME_VP_DOUBLE_STALL
    global HOME_VP_FOREST, HOME_VP_PARK, HOME_VP_HYDRATED, HOME_VP_DEHYDRATED, HOME_VP_BOARDWALK
    h = _rules.HOME_TILE_VP
    HOME_VP_STALL = h["stall"]
    HOME_VP_DEPOT = h["depot"]
    HOME_VP_STABLE = h["stable"]
    HOME_VP_DOUBLE_STALL = h["double_stall"]
    HOME_VP_FOREST = h["forest"]
    HOME_VP_PARK = h["park"]
    HOME_VP_HYDRATED = h["hydrated_moor"]
    HOME_VP_DEHYDRATED = h["dehydrated_moor"]
    HOME_VP_BOARDWALK = h["boardwalk"]
    # the engine's enums must agree with the rules tables
    assert [t.key for t in _rules.TOOLS][T_OVEN] == "ovens"
    assert [a.key for a in _rules.ACTION_SPACES][W_LABORER] == "winter_laborer"
    assert keys[V_DROSHKY] == "droshky"

_load_data()
