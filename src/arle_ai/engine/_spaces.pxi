# The 30 action spaces (actions.md §3, §4), the Laborer among them: each space's fixed part,
# its choices and their effect, registered in one table.
#
# Offers: space_can_start (the food a space costs), space_start (a worker placed: the fixed part,
#   then the space's frame), space_frame_legal and space_frame_apply (K_ACTION frames of a
#   space, dispatched from _engine.pxi); the tables SPACE_START, SPACE_LEGAL, SPACE_APPLY
#   filled by register_spaces() at import.
# Uses: _tables, _state, _data (SPACE_*, EXCH_*, the spaces' numbers), _frames (push_space and the
#   space accessors), _home, _barn (can_buy_piece, buy_piece), _tiles, _subdecisions (push_cut,
#   push_master, F_FLIP, F_FIELD), _payment (build_actions, start_building_payment).
# Invariants: every space has one row in register_spaces (no_choice / no_effect where it has
#   no choices); a space's frame holds the space (action_of) and what its accessors name.

cdef inline void take_space_gains(State* s, int pi, int space) noexcept nogil:
    """What `space` gives outright (rules.SPACE_GAINS)."""
    take_all(s, pi, SPACE_GAIN_CODE[space], SPACE_GAIN_N[space])

# ---- the action spaces ----
# Each space is one block below: the fixed part of its action (start, after its food cost,
# rules.SPACE_FOOD_COST, is paid), and, for a space with choices, the choices of its pending
# frame (legal: K_ACTION with action_of = the space) and their effect (apply). register_spaces() puts
# one row per space into the dispatch tables. Building choices (ACT_BUILD) and the Laborer's
# imitations (ACT_IMITATE) are applied for every space alike (space_frame_apply).

ctypedef void (*SpaceStart)(State* s, int pi, Player* p, int space) noexcept nogil
ctypedef int (*SpaceLegal)(State* s, Frame* f, Player* p, int* out) noexcept nogil
ctypedef void (*SpaceApply)(State* s, Frame* f, Player* p, int a) noexcept nogil

cdef SpaceStart SPACE_START[NSPACES]
cdef SpaceLegal SPACE_LEGAL[NSPACES]
cdef SpaceApply SPACE_APPLY[NSPACES]

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
