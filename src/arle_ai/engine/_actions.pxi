# The 30 action spaces (actions.md §3, §4), the Laborer, and the shared sub-decisions
# (building payment, cutting peat, flipping, Master steps) they and the buildings use.

# ---- supply of shared tiles ----

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

# ---- barn ----

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

# ---- buildings: cost and payment (tiles.md 2.2) ----

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

# ---- cutting peat ----

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

# ---- home tiles ----

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

cdef inline void take_space_gains(State* s, int pi, int space) noexcept nogil:
    """What `space` gives outright (rules.SPACE_GAINS)."""
    take_all(s, pi, SPACE_GAIN_CODE[space], SPACE_GAIN_N[space])

# ---- Master steps ----

cdef inline int tool_step_payable(Player* p, int t) noexcept nogil:
    return not tool_at_end(p, t) and can_pay_good(p, TOOL_COST_GOOD[t], TOOL_COST_AMOUNT[t])

cdef inline void push_master(State* s, int pi, int moves) noexcept nogil:
    if moves > 0:
        push_sub(s, pi, F_MASTER, moves)

# ---- the action spaces (actions.md §3, §4) ----
# Each space is one block below: the fixed part of its action (start, after its food cost,
# rules.SPACE_FOOD_COST, is paid), and, for a space with choices, the choices of its pending
# frame (legal: K_ACTION with what = the space) and their effect (apply). register_spaces() puts
# one row per space into the dispatch tables. Building choices (ACT_BUILD) and the Laborer's
# imitations (ACT_IMITATE) are applied for every space alike (space_frame_apply).

ctypedef void (*SpaceStart)(State* s, int pi, Player* p, int space) noexcept nogil
ctypedef int (*SpaceLegal)(State* s, Frame* f, Player* p, int* out) noexcept nogil
ctypedef void (*SpaceApply)(State* s, Frame* f, Player* p, int a) noexcept nogil

cdef SpaceStart SPACE_START[NSPACES]
cdef SpaceLegal SPACE_LEGAL[NSPACES]
cdef SpaceApply SPACE_APPLY[NSPACES]

cdef inline int add(int* out, int n, int a) noexcept nogil:
    out[n] = a
    return n + 1

cdef inline int space_can_start(State* s, int pi, int space, int special) noexcept nogil:
    """Whether pi can pay the food `space` costs (a space may be used for its blocking effect
    even when its action gives nothing)."""
    cdef int cost = SPACE_FOOD_COST[space]
    cdef Player* p
    if cost == 0:
        return 1
    p = &s.pl[pi]
    return p.goods[G_FOOD] >= cost or (SPACE_GRAIN_PAYS[space] and p.goods[G_GRAIN] >= cost)

cdef inline void pay_space_cost(Player* p, int space) noexcept nogil:
    """The space's food; grain where it may pay, only when the food is short (W10)."""
    cdef int cost = SPACE_FOOD_COST[space]
    if p.goods[G_FOOD] >= cost:
        p.goods[G_FOOD] -= cost
    else:
        p.goods[G_GRAIN] -= cost

cdef int no_choice(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    return 0

cdef void no_effect(State* s, Frame* f, Player* p, int a) noexcept nogil:
    pass

cdef inline int repeat_legal(Frame* f, int can_pay, int* out) noexcept nogil:
    """An "up to (tool) times" exchange: STOP, or one MORE while repetitions and payment last."""
    cdef int n = add(out, 0, ACT_STOP)
    if exchanges_left(f) > 0 and can_pay:
        n = add(out, n, ACT_MORE)
    return n

cdef inline int build_legal(State* s, int pi, int* out, int n) noexcept nogil:
    return build_actions(s, pi, out, n)

cdef int vehicle_purchases(State* s, int pi, int* out, int n) noexcept nogil:
    """Vehicles (not equipment) pi can build, paying horses where they cost any."""
    cdef int v
    for v in range(V_HANDCART, NVKINDS):
        if can_buy_piece(s, pi, v, A_HORSE):
            n = add(out, n, ACT_VEHICLE + v)
    return n

# S1 Fisherman: fish traps +1 step (free), food by the fish traps, 1 sheep.
cdef void fisherman_start(State* s, int pi, Player* p, int space) noexcept nogil:
    advance_tool_free(p, T_FISH_TRAPS, 1)
    gain(p, G_FOOD, tool_value(p, T_FISH_TRAPS))
    take_space_gains(s, pi, space)

# S2 Grocer (summer): 1 grain and 1 leather, then 1 timber, 1 brick or 1 animal.
cdef void summer_grocer_start(State* s, int pi, Player* p, int space) noexcept nogil:
    take_space_gains(s, pi, space)
    push_space(s, pi, space, 0)

cdef int summer_grocer_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = 0, t
    n = add(out, n, ACT_GOOD + G_TIMBER)
    n = add(out, n, ACT_GOOD + G_BRICK)
    for t in range(NANIMALS):
        n = add(out, n, ACT_ANIMAL + t)
    return n

cdef void summer_grocer_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    if a >= ACT_ANIMAL:
        gain_animal(s, pi, a - ACT_ANIMAL, SPACE_CHOICE_N[S_GROCER])
    else:
        gain(p, a - ACT_GOOD, SPACE_CHOICE_N[S_GROCER])

# The exchange spaces (S3 Wool Weaver, W2 Tanner, W3 Linen Weaver, W8 Potter): up to (their
# tool) times, pay one good and take others (rules.SPACE_EXCHANGES).
cdef int exchange_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    return repeat_legal(f, p.goods[EXCH_PAY_GOOD[action_of(f)]] >= EXCH_PAY_N[action_of(f)], out)

cdef void exchange_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int space = action_of(f), j
    if a == ACT_STOP:
        pop(s)
        return
    p.goods[EXCH_PAY_GOOD[space]] -= EXCH_PAY_N[space]
    for j in range(MAX_PARTS):
        if EXCH_GAIN_GOOD[space][j] >= 0:
            gain(p, EXCH_GAIN_GOOD[space][j], EXCH_GAIN_N[space][j])
    use_exchange(f)

# S3 Wool Weaver: up to (weaving looms) times 1 wool -> 1 woolen.
cdef void wool_weaver_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, tool_value(p, T_WEAVING_LOOMS))

# S4 Colonist: dehydrate a moor, 1 horse.
cdef void colonist_start(State* s, int pi, Player* p, int space) noexcept nogil:
    dehydrate_moor(p)
    take_space_gains(s, pi, space)

# S5 Peat Cutter: cut peat by the spades.
cdef void peat_cutter_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_cut(s, pi, tool_value(p, T_SPADES))

# S6 Dike Builder: dikes by the shovels' upper row, then 1 sheep or 1 cattle.
cdef void dike_builder_start(State* s, int pi, Player* p, int space) noexcept nogil:
    build_dikes(p, dike_value(p))
    push_space(s, pi, space, 0)

cdef int dike_builder_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = add(out, 0, ACT_ANIMAL + A_SHEEP)
    return add(out, n, ACT_ANIMAL + A_CATTLE)

cdef void take_animal_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player, space = action_of(f)
    pop(s)
    gain_animal(s, pi, a - ACT_ANIMAL, SPACE_CHOICE_N[space])

# S7 Clay Worker: clay by the shovels' lower row.
cdef void clay_worker_start(State* s, int pi, Player* p, int space) noexcept nogil:
    gain(p, G_CLAY, tool_value(p, T_SHOVELS))

# S8 Farmer: build a plow (paying a cattle or a horse) or not, then 1 field per plow.
cdef void farmer_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, 0)

cdef int farmer_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = add(out, 0, ACT_STOP)
    if can_buy_piece(s, f.player, V_PLOW, A_CATTLE):
        n = add(out, n, ACT_ANIMAL + A_CATTLE)
    if can_buy_piece(s, f.player, V_PLOW, A_HORSE):
        n = add(out, n, ACT_ANIMAL + A_HORSE)
    return n

cdef void farmer_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    if a == ACT_STOP:
        if p.plows > 0:
            push_sub(s, pi, F_FIELD, p.plows)
        return
    buy_piece(s, pi, V_PLOW, a - ACT_ANIMAL)
    push_sub(s, pi, F_FIELD, p.plows)

# S9 Forester (1 food): place a forest or build a building.
cdef void forester_start(State* s, int pi, Player* p, int space) noexcept nogil:
    pay_space_cost(p, space)
    push_space(s, pi, space, 0)

cdef int forester_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = 0
    if can_place_forest(s, f.player):
        n = add(out, n, ACT_TILE + TILE_FOREST)
    return build_legal(s, f.player, out, n)

cdef void forester_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    place_forest(s, pi)

# S10 Woodcutter: wood by the axes.
cdef void woodcutter_start(State* s, int pi, Player* p, int space) noexcept nogil:
    gain(p, G_WOOD, tool_value(p, T_AXES))

# S11 / W11 Master: tool steps by the workbenches (F_MASTER).
cdef void master_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_master(s, pi, tool_value(p, T_WORKBENCHES))

# S12 Carpenter (summer): build a stall or a building.
cdef void choice_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, 0)

cdef int summer_carpenter_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = 0
    if can_build_stall(s, f.player):
        n = add(out, n, ACT_TILE + TILE_STALL)
    return build_legal(s, f.player, out, n)

cdef void build_stall_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    build_stall(s, pi)

# S13 Builder: build a building.
cdef int builder_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    return build_legal(s, f.player, out, 0)

# S14 Warden / W13 Dike Warden (after 1 dike): one flip (F_FLIP).
cdef void warden_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_sub(s, pi, F_FLIP, 0)

cdef void dike_warden_start(State* s, int pi, Player* p, int space) noexcept nogil:
    build_dikes(p, DIKE_WARDEN_DIKES_N)
    push_sub(s, pi, F_FLIP, 0)

# S15 / W15 Laborer (2 food): (summer) a vehicle or (winter) a building, or use an occupied
# space of the season.
cdef void laborer_start(State* s, int pi, Player* p, int space) noexcept nogil:
    pay_space_cost(p, space)
    push_space(s, pi, space, 0)

cdef int laborer_imitations(State* s, int pi, int laborer, int* out, int n) noexcept nogil:
    """Occupied spaces of the Laborer's own season (itself excepted) that pi can carry out."""
    cdef int lo = 0 if laborer == S_LABORER else NSEASON_SPACES, i
    for i in range(lo, lo + NSEASON_SPACES):
        if i == laborer:
            continue
        if s.occupied & (<uint32_t>1 << i) and space_can_start(s, pi, i, 0):
            out[n] = ACT_IMITATE + i
            n += 1
    return n

cdef int summer_laborer_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = vehicle_purchases(s, f.player, out, 0)
    return laborer_imitations(s, f.player, S_LABORER, out, n)

cdef void summer_laborer_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    buy_piece(s, pi, a - ACT_VEHICLE, A_HORSE)

cdef int winter_laborer_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = build_legal(s, f.player, out, 0)
    return laborer_imitations(s, f.player, W_LABORER, out, n)

# W1 Peat Boatman: 3 peat and 1 more per peat boat.
cdef void peat_boatman_start(State* s, int pi, Player* p, int space) noexcept nogil:
    gain(p, G_PEAT, PEAT_BOATMAN_PEAT_N + PEAT_BOATMAN_PER_BOAT * p.peat_boats)

# W2 Tanner: up to (fleshing beams) times 1 hide -> 1 leather.
cdef void tanner_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, tool_value(p, T_FLESHING_BEAMS))

# W3 Linen Weaver: up to (weaving looms) times 1 flax -> 1 linen.
cdef void linen_weaver_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, tool_value(p, T_WEAVING_LOOMS))

# W4 Butcher: up to (slaughtering tables) animals, each 3 food (cattle 4) and 2 hides; the
# animals in non-decreasing type order (butcher_lowest: the lowest type allowed).
cdef void butcher_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, tool_value(p, T_SLAUGHTERING_TABLES))

cdef int butcher_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = add(out, 0, ACT_STOP), t
    if butcher_left(f) > 0:
        for t in range(butcher_lowest(f), NANIMALS):
            if p.animals[t] > 0:
                n = add(out, n, ACT_ANIMAL + t)
    return n

cdef void butcher_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int t = a - ACT_ANIMAL
    if a == ACT_STOP:
        pop(s)
        return
    p.animals[t] -= 1
    gain(p, G_FOOD, BUTCHER_FOOD_BY_ANIMAL[t])
    gain(p, G_HIDE, BUTCHER_HIDES_N)
    butchered(f, t)

# W5 Cattle Trader: 2 grain, then 1 sheep with 1 cattle or 1 horse.
cdef void cattle_trader_start(State* s, int pi, Player* p, int space) noexcept nogil:
    take_space_gains(s, pi, space)
    push_space(s, pi, space, 0)      # the sheep comes with the chosen animal

cdef int cattle_trader_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = add(out, 0, ACT_ANIMAL + A_CATTLE)
    return add(out, n, ACT_ANIMAL + A_HORSE)

cdef void cattle_trader_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player, space = action_of(f), j, code
    pop(s)                          # (clears *f)
    for j in range(MAX_PARTS):      # rules.SPACE_GAINS_WITH_CHOICE, housed with the choice
        code = CHOICE_GAIN_CODE[space][j]
        if code >= GIVE_ANIMAL:
            p.animals[code - GIVE_ANIMAL] += CHOICE_GAIN_N[space][j]
        elif code >= 0:
            gain(p, code, CHOICE_GAIN_N[space][j])
    gain_animal(s, pi, a - ACT_ANIMAL, SPACE_CHOICE_N[space])

# W6 Grocer (winter): 1 wood and 1 clay, then 1 animal and 1 peat cut from your moors.
cdef void winter_grocer_start(State* s, int pi, Player* p, int space) noexcept nogil:
    take_space_gains(s, pi, space)
    push_space(s, pi, space, 0)

cdef int any_animal_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = 0, t
    for t in range(NANIMALS):
        n = add(out, n, ACT_ANIMAL + t)
    return n

cdef void winter_grocer_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    # the animal, then the cut from one of your own moors (nothing if none is left)
    cdef int pi = f.player
    pop(s)
    gain_animal(s, pi, a - ACT_ANIMAL, SPACE_CHOICE_N[W_GROCER])
    push_cut(s, pi, WINTER_GROCER_CUTS_N)

# W7 Builders' Merchant: 2 hides, then 1 wood or 1 clay, then 1 timber or 1 brick (merchant_second_part).
cdef void builders_merchant_start(State* s, int pi, Player* p, int space) noexcept nogil:
    take_space_gains(s, pi, space)
    push_space(s, pi, space, 0)

cdef int builders_merchant_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    if merchant_second_part(f) == 0:
        return add(out, add(out, 0, ACT_GOOD + G_WOOD), ACT_GOOD + G_CLAY)
    return add(out, add(out, 0, ACT_GOOD + G_TIMBER), ACT_GOOD + G_BRICK)

cdef void builders_merchant_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    gain(p, a - ACT_GOOD, SPACE_CHOICE_N[W_BUILDERS_MERCHANT])
    if merchant_second_part(f) == 0:
        merchant_to_second_part(f)
    else:
        pop(s)

# W8 Potter: up to (pottery wheels) times 1 clay -> 3 food and 1 peat.
cdef void potter_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, tool_value(p, T_POTTERY_WHEELS))

# W9 Baker: up to (ovens) times 1 grain (or flax) and 1 peat (or wood) -> 6 food.
cdef void baker_start(State* s, int pi, Player* p, int space) noexcept nogil:
    push_space(s, pi, space, tool_value(p, T_OVENS))

cdef int baker_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    return repeat_legal(f, p.goods[G_GRAIN] + p.goods[G_FLAX] >= BAKER_GRAIN_N
                        and p.goods[G_PEAT] + wood_like(p) >= BAKER_FUEL_N, out)

cdef void baker_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int k
    if a == ACT_STOP:
        pop(s)
        return
    # unit by unit: flax only when no grain is left, wood (then timber) only when no peat
    # (docs/rules-decisions.md)
    for k in range(BAKER_GRAIN_N):
        if p.goods[G_GRAIN] > 0:
            p.goods[G_GRAIN] -= 1
        else:
            p.goods[G_FLAX] -= 1
    for k in range(BAKER_FUEL_N):
        if p.goods[G_PEAT] > 0:
            p.goods[G_PEAT] -= 1
        else:
            pay_wood(p, 1)
    gain(p, G_FOOD, BAKER_FOOD_N)
    use_exchange(f)

# W10 Wood Trader (1 food, grain only when no food is left): 4 wood or a building.
cdef void wood_trader_start(State* s, int pi, Player* p, int space) noexcept nogil:
    pay_space_cost(p, space)
    push_space(s, pi, space, 0)

cdef int wood_trader_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = add(out, 0, ACT_GOOD + G_WOOD)
    return build_legal(s, f.player, out, n)

cdef void wood_trader_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    pop(s)
    gain(p, G_WOOD, WOOD_TRADER_WOOD_N)

# W12 Wainwright: up to one vehicle (vehicle_decided once bought or declined), then up to one peat boat.
cdef int wainwright_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = add(out, 0, ACT_STOP)
    if vehicle_decided(f) == 0:
        n = vehicle_purchases(s, f.player, out, n)
    if can_buy_piece(s, f.player, V_PEAT_BOAT, A_HORSE):
        n = add(out, n, ACT_VEHICLE + V_PEAT_BOAT)
    return n

cdef void wainwright_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    if a == ACT_STOP:
        if vehicle_decided(f) == 0:
            decide_vehicle(f)
        else:
            pop(s)
        return
    buy_piece(s, f.player, a - ACT_VEHICLE, A_HORSE)
    if a == ACT_VEHICLE + V_PEAT_BOAT:
        pop(s)
    else:
        decide_vehicle(f)

# W14 Carpenter (winter): turn a stall into a stable for 2 bricks, or build a stall.
cdef int winter_carpenter_legal(State* s, Frame* f, Player* p, int* out) noexcept nogil:
    cdef int n = 0
    if can_upgrade_stall(s, f.player) and p.goods[G_BRICK] >= STABLE_UPGRADE_BRICKS_N:
        n = add(out, n, ACT_FLIP + FLIP_STALL)
    if can_build_stall(s, f.player):
        n = add(out, n, ACT_TILE + TILE_STALL)
    return n

cdef void winter_carpenter_apply(State* s, Frame* f, Player* p, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    if a == ACT_TILE + TILE_STALL:
        build_stall(s, pi)
    else:
        p.goods[G_BRICK] -= STABLE_UPGRADE_BRICKS_N
        upgrade_stall(s, pi)

cdef void space_row(int space, SpaceStart start, SpaceLegal legal, SpaceApply apply) noexcept nogil:
    SPACE_START[space] = start
    SPACE_LEGAL[space] = legal
    SPACE_APPLY[space] = apply

cdef void register_spaces() noexcept nogil:
    #         space                start                    choices                  effect
    space_row(S_FISHERMAN,         fisherman_start,         no_choice,               no_effect)
    space_row(S_GROCER,            summer_grocer_start,     summer_grocer_legal,     summer_grocer_apply)
    space_row(S_WOOL_WEAVER,       wool_weaver_start,       exchange_legal,          exchange_apply)
    space_row(S_COLONIST,          colonist_start,          no_choice,               no_effect)
    space_row(S_PEAT_CUTTER,       peat_cutter_start,       no_choice,               no_effect)
    space_row(S_DIKE_BUILDER,      dike_builder_start,      dike_builder_legal,      take_animal_apply)
    space_row(S_CLAY_WORKER,       clay_worker_start,       no_choice,               no_effect)
    space_row(S_FARMER,            farmer_start,            farmer_legal,            farmer_apply)
    space_row(S_FORESTER,          forester_start,          forester_legal,          forester_apply)
    space_row(S_WOODCUTTER,        woodcutter_start,        no_choice,               no_effect)
    space_row(S_MASTER,            master_start,            no_choice,               no_effect)
    space_row(S_CARPENTER,         choice_start,            summer_carpenter_legal,  build_stall_apply)
    space_row(S_BUILDER,           choice_start,            builder_legal,           no_effect)
    space_row(S_WARDEN,            warden_start,            no_choice,               no_effect)
    space_row(S_LABORER,           laborer_start,           summer_laborer_legal,    summer_laborer_apply)
    space_row(W_PEAT_BOATMAN,      peat_boatman_start,      no_choice,               no_effect)
    space_row(W_TANNER,            tanner_start,            exchange_legal,          exchange_apply)
    space_row(W_LINEN_WEAVER,      linen_weaver_start,      exchange_legal,          exchange_apply)
    space_row(W_BUTCHER,           butcher_start,           butcher_legal,           butcher_apply)
    space_row(W_CATTLE_TRADER,     cattle_trader_start,     cattle_trader_legal,     cattle_trader_apply)
    space_row(W_GROCER,            winter_grocer_start,     any_animal_legal,        winter_grocer_apply)
    space_row(W_BUILDERS_MERCHANT, builders_merchant_start, builders_merchant_legal, builders_merchant_apply)
    space_row(W_POTTER,            potter_start,            exchange_legal,          exchange_apply)
    space_row(W_BAKER,             baker_start,             baker_legal,             baker_apply)
    space_row(W_WOOD_TRADER,       wood_trader_start,       wood_trader_legal,       wood_trader_apply)
    space_row(W_MASTER,            master_start,            no_choice,               no_effect)
    space_row(W_WAINWRIGHT,        choice_start,            wainwright_legal,        wainwright_apply)
    space_row(W_DIKE_WARDEN,       dike_warden_start,       no_choice,               no_effect)
    space_row(W_CARPENTER,         choice_start,            winter_carpenter_legal,  winter_carpenter_apply)
    space_row(W_LABORER,           laborer_start,           winter_laborer_legal,    no_effect)

register_spaces()

cdef void space_start(State* s, int pi, int space) noexcept nogil:
    """Carry out the fixed part of a space's action and push its decisions."""
    SPACE_START[space](s, pi, &s.pl[pi], space)

cdef int space_frame_legal(State* s, Frame* f, int* out) noexcept nogil:
    return SPACE_LEGAL[action_of(f)](s, f, &s.pl[f.player], out)

cdef void imitate(State* s, Frame* f, int a) noexcept nogil:
    cdef int pi = f.player, space = a - ACT_IMITATE
    pop(s)
    space_start(s, pi, space)

cdef void build_choice(State* s, Frame* f, int a) noexcept nogil:
    cdef int pi = f.player
    pop(s)
    start_building_payment(s, pi, a - ACT_BUILD)

cdef void space_frame_apply(State* s, Frame* f, int a) noexcept nogil:
    if ACT_IMITATE <= a < ACT_IMITATE + NSPACES:
        imitate(s, f, a)
    elif ACT_BUILD <= a < ACT_BUILD + NBUILDINGS:
        build_choice(s, f, a)
    else:
        SPACE_APPLY[action_of(f)](s, f, &s.pl[f.player], a)

# ---- generic sub-decision frames ----

cdef int sub_frame_legal(State* s, Frame* f, int* out) noexcept nogil:
    cdef int pi = f.player, n = 0, t, g, what = action_of(f)
    cdef Player* p = &s.pl[pi]
    if what == F_PAY_BUILDING:
        return pay_building_legal(s, f, out)
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
    return building_frame_legal(s, f, out)

cdef void sub_frame_apply(State* s, Frame* f, int a) noexcept nogil:
    cdef int pi = f.player, t, what = action_of(f)
    cdef Player* p = &s.pl[pi]
    if what == F_PAY_BUILDING:
        pay_building_apply(s, f, a)
        return
    if a == ACT_STOP:
        pop(s)
        return
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
    else:
        building_frame_apply(s, f, a)

cdef int action_frame_legal(State* s, Frame* f, int* out) noexcept nogil:
    if action_of(f) < NSPACES:
        return space_frame_legal(s, f, out)
    return sub_frame_legal(s, f, out)

cdef void action_frame_apply(State* s, Frame* f, int a) noexcept nogil:
    if action_of(f) < NSPACES:
        space_frame_apply(s, f, a)
    else:
        sub_frame_apply(s, f, a)
