# Monte Carlo tree search in C: the tree on flat arrays, selection (UCT / PUCT), expansion,
# backpropagation and the leaf evaluators. Python (arle_ai.search.mcts.MCTS) calls SearchTree.run once
# per batch of iterations; nothing in the loop touches a Python object.
#
# The tree is a transposition table: one Node per position, keyed by a 64-bit hash of the
# state's rules-relevant bytes (those compared by GameState.__eq__, COMPARE_SIZE) in an
# open-addressing index, and confirmed by a second, independent 32-bit hash stored in the
# node. A wrong match needs both hashes of two different positions to agree (96 bits): with
# N nodes the chance that it happens at all is below N*N / 2**97 (4e-16 for 10 million nodes).
# Equal 64-bit keys alone are handled (the probe goes on); tests force them with a key mask.
#
# Leaf evaluation is a seam (docs/search.md): a LeafEvaluator subclass overrides
#   value(State*, uint64_t* rng, double* values, double* margin0): sets both players' values
#       in [0, 1] (values[1] = 1 - values[0] unless Weights.own_blend > 0, see player_values)
#       and player 0's VP margin (a fixed player's view, not the mover's);
#   priors(State*, int* actions, int n, float* out) -> PUCT priors summing to 1.
# Both are virtual cdef methods called without the GIL. RolloutEvaluator, StaticEvaluator and
# NullEvaluator are here; a learned evaluator subclasses LeafEvaluator the same way.
#
# Offers: LeafEvaluator (the seam), NullEvaluator, StaticEvaluator, RolloutEvaluator,
#   SearchTree, state_hashes, NODE_BYTES, EDGE_BYTES, MAX_TREE_NODES, MAX_TREE_BYTES.
# Uses: _tables, _state (COMPARE_SIZE), _rng, _engine, _api (GameState, IllegalActionError),
#   _rollout.
# Invariants: nothing in the simulation loop touches a Python object (the loop runs without
#   the GIL); the tree stays within its memory ceiling; a transposition needs both hashes; a
#   solo tree selects on its edges' mean scores normalised over this search's range.

from libc.stdint cimport uint16_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memmove
from libc.math cimport log, sqrt
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef enum:
    MAX_DEPTH = 2000        # a simulation deeper than this is scored 0.5 (never seen in play)
    PRIOR_SCALE = 65535     # priors are stored as 16-bit fractions
    NODE_HAS_PRIORS = 1
    NODE_MARK = 2           # prune: reachable from the new root

ctypedef struct Node:
    uint64_t key            # 64-bit hash of the state (index key)
    uint32_t check          # independent 32-bit hash (confirms a key match)
    uint32_t first          # index of the first edge
    uint32_t total          # simulations through this node
    uint16_t n              # legal actions = edges
    int8_t player           # the player deciding here
    uint8_t flags

ctypedef struct Edge:
    int16_t action
    uint16_t prior          # PUCT prior * PRIOR_SCALE (uniform priors are not stored)
    uint32_t visits
    float value             # running mean of the value for the node's player
    float margin            # running mean of the VP margin for the node's player

NODE_BYTES = sizeof(Node)
EDGE_BYTES = sizeof(Edge)


# ---- hashing ----

cdef inline uint64_t _rotl(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))

cdef inline uint64_t _fmix(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= <uint64_t>0xFF51AFD7ED558CCDULL
    x ^= x >> 33
    x *= <uint64_t>0xC4CEB9FE1A85EC53ULL
    x ^= x >> 33
    return x

cdef inline void state_hash(State* s, uint64_t* key, uint32_t* check) noexcept nogil:
    """Two independent hashes of the rules-relevant bytes (before the RNG tail)."""
    cdef const unsigned char* p = <const unsigned char*>s
    cdef size_t i = 0, n = COMPARE_SIZE
    cdef uint64_t w, a = <uint64_t>0x243F6A8885A308D3ULL, b = <uint64_t>0x13198A2E03707344ULL
    while i + 8 <= n:
        memcpy(&w, p + i, 8)
        a = _rotl(a ^ (w * <uint64_t>0x87C37B91114253D5ULL), 31) * <uint64_t>0x4CF5AD432745937FULL
        b = _rotl(b ^ (w * <uint64_t>0x9E3779B97F4A7C15ULL), 27) * <uint64_t>0xD6E8FEB86659FD93ULL
        i += 8
    if i < n:
        w = 0
        memcpy(&w, p + i, n - i)
        a = _rotl(a ^ (w * <uint64_t>0x87C37B91114253D5ULL), 31) * <uint64_t>0x4CF5AD432745937FULL
        b = _rotl(b ^ (w * <uint64_t>0x9E3779B97F4A7C15ULL), 27) * <uint64_t>0xD6E8FEB86659FD93ULL
    key[0] = _fmix(a ^ n)
    check[0] = <uint32_t>(_fmix(b ^ (n << 1)) >> 32)


def state_hashes(GameState state):
    """The search's (64-bit key, 32-bit check) of a position (equal states, equal hashes)."""
    cdef uint64_t k
    cdef uint32_t c
    state_hash(&state.s, &k, &c)
    return k, c


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# ---- leaf evaluators (the seam) ----

cdef class LeafEvaluator:
    """How the search values a new leaf, and the PUCT priors of a new node.

    Subclasses override the C methods ``value`` (both players' values in [0, 1] and player 0's
    VP margin, whoever is to move) and optionally ``priors``. The base class is the
    null evaluator: every leaf is worth 0.5 and a margin of 0 (the search's tree cost alone).
    Priors default to a softmax of the heuristic margin after each action (VP / temperature).
    """

    cdef Weights w
    cdef double temperature
    cdef readonly str kind
    cdef readonly tuple weights

    def __init__(self, weights, prior_temperature=2.0):
        _weights_from(weights, &self.w)
        if not prior_temperature > 0:
            raise ValueError(f"prior_temperature must be positive, not {prior_temperature!r}")
        self.temperature = prior_temperature
        self.weights = tuple(float(x) for x in weights)
        self.kind = "null"

    cdef void value(self, State* s, uint64_t* rng, double* values,
                    double* margin0) noexcept nogil:
        values[0] = 0.5
        values[1] = 0.5
        margin0[0] = 0.0

    cdef void priors(self, State* s, int* actions, int n, float* out) noexcept nogil:
        cdef int i, pi = current_player(s)
        cdef double best = -1e300, z = 0.0
        for i in range(n):
            out[i] = <float>action_score(s, actions[i], pi, &self.w)
            if out[i] > best:
                best = out[i]
        for i in range(n):
            out[i] = <float>exp((out[i] - best) / self.temperature)
            z += out[i]
        for i in range(n):
            out[i] = <float>(out[i] / z)

    def action_priors(self, GameState state):
        """The PUCT priors this evaluator gives `state`'s legal actions, as the search stores
        them for a new node (before their 16-bit rounding): a list of (action id, prior) in
        legal_actions order. ValueError for a position without a decision."""
        cdef int buf[MAX_LEGAL]
        cdef float out[MAX_LEGAL]
        cdef int i, n
        cdef State s = state.s
        n = legal_actions(&s, buf) if not is_terminal(&s) else 0
        if n <= 0:
            raise ValueError("the position has no decision: there is nothing to score")
        self.priors(&s, buf, n, out)
        return [(buf[i], float(out[i])) for i in range(n)]

    def evaluate(self, GameState state, seed=0):
        """The evaluator's (player 0's value, player 0's margin) of `state` (unchanged)."""
        cdef State s = state.s
        cdef uint64_t rng = rng_seed(<int64_t>seed)
        cdef double m = 0.0
        cdef double values[2]
        if is_terminal(&s):
            player_values(&s, &self.w, terminal_value(&s, &self.w, &m), values)
        else:
            self.value(&s, &rng, values, &m)
        return values[0], m

    def __reduce__(self):
        return (type(self), (self.weights, self.temperature))


cdef class NullEvaluator(LeafEvaluator):
    """Every leaf is a draw (0.5, margin 0): measures the tree code alone."""


cdef class StaticEvaluator(LeafEvaluator):
    """The static evaluation (arle_ai.search.heuristics) of the leaf, squashed into a value."""

    def __init__(self, weights, prior_temperature=2.0):
        LeafEvaluator.__init__(self, weights, prior_temperature)
        self.kind = "static"

    cdef void value(self, State* s, uint64_t* rng, double* values,
                    double* margin0) noexcept nogil:
        margin0[0] = eval_margin(s, 0, &self.w)
        player_values(s, &self.w, estimate_value(s, margin0[0], &self.w), values)


cdef class RolloutEvaluator(LeafEvaluator):
    """One compiled rollout (heuristic or uniform policy) to the end or `horizon` half-years
    on, finished by the static evaluation (see _rollout.pxi)."""

    cdef int heuristic
    cdef int horizon

    def __init__(self, weights, prior_temperature=2.0, heuristic=True, horizon=2):
        LeafEvaluator.__init__(self, weights, prior_temperature)
        self.heuristic = 1 if heuristic else 0
        self.horizon = _check_horizon(horizon)
        self.kind = "heuristic rollout" if heuristic else "random rollout"

    cdef void value(self, State* s, uint64_t* rng, double* values,
                    double* margin0) noexcept nogil:
        cdef State t = s[0]
        player_values(&t, &self.w, rollout(&t, rng, &self.w, self.heuristic, self.horizon,
                                           margin0), values)

    def __reduce__(self):
        return (type(self), (self.weights, self.temperature, bool(self.heuristic), self.horizon))


# ---- the tree ----

MAX_TREE_NODES = (1 << 31) - 2     # node ids are int32 (index slots hold -1 for empty)
MAX_TREE_BYTES = 1 << 48           # a ceiling far above any machine (int64 arithmetic stays exact)

cdef class SearchTree:
    """A search tree (transposition table) on C arrays, with a memory ceiling.

    When the ceiling would be passed, the search stops adding nodes: new leaves are still
    evaluated and their values backed up, so the existing tree keeps being refined
    (``refused`` counts those leaves). ``prune`` keeps only what one position reaches.
    """

    cdef Node* nodes
    cdef Edge* edges
    cdef int32_t* index
    cdef int64_t n_nodes, cap_nodes, n_edges, cap_edges, index_cap
    cdef readonly int64_t max_bytes
    cdef readonly int64_t max_nodes
    cdef readonly int64_t refused
    cdef uint64_t key_mask
    cdef uint64_t rng
    cdef float* prior_buf
    # the solo game: the range of the edges' mean scores this search (_solo_q)
    cdef double solo_lo, solo_hi
    cdef float* root_prior      # run(root_priors=...): the root's priors for this run
    cdef int root_override      # whether root_prior replaces the root's stored priors
    cdef int root_forced        # run(root_edge=i): every simulation takes root edge i

    def __cinit__(self):
        self.nodes = NULL
        self.edges = NULL
        self.index = NULL
        self.prior_buf = <float*>malloc(MAX_LEGAL * sizeof(float))
        self.root_prior = <float*>malloc(MAX_LEGAL * sizeof(float))
        self.root_override = 0
        self.root_forced = -1
        if self.prior_buf == NULL or self.root_prior == NULL:
            raise MemoryError()

    def __init__(self, max_bytes=1 << 30, max_nodes=None):
        if not 1 << 16 <= max_bytes <= MAX_TREE_BYTES:
            raise ValueError(f"max_bytes must be in 65536..{MAX_TREE_BYTES}, not {max_bytes!r}")
        self.max_bytes = max_bytes
        # nodes are indexed by int32
        self.max_nodes = MAX_TREE_NODES if max_nodes is None else max_nodes
        if not 1 <= self.max_nodes <= MAX_TREE_NODES:
            raise ValueError(f"max_nodes must be in 1..{MAX_TREE_NODES}, not {max_nodes!r}")
        self.key_mask = <uint64_t>0xFFFFFFFFFFFFFFFFULL
        self.rng = 1
        self.clear()

    def __dealloc__(self):
        free(self.nodes)
        free(self.edges)
        free(self.index)
        free(self.prior_buf)
        free(self.root_prior)

    def clear(self):
        """Forget every node (memory is returned)."""
        free(self.nodes)
        free(self.edges)
        free(self.index)
        self.nodes = NULL
        self.edges = NULL
        self.n_nodes = self.cap_nodes = self.n_edges = self.cap_edges = 0
        self.refused = 0
        self._forget_score_range()
        self.index_cap = 1024
        self.index = <int32_t*>malloc(self.index_cap * sizeof(int32_t))
        if self.index == NULL:
            raise MemoryError()
        memset(self.index, 0xFF, self.index_cap * sizeof(int32_t))

    def _set_key_mask(self, mask):
        """Tests only: keep only these bits of the 64-bit key, forcing key collisions."""
        self.key_mask = <uint64_t>mask
        self._reindex(self.index_cap)

    # ---- sizes ----

    @property
    def node_count(self):
        return self.n_nodes

    @property
    def edge_count(self):
        return self.n_edges

    @property
    def bytes_allocated(self):
        """Bytes held by the arrays (nodes, edges, index), the figure the ceiling bounds."""
        return self._allocated()

    @property
    def bytes_used(self):
        """Bytes of the nodes and edges in use plus the index."""
        return (self.n_nodes * sizeof(Node) + self.n_edges * sizeof(Edge)
                + self.index_cap * sizeof(int32_t))

    cdef inline int64_t _allocated(self) noexcept nogil:
        return (self.cap_nodes * sizeof(Node) + self.cap_edges * sizeof(Edge)
                + self.index_cap * sizeof(int32_t))

    # ---- memory ----

    cdef int _grow_nodes(self) noexcept nogil:
        cdef int64_t room = self.max_bytes - self._allocated()
        cdef int64_t extra = self.cap_nodes // 4 if self.cap_nodes > 1024 else 256
        cdef Node* p
        if extra * <int64_t>sizeof(Node) > room:
            extra = room // <int64_t>sizeof(Node)
        if self.cap_nodes + extra > self.max_nodes:
            extra = self.max_nodes - self.cap_nodes
        if extra < 1:
            return 0
        p = <Node*>realloc(self.nodes, (self.cap_nodes + extra) * sizeof(Node))
        if p == NULL:
            return 0
        self.nodes = p
        self.cap_nodes += extra
        return 1

    cdef int _grow_edges(self, int64_t need) noexcept nogil:
        cdef int64_t room = self.max_bytes - self._allocated()
        cdef int64_t extra = self.cap_edges // 4 if self.cap_edges > 16384 else 4096
        cdef Edge* p
        if extra < need:
            extra = need
        if extra * <int64_t>sizeof(Edge) > room:
            extra = room // <int64_t>sizeof(Edge)
        if extra < need or self.cap_edges + extra > <int64_t>0xFFFFFFFF:
            return 0
        p = <Edge*>realloc(self.edges, (self.cap_edges + extra) * sizeof(Edge))
        if p == NULL:
            return 0
        self.edges = p
        self.cap_edges += extra
        return 1

    cdef int _reindex(self, int64_t cap) noexcept nogil:
        """Rebuild the index with `cap` slots (a power of two)."""
        cdef int32_t* idx = <int32_t*>malloc(cap * sizeof(int32_t))
        cdef int64_t i, j
        if idx == NULL:
            return 0
        memset(idx, 0xFF, cap * sizeof(int32_t))
        for i in range(self.n_nodes):
            j = <int64_t>(self.nodes[i].key & self.key_mask) & (cap - 1)
            while idx[j] >= 0:
                j = (j + 1) & (cap - 1)
            idx[j] = <int32_t>i
        free(self.index)
        self.index = idx
        self.index_cap = cap
        return 1

    # ---- lookup and expansion ----

    cdef inline int64_t _slot(self, uint64_t key, uint32_t check) noexcept nogil:
        """The index slot holding this position, or the empty slot where it would go."""
        cdef int64_t j = <int64_t>(key & self.key_mask) & (self.index_cap - 1)
        cdef int32_t k
        while True:
            k = self.index[j]
            if k < 0:
                return j
            if self.nodes[k].key == key and self.nodes[k].check == check:
                return j
            j = (j + 1) & (self.index_cap - 1)

    cdef int32_t _find(self, State* s) noexcept nogil:
        cdef uint64_t key
        cdef uint32_t check
        state_hash(s, &key, &check)
        return self.index[self._slot(key, check)]

    cdef int32_t _expand(self, State* s, uint64_t key, uint32_t check, int64_t slot,
                         LeafEvaluator ev, int puct) noexcept nogil:
        """Add the node of `s` (not terminal) at index `slot`; -1 at the memory ceiling."""
        cdef int buf[MAX_LEGAL]
        cdef int n, i
        cdef int64_t growth = self.index_cap * <int64_t>sizeof(int32_t)
        cdef Node* node
        cdef Edge* e
        n = legal_actions(s, buf)
        if n <= 0:
            return -1
        if 2 * (self.n_nodes + 1) > self.index_cap:
            # a bigger index must fit under the ceiling too
            if self._allocated() + growth > self.max_bytes or not self._reindex(2 * self.index_cap):
                return -1
            slot = self._slot(key, check)
        if self.n_nodes >= self.cap_nodes and not self._grow_nodes():
            return -1
        if self.n_edges + n > self.cap_edges and not self._grow_edges(n):
            return -1
        node = &self.nodes[self.n_nodes]
        node.key = key
        node.check = check
        node.first = <uint32_t>self.n_edges
        node.total = 0
        node.n = <uint16_t>n
        node.player = <int8_t>current_player(s)
        node.flags = 0
        if puct:
            ev.priors(s, buf, n, self.prior_buf)
            node.flags = NODE_HAS_PRIORS
        for i in range(n):
            e = &self.edges[self.n_edges + i]
            e.action = <int16_t>buf[i]
            e.prior = <uint16_t>(self.prior_buf[i] * PRIOR_SCALE + 0.5) if puct else 0
            e.visits = 0
            e.value = 0.0
            e.margin = 0.0
        self.n_edges += n
        self.index[slot] = <int32_t>self.n_nodes
        self.n_nodes += 1
        return <int32_t>(self.n_nodes - 1)

    cdef inline void _forget_score_range(self) noexcept nogil:
        self.solo_lo = 1e300
        self.solo_hi = -1e300

    cdef inline double _solo_q(self, Edge* e) noexcept nogil:
        """A solo edge's value for selection: its mean score normalised over the range of
        the mean scores seen this search (0 the lowest, 1 the highest; 0.5 while the range is
        empty). A score has no fixed scale (leaf estimates and final scores differ as the game
        goes on), so the tree compares scores with each other, as MuZero does for unbounded
        rewards, instead of through a fixed squash."""
        if self.solo_hi > self.solo_lo:
            return (e.margin - self.solo_lo) / (self.solo_hi - self.solo_lo)
        return 0.5

    cdef inline double _prior(self, Node* node, Edge* e) noexcept nogil:
        if node.flags & NODE_HAS_PRIORS:
            return e.prior * (1.0 / PRIOR_SCALE)
        return 1.0 / node.n

    cdef inline int _select(self, Node* node, double c, int puct, int solo,
                            float* priors) noexcept nogil:
        """UCT (c * sqrt(ln N / n), unvisited first) or PUCT (c * P * sqrt(N) / (1 + n)), on
        the edges' values (the solo game: their normalised mean scores, _solo_q); `priors`
        (edge order) replace the node's stored priors when not NULL."""
        cdef Edge* e = &self.edges[node.first]
        cdef int i, best_i = 0
        cdef double u, q, best = -1.0, lg, sq, prior
        if puct:
            sq = sqrt(node.total + 1.0)
            for i in range(node.n):
                if not e[i].visits:
                    q = 0.5
                elif solo:
                    q = self._solo_q(&e[i])
                else:
                    q = e[i].value
                prior = priors[i] if priors != NULL else self._prior(node, &e[i])
                u = q + c * prior * sq / (1 + e[i].visits)
                if u > best:
                    best = u
                    best_i = i
            return best_i
        lg = log(node.total + 1.0)
        for i in range(node.n):
            if e[i].visits == 0:
                return i
            q = self._solo_q(&e[i]) if solo else e[i].value
            u = q + c * sqrt(lg / e[i].visits)
            if u > best:
                best = u
                best_i = i
        return best_i

    cdef void _simulate(self, State* root, int32_t root_id, LeafEvaluator ev, double c,
                        int puct, int32_t* path_node, int32_t* path_edge) noexcept nogil:
        cdef State s = root[0]
        cdef int depth = 0, i, solo = root.solo
        cdef int32_t nid = root_id
        cdef int64_t slot, ei
        cdef uint64_t key
        cdef uint32_t check
        cdef double m0 = 0.0, v, m
        cdef double values[2]
        cdef Node* node
        cdef Edge* e
        while True:
            node = &self.nodes[nid]
            if depth > 0:
                i = self._select(node, c, puct, solo, NULL)
            elif self.root_forced >= 0:
                i = self.root_forced
            else:
                i = self._select(node, c, puct, solo,
                                 self.root_prior if self.root_override else NULL)
            path_node[depth] = nid
            path_edge[depth] = i
            depth += 1
            apply_action(&s, self.edges[node.first + i].action)
            if is_terminal(&s):
                player_values(&s, &ev.w, terminal_value(&s, &ev.w, &m0), values)
                break
            if depth >= MAX_DEPTH:
                values[0] = values[1] = 0.5
                m0 = 0.0
                break
            state_hash(&s, &key, &check)
            slot = self._slot(key, check)
            nid = self.index[slot]
            if nid < 0:
                if self._expand(&s, key, check, slot, ev, puct) < 0:
                    self.refused += 1
                ev.value(&s, &self.rng, values, &m0)
                break
        for i in range(depth):
            node = &self.nodes[path_node[i]]
            e = &self.edges[node.first + path_edge[i]]
            node.total += 1
            e.visits += 1
            v = values[node.player]
            m = m0 if node.player == 0 else -m0
            e.value += <float>((v - e.value) / e.visits)
            e.margin += <float>((m - e.margin) / e.visits)
            if solo:
                if e.margin < self.solo_lo:
                    self.solo_lo = e.margin
                if e.margin > self.solo_hi:
                    self.solo_hi = e.margin

    # ---- the Python face ----

    def seed(self, seed):
        """Start the search's random stream (rollouts) from `seed`."""
        self.rng = rng_seed(<int64_t>(seed & 0x7FFFFFFFFFFFFFFF))

    def ensure_root(self, GameState state, LeafEvaluator ev, bint puct=False):
        """Start a search from `state`: add its node if it is not in the tree (clearing a full
        tree to make room) and, in the solo game, forget the range of scores of the last
        search (_solo_q). Returns False for a finished game."""
        cdef uint64_t key
        cdef uint32_t check
        cdef int64_t slot
        if is_terminal(&state.s):
            return False
        self._forget_score_range()
        state_hash(&state.s, &key, &check)
        slot = self._slot(key, check)
        if self.index[slot] >= 0:
            return True
        if self._expand(&state.s, key, check, slot, ev, puct) < 0:
            self.clear()
            slot = self._slot(key, check)
            if self._expand(&state.s, key, check, slot, ev, puct) < 0:
                raise MemoryError("the search's memory ceiling is too small for one node")
        return True

    def run(self, GameState state, LeafEvaluator ev, int64_t iterations, double seconds=-1.0,
            double c=0.9, bint puct=False, root_priors=None, int root_edge=-1):
        """Up to `iterations` simulations from `state` (whose node ensure_root added), or until
        `seconds` have passed (checked every 16 simulations; < 0: no time limit). Returns the
        simulations done. The GIL is released.

        For the root of self-play searches (arle_ai.search.root): `root_priors` (one number
        per root edge, in the order of ``stats``) replace the root's priors in this run's
        PUCT selection (root noise), and `root_edge` >= 0 sends every simulation through that
        root edge (sequential halving); the stored priors stay."""
        cdef State root = state.s
        cdef int32_t rid = self._find(&root)
        cdef int64_t done = 0
        cdef double deadline = 0.0
        cdef int timed = seconds >= 0
        cdef int32_t* path_node
        cdef int32_t* path_edge
        if rid < 0:
            raise ValueError("the root is not in the tree (call ensure_root first)")
        self._root_choice(rid, root_priors, root_edge)
        path_node = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        path_edge = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        if path_node == NULL or path_edge == NULL:
            free(path_node)
            free(path_edge)
            raise MemoryError()
        with nogil:
            if timed:
                deadline = now_seconds() + seconds
            while done < iterations:
                if timed and done % 16 == 0 and now_seconds() >= deadline:
                    break
                self._simulate(&root, rid, ev, c, puct, path_node, path_edge)
                done += 1
        free(path_node)
        free(path_edge)
        self.root_override = 0
        self.root_forced = -1
        return done

    cdef _root_choice(self, int32_t rid, root_priors, int root_edge):
        """Check and set run()'s root_priors and root_edge (ValueError naming the problem)."""
        cdef int i, n = self.nodes[rid].n
        cdef double p
        self.root_override = 0
        self.root_forced = -1
        if root_edge >= 0 or root_edge < -1:
            if root_edge >= n:
                raise ValueError(f"root_edge {root_edge} is outside 0..{n - 1}, the root's "
                                 f"edges")
            if root_edge < -1:
                raise ValueError(f"root_edge must be an edge index or -1, not {root_edge}")
            self.root_forced = root_edge
        if root_priors is not None:
            if len(root_priors) != n:
                raise ValueError(f"root_priors has {len(root_priors)} numbers, the root has "
                                 f"{n} edges")
            for i in range(n):
                p = float(root_priors[i])
                if not (0.0 <= p <= 1.0):
                    raise ValueError(f"root_priors[{i}] = {p!r} is not a prior in 0..1")
                self.root_prior[i] = <float>p
            self.root_override = 1

    def stats(self, GameState state):
        """(action, visits, mean value, mean margin, prior) per action of `state`'s node, in
        action order (values for the player deciding there), or None if not in the tree."""
        cdef int32_t nid = self._find(&state.s)
        cdef Node* node
        cdef Edge* e
        cdef int i
        if nid < 0:
            return None
        node = &self.nodes[nid]
        e = &self.edges[node.first]
        return [(e[i].action, e[i].visits, e[i].value, e[i].margin, self._prior(node, &e[i]))
                for i in range(node.n)]

    def principal_variation(self, GameState state, int action, int depth=8):
        """`action`, then the most visited action of each following node (ties: the lower
        id), up to `depth` actions in all."""
        cdef State s = state.s
        cdef list pv = [action]
        cdef int32_t nid
        cdef int i, best_i
        cdef Node* node
        cdef Edge* e
        if not 0 <= action < NUM_ACTIONS or not is_legal(&s, action):
            raise IllegalActionError(f"principal_variation: {action} is not a legal action here")
        apply_action(&s, action)
        while len(pv) < depth and not is_terminal(&s):
            nid = self._find(&s)
            if nid < 0 or self.nodes[nid].total == 0:
                break
            node = &self.nodes[nid]
            e = &self.edges[node.first]
            best_i = 0
            for i in range(1, node.n):
                if e[i].visits > e[best_i].visits:
                    best_i = i
            if e[best_i].visits == 0:
                break
            pv.append(e[best_i].action)
            apply_action(&s, e[best_i].action)
        return pv

    def prune(self, GameState state):
        """Keep only the nodes reachable from `state`'s node (a new root after moves were
        played), compacted in place; everything is dropped if it is not in the tree. Returns
        the nodes kept."""
        cdef int32_t rid = self._find(&state.s)
        cdef State* states
        cdef int32_t* stack_node
        cdef int32_t* stack_edge
        cdef int depth = 0
        cdef int64_t i, n_keep = 0, n_edges = 0, k
        cdef int32_t nid, cid
        cdef Node* node
        if rid < 0:
            self.clear()
            return 0
        states = <State*>malloc(MAX_DEPTH * sizeof(State))
        stack_node = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        stack_edge = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        if states == NULL or stack_node == NULL or stack_edge == NULL:
            free(states)
            free(stack_node)
            free(stack_edge)
            self.clear()
            return 0
        with nogil:
            for i in range(self.n_nodes):
                self.nodes[i].flags &= ~NODE_MARK
            # depth first from the root, replaying the visited actions to find children
            self.nodes[rid].flags |= NODE_MARK
            states[0] = state.s
            stack_node[0] = rid
            stack_edge[0] = 0
            depth = 1
            while depth > 0:
                node = &self.nodes[stack_node[depth - 1]]
                k = stack_edge[depth - 1]
                if k >= node.n:
                    depth -= 1
                    continue
                stack_edge[depth - 1] += 1
                if self.edges[node.first + k].visits == 0 or depth >= MAX_DEPTH:
                    continue
                states[depth] = states[depth - 1]
                apply_action(&states[depth], self.edges[node.first + k].action)
                if is_terminal(&states[depth]):
                    continue
                cid = self._find(&states[depth])
                if cid < 0 or self.nodes[cid].flags & NODE_MARK:
                    continue
                self.nodes[cid].flags |= NODE_MARK
                stack_node[depth] = cid
                stack_edge[depth] = 0
                depth += 1
            # stable compaction: nodes (and their edges) only move to lower positions
            for i in range(self.n_nodes):
                node = &self.nodes[i]
                if not node.flags & NODE_MARK:
                    continue
                node.flags &= ~NODE_MARK
                memmove(&self.edges[n_edges], &self.edges[node.first], node.n * sizeof(Edge))
                node.first = <uint32_t>n_edges
                n_edges += node.n
                if n_keep != i:
                    self.nodes[n_keep] = node[0]
                n_keep += 1
            self.n_nodes = n_keep
            self.n_edges = n_edges
            k = 1024
            while k < 2 * n_keep:
                k *= 2
        free(states)
        free(stack_node)
        free(stack_edge)
        free(self.index)
        self.index = NULL
        self.index_cap = 0
        if not self._reindex(k):
            self.clear()
            return 0
        return n_keep
