"""``arle learn``: generations of self-play, training and gated promotion in a run folder."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from arle_ai.adapters.ray_backend import RayBackendError
from arle_ai.base import limits
from arle_ai.learn.loop import SETTINGS_FILE, LearnError, LearnRun, LearnSettings, Reporter
from arle_ai.play.tournament import TournamentError
from arle_ai.search.net import NetError
from arle_cli.backend_opts import backend_options, make_runner
from arle_cli.common import (
    IN_FILE,
    VARIANTS,
    Count,
    Seconds,
    fail,
    hangup_as_interrupt,
    interrupted,
)
from arle_cli.datagen_cmd import search_options

# option name -> the settings field it sets (training options: fields of settings.train)
_SETTINGS = {"games": "games", "iterations": "iterations", "explore": "explore",
             "window": "window", "gate_time": "gate_time", "gate_iterations": "gate_iterations",
             "gate_games": "gate_games", "sprt": "sprt", "seed": "seed", "variant": "variant",
             "agent": "agent", "puct": "puct", "c": "c", "root_noise": "root_noise",
             "temperature": "temperature", "full_share": "full_share",
             "cheap_iterations": "cheap_iterations", "window_games": "window_games",
             "players": "players", "leaf": "leaf"}
_TRAIN = {"epochs": "epochs", "hidden": "hidden", "layers": "layers"}


class BarReporter(Reporter):
    """Progress bars on stderr: the generations, and the step in progress."""

    def __init__(self, generations: int, done: int) -> None:
        self.outer = tqdm(total=generations, initial=done, unit="gen", desc="generations",
                          file=sys.stderr, disable=None, position=0)
        self.inner: tqdm | None = None

    def step(self, generation: int, name: str, done: int, total: int) -> None:
        self._close_inner()
        unit = "epoch" if name == "training" else "game"
        self.inner = tqdm(total=total, initial=done, unit=unit, file=sys.stderr,
                          disable=None, position=1, leave=False,
                          desc=f"generation {generation} {name}")

    def advance(self, done: int, note: str = "") -> None:
        if self.inner is not None:
            self.inner.update(done - self.inner.n)
            if note:
                self.inner.set_postfix_str(note)

    def message(self, text: str) -> None:
        self._close_inner()
        self.outer.update(1)
        tqdm.write(text, file=sys.stderr)

    def _close_inner(self) -> None:
        if self.inner is not None:
            self.inner.close()
            self.inner = None

    def close(self) -> None:
        self._close_inner()
        self.outer.close()


def _settings(run_exists: LearnSettings | None, given: dict[str, Any]) -> LearnSettings:
    """The run's settings: the stored ones (every option given must agree with them), or for
    a new run the defaults with the options given."""
    train_given = {_TRAIN[k]: v for k, v in given.items() if k in _TRAIN}
    plain = {_SETTINGS[k]: v for k, v in given.items() if k in _SETTINGS}
    if run_exists is not None:
        differ = [f"--{k.replace('_', '-')} {_show(v)} (the run has "
                  f"{_show(getattr(run_exists, _SETTINGS[k]))})"
                  for k, v in given.items() if k in _SETTINGS
                  and getattr(run_exists, _SETTINGS[k]) != v]
        differ += [f"--{k} {v} (the run has {getattr(run_exists.train, _TRAIN[k])})"
                   for k, v in given.items() if k in _TRAIN
                   and getattr(run_exists.train, _TRAIN[k]) != v]
        if differ:
            fail("the run folder holds a run with other settings: " + ", ".join(differ)
                 + "; leave the options out to resume it")
        return run_exists
    base = LearnSettings()
    if "gate_iterations" in plain and "gate_time" not in plain:
        plain["gate_time"] = None
    try:
        return replace(base, train=replace(base.train, **train_given), **plain)
    except ValueError as exc:  # LearnError, or a TrainConfig check
        fail(str(exc))


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return " ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    return repr(value) if isinstance(value, str) else f"{value}"


@click.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--generations", type=click.IntRange(1, 10_000), required=True,
              help="Generations the run should have when this command ends (a later command "
                   "with a higher number goes on).")
@click.option("--games", type=Count(limits.MAX_GAMES, minimum=2), default=None,
              help="Self-play games per generation.  [new run: 200]")
@click.option("--iterations", type=Count(limits.MAX_ITERATIONS), default=None,
              help="Search iterations per self-play decision.  [new run: 800]")
@click.option("--explore", type=click.IntRange(0, 10_000), default=None,
              help="The first decisions of each self-play game drawn in proportion to the "
                   "root visits.  [new run: 24]")
@click.option("--window", type=click.IntRange(1, 10_000), default=None,
              help="The candidate trains on the data of this many recent generations.  "
                   "[new run: 4]")
@click.option("--window-games", type=Count(limits.MAX_GAMES), default=None,
              help="Instead of --window: the candidate trains on the newest generations' data "
                   "that holds at least this many games (generation 0's --init-data "
                   "counts).  [new run: none]")
@click.option("--leaf", type=click.Choice(("net", "model")), default=None,
              help="Self-play's leaf: 'net', a random rollout of 2 half-years valued by the "
                   "best model, or 'model', the model alone (no rollout).  [new run: net]")
@click.option("--players", type=click.IntRange(1, 2), default=None,
              help="2, or 1: a solo run (solo models, whose value is the final score; the "
                   "gate plays --gate-games setups with each model and promotes the candidate "
                   "on a one-sided paired t-test of the scores, alpha 0.05).  [new run: 2]")
@click.option("--gate-time", type=Seconds(), default=None,
              help="Seconds a decision for both players of the gate match.  [new run: 0.25]")
@click.option("--gate-iterations", type=Count(limits.MAX_ITERATIONS), default=None,
              help="Instead of --gate-time: iterations a decision (reproducible gates).")
@click.option("--gate-games", type=Count(limits.MAX_GAMES), default=None,
              help="The most games of a gate (even); with no SPRT verdict by then the "
                   "candidate is rejected.  [new run: 400]")
@click.option("--sprt", type=(float, float), default=None, metavar="ELO0 ELO1",
              help="The gate's SPRT of H0: candidate - best = ELO0 against H1: = ELO1 Elo "
                   "(alpha = beta = 0.05); H1 promotes the candidate.  [new run: 0 50]")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=None,
              help="Master seed of the run's self-play, training and gates.  [new run: 0]")
@click.option("--variant", type=click.Choice(VARIANTS), default=None,
              help="Building set of every game.  [new run: standard]")
@click.option("--agent", "agent", default=None, metavar="OPTIONS",
              help="More MCTS options for both gate players, as in an agent spec "
                   "(e.g. c=1.2).  [new run: none]")
@search_options
@click.option("--epochs", type=click.IntRange(1, 100_000), default=None,
              help="Training epochs of each candidate (the best is kept).  [new run: 4]")
@click.option("--hidden", type=click.IntRange(1, 1024), default=None,
              help="Hidden units of each layer of each candidate's trunk.  [new run: 64]")
@click.option("--layers", type=click.IntRange(1, 3), default=None,
              help="Hidden layers of each candidate's trunk.  [new run: 1]")
@click.option("--init", type=IN_FILE, default=None,
              help="Generation 0's weights file (a new run only).  [default: the shipped "
                   "weights]")
@click.option("--init-data", type=IN_FILE, default=None,
              help="A datagen file kept as generation 0's data, in the first candidates' "
                   "training window (a new run only), e.g. the games the --init weights "
                   "were trained on.  [default: none]")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes for the self-play and gate games [default: 1; with "
                   "--backend ray, every CPU of the Ray cluster].")
@backend_options
def learn(run_dir: str, generations: int, workers: int | None, backend: str,
          address: str | None, ray_logs: bool, init: str | None, init_data: str | None,
          **options: Any) -> None:
    """Learn from self-play in RUN_DIR, generation after generation: self-play games with
    the current best model, a candidate trained on a window of recent generations' data,
    and a seat-swapped SPRT gate match against the best at equal time; an accepted
    candidate becomes the best. Every finished piece is kept: interrupted at any moment,
    the same command resumes (a run's settings are fixed when it starts; leave them out to
    resume). RUN_DIR/ledger.json holds every generation's figures, RUN_DIR/chart.svg the
    Elo of the promoted generations. See docs/learning.md."""
    if workers is not None and workers > limits.MAX_WORKERS and address is None:
        fail(f"--workers {workers} is more than {limits.MAX_WORKERS} processes (at most 4 per "
             f"core; this machine has {limits.CORES})")
    given = {k: v for k, v in options.items() if v is not None}
    if "sprt" in given:
        elo0, elo1 = given["sprt"]
        if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
            fail(f"--sprt needs finite ELO0 < ELO1, not {elo0:g} {elo1:g}")
    if "gate_time" in given and "gate_iterations" in given:
        fail("give the gate one budget: --gate-time or --gate-iterations")
    runner = make_runner(backend, address, workers, ray_logs)
    try:
        stored = LearnRun(run_dir).settings if _is_run(run_dir) else None
        settings = _settings(stored, given)
        run = LearnRun(run_dir, settings, init=init, init_data=init_data)
        done = len(run.history()) if stored is not None else 0
    except (LearnError, NetError, TournamentError) as exc:
        fail(str(exc))
    if done >= generations:
        click.echo(f"{run_dir} already has {done} generations")
    bar = BarReporter(generations, min(done, generations))
    try:
        with hangup_as_interrupt():
            ledger = run.run(generations, workers=workers or 1, runner=runner, reporter=bar)
    except (LearnError, NetError, TournamentError, RayBackendError) as exc:
        bar.close()
        fail(str(exc))
    except OSError as exc:
        bar.close()
        fail(f"{exc.filename or run_dir}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        bar.close()
        interrupted(f"{run_dir} keeps every finished piece (self-play games, trained "
                    f"candidates, gate games); the same command resumes")
    bar.close()
    click.echo(format_ledger(ledger, run_dir))


def _is_run(run_dir: str) -> bool:
    return (Path(run_dir) / SETTINGS_FILE).exists()


def format_ledger(ledger: dict[str, Any], run_dir: str) -> str:
    """A table of the run's generations, the best model and where the chart is."""
    if ledger.get("settings", {}).get("players") == 1:
        return _format_solo_ledger(ledger, run_dir)
    rows = ["gen  model  self-play VP  val margin MAE  gate W-D-L   score   Elo       LLR     "
            "verdict"]
    elo = {p["generation"]: p for p in ledger["elo"]}
    for g in ledger["generations"][1:]:
        data = g.get("data", {})
        vp = f"{data['mean_vp']:.1f}" if data.get("mean_vp") is not None else "-"
        report = (g.get("train") or {}).get("report") or {}
        mae = f"{report['val_margin_mae']:.2f}" if "val_margin_mae" in report else "-"
        gate = g.get("gate")
        if gate and gate.get("games"):
            wdl = f"{gate['wins']}-{gate['draws']}-{gate['losses']}"
            score = f"{100 * gate['score']:.1f}%" if gate.get("score") is not None else "-"
            gate_elo = (f"{gate['elo']:+.0f}" if gate.get("elo") is not None
                        else "+inf" if gate.get("score") == 1 else "-inf")
            llr = f"{gate['llr']:+.2f}"
        else:
            wdl = score = gate_elo = llr = "-"
        if gate and gate.get("decided"):
            verdict = ("promoted" if g.get("promoted") else "rejected") + (
                "" if gate["verdict"] != "continue" else " (no verdict)")
        else:
            verdict = "in progress"
        if g["generation"] in elo:
            p = elo[g["generation"]]
            verdict += f", {p['elo']:+.0f} [{p['low']:+.0f}, {p['high']:+.0f}] vs gen 0"
        rows.append(f"{g['generation']:3d}  {g['best_before']:5d}  {vp:>12}  {mae:>14}  "
                    f"{wdl:<11}  {score:>6}  {gate_elo:>5}  {llr:>8}  {verdict}")
    rows.append(_best_line(ledger, run_dir))
    return "\n".join(rows)


def _best_line(ledger: dict[str, Any], run_dir: str) -> str:
    model = ("no model: the search's own solo value" if ledger["best_weights"] is None
             else f"{run_dir}/{ledger['best_weights']}")
    return (f"best: generation {ledger['best']} ({model}); figures in {run_dir}/ledger.json, "
            f"chart in {run_dir}/chart.svg; {ledger.get('games', 0):,} self-play games")


def _format_solo_ledger(ledger: dict[str, Any], run_dir: str) -> str:
    """A solo run's table: the self-play score, the model's score error and the gate's
    paired comparison."""
    rows = ["gen  model  self-play VP  val score MAE  setups  gate VP  best VP  gain    p      "
            "verdict"]
    for g in ledger["generations"][1:]:
        data = g.get("data", {})
        vp = f"{data['mean_vp']:.1f}" if data.get("mean_vp") is not None else "-"
        report = (g.get("train") or {}).get("report") or {}
        mae = f"{report['val_margin_mae']:.2f}" if "val_margin_mae" in report else "-"
        gate = g.get("gate") or {}
        if gate.get("setups"):
            cols = (f"{gate['setups']:6d}  {gate['mean_score']:7.1f}  {gate['best_score']:7.1f}"
                    f"  {gate['mean_difference']:+6.2f}  {gate['p']:.3f}")
        else:
            cols = f"{'-':>6}  {'-':>7}  {'-':>7}  {'-':>6}  {'-':>5}"
        verdict = (("promoted" if g.get("promoted") else "rejected")
                   if gate.get("decided") else "in progress")
        rows.append(f"{g['generation']:3d}  {g['best_before']:5d}  {vp:>12}  {mae:>13}  "
                    f"{cols}  {verdict}")
    rows.append(_best_line(ledger, run_dir))
    return "\n".join(rows)
