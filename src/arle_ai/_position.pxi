# Positions as plain dicts (the JSON format of docs/position-format.md) and their validation.
# Every value a caller gives is range-checked here before it reaches the C struct.

def _short(value, limit=40):
    """repr(value) for a message, cut to `limit` characters; never raises (an int past the
    digit limit or a deeply nested value is named by its type)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


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
            "dehydrated_moors": [p.dehydrated[i] for i in range(3) if p.dehydrated[i] > 0],
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
        "november_used": _bits(p.november_used, BUILDING_KEYS[:4]),
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
        "setup": {"seed": s.seed, "variant": VARIANTS[s.variant],
                  "buildings": _bits(s.in_play, BUILDING_KEYS)},
        "half_year": s.half_year,
        "season": "summer" if s.half_year & 1 else "winter",
        "start_player": s.start_player,
        "workers_placed": s.turn,
        "special_action_by": None if s.special_by < 0 else s.special_by,
        "occupied": occupied,
        "buildings_on_board": _bits(s.available, BUILDING_KEYS),
        "players": [_player_to_dict(&s.pl[0]), _player_to_dict(&s.pl[1])],
        "pending": pending,
    }


# ---- reading, with validation ----

class _Reader:
    """Reads typed fields out of nested dicts, naming the field in every error."""

    def __init__(self, data, path):
        if not isinstance(data, dict):
            raise PositionError(f"{path or 'position'}: expected an object, got {type(data).__name__}")
        self.data = data
        self.path = path
        self.used = set()

    def name(self, key):
        return f"{self.path}.{key}" if self.path else key

    def has(self, key):
        return key in self.data

    def get(self, key, default=None, required=False):
        if key not in self.data:
            if required:
                raise PositionError(f"{self.name(key)}: missing")
            return default
        self.used.add(key)
        return self.data[key]

    def int(self, key, lo, hi, default=None, required=False):
        v = self.get(key, default, required)
        if v is None and default is None and not required:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            raise PositionError(f"{self.name(key)}: expected an integer, got {_short(v)}")
        if not lo <= v <= hi:
            raise PositionError(f"{self.name(key)}: {_short(v)} is out of range {lo}..{hi}")
        return v

    def sub(self, key, required=False):
        v = self.get(key, {} if not required else None, required)
        return _Reader(v, self.name(key))

    def keys_list(self, key, allowed, what):
        v = self.get(key, [])
        if not isinstance(v, list):
            raise PositionError(f"{self.name(key)}: expected a list of {what}")
        out = []
        for x in v:
            if x not in allowed:
                raise PositionError(f"{self.name(key)}: unknown {what} {_short(x)}")
            if x in out:
                raise PositionError(f"{self.name(key)}: {_short(x)} listed twice")
            out.append(x)
        return out

    def done(self):
        extra = set(self.data) - self.used
        if extra:
            raise PositionError(f"{self.name(sorted(extra)[0])}: unknown field")


def _mask(keys, allowed):
    m = 0
    for k in keys:
        m |= 1 << allowed.index(k)
    return m


cdef void _player_from_dict(Player* p, r, int pi) except *:
    cdef int g, t, k, i
    path = r.path
    goods = r.sub("goods")
    for g in range(NGOODS):
        p.goods[g] = goods.int(GOOD_NAMES[g], 0, good_cap(g), default=0)
    goods.done()
    animals = r.sub("animals")
    for t in range(3):
        p.animals[t] = animals.int(ANIMAL_NAMES[t], 0, 99, default=0)
    animals.done()
    tools = r.sub("tools")
    for t in range(NTOOLS):
        values = [TOOL_VALUE[t][k] for k in range(TOOL_LEN[t])]
        v = tools.get(TOOL_KEYS[t], values[0])
        if v not in values or isinstance(v, bool):
            raise PositionError(f"{tools.name(TOOL_KEYS[t])}: {_short(v)} is not a space of the track "
                                f"(one of {values})")
        p.tools[t] = values.index(v)
    tools.done()
    home = r.sub("home")
    p.dikes = home.int("dikes", 0, DIKE_STEPS_N, default=0)
    p.hydrated = home.int("hydrated_moors", 0, 3, default=START_HYDRATED)
    dm = home.get("dehydrated_moors", [])
    if not isinstance(dm, list) or len(dm) > 3 - p.hydrated:
        raise PositionError(f"{home.name('dehydrated_moors')}: a list of at most {3 - p.hydrated} "
                            "peat counts (3 moor tiles in all)")
    for v in dm:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 4:
            raise PositionError(f"{home.name('dehydrated_moors')}: {_short(v)} is not a peat count 1..4 "
                                "(an emptied moor is removed)")
    for i, v in enumerate(sorted(dm, reverse=True)):
        p.dehydrated[i] = v
    p.moors_removed = 3 - p.hydrated - len(dm)
    p.boardwalk = home.int("boardwalk_peat", 0, START_BOARDWALK, default=START_BOARDWALK)
    p.grain_fields = home.int("grain_fields", 0, SUPPLY_FIELDS, default=START_GRAIN_FIELDS)
    p.flax_fields = home.int("flax_fields", 0, SUPPLY_FIELDS, default=START_FLAX_FIELDS)
    p.forests = home.int("forests", 0, SUPPLY_FOREST_PARK, default=0)
    p.parks = home.int("parks", 0, SUPPLY_FOREST_PARK, default=0)
    p.stalls = home.int("stalls", 0, SUPPLY_STALL_DEPOT, default=START_STALLS)
    p.depots = home.int("depots", 0, SUPPLY_STALL_DEPOT, default=0)
    p.stables = home.int("stables", 0, SUPPLY_STABLE_DOUBLE, default=0)
    p.double_stalls = home.int("double_stalls", 0, SUPPLY_STABLE_DOUBLE, default=0)
    p.buildings = _mask(home.keys_list("buildings", BUILDING_KEYS, "building"), BUILDING_KEYS)
    home.done()
    if land_occupied(p) > land_total(p):
        raise PositionError(f"{home.path}: {land_occupied(p)} tiles need land spaces but only "
                            f"{land_total(p)} exist (dikes {p.dikes}, moors removed {p.moors_removed})")
    barn = r.sub("barn")
    p.peat_boats = barn.int("peat_boats", 0, SUPPLY_BOAT_PLOW, default=0)
    p.plows = barn.int("plows", 0, SUPPLY_BOAT_PLOW, default=0)
    vehicles = barn.get("vehicles", [])
    if not isinstance(vehicles, list) or len(vehicles) > MAXVEH:
        raise PositionError(f"{barn.name('vehicles')}: a list of at most {MAXVEH} vehicles")
    used_width = 0
    for i, v in enumerate(vehicles):
        vr = _Reader(v, f"{barn.name('vehicles')}[{i}]")
        kind = vr.get("kind", required=True)
        if kind not in VEHICLE_KEYS[V_HANDCART:]:
            raise PositionError(f"{vr.name('kind')}: {_short(kind)} is not a vehicle "
                                f"(one of {list(VEHICLE_KEYS[V_HANDCART:])})")
        k = VEHICLE_KEYS.index(kind)
        used = vr.get("used", [])
        if not isinstance(used, list):
            raise PositionError(f"{vr.name('used')}: expected a list of compartment indexes")
        m = 0
        for c in used:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < VEH_NSPACES[k]:
                raise PositionError(f"{vr.name('used')}: {_short(c)} is not a compartment of a {kind} "
                                    f"(0..{VEH_NSPACES[k] - 1})")
            if (m >> c) & 1:
                raise PositionError(f"{vr.name('used')}: compartment {c} listed twice")
            m |= 1 << c
            used_width += VEH_WIDTH[k][c]
        vr.done()
        p.veh[i].kind = k
        p.veh[i].used = m
    p.nveh = len(vehicles)
    sort_vehicles(p)
    barn.done()
    if (barn_small(p) > BARN_SMALL + BARN_FLEX or large_vehicles(p) > BARN_LARGE + BARN_FLEX
            or barn_small(p) + large_vehicles(p) > BARN_SMALL + BARN_LARGE + BARN_FLEX):
        raise PositionError(f"{barn.path}: more pieces than the barn holds ({BARN_SMALL} small + "
                            f"{BARN_LARGE} large + {BARN_FLEX} either)")
    loaded = r.sub("loaded")
    load_width = 0
    for i in range(NLOAD):
        p.loaded[i] = loaded.int(LOAD_NAMES[i], 0, 16, default=0)
        load_width += p.loaded[i] * LOAD_SIZE[i]
    p.dest_loaded = _mask(loaded.keys_list("destinations", DEST_KEYS, "destination"), DEST_KEYS)
    for i in range(NDEST):
        if (p.dest_loaded >> i) & 1:
            load_width += DEST_SIZE[i]
    loaded.done()
    if load_width != used_width:
        raise PositionError(f"{loaded.path}: the loaded items take {load_width} vehicle spaces but "
                            f"{used_width} are marked used in {barn.name('vehicles')}")
    p.dest_done = _mask(r.keys_list("travel", DEST_KEYS, "destination"), DEST_KEYS)
    if p.dest_done & p.dest_loaded:
        raise PositionError(f"{r.name('travel')}: a destination is both travelled and loaded")
    p.travel = 0
    for i in range(NDEST):
        if (p.dest_done >> i) & 1:
            p.travel += DEST_SIZE[i]
    p.bottlenecks = r.int("bottlenecks", 0, BOTTLENECKS_MAX, default=0)
    p.november_used = _mask(r.keys_list("november_used", BUILDING_KEYS[:4], "light-green house"),
                            BUILDING_KEYS[:4])
    r.done()


_FRAME_INDEX = {name: i for i, name in enumerate(FRAME_KINDS)}


cdef void _frames_from_list(State* s, list frames) except *:
    cdef Frame* f
    if len(frames) > STACK:
        raise PositionError(f"pending: at most {STACK} frames")
    for i, fr in enumerate(frames):
        r = _Reader(fr, f"pending[{i}]")
        kind = r.get("kind", required=True)
        if not isinstance(kind, str) or kind not in _FRAME_INDEX or kind in ("none", "unused"):
            raise PositionError(f"{r.name('kind')}: unknown decision kind {_short(kind)}")
        k = _FRAME_INDEX[kind]
        player = r.int("player", -1, 1, default=0)
        if k == K_ACTION:
            step = r.get("step", required=True)
            if step in SPACE_KEYS:
                a = SPACE_KEYS.index(step)
            elif step in SUB_FRAMES:
                a = F_PAY_BUILDING + SUB_FRAMES.index(step)
            else:
                raise PositionError(f"{r.name('step')}: unknown step {_short(step)}")
        else:
            a = r.int("a", 0, 60, default=0)
        b = r.int("b", 0, 16, default=0)
        c = r.int("c", 0, 60, default=0)
        d = r.int("d", 0, 16, default=0)
        m = r.int("m", 0, 0x7FFF, default=0)
        r.done()
        if k != K_GAME_OVER and player < 0:
            raise PositionError(f"{r.name('player')}: must be 0 or 1")
        # indexes the core uses must be in range
        if k == K_ACTION and a == F_PAY_BUILDING and (c >= NBUILDINGS or b > 1):
            raise PositionError(f"{r.name('c')}: not a building index")
        if k == K_ACTION and a == F_DELIVER and (c >= NDEST or m >= 32):
            raise PositionError(f"{r.name('c')}: not a destination index")
        if k == K_ACTION and a == F_MASTER and d > NTOOLS:
            raise PositionError(f"{r.name('d')}: not a tool index")
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
    return (s.occupied >> space) & 1 and ((s.occupied_by >> space) & 1) == player


cdef void _check_stack(State* s) except *:
    """Refuse a decision stack the engine could not have produced: the bottom frame is the turn
    (or its end, the half-year's end program, the game's end); the end program's decisions sit
    right above it and match its step; a space's action sits right above the worker that was
    placed there; everything else above belongs to the player of the frame below it."""
    cdef Frame* f
    cdef Frame* below
    cdef int i, k, bk = s.stack[0].kind, bp = s.stack[0].player
    names = FRAME_KINDS
    if bk not in (K_TURN, K_ADVANCE, K_HALF_END, K_GAME_OVER):
        raise PositionError("pending[0]: the bottom frame must be turn, advance, half_end or game_over")
    if bk in (K_TURN, K_ADVANCE) and (s.turn >= TURNS_PER_HALF_YEAR or bp != turn_player(s)):
        raise PositionError(f"pending[0]: a {names[bk]} of player {bp} does not match "
                            f"{s.turn} workers placed (the turn is player {turn_player(s)}'s, and "
                            f"only {TURNS_PER_HALF_YEAR} workers are placed in a half-year)")
    if bk in (K_HALF_END, K_GAME_OVER) and s.turn != TURNS_PER_HALF_YEAR:
        raise PositionError(f"pending[0]: {names[bk]} comes only after all {TURNS_PER_HALF_YEAR} "
                            f"workers are placed, not {s.turn}")
    if bk == K_GAME_OVER and (s.sp != 1 or s.half_year != HALF_YEARS):
        raise PositionError(f"pending: game_over is the only frame, after half-year {HALF_YEARS}")
    if bk == K_HALF_END:
        pc = s.stack[0].what
        # (the inventorying slots: HE_INVENTORY_START.., HE_INVENTORY_OTHER.., 10 steps each)
        if not (pc < 2 * HE_INVENTORY_OTHER - HE_INVENTORY_START or pc == HE_PREPARE
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
            if i != 1 or bk != K_HALF_END or s.stack[0].what not in steps:
                raise PositionError(f"{where}: a {names[k]} decision comes only right above "
                                    f"half_end, at its step {steps[0]} or {steps[1]}")
            owner = s.start_player if s.stack[0].what == steps[0] else 1 - s.start_player
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
            actions.append(f.what)
            if len(actions) > 2 or (len(actions) == 2 and not (
                    actions[0] == F_DELIVER and f.what in (F_GIVE_ANIMALS, F_GIVE_CLOTHING))):
                raise PositionError(f"{where}: one action step is carried out at a time (only a "
                                    "delivery waits for the animals or clothing it hands over)")
        if k == K_ACTION and f.what == F_PAY_BUILDING and not (
                (s.available >> f.count) & 1 and land_free(&s.pl[f.player]) > 0):
            raise PositionError(f"{where}: paying for building {BUILDING_KEYS[f.count]!r} needs it on "
                                f"the board and a free land space of player {f.player}")
        if k == K_ACTION and f.what < NSPACES:
            if i != 1 or bk != K_ADVANCE:
                raise PositionError(f"{where}: the action of space {SPACE_KEYS[f.what]!r} comes only "
                                    "right above the advance of the worker placed there")
            if not _holds(s, f.what, f.player) and not (
                    (s.occupied >> f.what) & 1 and (_holds(s, S_LABORER, f.player)
                                                 or _holds(s, W_LABORER, f.player))):
                raise PositionError(f"{where}: space {SPACE_KEYS[f.what]!r} holds no worker of player "
                                    f"{f.player}, nor does a laborer space imitating it")


cdef void _state_from_dict(State* s, d) except *:
    cdef Player* p
    memset(s, 0, sizeof(State))
    r = _Reader(d, "")
    fmt = r.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise PositionError(f"format: expected {POSITION_FORMAT!r}, got {_short(fmt)}")
    setup = r.sub("setup")
    seed = setup.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise PositionError(f"setup.seed: expected an integer in 0..{MAX_SEED}, got {_short(seed)}")
    s.seed = seed
    s.rng = rng_seed(seed)
    variant = setup.get("variant", "standard")
    if variant not in VARIANTS:
        raise PositionError(f"setup.variant: {_short(variant)} is not one of {list(VARIANTS)}")
    s.variant = VARIANTS.index(variant)
    in_play = setup.keys_list("buildings", BUILDING_KEYS, "building")
    setup.done()
    colours = [BUILDING_COLOUR[BUILDING_KEYS.index(k)] for k in in_play]
    counts = [colours.count(c) for c in range(6)]
    want = {"green": counts[0] + counts[1], "yellow": counts[2], "orange": counts[3],
            "blue": counts[4], "red": counts[5]}
    for colour, spaces in _rules.BUILDING_COLOUR_SPACES.items():
        if want[colour] != spaces:
            raise PositionError(f"setup.buildings: {want[colour]} {colour} buildings in play, the "
                                f"board has {spaces} {colour} spaces")
    s.in_play = _mask(in_play, BUILDING_KEYS)
    s.half_year = r.int("half_year", 1, HALF_YEARS, required=True)
    season = r.get("season", None)
    if season is not None and season != ("summer" if s.half_year & 1 else "winter"):
        raise PositionError(f"season: half-year {s.half_year} is not {_short(season)}")
    s.start_player = r.int("start_player", 0, 1, required=True)
    s.turn = r.int("workers_placed", 0, TURNS_PER_HALF_YEAR, default=0)
    sab = r.get("special_action_by", None)
    if sab is not None and (isinstance(sab, bool) or sab not in (0, 1)):
        raise PositionError(f"special_action_by: expected null, 0 or 1, got {_short(sab)}")
    s.special_by = -1 if sab is None else sab
    occ = r.get("occupied", {})
    if not isinstance(occ, dict):
        raise PositionError("occupied: expected an object mapping space to player")
    off_season = 0
    for key, who in occ.items():
        if key not in SPACE_KEYS:
            raise PositionError(f"occupied.{key}: unknown action space")
        if isinstance(who, bool) or who not in (0, 1):
            raise PositionError(f"occupied.{key}: expected player 0 or 1, got {_short(who)}")
        i = SPACE_KEYS.index(key)
        s.occupied |= 1 << i
        if who == 1:
            s.occupied_by |= 1 << i
        if space_season(i) != (s.half_year & 1):
            off_season += 1
            if s.special_by != who:
                raise PositionError(f"occupied.{key}: a space of the other season needs "
                                    f"special_action_by = {who}")
    if off_season > 1:
        raise PositionError("occupied: only one worker per half-year may use the other season")
    on_board = r.keys_list("buildings_on_board", BUILDING_KEYS, "building")
    s.available = _mask(on_board, BUILDING_KEYS)
    if s.available & ~s.in_play:
        raise PositionError("buildings_on_board: a building that is not in play (setup.buildings)")
    players = r.get("players", required=True)
    if not isinstance(players, list) or len(players) != 2:
        raise PositionError("players: expected a list of 2 players")
    for pi in range(2):
        _player_from_dict(&s.pl[pi], _Reader(players[pi], f"players[{pi}]"), pi)
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
    frames = r.get("pending", None)
    r.done()
    if frames is None:
        if s.turn < TURNS_PER_HALF_YEAR:
            push(s, K_TURN, turn_player(s), 0, 0, 0, 0)
        else:
            push(s, K_HALF_END, s.start_player, 0, 0, 0, 0)
    else:
        if not isinstance(frames, list) or not frames:
            raise PositionError("pending: expected a non-empty list of decision frames")
        _frames_from_list(s, frames)
        _check_stack(s)
    for pi in range(2):
        discard_pending = any(s.stack[i].kind == K_DISCARD and s.stack[i].player == pi
                              for i in range(s.sp))
        if not discard_pending and not housable(&s.pl[pi]):
            p = &s.pl[pi]
            raise PositionError(f"players[{pi}].animals: {p.animals[0]} sheep, {p.animals[1]} "
                                f"cattle, {p.animals[2]} horses do not fit (stalls, stables, parks, "
                                "empty land, dikes)")
    # the worker of an action still being carried out is placed but not yet counted
    placing = 1 if s.stack[0].kind == K_ADVANCE else 0
    if len(occ) > s.turn + placing:
        raise PositionError(f"occupied: {len(occ)} spaces taken but only {s.turn + placing} "
                            "workers placed")
    for who in (0, 1):
        placed_by = sum(1 for v in occ.values() if v == who)
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
