# Home tiles and animals at the state level: fields, forests, stalls and stables taken from the
# supply, animals taken, a gains table's row; the discard decision when animals no longer fit.
#
# Offers: check_housing; can_place_field, place_field, can_place_forest, place_forest,
#   can_build_stall, build_stall, can_upgrade_stall, upgrade_stall; gain_animal; take_all.
# Uses: _tables, _state, _data (STALL_COST_*, GIVE_ANIMAL), _frames (push_plain), _home (gain,
#   land, housing, pay_good), _supply.
# Invariants: every change that can leave a player's animals without room (a tile on a free
#   land space, animals gained) ends with check_housing, which pushes K_DISCARD on top.

cdef inline void check_housing(State* s, int p) noexcept nogil:
    """Push a discard decision when player p's animals no longer fit."""
    if not housable(&s.pl[p]):
        push_plain(s, K_DISCARD, p)

cdef inline void place_field(State* s, int pi, int side) noexcept nogil:
    if side == TILE_GRAIN_FIELD:
        s.pl[pi].grain_fields += 1
    else:
        s.pl[pi].flax_fields += 1
    check_housing(s, pi)

cdef inline int can_place_field(State* s, int pi) noexcept nogil:
    return land_free(&s.pl[pi]) > 0 and fields_left(s) > 0

cdef inline int can_place_forest(State* s, int pi) noexcept nogil:
    return land_free(&s.pl[pi]) > 0 and forests_left(s) > 0

cdef inline void place_forest(State* s, int pi) noexcept nogil:
    s.pl[pi].forests += 1
    check_housing(s, pi)

cdef inline int can_build_stall(State* s, int pi) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int j
    if land_free(p) <= 0 or stalls_left(s) <= 0:
        return 0
    for j in range(MAX_PARTS):
        if STALL_COST_GOOD[j] >= 0 and not can_pay_good(p, STALL_COST_GOOD[j], STALL_COST_N[j]):
            return 0
    return 1

cdef inline void build_stall(State* s, int pi) noexcept nogil:
    """rules.STALL_COST (timber / brick may pay wood / clay), then the stall."""
    cdef Player* p = &s.pl[pi]
    cdef int j
    for j in range(MAX_PARTS):
        if STALL_COST_GOOD[j] >= 0:
            pay_good(p, STALL_COST_GOOD[j], STALL_COST_N[j])
    p.stalls += 1
    check_housing(s, pi)

cdef inline int can_upgrade_stall(State* s, int pi) noexcept nogil:
    return s.pl[pi].stalls > 0 and stables_left(s) > 0

cdef inline void upgrade_stall(State* s, int pi) noexcept nogil:
    """A stable replaces a stall on its space; the stall tile returns to the supply."""
    s.pl[pi].stalls -= 1
    s.pl[pi].stables += 1

cdef inline void gain_animal(State* s, int pi, int t, int n) noexcept nogil:
    s.pl[pi].animals[t] += n
    check_housing(s, pi)

cdef inline void take_all(State* s, int pi, int8_t* codes, int8_t* counts) noexcept nogil:
    """Take a row of a gains table (_data.pxi): goods, or animals (housed or discarded)."""
    cdef int j, code
    for j in range(MAX_PARTS):
        code = codes[j]
        if code < 0:
            continue
        if code < NGOODS:
            gain(&s.pl[pi], code, counts[j])
        else:
            gain_animal(s, pi, code - GIVE_ANIMAL, counts[j])
