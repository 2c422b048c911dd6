# The sub-decisions that action spaces and buildings share: cutting peat (F_CUT), a flip
# (F_FLIP), Master steps (F_MASTER), placing fields (F_FIELD) and a forest (F_FOREST), taking
# animals (F_ANIMALS); and the animals handed over in type order (feeding, deliveries).
#
# Offers: push_cut, push_master (a frame only when there is something to do); cut_actions,
#   flip_actions, apply_flip, tool_step_payable, give_animal_actions; subdecision_legal and
#   subdecision_apply (F_CUT .. F_ANIMALS, dispatched from _engine.pxi).
# Uses: _tables, _state, _data, _frames (their accessors), _home, _barn (find_vehicle,
#   sort_vehicles), _tiles.
# Invariants: choices are offered in increasing order (the frame keeps the lowest still
#   allowed), so each set of choices is reached by one sequence only; a frame is popped when
#   nothing is left to choose.

cdef int give_animal_actions(Player* p, int owed, int lowest, int* out, int n) noexcept nogil:
    """Animals to hand over, `owed` more in all, types in non-decreasing order (from `lowest`):
    a type is offered only if it and the types after it can still pay everything owed."""
    cdef int t, rest
    if owed <= 0:
        return n
    for t in range(lowest, 3):
        rest = 0
        for k in range(t, 3):
            rest += p.animals[k]
        if p.animals[t] > 0 and rest >= owed:
            out[n] = ACT_ANIMAL + t
            n += 1
    return n

cdef int cut_actions(Player* p, int* out, int n) noexcept nogil:
    cdef int k, i, seen
    if p.boardwalk > 0:
        out[n] = ACT_CUT + 0
        n += 1
    for k in range(1, MOOR_PEAT + 1):
        seen = 0
        for i in range(MOOR_TILES):
            if p.dehydrated[i] == k:
                seen = 1
        if seen:
            out[n] = ACT_CUT + k
            n += 1
    return n

cdef inline void push_cut(State* s, int pi, int cuts) noexcept nogil:
    """Cut `cuts` peat from pi's own moors (fewer if fewer lie there), the player choosing the
    tiles. Cutting is never worse than not cutting, so it is not optional (rules-decisions)."""
    if cuts > 0 and peat_on_moors(&s.pl[pi]) > 0:
        push_required_cuts(s, pi, cuts)

# ---- flipping (Warden, Dike Warden, Berum Castle; actions.md §8.5) ----

cdef int flip_actions(Player* p, int* out, int n) noexcept nogil:
    if p.hydrated > 0:
        out[n] = ACT_FLIP + FLIP_MOOR
        n += 1
    if p.forests > 0:
        out[n] = ACT_FLIP + FLIP_FOREST
        n += 1
    if p.stalls > 0:
        out[n] = ACT_FLIP + FLIP_STALL
        n += 1
    if p.stables > 0:
        out[n] = ACT_FLIP + FLIP_STABLE
        n += 1
    if p.peat_boats > 0:
        out[n] = ACT_FLIP + FLIP_PEAT_BOAT
        n += 1
    if find_vehicle(p, V_HANDCART) >= 0:
        out[n] = ACT_FLIP + FLIP_HANDCART
        n += 1
    if find_vehicle(p, V_CART) >= 0:
        out[n] = ACT_FLIP + FLIP_CART
        n += 1
    if find_vehicle(p, V_CARRIAGE) >= 0:
        out[n] = ACT_FLIP + FLIP_CARRIAGE
        n += 1
    return n

cdef void apply_flip(State* s, int pi, int target) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int i
    if target == FLIP_MOOR:
        dehydrate_moor(p)
    elif target == FLIP_FOREST:
        p.forests -= 1
        p.parks += 1
    elif target == FLIP_STALL:
        p.stalls -= 1
        p.depots += 1
        check_housing(s, pi)
    elif target == FLIP_STABLE:
        p.stables -= 1
        p.double_stalls += 1
    elif target == FLIP_PEAT_BOAT:
        p.peat_boats -= 1
        p.plows += 1
    else:
        # a vehicle keeps its cargo; the back side adds a compartment at the end (the emptiest
        # vehicle of that kind is flipped: docs/rules-decisions.md)
        if target == FLIP_HANDCART:
            i = find_vehicle(p, V_HANDCART)
        elif target == FLIP_CART:
            i = find_vehicle(p, V_CART)
        else:
            i = find_vehicle(p, V_CARRIAGE)
        if i >= 0:
            p.veh[i].kind += 1
            sort_vehicles(p)

# ---- Master steps ----

cdef inline int tool_step_payable(Player* p, int t) noexcept nogil:
    return not tool_at_end(p, t) and can_pay_good(p, TOOL_COST_GOOD[t], TOOL_COST_AMOUNT[t])

cdef inline void push_master(State* s, int pi, int moves) noexcept nogil:
    if moves > 0:
        push_sub(s, pi, F_MASTER, moves)

# ---- the frames ----

cdef int subdecision_legal(State* s, Frame* f, int* out) noexcept nogil:
    """The choices of F_CUT .. F_ANIMALS."""
    cdef int pi = f.player, n = 0, t, g, what = action_of(f)
    cdef Player* p = &s.pl[pi]
    if what == F_CUT:
        if cut_required(f) == 0:
            n = add(out, n, ACT_STOP)
        if cuts_left(f) > 0:
            n = cut_actions(p, out, n)
        return n
    if what == F_FLIP:
        return flip_actions(p, out, 0)
    if what == F_MASTER:
        n = add(out, n, ACT_STOP)
        if moves_left(f) > 0:
            for t in range(lowest_track(f), NTOOLS):
                if tool_step_payable(p, t):
                    n = add(out, n, ACT_TOOL + t)
        return n
    if what == F_FIELD:
        n = add(out, n, ACT_STOP)
        if fields_to_place(f) > 0 and can_place_field(s, pi):
            for g in range(lowest_side(f), 2):
                n = add(out, n, ACT_TILE + g)
        return n
    if what == F_FOREST:
        n = add(out, n, ACT_STOP)
        if forests_to_place(f) > 0 and can_place_forest(s, pi):
            n = add(out, n, ACT_TILE + TILE_FOREST)
        return n
    if what == F_ANIMALS:
        if animals_to_take(f) > 0:
            for t in range(lowest_to_take(f), 3):
                n = add(out, n, ACT_ANIMAL + t)
        return n
    return 0

cdef void subdecision_apply(State* s, Frame* f, int a) noexcept nogil:
    """A choice of F_CUT .. F_ANIMALS other than STOP (the dispatch pops at STOP)."""
    cdef int pi = f.player, t, what = action_of(f)
    cdef Player* p = &s.pl[pi]
    if what == F_CUT:
        cut_peat_from(p, a - ACT_CUT)
        cut_one(f)
        if cuts_left(f) <= 0 or peat_on_moors(p) == 0:
            pop(s)
        check_housing(s, pi)   # an emptied moor frees land: never fewer places, kept for safety
    elif what == F_FLIP:
        pop(s)
        apply_flip(s, pi, a - ACT_FLIP)
    elif what == F_MASTER:
        t = a - ACT_TOOL
        pay_good(p, TOOL_COST_GOOD[t], TOOL_COST_AMOUNT[t])
        p.tools[t] += 1
        moved_track(f, t)
    elif what == F_FIELD:
        placed_side(f, a - ACT_TILE)
        place_field(s, pi, a - ACT_TILE)
    elif what == F_FOREST:
        placed_forest_tile(f)
        place_forest(s, pi)
    elif what == F_ANIMALS:
        t = a - ACT_ANIMAL
        took_animal(f, t)
        if animals_to_take(f) <= 0:
            pop(s)
        gain_animal(s, pi, t, 1)
