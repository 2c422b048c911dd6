"""Property-testing support: the engine's invariants and hypothesis strategies for positions.

The project's own property tests use exactly these, so code built on the engine can be tested
against the same guarantees::

    from hypothesis import given
    from arle_ai.engine.testing import check_invariants, game_states

    @given(game_states(max_depth=120))
    def test_my_evaluation_is_finite(state):
        check_invariants(state)
        assert abs(my_evaluation(state)) < 1e6

``check_invariants`` raises :class:`InvariantError` naming the first invariant that fails.
hypothesis is imported only by the strategy functions, so the rest works without it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arle_ai.base.errors import IllegalActionError
from arle_ai.engine import _core, rules

__all__ = [
    "InvariantError",
    "check_invariants",
    "check_illegal_rejected",
    "play_random_game",
    "random_position",
    "RandomGame",
    "uniform_policy",
    "biased_policy",
    "action_family",
    "game_states",
    "legal_action",
]

Policy = Callable[[_core.GameState, random.Random], int]

LAYOUT = rules.ACTION_LAYOUT
NUM_ACTIONS = _core.NUM_ACTIONS_PY
WORKERS_PER_PLAYER = 4  # July-October (core.md §1.3); no tile adds a worker
MAX_HALF_YEARS = 9

# Action families in id order (ACTION_LAYOUT's ranges), for policies and coverage counts.
_NOT_FAMILIES = ("num_actions", "max_vehicles")
_FAMILIES = sorted((start, name) for name, start in LAYOUT.items() if name not in _NOT_FAMILIES)


class InvariantError(AssertionError):
    """A position breaks a rule that no legal sequence of decisions can break."""


def action_family(action: int) -> str:
    """The ACTION_LAYOUT family of an action id ('place', 'build', 'load', ...)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} is out of range 0..{NUM_ACTIONS - 1}")
    family = _FAMILIES[0][1]
    for start, name in _FAMILIES:
        if action < start:
            break
        family = name
    return family


def _fail(what: str, detail: str) -> None:
    raise InvariantError(f"{what}: {detail}")


def _check_player(i: int, p: dict[str, Any]) -> None:
    where = f"players[{i}]"
    for good, n in p["goods"].items():
        if n < 0:
            _fail(f"{where}.goods.{good}", f"negative ({n})")
    for good in rules.TRACK_GOODS:
        cap = rules.FOOD_CAP if good == "food" else rules.GOODS_CAP
        if p["goods"][good] > cap:
            _fail(f"{where}.goods.{good}", f"{p['goods'][good]} is over the cap of {cap}")
    for kind, n in p["animals"].items():
        if n < 0:
            _fail(f"{where}.animals.{kind}", f"negative ({n})")
    for key, value in p["tools"].items():
        if value not in rules.tool(key).values:
            _fail(f"{where}.tools.{key}", f"{value} is not a value of the track")


def _check_round_trip(state: _core.GameState, d: dict[str, Any]) -> None:
    try:
        again = _core.GameState.from_dict(d)
    except ValueError as exc:  # PositionError: the validator found an impossible position
        _fail("position", f"to_dict() gives a position that from_dict() rejects: {exc}")
    if again != state or again.to_dict() != d:
        _fail("to_dict/from_dict", "the round trip changes the state")
    text = state.to_json()
    if _core.GameState.from_json(text) != state:
        _fail("to_json/from_json", "the round trip changes the state")


def _check_copy(state: _core.GameState, legal: Sequence[int]) -> None:
    twin = state.copy()
    if twin != state or hash(twin) != hash(state):
        _fail("copy()", "the copy is not equal to the original (or hashes differently)")
    if state.is_terminal() or not legal:
        return
    before = state.raw_bytes()
    twin.apply(legal[0])
    if state.raw_bytes() != before:
        _fail("copy()", "applying an action to the copy changed the original")


def _check_legal(state: _core.GameState, legal: Sequence[int]) -> None:
    if state.is_terminal():
        if legal:
            _fail("legal_actions()", f"the game is over but {len(legal)} actions are offered")
        return
    if not legal:
        _fail("legal_actions()", "empty in a position that is not terminal")
    if list(legal) != sorted(set(legal)):
        _fail("legal_actions()", "not sorted or has duplicates")
    if legal[0] < 0 or legal[-1] >= NUM_ACTIONS:
        _fail("legal_actions()", f"an id outside 0..{NUM_ACTIONS - 1}")
    for a in legal:
        if not state.is_legal(a):
            _fail("is_legal()", f"False for offered action {a}")


def _check_turn_state(state: _core.GameState, d: dict[str, Any]) -> None:
    if not 1 <= state.half_year <= MAX_HALF_YEARS:
        _fail("half_year", f"{state.half_year} is outside 1..{MAX_HALF_YEARS}")
    players = state.players
    if players not in rules.PLAYER_COUNTS or len(d["players"]) != players or (
            d["setup"]["players"] != players):
        _fail("players", f"{players} players, {len(d['players'])} in the position, "
              f"setup.players {d['setup'].get('players')!r}")
    workers = rules.SOLO_WORKERS if players == 1 else WORKERS_PER_PLAYER
    placed = [0, 0]
    for who in d["occupied"].values():
        if who >= players:
            _fail("occupied", f"a worker of player {who} in a {players}-player game")
        placed[who] += 1
    for p in range(players):
        if placed[p] > workers:
            _fail("occupied", f"player {p} has {placed[p]} workers out, more than {workers}")
    if state.workers_placed > players * workers:
        _fail("workers_placed", f"{state.workers_placed} is more than the players' workers")
    if players == 1:
        if state.start_player != 0 or state.current_player not in (0, None):
            _fail("start_player", "the solo player (0) starts and decides everything")
        if state.special_action_by not in (None, 0) or (
                state.special_action_by is not None and not rules.SOLO_SPECIAL_ACTION):
            _fail("special_action_by", f"{state.special_action_by!r} in the solo game")


def _check_scores(state: _core.GameState) -> None:
    scores = state.scores()
    if len(scores) != state.players:
        _fail("scores()", f"{len(scores)} scores for {state.players} players")
    for p in range(state.players):
        parts = state.score_breakdown(p)
        if abs(sum(parts.values()) - scores[p]) > 1e-9:
            _fail(f"score_breakdown({p})", f"parts sum to {sum(parts.values())}, "
                  f"scores() says {scores[p]}")
    if state.players == 1:
        try:
            state.winner()
        except ValueError:
            return
        _fail("winner()", "a solo game has no winner, but winner() answered")
    if state.is_terminal() and state.winner() not in (0, 1, None):
        _fail("winner()", f"{state.winner()!r} is not 0, 1 or None")


def check_invariants(state: _core.GameState) -> None:
    """Check everything that must hold in any reachable position; raise InvariantError naming
    the first violation: goods non-negative and within caps, tools on their tracks, animals
    housed and supplies not exceeded (the position validator, via a to_dict round trip), the
    JSON round trip, copies equal and independent, legal actions sorted, in range and accepted,
    at most 4 workers out per player, and score breakdowns summing to the scores; in the solo
    game, one player who starts and decides everything and has no winner."""
    d = state.to_dict()
    for i, p in enumerate(d["players"]):
        _check_player(i, p)
    _check_turn_state(state, d)
    _check_round_trip(state, d)
    legal = state.legal_actions()
    _check_legal(state, legal)
    _check_copy(state, legal)
    _check_scores(state)


def check_illegal_rejected(state: _core.GameState, action: int) -> None:
    """Check that applying an action that is not legal raises IllegalActionError and leaves
    the state exactly as it was."""
    if state.is_legal(action):
        raise ValueError(f"action {action} is legal here")
    before = state.raw_bytes()
    try:
        state.apply(action)
    except IllegalActionError:
        pass
    else:
        _fail("apply()", f"accepted the illegal action {action}")
    if state.raw_bytes() != before:
        _fail("apply()", f"rejecting the illegal action {action} changed the state")


# ---------------------------------------------------------------------------------------------
# random play
# ---------------------------------------------------------------------------------------------


def uniform_policy(state: _core.GameState, rng: random.Random) -> int:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


# Weights of biased_policy by action family: buildings, vehicles, loading and travel are rare
# under uniform play (few ids, often unaffordable), so they are strongly preferred when legal.
BIAS = {"build": 60.0, "vehicle": 25.0, "load": 8.0, "deliver": 30.0, "use": 6.0,
        "place": 2.0, "imitate": 2.0, "pass": 0.2, "stop": 0.5}


def biased_policy(state: _core.GameState, rng: random.Random) -> int:
    """A random legal action, favouring building, vehicles, loading and travel (BIAS), so
    that short runs reach every tile of the game."""
    legal = state.legal_actions()
    weights = [BIAS.get(action_family(a), 1.0) for a in legal]
    return rng.choices(legal, weights)[0]


@dataclass
class RandomGame:
    """A game played by a policy: its seeds, every decision and the final position."""

    seed: int
    variant: str
    start: _core.GameState
    players: int = 2
    actions: list[int] = field(default_factory=list)
    final: _core.GameState | None = None

    def replay(self) -> _core.GameState:
        """The final position, rebuilt from the start and the decisions."""
        state = self.start.copy()
        for a in self.actions:
            state.apply(a)
        return state


def play_random_game(
    seed: int,
    variant: str = "standard",
    policy: Policy = uniform_policy,
    check: bool = False,
    on_step: Callable[[_core.GameState, int], None] | None = None,
    max_steps: int = 10_000,
    start: _core.GameState | None = None,
    players: int = 2,
) -> RandomGame:
    """Play one game of ``players`` (2, or 1: the solo game) from the setup of ``seed`` (or
    from ``start``) to the end with ``policy``, its randomness seeded by ``seed`` too. With
    ``check``, run check_invariants after every decision; an InvariantError then names the
    seed and the decision number that reproduce it. ``on_step(state_before, action)`` is
    called before each decision."""
    rng = random.Random(seed)
    state = _core.new_game(seed, variant, players) if start is None else start.copy()
    game = RandomGame(seed, state.variant, state.copy(), state.players)
    if check:
        check_invariants(state)
    while not state.is_terminal():
        if len(game.actions) >= max_steps:
            raise InvariantError(f"seed {seed}: the game did not end within {max_steps} decisions")
        action = policy(state, rng)
        if on_step is not None:
            on_step(state, action)
        state.apply(action)
        game.actions.append(action)
        if check:
            try:
                check_invariants(state)
            except InvariantError as exc:
                solo = " (solo)" if state.players == 1 else ""
                raise InvariantError(f"seed {seed}, variant {variant}{solo}, after decision "
                                     f"{len(game.actions)}: {exc}") from None
    game.final = state
    return game


def random_position(seed: int, decisions: int, variant: str = "standard",
                    players: int = 2) -> _core.GameState:
    """A reproducible position: the setup of ``seed`` (``players`` 2, or 1 for the solo
    game), then ``decisions`` uniformly random legal actions (``random.Random(seed)``), fewer
    if the game ends first."""
    rng = random.Random(seed)
    state = _core.new_game(seed, variant, players)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply(uniform_policy(state, rng))
    return state


# ---------------------------------------------------------------------------------------------
# hypothesis strategies
# ---------------------------------------------------------------------------------------------


def game_states(
    min_depth: int = 0,
    max_depth: int = 200,
    variants: Iterable[str] = ("standard", "first-game"),
    seeds: tuple[int, int] = (0, 2**31 - 1),
    players: Iterable[int] = (2,),
) -> Any:
    """A hypothesis strategy of reachable positions: a setup from a random seed (of one of the
    player counts ``players``: ``(1,)`` solo games, ``(1, 2)`` both), then
    ``min_depth``..``max_depth`` random legal decisions (fewer if the game ends). The number
    of decisions is drawn first, evenly over the range, so the positions spread over the whole
    game (a list of decisions of drawn length would mostly be short: hypothesis favours small
    lists); the decisions are drawn as indexes into the legal actions, so failures shrink to
    short games."""
    from hypothesis import strategies as st

    variants = tuple(variants)
    counts = tuple(players)
    for n in counts:
        if isinstance(n, bool) or n not in rules.PLAYER_COUNTS:
            raise ValueError(f"players: {n!r} is not a player count {rules.PLAYER_COUNTS}")

    @st.composite
    def _states(draw: Any) -> _core.GameState:
        seed = draw(st.integers(*seeds))
        variant = draw(st.sampled_from(variants))
        count = draw(st.sampled_from(counts))
        depth = draw(st.integers(min_depth, max_depth))
        picks = draw(st.lists(st.integers(0, 1 << 16), min_size=depth, max_size=depth))
        state = _core.new_game(seed, variant, count)
        for pick in picks:
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[pick % len(legal)])
        return state

    return _states()


def legal_action(state: _core.GameState) -> Any:
    """A hypothesis strategy of one legal action of ``state`` (which must not be terminal)."""
    from hypothesis import strategies as st

    legal = state.legal_actions()
    if not legal:
        raise ValueError("the game is over: no legal actions")
    return st.sampled_from(legal)
