# Loading vehicles (an anytime action of the work phase) and travel deliveries
# (core.md 5.4-5.6, 6; tiles.md 3.4, 6).
#
# Offers: load_actions, apply_load (the ACT_LOAD anytime actions); delivery_frame_legal and
#   delivery_frame_apply (F_DELIVER, and what a delivery hands over by choice: F_GIVE_ANIMALS,
#   F_GIVE_CLOTHING; dispatched from _engine.pxi).
# Uses: _tables, _state, _data (LOAD_*, DEST_*, DELIV_*, VEH_*), _frames (push_delivery, push_sub and the
#   accessors), _home, _barn (canonical_mask, sort_vehicles), _subdecisions
#   (give_animal_actions), _buildings (owns: the Loading Station).
# Invariants: a vehicle's used compartments and the loaded items take the same widths (the
#   position check holds a file to it); each printed delivery of a destination is made at
#   most once (deliveries_made).

cdef int fit_mask(int kind, int used, int start, int size) noexcept nogil:
    """The compartments an item of `size` takes from compartment `start` on, or 0 if it does
    not fit: a run of free compartments whose widths add up exactly to the size; runs of more
    than one compartment only on large vehicles (the bench takes no size-1 item)."""
    cdef int n = VEH_NSPACES[kind], k = start, total = 0, mask = 0, count = 0
    while k < n and total < size:
        if used & (1 << k):
            return 0
        total += VEH_WIDTH[kind][k]
        mask |= 1 << k
        count += 1
        k += 1
    if total != size:
        return 0
    if count > 1 and not VEH_COMBINABLE[kind]:
        return 0
    return mask

cdef inline int item_size(int item) noexcept nogil:
    if item >= ITEM_DEST:
        return DEST_SIZE[item - ITEM_DEST]
    return LOAD_SIZE[item]

cdef inline int load_good(int item) noexcept nogil:
    """The good a loadable item is (rules.LOAD_GOODS names goods)."""
    return LOAD_GOOD[item]

cdef int item_loadable(State* s, int pi, int item) noexcept nogil:
    """Whether pi has the item to load (and what loading it costs besides, rules.LOAD_EXTRA_COST);
    the Loading Station's peat comes from the general supply."""
    cdef Player* p = &s.pl[pi]
    cdef int d
    if item == ITEM_PEAT:
        return owns(p, B_LOADING_STATION)
    if item < ITEM_DEST:
        if p.goods[load_good(item)] <= 0:
            return 0
        return LOAD_EXTRA_GOOD[item] < 0 or p.goods[LOAD_EXTRA_GOOD[item]] >= LOAD_EXTRA_N[item]
    d = item - ITEM_DEST
    if (p.dest_done | p.dest_loaded) & (1 << d):
        return 0
    return any_delivery(s, pi, d)

cdef int load_actions(State* s, int pi, int* out, int n) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int item, j, k, m, size, seen, prev
    cdef int results[NCOMPARTMENTS]
    cdef int fits_size[MAX_ITEM_SIZE + 1]
    cdef int any_fit = 0
    for size in range(MAX_ITEM_SIZE + 1):
        fits_size[size] = 0
    for j in range(p.nveh):
        for k in range(VEH_NSPACES[p.veh[j].kind]):
            for size in range(1, MAX_ITEM_SIZE + 1):
                if not fits_size[size] and fit_mask(p.veh[j].kind, p.veh[j].used, k, size):
                    fits_size[size] = 1
                    any_fit = 1
    if not any_fit:
        return n
    for item in range(NLOAD_ITEMS):
        size = item_size(item)
        if not fits_size[size] or not item_loadable(s, pi, item):
            continue
        for j in range(p.nveh):
            # identical vehicles are one choice
            if j > 0 and p.veh[j].kind == p.veh[j - 1].kind and p.veh[j].used == p.veh[j - 1].used:
                continue
            seen = 0
            for k in range(VEH_NSPACES[p.veh[j].kind]):
                m = fit_mask(p.veh[j].kind, p.veh[j].used, k, size)
                if m == 0:
                    continue
                m = canonical_mask(p.veh[j].kind, p.veh[j].used | m)
                # mirror-image placements are one choice
                for prev in range(seen):
                    if results[prev] == m:
                        m = -1
                        break
                if m < 0:
                    continue
                results[seen] = m
                seen += 1
                out[n] = ACT_LOAD + (item * MAXVEH + j) * NCOMPARTMENTS + k
                n += 1
    return n

cdef void apply_load(State* s, int pi, int code) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int k = code % NCOMPARTMENTS
    cdef int j = (code // NCOMPARTMENTS) % MAXVEH
    cdef int item = code // (NCOMPARTMENTS * MAXVEH)
    cdef int m = fit_mask(p.veh[j].kind, p.veh[j].used, k, item_size(item))
    p.veh[j].used |= <int8_t>m
    sort_vehicles(p)
    if item < ITEM_DEST:
        if item != ITEM_PEAT:
            p.goods[load_good(item)] -= 1
            if LOAD_EXTRA_GOOD[item] >= 0:
                p.goods[LOAD_EXTRA_GOOD[item]] -= LOAD_EXTRA_N[item]
        p.loaded[item] += 1
    else:
        p.dest_loaded |= <int16_t>(1 << (item - ITEM_DEST))
        push_delivery(s, pi, item - ITEM_DEST)

# ---- deliveries (rules.DELIVERY_CHOICES; choice k of destination d is id d * NDELIVERY_IDS + k) ----
# Each choice hands over what DELIV_GIVE lists and pays DELIV_FOOD; a choice of the owner's
# (which animals, which clothing tile) follows as a decision. DELIV_SLOT is the printed delivery
# a choice makes: each is made at most once (Hage's two choices are one delivery).

cdef inline int moor_tiles(Player* p) noexcept nogil:
    return p.hydrated + dehydrated_count(p)

cdef inline int clothing_tiles(Player* p) noexcept nogil:
    return p.goods[G_SUMMER_WEAR] + p.goods[G_WINTER_WEAR] + p.goods[G_LEATHER_WEAR]

cdef inline int give_have(Player* p, int what) noexcept nogil:
    """How many of `what` (a GIVE_* code) pi could hand over."""
    if what < NGOODS:
        return p.goods[what]
    if what < GIVE_ANY_ANIMAL:
        return p.animals[what - GIVE_ANIMAL]
    if what == GIVE_ANY_ANIMAL:
        return animal_total(p)
    if what == GIVE_ANY_CLOTHING:
        return clothing_tiles(p)
    if what == GIVE_GRAIN_FIELD:
        return p.grain_fields
    if what == GIVE_FLAX_FIELD:
        return p.flax_fields
    if what == GIVE_PLOW:
        return p.plows
    if what == GIVE_PEAT_BOAT:
        return p.peat_boats
    return moor_tiles(p)

cdef int delivery_possible(State* s, int pi, int d, int k) noexcept nogil:
    """Whether pi can make delivery choice k of destination d now."""
    cdef Player* p = &s.pl[pi]
    cdef int j, what
    for j in range(MAX_GIVES):
        what = DELIV_GIVE[d][k][j]
        if what < 0:
            break
        if give_have(p, what) < DELIV_GIVE_N[d][k][j]:
            return 0
    return 1

cdef int any_delivery(State* s, int pi, int d) noexcept nogil:
    cdef int k
    for k in range(DELIV_IDS[d]):
        if delivery_possible(s, pi, d, k):
            return 1
    return 0

cdef int delivery_legal(State* s, Frame* f, int* out) noexcept nogil:
    """F_DELIVER (delivering_to, deliveries_made): STOP once one delivery is made, and
    the choices whose delivery is not made yet and that pi can pay."""
    cdef int d = delivering_to(f), k, n = 0
    if deliveries_made(f) != 0:
        n = add(out, n, ACT_STOP)
    for k in range(DELIV_IDS[d]):
        if (deliveries_made(f) >> DELIV_SLOT[d][k]) & 1:
            continue
        if delivery_possible(s, f.player, d, k):
            n = add(out, n, ACT_DELIVER + d * NDELIVERY_IDS + k)
    return n

cdef void discard_moor(Player* p) noexcept nogil:
    """Bremen: a hydrated moor goes first (it scores -4 and holds no peat), else the dehydrated
    moor with the least peat (docs/rules-decisions.md)."""
    cdef int i
    if p.hydrated > 0:
        p.hydrated -= 1
        p.moors_removed += 1
        return
    for i in range(MOOR_TILES - 1, -1, -1):
        if p.dehydrated[i] > 0:
            p.dehydrated[i] = 0
            p.moors_removed += 1
            sort_dehydrated(p)
            return

cdef void hand_over(State* s, int pi, int what, int n) noexcept nogil:
    """Hand over n of `what` (a GIVE_* code); the owner's choices are pushed as decisions."""
    cdef Player* p = &s.pl[pi]
    cdef int i
    if what < NGOODS:
        p.goods[what] -= n
    elif what < GIVE_ANY_ANIMAL:
        p.animals[what - GIVE_ANIMAL] -= n
    elif what == GIVE_ANY_ANIMAL:
        push_sub(s, pi, F_GIVE_ANIMALS, n)
    elif what == GIVE_ANY_CLOTHING:
        push_sub(s, pi, F_GIVE_CLOTHING, 0)
    elif what == GIVE_GRAIN_FIELD:
        p.grain_fields -= n
    elif what == GIVE_FLAX_FIELD:
        p.flax_fields -= n
    elif what == GIVE_PLOW:
        p.plows -= n
    elif what == GIVE_PEAT_BOAT:
        p.peat_boats -= n
    else:
        for i in range(n):
            discard_moor(p)

cdef inline int give_is_choice(int what) noexcept nogil:
    return what == GIVE_ANY_ANIMAL or what == GIVE_ANY_CLOTHING

cdef void delivery_apply(State* s, Frame* f, int a) noexcept nogil:
    cdef int pi = f.player, d, k, j, what
    if a == ACT_STOP:
        pop(s)
        return
    d = (a - ACT_DELIVER) // NDELIVERY_IDS
    k = (a - ACT_DELIVER) % NDELIVERY_IDS
    mark_delivered(f, DELIV_SLOT[d][k])
    # what is handed over, the food, then the owner's choices (pushed above this frame)
    for j in range(MAX_GIVES):
        what = DELIV_GIVE[d][k][j]
        if what >= 0 and not give_is_choice(what):
            hand_over(s, pi, what, DELIV_GIVE_N[d][k][j])
    if DELIV_FOOD[d][k] != 0:
        gain(&s.pl[pi], G_FOOD, DELIV_FOOD[d][k])
    if DEST_DELIVERIES[d] == 1:
        pop(s)          # the only delivery: nothing is left to choose
    for j in range(MAX_GIVES):
        what = DELIV_GIVE[d][k][j]
        if what >= 0 and give_is_choice(what):
            hand_over(s, pi, what, DELIV_GIVE_N[d][k][j])

# ---- the frames of a delivery ----

cdef int delivery_frame_legal(State* s, Frame* f, int* out) noexcept nogil:
    """The choices of F_DELIVER, F_GIVE_ANIMALS, F_GIVE_CLOTHING."""
    cdef int n = 0, t, what = action_of(f)
    cdef Player* p = &s.pl[f.player]
    if what == F_GIVE_ANIMALS:
        return give_animal_actions(p, animals_to_give(f), lowest_to_give(f), out, 0)
    if what == F_GIVE_CLOTHING:
        for t in range(G_SUMMER_WEAR, G_LEATHER_WEAR + 1):
            if p.goods[t] > 0:
                n = add(out, n, ACT_GOOD + t)
        return n
    return delivery_legal(s, f, out)

cdef void delivery_frame_apply(State* s, Frame* f, int a) noexcept nogil:
    """A choice of F_DELIVER, F_GIVE_ANIMALS, F_GIVE_CLOTHING other than STOP (the dispatch
    pops at STOP)."""
    cdef int t, what = action_of(f)
    cdef Player* p = &s.pl[f.player]
    if what == F_GIVE_ANIMALS:
        t = a - ACT_ANIMAL
        p.animals[t] -= 1
        gave_animal(f, t)
        if animals_to_give(f) <= 0:
            pop(s)
    elif what == F_GIVE_CLOTHING:
        pop(s)
        p.goods[a - ACT_GOOD] -= 1
    else:
        delivery_apply(s, f, a)
