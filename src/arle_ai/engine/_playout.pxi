# Playouts in C: no Python object is touched inside the loop.
#
# Offers: playout_random.
# Uses: _tables, _state, _rng, _engine (legal_actions, apply_action_next, is_terminal).
# Invariants: nogil; the legal ids of each decision are generated once (apply_action_next).

cdef int playout_random(State* s, uint64_t* rng, int max_steps) noexcept nogil:
    """Play uniformly random legal actions to the end (or max_steps); returns the steps taken."""
    cdef int buf[MAX_LEGAL]
    cdef int n, steps = 0
    n = legal_actions(s, buf)
    while not is_terminal(s) and steps < max_steps:
        if n == 0:
            break
        n = apply_action_next(s, buf[rng_below(rng, n)], buf)
        steps += 1
    return steps
