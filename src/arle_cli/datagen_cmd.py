"""``arle datagen``: self-play training data (positions and targets) in a compressed file."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from arle_ai.adapters.ray_backend import RayBackendError
from arle_ai.base import limits
from arle_ai.learn.datagen import (
    MAX_SEED,
    MODEL_LEAVES,
    SEARCHES,
    DatagenConfig,
    generate,
    parts_dir,
)
from arle_ai.search.config import ROOT_NOISES
from arle_ai.search.net import load_net
from arle_cli.backend_opts import backend_options, make_runner
from arle_cli.common import (
    IN_FILE,
    OUT_FILE,
    Count,
    FiniteRange,
    fail,
    games_bar,
    hangup_as_interrupt,
    interrupted,
    is_npz_with,
    players_option,
    seed_option,
    variant_option,
)

F = TypeVar("F", bound=Callable[..., Any])


def search_options(command: F) -> F:
    """The self-play search and targets options (datagen.DatagenConfig), each default None
    (the command's own default applies)."""
    options = [
        click.option("--puct/--no-puct", default=None,
                     help="PUCT with priors (the model's policy head, else the heuristic's), "
                          "or UCT.  [default: PUCT when the --net model has a policy head or "
                          "--root-noise is given]"),
        click.option("--c", "c", type=FiniteRange(0, limits.MAX_C), default=None,
                     help="The search's exploration constant.  [default: 0.9]"),
        click.option("--root-noise", type=click.Choice(ROOT_NOISES), default=None,
                     help="Root exploration of every full search (PUCT): Dirichlet "
                          "noise, or Gumbel-Top-k with sequential halving, whose target is "
                          "the completed-Q policy.  [default: none]"),
        click.option("--temperature", type=FiniteRange(0, 100, min_open=True), default=None,
                     help="The first --explore decisions are drawn with probability "
                          "proportional to the search's target ** (1 / T).  [default: 1]"),
        click.option("--full-share", type=FiniteRange(0, 1, min_open=True), default=None,
                     help="Playout caps: the share of decisions searched in full (their "
                          "positions carry a policy target); the others get "
                          "--cheap-iterations.  [default: 1]"),
        click.option("--cheap-iterations", type=Count(limits.MAX_ITERATIONS), default=None,
                     help="Iterations of a cheap search (with --full-share below 1)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.command()
@click.option("-o", "--out", type=OUT_FILE, required=True,
              help="The .npz file to write; finished games are kept in OUT.parts/ and a run "
                   "started again with the same settings plays only the missing ones.")
@click.option("--games", type=Count(limits.MAX_GAMES), default=100, show_default=True,
              help="Self-play games to play.")
@seed_option("Game g is set up from seed + g and searched with seeds drawn from both.",
             maximum=MAX_SEED)
@click.option("--iterations", type=Count(limits.MAX_ITERATIONS), default=200, show_default=True,
              help="MCTS iterations per decision (a fixed budget keeps runs reproducible).")
@click.option("--explore", type=click.IntRange(0, 10_000), default=24, show_default=True,
              help="The first decisions of each game drawn in proportion to the root visits.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes, one game each at a time (the data does not depend on "
                   "it) [default: 1; with --backend ray, every CPU of the Ray cluster].")
@click.option("--leaf", type=click.Choice(tuple(SEARCHES)), default="heuristic",
              show_default=True,
              help="The search's leaf: heuristic rollouts of 2 half-years (the shipped "
                   "weights' first data), 'net': a random rollout of 2 half-years valued "
                   "by the value model, or 'model': the value model alone, no rollout.")
@click.option("--net", "net", type=IN_FILE, default=None,
              help="With --leaf net or model: the weights file (default: the shipped weights; with "
                   "--players 1 a solo model, 'arle train' on solo games makes one); its "
                   "digest is recorded in the data.")
@variant_option()
@players_option("2, or 1: solo games (the data of a solo model, 'arle train' makes it).")
@search_options
@backend_options
def datagen(out: str, games: int, seed: int, iterations: int, explore: int,
            workers: int | None, leaf: str, net: str | None, variant: str, players: int,
            backend: str, address: str | None, ray_logs: bool, **search: Any) -> None:
    """Play seeded MCTS self-play games and write every searched position with its features,
    final VP of both players, final margin, winner and root visit distribution to OUT (a
    compressed numpy file; see arle_ai.learn.datagen for its arrays). With --backend ray the
    games are Ray tasks and OUT is the same file, byte for byte (a --net file must be at the
    same path on every node of a cluster)."""
    if workers is not None and workers > limits.MAX_WORKERS and address is None:
        fail(f"--workers {workers} is more than {limits.MAX_WORKERS} processes (at most 4 per "
             f"core; this machine has {limits.CORES})")
    runner = make_runner(backend, address, workers, ray_logs)
    if os.path.exists(out) and not is_npz_with(out, "features", "margin"):
        fail(f"{out} exists and is not a datagen file: choose another -o (datagen writes OUT "
             f"when its games are played)")
    if net is not None and leaf not in MODEL_LEAVES:
        fail("--net is for --leaf net or model only")
    try:
        if leaf in MODEL_LEAVES:  # a bad file, or one of the other kind, is named before any game
            load_net(net, players=players)
        config = DatagenConfig(games=games, seed=seed, iterations=iterations, explore=explore,
                               variant=variant, leaf=leaf, net=net, players=players,
                               **{k: v for k, v in search.items() if v is not None})
    except ValueError as exc:  # NetError, or a setting DatagenConfig refuses
        fail(str(exc))
    with games_bar("datagen", out) as bar, hangup_as_interrupt():
        try:
            data = generate(out, config, workers=workers or 1, progress=bar.progress,
                            runner=runner, notify=bar.warn)
        except (ValueError, RayBackendError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{out}: cannot write: {exc.strerror or exc}")
        except KeyboardInterrupt:
            # counted on the disk: the workers (ended by now) write their own parts, and one
            # may have written its part before the count of games reported had reached it
            saved = sum(1 for _ in parts_dir(out).glob("game-*.npz"))
            interrupted(f"{saved} of {games} games are saved in {parts_dir(out)}; the same "
                        f"command resumes")
    n = len(data["player"])
    click.echo(f"wrote {out}: {n} positions from {games} games "
               f"(finished games kept in {parts_dir(out)})")
