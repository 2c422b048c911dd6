"""A running account of a game: one line per turn, the inventorying step by step, and a
summary of each half-year (what ``arle play`` prints and its ``log`` command shows).

A :class:`Narrator` plays the moves (``narrator.play(state, action)`` instead of
``state.apply(action)``), or tells moves played elsewhere from what they did
(:meth:`Narrator.tell`, given :func:`arle_ai.text.effects.apply`'s steps: a game in progress,
:mod:`arle_ai.play.session`, keeps them), and groups a player's consecutive decisions of one
action into one line, ``You: Carpenter, build a stall [built a stall (-1 grain, -2 clay; +2
VP)]`` (what it did in brackets, as the menu shows what a move does); a repeated conversion
says the count the player answered, as the game asks it (``You: Tanner, 2 hide into 2
leather [...]``), or that it converted nothing (``You: Tanner, converted nothing``), whatever
the engine's steps (``more``, ``stop``) it took. Each line remembers the
decision (ply) its turn began at. Moves taken back are told again from the start by a new
narrator (what it no longer says is what was taken back).

>>> import arle_ai
>>> from arle_ai.text.narration import Narrator
>>> s, n = arle_ai.new_game(seed=0), Narrator(("You", "AI"))
>>> [line.text for line in n.play(s, s.parse_action("place woodcutter"))]
['You: Woodcutter [+3 wood]']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arle_ai.engine import rules
from arle_ai.text import decisions, effects
from arle_ai.text.notation import action_range

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = ["CONVERTED_NOTHING", "Line", "Narrator", "what_follows"]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "") + _num(x)


BREEDING = effects.INVENTORY_STEPS["winter"][1]
CONVERTED_NOTHING = "converted nothing"
STOP = rules.ACTION_LAYOUT["stop"]


def _said(turn: _Turn) -> list[str]:
    """The moves of a turn as its line says them: the player's answers
    (:func:`arle_ai.text.decisions.answers`: a repeated conversion its count, as the game asks
    it), a worker placed by the space's name alone, the count after the space or building it
    belongs to without naming it again (``Tanner, 2 hide into 2 leather``; ``Tanner,
    converted nothing`` for 0), and ``stop`` (done) left out after other moves."""
    said: list[str] = []
    for k, answer in enumerate(decisions.answers(turn.start, turn.actions)):
        label = answer.label
        if answer.count is not None:
            what = CONVERTED_NOTHING if answer.count.count == 0 else answer.count.label
            named = bool(said) and (said[-1].startswith(answer.where)
                                    or said[-1].endswith(answer.where))
            label = what if named else f"{answer.where}: {what}"
        elif answer.actions == (STOP,) and len(turn.actions) > 1:
            continue
        elif k == 0 and action_range(answer.actions[0])[0] == "place":
            label = label[len("place "):]
        said.append(label)
    return said


@dataclass(frozen=True)
class Line:
    """One line of the account: ``kind`` is ``turn``, ``inventory`` or ``half-year``; ``ply``
    the number of decisions made before the turn (or step) it tells of."""

    ply: int
    kind: str
    text: str


@dataclass
class _Turn:
    ply: int
    player: int
    start: GameState
    end: GameState
    actions: list[int] = field(default_factory=list)


class Narrator:
    """Plays moves and tells what they did; ``players`` are the names used in the lines."""

    def __init__(self, players: tuple[str, ...] = ("P0", "P1")) -> None:
        self.players = players
        self.lines: list[Line] = []
        self._turn: _Turn | None = None
        self._ply = 0
        self._half_year_start: tuple[int, list[float]] | None = None
        self._inventorying: int | None = None

    def play(self, state: GameState, action: int, ply: int | None = None) -> list[Line]:
        """Apply ``action`` to ``state`` in place (IllegalActionError leaves both unchanged)
        and return the lines it completed. ``ply`` is the number of decisions before it
        (default: counted by the narrator)."""
        before = state.copy()
        if before.current_player is None:
            raise ValueError("the game is over: there is no move to play")
        return self.tell(before, action, effects.apply(state, action), ply)

    def tell(self, before: GameState, action: int, steps: list[effects.Step],
             ply: int | None = None) -> list[Line]:
        """The lines completed by ``action``, played in ``before`` (left unchanged, as the
        steps are), where it did ``steps`` (:func:`arle_ai.text.effects.apply`'s); ``ply``
        as :meth:`play`'s."""
        ply = self._ply if ply is None else ply
        if self._half_year_start is None:
            self._half_year_start = (before.half_year, before.scores())
        player = before.current_player
        if player is None:
            raise ValueError("the game is over: there is no move to play")
        self._ply = ply + 1
        new: list[Line] = []
        if self._turn is not None and self._turn.player != player:
            new += self._close()
        if before.pending == "breed":  # the animals born: a line of the inventorying
            new += self._close()
            breeding = effects.Step(BREEDING, player, before.half_year, steps[0].changes,
                                    steps[0].after)
            new += self._step(breeding, ply) or self._step_header(before.half_year, ply)
            for step in steps[1:]:
                new += self._step(step, ply)
            self.lines += new
            return new
        if self._turn is None:
            self._turn = _Turn(ply, player, before, before)
        self._turn.actions.append(action)
        self._turn.end = steps[0].after
        after = steps[0].after
        if (len(steps) > 1 or after.is_terminal() or after.current_player != player
                or not after.pending.startswith("action:")):
            new += self._close()
        for step in steps[1:]:
            new += self._step(step, ply)
        self.lines += new
        return new

    def flush(self) -> list[Line]:
        """Close the turn in progress (say, when the game stops) and return its line."""
        new = self._close()
        self.lines += new
        return new

    def taken_back(self, since: Narrator) -> list[str]:
        """What this narrator told that ``since`` (the same game told again up to an earlier
        decision) no longer does, in order: each turn as it was told, the one in progress
        last (``... (unfinished)``), and ``the inventorying after them`` when an inventorying
        was among it."""
        same = 0
        while (same < min(len(self.lines), len(since.lines))
               and self.lines[same] == since.lines[same]):
            same += 1
        gone = self.lines[same:]
        told = [line.text for line in gone if line.kind == "turn"]
        unfinished = self.in_progress()
        if unfinished is not None:
            told.append(f"{unfinished.text} (unfinished)")
        if any(line.kind != "turn" for line in gone):
            told.append("the inventorying after them")
        return told

    def in_progress(self) -> Line | None:
        """The turn begun and not finished, as its line says it so far (``You: Grocer``);
        None when no turn is."""
        turn = self._turn
        if turn is None:
            return None
        return Line(turn.ply, "turn", f"{self.players[turn.player]}: {', '.join(_said(turn))}")

    def _close(self) -> list[Line]:
        turn, self._turn = self._turn, None
        if turn is None:
            return []
        moves = _said(turn)
        changes = effects.describe(turn.start, turn.end)
        if moves == ["stop"] and all(c.is_empty() for c in changes):
            return []  # done with a window of anytime actions, and nothing done in it
        mine = changes[turn.player]
        text = f"{self.players[turn.player]}: {', '.join(moves)}"
        if not mine.is_empty():  # a pass, or a space that gave nothing: the moves alone
            text += f" [{mine.text()}]"  # as the menu shows it (a " - " read "- -1 cattle")
        for other in changes:
            if other.player != turn.player and not other.is_empty():
                text += f"; {self.players[other.player]}: {other.text()}"
        return [Line(turn.ply, "turn", text)]

    def _step(self, step: effects.Step, ply: int) -> list[Line]:
        out = []
        if step.what == effects.NEW_HALF_YEAR:
            out.append(self._summary(step, ply))
            self._inventorying = None
            return out
        out += self._step_header(step.half_year, ply)
        for change in step.changed():
            who = self.players[change.player]
            out.append(Line(ply, "inventory", f"  {who} {step.what}: {change.text()}"))
        return out

    def _step_header(self, half_year: int, ply: int) -> list[Line]:
        """The line that opens the inventorying of ``half_year`` (once)."""
        if self._inventorying == half_year:
            return []
        self._inventorying = half_year
        season = "summer" if half_year % 2 else "winter"
        return [Line(ply, "inventory",
                     f"-- end of half-year {half_year} ({season}): inventorying --")]

    def _summary(self, step: effects.Step, ply: int) -> Line:
        now = step.after.scores()
        start = self._half_year_start[1] if self._half_year_start else now
        parts = [f"{self.players[p]} {_num(now[p])} VP ({_signed(now[p] - start[p])})"
                 for p in range(len(now))]
        self._half_year_start = (step.after.half_year, now)
        return Line(ply, "half-year", f"-- half-year {step.half_year} over: {', '.join(parts)}; "
                                      f"{what_follows(step)} --")


def what_follows(step: effects.Step) -> str:
    """What comes after a half-year's end (a ``new half-year`` step): ``half-year 2 (winter)
    begins``; after the ninth no half-year begins: ``last actions before final scoring`` (the
    final window) or ``the game is over``."""
    after = step.after
    if after.is_terminal():
        return "the game is over"
    if after.half_year == step.half_year:
        return "last actions before final scoring"
    return f"half-year {after.half_year} ({after.season}) begins"
