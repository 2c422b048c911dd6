"""``arle play``: a human plays the AI in the terminal, or two people follow a table game
(``--ai human``), or one person plays the solo game (``--players 1``, or a solo position or
record: no opponent, the AI's advice on demand with ``hint``); the game is saved as a record.

At each decision a person makes, the question is asked in words and the legal moves are listed
with numbers, each with its cost and immediate gain. The player types a number, a move in
notation or with printed names (``place Builders' Merchant``; an option without its first
word, ``timber`` for ``good timber``: :func:`arle_ai.text.answers.parse_choice`), or a
command: ``hint`` (the search's three best moves), ``show`` (the whole position), ``list``
(the moves again), ``log`` (the game so far), ``undo`` (back to before the player's last
decision, taking back the AI's replies too: the rule of :mod:`arle_ai.play.session`, which
holds the game), ``help`` or ``quit``. After every turn, the AI's too, one line says what it
did; each inventorying is told step by step and each half-year ends with a summary. Decisions
with a single legal move are played automatically. The record is saved after every decision
(atomically: the file holds the game as saved last, whole), so a crash, a kill or a full disk
loses at most the decision being made. ``quit`` or end of input saves the game so far (Ctrl-C
too, then exit 130 as every command, and so do SIGHUP, a closed terminal, and SIGTERM); a
finished game is saved with its scores.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click

import arle_ai
from arle_ai.base import files, limits
from arle_ai.base.errors import IllegalActionError
from arle_ai.base.jsontext import parse_json
from arle_ai.formats.records import FORMAT as RECORD_FORMAT
from arle_ai.formats.records import GameRecord
from arle_ai.play.agents import Agent, AgentError, MCTSAgent, choose_action, mcts_spec
from arle_ai.play.session import AI, HUMAN, AIChoice, Session
from arle_ai.play.why import explain_ranking
from arle_ai.search.config import HINT_BUDGET, PLAY_AI_BUDGET, Budget, SearchConfig
from arle_ai.text import decisions
from arle_ai.text.answers import PLACE, parse_answer
from arle_ai.text.display import columns, describe_wide
from arle_ai.text.narration import Narrator
from arle_cli.common import (
    IN_FILE,
    OUT_FILE,
    Count,
    Seconds,
    cut_record,
    fail,
    hangup_as_interrupt,
    interrupted,
    load_game_file,
    make_agent,
    make_game,
    players_option,
    search_bar,
    seed_option,
    variant_option,
)
from arle_cli.suggest_cmd import format_report

HINT_TOP = 3
HELP_TEXT = (
    "Type the number of a move, or the move itself (e.g. 'place Fisherman', 'build Mill',\n"
    "'timber' for 'good timber'; keys such as 'place summer_grocer' work too), or:\n"
    "  hint   the search's three best moves here (--hint-time seconds of search)\n"
    "  show   the whole position (home boards, goods, board, pending decision)\n"
    "  list   the legal moves again\n"
    "  log    what happened so far, turn by turn\n"
    "  undo   take back your last decision (the AI's moves after it too)\n"
    "  quit   stop and save the game so far\n"
    "At 'how many ...? (0-N)' type the count (0 or 'none': convert nothing). 'pass' takes\n"
    "your worker off its month space without acting ('arle info pass')."
)


class QuitGame(Exception):
    """The human asked to stop (``quit`` or end of input), or pressed Ctrl-C at a prompt
    (``ctrl_c``)."""

    def __init__(self, ctrl_c: bool = False) -> None:
        super().__init__()
        self.ctrl_c = ctrl_c


@dataclass
class TerminalGame:
    """The game at the terminal: the session (the moves and the lines tried, undo, the
    record), the account of the game told so far (:class:`Narrator`: its lines are printed as
    the moves are played) and the decisions in the file, once saved."""

    session: Session
    narrator: Narrator
    saved: int | None = None

    @classmethod
    def of(cls, session: Session, names: tuple[str, ...]) -> TerminalGame:
        return cls(session, session.narrator(names))

    def play(self, action: int, ai: AIChoice | None = None) -> None:
        """Play ``action`` and print the lines of what it completed."""
        self.play_moves([action], ai)

    def play_moves(self, actions: Sequence[int], ai: AIChoice | None = None) -> None:
        """Play ``actions`` (a person's answer: a count is several) and print the lines of
        what they completed."""
        for node in self.session.play_moves(actions, ai=ai):
            for line in self.session.tell(self.narrator, node):
                click.echo(line.text)

    def undo(self) -> tuple[list[str], str]:
        """Take back the last decision made at the keyboard (the session's rule, with the
        AI's replies) and return what was taken back, turn by turn as they were told, and
        where the game is now; ValueError when nothing can be."""
        self.session.undo()
        old, self.narrator = self.narrator, self.session.narrator(self.narrator.players)
        ply, now = self.session.cursor, self.narrator.in_progress()
        if now is None:
            where = f"back to the start of that turn (decision {ply})"
        else:
            where = f"back to decision {ply}, in the middle of that turn ({now.text} so far)"
        return old.taken_back(self.narrator), where


def _width() -> int:
    return shutil.get_terminal_size().columns


def format_menu(state: arle_ai.GameState, width: int = 80) -> str:
    """The legal moves numbered 1..n with printed names and what each costs and gains at
    once, in as many columns as fit ``width``; at a how-many question its answers numbered
    by their count, 0..n."""
    counts = decisions.how_many(state)
    if counts is not None:
        digits = len(str(len(counts) - 1))
        return "\n".join(columns([f"{c.count:>{digits}}. {c.label}"
                                   + (f"  [{c.effect}]" if c.effect else "")
                                   for c in counts], width))
    options = decisions.menu(state)
    digits = len(str(len(options)))
    turn = state.pending == "turn"  # placing a worker: the space names say it all
    cells = [f"{o.number:>{digits}}. {o.label.removeprefix(PLACE if turn else '')}"
             + (f"  [{o.effect}]" if o.effect else "") for o in options]
    return "\n".join(columns(cells, width))


def _status(game: TerminalGame) -> str:
    state = game.session.state
    scores = state.scores()
    names = game.narrator.players
    if state.players == 1:
        return (f"half-year {state.half_year}/9 ({state.season}); score {scores[0]:g}\n"
                f"{decisions.question(state, names)}")
    return (f"half-year {state.half_year}/9 ({state.season}); score {names[0]} {scores[0]:g}, "
            f"{names[1]} {scores[1]:g}\n{decisions.question(state, names)}")


def _read_line(prompt: str) -> str:
    try:
        return click.prompt(prompt, default="", show_default=False, prompt_suffix="> ")
    except click.Abort as exc:  # end of input or Ctrl-C (click keeps which as the context)
        click.echo()
        raise QuitGame(isinstance(exc.__context__, KeyboardInterrupt)) from None


def _human_turn(game: TerminalGame, seed: int, hint: Budget) -> None:
    """Read commands until the player makes a move (or undoes, or quits)."""
    state = game.session.state
    click.echo(f"\n{_status(game)}")
    click.echo(format_menu(state, _width()))
    player = state.current_player
    assert player is not None  # only called while the game goes on
    who = game.narrator.players[player]
    counts = decisions.how_many(state)
    choose = (f"0-{len(counts) - 1}" if counts is not None
              else f"1-{len(state.legal_actions())}")
    while True:
        text = _read_line(f"{who} ({choose}, help)").strip()
        word = text.lower()
        if not text:
            continue
        if word == "quit":
            raise QuitGame
        if word == "help":
            click.echo(HELP_TEXT)
        elif word == "list":
            click.echo(format_menu(state, _width()))
        elif word == "log":
            lines = [line.text for line in game.narrator.lines]
            click.echo("\n".join(lines) if lines else "nothing has happened yet")
        elif word == "show":
            click.echo(describe_wide(state, _width()))
        elif word == "hint":
            with search_bar(hint, "hint") as progress:
                report = arle_ai.suggest(state, hint, SearchConfig(seed=seed), top=HINT_TOP,
                                         progress=progress)
            game.session.add_hint(report)
            click.echo(format_report(report, state, game.narrator.players, budget=hint,
                                     why=explain_ranking(state, report, seed=seed)))
        elif word == "undo":
            try:
                taken, where = game.undo()
            except ValueError as exc:
                click.echo(str(exc))
                continue
            click.echo("undone, taken back:")
            for text in taken:
                click.echo(f"  {text}")
            click.echo(where)
            return
        else:
            try:
                actions = parse_answer(state, text)
            except IllegalActionError as exc:  # the question and menu are on the screen
                click.echo(f"illegal move: {' '.join(exc.reason.split())}; choose "
                           f"{choose.replace('-', '..')} ('list' shows the moves again)")
                continue
            game.play_moves(actions)
            return


def _ai_turn(game: TerminalGame, agent: Agent, spec: str) -> None:
    state = game.session.state
    label = f"the AI {spec!r}"
    start = time.perf_counter()
    if isinstance(agent, MCTSAgent):
        with search_bar(agent.budget, "AI thinking") as progress:
            agent.progress = progress
            action = choose_action(agent, state, label)
        agent.progress = None
    else:
        action = choose_action(agent, state, label)
    game.play(action, ai=AIChoice(spec, time.perf_counter() - start))


def _refuse_silent_cut(position: str, out: str | None, ply: int, held: int,
                       overwrite: bool) -> None:
    """Fail unless saving a game resumed at ``--ply`` keeps the record's later decisions:
    saving over ``position`` itself needs --overwrite."""
    same_file = out is None or Path(out).resolve() == Path(position).resolve()
    if same_file and not overwrite:
        fail(f"--ply {ply} would cut {position} from {held} decisions to {ply} when the game "
             f"is saved: give --out FILE to save the new game elsewhere, or --overwrite to "
             f"replace {position}")


def _is_record(path: str) -> bool:
    """Whether ``path`` holds a game record (the one resumed may be saved back to; another
    game's record, or anything else the user keeps under that name, needs --overwrite)."""
    try:
        data = parse_json(files.read_text(path))
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT


def _refuse_replacing(out: str, position: str | None) -> None:
    """Fail unless ``out`` (an existing file) is the game record being resumed: another
    game's record would be lost, and so would a file of another kind (as ``arle new -o``
    refuses an existing file without --overwrite)."""
    if not _is_record(out):
        fail(f"{out} exists and is not a game record (a position file?): choose another "
             f"--out, or pass --overwrite to replace it")
    resumed = position is not None and Path(position).resolve() == Path(out).resolve()
    if not resumed:
        fail(f"{out} already holds a game record, which saving this game there would "
             f"replace: choose another --out, go on with that game with 'arle play {out}', "
             f"or pass --overwrite to replace it")


def _free_name(stem: str, suffix: str) -> str:
    """``stem + suffix``, or ``stem-2 + suffix``, ``stem-3``... : the first that does not
    exist (a new game never overwrites an earlier one saved under the default name)."""
    name, k = stem + suffix, 1
    while Path(name).exists():
        k += 1
        name = f"{stem}-{k}{suffix}"
    return name


def _save(game: TerminalGame, out: str) -> None:
    """Save the game so far to ``out`` (atomically: the file holds the game as saved last, or
    this one whole), or fail saying what the file still holds. The game is its moves up to
    the decision asked now (a game resumed from the file goes on from there): the moves
    taken back and not played again are kept as a variation, as every line tried is."""
    ply = game.session.cursor
    try:
        game.session.record(upto=ply).save(out)
    except OSError as exc:
        held = (f"{out} holds the game up to decision {game.saved}"
                if game.saved is not None else "nothing was saved")
        fail(f"{out}: cannot write the game record: {exc.strerror or exc} ({held})")
    game.saved = ply


def _finish(game: TerminalGame, out: str, finished: bool) -> None:
    _save(game, out)  # first: after a hangup, printing may fail (no terminal)
    for line in game.narrator.flush():
        click.echo(line.text)
    n = game.session.cursor
    decisions = f"{n} decision{'' if n == 1 else 's'}"
    if not finished:
        click.echo(f"game stopped after {decisions}; saved to {out}")
        return
    state = game.session.state
    scores = state.scores()
    if state.players == 1:
        parts = ", ".join(f"{k.replace('_', ' ')} {v:g}"
                          for k, v in state.score_breakdown(0).items() if v)
        click.echo(f"\ngame over: final score {scores[0]:g} VP ({parts}); {decisions} saved "
                   f"to {out}")
        return
    names = game.narrator.players
    click.echo(f"\ngame over: score {names[0]} {scores[0]:g}, {names[1]} {scores[1]:g}")
    for p in (0, 1):
        parts = ", ".join(f"{k.replace('_', ' ')} {v:g}"
                          for k, v in state.score_breakdown(p).items() if v)
        click.echo(f"  {names[p]} (player {p}): {scores[p]:g} VP: {parts}")
    winner = state.winner()
    assert winner is not None  # the game is over
    click.echo(f"{names[winner]} (player {winner}) win{'' if names[winner] == 'You' else 's'}; "
               f"{decisions} saved to {out}")


@click.command()
@click.argument("position", required=False, type=IN_FILE)
@click.option("--ai", "ai_spec", default=None,
              help="The opponent: random, greedy, mcts:iterations=N, mcts:time=SEC,... or "
                   "py:module.Class (your own agent); 'human' to enter both players' moves "
                   f"at the keyboard (following a game at the table) [default: "
                   f"{mcts_spec(PLAY_AI_BUDGET)}; a solo game has no opponent].")
@click.option("--seat", type=click.IntRange(0, 1), default=0, show_default=True,
              help="Your seat: player 0 or player 1 (not used with --ai human).")
@seed_option("Seed of the setup draw (without POSITION) and of the AI.")
@variant_option("Building set of a new game (ignored with POSITION).")
@players_option("A new game's players: 2, or 1 for the solo game, played alone with 'hint' "
                "on demand (ignored with POSITION, which says it).")
@click.option("--hint-time", type=Seconds(), default=None,
              help=f"Seconds of search behind 'hint' [default: {HINT_BUDGET}, as arle "
                   f"suggest].")
@click.option("--hint-iterations", type=Count(limits.MAX_ITERATIONS), default=None,
              help="Search iterations behind 'hint' instead of a time.")
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="Resuming a game record: go on from after this many decisions [default: "
                   "its end].")
@click.option("--out", type=OUT_FILE, default=None,
              help="Where to save the game record [default: arle-game-<seed>.json (-2, -3... "
                   "if taken), or the resumed record itself].")
@click.option("--overwrite", is_flag=True,
              help="Allow replacing an existing --out file (other than the record being "
                   "resumed); with --ply before the end of a record saved to that same "
                   "record: allow replacing its later decisions.")
def play(position: str | None, ai_spec: str | None, seat: int, seed: int, variant: str,
         players: int, hint_time: float | None, hint_iterations: int | None,
         ply: int | None, out: str | None, overwrite: bool) -> None:
    """Play the AI in the terminal from POSITION or a new game, or with --ai human enter a
    game played at the table, both sides at the keyboard, or play the solo game (--players 1,
    or a solo POSITION) alone. POSITION is a JSON position file, or a game record (say one
    saved by 'quit') to resume.

    Choose a numbered move or type it (printed names or keys); 'hint', 'show', 'list', 'log',
    'undo', 'help' and 'quit' are commands. The game is saved as a record
    (docs/game-record.md)."""
    if hint_time is not None and hint_iterations is not None:
        fail("give either --hint-time or --hint-iterations, not both")
    hint = Budget.of(hint_iterations, hint_time, HINT_BUDGET)
    if out is not None and not overwrite and Path(out).exists():
        _refuse_replacing(out, position)
    loaded = None if position is None else load_game_file(position)
    solo = (players if loaded is None else loaded[0].players) == 1
    if solo:
        if ai_spec is not None:
            fail("--ai: a solo game has no opponent (play alone; 'hint' asks the AI)")
        if seat != 0:
            fail("--seat: the solo player is player 0")
    ai_spec = mcts_spec(PLAY_AI_BUDGET) if ai_spec is None else ai_spec
    both = ai_spec.strip().lower() == HUMAN
    agent = None if both or solo else make_agent(ai_spec, seed=seed)
    names_of_seats = [HUMAN, HUMAN] if both else [ai_spec, ai_spec]
    names_of_seats[seat] = HUMAN
    if solo:
        names_of_seats = [HUMAN]
    meta = {"saved_by": "arle play", "ai": HUMAN if both or solo else ai_spec,
            "human_seat": seat, "ai_seed": seed}
    if loaded is None:
        state = make_game(seed, variant, players)
        record = GameRecord.new(seed, variant, players=names_of_seats, meta=meta)
    else:
        assert position is not None
        state, saved = loaded
        if saved is None:
            if ply is not None:
                fail(f"{position}: --ply needs a game record, and this is a position file")
            record = GameRecord.from_position(state, players=names_of_seats, meta=meta)
        else:  # a saved game goes on, by default in the same file
            record = saved
            held = len(record.actions)
            if ply is not None and ply < held:
                _refuse_silent_cut(position, out, ply, held, overwrite)
                cut_record(record, ply, position)
                state = record.final_state()
                click.echo(f"going on from decision {ply} of {position}'s {held}; the game will "
                           f"be saved to {out or position}"
                           + ("" if out else f", replacing those {held} decisions"))
            elif ply is not None:
                cut_record(record, ply, position)  # ply == held is fine; beyond fails
            record.players = names_of_seats
            record.meta.update(meta, resumed_at=len(record.actions))
            out = out or position
        if state.is_terminal():
            fail(f"{position}: the game is over, there is nothing to play")
    if ply is not None and position is None:
        fail("--ply needs a game record to resume")
    out = out or _free_name(f"arle-game-{seed}", ".json")
    if not Path(out).resolve().parent.is_dir():
        fail(f"{out}: the folder does not exist, so the game record cannot be saved there")
    seats: list[str]
    names: tuple[str, ...]
    if solo:
        seats, names = [HUMAN], ("You",)
        click.echo("the solo game: you alone, for the highest score; 'hint' asks the AI, "
                   "'help' lists the commands")
    elif both:
        seats, names = [HUMAN, HUMAN], ("P0", "P1")
        click.echo("both players at the keyboard (P0 and P1); type 'help' for commands")
    else:
        seats = [HUMAN, AI] if seat == 0 else [AI, HUMAN]
        names = ("You", "AI") if seat == 0 else ("AI", "You")
        click.echo(f"you are player {seat} against {ai_spec}; type 'help' for commands")
    game = TerminalGame.of(Session.from_record(record, seats=seats), names)
    with hangup_as_interrupt():  # a closed terminal or a kill saves the game as Ctrl-C does
        _play_out(game, agent, ai_spec, seed, hint, out)


def _play_out(game: TerminalGame, agent: Agent | None, ai_spec: str, seed: int,
              hint: Budget, out: str) -> None:
    """Play the game to its end or until stopped, saving it after every decision (a crash
    loses nothing) and once more at the end."""
    session = game.session
    try:
        while not session.state.is_terminal():
            legal = session.state.legal_actions()
            player = session.state.current_player
            assert player is not None  # the game goes on
            if session.seats[player] != HUMAN:
                assert agent is not None  # an AI seat has an agent
                _ai_turn(game, agent, ai_spec)
            elif len(legal) == 1:
                game.play(legal[0])
            else:
                _human_turn(game, seed, hint)
            _save(game, out)
    except QuitGame as stop:
        _finish(game, out, finished=False)
        if stop.ctrl_c:
            interrupted(f"the game so far is saved to {out} ('arle play {out}' goes on)")
        return
    except KeyboardInterrupt:  # Ctrl-C while the AI thinks saves the game too
        _finish(game, out, finished=False)
        interrupted(f"the game so far is saved to {out} ('arle play {out}' goes on)")
    except AgentError as exc:  # a user's own agent misbehaved: keep the game, say what happened
        _finish(game, out, finished=False)
        fail(str(exc))
    except Exception as exc:  # anything else: the game is saved first, then one line
        _finish(game, out, finished=False)
        fail(f"unexpected {type(exc).__name__} while playing: {exc} (the game so far is saved "
             f"to {out})")
    _finish(game, out, finished=True)
