"""``arle suggest``: the best moves for a position, ranked by the search."""

from __future__ import annotations

import re
import textwrap

import click

import arle_ai
from arle_ai.base import limits
from arle_ai.play.why import Why, explain_ranking
from arle_ai.search.config import SUGGEST_BUDGET, Budget, SearchConfig
from arle_ai.text import decisions, reading
from arle_cli.common import (
    IN_FILE,
    WORKERS,
    Count,
    Seconds,
    check_iterations_per_worker,
    emit_json,
    fail,
    position_argument,
    search_bar,
    seed_option,
    terminal_width,
    wrap,
    wrap_legend,
)


def format_report(report: arle_ai.SearchResult, state: arle_ai.GameState,
                  players: tuple[str, ...] = ("P0", "P1"), legend: bool = True,
                  width: int | None = None, why: Why | None = None,
                  budget: Budget | None = None) -> str:
    """The ranked moves as a table with printed names, each move the answer it gives (at a
    how-many question the count its line converts in all,
    :func:`arle_ai.text.reading.move_steps`): visits, value and mean margin (the
    solo game: the score and its distance from the best's, in VP; no value), a ``~``
    for at most 3 moves as good as the best (:meth:`arle_ai.text.reading.Measure.as_good`: the
    search measured them, close to it), and the continuation with who moves; a legend
    under it, in ``width`` columns (default: the terminal's): a long continuation goes on
    over the next lines, under its column, and so does each of the legend's entries
    (:func:`arle_cli.common.wrap_legend`)."""
    lines_of = [reading.move_steps(state, m.move, m.pv) for m in report.moves]
    labels = [steps[0].label if steps else m.move
              for m, steps in zip(report.moves, lines_of, strict=True)]
    colw = min(30, max(len("move"), *(len(x) for x in labels)))
    width = terminal_width(width)
    solo = state.players == 1
    if solo and players == ("P0", "P1"):
        players = ("You",)
    lines = [f"{decisions.question(state, players)} "
             + ("(the solo game)" if solo else f"(player {report.player} to decide)"),
             f"{report.iterations} simulations in {report.time_taken:.2f} s"
             + (f" (budget: {budget})" if budget is not None else ""),
             ]
    heading = (f"{'#':>3}  {'move':<{colw}} {'visits':>7} "
               + (f"{'score':>6} {'vs best':>7}" if solo else f"{'value':>6} {'margin':>7}"))
    continuation = "continuation" + ("" if solo else " (who moves)")
    # the continuation's heading where the rows put it: in its column, or on the line under
    # the headings when the rows' continuations go on the lines under them (_continued)
    if _on_the_row(len(heading) + _ROW_TAIL, width):
        lines.append(f"{heading}{'':{_ROW_TAIL}}{continuation}")
    else:
        lines += [heading, f"{'':{_BELOW}}{continuation}"]
    best = report.moves[0]
    measure = reading.measure_for(state.players)  # the solo game: the score in VP
    named, _ = reading.as_good_moves(measure, (measure.mean(best), best.visits),
                                     [(measure.mean(m), m.visits) for m in report.moves[1:]])
    near = {report.moves[1 + i].action for i in named}
    for m, label, steps in zip(report.moves, labels, lines_of, strict=True):
        close = m.action in near
        # the continuation after the move's answer (a count: after its last step)
        answer = steps[0].moves if steps else (m.move,)
        after = state.copy()
        for text in answer:
            after.apply(after.parse_action(text))
        pv = reading.pv_text(after, m.pv[len(answer):], players, limit=3)
        names = textwrap.wrap(label, colw, break_on_hyphens=False) or [""]  # never cut
        if solo:  # no squashed value: the score and how far it lies from the best's, in VP
            behind = "" if m is best else f"{m.mean_margin - best.mean_margin:+.1f}"
            numbers = f"{m.mean_margin:>6.1f} {behind:>7}"
        else:
            numbers = f"{m.win_rate:>6.3f} {m.mean_margin:>+7.1f}"
        row = (f"{m.rank:>3}  {names[0]:<{colw}} {m.visits:>7} "
               f"{numbers} {'~' if close else ' ':>2}  ")
        lines += _with_continuation(row, pv, width, [f"     {n}" for n in names[1:]])
    if why is not None:
        lines += wrap(why.sentence(players), width)
    if legend:
        lines += ["", *wrap_legend(reading.SOLO_LEGEND if solo else reading.LEGEND, width)]
    return "\n".join(lines)


def _with_continuation(row: str, pv: str, width: int, below: list[str] | None = None
                       ) -> list[str]:
    """``row`` then ``pv``, wrapped between moves under the continuation column (or, in a
    narrow terminal, on the lines below the row); a move is never split. ``below``: the
    lines of the row's first columns that go on under it (a long move name)."""
    lines = _continued(row, pv, width)
    for k, part in enumerate(below or []):
        if k + 1 < len(lines):
            rest = lines[k + 1]
            lines[k + 1] = part + rest[len(part):] if not rest[:len(part)].strip() else (
                part + "\n" + rest)
        else:
            lines.append(part)
    return "\n".join(lines).split("\n")


_ROW_TAIL = 5   # a row after its numbers: "  ~  " (as good as the best) or 5 spaces
_BELOW = 5      # the indent of a continuation on the lines under its row


def _on_the_row(row_width: int, width: int) -> bool:
    """Whether a continuation goes on its row (room for 24 columns) or under it."""
    return width - row_width >= 24


def _continued(row: str, pv: str, width: int) -> list[str]:
    indent = len(row) if _on_the_row(len(row), width) else _BELOW
    room = max(10, width - indent)
    # break only between moves: after " /" (the other player) or "," (the same player's
    # next); a move longer than the room breaks between its words, never inside one
    moves = re.split(r"(, | / )", pv)
    glued = "".join(m if len(m) > room or m in (", ", " / ") else m.replace(" ", "\x00")
                    for m in moves).replace(" / ", "\x00/ ")
    parts = [p.replace("\x00", " ") for p in
             textwrap.wrap(glued, room, break_on_hyphens=False, break_long_words=False)
             ] or [""]
    if indent < len(row):
        return [row.rstrip(), *(" " * indent + p for p in parts)]
    return [row + parts[0], *(" " * indent + p for p in parts[1:])]


@click.command()
@click.argument("position", required=False, type=IN_FILE)
@click.option("--iterations", type=Count(limits.MAX_ITERATIONS), default=None,
              help="Search iterations instead of a time budget.")
@click.option("--time", "time_limit", type=Seconds(), default=None,
              help=f"Search time in seconds [default: {SUGGEST_BUDGET} when no --iterations "
                   f"is given].")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Processes searching in parallel (root parallelism).")
@click.option("--max-memory", "max_memory", type=click.IntRange(min=1, max=16384), default=1024,
              show_default=True, metavar="MIB",
              help="Ceiling on the search tree's memory in MiB (all workers together); "
                   "once reached, the search refines the tree it has without adding nodes.")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True,
              help="How many moves to list.")
@seed_option("Search seed.")
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="With a game record: the position after this many decisions [default: the "
                   "end].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")
@click.option("--no-legend", is_flag=True, help="Leave out the legend under the table.")
def suggest(position: str | None, iterations: int | None, time_limit: float | None,
            workers: int, max_memory: int, top: int, seed: int, ply: int | None,
            as_json: bool, no_legend: bool) -> None:
    """Suggest the best moves for POSITION (a JSON position file, or a game record at its end
    or after --ply decisions; default: the standard opening), with visits, win rate, mean
    score margin and principal variation (who moves), and a legend of what they mean."""
    if iterations is not None and time_limit is not None:
        fail("give either --iterations or --time, not both")
    state = position_argument(position, ply)
    if state.is_terminal():
        fail(f"{position}: the game is over, there is no move to suggest")
    check_iterations_per_worker(state, iterations, workers)
    budget = Budget.of(iterations, time_limit, SUGGEST_BUDGET)
    config = SearchConfig(seed=seed, workers=workers, max_memory=max_memory << 20)
    with search_bar(budget) as progress:
        report = arle_ai.suggest(state, budget, config, top=top, progress=progress)
    if as_json:
        why = explain_ranking(state, report, seed=seed)
        data = report.to_dict()
        for move, stats in zip(data["moves"], report.moves, strict=True):
            # the move as a player reads it, beside its notation ("move")
            move["label"] = reading.printed_move(state, stats.move, stats.pv)
        emit_json(dict(data, why=why.to_dict() if why else None,
                       budget={"iterations": budget.iterations, "seconds": budget.seconds}))
    else:
        click.echo(format_report(report, state, legend=not no_legend, budget=budget,
                                 why=explain_ranking(state, report, seed=seed)))
