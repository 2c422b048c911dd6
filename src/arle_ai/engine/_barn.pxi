# The barn: room for barn pieces, the vehicles' canonical order, gaining and buying pieces.
#
# Offers: barn_small, large_vehicles, barn_fits; canonical_mask, sort_vehicles; add_piece,
#   remove_vehicle_at, find_vehicle, unused_vehicle; can_gain_piece, can_buy_piece, buy_piece.
# Uses: _tables, _state, _data (BARN_*, VEH_*), _home (wood_like, pay_wood), _supply
#   (pieces_left, count_vehicles).
# Invariants: equipment (peat boats, plows) is counted, vehicles are listed in Player.veh
#   sorted by (kind, used) with each used mask in its canonical (mirror-least) form, so that
#   equal barns have equal bytes: every change of a vehicle ends with sort_vehicles. A piece
#   is gained only where can_gain_piece says the supply and the barn have room.

cdef inline int large_vehicles(Player* p) noexcept nogil:
    cdef int n = 0, i
    for i in range(p.nveh):
        if VEH_KIND[p.veh[i].kind] == VK_LARGE:
            n += 1
    return n


cdef inline int barn_small(Player* p) noexcept nogil:
    return p.peat_boats + p.plows + count_vehicles(p, V_HANDCART, V_WAGON)

cdef inline int barn_fits(Player* p, int kind) noexcept nogil:
    """A free barn space for one more piece: BARN_SMALL small + BARN_LARGE large + BARN_FLEX
    for either (core.md 5.2)."""
    cdef int small = barn_small(p), large = large_vehicles(p)
    if small + large + 1 > BARN_SMALL + BARN_LARGE + BARN_FLEX:
        return 0
    if VEH_KIND[kind] == VK_LARGE:
        return large + 1 <= BARN_LARGE + BARN_FLEX
    return small + 1 <= BARN_SMALL + BARN_FLEX

cdef inline int vehicle_mirror_symmetric(int kind) noexcept nogil:
    return kind != V_CARRIAGE

cdef inline int mirror_mask(int kind, int mask) noexcept nogil:
    cdef int n = VEH_NSPACES[kind], r = 0, i
    for i in range(n):
        if mask & (1 << i):
            r |= 1 << (n - 1 - i)
    return r

cdef inline int canonical_mask(int kind, int mask) noexcept nogil:
    cdef int m2
    if vehicle_mirror_symmetric(kind):
        m2 = mirror_mask(kind, mask)
        if m2 < mask:
            return m2
    return mask

cdef void sort_vehicles(Player* p) noexcept nogil:
    cdef int i, j
    cdef Vehicle t
    for i in range(p.nveh):
        p.veh[i].used = <int8_t>canonical_mask(p.veh[i].kind, p.veh[i].used)
    for i in range(1, p.nveh):
        t = p.veh[i]
        j = i - 1
        while j >= 0 and (p.veh[j].kind > t.kind or (p.veh[j].kind == t.kind and p.veh[j].used > t.used)):
            p.veh[j + 1] = p.veh[j]
            j -= 1
        p.veh[j + 1] = t

cdef void add_piece(Player* p, int kind) noexcept nogil:
    if kind == V_PEAT_BOAT:
        p.peat_boats += 1
    elif kind == V_PLOW:
        p.plows += 1
    elif p.nveh < MAXVEH:
        p.veh[p.nveh].kind = <int8_t>kind
        p.veh[p.nveh].used = 0
        p.nveh += 1
        sort_vehicles(p)

cdef void remove_vehicle_at(Player* p, int i) noexcept nogil:
    cdef int j
    for j in range(i, p.nveh - 1):
        p.veh[j] = p.veh[j + 1]
    p.nveh -= 1
    p.veh[p.nveh].kind = 0
    p.veh[p.nveh].used = 0

cdef inline int find_vehicle(Player* p, int kind) noexcept nogil:
    cdef int i
    for i in range(p.nveh):
        if p.veh[i].kind == kind:
            return i
    return -1

cdef int can_gain_piece(State* s, int pi, int kind) noexcept nogil:
    return pieces_left(s, kind) > 0 and barn_fits(&s.pl[pi], kind)

cdef int can_buy_piece(State* s, int pi, int kind, int animal) noexcept nogil:
    """Cost and room for a barn piece; for the plow `animal` is the cattle or horse paid."""
    cdef Player* p = &s.pl[pi]
    if not can_gain_piece(s, pi, kind):
        return 0
    if wood_like(p) < VEH_COST_WOOD[kind] or p.animals[A_HORSE] < VEH_COST_HORSE[kind]:
        return 0
    if VEH_COST_CATTLE_OR_HORSE[kind] > 0 and p.animals[animal] < VEH_COST_CATTLE_OR_HORSE[kind]:
        return 0
    return 1

cdef void buy_piece(State* s, int pi, int kind, int animal) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    pay_wood(p, VEH_COST_WOOD[kind])
    p.animals[A_HORSE] -= VEH_COST_HORSE[kind]
    if VEH_COST_CATTLE_OR_HORSE[kind] > 0:
        p.animals[animal] -= VEH_COST_CATTLE_OR_HORSE[kind]
    add_piece(p, kind)

cdef inline int unused_vehicle(Player* p, int kind) noexcept nogil:
    cdef int i
    for i in range(p.nveh):
        if p.veh[i].kind == kind and p.veh[i].used == 0:
            return i
    return -1
