"""``arle analyze``: review a recorded game decision by decision."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from arle_ai import limits
from arle_ai.analysis import GameAnalysis, analyze_game
from arle_cli.common import SEED, Count, emit_json, load_record_file


def format_analysis(analysis: GameAnalysis, players: list[str]) -> str:
    """Every decision with the engine's best and the value lost, then the summary."""
    lines = [f"{'ply':>4} {'P':>1} {'HY':>2}  {'played':<34} {'best':<34} {'lost':>6} "
             f"{'VP lost':>7}"]
    for d in analysis.decisions:
        mark = "" if d.value_lost < 0.01 else " ?" if d.value_lost < 0.05 else " ??"
        lines.append(f"{d.ply:>4} {d.player:>1} {d.half_year:>2}  {d.played:<34} {d.best:<34} "
                     f"{d.value_lost:>6.3f} {d.vp_lost:>7.1f}{mark}")
    lines.append("")
    lines.append("largest mistakes:")
    for d in analysis.mistakes():
        lines.append(f"  ply {d.ply} (player {d.player}, half-year {d.half_year}): played "
                     f"{d.played}, best {d.best}, lost {d.value_lost:.3f} ({d.vp_lost:.1f} VP)")
    if not analysis.mistakes():
        lines.append("  none")
    for p in (0, 1):
        acc = analysis.accuracy(p)
        rate = analysis.best_move_rate(p)
        if acc is not None and rate is not None:
            lines.append(f"player {p} ({players[p]}): accuracy {acc:.1f}%, "
                         f"{analysis.mean_vp_lost(p):.2f} VP lost per decision, engine's best "
                         f"move {100 * rate:.0f}% of "
                         f"{sum(d.player == p for d in analysis.decisions)} decisions")
    return "\n".join(lines)


@click.command()
@click.argument("record", type=click.Path())
@click.option("--player", type=click.IntRange(0, 1), default=None,
              help="Only this player's decisions (default: both).")
@click.option("--iterations", type=Count(limits.MAX_ITERATIONS), default=500, show_default=True,
              help="Search iterations per decision.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Search seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")
def analyze(record: str, player: int | None, iterations: int, seed: int, as_json: bool) -> None:
    """For each decision of the game RECORD: the move played, the engine's best and the value
    (and VP margin) lost; then the largest mistakes and each player's accuracy."""
    rec = load_record_file(record)
    with tqdm(total=len(rec.actions), desc="analyze", unit="move",
              file=sys.stderr, disable=None, leave=False) as bar:

        def advance(done: int, total: int) -> None:
            bar.update(1)

        analysis = analyze_game(rec, player=player, iterations=iterations, seed=seed,
                                progress=advance)
    if as_json:
        emit_json(analysis.to_dict())
    else:
        click.echo(format_analysis(analysis, rec.players))
