# Final scoring, in half points (timber and two clothing tiles score halves).
#
# Offers: score_parts (the eight categories SC_*, named by SCORE_CATEGORIES), score_half,
#   winner_of.
# Uses: _tables, _state, _data (the VP tables), _home (dehydrated_count), _barn (large_vehicles),
#   _engine (next_start_player: the tie-break).
# Invariants: scores are in half points, so they are exact integers; the categories add up to
#   the score.

cdef enum:
    SC_CLOTHING = 0
    SC_BARN = 1
    SC_TRAVEL = 2
    SC_TOOLS = 3
    SC_GOODS = 4
    SC_HOME = 5
    SC_ANIMALS = 6
    SC_BOTTLENECKS = 7
    NSCORE = 8

SCORE_CATEGORIES = ("clothing_and_materials", "barn", "travel", "tools", "goods_track",
                    "home_board", "animals", "bottlenecks")

cdef inline int track_vp(int v) noexcept nogil:
    if v > NTRACK - 1:
        v = NTRACK - 1
    if v < 0:
        v = 0
    return GOODS_TRACK_VP[v]

cdef int food_vp(int food) noexcept nogil:
    """Best split of the food over the two food indicators (core.md 8.5)."""
    cdef int best = 0, x, v
    for x in range(NTRACK):
        if 0 <= food - x <= NTRACK - 1:
            v = track_vp(x) + track_vp(food - x)
            if v > best:
                best = v
    return best

cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil

cdef inline int tidal_penalty(Player* p) noexcept nogil:
    """rules.TIDAL_GAP_VP per empty gap of the top dike row G0 (reading (a) of core.md 8.5)."""
    return TIDAL_VP_BY_DIKES[p.dikes]

cdef void score_parts(Player* p, int* out) noexcept nogil:
    """The eight scoring categories of player p, in half points."""
    cdef int g, i, v, t, a0, a1, a2
    cdef uint32_t bits
    v = 0
    for g in range(NGOODS):
        v += HALF_VP[g] * p.goods[g]
    out[SC_CLOTHING] = v
    v = VEH_VP[V_PEAT_BOAT] * p.peat_boats + VEH_VP[V_PLOW] * p.plows
    for i in range(p.nveh):
        v += VEH_VP[p.veh[i].kind]
    if large_vehicles(p) == 0:
        v += BARN_PENALTY_VP
    out[SC_BARN] = 2 * v
    t = p.travel if p.travel < NTRAVEL - 1 else NTRAVEL - 1
    out[SC_TRAVEL] = 2 * TRAVEL_VP[t]
    v = 0
    for i in range(NTOOLS):
        v += TOOL_VP[i][p.tools[i]]
    out[SC_TOOLS] = 2 * v
    v = food_vp(p.goods[G_FOOD])
    for g in range(1, NTRACK_GOODS):
        v += track_vp(p.goods[g])
    if p.depots > 0:
        v *= 2
    out[SC_GOODS] = 2 * v
    v = 0
    bits = p.buildings
    while bits:
        v += BUILDING_VP[__builtin_ctz(bits)]
        bits &= bits - 1
    v += (HOME_VP_STALL * p.stalls + HOME_VP_DEPOT * p.depots + HOME_VP_STABLE * p.stables
          + HOME_VP_DOUBLE_STALL * p.double_stalls + HOME_VP_FOREST * p.forests + HOME_VP_PARK * p.parks)
    v += HOME_VP_HYDRATED * p.hydrated + HOME_VP_DEHYDRATED * dehydrated_count(p)
    if p.boardwalk > 0:
        v += HOME_VP_BOARDWALK
    v += tidal_penalty(p)
    out[SC_HOME] = 2 * v
    a0 = p.animals[A_SHEEP]
    a1 = p.animals[A_CATTLE]
    a2 = p.animals[A_HORSE]
    # sort ascending: the least kept type scores ANIMAL_VP_BY_RANK[0] each, and so on
    if a0 > a1:
        a0, a1 = a1, a0
    if a1 > a2:
        a1, a2 = a2, a1
    if a0 > a1:
        a0, a1 = a1, a0
    out[SC_ANIMALS] = 2 * (ANIMAL_VP_BY_RANK[0] * a0 + ANIMAL_VP_BY_RANK[1] * a1
                           + ANIMAL_VP_BY_RANK[2] * a2)
    out[SC_BOTTLENECKS] = 2 * BOTTLENECK_VP * p.bottlenecks

cdef int score_half(Player* p) noexcept nogil:
    cdef int parts[NSCORE]
    cdef int i, v = 0
    score_parts(p, parts)
    for i in range(NSCORE):
        v += parts[i]
    return v

cdef int winner_of(State* s) noexcept nogil:
    """Higher score wins; a tie goes to the would-be starting player of a 10th half-year."""
    cdef int a = score_half(&s.pl[0]), b = score_half(&s.pl[1])
    if a > b:
        return 0
    if b > a:
        return 1
    return next_start_player(s)
