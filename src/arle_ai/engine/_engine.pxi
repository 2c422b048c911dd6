# Turn structure, setup, inventorying and the game end; the legal actions and their
# application for every kind of decision.
#
# Offers: is_summer, space_season, turns_per_half_year, turn_player, next_start_player,
#   program_player, current_player, is_terminal; setup_game, setup_absent_seat (the solo
#   game's second seat); flow, flow_into, flow_step (run the automatic frames);
#   legal_actions, is_legal, apply_action, apply_action_next, apply_raw (the engine's entry
#   points: the playouts, the search and GameState call these); the HE_* and INV_* steps.
# Uses: _tables, _state, _data, _rng, _frames, _home, _barn (sort_vehicles), _subdecisions,
#   _buildings, _payment, _spaces, _vehicles: the rules sections, each
#   through the entry points its header offers (K_ACTION frames go to the section of their
#   space or sub-decision: action_frame_legal, action_frame_apply).
# Invariants: a position handed out (after flow) has a decision on top or is over: automatic
#   frames never wait; a decision with one choice is made for the player and one with none is
#   finished; legal_actions lists ids sorted and without duplicates, and apply_raw is given
#   only ids it listed (is_legal checks outside input). In the solo game (State.solo) player
#   0 takes every turn and every step of the half-year's end; the absent seat pl[1] never
#   acts and changes only at setup.

cdef inline int is_summer(State* s) noexcept nogil:
    return s.half_year & 1

cdef inline int space_season(int space) noexcept nogil:
    """1 for a summer space, 0 for a winter space."""
    return 1 if space < NSEASON_SPACES else 0

cdef inline int turns_per_half_year(State* s) noexcept nogil:
    """Workers placed in a half-year: both players' in turn, or the solo player's."""
    return SOLO_TURNS if s.solo else TURNS_PER_HALF_YEAR

cdef inline int turn_player(State* s) noexcept nogil:
    if s.solo:
        return 0
    return s.start_player if (s.turn & 1) == 0 else 1 - s.start_player

cdef inline int next_start_player(State* s) noexcept nogil:
    """Starting player of the next half-year (core.md 7.2); the solo player always starts
    (core.md 8.7)."""
    if s.solo:
        return 0
    if s.special_by >= 0:
        return 1 - s.special_by
    return 1 - s.start_player

cdef inline int program_player(State* s, int other) noexcept nogil:
    """The player a step of the half-year's end program is for: the start player's step, or
    the other player's (-1 in the solo game, which has no other player)."""
    if not other:
        return s.start_player
    return -1 if s.solo else 1 - s.start_player

cdef inline int current_player(State* s) noexcept nogil:
    if s.sp == 0:
        return -1
    if top(s).kind == K_GAME_OVER:
        return -1
    return top(s).player

cdef inline int is_terminal(State* s) noexcept nogil:
    return s.sp > 0 and top(s).kind == K_GAME_OVER

# ---- setup ----

cdef void setup_player(Player* p) noexcept nogil:
    cdef int g
    memset(p, 0, sizeof(Player))
    for g in range(NGOODS):
        p.goods[g] = START_GOODS_ARR[g]
    for g in range(NANIMALS):
        p.animals[g] = START_ANIMALS_ARR[g]
    p.hydrated = START_HYDRATED
    p.boardwalk = START_BOARDWALK
    p.grain_fields = START_GRAIN_FIELDS
    p.flax_fields = START_FLAX_FIELDS
    p.stalls = START_STALLS

cdef uint32_t draw_buildings(uint64_t* rng, int first, int count, int keep) noexcept nogil:
    """Keep `keep` of the buildings first..first+count-1, drawn at random."""
    cdef int idx[NBUILDINGS]
    cdef int i, j, t
    cdef uint32_t mask = 0
    for i in range(count):
        idx[i] = first + i
    for i in range(count - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = idx[i]
        idx[i] = idx[j]
        idx[j] = t
    for i in range(keep):
        mask |= (<uint32_t>1) << idx[i]
    return mask

cdef void setup_absent_seat(Player* p) noexcept nogil:
    """The second seat of a solo game: no player. It holds nothing, or with
    rules.SOLO_SUPPLY_AS_TWO_PLAYERS the starting tiles a second home board takes from the
    shared supply (which counts what both seats hold)."""
    memset(p, 0, sizeof(Player))
    if SOLO_SUPPLY_TWO:
        p.grain_fields = START_GRAIN_FIELDS
        p.flax_fields = START_FLAX_FIELDS
        p.stalls = START_STALLS

cdef void setup_game(State* s, int64_t seed, int variant, int solo) noexcept nogil:
    """The start position of `seed`: the buildings drawn (the same for both player counts),
    then the two-player game's starting player; the solo player always starts."""
    cdef int i
    memset(s, 0, sizeof(State))
    s.seed = seed
    s.rng = rng_seed(seed)
    s.variant = <int8_t>variant
    s.solo = 1 if solo else 0
    setup_player(&s.pl[0])
    if solo:
        setup_absent_seat(&s.pl[1])
    else:
        setup_player(&s.pl[1])
    # buildings: per colour group, all of it or a random draw of as many as the board has spaces
    for i in range(NDRAWS[variant]):
        if DRAW_KEEP[variant][i] < DRAW_COUNT[variant][i]:
            s.in_play |= draw_buildings(&s.rng, DRAW_FIRST[variant][i], DRAW_COUNT[variant][i],
                                        DRAW_KEEP[variant][i])
        else:
            s.in_play |= ((<uint32_t>1 << DRAW_COUNT[variant][i]) - 1) << DRAW_FIRST[variant][i]
    s.available = s.in_play
    s.start_player = 0 if solo else <int8_t>rng_below(&s.rng, 2)
    s.half_year = 1
    s.turn = 0
    s.special_by = -1
    push_plain(s, K_TURN, s.start_player)

# ---- inventorying ----

cdef void unload_vehicles(Player* p) noexcept nogil:
    cdef int i
    for i in range(NLOAD):
        gain(p, LOAD_RESULT_GOOD[i], p.loaded[i])
        p.loaded[i] = 0
    for i in range(NDEST):
        if p.dest_loaded & (1 << i):
            p.travel += DEST_SIZE[i]
    p.dest_done |= p.dest_loaded
    p.dest_loaded = 0
    for i in range(p.nveh):
        p.veh[i].used = 0
    sort_vehicles(p)

cdef inline int threshold_count(int n, int8_t* th) noexcept nogil:
    cdef int k = 0, i
    for i in range(3):
        if n >= th[i]:
            k += 1
    return k

cdef inline int milk_food(Player* p) noexcept nogil:
    return threshold_count(p.animals[A_SHEEP], MILK_SHEEP) + threshold_count(p.animals[A_CATTLE], MILK_CATTLE)

cdef inline int shear_wool(Player* p) noexcept nogil:
    return threshold_count(p.animals[A_SHEEP], SHEAR_SHEEP)

cdef void pay_food_sustenance(State* s, int pi) noexcept nogil:
    """Pay the sustenance food: food, then grain for what is missing, then animals (owner's
    choice of type), then a bottleneck per unit nothing can pay (core.md 7.6)."""
    cdef Player* p = &s.pl[pi]
    cdef int need = SUSTENANCE_FOOD, k, types = 0, t
    k = p.goods[G_FOOD] if p.goods[G_FOOD] < need else need
    p.goods[G_FOOD] -= k
    need -= k
    k = p.goods[G_GRAIN] if p.goods[G_GRAIN] < need else need
    p.goods[G_GRAIN] -= k
    need -= k
    if need == 0:
        return
    k = animal_total(p)
    if k > need:
        k = need
    add_bottlenecks(p, need - k)
    if k == 0:
        return
    for t in range(NANIMALS):
        if p.animals[t] > 0:
            types += 1
    if types == 1 or k == animal_total(p):
        # no choice: one type, or every animal goes
        for t in range(NANIMALS):
            while k > 0 and p.animals[t] > 0:
                p.animals[t] -= 1
                k -= 1
        return
    push_feed(s, pi, k)

cdef void pay_fuel(Player* p) noexcept nogil:
    """November heating: peat, wood (then timber) for what is missing, else bottlenecks."""
    cdef int need = SUSTENANCE_FUEL_NOVEMBER, k
    k = p.goods[G_PEAT] if p.goods[G_PEAT] < need else need
    p.goods[G_PEAT] -= k
    need -= k
    k = p.goods[G_WOOD] if p.goods[G_WOOD] < need else need
    p.goods[G_WOOD] -= k
    need -= k
    k = p.goods[G_TIMBER] if p.goods[G_TIMBER] < need else need
    p.goods[G_TIMBER] -= k
    need -= k
    add_bottlenecks(p, need)

cdef void apply_breeding(Player* p, int8_t* v) noexcept nogil:
    cdef int t
    for t in range(NANIMALS):
        p.animals[t] += v[t]

cdef void start_breeding(State* s, int pi) noexcept nogil:
    cdef BreedPlans plans
    breed_plans(&s.pl[pi], &plans)
    if plans.n == 1:
        apply_breeding(&s.pl[pi], plans.v[0])
    elif plans.n > 1:
        push_plain(s, K_BREED, pi)

cdef inline int owns_november_house(State* s, int pi) noexcept nogil:
    return (s.pl[pi].buildings & NOVEMBER_HOUSES) != 0

cdef inline int has_final_anytime(State* s, int pi) noexcept nogil:
    """Anything to do in the window before final scoring: a peat boat with peat, or a clock building."""
    cdef Player* p = &s.pl[pi]
    if p.peat_boats > 0 and p.goods[G_PEAT] >= PEAT_BOAT_PEAT_N:
        return 1
    return (p.buildings & CLOCK_BUILDINGS) != 0

# The end-of-half-year program (K_HALF_END; its counter is program_step(f), key a in position
# files, so these values are part of the format): the closing anytime windows, the November
# houses, each player's inventorying (start player first), then the next half-year or the end.
cdef enum:
    HE_WINDOW_START = 0         # the start player's closing anytime window
    HE_WINDOW_OTHER = 1         # the other player's
    HE_NOVEMBER_START = 2       # light-green houses before November (summer only)
    HE_NOVEMBER_OTHER = 3
    HE_NOVEMBER_DONE = 4        # 4..9: forget which houses were used
    HE_INVENTORY_START = 10     # + step: the start player's inventorying
    HE_INVENTORY_OTHER = 20     # + step: the other player's
    HE_PREPARE = 40             # preparations of the next half-year (or on to the final windows)
    HE_FINAL_START = 50         # the windows before final scoring
    HE_FINAL_OTHER = 51
    HE_GAME_END = 52

# inventorying steps (core.md 7.4-7.6): the same four slots in both seasons
cdef enum:
    INV_UNLOAD = 0              # vehicles unloaded, loaded destinations travelled
    INV_PRODUCE = 1             # November: milking; May: breeding
    INV_HARVEST = 2             # November: fields and forests; May: shearing
    INV_SUSTENANCE = 3          # November: fuel, then food; May: food
    INV_DONE = 4

cdef void inventory_step(State* s, int pi, int step) noexcept nogil:
    """One step of player pi's inventorying in the current season."""
    cdef Player* p = &s.pl[pi]
    if step == INV_UNLOAD:
        unload_vehicles(p)
    elif is_summer(s):
        if step == INV_PRODUCE:
            gain(p, G_FOOD, milk_food(p))
        elif step == INV_HARVEST:
            gain(p, G_GRAIN, p.grain_fields)
            gain(p, G_FLAX, p.flax_fields)
            gain(p, G_WOOD, p.forests)
        else:
            pay_fuel(p)
            pay_food_sustenance(s, pi)
    else:
        if step == INV_PRODUCE:
            start_breeding(s, pi)
        elif step == INV_HARVEST:
            gain(p, G_WOOL, shear_wool(p))
        else:
            pay_food_sustenance(s, pi)

cdef void half_end_step(State* s, Frame* f) noexcept nogil:
    """One step of the end-of-half-year program (HE_*); pushes decisions as they arise."""
    cdef int pc = program_step(f)
    cdef int pi, step
    set_program_step(f, pc + 1)
    if pc == HE_WINDOW_START or pc == HE_WINDOW_OTHER:
        pi = program_player(s, pc == HE_WINDOW_OTHER)
        if pi >= 0:
            push_plain(s, K_END_WINDOW, pi)
        return
    if pc == HE_NOVEMBER_START or pc == HE_NOVEMBER_OTHER:
        pi = program_player(s, pc == HE_NOVEMBER_OTHER)
        if pi >= 0 and is_summer(s) and owns_november_house(s, pi):
            s.pl[pi].november_used = 0
            push_plain(s, K_NOVEMBER, pi)
        return
    if pc < HE_INVENTORY_START:
        # the November windows are over: forget which houses were used, so that equal
        # positions compare equal in the next half-year
        s.pl[0].november_used = 0
        s.pl[1].november_used = 0
        set_program_step(f, HE_INVENTORY_START)
        return
    if pc < HE_PREPARE:
        pi = program_player(s, pc >= HE_INVENTORY_OTHER)
        step = (pc - HE_INVENTORY_START) % (HE_INVENTORY_OTHER - HE_INVENTORY_START)
        if step < INV_DONE and pi >= 0:
            inventory_step(s, pi, step)
        else:
            set_program_step(f, HE_INVENTORY_OTHER if pc < HE_INVENTORY_OTHER and not s.solo
                             else HE_PREPARE)
        return
    if pc == HE_PREPARE:
        if s.half_year >= HALF_YEARS:
            set_program_step(f, HE_FINAL_START)
            return
        s.start_player = <int8_t>next_start_player(s)
        s.half_year += 1
        s.turn = 0
        s.special_by = -1
        s.occupied = 0
        s.occupied_by = 0
        pop(s)
        push_plain(s, K_TURN, s.start_player)
        return
    if pc == HE_FINAL_START or pc == HE_FINAL_OTHER:
        pi = program_player(s, pc == HE_FINAL_OTHER)
        if pi >= 0 and has_final_anytime(s, pi):
            push_plain(s, K_FINAL_WINDOW, pi)
        return
    # game over
    pop(s)
    push_plain(s, K_GAME_OVER, -1)

cdef void advance_turn(State* s) noexcept nogil:
    pop(s)
    s.turn += 1
    if s.turn < turns_per_half_year(s):
        push_plain(s, K_TURN, turn_player(s))
    else:
        push_program(s, s.start_player, HE_WINDOW_START)

cdef enum:
    FLOW_STEPPED = -2   # flow_step ran one automatic frame

cdef void flow(State* s) noexcept nogil:
    """Run automatic frames until a real decision (or the game end) is on top."""
    cdef int buf[MAX_LEGAL]
    flow_into(s, buf)

cdef inline int flow_step(State* s, int* buf) noexcept nogil:
    """One automatic frame of flow(): FLOW_STEPPED when it ran one; otherwise what flow_into
    returns (the decision's legal ids in `buf` and their count, 0 at the end, -1 at a turn).
    GameState.apply_traced runs the same steps one by one to report what each did."""
    cdef Frame* f = top(s)
    cdef int n
    if f.kind == K_ADVANCE:
        advance_turn(s)
    elif f.kind == K_HALF_END:
        half_end_step(s, f)
    elif f.kind == K_GAME_OVER:
        return 0
    elif f.kind == K_TURN:
        return -1   # a turn always offers a pass and a free space: never forced
    else:
        n = legal_actions(s, buf)
        if n == 0:
            # a decision with nothing left to choose is finished
            pop(s)
        elif n == 1:
            # a forced choice is made for the player (docs/rules-decisions.md)
            apply_raw(s, buf[0])
        else:
            return n
    return FLOW_STEPPED

cdef int flow_into(State* s, int* buf) noexcept nogil:
    """flow(), leaving the legal ids of the decision it stops at in `buf`: returns their
    count, 0 at the game end, or -1 at a turn (whose ids flow does not need)."""
    cdef int n, guard = 0
    while s.sp > 0 and guard < 10000:
        guard += 1
        n = flow_step(s, buf)
        if n != FLOW_STEPPED:
            return n
    return 0

# ---- legal actions ----

cdef int anytime_actions(State* s, int pi, int* out, int n, int final) noexcept nogil:
    """Anytime actions of player pi: peat-boat exchange, clock buildings, loading (not in the
    window before final scoring)."""
    cdef Player* p = &s.pl[pi]
    cdef int g
    if p.peat_boats > 0 and p.goods[G_PEAT] >= PEAT_BOAT_PEAT_N:
        for g in range(NTRACK_GOODS):
            if p.goods[g] < good_cap(g):
                out[n] = ACT_EXCHANGE + g
                n += 1
    n = building_use_actions(s, pi, out, n)
    if not final:
        n = load_actions(s, pi, out, n)
    return n

cdef int turn_actions(State* s, int pi, int* out) noexcept nogil:
    cdef int n = 0, i, summer = is_summer(s)
    out[n] = ACT_PASS
    n += 1
    for i in range(NSPACES):
        if s.occupied & (<uint32_t>1 << i) and (SOLO_OWN_BLOCK or not s.solo):
            continue
        if space_season(i) != summer and (s.special_by >= 0 or (s.solo and not SOLO_SPECIAL)):
            continue
        if space_can_start(s, pi, i, space_season(i) != summer):
            out[n] = ACT_PLACE + i
            n += 1
    return anytime_actions(s, pi, out, n, 0)

cdef void sort_ints(int* a, int n) noexcept nogil:
    cdef int i, j, t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t

cdef int legal_actions(State* s, int* out) noexcept nogil:
    """The legal ids of the pending decision, sorted ascending, without duplicates."""
    cdef Frame* f
    cdef int n = 0, t, pi
    cdef BreedPlans plans
    if s.sp == 0:
        return 0
    f = top(s)
    pi = f.player
    if f.kind == K_TURN:
        n = turn_actions(s, pi, out)
    elif f.kind == K_END_WINDOW:
        out[0] = ACT_STOP
        n = anytime_actions(s, pi, out, 1, 0)
    elif f.kind == K_FINAL_WINDOW:
        out[0] = ACT_STOP
        n = anytime_actions(s, pi, out, 1, 1)
    elif f.kind == K_FEED:
        n = give_animal_actions(&s.pl[pi], feed_owed(f), feed_lowest(f), out, n)
    elif f.kind == K_DISCARD:
        if not housable(&s.pl[pi]):
            for t in range(NANIMALS):
                if s.pl[pi].animals[t] > 0:
                    out[n] = ACT_ANIMAL + t
                    n += 1
    elif f.kind == K_BREED:
        breed_plans(&s.pl[pi], &plans)
        for t in range(plans.n):
            out[n] = ACT_BREED + t
            n += 1
    elif f.kind == K_NOVEMBER:
        n = november_actions(s, pi, out)
    elif f.kind == K_ACTION:
        n = action_frame_legal(s, f, out)
    if n > 1:
        sort_ints(out, n)
    return n

# ---- applying ----

cdef int apply_anytime(State* s, int pi, int a) noexcept nogil:
    """Apply an anytime action; 1 if a was one."""
    cdef Player* p = &s.pl[pi]
    if ACT_EXCHANGE <= a < ACT_EXCHANGE + NTRACK_GOODS:
        p.goods[G_PEAT] -= PEAT_BOAT_PEAT_N
        gain(p, a - ACT_EXCHANGE, PEAT_BOAT_GOOD_N)
        return 1
    if ACT_USE <= a < ACT_USE + NBUILDINGS:
        use_building(s, pi, a - ACT_USE)
        return 1
    if ACT_LOAD <= a < ACT_GOOD:
        apply_load(s, pi, a - ACT_LOAD)
        return 1
    return 0

cdef void apply_action(State* s, int a) noexcept nogil:
    """Apply a legal action (the caller has checked it) and run to the next decision."""
    apply_raw(s, a)
    flow(s)

cdef int apply_action_next(State* s, int a, int* buf) noexcept nogil:
    """apply_action(), then the legal ids of the next decision in `buf`; returns their count
    (the playout loops use it so that no decision's ids are generated twice)."""
    apply_raw(s, a)
    cdef int n = flow_into(s, buf)
    if n < 0:
        n = legal_actions(s, buf)
    return n

cdef void apply_raw(State* s, int a) noexcept nogil:
    """Apply a legal action without running the automatic frames after it."""
    cdef Frame* f = top(s)
    cdef int pi = f.player, space, t
    cdef BreedPlans plans
    if f.kind == K_TURN:
        if a == ACT_PASS:
            f.kind = K_ADVANCE
        elif ACT_PLACE <= a < ACT_PLACE + NSPACES:
            space = a - ACT_PLACE
            s.occupied |= <uint32_t>1 << space
            if pi == 1:
                s.occupied_by |= <uint32_t>1 << space
            if space_season(space) != is_summer(s):
                s.special_by = <int8_t>pi
            f.kind = K_ADVANCE
            space_start(s, pi, space)
        else:
            apply_anytime(s, pi, a)
    elif f.kind == K_END_WINDOW or f.kind == K_FINAL_WINDOW:
        if a == ACT_STOP:
            pop(s)
        else:
            apply_anytime(s, pi, a)
    elif f.kind == K_FEED:
        t = a - ACT_ANIMAL
        s.pl[pi].animals[t] -= 1
        fed_animal(f, t)
        if feed_owed(f) <= 0:
            pop(s)
    elif f.kind == K_DISCARD:
        s.pl[pi].animals[a - ACT_ANIMAL] -= 1
        if housable(&s.pl[pi]):
            pop(s)
    elif f.kind == K_BREED:
        breed_plans(&s.pl[pi], &plans)
        t = a - ACT_BREED
        pop(s)
        apply_breeding(&s.pl[pi], plans.v[t])
    elif f.kind == K_NOVEMBER:
        apply_november(s, f, a)
    elif f.kind == K_ACTION:
        action_frame_apply(s, f, a)

cdef int is_legal(State* s, int a) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef int n, i
    if a < 0 or a >= NUM_ACTIONS:
        return 0
    n = legal_actions(s, buf)
    for i in range(n):
        if buf[i] == a:
            return 1
    return 0

# ---- K_ACTION frames: to the section of their space or sub-decision ----

cdef int action_frame_legal(State* s, Frame* f, int* out) noexcept nogil:
    cdef int what = action_of(f)
    if what < NSPACES:
        return space_frame_legal(s, f, out)
    if what == F_PAY_BUILDING:
        return pay_building_legal(s, f, out)
    if what <= F_ANIMALS:
        return subdecision_legal(s, f, out)
    if what == F_DELIVER or what == F_GIVE_ANIMALS or what == F_GIVE_CLOTHING:
        return delivery_frame_legal(s, f, out)
    return building_frame_legal(s, f, out)

cdef void action_frame_apply(State* s, Frame* f, int a) noexcept nogil:
    cdef int what = action_of(f)
    if what < NSPACES:
        space_frame_apply(s, f, a)
    elif what == F_PAY_BUILDING:
        pay_building_apply(s, f, a)
    elif a == ACT_STOP:
        pop(s)          # every other sub-decision ends at STOP
    elif what <= F_ANIMALS:
        subdecision_apply(s, f, a)
    elif what == F_DELIVER or what == F_GIVE_ANIMALS or what == F_GIVE_CLOTHING:
        delivery_frame_apply(s, f, a)
    else:
        building_frame_apply(s, f, a)
