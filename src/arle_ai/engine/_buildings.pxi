# The 31 buildings: one-off effects when built, clock buildings (any time), the light-green
# houses before each November (tiles.md 2.5, 2.6), and the buildings' own sub-decisions.
#
# Offers: owns; building_on_build (a building's one-off effect: its table parts, then its row of
#   BUILT, filled by register_buildings() at import); building_use_actions and
#   use_building (clock buildings, rules.BUILDING_USES); november_actions, apply_november;
#   building_frame_legal and building_frame_apply (F_SMITHY, F_FARMERS_INN, F_BAKEHOUSE,
#   F_JUNK, dispatched from _engine.pxi).
# Uses: _tables, _state, _data (BUILD_*, USE_*, the buildings' numbers), _frames, _home, _supply,
#   _barn, _tiles, _subdecisions (push_cut, push_master, F_FLIP, F_FIELD, F_FOREST, F_ANIMALS).
# Invariants: the table parts of an effect (rules.BUILDING_GAINS, BUILDING_DIKES,
#   BUILDING_TOOL_STEPS) come first, then the building's own code; decisions it brings are
#   pushed later parts first, so that the stack resolves them in printed order. Every entry of
#   BUILT is set (table_parts_only where a building has no code of its own).

cdef inline int owns(Player* p, int b) noexcept nogil:
    return (p.buildings >> b) & 1

# ---- one-off effects when built (yellow, orange, blue and red buildings) ----
# building_on_build takes the table parts every building has (rules.BUILDING_GAINS,
# BUILDING_DIKES, BUILDING_TOOL_STEPS), then runs the building's row of BUILT: one block below
# per building whose effect is more than its table parts, registered by register_buildings().
# The green buildings have no effect when built: they are used (rules.BUILDING_USES,
# use_building below).

ctypedef void (*BuildingBuilt)(State* s, int pi, Player* p, int b) noexcept nogil

cdef BuildingBuilt BUILT[NBUILDINGS]

cdef void building_on_build(State* s, int pi, int b) noexcept nogil:
    """The one-off effect of building b, just gained by pi: its table parts, then its row."""
    cdef Player* p = &s.pl[pi]
    cdef int j
    for j in range(MAX_PARTS):
        if BUILD_GAIN_GOOD[b][j] >= 0:
            gain(p, BUILD_GAIN_GOOD[b][j], BUILD_GAIN_N[b][j])
    if BUILD_DIKES[b] > 0:
        build_dikes(p, BUILD_DIKES[b])
    for j in range(MAX_PARTS):
        if BUILD_STEP_TOOL[b][j] >= 0:
            advance_tool_free(p, BUILD_STEP_TOOL[b][j], BUILD_STEP_N[b][j])
    BUILT[b](s, pi, p, b)

cdef void table_parts_only(State* s, int pi, Player* p, int b) noexcept nogil:
    pass

# Turnery: 1 wood per forest, then cut 1 peat per forest.
cdef void turnery_built(State* s, int pi, Player* p, int b) noexcept nogil:
    gain(p, G_WOOD, TURNERY_WOOD_N * p.forests)
    push_cut(s, pi, TURNERY_CUTS_N * p.forests)

# Smokehouse: cut peat by the fish traps.
cdef void smokehouse_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_cut(s, pi, tool_value(p, T_FISH_TRAPS))

# Smithy: swap peat boats, handcarts and wagons for plows (F_SMITHY).
cdef void smithy_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_SMITHY, 0)

# Cooperage: rules.COOPERAGE_PER_LEVEL for each of rules.COOPERAGE_LEVELS the sheep and cattle
# reach.
cdef void cooperage_built(State* s, int pi, Player* p, int b) noexcept nogil:
    cdef int kept = p.animals[A_SHEEP] + p.animals[A_CATTLE], levels = 0, j
    for j in range(NCOOPERAGE_LEVELS):
        if kept >= COOPERAGE_AT[j]:
            levels += 1
    for j in range(MAX_GIFTS):
        if COOPERAGE_GOOD[j] >= 0:
            gain(p, COOPERAGE_GOOD[j], COOPERAGE_N[j] * levels)

# Bakehouse: up to (ovens) Bakehouse exchanges (F_BAKEHOUSE).
cdef void bakehouse_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_BAKEHOUSE, tool_value(p, T_OVENS))

# Mill: food by the fields (rules.MILL_FOOD_BY_FIELDS: the highest step reached).
cdef void mill_built(State* s, int pi, Player* p, int b) noexcept nogil:
    cdef int fields = p.grain_fields + p.flax_fields, food = 0, j
    for j in range(NMILL_STEPS):
        if fields >= MILL_AT[j]:
            food = MILL_FOOD[j]
    gain(p, G_FOOD, food)

# Saddlery (after its tool step): cut 1 peat per horse.
cdef void saddlery_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_cut(s, pi, p.animals[A_HORSE])

# Joinery: peat per peat boat, horses per plow.
cdef void joinery_built(State* s, int pi, Player* p, int b) noexcept nogil:
    gain(p, G_PEAT, JOINERY_PEAT_N * p.peat_boats)
    gain_animal(s, pi, A_HORSE, JOINERY_HORSES_N * p.plows)

# Potter's Inn: animals of any kind by the pottery wheels (F_ANIMALS).
cdef void potters_inn_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_ANIMALS, tool_value(p, T_POTTERY_WHEELS))

# Farmers' Inn: turn up to rules.FARMERS_INN_FIELDS fields into forests (F_FARMERS_INN).
cdef void farmers_inn_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_FARMERS_INN, FARMERS_INN_N)

# Junk Dealer's Inn (after its goods): a peat boat or a handcart (F_JUNK).
cdef void junk_dealers_inn_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_JUNK, 0)

# Gulf House Inn: timber per stall pen (a double stall counts as two stalls:
# docs/rules-decisions.md), brick per stable.
cdef void gulf_house_inn_built(State* s, int pi, Player* p, int b) noexcept nogil:
    gain(p, G_TIMBER, GULF_TIMBER_N * stall_pens(p))
    gain(p, G_BRICK, GULF_BRICK_N * p.stables)

# Milk House Inn: cattle, then cut 1 peat per cattle.
cdef void milk_house_inn_built(State* s, int pi, Player* p, int b) noexcept nogil:
    p.animals[A_CATTLE] += MILK_HOUSE_CATTLE_N
    push_cut(s, pi, p.animals[A_CATTLE])
    check_housing(s, pi)

# Sluice Yard Inn (after its tool step): wood by the fish traps.
cdef void sluice_yard_inn_built(State* s, int pi, Player* p, int b) noexcept nogil:
    gain(p, G_WOOD, tool_value(p, T_FISH_TRAPS))

# Village Church: a carriage, if the supply and the barn have room.
cdef void village_church_built(State* s, int pi, Player* p, int b) noexcept nogil:
    if can_gain_piece(s, pi, V_CARRIAGE):
        add_piece(p, V_CARRIAGE)

# Lutetsburg Castle (after its tool steps): a forest, optional: it takes a land space (F_FOREST).
cdef void lutetsburg_castle_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_FOREST, 1)

# Berum Castle (after its tool steps): one flip (F_FLIP).
cdef void berum_castle_built(State* s, int pi, Player* p, int b) noexcept nogil:
    push_sub(s, pi, F_FLIP, 0)

cdef void building_row(int b, BuildingBuilt built) noexcept nogil:
    BUILT[b] = built

cdef void register_buildings() noexcept nogil:
    cdef int b
    for b in range(NBUILDINGS):
        BUILT[b] = table_parts_only      # the green buildings and any without a row below
    #            building               effect when built
    building_row(B_TURNERY,              turnery_built)
    building_row(B_SMOKEHOUSE,           smokehouse_built)
    building_row(B_SMITHY,               smithy_built)
    building_row(B_COOPERAGE,            cooperage_built)
    building_row(B_BAKEHOUSE,            bakehouse_built)
    building_row(B_MILL,                 mill_built)
    building_row(B_WEAVING_MILL,         table_parts_only)
    building_row(B_TEXTILE_HOUSE,        table_parts_only)
    building_row(B_SADDLERY,             saddlery_built)
    building_row(B_JOINERY,              joinery_built)
    building_row(B_WATERFRONT_HOUSE,     table_parts_only)
    building_row(B_POTTERS_INN,          potters_inn_built)
    building_row(B_FARMERS_INN,          farmers_inn_built)
    building_row(B_JUNK_DEALERS_INN,     junk_dealers_inn_built)
    building_row(B_GULF_HOUSE_INN,       gulf_house_inn_built)
    building_row(B_MILK_HOUSE_INN,       milk_house_inn_built)
    building_row(B_SLUICE_YARD_INN,      sluice_yard_inn_built)
    building_row(B_VILLAGE_CHURCH,       village_church_built)
    building_row(B_LUTETSBURG_CASTLE,    lutetsburg_castle_built)
    building_row(B_BERUM_CASTLE,         berum_castle_built)

register_buildings()

# ---- clock buildings (any time, as often as affordable: docs/rules-decisions.md) ----

cdef inline int holds(Player* p, int code, int n) noexcept nogil:
    """At least n of a good or (code >= GIVE_ANIMAL) an animal type."""
    if code >= GIVE_ANIMAL:
        return p.animals[code - GIVE_ANIMAL] >= n
    return p.goods[code] >= n

cdef int building_usable(State* s, int pi, int b) noexcept nogil:
    """pi owns clock building b and can pay one use (rules.BUILDING_USES: needs, then pays,
    exactly as named; an upgrade needs a stall and a stable left)."""
    cdef Player* p = &s.pl[pi]
    cdef int j
    if not owns(p, b) or not USE_DEFINED[b]:
        return 0
    for j in range(MAX_PARTS):
        if USE_NEED_CODE[b][j] >= 0 and not holds(p, USE_NEED_CODE[b][j], USE_NEED_N[b][j]):
            return 0
        if USE_PAY_GOOD[b][j] >= 0 and p.goods[USE_PAY_GOOD[b][j]] < USE_PAY_N[b][j]:
            return 0
    if USE_STALL_TO_STABLE[b] and not can_upgrade_stall(s, pi):
        return 0
    return 1

cdef int building_use_actions(State* s, int pi, int* out, int n) noexcept nogil:
    cdef int b
    cdef uint32_t clocks = s.pl[pi].buildings & CLOCK_BUILDINGS
    if clocks == 0:
        return n
    for b in range(NBUILDINGS):
        if (clocks >> b) == 0:
            break
        if (clocks >> b) & 1 and building_usable(s, pi, b):
            out[n] = ACT_USE + b
            n += 1
    return n

cdef void use_building(State* s, int pi, int b) noexcept nogil:
    """One use of clock or November building b (rules.BUILDING_USES): pay, take, build dikes,
    upgrade a stall; then the decisions it brings (cutting, fields, Master steps)."""
    cdef Player* p = &s.pl[pi]
    cdef int j
    for j in range(MAX_PARTS):
        if USE_PAY_GOOD[b][j] >= 0:
            p.goods[USE_PAY_GOOD[b][j]] -= USE_PAY_N[b][j]
    take_all(s, pi, USE_GAIN_CODE[b], USE_GAIN_N[b])
    if USE_DIKES[b] > 0:
        build_dikes(p, USE_DIKES[b])
    if USE_STALL_TO_STABLE[b]:
        upgrade_stall(s, pi)
    push_cut(s, pi, USE_CUT[b])
    if USE_FIELDS[b] > 0:
        push_sub(s, pi, F_FIELD, USE_FIELDS[b])
    push_master(s, pi, USE_MASTER[b])

# ---- light-green houses before each November ----

cdef int november_actions(State* s, int pi, int* out) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int n = 0, b
    out[n] = ACT_STOP
    n += 1
    for b in range(NBUILDINGS):
        if (NOVEMBER_HOUSES >> b) & 1 and owns(p, b) and not (p.november_used >> b) & 1:
            out[n] = ACT_USE + b
            n += 1
    return n

cdef void apply_november(State* s, Frame* f, int a) noexcept nogil:
    cdef int pi = f.player, b
    cdef Player* p = &s.pl[pi]
    if a == ACT_STOP:
        pop(s)
        return
    b = a - ACT_USE
    p.november_used |= <uint8_t>(1 << b)
    use_building(s, pi, b)

# ---- sub-decisions of buildings ----

cdef int building_frame_legal(State* s, Frame* f, int* out) noexcept nogil:
    """The choices of F_SMITHY, F_FARMERS_INN, F_BAKEHOUSE, F_JUNK."""
    cdef int pi = f.player, n = 0, t, what = action_of(f)
    cdef Player* p = &s.pl[pi]
    if what == F_SMITHY:
        n = add(out, n, ACT_STOP)
        if p.peat_boats > 0:
            n = add(out, n, ACT_VEHICLE + V_PEAT_BOAT)
        if pieces_left(s, V_PLOW) > 0:
            if unused_vehicle(p, V_HANDCART) >= 0:
                n = add(out, n, ACT_VEHICLE + V_HANDCART)
            if unused_vehicle(p, V_WAGON) >= 0:
                n = add(out, n, ACT_VEHICLE + V_WAGON)
        return n
    if what == F_FARMERS_INN:
        n = add(out, n, ACT_STOP)
        if fields_to_turn(f) > 0 and forests_left(s) > 0:
            if p.grain_fields > 0:
                n = add(out, n, ACT_TILE + TILE_GRAIN_FIELD)
            if p.flax_fields > 0:
                n = add(out, n, ACT_TILE + TILE_FLAX_FIELD)
        return n
    if what == F_BAKEHOUSE:
        n = add(out, n, ACT_STOP)
        if bakes_left(f) > 0:
            for t in range(MAX_PARTS):
                if BAKEHOUSE_PAY_GOOD[t] >= 0 and p.goods[BAKEHOUSE_PAY_GOOD[t]] < BAKEHOUSE_PAY_N[t]:
                    return n
            n = add(out, n, ACT_MORE)
        return n
    if what == F_JUNK:
        if can_gain_piece(s, pi, V_PEAT_BOAT):
            n = add(out, n, ACT_VEHICLE + V_PEAT_BOAT)
        if can_gain_piece(s, pi, V_HANDCART):
            n = add(out, n, ACT_VEHICLE + V_HANDCART)
        return n
    return 0

cdef void building_frame_apply(State* s, Frame* f, int a) noexcept nogil:
    """A choice of F_SMITHY .. F_JUNK other than STOP (the dispatch pops at STOP)."""
    cdef int pi = f.player, t, what = action_of(f)
    cdef Player* p = &s.pl[pi]
    if what == F_SMITHY:
        t = a - ACT_VEHICLE
        if t == V_PEAT_BOAT:
            p.peat_boats -= 1
        else:
            remove_vehicle_at(p, unused_vehicle(p, t))
        p.plows += 1
    elif what == F_FARMERS_INN:
        if a == ACT_TILE + TILE_GRAIN_FIELD:
            p.grain_fields -= 1
        else:
            p.flax_fields -= 1
        p.forests += 1
        turned_field(f)
    elif what == F_BAKEHOUSE:
        for t in range(MAX_PARTS):
            if BAKEHOUSE_PAY_GOOD[t] >= 0:
                p.goods[BAKEHOUSE_PAY_GOOD[t]] -= BAKEHOUSE_PAY_N[t]
        for t in range(MAX_PARTS):
            if BAKEHOUSE_GAIN_GOOD[t] >= 0:
                gain(p, BAKEHOUSE_GAIN_GOOD[t], BAKEHOUSE_GAIN_N[t])
        baked(f)
    elif what == F_JUNK:
        pop(s)
        add_piece(p, a - ACT_VEHICLE)
