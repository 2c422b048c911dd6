# Positions as plain dicts (the JSON format of docs/position-format.md): written here, read
# from the checked values of arle_ai.formats.position.check_position (below: the core copies them).
#
# Offers: _state_to_dict, _state_from_dict (the installed check_position, then the copy and
#   the checks that need the engine), _state_from_checked, _position_limits (the names and
#   numbers check_position checks against), the bounds POS_*.
# Uses: _tables, _state, _data, _rng (rng_seed), _frames (raw fields: the format's keys a, b, c,
#   d, m), _home, _supply, _barn, _engine (turn_player, flow, legal_actions, the HE_* steps),
#   _seam (check_position), _names.
# Invariants: a position from outside reaches the struct only through check_position and the
#   guards here; whatever passes gives a struct the engine could have produced, with a legal
#   decision pending (or the game over).

from arle_ai.base.errors import PositionError

def _bits(mask, keys):
    return [keys[i] for i in range(len(keys)) if (mask >> i) & 1]


cdef dict _player_to_dict(Player* p):
    goods = {GOOD_NAMES[g]: p.goods[g] for g in range(NGOODS)}
    return {
        "goods": goods,
        "animals": {ANIMAL_NAMES[t]: p.animals[t] for t in range(3)},
        "tools": {TOOL_KEYS[t]: TOOL_VALUE[t][p.tools[t]] for t in range(NTOOLS)},
        "home": {
            "dikes": p.dikes,
            "hydrated_moors": p.hydrated,
            "dehydrated_moors": [p.dehydrated[i] for i in range(MOOR_TILES) if p.dehydrated[i] > 0],
            "boardwalk_peat": p.boardwalk,
            "grain_fields": p.grain_fields,
            "flax_fields": p.flax_fields,
            "forests": p.forests,
            "parks": p.parks,
            "stalls": p.stalls,
            "depots": p.depots,
            "stables": p.stables,
            "double_stalls": p.double_stalls,
            "buildings": _bits(p.buildings, BUILDING_KEYS),
        },
        "barn": {
            "peat_boats": p.peat_boats,
            "plows": p.plows,
            "vehicles": [{"kind": VEHICLE_KEYS[p.veh[i].kind],
                          "used": [k for k in range(VEH_NSPACES[p.veh[i].kind]) if (p.veh[i].used >> k) & 1]}
                         for i in range(p.nveh)],
        },
        "loaded": dict({LOAD_NAMES[i]: p.loaded[i] for i in range(NLOAD)},
                       destinations=_bits(p.dest_loaded, DEST_KEYS)),
        "travel": _bits(p.dest_done, DEST_KEYS),
        "bottlenecks": p.bottlenecks,
        "november_used": _bits(p.november_used & NOVEMBER_HOUSES, BUILDING_KEYS),
    }


cdef dict _state_to_dict(State* s):
    cdef Frame f
    occupied = {}
    for i in range(NSPACES):
        if (s.occupied >> i) & 1:
            occupied[SPACE_KEYS[i]] = 1 if (s.occupied_by >> i) & 1 else 0
    pending = []
    for i in range(s.sp):
        f = s.stack[i]
        fr = {"kind": FRAME_KINDS[f.kind], "player": f.player}
        if f.kind == K_ACTION:
            fr["step"] = _frame_step_name(f.what)
        else:
            fr["a"] = f.what
        fr.update(b=f.step, c=f.count, d=f.low, m=f.mask)
        pending.append(fr)
    return {
        "format": POSITION_FORMAT,
        "setup": {"seed": s.seed, "variant": VARIANTS[s.variant], "players": 1 if s.solo else 2,
                  "buildings": _bits(s.in_play, BUILDING_KEYS)},
        "half_year": s.half_year,
        "season": "summer" if s.half_year & 1 else "winter",
        "start_player": s.start_player,
        "workers_placed": s.turn,
        "special_action_by": None if s.special_by < 0 else s.special_by,
        "occupied": occupied,
        "buildings_on_board": _bits(s.available, BUILDING_KEYS),
        "players": ([_player_to_dict(&s.pl[0])] if s.solo
                    else [_player_to_dict(&s.pl[0]), _player_to_dict(&s.pl[1])]),
        "pending": pending,
    }


# ---- loading a checked position ----
# arle_ai.formats.position.check_position validates the Python objects (types, ranges, names, unknown
# fields; docs/position-format.md) and hands over plain ints in the order the struct is filled
# (CheckedPosition). The core only copies them, guarding every value it writes or later
# indexes with (a ValueError that a checked position never meets), and checks what needs the
# engine: land and barn room, loaded widths, buildings owned once, supplies, the decision
# stack, housing, a legal decision.

# Bounds of a position's values that no rules number gives: what the core's int8/int16 fields
# hold and a sound position stays within. The one source of these ranges for check_position
# (through _position_limits) and for the core's guards below.
cdef enum:
    POS_ANIMALS_MAX = 99    # animals of one type
    POS_LOADED_MAX = 16     # items of one kind loaded on a player's vehicles
    POS_FRAME_A_MAX = 60    # a frame's "a" (Frame.what) and "c" (Frame.count)
    POS_FRAME_B_MAX = 16    # a frame's "b" (Frame.step) and "d" (Frame.low)
    POS_FRAME_M_MAX = 0x7FFF  # a frame's "m" (Frame.mask, int16)

_POSITION_LIMITS = None  # (TABLES_LOADS when built, the limits): built on first use


def _position_limits():
    """The names and numbers a position is checked against (arle_ai.formats.position.check_position),
    from the tables the core holds now (after a test's _reload_tables too: a refill makes the
    cache stale).
    The same dict each call until then: read it, do not change it."""
    global _POSITION_LIMITS
    if _POSITION_LIMITS is None or _POSITION_LIMITS[0] != TABLES_LOADS:
        _POSITION_LIMITS = (TABLES_LOADS, _build_position_limits())
    return _POSITION_LIMITS[1]


def _index(keys):
    return {k: i for i, k in enumerate(keys)}


def _build_position_limits():
    cdef int g, t, k
    # the November houses by their building index (a mask over BUILDING_KEYS, like owned ones)
    november = tuple([BUILDING_KEYS[k] for k in range(NBUILDINGS) if (NOVEMBER_HOUSES >> k) & 1])
    tools = []
    for t in range(NTOOLS):
        tools.append((TOOL_KEYS[t], tuple([TOOL_VALUE[t][k] for k in range(TOOL_LEN[t])])))
    return {
        "format": POSITION_FORMAT, "max_seed": MAX_SEED, "variants": VARIANTS,
        "player_counts": PLAYER_COUNTS, "solo_workers": SOLO_TURNS,
        "solo_special_action": bool(SOLO_SPECIAL),
        "buildings": BUILDING_KEYS, "building_index": _index(BUILDING_KEYS),
        # the board's building space each building goes on (its colour's), as loaded
        "building_spaces": _BUILDING_SPACES, "colour_spaces": dict(_COLOUR_SPACES),
        "half_years": HALF_YEARS, "turns_per_half_year": TURNS_PER_HALF_YEAR,
        "spaces": SPACE_KEYS, "space_index": _index(SPACE_KEYS), "space_seasons": tuple([space_season(k) for k in range(NSPACES)]),
        "goods": tuple([(GOOD_NAMES[g], good_cap(g)) for g in range(NGOODS)]),
        "animals": ANIMAL_NAMES, "animals_max": POS_ANIMALS_MAX,
        "animal_fields": tuple([(ANIMAL_NAMES[t], POS_ANIMALS_MAX) for t in range(NANIMALS)]),
        "tools": tuple(tools),
        "dike_steps": DIKE_STEPS_N, "moor_tiles": MOOR_TILES, "moor_peat": MOOR_PEAT,
        "start_hydrated": START_HYDRATED,
        "start_boardwalk": START_BOARDWALK, "start_grain_fields": START_GRAIN_FIELDS,
        "start_flax_fields": START_FLAX_FIELDS, "start_stalls": START_STALLS,
        "supply_fields": SUPPLY_FIELDS, "supply_forest_park": SUPPLY_FOREST_PARK,
        "supply_stall_depot": SUPPLY_STALL_DEPOT, "supply_stable_double": SUPPLY_STABLE_DOUBLE,
        "supply_boat_plow": SUPPLY_BOAT_PLOW,
        "vehicle_keys": VEHICLE_KEYS, "first_vehicle": V_HANDCART,
        "vehicle_spaces": tuple([VEH_NSPACES[k] for k in range(NVKINDS)]),
        "max_vehicles": MAXVEH, "loads": LOAD_NAMES, "loaded_max": POS_LOADED_MAX,
        "loaded_fields": tuple([(LOAD_NAMES[t], POS_LOADED_MAX) for t in range(NLOAD)]),
        "destinations": DEST_KEYS, "destination_index": _index(DEST_KEYS),
        "bottlenecks_max": BOTTLENECKS_MAX, "november_houses": november,
        "november_index": {key: BUILDING_KEYS.index(key) for key in november},
        "stack": STACK, "frame_kinds": FRAME_KINDS, "sub_frames": SUB_FRAMES,
        "first_sub_frame": F_PAY_BUILDING, "frame_a_max": POS_FRAME_A_MAX,
        "frame_b_max": POS_FRAME_B_MAX, "frame_m_max": POS_FRAME_M_MAX,
    }


cdef inline bint _bits_within(mask, int n):
    """Whether `mask` (a Python int) is a bitmask over n keys."""
    return mask >= 0 and mask >> n == 0


cdef inline void _guard(bint ok, str what) except *:
    """The core's own bound on a value it copies: never met by a checked position."""
    if not ok:
        raise ValueError(f"checked position: {what} out of range")


cdef void _player_from_checked(Player* p, c, int pi) except *:
    cdef int g, t, i, k, m, used_width = 0, load_width = 0
    where = f"players[{pi}]"
    _guard(len(c.goods) == NGOODS and len(c.animals) == NANIMALS and len(c.tools) == NTOOLS
           and len(c.loaded) == NLOAD and len(c.dehydrated) <= MOOR_TILES
           and len(c.vehicles) <= MAXVEH, f"{where}: a table's length")
    for g in range(NGOODS):
        _guard(0 <= c.goods[g] <= good_cap(g), f"{where}.goods")
        p.goods[g] = c.goods[g]
    for t in range(NANIMALS):
        _guard(0 <= c.animals[t] <= POS_ANIMALS_MAX, f"{where}.animals")
        p.animals[t] = c.animals[t]
    for t in range(NTOOLS):
        _guard(0 <= c.tools[t] < TOOL_LEN[t], f"{where}.tools")
        p.tools[t] = c.tools[t]
    _guard(0 <= c.dikes <= DIKE_STEPS_N and 0 <= c.hydrated <= MOOR_TILES
           and c.hydrated + len(c.dehydrated) + c.moors_removed == MOOR_TILES, f"{where}.home")
    p.dikes = c.dikes
    p.hydrated = c.hydrated
    for i in range(len(c.dehydrated)):
        _guard(1 <= c.dehydrated[i] <= MOOR_PEAT, f"{where}.home.dehydrated_moors")
        p.dehydrated[i] = c.dehydrated[i]
    p.moors_removed = c.moors_removed
    p.boardwalk = c.boardwalk
    p.grain_fields = c.grain_fields
    p.flax_fields = c.flax_fields
    p.forests = c.forests
    p.parks = c.parks
    p.stalls = c.stalls
    p.depots = c.depots
    p.stables = c.stables
    p.double_stalls = c.double_stalls
    _guard(_bits_within(c.buildings, NBUILDINGS), f"{where}.home.buildings")
    p.buildings = c.buildings
    if land_occupied(p) > land_total(p):
        raise PositionError(f"{where}.home: {land_occupied(p)} tiles need land spaces but only "
                            f"{land_total(p)} exist (dikes {p.dikes}, moors removed "
                            f"{p.moors_removed})")
    p.peat_boats = c.peat_boats
    p.plows = c.plows
    for i in range(len(c.vehicles)):
        k, m = c.vehicles[i]
        _guard(V_HANDCART <= k < NVKINDS and 0 <= m < (1 << VEH_NSPACES[k]),
               f"{where}.barn.vehicles")
        p.veh[i].kind = k
        p.veh[i].used = m
        for t in range(VEH_NSPACES[k]):
            if (m >> t) & 1:
                used_width += VEH_WIDTH[k][t]
    p.nveh = len(c.vehicles)
    sort_vehicles(p)
    if (barn_small(p) > BARN_SMALL + BARN_FLEX or large_vehicles(p) > BARN_LARGE + BARN_FLEX
            or barn_small(p) + large_vehicles(p) > BARN_SMALL + BARN_LARGE + BARN_FLEX):
        raise PositionError(f"{where}.barn: more pieces than the barn holds ({BARN_SMALL} small "
                            f"+ {BARN_LARGE} large + {BARN_FLEX} either)")
    for i in range(NLOAD):
        _guard(0 <= c.loaded[i] <= POS_LOADED_MAX, f"{where}.loaded")
        p.loaded[i] = c.loaded[i]
        load_width += p.loaded[i] * LOAD_SIZE[i]
    _guard(_bits_within(c.dest_loaded, NDEST) and _bits_within(c.dest_done, NDEST),
           f"{where}: destinations")
    p.dest_loaded = c.dest_loaded
    for i in range(NDEST):
        if (p.dest_loaded >> i) & 1:
            load_width += DEST_SIZE[i]
    if load_width != used_width:
        raise PositionError(f"{where}.loaded: the loaded items take {load_width} vehicle spaces "
                            f"but {used_width} are marked used in {where}.barn.vehicles")
    p.dest_done = c.dest_done
    if p.dest_done & p.dest_loaded:
        raise PositionError(f"{where}.travel: a destination is both travelled and loaded")
    p.travel = 0
    for i in range(NDEST):
        if (p.dest_done >> i) & 1:
            p.travel += DEST_SIZE[i]
    p.bottlenecks = c.bottlenecks
    _guard(_bits_within(c.november_used, NOVEMBER_BITS) and c.november_used & ~NOVEMBER_HOUSES == 0,
           f"{where}.november_used")
    p.november_used = c.november_used


cdef void _frames_from_checked(State* s, tuple frames) except *:
    cdef Frame* f
    cdef int i, k, a, b, c, d, m
    _guard(0 < len(frames) <= STACK, "pending")
    for i in range(len(frames)):
        k, player, a, b, c, d, m = frames[i]
        _guard(0 < k < NKINDS and k != K_INVENTORY and -1 <= player <= 1
               and 0 <= a <= POS_FRAME_A_MAX and 0 <= b <= POS_FRAME_B_MAX
               and 0 <= c <= POS_FRAME_A_MAX and 0 <= d <= POS_FRAME_B_MAX
               and 0 <= m <= POS_FRAME_M_MAX
               and (k != K_ACTION or a < NSPACES
                    or F_PAY_BUILDING <= a < F_PAY_BUILDING + len(SUB_FRAMES)),
               f"pending[{i}]")
        # indexes the core uses must be in range
        if k == K_ACTION and a == F_PAY_BUILDING and (c >= NBUILDINGS or b > 1):
            raise PositionError(f"pending[{i}].c: not a building index")
        if k == K_ACTION and a == F_DELIVER and (c >= NDEST or m >= 32):
            raise PositionError(f"pending[{i}].c: not a destination index")
        if k == K_ACTION and a == F_MASTER and d > NTOOLS:
            raise PositionError(f"pending[{i}].d: not a tool index")
        if ((k == K_FEED and b > 2) or (k == K_ACTION and a in (F_ANIMALS, F_GIVE_ANIMALS, W_BUTCHER)
                                         and d > 2) or (k == K_ACTION and a == F_FIELD and d > 1)):
            raise PositionError(f"pending[{i}]: an animal or field index out of range")
        f = &s.stack[i]
        f.kind = k
        f.player = player
        f.what = a
        f.step = b
        f.count = c
        f.low = d
        f.mask = m
    s.sp = len(frames)


# The half-year's end program (_engine.pxi, half_end_step) keeps its next step in the a of its
# frame. Each decision it pushes sits right above it, with the step already counted: the
# steps after which each kind of decision can be pending, for the start player and the other.
_PROGRAM_STEPS = {
    K_END_WINDOW: (HE_WINDOW_START + 1, HE_WINDOW_OTHER + 1),
    K_NOVEMBER: (HE_NOVEMBER_START + 1, HE_NOVEMBER_OTHER + 1),
    K_BREED: (HE_INVENTORY_START + INV_PRODUCE + 1, HE_INVENTORY_OTHER + INV_PRODUCE + 1),
    K_FEED: (HE_INVENTORY_START + INV_SUSTENANCE + 1, HE_INVENTORY_OTHER + INV_SUSTENANCE + 1),
    K_FINAL_WINDOW: (HE_FINAL_START + 1, HE_FINAL_OTHER + 1),
}


cdef inline bint _holds(State* s, int space, int player):
    return (s.occupied >> space) & 1 and <int>((s.occupied_by >> space) & 1) == player


cdef void _check_stack(State* s) except *:
    """Refuse a decision stack the engine could not have produced: the bottom frame is the turn
    (or its end, the half-year's end program, the game's end); the end program's decisions sit
    right above it and match its step; a space's action sits right above the worker that was
    placed there; everything else above belongs to the player of the frame below it."""
    cdef Frame* f
    cdef Frame* below
    cdef int i, k, space, bk = s.stack[0].kind, bp = s.stack[0].player
    names = FRAME_KINDS
    if bk not in (K_TURN, K_ADVANCE, K_HALF_END, K_GAME_OVER):
        raise PositionError("pending[0]: the bottom frame must be turn, advance, half_end or game_over")
    cdef int turns = turns_per_half_year(s)
    if bk in (K_TURN, K_ADVANCE) and (s.turn >= turns or bp != turn_player(s)):
        raise PositionError(f"pending[0]: a {names[bk]} of player {bp} does not match "
                            f"{s.turn} workers placed (the turn is player {turn_player(s)}'s, and "
                            f"only {turns} workers are placed in a half-year)")
    if bk in (K_HALF_END, K_GAME_OVER) and s.turn != turns:
        raise PositionError(f"pending[0]: {names[bk]} comes only after all {turns} "
                            f"workers are placed, not {s.turn}")
    if bk == K_GAME_OVER and (s.sp != 1 or s.half_year != HALF_YEARS):
        raise PositionError(f"pending: game_over is the only frame, after half-year {HALF_YEARS}")
    if bk == K_HALF_END:
        pc = program_step(&s.stack[0])
        # (the inventorying slots: HE_INVENTORY_START.., HE_INVENTORY_OTHER.., 10 steps each)
        if not (pc < (HE_INVENTORY_OTHER if s.solo else 2 * HE_INVENTORY_OTHER - HE_INVENTORY_START)
                or pc == HE_PREPARE
                or (s.half_year == HALF_YEARS and HE_FINAL_START <= pc <= HE_GAME_END)):
            raise PositionError(f"pending[0].a: {pc} is not a step of the half-year's end")
    actions = []  # the action steps on the stack, bottom first
    for i in range(1, s.sp):
        f = &s.stack[i]
        below = &s.stack[i - 1]
        k = f.kind
        where = f"pending[{i}]"
        if k in (K_TURN, K_ADVANCE, K_HALF_END, K_GAME_OVER):
            raise PositionError(f"{where}: a {names[k]} frame can only be the bottom one")
        if k in _PROGRAM_STEPS:
            steps = _PROGRAM_STEPS[k]
            if i != 1 or bk != K_HALF_END or program_step(&s.stack[0]) not in steps:
                raise PositionError(f"{where}: a {names[k]} decision comes only right above "
                                    f"half_end, at its step {steps[0]} or {steps[1]}")
            if s.solo and program_step(&s.stack[0]) != steps[0]:
                raise PositionError(f"{where}: at step {steps[1]} the decision is the other "
                                    "player's, and a solo game has none")
            owner = s.start_player if program_step(&s.stack[0]) == steps[0] else 1 - s.start_player
            if f.player != owner:
                raise PositionError(f"{where}.player: at this step the decision is player "
                                    f"{owner}'s")
            if k == K_FINAL_WINDOW and s.half_year != HALF_YEARS:
                raise PositionError(f"{where}: the window before final scoring is in half-year "
                                    f"{HALF_YEARS}")
            if k == K_NOVEMBER and (not s.half_year & 1 or not owns_november_house(s, f.player)):
                raise PositionError(f"{where}: November houses are used after a summer, by their "
                                    "owner")
            if k == K_BREED and s.half_year & 1:
                raise PositionError(f"{where}: breeding is in a winter half-year")
            if k in (K_FEED, K_BREED) and i != s.sp - 1:
                raise PositionError(f"{where}: nothing can be pending above a {names[k]} decision")
            continue
        # an action step (or returning animals) of the player deciding below
        if i == 1 and bk == K_HALF_END:
            raise PositionError(f"{where}: the half-year's end program pushes only its own "
                                "decisions (end_window, november, feed, breed, final_window)")
        if below.kind in (K_FEED, K_BREED):
            raise PositionError(f"{where}: nothing can be pending above a {names[below.kind]} "
                                "decision")
        if f.player != below.player:
            raise PositionError(f"{where}.player: {f.player} is not the player deciding below it "
                                f"({below.player})")
        if k == K_ACTION:
            actions.append(action_of(f))
            if len(actions) > 2 or (len(actions) == 2 and not (
                    actions[0] == F_DELIVER and action_of(f) in (F_GIVE_ANIMALS, F_GIVE_CLOTHING))):
                raise PositionError(f"{where}: one action step is carried out at a time (only a "
                                    "delivery waits for the animals or clothing it hands over)")
        if k == K_ACTION and action_of(f) == F_PAY_BUILDING and not (
                (s.available >> paying_for(f)) & 1 and land_free(&s.pl[f.player]) > 0):
            raise PositionError(f"{where}: paying for building {BUILDING_KEYS[paying_for(f)]!r} needs "
                                f"it on the board and a free land space of player {f.player}")
        if k == K_ACTION and action_of(f) < NSPACES:
            space = action_of(f)
            if i != 1 or bk != K_ADVANCE:
                raise PositionError(f"{where}: the action of space {SPACE_KEYS[space]!r} comes only "
                                    "right above the advance of the worker placed there")
            if not _holds(s, space, f.player) and not (
                    (s.occupied >> space) & 1 and (_holds(s, S_LABORER, f.player)
                                                   or _holds(s, W_LABORER, f.player))):
                raise PositionError(f"{where}: space {SPACE_KEYS[space]!r} holds no worker of player "
                                    f"{f.player}, nor does a laborer space imitating it")


cdef void _state_from_checked(State* s, c) except *:
    """Fill `s` from a CheckedPosition (arle_ai.formats.position.check_position), checking what needs
    the engine; PositionError names the problem."""
    cdef Player* p
    cdef int pi, who, placed_by, turns_of, placing, n_occupied, nplayers = len(c.players)
    memset(s, 0, sizeof(State))
    _guard(0 <= c.seed <= MAX_SEED and 0 <= c.variant < len(VARIANTS)
           and _bits_within(c.in_play, NBUILDINGS) and _bits_within(c.available, NBUILDINGS)
           and 1 <= c.half_year <= HALF_YEARS and 0 <= c.start_player <= 1
           and 0 <= c.workers_placed <= TURNS_PER_HALF_YEAR and -1 <= c.special_by <= 1
           and _bits_within(c.occupied, NSPACES) and c.occupied_by & ~c.occupied == 0
           and nplayers in PLAYER_COUNTS, "setup or turn")
    # the solo game: player 0 alone, always starting (check_position names each of these)
    _guard(nplayers == 2 or (c.start_player == 0 and c.special_by <= (0 if SOLO_SPECIAL else -1)
                             and c.occupied_by == 0 and c.workers_placed <= SOLO_TURNS
                             and (c.pending is None
                                  or all(fr[1] <= 0 for fr in c.pending))), "solo game")
    s.solo = 1 if nplayers == 1 else 0
    s.seed = c.seed
    s.rng = rng_seed(c.seed)
    s.variant = c.variant
    s.in_play = c.in_play
    s.half_year = c.half_year
    s.start_player = c.start_player
    s.turn = c.workers_placed
    s.special_by = c.special_by
    s.occupied = c.occupied
    s.occupied_by = c.occupied_by
    s.available = c.available
    for pi in range(nplayers):
        _player_from_checked(&s.pl[pi], c.players[pi], pi)
    if s.solo:
        setup_absent_seat(&s.pl[1])
    for pi in range(2):
        owned = s.pl[pi].buildings
        if owned & s.available:
            raise PositionError(f"players[{pi}].home.buildings: a building still on the board")
        if owned & ~s.in_play:
            raise PositionError(f"players[{pi}].home.buildings: a building not in play")
    both = s.pl[0].buildings & s.pl[1].buildings
    if both:
        raise PositionError(f"players[1].home.buildings: {_bits(both, BUILDING_KEYS)[0]!r} is also "
                            "owned by players[0] (each building exists once)")
    if (s.in_play & ~s.available) != (s.pl[0].buildings | s.pl[1].buildings):
        raise PositionError("buildings_on_board: every building in play is on the board or owned")
    supplies = (("fields", fields_left(s)), ("forests and parks", forests_left(s)),
                ("stalls and depots", stalls_left(s)), ("stables and double stalls", stables_left(s)),
                ("peat boats and plows", pieces_left(s, V_PEAT_BOAT)),
                ("handcarts and wagons", pieces_left(s, V_HANDCART)),
                ("carts and horse carts", pieces_left(s, V_CART)),
                ("carriages and droshkies", pieces_left(s, V_CARRIAGE)))
    for what, left in supplies:
        if left < 0:
            raise PositionError(f"players: more {what} than the game has")
    if c.pending is None:
        if s.turn < turns_per_half_year(s):
            push_plain(s, K_TURN, turn_player(s))
        else:
            push_program(s, s.start_player, HE_WINDOW_START)
    else:
        _frames_from_checked(s, c.pending)
        _check_stack(s)
    for pi in range(nplayers):
        discard_pending = any(s.stack[i].kind == K_DISCARD and s.stack[i].player == pi
                              for i in range(s.sp))
        if not discard_pending and not housable(&s.pl[pi]):
            p = &s.pl[pi]
            raise PositionError(f"players[{pi}].animals: {p.animals[A_SHEEP]} sheep, "
                                f"{p.animals[A_CATTLE]} cattle, {p.animals[A_HORSE]} horses do "
                                "not fit (stalls, stables, parks, empty land, dikes)")
    # the worker of an action still being carried out is placed but not yet counted
    placing = 1 if s.stack[0].kind == K_ADVANCE else 0
    n_occupied = popcount32(s.occupied)
    if n_occupied > s.turn + placing:
        raise PositionError(f"occupied: {n_occupied} spaces taken but only {s.turn + placing} "
                            "workers placed")
    for who in range(nplayers):
        placed_by = popcount32(s.occupied & s.occupied_by if who else s.occupied & ~s.occupied_by)
        if s.solo:
            turns_of = s.turn
        else:
            turns_of = (s.turn + (1 if who == s.start_player else 0)) // 2
        if placing and who == turn_player(s):
            turns_of += 1
        if placed_by > turns_of:
            raise PositionError(f"occupied: player {who} holds {placed_by} spaces, more workers "
                                f"than placed in {s.turn + placing} turns")
    flow(s)
    cdef int buf[MAX_LEGAL]
    if not is_terminal(s) and legal_actions(s, buf) == 0:
        raise PositionError("pending: the position has no legal decision")


cdef void _state_from_dict(State* s, d) except *:
    """Check the Python objects of a position (the installed check_position of
    arle_ai.formats.position: _seam.pxi), then copy."""
    _state_from_checked(s, _installed("check_position")(d))
