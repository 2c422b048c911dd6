# A learned model in C: a small multilayer perceptron over the features of _features.pxi, run
# from plain double arrays (no Python object, no numpy, no torch on the hot path).
#
#   x = features(state, me);  z = (x - mean) * inv_std
#   h = relu(W1 z + b1)                                  (the trunk, shared by the heads;
#   h = relu(Wk h + bk), k = 2..layers                    more layers: weights format 3)
#   y = W0 z + W2 h + b2      (value head; W0: a linear skip from the inputs)
#   y[0] = me's predicted final VP margin;  y[1] = logit of me winning
#   logit[a] = Wp[a] . h + bp[a] for each legal action id a   (policy head, optional)
#   prior[a] = softmax over the legal actions of logit[a] / temperature
#
# The normalisation is folded into the first layer and the skip at load time (W' = W * inv_std,
# b' = b - W' mean), and every layer is stored input-major so that zero inputs (most of the
# one-hot slots, and the units a ReLU zeroed) are skipped. The auxiliary heads of the weights file (final VP by scoring
# category) are not used by the search and stay in Python (arle_ai.search.net).
#
# Offers: ValueNet (the weights, checked and folded), NetEvaluator (the leaf evaluator: values
#   and, with a policy head, PUCT priors), NET_WEIGHT_MAX, NET_TEMPERATURE_MAX.
# Uses: _tables, _state, _engine, _api (GameState), _rollout (values and rollouts), _features
#   (write_features), _search (LeafEvaluator).
# Invariants: every weight is finite and within NET_WEIGHT_MAX, so no output is NaN; inference
#   touches no Python object.

from libc.stdlib cimport malloc, free
from libc.math cimport exp

NET_WEIGHT_MAX = 1e12   # the largest weight a ValueNet accepts, normalisation folded in
NET_TEMPERATURE_MAX = 1e6   # the largest policy temperature (beyond: uniform priors anyway)

cdef enum:
    NET_OUT_MARGIN = 0
    NET_OUT_WIN = 1
    NET_OUTPUTS = 2
    NET_HIDDEN_MAX = 1024
    NET_LAYERS_MAX = 3      # hidden layers of the trunk

cdef float NET_PRIOR_MIN = 1e-30    # the smallest prior the policy gives a legal action

ctypedef struct Net:
    int nin
    int nhid          # units of the trunk's last layer (the heads' inputs)
    int layers        # hidden layers, 1..NET_LAYERS_MAX
    int nh1           # units of the first layer
    int units[NET_LAYERS_MAX]     # units of each layer
    double* wlt[NET_LAYERS_MAX]   # layer k >= 1: units[k-1] x units[k], input-major
    double* bl[NET_LAYERS_MAX]    # layer k >= 1: units[k]
    double* w1t       # nin x nh1, normalisation folded in
    double* w0t       # nin x NET_OUTPUTS, the linear skip, normalisation folded in
    double* b1        # nhid
    double* w2        # NET_OUTPUTS x nhid
    double* b2        # NET_OUTPUTS
    int nact          # NUM_ACTIONS with a policy head, 0 without
    double* wp        # nact x nhid, the policy head's row of each action id
    double* bp        # nact


cdef void net_trunk(Net* net, float* x, double* h, double* skip) noexcept nogil:
    """h = the trunk's last layer's nhid units (after the ReLU) and skip = W0 z for the raw
    features x."""
    cdef int i, j, k, nh = net.nh1, nprev
    cdef double xi
    cdef double* row
    cdef double a[NET_HIDDEN_MAX]
    cdef double* cur = h if (net.layers - 1) % 2 == 0 else a   # layer i lands in h when
    # layers - 1 - i is even, so that the last one does
    cdef double* prev
    for j in range(nh):
        cur[j] = net.b1[j]
    for i in range(NET_OUTPUTS):
        skip[i] = 0.0
    for i in range(net.nin):
        xi = x[i]
        if xi != 0:
            row = net.w1t + i * nh
            for j in range(nh):
                cur[j] += xi * row[j]
            for j in range(NET_OUTPUTS):
                skip[j] += xi * net.w0t[i * NET_OUTPUTS + j]
    for j in range(nh):
        if cur[j] < 0:
            cur[j] = 0.0
    for k in range(1, net.layers):
        # the next layer from the units of this one, a ReLU's zeros skipped
        prev = cur
        cur = h if (net.layers - 1 - k) % 2 == 0 else a
        nprev = net.units[k - 1]
        nh = net.units[k]
        for j in range(nh):
            cur[j] = net.bl[k][j]
        for i in range(nprev):
            xi = prev[i]
            if xi != 0:
                row = net.wlt[k] + i * nh
                for j in range(nh):
                    cur[j] += xi * row[j]
        for j in range(nh):
            if cur[j] < 0:
                cur[j] = 0.0


cdef void net_value_head(Net* net, double* h, double* skip, double* y) noexcept nogil:
    """y = the value head's NET_OUTPUTS outputs from the trunk's units h and the skip."""
    cdef int i, j, nh = net.nhid
    cdef double acc
    cdef double* row
    for i in range(NET_OUTPUTS):
        acc = net.b2[i] + skip[i]
        row = net.w2 + i * nh
        for j in range(nh):
            if h[j] > 0:
                acc += row[j] * h[j]
        y[i] = acc


cdef void net_forward(Net* net, float* x, double* y) noexcept nogil:
    """y = the model's NET_OUTPUTS outputs for the raw feature vector x."""
    cdef double h[NET_HIDDEN_MAX]
    cdef double skip[NET_OUTPUTS]
    net_trunk(net, x, h, skip)
    net_value_head(net, h, skip, y)


cdef void net_priors(Net* net, float* x, int* actions, int n, double temperature,
                     float* out, double* y) noexcept nogil:
    """out[i] = the policy's prior of actions[i] (ids < net.nact) for the raw features x: a
    softmax of the logits / temperature over the n actions (positive, summing to 1). With y
    not NULL, also the value head's outputs there (the same trunk: net_forward's y)."""
    cdef double h[NET_HIDDEN_MAX]
    cdef double skip[NET_OUTPUTS]
    cdef double logit[MAX_LEGAL]
    cdef int i, j, nh = net.nhid
    cdef double acc, best = -1e300, z = 0.0, inv_t = 1.0 / temperature
    cdef double* row
    net_trunk(net, x, h, skip)
    if y != NULL:
        net_value_head(net, h, skip, y)
    for i in range(n):
        row = net.wp + actions[i] * nh
        acc = net.bp[actions[i]]
        for j in range(nh):
            acc += row[j] * h[j]
        logit[i] = acc * inv_t
        if logit[i] > best:
            best = logit[i]
    for i in range(n):
        logit[i] = exp(logit[i] - best)
        z += logit[i]
    for i in range(n):
        out[i] = <float>(logit[i] / z)
        if out[i] < NET_PRIOR_MIN:    # an underflow: every legal action keeps a chance
            out[i] = NET_PRIOR_MIN


cdef inline double sigmoid(double z) noexcept nogil:
    if z >= 0:
        return 1.0 / (1.0 + exp(-z))
    return exp(z) / (1.0 + exp(z))


cdef inline double net_value_of(double* y, int me, double blend, double sigma,
                                double* margin0) noexcept nogil:
    """Player 0's value in [0, 1] from the value head's outputs y seen by `me`, on the same
    scale as a finished game's value (final_value): the win probability blended with the
    squashed predicted margin. Sets player 0's predicted VP margin."""
    cdef double m = y[NET_OUT_MARGIN], p = sigmoid(y[NET_OUT_WIN])
    if me == 1:
        m = -m
        p = 1.0 - p
    margin0[0] = m
    return (1.0 - blend) * p + blend * squash(m, sigma)


cdef double net_value(State* s, Net* net, double blend, double sigma,
                      double* margin0) noexcept nogil:
    """Player 0's value in [0, 1] of a position that is not over, as the model sees it
    (net_value_of). Sets player 0's predicted VP margin."""
    cdef float x[NFEAT_MAX]
    cdef double y[NET_OUTPUTS]
    cdef int me = current_player(s)
    if me < 0:
        me = 0
    write_features(s, me, x)
    net_forward(net, x, y)
    return net_value_of(y, me, blend, sigma, margin0)


cdef double solo_net_value(State* s, Net* net, Weights* w, double* margin0) noexcept nogil:
    """The solo player's value in [0, 1] of a position that is not over, as a solo model (one
    trained on solo games, whose margin output is the player's final score) sees it:
    solo_value of the predicted score. Sets the predicted score in place of the margin."""
    cdef float x[NFEAT_MAX]
    cdef double y[NET_OUTPUTS]
    write_features(s, 0, x)
    net_forward(net, x, y)
    margin0[0] = y[NET_OUT_MARGIN]
    return solo_value(y[NET_OUT_MARGIN], w)


cdef class ValueNet:
    """A value model in the core, built from plain arrays (see arle_ai.search.net for the file format):
    mean, inv_std (NUM_FEATURES), w0 (2 x NUM_FEATURES), w1 (hidden x NUM_FEATURES),
    b1 (hidden), w2 (2 x last hidden), b2 (2). Outputs: the player to decide's final VP margin
    and the logit of their win. With wp (NUM_ACTIONS x last hidden) and bp (NUM_ACTIONS), a
    policy head on the same hidden units: the priors of the legal actions (``has_policy``).
    ``layers``: the trunk's further hidden layers, a sequence of (w, b), w (units x units of
    the layer before), each after a ReLU (at most NET_LAYERS_MAX layers in all)."""

    cdef Net net
    cdef readonly int hidden       # units of the trunk's last layer
    cdef readonly tuple trunk      # units of each hidden layer
    cdef readonly tuple params     # the arrays it was built from (for pickling and saving)
    cdef readonly tuple layers     # the further layers' (w, b) it was built from

    def __cinit__(self):
        cdef int k
        self.net.w1t = NULL
        self.net.w0t = NULL
        self.net.b1 = NULL
        self.net.w2 = NULL
        self.net.b2 = NULL
        self.net.wp = NULL
        self.net.bp = NULL
        self.net.nact = 0
        self.net.layers = 0
        for k in range(NET_LAYERS_MAX):
            self.net.wlt[k] = NULL
            self.net.bl[k] = NULL
        self.layers = ()

    def __init__(self, mean, inv_std, w0, w1, b1, w2, b2, wp=None, bp=None, layers=()):
        mean = _np.asarray(mean, dtype=_np.float64)
        inv_std = _np.asarray(inv_std, dtype=_np.float64)
        w0 = _np.asarray(w0, dtype=_np.float64)
        w1 = _np.asarray(w1, dtype=_np.float64)
        b1 = _np.asarray(b1, dtype=_np.float64)
        w2 = _np.asarray(w2, dtype=_np.float64)
        b2 = _np.asarray(b2, dtype=_np.float64)
        nin = NUM_FEATURES
        if w1.ndim != 2 or w1.shape[1] != nin:
            raise ValueError(f"w1 must have shape (hidden, {nin}), not {w1.shape}")
        nh1 = w1.shape[0]
        if not 1 <= nh1 <= NET_HIDDEN_MAX:
            raise ValueError(f"hidden units must be 1..{NET_HIDDEN_MAX}, not {nh1}")
        layers = tuple(layers) if layers is not None else ()
        if len(layers) > NET_LAYERS_MAX - 1:
            raise ValueError(f"a trunk has at most {NET_LAYERS_MAX} hidden layers, not "
                             f"{len(layers) + 1}")
        more = []
        units = [nh1]
        for k, layer in enumerate(layers, start=2):
            if not isinstance(layer, (tuple, list)) or len(layer) != 2:
                raise ValueError(f"layer {k} must be a pair (w, b)")
            wk = _np.asarray(layer[0], dtype=_np.float64)
            bk = _np.asarray(layer[1], dtype=_np.float64)
            if wk.ndim != 2 or wk.shape[1] != units[len(units) - 1] or not 1 <= wk.shape[0] <= NET_HIDDEN_MAX:
                raise ValueError(f"layer {k}'s w must have shape (units 1..{NET_HIDDEN_MAX}, "
                                 f"{units[len(units) - 1]}), not {wk.shape}")
            if bk.shape != (wk.shape[0],):
                raise ValueError(f"layer {k}'s b must have shape ({wk.shape[0]},), not "
                                 f"{bk.shape}")
            for name, arr in (("w", wk), ("b", bk)):
                if not _np.all(_np.abs(arr) <= NET_WEIGHT_MAX):
                    raise ValueError(f"layer {k}'s {name} holds a value that is not finite or "
                                     f"beyond {NET_WEIGHT_MAX:g} in size")
            more.append((wk, bk))
            units.append(wk.shape[0])
        nh = units[len(units) - 1]
        for name, arr, shape in (("mean", mean, (nin,)), ("inv_std", inv_std, (nin,)),
                                 ("w0", w0, (NET_OUTPUTS, nin)),
                                 ("b1", b1, (nh1,)), ("w2", w2, (NET_OUTPUTS, nh)),
                                 ("b2", b2, (NET_OUTPUTS,))):
            if arr.shape != shape:
                raise ValueError(f"{name} must have shape {shape}, not {arr.shape}")
            if not _np.all(_np.isfinite(arr)):
                raise ValueError(f"{name} holds a value that is not finite")
        if not _np.all(_np.isfinite(w1)):
            raise ValueError("w1 holds a value that is not finite")
        if (wp is None) != (bp is None):
            raise ValueError("a policy head needs both wp and bp")
        if wp is not None:
            wp = _np.asarray(wp, dtype=_np.float64)
            bp = _np.asarray(bp, dtype=_np.float64)
            for name, arr, shape in (("wp", wp, (NUM_ACTIONS, nh)), ("bp", bp, (NUM_ACTIONS,))):
                if arr.shape != shape:
                    raise ValueError(f"{name} must have shape {shape}, not {arr.shape}")
                if not _np.all(_np.abs(arr) <= NET_WEIGHT_MAX):
                    raise ValueError(f"{name} holds a value that is not finite or beyond "
                                     f"{NET_WEIGHT_MAX:g} in size")
        with _np.errstate(over="ignore", invalid="ignore"):
            w1f = w1 * inv_std[None, :]
            b1f = b1 - w1f @ mean
            w0f = w0 * inv_std[None, :]
            b2f = b2 - w0f @ mean
        # with every folded number within NET_WEIGHT_MAX the outputs stay finite for any
        # features the core writes (|x| <= 999, NUM_FEATURES inputs, NET_HIDDEN_MAX units)
        for name, arr in (("w1 * inv_std", w1f), ("b1 - w1 @ mean", b1f),
                          ("w0 * inv_std", w0f), ("b2 - w0 @ mean", b2f), ("w2", w2)):
            if not _np.all(_np.abs(arr) <= NET_WEIGHT_MAX):
                raise ValueError(f"{name} holds a value that is not finite or beyond "
                                 f"{NET_WEIGHT_MAX:g} in size (normalisation folded in)")
        w1t = _np.ascontiguousarray(w1f.T)
        w0t = _np.ascontiguousarray(w0f.T)
        w2c = _np.ascontiguousarray(w2)
        self._release()
        self.net.nin = nin
        self.net.nh1 = nh1
        self.net.nhid = nh
        self.net.layers = len(units)
        self.hidden = nh
        self.trunk = tuple(units)
        cdef int k2
        for k2 in range(len(units)):
            self.net.units[k2] = units[k2]
        self.net.w1t = <double*>malloc(nin * nh1 * sizeof(double))
        self.net.w0t = <double*>malloc(nin * NET_OUTPUTS * sizeof(double))
        self.net.b1 = <double*>malloc(nh1 * sizeof(double))
        self.net.w2 = <double*>malloc(NET_OUTPUTS * nh * sizeof(double))
        self.net.b2 = <double*>malloc(NET_OUTPUTS * sizeof(double))
        cdef bint ok = True
        for k2 in range(1, len(units)):
            self.net.wlt[k2] = <double*>malloc(units[k2 - 1] * units[k2] * sizeof(double))
            self.net.bl[k2] = <double*>malloc(units[k2] * sizeof(double))
            ok = ok and self.net.wlt[k2] != NULL and self.net.bl[k2] != NULL
        if wp is not None:
            self.net.wp = <double*>malloc(NUM_ACTIONS * nh * sizeof(double))
            self.net.bp = <double*>malloc(NUM_ACTIONS * sizeof(double))
        if not (ok and self.net.w1t and self.net.w0t and self.net.b1 and self.net.w2
                and self.net.b2 and (wp is None or (self.net.wp and self.net.bp))):
            self._release()
            raise MemoryError()
        cdef double[::1] v
        v = w1t.reshape(-1)
        memcpy(self.net.w1t, &v[0], nin * nh1 * sizeof(double))
        v = w0t.reshape(-1)
        memcpy(self.net.w0t, &v[0], nin * NET_OUTPUTS * sizeof(double))
        v = _np.ascontiguousarray(b1f)
        memcpy(self.net.b1, &v[0], nh1 * sizeof(double))
        v = w2c.reshape(-1)
        memcpy(self.net.w2, &v[0], NET_OUTPUTS * nh * sizeof(double))
        v = _np.ascontiguousarray(b2f)
        memcpy(self.net.b2, &v[0], NET_OUTPUTS * sizeof(double))
        for k2 in range(1, len(units)):
            v = _np.ascontiguousarray(more[k2 - 1][0].T).reshape(-1)   # input-major
            memcpy(self.net.wlt[k2], &v[0], units[k2 - 1] * units[k2] * sizeof(double))
            v = _np.ascontiguousarray(more[k2 - 1][1])
            memcpy(self.net.bl[k2], &v[0], units[k2] * sizeof(double))
        if wp is not None:
            v = _np.ascontiguousarray(wp).reshape(-1)
            memcpy(self.net.wp, &v[0], NUM_ACTIONS * nh * sizeof(double))
            v = _np.ascontiguousarray(bp)
            memcpy(self.net.bp, &v[0], NUM_ACTIONS * sizeof(double))
            self.net.nact = NUM_ACTIONS
        self.params = (mean, inv_std, w0, w1, b1, w2, b2)
        if wp is not None:
            self.params += (wp, bp)
        self.layers = tuple(more)

    def __reduce__(self):
        return (_value_net, (self.params, self.layers))

    @property
    def has_policy(self):
        """Whether the model has a policy head (weights format 2), which gives PUCT priors."""
        return self.net.nact > 0

    cdef void _ready(self) except *:
        """ValueError unless the arrays were set (ValueNet.__new__ without __init__ has none)."""
        if self.net.b2 == NULL:
            raise ValueError("this ValueNet holds no weights (made without ValueNet(...))")

    cdef void _release(self) noexcept:
        cdef int k
        for k in range(NET_LAYERS_MAX):
            free(self.net.wlt[k])
            free(self.net.bl[k])
            self.net.wlt[k] = NULL
            self.net.bl[k] = NULL
        self.net.layers = 0
        free(self.net.w1t)
        free(self.net.w0t)
        free(self.net.b1)
        free(self.net.w2)
        free(self.net.b2)
        free(self.net.wp)
        free(self.net.bp)
        self.net.w1t = self.net.w0t = self.net.b1 = self.net.w2 = self.net.b2 = NULL
        self.net.wp = self.net.bp = NULL
        self.net.nact = 0

    def __dealloc__(self):
        self._release()

    def outputs(self, features):
        """The raw outputs (margin, win logit) for an (n, NUM_FEATURES) array of features."""
        self._ready()
        x = _np.ascontiguousarray(_np.atleast_2d(features), dtype=_np.float32)
        if x.shape[1] != NUM_FEATURES:
            raise ValueError(f"features must have {NUM_FEATURES} columns, not {x.shape[1]}")
        out = _np.empty((x.shape[0], NET_OUTPUTS), dtype=_np.float64)
        cdef float[:, ::1] xv = x
        cdef double[:, ::1] ov = out
        cdef Py_ssize_t i
        for i in range(x.shape[0]):
            net_forward(&self.net, &xv[i, 0], &ov[i, 0])
        return out

    def state_outputs(self, GameState state):
        """(margin, win logit) of the player to decide in `state`, features computed in C."""
        cdef float x[NFEAT_MAX]
        cdef double y[NET_OUTPUTS]
        cdef int me = current_player(&state.s)
        self._ready()
        write_features(&state.s, 0 if me < 0 else me, x)
        net_forward(&self.net, x, y)
        return y[0], y[1]

    def value(self, GameState state, double blend, double sigma):
        """Player 0's value in [0, 1] and VP margin of `state` as the model sees it."""
        cdef double m = 0, v
        self._ready()
        v = net_value(&state.s, &self.net, blend, sigma, &m)
        return v, m

    def priors(self, GameState state, double temperature=1.0):
        """The policy's priors of `state`'s legal actions, as the search gets them: a list of
        (action id, prior) in legal_actions order (a softmax of the logits / temperature over
        the legal actions). ValueError without a policy head or a decision."""
        cdef int buf[MAX_LEGAL]
        cdef float out[MAX_LEGAL]
        cdef float x[NFEAT_MAX]
        cdef int n, i, me = current_player(&state.s)
        self._ready()
        if self.net.nact == 0:
            raise ValueError("this model has no policy head (a weights file of format 1)")
        if not temperature > 0 or temperature == float("inf"):
            raise ValueError(f"temperature must be positive and finite, not {temperature!r}")
        n = legal_actions(&state.s, buf) if not is_terminal(&state.s) else 0
        if n <= 0:
            raise ValueError("the position has no decision: there is nothing to score")
        write_features(&state.s, 0 if me < 0 else me, x)
        net_priors(&self.net, x, buf, n, temperature, out, NULL)
        return [(buf[i], float(out[i])) for i in range(n)]


def _value_net(params, layers):
    """A ValueNet from what ValueNet.__reduce__ kept (its arrays and further layers)."""
    return ValueNet(*params, layers=layers)


cdef class NetEvaluator(LeafEvaluator):
    """The learned value model as the search's leaf evaluator. With `horizon` None the model
    values the leaf itself; with horizon h >= 0 a rollout (the heuristic policy, or uniformly
    random moves with `heuristic` False) first plays until h more half-years have begun (as
    RolloutEvaluator does) and the model values where it stopped (a finished game gets
    terminal_value). Priors (PUCT): the model's policy head, a softmax of its logits /
    `policy_temperature` over the legal actions; a model without one (format 1) gives the base
    class's heuristic softmax.

    Solo positions are valued by `solo_model` (a model trained on solo games, whose margin
    output is the final score: solo_net_value) and take their priors from its policy head;
    without a solo model, the static evaluation of the player's score values them (as
    StaticEvaluator does; after the rollout, played by the heuristic policy when
    `solo_heuristic`, whatever `heuristic` says) and the heuristic softmax gives their priors. The two-player model
    never values a solo game.

    With `horizon` None the search asks for the priors of a new node and then the value of
    the same position: the priors' pass through the trunk also gives the value, kept for that
    one call (the position is compared byte for byte), so the trunk runs once a node."""

    cdef readonly ValueNet model
    cdef readonly ValueNet solo_model
    cdef bint has_solo
    cdef int horizon
    cdef readonly object rollout_horizon
    cdef readonly bint heuristic
    cdef readonly bint solo_heuristic  # solo positions without a solo model: heuristic rollouts
    cdef readonly double policy_temperature
    cdef State cached             # the position of the last priors call (horizon None)
    cdef double cached_y[NET_OUTPUTS]
    cdef bint has_cached

    def __init__(self, weights, ValueNet model, prior_temperature=2.0, horizon=None,
                 bint heuristic=True, policy_temperature=1.0, ValueNet solo_model=None,
                 bint solo_heuristic=False):
        LeafEvaluator.__init__(self, weights, prior_temperature)
        if model is None:
            raise ValueError("NetEvaluator needs a ValueNet")
        model._ready()
        if (isinstance(policy_temperature, bool)
                or not isinstance(policy_temperature, (int, float))
                or not 0 < policy_temperature <= NET_TEMPERATURE_MAX):
            raise ValueError(f"policy_temperature must be a number in (0, "
                             f"{NET_TEMPERATURE_MAX:g}], not {policy_temperature!r}")
        self.policy_temperature = policy_temperature
        if solo_model is not None:
            solo_model._ready()
        self.solo_model = solo_model
        self.has_solo = solo_model is not None
        self.solo_heuristic = solo_heuristic
        if horizon is not None and (not isinstance(horizon, int) or isinstance(horizon, bool)
                                    or horizon < 0):
            raise ValueError(f"horizon must be None or a non-negative integer, not {horizon!r}")
        self.model = model
        self.rollout_horizon = horizon
        self.horizon = -1 if horizon is None else horizon
        self.heuristic = heuristic
        self.kind = ("net" if horizon is None else
                     ("heuristic" if heuristic else "random") + " rollout + net")
        self.has_cached = 0

    cdef void value(self, State* s, uint64_t* rng, double* values,
                    double* margin0) noexcept nogil:
        cdef State t
        cdef double v0
        cdef int me
        if (self.has_cached and self.horizon < 0
                and memcmp(s, &self.cached, COMPARE_SIZE) == 0):
            self.has_cached = 0
            if s.solo:   # the solo model's outputs (priors cached them only with one)
                margin0[0] = self.cached_y[NET_OUT_MARGIN]
                v0 = solo_value(self.cached_y[NET_OUT_MARGIN], &self.w)
            else:
                me = current_player(s)
                v0 = net_value_of(self.cached_y, 0 if me < 0 else me,
                                  self.w.w[W_MARGIN_BLEND], self.w.w[W_SIGMA], margin0)
            player_values(s, &self.w, v0, values)
            return
        self.has_cached = 0
        t = s[0]
        if self.horizon >= 0:
            rollout_play(&t, rng, &self.w, 1 if self.heuristic or (
                t.solo and self.solo_heuristic and not self.has_solo) else 0, self.horizon)
        if is_terminal(&t):
            v0 = terminal_value(&t, &self.w, margin0)
        elif t.solo:
            if self.has_solo:
                v0 = solo_net_value(&t, &self.solo_model.net, &self.w, margin0)
            else:
                margin0[0] = eval_player(&t, 0, &self.w)
                v0 = solo_value(margin0[0], &self.w)
        else:
            v0 = net_value(&t, &self.model.net, self.w.w[W_MARGIN_BLEND], self.w.w[W_SIGMA],
                           margin0)
        player_values(&t, &self.w, v0, values)

    cdef void priors(self, State* s, int* actions, int n, float* out) noexcept nogil:
        cdef float x[NFEAT_MAX]
        cdef int me = current_player(s)
        cdef Net* net = &self.model.net
        if s.solo:
            net = &self.solo_model.net if self.has_solo else NULL
        if net == NULL or net.nact == 0:
            LeafEvaluator.priors(self, s, actions, n, out)
            return
        write_features(s, 0 if me < 0 else me, x)
        if self.horizon < 0 and not is_terminal(s) and (not s.solo or me <= 0):
            net_priors(net, x, actions, n, self.policy_temperature, out, self.cached_y)
            memcpy(&self.cached, s, COMPARE_SIZE)
            self.has_cached = 1
        else:
            net_priors(net, x, actions, n, self.policy_temperature, out, NULL)

    def __reduce__(self):
        return (NetEvaluator, (self.weights, self.model, self.temperature, self.rollout_horizon,
                               self.heuristic, self.policy_temperature, self.solo_model,
                               self.solo_heuristic))
