# The general supply of shared tiles: what is left of each kind both players draw from.
#
# Offers: fields_left, forests_left, stalls_left, stables_left (home tiles, each counting its
#   front and back side); pieces_left (the barn tiles of a piece's kind: peat boat / plow,
#   handcart / wagon, cart / horse cart, carriage / droshky); count_vehicles.
# Uses: _tables (V_*), _state, _data (SUPPLY_*, VEH_FRONT).
# Invariants: nothing is stored: a count is the game's number (rules.SUPPLY) minus the tiles
#   on both home boards and in both barns, so it can never drift; a sound position never
#   has one below 0 (_position.pxi refuses it).

cdef inline int fields_left(State* s) noexcept nogil:
    return SUPPLY_FIELDS - (s.pl[0].grain_fields + s.pl[0].flax_fields + s.pl[1].grain_fields + s.pl[1].flax_fields)

cdef inline int forests_left(State* s) noexcept nogil:
    return SUPPLY_FOREST_PARK - (s.pl[0].forests + s.pl[0].parks + s.pl[1].forests + s.pl[1].parks)

cdef inline int stalls_left(State* s) noexcept nogil:
    return SUPPLY_STALL_DEPOT - (s.pl[0].stalls + s.pl[0].depots + s.pl[1].stalls + s.pl[1].depots)

cdef inline int stables_left(State* s) noexcept nogil:
    return SUPPLY_STABLE_DOUBLE - (s.pl[0].stables + s.pl[0].double_stalls + s.pl[1].stables + s.pl[1].double_stalls)

cdef inline int count_vehicles(Player* p, int k1, int k2) noexcept nogil:
    cdef int n = 0, i
    for i in range(p.nveh):
        if p.veh[i].kind == k1 or p.veh[i].kind == k2:
            n += 1
    return n

cdef int pieces_left(State* s, int kind) noexcept nogil:
    """Tiles left in the supply for the tile type of barn piece `kind`."""
    cdef int front = VEH_FRONT[kind]
    if front == V_PEAT_BOAT:
        return SUPPLY_BOAT_PLOW - (s.pl[0].peat_boats + s.pl[0].plows + s.pl[1].peat_boats + s.pl[1].plows)
    if front == V_HANDCART:
        return SUPPLY_HANDCART_WAGON - count_vehicles(&s.pl[0], V_HANDCART, V_WAGON) - count_vehicles(&s.pl[1], V_HANDCART, V_WAGON)
    if front == V_CART:
        return SUPPLY_CART_PAIR - count_vehicles(&s.pl[0], V_CART, V_HORSE_CART) - count_vehicles(&s.pl[1], V_CART, V_HORSE_CART)
    return SUPPLY_CARRIAGE_PAIR - count_vehicles(&s.pl[0], V_CARRIAGE, V_DROSHKY) - count_vehicles(&s.pl[1], V_CARRIAGE, V_DROSHKY)
