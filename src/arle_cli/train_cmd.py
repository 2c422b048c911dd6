"""``arle train``: fit the model (value, policy and auxiliary heads) on self-play data and
write its weights file."""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict

import click

from arle_ai.base.files import write_text
from arle_ai.learn.train import TrainConfig, data_players, ignored_slots, load_datasets
from arle_ai.learn.train import train as fit
from arle_ai.search.net import WEIGHT_ARRAYS, NetError, save_weights
from arle_cli.common import IN_FILE, OUT_FILE, FiniteRange, fail, is_npz_with, seed_option


@click.command()
@click.argument("data", type=IN_FILE, nargs=-1, required=True)
@click.option("-o", "--out", "weights", type=OUT_FILE, required=True,
              help="The weights file to write (.npz).")
@click.option("--hidden", type=click.IntRange(1, 1024), default=64, show_default=True,
              help="Hidden units of each layer of the perceptron's trunk (shared by the "
                   "heads).")
@click.option("--layers", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Hidden layers of the trunk (more than one: a weights file of format 3).")
@click.option("--epochs", type=click.IntRange(1, 100_000), default=30, show_default=True)
@click.option("--batch", type=click.IntRange(1, 1_000_000), default=256, show_default=True,
              help="Positions per minibatch.")
@click.option("--lr", type=FiniteRange(0, 10, min_open=True), default=1e-3,
              show_default=True, help="Adam learning rate.")
@click.option("--weight-decay", type=FiniteRange(0, 100), default=1e-4, show_default=True,
              help="L2 penalty on the weights (the skip: on its change from the start).")
@click.option("--val", "val_fraction", type=FiniteRange(0, 1, min_open=True, max_open=True),
              default=0.1, show_default=True, help="Share of whole games held out.")
@seed_option("Seeds the split, the initial weights and the minibatch order.")
@click.option("--target-blend", type=FiniteRange(0, 1), default=0.0, show_default=True,
              help="Share of the search's root value and margin in the targets (the rest: "
                   "the game's outcome); needs data of this version's arle datagen.")
@click.option("--ignore", multiple=True, metavar="PREFIX",
              help="Leave out the features whose names start with PREFIX (repeatable; names "
                   "in docs/features.md), e.g. --ignore in_play. --ignore available.")
@click.option("--policy-weight", type=FiniteRange(0, 1000), default=1.0, show_default=True,
              help="Weight of the policy head's loss (cross-entropy against the root visits); "
                   "0: no policy head.")
@click.option("--aux-weight", type=FiniteRange(0, 1000), default=0.1, show_default=True,
              help="Weight of the auxiliary head's loss (final VP by scoring category); 0: "
                   "no auxiliary head.")
@click.option("--figures", type=OUT_FILE, default=None,
              help="Also write the training figures (the report) to this JSON file.")
def train(data: tuple[str, ...], weights: str, hidden: int, layers: int, epochs: int, batch: int,
          lr: float,
          weight_decay: float, val_fraction: float, seed: int, target_blend: float,
          ignore: tuple[str, ...], policy_weight: float, aux_weight: float,
          figures: str | None) -> None:
    """Fit the model on DATA (from arle datagen; several files train together, each holding
    out its own share of games, the same as alone): a value head (final margin, win), a policy
    head (the search's root visits over the legal actions, rebuilt from the stored positions)
    and an auxiliary head (each player's final VP by scoring category) on one trunk. Print the
    training and validation loss per epoch and the validation error of the predicted final
    margin by half-year, and write the weights of the best epoch to --out (use them with the
    agent spec mcts:eval=net,net=FILE). Data without positions and root visits gives a
    value-only model. Data of solo games alone (arle datagen --players 1) gives a solo model,
    whose margin is the final score (use it with mcts:solo_net=FILE)."""
    if os.path.exists(weights) and not is_npz_with(weights, *WEIGHT_ARRAYS, "meta"):
        fail(f"{weights} exists and is not a weights file: choose another -o")
    try:
        config = TrainConfig(hidden=hidden, layers=layers, epochs=epochs, batch=batch, lr=lr,
                             weight_decay=weight_decay, val_fraction=val_fraction, seed=seed,
                             target_blend=target_blend, ignore=ignore,
                             policy_weight=policy_weight, aux_weight=aux_weight)
        arrays = load_datasets(data)
        players = data_players(arrays)
    except ValueError as exc:
        fail(str(exc))
    except MemoryError:
        fail(f"not enough memory to load {', '.join(data)} for training")
    click.echo(f"{', '.join(data)}: {len(arrays['player'])} positions from "
               f"{len(set(arrays['game'].tolist()))} games")
    if ignore:
        click.echo(f"ignoring {int(ignored_slots(ignore).sum())} feature slots "
                   f"({', '.join(p + '*' for p in ignore)})")
    start = time.perf_counter()
    try:
        params, report = fit(arrays, config, log=click.echo)
    except ValueError as exc:
        fail(str(exc))
    except MemoryError:
        fail(f"not enough memory to train on {len(arrays['player'])} positions (try fewer "
             f"data files or a smaller --batch); {weights} was not written")
    took = time.perf_counter() - start
    if players == 1:
        click.echo(f"kept epoch {report.best_epoch}: a solo model (solo games: its margin is "
                   f"the final score), validation score MAE {report.val_margin_mae:.2f} VP "
                   f"({report.val_positions} positions of {report.val_games} held-out games); "
                   f"{took:.0f} s")
    else:
        click.echo(f"kept epoch {report.best_epoch}: validation margin MAE "
                   f"{report.val_margin_mae:.2f} VP, win accuracy "
                   f"{report.val_win_accuracy:.3f} ({report.val_positions} positions of "
                   f"{report.val_games} held-out games); {took:.0f} s")
    if "policy" in report.heads:
        click.echo(f"policy: cross-entropy {report.val_policy_ce:.3f} nats (the visits' own "
                   f"entropy {report.val_policy_entropy:.3f}), top prior = most visited "
                   f"{report.val_policy_top1:.3f}")
    else:
        click.echo("value head only (the data has no positions and root visits, or "
                   "--policy-weight 0)")
    if "aux" in report.heads:
        whose = "the final score" if players == 1 else "each player's final VP"
        click.echo(f"final VP by category: {whose} within "
                   f"{report.val_final_vp_mae:.2f} VP (mean absolute error)")
    error = "score" if players == 1 else "margin"  # a solo model's margin is the final score
    click.echo(f"half-year  positions  {error} MAE  {error} RMSE  MAE of the score now")
    for row in report.by_half_year:
        click.echo(f"{row['half_year']:9d}  {row['positions']:9d}  {row['margin_mae']:10.2f}  "
                   f"{row['margin_rmse']:11.2f}  {row['score_now_mae']:20.2f}")
    meta = {"data": data[0] if len(data) == 1 else list(data), "config": asdict(config),
            "report": report.as_dict(), "seconds": round(took, 1)}
    if players == 1:  # a solo model: the search values solo positions with it (search.net)
        meta["players"] = 1
    try:
        save_weights(weights, params, meta)
        if figures is not None:
            write_text(figures, json.dumps(dict(report.as_dict(), seconds=round(took, 1),
                                                weights=weights), indent=1))
    except OSError as exc:
        fail(f"{exc.filename or weights}: cannot write: {exc.strerror or exc}")
    except NetError as exc:  # trained on overflowing data: eval=net would refuse the model
        fail(str(exc))
    click.echo(f"wrote {weights}" + (f" and {figures}" if figures else ""))
