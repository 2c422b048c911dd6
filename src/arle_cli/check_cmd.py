"""``arle check``: random legal games through the invariant checks after every decision."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator
from typing import Any

import click
from tqdm import tqdm

import arle_ai
from arle_ai.base import limits, procs
from arle_ai.engine import MAX_SEED
from arle_ai.engine.testing import InvariantError, play_random_game
from arle_cli.common import WORKERS, Count, fail, interrupted, seed_option, variant_option


def check_game(job: tuple[int, str]) -> dict[str, Any] | None:
    """Play the random game of ``seed`` with every check; None if it is clean, else the
    failure with the decisions (notation) that reproduce it."""
    seed, variant = job
    moves: list[str] = []

    def note(state: arle_ai.GameState, action: int) -> None:
        moves.append(state.action_to_string(action))

    try:
        play_random_game(seed, variant, check=True, on_step=note)
    except InvariantError as exc:
        return {"seed": seed, "variant": variant, "error": str(exc), "moves": moves}
    return None


@click.command()
@click.option("--games", type=Count(limits.MAX_GAMES), default=100, show_default=True,
              help="How many random games to play.")
@seed_option("Seed of the first game; game i uses seed + i.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Processes playing games in parallel.")
@variant_option()
def check(games: int, seed: int, workers: int, variant: str) -> None:
    """Play random legal games, checking arle_ai.engine.testing.check_invariants after every
    decision. On a violation print the seed and the decisions that reproduce it, exit 1."""
    if seed + games - 1 > MAX_SEED:
        fail(f"--seed {seed} with --games {games} runs past the last seed {MAX_SEED}")
    jobs = ((seed + i, variant) for i in range(games))  # made as played: nothing up front
    failure = None
    with tqdm(total=games, desc="check", unit="game", file=sys.stderr, disable=None) as bar:
        results: Iterator[dict[str, Any] | None]
        if workers == 1:
            results = map(check_game, jobs)
            pool = None
        else:
            with procs.sigint_ignored():  # the workers start here; Ctrl-C is ours
                pool = multiprocessing.get_context("spawn").Pool(
                    workers, procs.exit_with_parent, procs.parent_watch())
            results = pool.imap(check_game, jobs)
        checked = 0
        try:
            for result in results:
                bar.update(1)
                checked += 1
                if result is not None:
                    failure = result
                    break
        except KeyboardInterrupt:
            interrupted(f"{checked} games from seed {seed} checked, all invariants held")
        finally:
            if pool is not None:
                pool.terminate()
    if failure is None:
        click.echo(f"{games} games from seed {seed} ({variant}): all invariants held")
        return
    click.echo(f"invariant violated in the game of seed {failure['seed']} "
               f"({failure['variant']}): {failure['error']}")
    click.echo(f"reproduce: arle_ai.engine.testing.play_random_game({failure['seed']}, "
               f"{failure['variant']!r}, check=True); decisions:")
    for i, move in enumerate(failure["moves"], 1):
        click.echo(f"{i:>4}. {move}")
    raise SystemExit(1)
