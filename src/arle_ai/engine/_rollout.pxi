# Static evaluation and heuristic rollouts in C (weights from arle_ai.search.heuristics).
#
# Offers: Weights and the W_* slots, _weights_from (checked weights); eval_player,
#   eval_margin, squash, solo_value, estimate_value, terminal_value, player_values, action_score; heuristic_step,
#   rollout_play, rollout; the Python functions rollout_value, final_value, final_values,
#   evaluate, action_scores, heuristic_playouts.
# Uses: _tables, _state, _rng, _home, _engine, _scoring, _api (GameState).
# Invariants: no evaluation or value is NaN or infinite (weights are checked finite and
#   bounded, sigma and solo_sigma positive); values are player 0's, in [0, 1] (the solo game:
#   the squashed score; its "margin" is the score); heuristic_step chooses what
#   heuristic_pick (the reference policy) chooses.

from libc.math cimport tanh, exp

cdef enum:
    W_TOOL = 0          # VP per tool step, scaled by the share of the game left
    W_FOOD = 1          # VP per unit of food/grain short of the next two sustenances
    W_FUEL = 2          # VP per unit of peat/wood short of the next November
    W_LAND = 3          # VP per free land space, scaled by the game left
    W_GOODS = 4         # VP per building material / peat, scaled by the game left
    W_TEXTILE = 5       # VP per fabric (future clothing), scaled by the game left
    W_DIVERSITY = 6     # VP per animal of the least-kept type (beyond its score)
    W_EPSILON = 7       # rollout: probability of a uniformly random action
    W_SAMPLE = 8        # rollout: candidate actions compared per decision
    W_SIGMA = 9         # squashing scale of a VP margin into a win probability
    W_MARGIN_BLEND = 10 # share of the squashed margin in a finished game's value
    W_OWN_BLEND = 11    # share of the player's own VP (non-zero-sum; 0: the zero-sum value)
    W_SOLO_CENTER = 12  # solo game: the score (VP) valued 0.5
    W_SOLO_SIGMA = 13   # solo game: squashing scale of the score around solo_center
    NWEIGHTS = 14
    OWN_VP_SCALE = 200  # own VP worth the whole own-score term (own VP / 200, clipped to 0..1)

ctypedef struct Weights:
    double w[NWEIGHTS]

cdef inline double game_left(State* s) noexcept nogil:
    """Share of the game still to play: 1 at the start, 0 after the last half-year."""
    cdef double h = s.half_year - 1 + s.turn / <double>turns_per_half_year(s)
    return 1.0 - h / 9.0 if h < 9 else 0.0

cdef double eval_player(State* s, int pi, Weights* w) noexcept nogil:
    """Points now plus documented estimates of what the position will still bring (VP)."""
    cdef Player* p = &s.pl[pi]
    cdef double left = game_left(s)
    cdef double v = score_half(p) / 2.0
    cdef int t, steps = 0, need, have, least
    for t in range(NTOOLS):
        steps += p.tools[t]
    v += w.w[W_TOOL] * steps * left
    # sustenance: the next two inventories need 6 food (grain and animals stand in)
    if s.half_year < 9 or left > 0:
        need = 6 if s.half_year < 9 else 3
        have = p.goods[G_FOOD] + p.goods[G_GRAIN]
        if have < need:
            v -= w.w[W_FOOD] * (need - have)
        if s.half_year & 1:
            have = p.goods[G_PEAT] + p.goods[G_WOOD] + p.goods[G_TIMBER]
            if have < 2:
                v -= w.w[W_FUEL] * (2 - have)
    v += w.w[W_LAND] * land_free(p) * left
    v += w.w[W_GOODS] * (p.goods[G_WOOD] + p.goods[G_CLAY] + p.goods[G_PEAT]
                         + p.goods[G_TIMBER] + p.goods[G_BRICK]) * left
    v += w.w[W_TEXTILE] * (p.goods[G_LINEN] + p.goods[G_WOOLEN] + p.goods[G_LEATHER]) * left
    least = p.animals[A_SHEEP]
    if p.animals[A_CATTLE] < least:
        least = p.animals[A_CATTLE]
    if p.animals[A_HORSE] < least:
        least = p.animals[A_HORSE]
    v += w.w[W_DIVERSITY] * least * left
    return v

cdef inline double eval_margin(State* s, int pi, Weights* w) noexcept nogil:
    """Player pi's evaluation margin over the opponent; in the solo game, pi's own evaluation
    (there is no opponent: the search's "margin" there is the player's score)."""
    if s.solo:
        return eval_player(s, pi, w)
    return eval_player(s, pi, w) - eval_player(s, 1 - pi, w)

cdef inline double squash(double margin, double sigma) noexcept nogil:
    return 0.5 + 0.5 * tanh(margin / sigma)

cdef inline double solo_value(double vp, Weights* w) noexcept nogil:
    """The solo player's value in [0, 1] of a final score (or an estimate of it): the score
    squashed around solo_center with scale solo_sigma, so a higher score is always better."""
    return squash(vp - w.w[W_SOLO_CENTER], w.w[W_SOLO_SIGMA])

cdef inline double estimate_value(State* s, double m, Weights* w) noexcept nogil:
    """Player 0's value of an estimate m where an evaluation stopped before the end: m is the
    VP margin (two players) or the solo player's VP."""
    if s.solo:
        return solo_value(m, w)
    return squash(m, w.w[W_SIGMA])

cdef double terminal_value(State* s, Weights* w, double* margin0) noexcept nogil:
    """The value of a finished game for player 0, the one definition the search, the rollouts
    and the analysis share: win 1 / loss 0 (ties are broken by the rules), blended with the
    squashed VP margin (share `margin_blend`). Sets player 0's VP margin. The solo game: the
    squashed score (solo_value; no win), and the score in place of the margin."""
    cdef double m, win
    if s.solo:
        m = score_half(&s.pl[0]) / 2.0
        margin0[0] = m
        return solo_value(m, w)
    m = (score_half(&s.pl[0]) - score_half(&s.pl[1])) / 2.0
    win = 1.0 if winner_of(s) == 0 else 0.0
    margin0[0] = m
    return (1.0 - w.w[W_MARGIN_BLEND]) * win + w.w[W_MARGIN_BLEND] * squash(m, w.w[W_SIGMA])

cdef inline double own_vp(State* s, int pi, Weights* w) noexcept nogil:
    """Player pi's VP: the final score of a finished game, else the static evaluation (the
    points now plus the position's prospects, arle_ai.search.heuristics)."""
    if is_terminal(s):
        return score_half(&s.pl[pi]) / 2.0
    return eval_player(s, pi, w)

cdef inline void player_values(State* s, Weights* w, double v0, double* values) noexcept nogil:
    """Both players' values of the position `s` where an evaluation ended, from player 0's
    zero-sum value v0: values[p] = (1 - k) * (p's zero-sum value) + k * own VP / OWN_VP_SCALE
    (clipped to 0..1), k = own_blend. With k = 0 (the default) this is the zero-sum v0, 1 - v0
    exactly; with k > 0 each player also gains for their own points, so both can prefer a
    move that scores for both (the game value is then not zero-sum)."""
    cdef double k = w.w[W_OWN_BLEND], own
    cdef int p
    values[0] = v0
    values[1] = 1.0 - v0
    if k == 0.0:
        return
    for p in range(2):
        own = own_vp(s, p, w) / <double>OWN_VP_SCALE
        if own < 0.0:
            own = 0.0
        elif own > 1.0:
            own = 1.0
        values[p] = (1.0 - k) * values[p] + k * own

cdef double action_score(State* s, int a, int pi, Weights* w) noexcept nogil:
    cdef State t = s[0]
    apply_action(&t, a)
    return eval_margin(&t, pi, w)

cdef int heuristic_pick(State* s, uint64_t* rng, Weights* w, int* buf, int n) noexcept nogil:
    """The reference policy (kept to check heuristic_step against): compare a few random
    candidates by the evaluation right after them; some randomness."""
    cdef int k = <int>w.w[W_SAMPLE], i, j, best = buf[0], pi = current_player(s)
    cdef double sc, best_sc = -1e18
    if n == 1:
        return buf[0]
    if (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) < w.w[W_EPSILON]:
        return buf[rng_below(rng, n)]
    if k < 1:
        k = 1
    if k >= n:
        for i in range(n):
            sc = action_score(s, buf[i], pi, w)
            if sc > best_sc:
                best_sc = sc
                best = buf[i]
        return best
    for i in range(k):
        j = buf[rng_below(rng, n)]
        sc = action_score(s, j, pi, w)
        if sc > best_sc:
            best_sc = sc
            best = j
    return best

ctypedef struct EvalCache:
    # a player's evaluation while their pieces are those of the decision's state
    double value
    int8_t half_year
    int8_t turn
    int8_t valid

cdef inline double cached_eval(State* t, State* base, int pi, Weights* w,
                               EvalCache* cache) noexcept nogil:
    """eval_player(t, pi), reused while player pi's pieces are those of `base`: eval_player
    reads only the player and the clock (half-year, turn), and many moves leave a player's
    pieces alone (every move leaves the opponent's; placing a worker, the mover's)."""
    if memcmp(&t.pl[pi], &base.pl[pi], sizeof(Player)) != 0:
        return eval_player(t, pi, w)
    if cache.valid and cache.half_year == t.half_year and cache.turn == t.turn:
        return cache.value
    cache.value = eval_player(t, pi, w)
    cache.half_year = t.half_year
    cache.turn = t.turn
    cache.valid = 1
    return cache.value

cdef int heuristic_step(State* s, uint64_t* rng, Weights* w, int* buf, int n) noexcept nogil:
    """One decision of the heuristic policy, applied to `s`; returns the next decision's legal
    ids in `buf` (as apply_action_next). It chooses exactly what heuristic_pick chooses, for
    less: a candidate drawn twice is scored once, a player's evaluation is reused while the
    move leaves their pieces alone, and the best candidate's resulting state and legal ids
    are kept instead of applying the chosen action again."""
    cdef int k = <int>w.w[W_SAMPLE], i, j, c, pi, nc, best_n = 0, n_seen = 0, seen_before
    cdef int bufs[2][MAX_LEGAL]
    cdef State states[2]
    cdef int seen[64]
    cdef int cand = 0, best_slot = -1
    cdef double sc, best_sc = -1e18
    cdef State* t
    cdef EvalCache mine, theirs
    if n == 1:
        return apply_action_next(s, buf[0], buf)
    if (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) < w.w[W_EPSILON]:
        return apply_action_next(s, buf[rng_below(rng, n)], buf)
    if k < 1:
        k = 1
    pi = current_player(s)
    mine.valid = 0
    theirs.valid = 0
    c = n if k >= n else k
    for i in range(c):
        if k >= n:
            j = buf[i]
        else:
            j = buf[rng_below(rng, n)]
            seen_before = 0
            for nc in range(n_seen):
                if seen[nc] == j:
                    seen_before = 1
            if seen_before:
                continue
            if n_seen < 64:
                seen[n_seen] = j
                n_seen += 1
        t = &states[cand]
        t[0] = s[0]
        apply_raw(t, j)
        nc = flow_into(t, bufs[cand])
        sc = cached_eval(t, s, pi, w, &mine)
        if not s.solo:
            sc -= cached_eval(t, s, 1 - pi, w, &theirs)
        if sc > best_sc:
            best_sc = sc
            best_n = nc
            best_slot = cand
            cand = 1 - cand
    if best_slot < 0:   # no score above -1e18 (never with finite weights): as heuristic_pick
        return apply_action_next(s, buf[0], buf)
    s[0] = states[best_slot]
    if best_n < 0:
        return legal_actions(s, buf)
    memcpy(buf, bufs[best_slot], best_n * sizeof(int))
    return best_n

cdef void rollout_play(State* s, uint64_t* rng, Weights* w, int heuristic,
                       int horizon) noexcept nogil:
    """Play on (heuristic: 0 uniform, 1 heuristic policy, 2 the same by the reference code
    heuristic_pick); stop at the game end or when `horizon` more half-years have begun
    (horizon < 0: play to the end)."""
    cdef int buf[MAX_LEGAL]
    cdef int n, steps = 0
    cdef int stop_at = s.half_year + horizon + 1 if 0 <= horizon <= ROLLOUT_HORIZON_MAX else 100
    n = legal_actions(s, buf)
    while not is_terminal(s) and s.half_year < stop_at and steps < 20000:
        if n == 0:
            break
        if heuristic == 1:
            n = heuristic_step(s, rng, w, buf, n)
        elif heuristic == 2:
            n = apply_action_next(s, heuristic_pick(s, rng, w, buf, n), buf)
        else:
            n = apply_action_next(s, buf[rng_below(rng, n)], buf)
        steps += 1

cdef double rollout(State* s, uint64_t* rng, Weights* w, int heuristic, int horizon,
                    double* margin0) noexcept nogil:
    """rollout_play, then player 0's value in [0, 1] (setting player 0's VP margin): the
    finished game's, or the static evaluation's where the rollout stopped earlier."""
    cdef double m
    rollout_play(s, rng, w, heuristic, horizon)
    if is_terminal(s):
        return terminal_value(s, w, margin0)
    m = eval_margin(s, 0, w)
    margin0[0] = m
    return estimate_value(s, m, w)


WEIGHT_MAX = 1e6    # the largest evaluation weight (in size) the core accepts
cdef enum:
    ROLLOUT_HORIZON_MAX = 100   # rollout horizons in half-years (the game has 9); -1: to the end
MAX_HORIZON = ROLLOUT_HORIZON_MAX
_WEIGHT_NAMES = ("tool", "food", "fuel", "land", "goods", "textile", "diversity", "epsilon",
                 "sample", "sigma", "margin_blend", "own_blend", "solo_center", "solo_sigma")


cdef void _weights_from(object seq, Weights* w) except *:
    """Copy checked weights into `w`: every one finite and within WEIGHT_MAX, epsilon and
    margin_blend and own_blend probabilities, sample a count in 0..MAX_LEGAL, sigma and
    solo_sigma positive (they divide),
    so that no evaluation or value in the core is NaN or infinite."""
    cdef int i
    if len(seq) != NWEIGHTS:
        raise ValueError(f"expected {NWEIGHTS} weights, got {len(seq)}")
    values = [float(seq[i]) for i in range(NWEIGHTS)]
    for i in range(NWEIGHTS):
        x = values[i]
        name = _WEIGHT_NAMES[i]
        if not -WEIGHT_MAX <= x <= WEIGHT_MAX:
            raise ValueError(f"weight {name} must be a finite number within "
                             f"{WEIGHT_MAX:g} in size, not {x!r}")
        if i in (W_EPSILON, W_MARGIN_BLEND, W_OWN_BLEND) and not 0.0 <= x <= 1.0:
            raise ValueError(f"weight {name} is a share: it must be in 0..1, not {x!r}")
        if i == W_SAMPLE and not 0.0 <= x <= MAX_LEGAL:
            raise ValueError(f"weight sample must be in 0..{MAX_LEGAL}, not {x!r}")
        if i in (W_SIGMA, W_SOLO_SIGMA) and not x > 0.0:
            raise ValueError(f"weight {name} must be positive, not {x!r}")
    for i in range(NWEIGHTS):
        w.w[i] = values[i]


def _check_horizon(horizon):
    """`horizon` as a rollout horizon: -1 (to the end) or 0..MAX_HORIZON half-years."""
    if (isinstance(horizon, bool) or not isinstance(horizon, int)
            or not -1 <= horizon <= MAX_HORIZON):
        raise ValueError(f"horizon must be -1 (to the end) or an integer in 0..{MAX_HORIZON}, "
                         f"not {horizon!r}")
    return horizon


def rollout_value(GameState state, weights, seed=0, heuristic=True, horizon=-1,
                  reference=False):
    """One rollout from `state` (unchanged) in C: (player 0's value in [0, 1], its VP margin).
    reference: the heuristic policy by its reference code (the same choices, slower)."""
    cdef Weights w
    cdef State s = state.s
    cdef uint64_t rng = rng_seed(<int64_t>seed)
    cdef double v, m = 0
    cdef int h = _check_horizon(horizon), heur = (2 if reference else 1) if heuristic else 0
    _weights_from(weights, &w)
    with nogil:
        v = rollout(&s, &rng, &w, heur, h, &m)
    return v, m


def final_value(GameState state, weights):
    """A finished game's (player 0's value in [0, 1], player 0's VP margin); see
    terminal_value (with own_blend > 0, player 0's value with its own-score term, see
    final_values). ValueError before the end."""
    values, m = final_values(state, weights)
    return values[0], m


def final_values(GameState state, weights):
    """A finished game's ((player 0's value, player 1's value), player 0's VP margin): the
    search's values (the solo game: ((the player's value,), the score)) (terminal_value, then player_values: 1 - the other's unless own_blend > 0).
    ValueError before the end."""
    cdef Weights w
    cdef double m = 0
    cdef double values[2]
    if not is_terminal(&state.s):
        raise ValueError("the game is not over")
    _weights_from(weights, &w)
    player_values(&state.s, &w, terminal_value(&state.s, &w, &m), values)
    if state.s.solo:
        return (values[0],), m
    return (values[0], values[1]), m


def evaluate(GameState state, weights):
    """The static evaluation of each player (VP estimates; one in the solo game)."""
    cdef Weights w
    _weights_from(weights, &w)
    if state.s.solo:
        return [eval_player(&state.s, 0, &w)]
    return [eval_player(&state.s, 0, &w), eval_player(&state.s, 1, &w)]


def action_scores(GameState state, weights):
    """For each legal action: the acting player's evaluation margin right after it."""
    cdef Weights w
    cdef int buf[MAX_LEGAL]
    cdef int n, i, pi
    _weights_from(weights, &w)
    n = legal_actions(&state.s, buf)
    pi = current_player(&state.s)
    return [(buf[i], action_score(&state.s, buf[i], pi, &w)) for i in range(n)]


def heuristic_playouts(GameState state, weights, int n, seed=0, reference=False):
    """n heuristic playouts to the end in C (for benchmarks); returns player 0's mean value.
    reference: use the reference policy code (the same choices, scored the costly way)."""
    cdef Weights w
    cdef State s
    cdef uint64_t rng = rng_seed(<int64_t>seed)
    cdef double total = 0, m
    cdef int i, policy = 2 if reference else 1
    _weights_from(weights, &w)
    with nogil:
        for i in range(n):
            s = state.s
            total += rollout(&s, &rng, &w, policy, -1, &m)
    return total / max(n, 1)
