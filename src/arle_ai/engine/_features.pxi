# Features: a position as a fixed-length float vector, from one player's point of view, for
# learned evaluations and observation tensors (docs/features.md lists every slot).
#
# Offers: write_features, NFEAT_MAX; FEATURE_LAYOUT, FEATURE_NAMES, NUM_FEATURES; _features
#   (GameState.features), features_batch.
# Uses: _tables, _state, _data, _frames (action_of; the pending frame's raw fields a, b, c, d),
#   _home, _supply, _engine, _scoring, _names, _api (GameState, cnp).
# Invariants: write_features() is the one writer; FEATURE_NAMES is built in the same order at
#   import and checked against the count the writer returns.

import numpy as _np

cdef enum:
    NFEAT_MAX = 512
    N_DECISION_KINDS = 9

# the frame kinds a pending decision can have, in feature order
cdef int[N_DECISION_KINDS] DECISION_KINDS = [K_TURN, K_END_WINDOW, K_FEED, K_BREED, K_DISCARD,
                                             K_FINAL_WINDOW, K_NOVEMBER, K_ACTION, K_GAME_OVER]
_DECISION_KIND_NAMES = ("turn", "end_window", "feed", "breed", "discard", "final_window",
                        "november", "action", "game_over")


cdef inline int workers_placed_by(State* s, int pi) noexcept nogil:
    """Workers player pi has placed (or passed) this half-year: turns alternate from the start
    player, who takes the even turns; the solo player takes every turn (the absent seat
    none)."""
    if s.solo:
        return s.turn if pi == 0 else 0
    if pi == s.start_player:
        return (s.turn + 1) // 2
    return s.turn // 2


cdef inline int workers_left(State* s, int pi) noexcept nogil:
    """Workers player pi still places this half-year (none for the solo game's absent seat)."""
    if s.solo:
        return SOLO_TURNS - s.turn if pi == 0 else 0
    return TURNS_PER_HALF_YEAR // NP - workers_placed_by(s, pi)


cdef inline int animal_room(Player* p) noexcept nogil:
    """Animal places if every pen were used (flex places, stalls, stables, free land as pens of 2):
    an upper bound on the animals the player can keep."""
    return (flex_places(p) + STALL_PEN_N * stall_pens(p)
            + STABLE_PEN_N * p.stables + 2 * land_free(p))


cdef int write_player(State* s, int pi, float* out) noexcept nogil:
    """Player pi's block (PLAYER_FEATURES order); returns the slots written."""
    cdef Player* p = &s.pl[pi]
    cdef int k = 0, i, total = 0
    cdef int parts[NSCORE]
    for i in range(NGOODS):
        out[k] = p.goods[i]; k += 1
    for i in range(NANIMALS):
        out[k] = p.animals[i]; k += 1
    for i in range(NTOOLS):
        out[k] = p.tools[i]; k += 1
    out[k] = p.dikes; k += 1
    out[k] = p.hydrated; k += 1
    out[k] = dehydrated_count(p); k += 1
    out[k] = peat_on_moors(p); k += 1
    out[k] = p.boardwalk; k += 1
    out[k] = p.moors_removed; k += 1
    out[k] = p.grain_fields; k += 1
    out[k] = p.flax_fields; k += 1
    out[k] = p.forests; k += 1
    out[k] = p.parks; k += 1
    out[k] = p.stalls; k += 1
    out[k] = p.depots; k += 1
    out[k] = p.stables; k += 1
    out[k] = p.double_stalls; k += 1
    out[k] = p.peat_boats; k += 1
    out[k] = p.plows; k += 1
    for i in range(V_HANDCART, NVKINDS):
        out[k] = count_vehicles(p, i, i); k += 1
    for i in range(NLOAD):
        out[k] = p.loaded[i]; k += 1
    out[k] = p.travel; k += 1
    out[k] = p.bottlenecks; k += 1
    out[k] = land_total(p); k += 1
    out[k] = land_free(p); k += 1
    out[k] = animal_room(p); k += 1
    out[k] = workers_left(s, pi); k += 1
    for i in range(NDEST):
        out[k] = 1 if p.dest_loaded & (1 << i) else 0; k += 1
    for i in range(NDEST):
        out[k] = 1 if p.dest_done & (1 << i) else 0; k += 1
    for i in range(NBUILDINGS):
        out[k] = 1 if p.buildings & (<uint32_t>1 << i) else 0; k += 1
    score_parts(p, parts)
    for i in range(NSCORE):
        out[k] = parts[i] / 2.0; k += 1
        total += parts[i]
    out[k] = total / 2.0; k += 1
    return k


cdef int write_features(State* s, int me, float* out) noexcept nogil:
    """The feature vector of `s` seen by player `me` (0 or 1): `me`'s block, the opponent's
    block (all 0 in the solo game), then the shared board and the pending decision. Returns
    the slots written."""
    cdef int k = 0, i, opp = 1 - me, kind = -1, step = -1
    cdef Frame* f
    k += write_player(s, me, out + k)
    if s.solo:
        # the solo game's absent seat: an empty opponent block (no real player's is all 0)
        memset(out + k, 0, k * sizeof(float))
        k += k
    else:
        k += write_player(s, opp, out + k)
    for i in range(1, 10):
        out[k] = 1 if s.half_year == i else 0; k += 1
    out[k] = 1 if is_summer(s) else 0; k += 1
    out[k] = s.turn; k += 1
    out[k] = 1 if s.start_player == me else 0; k += 1
    out[k] = 1 if s.special_by == me else 0; k += 1
    out[k] = 1 if s.special_by == opp else 0; k += 1
    out[k] = 1 if s.variant == VARIANT_FIRST_GAME else 0; k += 1
    out[k] = fields_left(s); k += 1
    out[k] = forests_left(s); k += 1
    out[k] = stalls_left(s); k += 1
    out[k] = stables_left(s); k += 1
    out[k] = pieces_left(s, V_PEAT_BOAT); k += 1
    out[k] = pieces_left(s, V_HANDCART); k += 1
    out[k] = pieces_left(s, V_CART); k += 1
    out[k] = pieces_left(s, V_CARRIAGE); k += 1
    for i in range(NSPACES):
        out[k] = 1 if (s.occupied >> i) & 1 and <int>((s.occupied_by >> i) & 1) == me else 0; k += 1
    for i in range(NSPACES):
        out[k] = 1 if (s.occupied >> i) & 1 and <int>((s.occupied_by >> i) & 1) == opp else 0; k += 1
    for i in range(NBUILDINGS):
        out[k] = 1 if (s.available >> i) & 1 else 0; k += 1
    for i in range(NBUILDINGS):
        out[k] = 1 if (s.in_play >> i) & 1 else 0; k += 1
    # the pending decision
    if s.sp > 0:
        f = top(s)
        kind = f.kind
        if kind == K_ACTION:
            step = action_of(f)
    out[k] = 1 if s.sp > 0 and kind != K_GAME_OVER and top(s).player == me else 0; k += 1
    for i in range(N_DECISION_KINDS):
        out[k] = 1 if kind == DECISION_KINDS[i] else 0; k += 1
    for i in range(F_LAST):
        out[k] = 1 if step == i else 0; k += 1
    if s.sp > 0:
        # the frame's raw fields, as the position keys a, b, c, d (_frames.pxi says what each
        # kind keeps in them)
        f = top(s)
        out[k] = f.what if kind != K_ACTION else 0; k += 1
        out[k] = f.step; k += 1
        out[k] = f.count; k += 1
        out[k] = f.low; k += 1
    else:
        for i in range(4):
            out[k] = 0; k += 1
    out[k] = s.sp; k += 1
    return k


def _feature_layout():
    """(name, description) of every slot, in write_features order."""
    player = []
    for g in GOOD_NAMES:
        player.append((f"goods.{g}", f"{g.replace('_', ' ')} in stock"))
    for a in ANIMAL_NAMES:
        player.append((f"animals.{a}", f"{a} kept"))
    for t in TOOL_KEYS:
        player.append((f"tool.{t}", f"{t.replace('_', ' ')}: position on its track (0 = start)"))
    player += [
        ("dikes", "dike steps taken (0..7)"),
        ("hydrated_moors", "hydrated moor tiles"),
        ("dehydrated_moors", "dehydrated moor tiles"),
        ("peat_on_moors", "peat on the dehydrated moors"),
        ("boardwalk_peat", "peat on the boardwalk (0 = removed)"),
        ("moors_removed", "moor tiles gone"),
        ("grain_fields", "grain fields"),
        ("flax_fields", "flax fields"),
        ("forests", "forests"),
        ("parks", "parks"),
        ("stalls", "stalls"),
        ("depots", "depots"),
        ("stables", "stables"),
        ("double_stalls", "double stalls"),
        ("peat_boats", "peat boats"),
        ("plows", "plows"),
    ]
    for v in VEHICLE_KEYS[V_HANDCART:]:
        player.append((f"vehicles.{v}", f"{v.replace('_', ' ')}s owned"))
    for l in LOAD_NAMES:
        player.append((f"loaded.{l}", f"{l} on vehicles (converted at the next inventorying)"))
    player += [
        ("travel", "spaces on the travel-experience track"),
        ("bottlenecks", "supply bottlenecks suffered"),
        ("land_total", "land spaces on the home board"),
        ("land_free", "free land spaces"),
        ("animal_room", "animal places if every pen were used (upper bound)"),
        ("workers_left", "workers still to place this half-year"),
    ]
    for d in DEST_KEYS:
        player.append((f"dest_loaded.{d}", f"1 if {d.replace('_', ' ')} is on a vehicle"))
    for d in DEST_KEYS:
        player.append((f"dest_done.{d}", f"1 if {d.replace('_', ' ')} is on the travel track"))
    for b in BUILDING_KEYS:
        player.append((f"owns.{b}", f"1 if the player owns {b.replace('_', ' ')}"))
    for c in SCORE_CATEGORIES:
        player.append((f"score.{c}", f"VP now: {c.replace('_', ' ')}"))
    player.append(("score.total", "VP now: total (scores())"))
    layout = [(f"me.{n}", d) for n, d in player] + [(f"opp.{n}", d) for n, d in player]
    for h in range(1, 10):
        layout.append((f"half_year.{h}", f"1 in half-year {h}"))
    layout += [
        ("summer", "1 in a summer half-year"),
        ("workers_placed", "workers placed or passed this half-year (0..8)"),
        ("me_start_player", "1 if me started this half-year"),
        ("me_special", "1 if me used the special action this half-year"),
        ("opp_special", "1 if the opponent used the special action this half-year"),
        ("first_game", "1 in the first-game variant"),
        ("supply.fields", "field tiles left in the supply"),
        ("supply.forest_park", "forest/park tiles left"),
        ("supply.stall_depot", "stall/depot tiles left"),
        ("supply.stable_double_stall", "stable/double-stall tiles left"),
        ("supply.peat_boat_plow", "peat-boat/plow tiles left"),
        ("supply.handcart_wagon", "handcart/wagon tiles left"),
        ("supply.cart_horse_cart", "cart/horse-cart tiles left"),
        ("supply.carriage_droshky", "carriage/droshky tiles left"),
    ]
    for sp in SPACE_KEYS:
        layout.append((f"space_me.{sp}", f"1 if a worker of me is on {sp.replace('_', ' ')}"))
    for sp in SPACE_KEYS:
        layout.append((f"space_opp.{sp}", f"1 if an opponent worker is on {sp.replace('_', ' ')}"))
    for b in BUILDING_KEYS:
        layout.append((f"available.{b}", f"1 if {b.replace('_', ' ')} is still on the board"))
    for b in BUILDING_KEYS:
        layout.append((f"in_play.{b}", f"1 if {b.replace('_', ' ')} was put in play at setup"))
    layout.append(("pending.me", "1 if me is the player to decide"))
    for n in _DECISION_KIND_NAMES:
        layout.append((f"pending.{n}", f"1 if the pending decision is a {n.replace('_', ' ')}"))
    for i in range(F_LAST):
        name = _frame_step_name(i)
        layout.append((f"pending_step.{name}",
                       f"1 if the pending action step is {name.replace('_', ' ')}"))
    layout += [
        ("pending.a", "the decision's first counter (0 in an action step: see pending_step)"),
        ("pending.b", "the decision's second counter"),
        ("pending.c", "the decision's third counter"),
        ("pending.d", "the decision's fourth counter"),
        ("stack_depth", "pending frames on the engine's decision stack"),
    ]
    return tuple(layout)


FEATURE_LAYOUT = _feature_layout()
FEATURE_NAMES = tuple(n for n, _ in FEATURE_LAYOUT)
NUM_FEATURES = len(FEATURE_NAMES)


cdef int _count_features():
    cdef float buf[NFEAT_MAX]
    cdef State s
    memset(&s, 0, sizeof(State))
    setup_game(&s, 0, 0, 0)
    flow(&s)
    return write_features(&s, 0, buf)

# checked with raise, not assert: these must hold under `python -O` too (the writer fills
# fixed-size buffers of NFEAT_MAX floats)
if not _count_features() == NUM_FEATURES <= NFEAT_MAX:
    raise ImportError(f"feature names out of step with the writer: {NUM_FEATURES} names, "
                      f"{_count_features()} written, NFEAT_MAX {NFEAT_MAX}")
if len(set(FEATURE_NAMES)) != NUM_FEATURES:
    raise ImportError("FEATURE_NAMES has duplicate names")


cdef int _perspective(State* s, object player) except -2:
    cdef int p
    if player is None:
        p = current_player(s)
        return 0 if p < 0 else p
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0, 1 or None, not {player!r}")
    if s.solo and player != 0:
        raise ValueError(f"player must be 0 or None in the solo game (one player), not "
                         f"{player!r}")
    return player


def _features(GameState state, player=None):
    """GameState.features: see there."""
    cdef int me = _perspective(&state.s, player)
    cdef cnp.npy_intp size = NUM_FEATURES
    out = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)  # no memoryview: about 2x faster
    write_features(&state.s, me, <float*>cnp.PyArray_DATA(<cnp.ndarray>out))
    return out


def features_batch(states, player=None):
    """Features of many states as one (n, NUM_FEATURES) float32 array (each from its player to
    decide unless `player` is given)."""
    cdef list seq = list(states)
    out = _np.zeros((len(seq), NUM_FEATURES), dtype=_np.float32)
    cdef float[:, ::1] view = out
    cdef GameState g
    cdef int i
    for i in range(len(seq)):
        if seq[i] is None:     # a typed assignment lets None through
            raise TypeError(f"states[{i}] is None, not a GameState")
        g = seq[i]
        write_features(&g.s, _perspective(&g.s, player), &view[i, 0])
    return out
