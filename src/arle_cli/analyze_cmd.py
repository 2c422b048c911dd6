"""``arle analyze``: review a recorded game decision by decision."""

from __future__ import annotations

import os
from pathlib import Path

import click

from arle_ai.base import limits
from arle_ai.formats.records import GameRecord
from arle_ai.play.analysis import DecisionReview, GameAnalysis, analyze_game, move_labels
from arle_ai.search.config import ANALYZE_BUDGET, Budget, SearchConfig
from arle_ai.text.display import table_rows
from arle_ai.text.reading import as_good_text
from arle_cli.common import (
    IN_FILE,
    OUT_FILE,
    Count,
    Seconds,
    emit_json,
    fail,
    game_option,
    load_record_file,
    seed_option,
    terminal_width,
    unwritable,
    work_bar,
    wrap,
    wrap_legend,
)

LEGEND = (
    "best: the engine's best move; the move played when it got no mark (it did not lose over",
    "  0.01 beyond statistical noise; a move other than the engine's is searched on from the",
    "  position after it)",
    "lost, VP lost: on a marked move, the engine's choice's value minus the played move's",
    "  (value: the mover's mean result, 1 win, 0 loss, blended with the VP margin) and the drop",
    "  in the mean final VP margin; a move without a mark is one of the best and lost nothing",
    "?, ??: the played move lost over 0.01, 0.05 beyond statistical noise (2 standard "
    "errors)",
    "~: other moves are as good as the best: measured (the value known within 0.02) and within",
    "  2 standard errors of the engine's choice (at most 3 named, the others counted)",
    "accuracy: 100 x (1 - the mean value lost over all decisions, marked or not)",
)
# The solo game: no win; the score (VP) in place of the value and the margin.
SOLO_LEGEND = (
    "best: the engine's best move; the move played when it got no mark (it did not lose over",
    "  1 VP beyond statistical noise; a move other than the engine's is searched on from the",
    "  position after it)",
    "score: the VP the search expects after the engine's choice (the final score where its",
    "  lines end, else its estimate where they stop, 2 half-years on)",
    "VP lost: on a marked move, the drop in the score the search expects; a move without a",
    "  mark is one of the best and lost nothing",
    "?, ??: the played move lost over 1, 3 VP beyond statistical noise (2 standard errors)",
    "~: other moves are as good as the best: measured (the score known within 2 VP) and",
    "  within 2 standard errors of the engine's choice (at most 3 named, the others counted)",
    "accuracy: the mean over decisions of 100 x 2^(-2 x VP below the engine's choice): 100%",
    "  its choice, 50% a move 0.5 VP below it (every decision counted, marked or not)",
)


# The table's columns beside the two moves' (ply, player, half-year, lost, VP lost, mark and
# the gaps), and the widest and narrowest a move's column is: a move wraps in its column.
OTHER_COLUMNS, SOLO_OTHER_COLUMNS = 30, 28
MOVE_COLUMN, NARROWEST_MOVE_COLUMN = 34, 16


def format_analysis(analysis: GameAnalysis, players: list[str],
                    record: GameRecord | None = None, width: int | None = None) -> str:
    """Every decision with the engine's best and the value lost (printed names when the
    record is given), then the summary, in ``width`` columns (default: the terminal's): the
    moves' columns narrowed to fit, a long line wrapped between words as ``arle suggest``
    wraps its own (:func:`arle_cli.common.wrap`)."""
    width = terminal_width(width)
    states = list(record.states()) if record is not None else None
    if analysis.time_limit:
        per = f"{analysis.time_limit:g} s"
        again = f"up to {per} more"
    else:
        per = f"{analysis.iterations:,} iterations"
        again = "to as many simulations as the engine's choice got"
    head = wrap(f"each decision searched for {per} (a move played other than the engine's "
                f"choice is searched again, {again})", width)
    solo = analysis.players == 1
    col = max(NARROWEST_MOVE_COLUMN, min(MOVE_COLUMN, (width - (
        SOLO_OTHER_COLUMNS if solo else OTHER_COLUMNS)) // 2))
    if solo:  # no value: the score in VP
        lines = head + [f"{'ply':>4} {'HY':>2}  {'played':<{col}} {'best':<{col}} "
                        f"{'score':>6} {'VP lost':>7}"]
    else:
        lines = head + [f"{'ply':>4} {'P':>1} {'HY':>2}  {'played':<{col}} {'best':<{col}} "
                        f"{'lost':>6} {'VP lost':>7}"]

    def labels(d: DecisionReview) -> tuple[str, str, list[str]]:
        """Played, best and as good as the best in printed names, each the answer it gives
        (a count at a how-many question); notation without the record."""
        if states is None or record is None:
            return d.played, d.best, list(d.near_best)
        return move_labels(d, states[d.ply - 1], record.actions[d.ply - 1:])

    def moves(d: DecisionReview) -> tuple[str, str]:
        return labels(d)[:2]

    for d in analysis.decisions:
        played, best = moves(d)
        lost = (f"{d.value_lost:.3f}", f"{d.vp_lost:.1f}") if d.mark else ("", "")
        who = [(str(d.ply), -4)] + ([] if solo else [(str(d.player), -1)])
        lines += table_rows([*who, (str(d.half_year), -2), ("", 0), (played, col),
                             (best + (" ~" if d.near_best or d.unseparated else ""), col),
                             (f"{d.best_margin:.1f}" if solo else lost[0], -6),
                             (lost[1], -7),
                             (d.mark, 2)])  # a long name wraps in its column, never cut
    lines += wrap_legend(SOLO_LEGEND if analysis.players == 1 else LEGEND, width)
    lines.append("")
    lines.append("largest mistakes:")
    for d in analysis.mistakes():
        played, best = moves(d)
        rivals = as_good_text(labels(d)[2], d.unseparated)
        if rivals:
            best += f" ({rivals})"
        cost = (f"{d.vp_lost:.1f} VP" if solo
                else f"{d.value_lost:.3f} ({d.vp_lost:.1f} VP)")
        lines += wrap(f"ply {d.ply} ({'' if solo else f'player {d.player}, '}half-year "
                      f"{d.half_year}): played {played}, best {best}, lost {cost}"
                      f"{' ' + d.mark if d.mark else ''}", width, "  ", "    ")
        if d.why is not None:
            lines += wrap(f"why: {d.why['text']}", width, "    ", "      ")
    if not analysis.mistakes():
        lines.append("  none: no move marked ? or ??")
    for p in range(analysis.players):
        summary = analysis.summary(p)
        if summary is not None:
            lines += wrap(f"player {p} ({players[p]}): {summary}", width)
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    """``75`` -> ``1 min 15 s``."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _review_target(record: str, save: bool, out: str | None, overwrite: bool) -> str | None:
    """The file the review is saved in (RECORD for --save, or --out), checked before any
    search; None: not saved. A file other than RECORD is replaced only with --overwrite."""
    if save and out is not None and Path(out).resolve() != Path(record).resolve():
        fail("give either --save (into RECORD) or --out FILE, not both")
    target = record if save else out
    if target is None:
        return None
    same = Path(target).resolve() == Path(record).resolve()
    if same:  # a pipe or a device (/dev/stdin) is read, not written back
        problem = unwritable(record) or (None if os.access(record, os.W_OK)
                                         else "the file is not writable")
        if problem:
            fail(f"{record}: cannot save the review there: {problem} (give --out FILE to "
                 f"save the reviewed game elsewhere)")
    if not same and Path(target).exists() and not overwrite:
        fail(f"{target} exists: choose another --out, or pass --overwrite to replace it "
             f"(--save writes the review into {record} itself)")
    return target


def _save_review(rec: GameRecord, analysis: GameAnalysis, target: str, replaced: bool) -> None:
    """Write ``rec`` with ``analysis`` as its review to ``target`` (atomically), or fail."""
    rec.review = analysis.to_review()
    try:
        rec.save(target)
    except OSError as exc:
        fail(f"{target}: cannot write the reviewed game: {exc.strerror or exc}")
    marked = sum(d.mark != "" for d in analysis.decisions)
    click.echo(f"review of {len(analysis.decisions)} decisions ({marked} marked ? or ??) saved "
               f"in {target}{' (replacing its earlier review)' if replaced else ''}; "
               f"'arle analyze {target} --saved' or the browser's Open game shows it",
               err=True)


def _saved_review(rec: GameRecord, record: str) -> GameAnalysis:
    """The review ``rec`` holds (written by --save, or by the browser's Save game), or fail."""
    if rec.review is None or not rec.review.get("decisions"):
        fail(f"{record} holds no review of its moves: 'arle analyze {record} --save' makes "
             f"one and saves it there")
    return GameAnalysis.from_review(rec.review, rec.start.players)


@click.command()
@click.argument("record", type=IN_FILE)
@click.option("--player", type=click.IntRange(0, 1), default=None,
              help="Only this player's decisions (default: both).")
@click.option("--iterations", type=Count(limits.MAX_ITERATIONS), default=None,
              help="Search iterations per decision instead of a time budget.")
@click.option("--time", "time_limit", type=Seconds(), default=None,
              help=f"Seconds of search per decision [default: {ANALYZE_BUDGET} when no "
                   f"--iterations is given].")
@seed_option("Search seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")
@click.option("--save", is_flag=True,
              help="Also save the review into RECORD (its moves and the rest kept; an earlier "
                   "review replaced): the browser's Open game and --saved show it.")
@click.option("--out", "-o", type=OUT_FILE, default=None,
              help="Save the game with its review to this file (RECORD left as it is).")
@click.option("--overwrite", is_flag=True, help="Allow replacing an existing --out file.")
@click.option("--saved", is_flag=True,
              help="Show the review saved in RECORD (no search).")
@game_option("to review")
def analyze(record: str, player: int | None, iterations: int | None, time_limit: float | None,
            seed: int, as_json: bool, save: bool, out: str | None, overwrite: bool,
            saved: bool, game: int | None) -> None:
    """For each decision of the game RECORD: the move played, the engine's best and the value
    (and VP margin) lost; then the largest mistakes and each player's accuracy. A played move
    other than the engine's is searched again from the position after it (as many simulations
    as the engine's choice got, at most --time more), so a decision takes up to twice
    --time. --save keeps the review in RECORD, where the browser and --saved read it.
    RECORD may be a selfplay results file: --game N reviews its game N (the seats named by
    their agents; --out keeps the review), without --game its games are listed."""
    if iterations is not None and time_limit is not None:
        fail("give either --iterations or --time, not both")
    if saved:
        given = [name for name, on in (("--save", save), ("--out", out is not None),
                                       ("--iterations", iterations is not None),
                                       ("--time", time_limit is not None),
                                       ("--player", player is not None)) if on]
        if given:
            fail(f"--saved shows the review RECORD holds, without searching: drop "
                 f"{', '.join(given)}")
    if game is not None and (save or saved):
        fail(f"--{'save' if save else 'saved'}: --game picks a game of a selfplay results "
             f"file, which keeps no review: give --out FILE to save game {game} with its "
             f"review")
    target = _review_target(record, save, out, overwrite)
    rec = load_record_file(record, game)  # a results file's games listed without --game
    if player == 1 and rec.start.players == 1:
        fail(f"--player 1: {record} is a solo game, whose one player is 0")
    if saved:
        _show(_saved_review(rec, record), rec, as_json)
        return
    had_review = rec.review is not None and bool(rec.review.get("decisions"))
    budget = Budget.of(iterations, time_limit, ANALYZE_BUDGET)
    states = list(rec.states())
    reviewed = [ply for ply in range(len(rec.actions))
                if len(states[ply].legal_actions()) > 1
                and player in (None, states[ply].current_player)]
    longest = (f", up to {_duration(2 * budget.seconds * len(reviewed))}"
               if budget.seconds is not None else "")
    click.echo("\n".join(wrap(f"arle analyze: {len(reviewed)} decisions to review, {budget} of "
                              f"search each (twice that for a move other than the engine's)"
                              f"{longest}", terminal_width())), err=True)
    with work_bar(len(reviewed), "analyze", "decision") as bar:

        def advance(done: int, total: int) -> None:
            if done - 1 in reviewed_set:
                bar.advance()

        reviewed_set = set(reviewed)
        analysis = analyze_game(rec, player, budget, SearchConfig(seed=seed), progress=advance)
    if target is not None:  # first: the search's work is kept even if printing fails
        same = Path(target).resolve() == Path(record).resolve()
        _save_review(rec, analysis, target, replaced=had_review and same)
    _show(analysis, rec, as_json)


def _show(analysis: GameAnalysis, rec: GameRecord, as_json: bool) -> None:
    if as_json:
        emit_json(analysis.to_dict(rec))  # with printed names beside the notation
    else:
        click.echo(format_analysis(analysis, rec.players, rec))
