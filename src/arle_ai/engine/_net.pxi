# A learned value model in C: a small multilayer perceptron over the features of _features.pxi,
# run from plain double arrays (no Python object, no numpy, no torch on the hot path).
#
#   x = features(state, me);  z = (x - mean) * inv_std
#   h = relu(W1 z + b1);      y = W0 z + W2 h + b2      (W0: a linear skip from the inputs)
#   y[0] = me's predicted final VP margin;  y[1] = logit of me winning
#
# The normalisation is folded into the first layer and the skip at load time (W' = W * inv_std,
# b' = b - W' mean), and both are stored input-major so that zero features (most of the
# one-hot slots) are skipped.

from libc.stdlib cimport malloc, free
from libc.math cimport exp

NET_WEIGHT_MAX = 1e12   # the largest weight a ValueNet accepts, normalisation folded in

cdef enum:
    NET_OUT_MARGIN = 0
    NET_OUT_WIN = 1
    NET_OUTPUTS = 2
    NET_HIDDEN_MAX = 1024

ctypedef struct Net:
    int nin
    int nhid
    double* w1t       # nin x nhid, normalisation folded in
    double* w0t       # nin x NET_OUTPUTS, the linear skip, normalisation folded in
    double* b1        # nhid
    double* w2        # NET_OUTPUTS x nhid
    double* b2        # NET_OUTPUTS


cdef void net_forward(Net* net, float* x, double* y) noexcept nogil:
    """y = the model's NET_OUTPUTS outputs for the raw feature vector x."""
    cdef double h[NET_HIDDEN_MAX]
    cdef int i, j, nh = net.nhid
    cdef double xi, acc
    cdef double* row
    cdef double skip[NET_OUTPUTS]
    for j in range(nh):
        h[j] = net.b1[j]
    for i in range(NET_OUTPUTS):
        skip[i] = 0.0
    for i in range(net.nin):
        xi = x[i]
        if xi != 0:
            row = net.w1t + i * nh
            for j in range(nh):
                h[j] += xi * row[j]
            for j in range(NET_OUTPUTS):
                skip[j] += xi * net.w0t[i * NET_OUTPUTS + j]
    for i in range(NET_OUTPUTS):
        acc = net.b2[i] + skip[i]
        row = net.w2 + i * nh
        for j in range(nh):
            if h[j] > 0:
                acc += row[j] * h[j]
        y[i] = acc


cdef inline double sigmoid(double z) noexcept nogil:
    if z >= 0:
        return 1.0 / (1.0 + exp(-z))
    return exp(z) / (1.0 + exp(z))


cdef double net_value(State* s, Net* net, double blend, double sigma,
                      double* margin0) noexcept nogil:
    """Player 0's value in [0, 1] of a position that is not over, as the model sees it, on the
    same scale as a finished game's value (final_value): the win probability blended with the
    squashed predicted margin. Sets player 0's predicted VP margin."""
    cdef float x[NFEAT_MAX]
    cdef double y[NET_OUTPUTS]
    cdef int me = current_player(s)
    cdef double m, p
    if me < 0:
        me = 0
    write_features(s, me, x)
    net_forward(net, x, y)
    m = y[NET_OUT_MARGIN]
    p = sigmoid(y[NET_OUT_WIN])
    if me == 1:
        m = -m
        p = 1.0 - p
    margin0[0] = m
    return (1.0 - blend) * p + blend * squash(m, sigma)


cdef class ValueNet:
    """A value model in the core, built from plain arrays (see arle_ai.search.net for the file format):
    mean, inv_std (NUM_FEATURES), w0 (2 x NUM_FEATURES), w1 (hidden x NUM_FEATURES),
    b1 (hidden), w2 (2 x hidden), b2 (2). Outputs: the player to decide's final VP margin and
    the logit of their win."""

    cdef Net net
    cdef readonly int hidden
    cdef readonly tuple params     # the arrays it was built from (for pickling and saving)

    def __cinit__(self):
        self.net.w1t = NULL
        self.net.w0t = NULL
        self.net.b1 = NULL
        self.net.w2 = NULL
        self.net.b2 = NULL

    def __init__(self, mean, inv_std, w0, w1, b1, w2, b2):
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
        nh = w1.shape[0]
        if not 1 <= nh <= NET_HIDDEN_MAX:
            raise ValueError(f"hidden units must be 1..{NET_HIDDEN_MAX}, not {nh}")
        for name, arr, shape in (("mean", mean, (nin,)), ("inv_std", inv_std, (nin,)),
                                 ("w0", w0, (NET_OUTPUTS, nin)),
                                 ("b1", b1, (nh,)), ("w2", w2, (NET_OUTPUTS, nh)),
                                 ("b2", b2, (NET_OUTPUTS,))):
            if arr.shape != shape:
                raise ValueError(f"{name} must have shape {shape}, not {arr.shape}")
            if not _np.all(_np.isfinite(arr)):
                raise ValueError(f"{name} holds a value that is not finite")
        if not _np.all(_np.isfinite(w1)):
            raise ValueError("w1 holds a value that is not finite")
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
        self.net.nhid = nh
        self.hidden = nh
        self.net.w1t = <double*>malloc(nin * nh * sizeof(double))
        self.net.w0t = <double*>malloc(nin * NET_OUTPUTS * sizeof(double))
        self.net.b1 = <double*>malloc(nh * sizeof(double))
        self.net.w2 = <double*>malloc(NET_OUTPUTS * nh * sizeof(double))
        self.net.b2 = <double*>malloc(NET_OUTPUTS * sizeof(double))
        if not (self.net.w1t and self.net.w0t and self.net.b1 and self.net.w2 and self.net.b2):
            self._release()
            raise MemoryError()
        cdef double[::1] v
        v = w1t.reshape(-1)
        memcpy(self.net.w1t, &v[0], nin * nh * sizeof(double))
        v = w0t.reshape(-1)
        memcpy(self.net.w0t, &v[0], nin * NET_OUTPUTS * sizeof(double))
        v = _np.ascontiguousarray(b1f)
        memcpy(self.net.b1, &v[0], nh * sizeof(double))
        v = w2c.reshape(-1)
        memcpy(self.net.w2, &v[0], NET_OUTPUTS * nh * sizeof(double))
        v = _np.ascontiguousarray(b2f)
        memcpy(self.net.b2, &v[0], NET_OUTPUTS * sizeof(double))
        self.params = (mean, inv_std, w0, w1, b1, w2, b2)

    def __reduce__(self):
        return (ValueNet, self.params)

    cdef void _ready(self) except *:
        """ValueError unless the arrays were set (ValueNet.__new__ without __init__ has none)."""
        if self.net.b2 == NULL:
            raise ValueError("this ValueNet holds no weights (made without ValueNet(...))")

    cdef void _release(self) noexcept:
        free(self.net.w1t)
        free(self.net.w0t)
        free(self.net.b1)
        free(self.net.w2)
        free(self.net.b2)
        self.net.w1t = self.net.w0t = self.net.b1 = self.net.w2 = self.net.b2 = NULL

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


cdef class NetEvaluator(LeafEvaluator):
    """The learned value model as the search's leaf evaluator. With `horizon` None the model
    values the leaf itself; with horizon h >= 0 a rollout (the heuristic policy, or uniformly
    random moves with `heuristic` False) first plays until h more half-years have begun (as
    RolloutEvaluator does) and the model values where it stopped (a finished game gets
    terminal_value). Priors: the base class's heuristic softmax."""

    cdef readonly ValueNet model
    cdef int horizon
    cdef readonly object rollout_horizon
    cdef readonly bint heuristic

    def __init__(self, weights, ValueNet model, prior_temperature=2.0, horizon=None,
                 bint heuristic=True):
        LeafEvaluator.__init__(self, weights, prior_temperature)
        if model is None:
            raise ValueError("NetEvaluator needs a ValueNet")
        model._ready()
        if horizon is not None and (not isinstance(horizon, int) or isinstance(horizon, bool)
                                    or horizon < 0):
            raise ValueError(f"horizon must be None or a non-negative integer, not {horizon!r}")
        self.model = model
        self.rollout_horizon = horizon
        self.horizon = -1 if horizon is None else horizon
        self.heuristic = heuristic
        self.kind = ("net" if horizon is None else
                     ("heuristic" if heuristic else "random") + " rollout + net")

    cdef void value(self, State* s, uint64_t* rng, double* values,
                    double* margin0) noexcept nogil:
        cdef State t = s[0]
        cdef double v0
        if self.horizon >= 0:
            rollout_play(&t, rng, &self.w, 1 if self.heuristic else 0, self.horizon)
        if is_terminal(&t):
            v0 = terminal_value(&t, &self.w, margin0)
        else:
            v0 = net_value(&t, &self.model.net, self.w.w[W_MARGIN_BLEND], self.w.w[W_SIGMA],
                           margin0)
        player_values(&t, &self.w, v0, values)

    def __reduce__(self):
        return (NetEvaluator, (self.weights, self.model, self.temperature, self.rollout_horizon,
                               self.heuristic))
