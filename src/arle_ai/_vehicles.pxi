# Loading vehicles (an anytime action of the work phase) and travel deliveries
# (core.md 5.4-5.6, 6; tiles.md 3.4, 6).

cdef enum:
    ITEM_WOOD = 0
    ITEM_CLAY = 1
    ITEM_LINEN = 2
    ITEM_WOOLEN = 3
    ITEM_LEATHER = 4
    ITEM_PEAT = 5           # Loading Station: peat from the general supply
    ITEM_DEST = 6           # + destination

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

cdef int item_loadable(State* s, int pi, int item) noexcept nogil:
    """Whether pi has the item to load (and for clay the peat it costs)."""
    cdef Player* p = &s.pl[pi]
    cdef int d
    if item == ITEM_WOOD:
        return p.goods[G_WOOD] > 0
    if item == ITEM_CLAY:
        return p.goods[G_CLAY] > 0 and p.goods[G_PEAT] > 0
    if item == ITEM_LINEN:
        return p.goods[G_LINEN] > 0
    if item == ITEM_WOOLEN:
        return p.goods[G_WOOLEN] > 0
    if item == ITEM_LEATHER:
        return p.goods[G_LEATHER] > 0
    if item == ITEM_PEAT:
        return owns(p, B_LOADING_STATION)
    d = item - ITEM_DEST
    if (p.dest_done | p.dest_loaded) & (1 << d):
        return 0
    return any_delivery(s, pi, d)

cdef int load_actions(State* s, int pi, int* out, int n) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int item, j, k, m, size, seen, prev
    cdef int results[4]
    cdef int fits_size[5]
    cdef int any_fit = 0
    for size in range(5):
        fits_size[size] = 0
    for j in range(p.nveh):
        for k in range(VEH_NSPACES[p.veh[j].kind]):
            for size in range(1, 5):
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
                out[n] = ACT_LOAD + (item * MAXVEH + j) * 4 + k
                n += 1
    return n

cdef void apply_load(State* s, int pi, int code) noexcept nogil:
    cdef Player* p = &s.pl[pi]
    cdef int k = code % 4
    cdef int j = (code // 4) % MAXVEH
    cdef int item = code // (4 * MAXVEH)
    cdef int m = fit_mask(p.veh[j].kind, p.veh[j].used, k, item_size(item))
    p.veh[j].used |= <int8_t>m
    sort_vehicles(p)
    if item == ITEM_WOOD:
        p.goods[G_WOOD] -= 1
    elif item == ITEM_CLAY:
        p.goods[G_CLAY] -= 1
        p.goods[G_PEAT] -= 1
    elif item == ITEM_LINEN:
        p.goods[G_LINEN] -= 1
    elif item == ITEM_WOOLEN:
        p.goods[G_WOOLEN] -= 1
    elif item == ITEM_LEATHER:
        p.goods[G_LEATHER] -= 1
    if item < ITEM_DEST:
        p.loaded[item] += 1
    else:
        p.dest_loaded |= <int16_t>(1 << (item - ITEM_DEST))
        push(s, K_ACTION, pi, F_DELIVER, 0, item - ITEM_DEST, 0)

# ---- deliveries (rules.DESTINATIONS order; delivery k of destination d is id d * 5 + k) ----

cdef enum:
    D_HAGE = 0
    D_BEEMOOR = 1
    D_DORNUM = 2
    D_NORDEN = 3
    D_AURICH = 4
    D_ESENS = 5
    D_EMDEN = 6
    D_LEER = 7
    D_BREMEN = 8

cdef inline int moor_tiles(Player* p) noexcept nogil:
    return p.hydrated + dehydrated_count(p)

cdef int delivery_possible(State* s, int pi, int d, int k) noexcept nogil:
    """Whether pi can make delivery k of destination d now. Hage's one delivery is split in
    two ids: k = 0 hands over a grain field, k = 1 a flax field."""
    cdef Player* p = &s.pl[pi]
    cdef int16_t* g = p.goods
    if d == D_HAGE:
        return (p.grain_fields > 0) if k == 0 else (p.flax_fields > 0)
    if d == D_BEEMOOR:
        return g[G_PEAT] >= 1
    if d == D_DORNUM:
        return p.plows >= 1
    if d == D_NORDEN:
        if k == 0:
            return p.animals[A_SHEEP] >= 1
        if k == 1:
            return p.peat_boats >= 1
        return g[G_WINTER_WEAR] >= 1
    if d == D_AURICH:
        if k == 0:
            return g[G_LEATHER] >= 1
        if k == 1:
            return animal_total(p) >= 1
        return p.animals[A_HORSE] >= 1
    if d == D_ESENS:
        if k == 0:
            return g[G_HIDE] >= 1
        if k == 1:
            return g[G_GRAIN] >= 2
        return g[G_WOOLEN] >= 1
    if d == D_EMDEN:
        if k == 0:
            return g[G_PEAT] >= 1
        if k == 1:
            return g[G_SUMMER_WEAR] >= 1
        if k == 2:
            return g[G_LEATHER_WEAR] >= 1
        return g[G_WINTER_WEAR] >= 1
    if d == D_LEER:
        if k == 0:
            return g[G_FLAX] >= 1
        if k == 1:
            return g[G_LINEN] >= 1
        if k == 2:
            return p.animals[A_CATTLE] >= 1
        return g[G_SUMMER_WEAR] + g[G_WINTER_WEAR] + g[G_LEATHER_WEAR] >= 1
    # Bremen
    if k == 0:
        return moor_tiles(p) >= 1
    if k == 1:
        return g[G_TIMBER] >= 1
    if k == 2:
        return animal_total(p) >= 2
    if k == 3:
        return g[G_LINEN] >= 1 and g[G_WOOLEN] >= 1 and g[G_LEATHER] >= 1
    return g[G_SUMMER_WEAR] >= 1 and g[G_WINTER_WEAR] >= 1 and g[G_LEATHER_WEAR] >= 1

cdef inline int deliveries_of(int d) noexcept nogil:
    if d == D_HAGE:
        return 2
    if d == D_BEEMOOR or d == D_DORNUM:
        return 1
    if d <= D_ESENS:
        return 3
    if d <= D_LEER:
        return 4
    return 5

cdef int any_delivery(State* s, int pi, int d) noexcept nogil:
    cdef int k
    for k in range(deliveries_of(d)):
        if delivery_possible(s, pi, d, k):
            return 1
    return 0

cdef int delivery_legal(State* s, Frame* f, int* out) noexcept nogil:
    cdef int d = f.c, k, n = 0
    if f.m != 0:
        n = add(out, n, ACT_STOP)
    for k in range(deliveries_of(d)):
        if (f.m >> k) & 1:
            continue
        if d == D_HAGE and f.m != 0:
            continue        # Hage has one delivery
        if delivery_possible(s, f.player, d, k):
            n = add(out, n, ACT_DELIVER + d * 5 + k)
    return n

cdef void discard_moor(Player* p) noexcept nogil:
    """Bremen: a hydrated moor goes first (it scores -4 and holds no peat), else the dehydrated
    moor with the least peat (docs/rules-decisions.md)."""
    cdef int i
    if p.hydrated > 0:
        p.hydrated -= 1
        p.moors_removed += 1
        return
    for i in range(2, -1, -1):
        if p.dehydrated[i] > 0:
            p.dehydrated[i] = 0
            p.moors_removed += 1
            sort_dehydrated(p)
            return

cdef void delivery_apply(State* s, Frame* f, int a) noexcept nogil:
    cdef int pi = f.player, d, k
    cdef Player* p = &s.pl[pi]
    cdef int16_t* g = p.goods
    if a == ACT_STOP:
        pop(s)
        return
    d = (a - ACT_DELIVER) // 5
    k = (a - ACT_DELIVER) % 5
    f.m |= <int16_t>(1 << k)
    if d == D_HAGE:
        if k == 0:
            p.grain_fields -= 1
        else:
            p.flax_fields -= 1
        gain(p, G_FOOD, 1)
        pop(s)          # the only delivery
    elif d == D_BEEMOOR:
        g[G_PEAT] -= 1
        gain(p, G_FOOD, 2)
        pop(s)
    elif d == D_DORNUM:
        p.plows -= 1
        gain(p, G_FOOD, 8)
        pop(s)
    elif d == D_NORDEN:
        if k == 0:
            p.animals[A_SHEEP] -= 1
            gain(p, G_FOOD, 4)
        elif k == 1:
            p.peat_boats -= 1
            gain(p, G_FOOD, 5)
        else:
            g[G_WINTER_WEAR] -= 1
            gain(p, G_FOOD, 7)
    elif d == D_AURICH:
        if k == 0:
            g[G_LEATHER] -= 1
            gain(p, G_FOOD, 4)
        elif k == 1:
            gain(p, G_FOOD, 4)
            push(s, K_ACTION, pi, F_GIVE_ANIMALS, 0, 1, 0)
        else:
            p.animals[A_HORSE] -= 1
            gain(p, G_FOOD, 5)
    elif d == D_ESENS:
        if k == 0:
            g[G_HIDE] -= 1
            gain(p, G_FOOD, 2)
        elif k == 1:
            g[G_GRAIN] -= 2
            gain(p, G_FOOD, 4)
        else:
            g[G_WOOLEN] -= 1
            gain(p, G_FOOD, 4)
    elif d == D_EMDEN:
        if k == 0:
            g[G_PEAT] -= 1
            gain(p, G_FOOD, 3)
        elif k == 1:
            g[G_SUMMER_WEAR] -= 1
            gain(p, G_FOOD, 6)
        elif k == 2:
            g[G_LEATHER_WEAR] -= 1
            gain(p, G_FOOD, 7)
        else:
            g[G_WINTER_WEAR] -= 1
            gain(p, G_FOOD, 7)
    elif d == D_LEER:
        if k == 0:
            g[G_FLAX] -= 1
            gain(p, G_FOOD, 2)
        elif k == 1:
            g[G_LINEN] -= 1
            gain(p, G_FOOD, 3)
        elif k == 2:
            p.animals[A_CATTLE] -= 1
            gain(p, G_FOOD, 5)
        else:
            gain(p, G_FOOD, 6)
            push(s, K_ACTION, pi, F_GIVE_CLOTHING, 0, 0, 0)
    else:
        if k == 0:
            discard_moor(p)
        elif k == 1:
            g[G_TIMBER] -= 1
            gain(p, G_FOOD, 5)
        elif k == 2:
            gain(p, G_FOOD, 9)
            push(s, K_ACTION, pi, F_GIVE_ANIMALS, 0, 2, 0)
        elif k == 3:
            g[G_LINEN] -= 1
            g[G_WOOLEN] -= 1
            g[G_LEATHER] -= 1
            gain(p, G_FOOD, 12)
        else:
            g[G_SUMMER_WEAR] -= 1
            g[G_WINTER_WEAR] -= 1
            g[G_LEATHER_WEAR] -= 1
            gain(p, G_FOOD, 30)
