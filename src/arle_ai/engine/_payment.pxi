# Paying for a building (tiles.md 2.2): its fixed part at once, then the choices of its
# "either" part and of the kinds of materials or clothing (F_PAY_BUILDING); then the building.
#
# Offers: building_payable, can_build, build_actions (the ACT_BUILD choices),
#   start_building_payment, pay_building_legal, pay_building_apply, gain_building.
# Uses: _tables, _state, _data (BCOST_*), _frames (push_payment and its accessors), _home,
#   _tiles (check_housing), _buildings (building_on_build: the effect of the building gained).
# Invariants: the parts of a cost never overlap, so paying the fixed part first never blocks
#   a choice; a building is offered only when some payment of it exists (building_payable),
#   so F_PAY_BUILDING always ends with the building gained.

cdef inline int is_material(int g) noexcept nogil:
    return G_WOOD <= g <= G_BRICK

cdef inline int is_clothing(int g) noexcept nogil:
    return G_SUMMER_WEAR <= g <= G_LEATHER_WEAR

cdef int kinds_with_goods(Player* p, int lo, int hi, int from_kind) noexcept nogil:
    cdef int n = 0, g
    for g in range(lo, hi + 1):
        if g >= from_kind and p.goods[g] > 0:
            n += 1
    return n

cdef int fixed_payable(Player* p, int b) noexcept nogil:
    cdef int j
    for j in range(3):
        if BCOST_FIXED_G[b][j] >= 0 and not can_pay_good(p, BCOST_FIXED_G[b][j], BCOST_FIXED_N[b][j]):
            return 0
    return 1

cdef int building_payable(Player* p, int b) noexcept nogil:
    """Whether some payment of building b's cost exists (the parts of each cost never overlap)."""
    cdef int j, ok
    if not fixed_payable(p, b):
        return 0
    if BCOST_EITHER_G[b][0] >= 0:
        ok = 0
        for j in range(2):
            if BCOST_EITHER_G[b][j] >= 0 and p.goods[BCOST_EITHER_G[b][j]] >= BCOST_EITHER_N[b][j]:
                ok = 1
        if not ok:
            return 0
    if BCOST_ANY_MATERIALS[b] > 0:
        if (p.goods[G_WOOD] + p.goods[G_TIMBER] + p.goods[G_CLAY] + p.goods[G_BRICK]) < BCOST_ANY_MATERIALS[b]:
            return 0
    if BCOST_DIFF_MATERIALS[b] > 0 and kinds_with_goods(p, G_WOOD, G_BRICK, 0) < BCOST_DIFF_MATERIALS[b]:
        return 0
    if BCOST_DIFF_CLOTHING[b] > 0 and kinds_with_goods(p, G_SUMMER_WEAR, G_LEATHER_WEAR, 0) < BCOST_DIFF_CLOTHING[b]:
        return 0
    return 1

cdef inline int can_build(State* s, int pi, int b) noexcept nogil:
    return (s.available & (<uint32_t>1 << b)) != 0 and land_free(&s.pl[pi]) > 0 and building_payable(&s.pl[pi], b)

cdef int build_actions(State* s, int pi, int* out, int n) noexcept nogil:
    cdef int b
    for b in range(NBUILDINGS):
        if can_build(s, pi, b):
            out[n] = ACT_BUILD + b
            n += 1
    return n

cdef void start_building_payment(State* s, int pi, int b) noexcept nogil:
    """Pay the fixed part now; the choices (either part, material or clothing kinds) follow."""
    cdef Player* p = &s.pl[pi]
    cdef int j
    for j in range(3):
        if BCOST_FIXED_G[b][j] >= 0:
            pay_good(p, BCOST_FIXED_G[b][j], BCOST_FIXED_N[b][j])
    push_payment(s, pi, b, BCOST_ANY_MATERIALS[b] + BCOST_DIFF_MATERIALS[b] + BCOST_DIFF_CLOTHING[b],
                 BCOST_EITHER_G[b][0] >= 0)
    if kinds_to_pick(top(s)) == 0 and either_paid(top(s)) == 1:
        pop(s)
        gain_building(s, pi, b)

cdef int pay_building_legal(State* s, Frame* f, int* out) noexcept nogil:
    cdef Player* p = &s.pl[f.player]
    cdef int b = paying_for(f), n = 0, j, g, lo, hi
    if either_paid(f) == 0:
        for j in range(2):
            g = BCOST_EITHER_G[b][j]
            if g >= 0 and p.goods[g] >= BCOST_EITHER_N[b][j]:
                out[n] = ACT_GOOD + g
                n += 1
        return n
    if BCOST_DIFF_CLOTHING[b] > 0:
        lo = G_SUMMER_WEAR
        hi = G_LEATHER_WEAR
    else:
        lo = G_WOOD
        hi = G_BRICK
    for g in range(lo, hi + 1):
        if p.goods[g] <= 0:
            continue
        if BCOST_ANY_MATERIALS[b] > 0:
            if g >= lowest_kind(f):
                out[n] = ACT_GOOD + g
                n += 1
        elif g >= lowest_kind(f) and kinds_with_goods(p, lo, hi, g + 1) >= kinds_to_pick(f) - 1:
            out[n] = ACT_GOOD + g
            n += 1
    return n

cdef void pay_building_apply(State* s, Frame* f, int a) noexcept nogil:
    cdef Player* p = &s.pl[f.player]
    cdef int b = paying_for(f), g = a - ACT_GOOD, pi = f.player, j
    if either_paid(f) == 0:
        for j in range(2):
            if BCOST_EITHER_G[b][j] == g:
                p.goods[g] -= BCOST_EITHER_N[b][j]
        set_either_paid(f)
    else:
        p.goods[g] -= 1
        # "any" materials may repeat a kind; "different" ones may not
        picked_kind(f, g if BCOST_ANY_MATERIALS[b] > 0 else g + 1)
    if either_paid(f) == 1 and kinds_to_pick(f) <= 0:
        pop(s)
        gain_building(s, pi, b)

cdef void gain_building(State* s, int pi, int b) noexcept nogil:
    """Put building b on pi's home board, then its one-off effect."""
    s.pl[pi].buildings |= <uint32_t>1 << b
    s.available &= ~(<uint32_t>1 << b)
    check_housing(s, pi)
    building_on_build(s, pi, b)
