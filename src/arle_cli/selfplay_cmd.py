"""``arle selfplay``: a self-play tournament between agents, statistics, resumable output."""

from __future__ import annotations

import math
from typing import Any

import click

from arle_ai.adapters.ray_backend import RayBackendError
from arle_ai.base import limits
from arle_ai.base.files import write_text
from arle_ai.play.solo import histogram_svg
from arle_ai.play.tournament import (
    Tournament,
    TournamentError,
    format_summary,
    json_safe,
    summarize,
)
from arle_cli.backend_opts import backend_options, make_runner
from arle_cli.common import (
    OUT_FILE,
    Count,
    emit_json,
    fail,
    games_bar,
    hangup_as_interrupt,
    interrupted,
    make_agent,
    players_option,
    seed_option,
    variant_option,
)


class _SpecsOption(click.Option):
    """A repeatable option that also takes the values after it, up to the next option:
    ``--agents A B`` and ``--agents A --agents B`` both give ``(A, B)``."""

    def add_to_parser(self, parser: Any, ctx: click.Context) -> None:
        super().add_to_parser(parser, ctx)
        opt = None
        for name in self.opts:  # click's parser keeps its options in these (private) dicts
            opt = (getattr(parser, "_long_opt", {}).get(name)
                   or getattr(parser, "_short_opt", {}).get(name))
            if opt is not None:
                break
        if opt is None:  # pragma: no cover - another click: the option is only repeatable
            return
        take = opt.process

        def process(value: Any, state: Any) -> None:
            take(value, state)
            while state.rargs and not state.rargs[0].startswith("-"):
                take(state.rargs.pop(0), state)

        opt.process = process


@click.command()
@click.option("--agents", "agents", cls=_SpecsOption, multiple=True, required=True,
              metavar="SPEC [SPEC...]",
              help="Agents to play, e.g. random greedy mcts:iterations=200 "
                   "py:my_agents.MyAgent (two or more; every pair plays; with --players 1, "
                   "one or more, each alone).")
@click.option("--games", type=Count(limits.MAX_GAMES), required=True,
              help="Games per pairing (even: each setup is played twice, seats swapped); with "
                   "--players 1, solo games per agent, one per setup.")
@players_option("2: a tournament; 1: the solo benchmark, each agent's score over --games "
                "seeded solo setups (the same setups for every agent).")
@click.option("--histogram", type=OUT_FILE, default=None, metavar="SVG",
              help="With --players 1: draw each agent's scores as a histogram in this SVG "
                   "file.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes playing games in parallel [default: 1; with --backend ray, "
                   "every CPU of the Ray cluster].")
@seed_option("Master seed: draws the setups and the agents' seeds.")
@variant_option()
@click.option("--out", type=OUT_FILE, default=None,
              help="Write results as JSON lines (one game record per game); if the file "
                   "exists, resume: play only the games not in it.")
@click.option("--sprt", type=(float, float), default=None, metavar="ELO0 ELO1",
              help="Also report an SPRT of H0: Elo = ELO0 against H1: Elo = ELO1 (first agent "
                   "of each pairing; alpha = beta = 0.05).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON on stdout.")
@backend_options
def selfplay(agents: tuple[str, ...], games: int, players: int, histogram: str | None,
             workers: int | None, seed: int, variant: str, out: str | None,
             sprt: tuple[float, float] | None, as_json: bool, backend: str,
             address: str | None, ray_logs: bool) -> None:
    """Play a self-play tournament and print its statistics.

    Every pair of agents plays GAMES games: GAMES/2 setups drawn from --seed, each played twice
    with the seats swapped. Reports per pairing W-D-L, score (Wilson 95%), Elo difference (95%),
    LOS, mean VP margin (95%) and the start player's wins; with 3 or more agents a rating table.
    With --backend ray the games are Ray tasks (same results for the same seed).

    With --players 1 it is the solo benchmark: each agent plays GAMES solo games on GAMES
    setups drawn from --seed (the same for every agent); it reports each agent's mean score
    with its 95% interval, the spread and the distribution (--histogram draws it as SVG).
    """
    if workers is not None and workers > limits.MAX_WORKERS and address is None:
        fail(f"--workers {workers} is more than {limits.MAX_WORKERS} processes (at most 4 per "
             f"core; this machine has {limits.CORES})")
    runner = make_runner(backend, address, workers, ray_logs)
    specs = [s.strip() for s in agents]
    solo = players == 1
    if len(specs) < 2 and not solo:
        fail(f"--agents needs at least 2 agents, got {len(specs)} (or --players 1: the solo "
             f"benchmark of one agent)")
    for spec in specs:
        make_agent(spec)
    if games <= 0 or (games % 2 and not solo):
        fail(f"--games must be a positive even number (each setup is played twice, seats "
             f"swapped), not {games}")
    if solo and sprt is not None:
        fail("--sprt tests one agent against another: not with --players 1 (compare the "
             "agents' mean scores)")
    if histogram is not None and not solo:
        fail("--histogram draws solo scores: give --players 1")
    if sprt is not None:
        elo0, elo1 = sprt
        if not (math.isfinite(elo0) and math.isfinite(elo1)):
            fail(f"--sprt values must be finite Elo differences, not {elo0:g} {elo1:g}")
        if not elo0 < elo1:
            fail(f"--sprt needs ELO0 < ELO1, not {elo0:g} {elo1:g}")
    try:
        tournament = Tournament(specs, games, seed=seed, variant=variant, players=players)
    except ValueError as exc:
        fail(str(exc))

    with games_bar("selfplay", out) as bar, hangup_as_interrupt():
        try:
            results = tournament.run(
                workers=workers or 1, out=out,
                on_start=lambda to_play, done: bar.start(to_play + done, done),
                on_result=lambda _: bar.advance(), runner=runner)
        except (TournamentError, RayBackendError) as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            done = tournament.played + tournament.resumed
            interrupted(f"{out} holds the {done} finished games of {tournament.total}; the "
                        f"same command resumes" if out else
                        f"{tournament.played} games finished, not kept (no --out)")
        except OSError as exc:
            fail(f"{out}: cannot write: {exc.strerror or exc}")

    summary = summarize(results, agents=specs, sprt=sprt)
    summary.update({"seed": seed, "variant": variant, "games_per_pairing": games})
    if histogram is not None:
        try:
            write_text(histogram, histogram_svg(summary, f"Solo scores, {games} setups "
                                                         f"(seed {seed}, {variant})"))
        except OSError as exc:
            fail(f"{histogram}: cannot write: {exc.strerror or exc}")
    if as_json:
        emit_json(json_safe(summary))
    else:
        click.echo(format_summary(summary))
