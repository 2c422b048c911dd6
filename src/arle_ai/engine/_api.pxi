# The Python face of the engine: GameState, playouts from Python.
#
# Offers: GameState (copy, pickling with a digest, equality and hashing on the rules bytes,
#   legal actions and masks, apply and apply_traced, scores, positions as dicts and JSON,
#   features), new_game, random_playout, random_playout_steps, random_playouts, copies.
# Uses: _tables, _state (COMPARE_SIZE), _data, _rng, _frames, _engine (the entry points),
#   _scoring, _home (breed_plans), _playout, _seam (the installed text), _names, _position (to
#   and from dicts).
# Calls ahead: _features (GameState.features runs _features, which takes a GameState).
# Invariants: every id from Python is range-checked and checked legal before the core sees it
#   (IllegalActionError, the state unchanged); a GameState always holds a position: new,
#   copied, loaded from a checked dict or an unpickled struct that passes the same checks.

import hashlib as _hashlib

cimport numpy as cnp

cnp.import_array()
import json as _json
from arle_ai.base.errors import IllegalActionError, PositionError
from arle_ai.base.jsontext import parse_json as _parse_json

DIGEST_SIZE = 16


def _digest(bytes data):
    """A check on pickled state bytes (against corruption; pickles are never safe to load
    from an untrusted source)."""
    return _hashlib.blake2b(data, digest_size=DIGEST_SIZE, person=b"arle-state").digest()



cdef class GameState:
    """A Fields of Arle position (two players, or the solo game: :attr:`players`). Mutable:
    :meth:`apply` changes it in place."""

    cdef State s

    def __init__(self):
        """GameState() is new_game(0), the standard opening of seed 0: a blank struct is not a
        position (no pending decision), and the core is never given one."""
        setup_game(&self.s, 0, 0, 0)
        flow(&self.s)

    # ---- construction ----

    @staticmethod
    def new(seed=0, variant="standard", players=2):
        """The start position; buildings and the starting player are drawn from `seed` (the
        solo game, players=1, deals the same buildings as the two-player game of that seed;
        its one player always starts)."""
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, not {variant!r}")
        if isinstance(players, bool) or players not in PLAYER_COUNTS:
            raise ValueError(f"players must be 1 (the solo game) or 2, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            shown = repr(seed) if isinstance(seed, int) and abs(seed) < 10 ** 30 else "that"
            raise ValueError(f"seed must be an integer in 0..{MAX_SEED} (2**63 - 1), not {shown}")
        cdef GameState g = GameState.__new__(GameState)
        setup_game(&g.s, <int64_t>seed, VARIANTS.index(variant), players == 1)
        flow(&g.s)
        return g

    def copy(self):
        """An independent copy (a struct assignment)."""
        cdef GameState g = GameState.__new__(GameState)
        g.s = self.s
        return g

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        data = self.raw_bytes()
        return (GameState._from_bytes, (data + _digest(data),))

    def raw_bytes(self):
        """The whole struct as bytes (for pickling and transposition keys)."""
        return (<char*>&self.s)[:sizeof(State)]

    def key(self):
        """Bytes that identify the position: equal for equal states."""
        return (<char*>&self.s)[:COMPARE_SIZE]

    @staticmethod
    def _from_bytes(bytes data):
        """The state pickled by __reduce__: the struct bytes and their digest. Bytes that were
        cut or changed are refused, and so is a struct (even with a recomputed digest) that is
        not the position its own fields describe: it passes the checks of from_dict, so the core
        never indexes out of range on an unpickled state."""
        if len(data) != sizeof(State) + DIGEST_SIZE:
            raise ValueError("state bytes of the wrong size (not a pickled GameState)")
        body = data[:sizeof(State)]
        if _digest(body) != data[sizeof(State):]:
            raise ValueError("state bytes do not match their digest (corrupted pickle)")
        cdef GameState g = GameState.__new__(GameState)
        memcpy(&g.s, <char*>body, sizeof(State))
        _check_unpickled(&g.s)
        return g

    def __eq__(self, other):
        if not isinstance(other, GameState):
            return NotImplemented
        return memcmp(&self.s, &(<GameState>other).s, COMPARE_SIZE) == 0

    def __hash__(self):
        return hash(self.key())

    # ---- the game ----

    @property
    def players(self):
        """The number of players: 2, or 1 in the solo game."""
        return 1 if self.s.solo else 2

    @property
    def current_player(self):
        """The player who must decide now (0 or 1; always 0 in the solo game), or None when
        the game is over."""
        cdef int p = current_player(&self.s)
        return None if p < 0 else p

    @property
    def half_year(self):
        return self.s.half_year

    @property
    def season(self):
        return "summer" if self.s.half_year & 1 else "winter"

    @property
    def start_player(self):
        return self.s.start_player

    @property
    def workers_placed(self):
        """Workers placed or passed so far this half-year (0..8; solo 0..rules.SOLO_WORKERS)."""
        return self.s.turn

    @property
    def workers_per_half_year(self):
        """Workers placed in a half-year: 8 (4 per player), or the solo player's."""
        return turns_per_half_year(&self.s)

    @property
    def special_action_by(self):
        return None if self.s.special_by < 0 else self.s.special_by

    @property
    def seed(self):
        return self.s.seed

    @property
    def variant(self):
        return VARIANTS[self.s.variant]

    @property
    def pending(self):
        """What the pending decision is about, e.g. 'turn', 'feed', 'action:farmer'."""
        if self.s.sp == 0:
            return "none"
        cdef Frame* f = top(&self.s)
        name = FRAME_KINDS[f.kind]
        if f.kind == K_ACTION:
            name += ":" + _frame_step_name(action_of(f))
        return name

    def is_terminal(self):
        return bool(is_terminal(&self.s))

    def legal_actions(self):
        """The legal action ids, sorted ascending, without duplicates."""
        cdef int buf[MAX_LEGAL]
        cdef int n = legal_actions(&self.s, buf)
        return [buf[i] for i in range(n)]

    def legal_mask(self):
        """The legal actions as a numpy int8 vector over all NUM_ACTIONS ids: 1 where legal
        (all 0 once the game is over). The action mask of the game adapters."""
        cdef int buf[MAX_LEGAL]
        cdef int n = legal_actions(&self.s, buf)
        cdef int i
        cdef cnp.npy_intp size = NUM_ACTIONS
        out = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)
        cdef signed char* data = <signed char*>cnp.PyArray_DATA(<cnp.ndarray>out)
        for i in range(n):
            data[buf[i]] = 1
        return out

    def is_legal(self, a):
        return (isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS
                and bool(is_legal(&self.s, a)))

    def apply(self, a):
        """Apply action id `a` in place; IllegalActionError (state unchanged) if it is not legal."""
        if not (isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS
                and is_legal(&self.s, a)):
            raise self._illegal(a)
        apply_action(&self.s, a)
        return self

    def apply_traced(self, a):
        """Apply `a` like :meth:`apply` (same end state) and return the automatic steps the
        engine ran after it, one by one, for reporting what happened (:mod:`arle_ai.text.effects`):
        a list of ``(kind, step, player, state_after)``. The first is ``"applied"`` (``step``
        is `a`, ``player`` who made it, the state right after it, before any automatic step:
        a decision inside the half-year's end, such as breeding, changes the position before
        the step after it runs). ``kind`` is then ``"half_end"`` (``step``
        is the end-of-half-year program counter before the step, see HALF_END_PROGRAM: the
        start player's inventorying step k is inventory_start + k, the other player's
        inventory_other + k, then prepare; ``player`` the inventorying player or -1),
        ``"forced"`` (a
        decision with one legal choice, made for ``player``; ``step`` is the action id) or
        ``"finished"`` (a decision with nothing left to choose). Turn advances are not listed.
        """
        if not (isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS
                and is_legal(&self.s, a)):
            raise self._illegal(a)
        cdef int buf[MAX_LEGAL]
        cdef Frame* f
        cdef int n, guard = 0, kind, pc, player, sp
        player = current_player(&self.s)
        apply_raw(&self.s, a)
        steps = [("applied", a, player, self.copy())]
        while self.s.sp > 0 and guard < 10000:
            guard += 1
            f = top(&self.s)
            kind, pc, player, sp = f.kind, program_step(f), f.player, self.s.start_player
            if kind not in (K_ADVANCE, K_HALF_END, K_GAME_OVER, K_TURN):
                n = legal_actions(&self.s, buf)
                pc = buf[0] if n == 1 else -1
            n = flow_step(&self.s, buf)
            if n != FLOW_STEPPED:
                break
            if kind == K_HALF_END:
                if HE_INVENTORY_START <= pc < HE_PREPARE:
                    who = sp if pc < HE_INVENTORY_OTHER else 1 - sp
                else:
                    who = -1
                steps.append(("half_end", pc, who, self.copy()))
            elif kind != K_ADVANCE:
                steps.append(("forced" if pc >= 0 else "finished", pc, player, self.copy()))
        return steps

    def _illegal(self, a):
        """The IllegalActionError for `a`, in printed names (the installed illegal_action:
        _seam.pxi); should building it fail, a plain one naming the id and the decision."""
        try:
            return _installed("illegal_action")(self, a)
        except Exception:
            return IllegalActionError(
                f"illegal action {a!r} ({self._describe_id(a)}) in decision {self.pending!r} "
                f"of player {self.current_player}")

    def _describe_id(self, a):
        if isinstance(a, int) and 0 <= a < NUM_ACTIONS:
            try:
                return repr(_installed("action_to_string")(self, a))
            except Exception:
                return "unknown"
        return "not an action id"

    def action_to_string(self, a):
        """The notation of action id `a` here (docs/notation.md; the installed text: _seam.pxi)."""
        return _installed("action_to_string")(self, a)

    def parse_action(self, text):
        """The legal action id `text` names; IllegalActionError otherwise (_seam.pxi)."""
        return _installed("parse_action")(self, text)

    # ---- scoring ----

    def scores(self):
        """Final VP per player (the current standing before the end); one entry in the solo
        game, whose result is that score."""
        return _scores(&self.s)

    def score_breakdown(self, int p):
        """The scoring categories of player p; the values sum to scores()[p]."""
        self._check_player(p)
        cdef int parts[NSCORE]
        score_parts(&self.s.pl[p], parts)
        return {SCORE_CATEGORIES[i]: parts[i] / 2.0 for i in range(NSCORE)}

    def winner(self):
        """0 or 1 at the end (ties broken by the rules), None before. A solo game has no
        winner (its result is scores()[0]): ValueError."""
        self._two_players("winner")
        if not is_terminal(&self.s):
            return None
        return winner_of(&self.s)

    def tie_break_player(self):
        """The player who would start the next half-year (wins a tie at the end); ValueError
        in the solo game (no tie-break)."""
        self._two_players("tie_break_player")
        return next_start_player(&self.s)

    def _two_players(self, what):
        if self.s.solo:
            raise ValueError(f"{what}: a solo game has no winner and no tie-break (its result "
                             "is the score: scores()[0], score_breakdown(0))")

    def _check_player(self, p):
        if self.s.solo and p != 0:
            raise ValueError(f"player must be 0 in the solo game (one player), not {p!r}")
        if p not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {p!r}")

    def breeding_plans(self):
        """The newborn vectors (sheep, cattle, horse) the pending breeding decision offers."""
        cdef BreedPlans plans
        if self.s.sp == 0 or top(&self.s).kind != K_BREED:
            return []
        breed_plans(&self.s.pl[top(&self.s).player], &plans)
        return [(plans.v[i][0], plans.v[i][1], plans.v[i][2]) for i in range(plans.n)]

    def vehicle_kind_at(self, int player, int slot):
        """The barn piece key of vehicle `slot` of `player` (for notation), or None."""
        if player not in range(self.players) or not 0 <= slot < self.s.pl[player].nveh:
            return None
        return VEHICLE_KEYS[self.s.pl[player].veh[slot].kind]

    # ---- features ----

    def features(self, player=None):
        """The position as a float32 vector of NUM_FEATURES slots (docs/features.md), seen by
        `player` (0 or 1; default: the player to decide, 0 once the game is over): that
        player's block ("me."), the opponent's ("opp."), the board and the pending decision.
        Computed in the core."""
        return _features(self, player)

    # ---- positions ----

    def to_dict(self):
        return _state_to_dict(&self.s)

    @staticmethod
    def from_dict(d):
        cdef GameState g = GameState.__new__(GameState)
        _state_from_dict(&g.s, d)
        return g

    def to_json(self, indent=1):
        """The position in the documented format (docs/position-format.md)."""
        return _json.dumps(self.to_dict(), indent=indent)

    @staticmethod
    def from_json(text):
        """Read a position; PositionError names the first bad field (or the JSON error)."""
        return GameState.from_dict(_parse_json(text))

    def __repr__(self):
        if is_terminal(&self.s):
            return f"<GameState over, scores {self.scores()}>"
        return (f"<GameState half-year {self.half_year} ({self.season}), player "
                f"{self.current_player} to decide {self.pending!r}>")


cdef void _check_unpickled(State* s) except *:
    """Refuse an unpickled struct unless it is exactly the position its own fields describe:
    the indexes to_dict reads are range-checked first, then to_dict -> from_dict (every check of
    a position file) must give back the same struct. ValueError names the problem."""
    cdef State again
    cdef int pi, t, i
    cdef Player* p
    if (not 0 < s.sp <= STACK or not 0 <= s.variant < len(VARIANTS)
            or not 0 <= s.solo <= 1):
        raise ValueError("unpickled state: not a position (bad decision stack, variant or "
                         "player count)")
    for i in range(s.sp):
        if not 0 < s.stack[i].kind < NKINDS:
            raise ValueError(f"unpickled state: pending[{i}] is no kind of decision")
    for pi in range(NP):
        p = &s.pl[pi]
        for t in range(NTOOLS):
            if not 0 <= p.tools[t] < TOOL_LEN[t]:
                raise ValueError(f"unpickled state: players[{pi}] has a tool off its track")
        if not 0 <= p.nveh <= MAXVEH:
            raise ValueError(f"unpickled state: players[{pi}] has {p.nveh} vehicles")
        for i in range(p.nveh):
            if not V_HANDCART <= p.veh[i].kind < NVKINDS:
                raise ValueError(f"unpickled state: players[{pi}] has a vehicle of no kind")
    try:
        _state_from_dict(&again, _state_to_dict(s))
    except ValueError as exc:   # PositionError, or a bound of the copy
        raise ValueError(f"unpickled state is not a sound position: {exc}") from None
    if memcmp(&again, s, COMPARE_SIZE) != 0:
        raise ValueError("unpickled state is not the position its fields describe")


def new_game(seed=0, variant="standard", players=2):
    """A new game of `players` (2, or 1 for the solo game); `seed` draws the buildings and the
    two-player game's starting player."""
    return GameState.new(seed, variant, players)


cdef list _scores(State* s):
    """Final VP (or the standing) per player: one entry in the solo game."""
    if s.solo:
        return [score_half(&s.pl[0]) / 2.0]
    return [score_half(&s.pl[0]) / 2.0, score_half(&s.pl[1]) / 2.0]


def random_playout(GameState state, seed=0, max_steps=100000):
    """Play the rest of the game with uniformly random legal actions, in C. The given state is
    not changed. Returns the final scores."""
    cdef State s = state.s
    cdef uint64_t rng = rng_seed(<int64_t>seed)
    cdef int steps = max_steps
    with nogil:
        playout_random(&s, &rng, steps)
    return _scores(&s)


def random_playout_steps(GameState state, seed=0, max_steps=100000):
    """As random_playout, and also the number of decisions taken: (scores, decisions)."""
    cdef State s = state.s
    cdef uint64_t rng = rng_seed(<int64_t>seed)
    cdef int steps, limit = max_steps
    with nogil:
        steps = playout_random(&s, &rng, limit)
    return _scores(&s), steps


def random_playouts(GameState state, int n, seed=0):
    """n random playouts from `state` in C; returns the mean decisions per game (for benchmarks)."""
    cdef State s
    cdef uint64_t rng = rng_seed(<int64_t>seed)
    cdef long total = 0
    cdef int i
    with nogil:
        for i in range(n):
            s = state.s
            total += playout_random(&s, &rng, 100000)
    return <double>total / max(n, 1)


cdef State _copy_ring[64]

def copies(GameState state, int n):
    """n struct copies into a ring of 64 states, the source changing each time (for benchmarks;
    the checksum keeps the compiler from dropping the copies)."""
    cdef State src = state.s
    cdef long acc = 0
    cdef int i
    with nogil:
        for i in range(n):
            src.turn = <int8_t>(i & 7)
            _copy_ring[i & 63] = src
        for i in range(64):
            acc += _copy_ring[i].turn + _copy_ring[i].pl[1].goods[G_FOOD]
    return acc

