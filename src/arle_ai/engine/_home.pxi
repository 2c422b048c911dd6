# A player's home board: goods with caps and substitutions, tools, land, dikes, moors, animal
# housing and breeding. Everything here reads or changes one Player.
#
# Offers: good_cap, gain, add_bottlenecks, wood_like, clay_like, pay_wood, pay_clay,
#   can_pay_good, pay_good; tool_value, tool_at_end, advance_tool_free, dike_value;
#   popcount32, land_total, land_occupied, land_free, build_dikes, dehydrated_count,
#   sort_dehydrated, dehydrate_moor, peat_on_moors, cut_peat_from; stall_pens, flex_places,
#   housable_counts, housable, animal_total; BreedPlans, breed_plans.
# Uses: _tables, _state, _data.
# Invariants: goods stay within their caps (gain clips) and at most GOODS_MAX; the dehydrated
#   moors stay sorted descending; a player's animals are kept as totals per type, housable
#   when some arrangement houses them all (the discard decision restores that: _tiles.pxi).

cdef inline int good_cap(int g) noexcept nogil:
    """The goods track holds 15 of each good (food: 30 over two indicators); others: no cap."""
    return GOOD_CAP[g]

cdef inline void gain(Player* p, int g, int n) noexcept nogil:
    """Add n of good g; the goods track caps clip the gain, and GOODS_MAX the others (the
    bound a position is validated against; real games stay far below it)."""
    cdef int v = p.goods[g] + n
    cdef int cap = good_cap(g)
    if v > cap:
        v = cap
    p.goods[g] = <int16_t>v

cdef inline void add_bottlenecks(Player* p, int n) noexcept nogil:
    """Suffer n supply bottlenecks; the count stops at BOTTLENECKS_MAX, the bound a position
    is validated against (real games stay far below it)."""
    cdef int v = p.bottlenecks + n
    p.bottlenecks = <int8_t>(v if v < BOTTLENECKS_MAX else BOTTLENECKS_MAX)

cdef inline int wood_like(Player* p) noexcept nogil:
    return p.goods[G_WOOD] + p.goods[G_TIMBER]

cdef inline int clay_like(Player* p) noexcept nogil:
    return p.goods[G_CLAY] + p.goods[G_BRICK]

cdef inline void pay_wood(Player* p, int n) noexcept nogil:
    """Pay n wood, wood first, then timber (never worse: timber does all wood does and scores)."""
    cdef int w = p.goods[G_WOOD]
    if w >= n:
        p.goods[G_WOOD] = <int16_t>(w - n)
    else:
        p.goods[G_WOOD] = 0
        p.goods[G_TIMBER] = <int16_t>(p.goods[G_TIMBER] - (n - w))

cdef inline void pay_clay(Player* p, int n) noexcept nogil:
    """Pay n clay, clay first, then brick."""
    cdef int c = p.goods[G_CLAY]
    if c >= n:
        p.goods[G_CLAY] = <int16_t>(c - n)
    else:
        p.goods[G_CLAY] = 0
        p.goods[G_BRICK] = <int16_t>(p.goods[G_BRICK] - (n - c))

cdef inline int can_pay_good(Player* p, int g, int n) noexcept nogil:
    """Whether n of g can be paid, with timber for wood and brick for clay."""
    if g == G_WOOD:
        return wood_like(p) >= n
    if g == G_CLAY:
        return clay_like(p) >= n
    return p.goods[g] >= n

cdef inline void pay_good(Player* p, int g, int n) noexcept nogil:
    if g == G_WOOD:
        pay_wood(p, n)
    elif g == G_CLAY:
        pay_clay(p, n)
    else:
        p.goods[g] = <int16_t>(p.goods[g] - n)

# ---- tools ----

cdef inline int tool_value(Player* p, int t) noexcept nogil:
    return TOOL_VALUE[t][p.tools[t]]

cdef inline int tool_at_end(Player* p, int t) noexcept nogil:
    return p.tools[t] >= TOOL_LEN[t] - 1

cdef inline void advance_tool_free(Player* p, int t, int steps) noexcept nogil:
    cdef int v = p.tools[t] + steps
    if v > TOOL_LEN[t] - 1:
        v = TOOL_LEN[t] - 1
    p.tools[t] = <int8_t>v

cdef inline int dike_value(Player* p) noexcept nogil:
    return DIKE_VALUE[p.tools[T_SHOVELS]]

# ---- land ----

cdef inline int popcount32(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n

cdef inline int dehydrated_count(Player* p) noexcept nogil:
    cdef int n = 0, i
    for i in range(MOOR_TILES):
        if p.dehydrated[i] > 0:
            n += 1
    return n

cdef inline int land_total(Player* p) noexcept nogil:
    """Land spaces: the starting ones (the boardwalk stands on one) and those of the opened
    tidal rows (LAND_BY_DIKES, from rules.START_LAND, TIDAL_ROW_LAND, TIDAL_ROWS_OPEN_AT), and
    rules.MOOR_LAND per moor tile removed."""
    return LAND_BY_DIKES[p.dikes] + MOOR_LAND_N * p.moors_removed

cdef inline int land_occupied(Player* p) noexcept nogil:
    return (p.grain_fields + p.flax_fields + p.forests + p.parks + p.stalls + p.depots + p.stables
            + p.double_stalls + popcount32(p.buildings) + (1 if p.boardwalk > 0 else 0))

cdef inline int land_free(Player* p) noexcept nogil:
    return land_total(p) - land_occupied(p)

cdef inline void build_dikes(Player* p, int n) noexcept nogil:
    """Move the lowest dike up n times; steps past rules.DIKE_STEPS_MAX are lost."""
    cdef int v = p.dikes + n
    if v > DIKE_STEPS_N:
        v = DIKE_STEPS_N
    p.dikes = <int8_t>v

cdef inline void sort_dehydrated(Player* p) noexcept nogil:
    cdef int i, j
    cdef int8_t t
    for i in range(MOOR_TILES):
        for j in range(MOOR_TILES - 1 - i):
            if p.dehydrated[j] < p.dehydrated[j + 1]:
                t = p.dehydrated[j]
                p.dehydrated[j] = p.dehydrated[j + 1]
                p.dehydrated[j + 1] = t

cdef inline int dehydrate_moor(Player* p) noexcept nogil:
    """Flip a hydrated moor and put MOOR_PEAT peat on it; 0 if none is left."""
    cdef int i
    if p.hydrated <= 0:
        return 0
    for i in range(MOOR_TILES):
        if p.dehydrated[i] == 0:
            p.hydrated -= 1
            p.dehydrated[i] = MOOR_PEAT
            sort_dehydrated(p)
            return 1
    return 0

cdef inline int peat_on_moors(Player* p) noexcept nogil:
    return p.dehydrated[0] + p.dehydrated[1] + p.dehydrated[2] + p.boardwalk

cdef inline int cut_peat_from(Player* p, int source) noexcept nogil:
    """Cut one peat piece, taking PEAT_PER_CUT peat. source 1..4: a dehydrated moor holding that
    many pieces; 0: the boardwalk. An emptied tile is removed and its spaces become land.
    Returns 0 if impossible."""
    cdef int i
    if source == 0:
        if p.boardwalk <= 0:
            return 0
        p.boardwalk -= 1
        gain(p, G_PEAT, PEAT_PER_CUT_N)
        return 1
    for i in range(MOOR_TILES):
        if p.dehydrated[i] == source:
            p.dehydrated[i] -= 1
            if p.dehydrated[i] == 0:
                p.moors_removed += 1
            sort_dehydrated(p)
            gain(p, G_PEAT, PEAT_PER_CUT_N)
            return 1
    return 0

# ---- animal housing ----
# Animals may be rearranged at any time, so only the totals per type are kept; a position is
# legal when some arrangement houses them all (core.md 3.2):
#   stall 3 of one type, stable 6 of one type, double stall 2 pens of 3 (DOUBLE_STALL_PENS),
#   park 2 of any types,
#   empty land space 2 of one type, each of the 5 dikes 1 animal (rules.STALL_PEN, STABLE_PEN,
#   PARK_PLACES, LAND_PEN, DIKES, DIKE_PLACES; land pens of 2 are built into the search below).

cdef inline int stall_pens(Player* p) noexcept nogil:
    """Stall pens: each stall one, each double stall rules.DOUBLE_STALL_PENS."""
    return p.stalls + DOUBLE_STALL_PENS_N * p.double_stalls

cdef inline int flex_places(Player* p) noexcept nogil:
    return DIKE_PLACES_N + PARK_PLACES_N * p.parks

cdef int housable_counts(int n0, int n1, int n2, int pens3, int pens6, int land, int flex) noexcept nogil:
    """Whether (n0, n1, n2) animals fit into pens3 stall pens (STALL_PEN each), pens6 stables
    (STABLE_PEN), land pens of 2 (each pen one type) and flex places of any type."""
    cdef int total = n0 + n1 + n2
    cdef int c3 = STALL_PEN_N, c6 = STABLE_PEN_N
    if total <= flex:
        return 1
    if total > flex + c3 * pens3 + c6 * pens6 + 2 * land:
        return 0
    cdef int a6, b6, a3, b3, r0, r1, r2, pens_needed, odd, save, f
    for a6 in range(pens6 + 1):
        for b6 in range(pens6 - a6 + 1):
            for a3 in range(pens3 + 1):
                for b3 in range(pens3 - a3 + 1):
                    r0 = n0 - c6 * a6 - c3 * a3
                    r1 = n1 - c6 * b6 - c3 * b3
                    r2 = n2 - c6 * (pens6 - a6 - b6) - c3 * (pens3 - a3 - b3)
                    if r0 < 0:
                        r0 = 0
                    if r1 < 0:
                        r1 = 0
                    if r2 < 0:
                        r2 = 0
                    if r0 + r1 + r2 <= flex:
                        return 1
                    # land pens of 2: flex first covers odd remainders (1 place saves a pen),
                    # then 2 flex places save a pen
                    pens_needed = (r0 + 1) // 2 + (r1 + 1) // 2 + (r2 + 1) // 2
                    odd = (r0 & 1) + (r1 & 1) + (r2 & 1)
                    f = flex
                    save = odd if odd < f else f
                    f -= save
                    save += f // 2
                    if pens_needed - save <= land:
                        return 1
    return 0

cdef inline int housable(Player* p) noexcept nogil:
    return housable_counts(p.animals[A_SHEEP], p.animals[A_CATTLE], p.animals[A_HORSE],
                           stall_pens(p), p.stables, land_free(p), flex_places(p))

cdef inline int animal_total(Player* p) noexcept nogil:
    return p.animals[A_SHEEP] + p.animals[A_CATTLE] + p.animals[A_HORSE]

# ---- breeding (May) ----
# The owner arranges the animals before breeding; what can be chosen is the vector of newborns.
# The engine offers the Pareto-maximal vectors (more newborns of a type never hurt: they always
# fit, and every later rule is monotone in animals). A plan puts exactly STALL_BREED_AT of a type
# in a stall pen (+STALL_BREED_N; rules.STALL_BREEDING: 2 -> +1), STABLE_ONE_MIN..STABLE_ONE_MAX
# in a stable (+1) or STABLE_MORE_AT in a stable (+STABLE_MORE_N; rules.STABLE_BREEDING: 2..5 -> +1,
# 4 -> +2); the rest must be housable in the pens left. Counting a plan whose leftover arrangement
# would breed more is harmless: that larger vector is achievable too and dominates it
# (docs/rules-decisions.md).

ctypedef struct BreedPlans:
    int n
    int8_t v[MAX_BREED_PLANS][3]

cdef inline int _dominates(int8_t* a, int8_t* b) noexcept nogil:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] >= b[2]

cdef void _add_plan(BreedPlans* out, int x0, int x1, int x2) noexcept nogil:
    cdef int8_t v[3]
    cdef int i, j
    v[0] = <int8_t>x0
    v[1] = <int8_t>x1
    v[2] = <int8_t>x2
    for i in range(out.n):
        if _dominates(out.v[i], v):
            return
    j = 0
    for i in range(out.n):
        if not _dominates(v, out.v[i]):
            out.v[j][0] = out.v[i][0]
            out.v[j][1] = out.v[i][1]
            out.v[j][2] = out.v[i][2]
            j += 1
    out.n = j
    if out.n < MAX_BREED_PLANS:
        out.v[out.n][0] = v[0]
        out.v[out.n][1] = v[1]
        out.v[out.n][2] = v[2]
        out.n += 1

cdef void _breed_stables(Player* p, int k, int nst, int* st1, int* st2, BreedPlans* out) noexcept nogil:
    """Enumerate stable uses (k-th stable onward): none, +1 of a type (STABLE_ONE_MIN..
    STABLE_ONE_MAX animals), +STABLE_MORE_N (STABLE_MORE_AT animals; none when it is -1)."""
    cdef int t, pens3, a0, a1, a2, free3, i, need
    cdef int n[NANIMALS]    # the animals of each type
    cdef int r[NANIMALS]    # of those, the ones left to house after breeding
    cdef int c2 = STALL_BREED_AT, lo = STABLE_ONE_MIN, hi = STABLE_ONE_MAX, c4 = STABLE_MORE_AT
    if k < nst:
        _breed_stables(p, k + 1, nst, st1, st2, out)
        for t in range(3):
            st1[t] += 1
            _breed_stables(p, k + 1, nst, st1, st2, out)
            st1[t] -= 1
            if c4 >= 0:
                st2[t] += 1
                _breed_stables(p, k + 1, nst, st1, st2, out)
                st2[t] -= 1
        return
    # all stables assigned: enumerate breeding stall pens per type
    pens3 = stall_pens(p)
    for i in range(3):
        n[i] = p.animals[i]
        need = lo * st1[i] + c4 * st2[i]
        if need > n[i]:
            return
    cdef int used6 = st1[0] + st1[1] + st1[2] + st2[0] + st2[1] + st2[2]
    for a0 in range(pens3 + 1):
        if c2 * a0 + lo * st1[0] + c4 * st2[0] > n[0]:
            break
        for a1 in range(pens3 - a0 + 1):
            if c2 * a1 + lo * st1[1] + c4 * st2[1] > n[1]:
                break
            for a2 in range(pens3 - a0 - a1 + 1):
                if c2 * a2 + lo * st1[2] + c4 * st2[2] > n[2]:
                    break
                free3 = pens3 - a0 - a1 - a2
                # a +1 stable absorbs up to STABLE_ONE_MAX of its type
                r[0] = n[0] - c2 * a0 - c4 * st2[0] - hi * st1[0]
                r[1] = n[1] - c2 * a1 - c4 * st2[1] - hi * st1[1]
                r[2] = n[2] - c2 * a2 - c4 * st2[2] - hi * st1[2]
                for i in range(3):
                    if r[i] < 0:
                        r[i] = 0
                if housable_counts(r[0], r[1], r[2], free3, nst - used6, land_free(p), flex_places(p)):
                    _add_plan(out, STALL_BREED_N * a0 + st1[0] + STABLE_MORE_N * st2[0],
                              STALL_BREED_N * a1 + st1[1] + STABLE_MORE_N * st2[1],
                              STALL_BREED_N * a2 + st1[2] + STABLE_MORE_N * st2[2])

cdef inline int _lex_less(int8_t* a, int8_t* b) noexcept nogil:
    cdef int i
    for i in range(3):
        if a[i] != b[i]:
            return a[i] < b[i]
    return 0

cdef void breed_plans(Player* p, BreedPlans* out) noexcept nogil:
    """The Pareto-maximal newborn vectors, sorted descending lexicographically."""
    cdef int st1[3]
    cdef int st2[3]
    cdef int i, j, k
    cdef int8_t t
    out.n = 0
    for i in range(3):
        st1[i] = 0
        st2[i] = 0
    _breed_stables(p, 0, p.stables, st1, st2, out)
    # sort for a stable order of the choice ids
    for i in range(out.n):
        for j in range(out.n - 1 - i):
            if _lex_less(out.v[j], out.v[j + 1]):
                for k in range(3):
                    t = out.v[j][k]
                    out.v[j][k] = out.v[j + 1][k]
                    out.v[j + 1][k] = t
