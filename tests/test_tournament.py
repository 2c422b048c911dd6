"""``arle selfplay`` and arle_ai.play.tournament: plan, determinism, resume, errors, records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.formats.records import load_record
from arle_ai.play import tournament
from arle_ai.play.tournament import Tournament, TournamentError, json_safe, summarize
from arle_cli.main import cli


def run(*args: str):
    return CliRunner().invoke(cli, ["selfplay", *args], catch_exceptions=False)


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def read_out(path: Path) -> tuple[dict, list[dict]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    games = [json.loads(line) for line in lines[1:]]
    return header, games


def by_game(games: list[dict]) -> list[dict]:
    return sorted(games, key=lambda r: r["meta"]["game"])


# ---- the plan ----

def test_plan_seats_setups_and_seeds():
    t = Tournament(["random", "greedy"], 4, seed=7)
    assert t.total == 4
    assert t.setups == tournament.setup_seeds(7, 2)
    seats = [task["seats"] for task in t.tasks]
    assert seats == [[0, 1], [1, 0], [0, 1], [1, 0]]
    # each setup twice, seats swapped
    assert [task["setup_seed"] for task in t.tasks] == [t.setups[0]] * 2 + [t.setups[1]] * 2
    assert t.tasks[1]["agents"] == ["greedy", "random"]
    # a game depends only on (seed, index): a longer tournament starts with the same games
    longer = Tournament(["random", "greedy"], 8, seed=7)
    assert longer.tasks[:4] == t.tasks
    other = Tournament(["random", "greedy"], 4, seed=8)
    assert other.tasks[0]["setup_seed"] != t.tasks[0]["setup_seed"]


def test_round_robin_plan():
    t = Tournament(["random", "greedy", "random"], 2, seed=0)
    assert t.pairings == [(0, 1), (0, 2), (1, 2)]
    assert t.total == 6
    assert [task["pairing"] for task in t.tasks] == [[0, 1]] * 2 + [[0, 2]] * 2 + [[1, 2]] * 2
    # the same setups for every pairing
    assert {task["setup_seed"] for task in t.tasks} == set(t.setups)
    # repeated specs get distinct labels
    assert t.labels == ["random #1", "greedy", "random #3"]


def test_tournament_rejects_bad_settings():
    with pytest.raises(TournamentError, match="even"):
        Tournament(["random", "greedy"], 3)
    with pytest.raises(TournamentError, match="at least 2"):
        Tournament(["random"], 2)
    with pytest.raises(ValueError, match="unknown agent"):
        Tournament(["random", "nobody"], 2)


def test_play_game_matches_the_engine():
    t = Tournament(["random", "greedy"], 2, seed=3)
    task = t.tasks[1]
    rec = tournament.play_game(task)
    meta = rec["meta"]
    start = arle_ai.new_game(seed=task["setup_seed"])
    assert meta["start_player"] == start.start_player
    assert rec["setup"] == {"seed": task["setup_seed"], "variant": "standard"}
    assert rec["players"] == ["greedy", "random"]
    assert meta["scores"] == rec["result"]["scores"]
    assert meta["winner"] == rec["result"]["winner"]
    assert meta["winner_agent"] == task["seats"][meta["winner"]]
    assert meta["decisions"] == len(rec["moves"])
    assert tournament.play_game(task) == rec  # deterministic


# ---- the command ----

def test_happy_path_random_vs_greedy(tmp_path):
    out = tmp_path / "results.jsonl"
    result = run("--agents", "random", "greedy", "--games", "4", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "random vs greedy: 4 games" in text
    for word in ("W-D-L", "score", "Wilson 95%", "Elo", "LOS", "VP margin", "start player"):
        assert word in text
    header, games = read_out(out)
    assert header["format"] == "arle-selfplay"
    assert header["agents"] == ["random", "greedy"]
    assert (header["games"], header["seed"], header["variant"]) == (4, 0, "standard")
    assert sorted(g["meta"]["game"] for g in games) == [0, 1, 2, 3]

    summary = run_json("--agents", "random", "greedy", "--games", "4")
    (p,) = summary["pairings"]
    assert p["agents"] == ["random", "greedy"]
    assert p["games"] == 4
    assert p["wins"] + p["draws"] + p["losses"] == 4
    assert p["score"] == pytest.approx((p["wins"] + p["draws"] / 2) / 4)
    lo, hi = p["score_interval"]
    assert 0.0 <= lo <= p["score"] <= hi <= 1.0
    assert 0.0 <= p["los"] <= 1.0
    margins = []
    for g in games:
        a_seat = g["meta"]["seats"].index(0)
        margins.append(g["meta"]["scores"][a_seat] - g["meta"]["scores"][1 - a_seat])
    assert p["margin"] == pytest.approx(sum(margins) / 4)
    starts = sum(g["meta"]["winner"] == g["meta"]["start_player"] for g in games)
    assert p["start_player_wins"] == starts
    assert "ratings" not in summary
    assert "sprt" not in p
    # the same tournament without --out: the summary is that of the file's games
    assert json_safe(summarize(games, agents=["random", "greedy"]))["pairings"] == \
        summary["pairings"]


def test_results_may_name_the_agents_otherwise_than_the_specs_played(tmp_path):
    """play_as: the games are played with those specs, the results name the agents (the
    learning loop's models, named by their place in a run folder that can move); a
    tournament built to read results builds no agent."""
    plain, named = tmp_path / "plain.jsonl", tmp_path / "named.jsonl"
    Tournament(["random", "greedy"], 2, seed=4).run(out=plain)
    t = Tournament(["first one", "second one"], 2, seed=4, play_as=["random", "greedy"])
    t.run(out=named)
    head, games = read_out(named)
    assert head["agents"] == ["first one", "second one"]
    assert [g["meta"]["agents"] for g in by_game(games)] == [["first one", "second one"],
                                                             ["second one", "first one"]]
    played = by_game(read_out(plain)[1])
    assert [g["moves"] for g in by_game(games)] == [g["moves"] for g in played]
    assert len(Tournament(["first one", "second one"], 2, seed=4,
                          play_as=["random", "greedy"]).load(named)) == 2
    # the specs played are checked when the games start, by name
    gone = Tournament(["a", "b"], 2, play_as=["random", f"mcts:eval=net,net={tmp_path}/x.npz"])
    with pytest.raises(TournamentError, match="x.npz: no such weights file"):
        gone.run()
    with pytest.raises(TournamentError, match="one spec per agent"):
        Tournament(["a", "b"], 2, play_as=["random"])


def test_agents_option_forms():
    spaced = run_json("--agents", "random", "mcts:iterations=10,c=1.0", "--games", "2")
    repeated = run_json("--agents", "random", "--agents", "mcts:iterations=10,c=1.0",
                        "--games", "2")
    after = run_json("--games", "2", "--agents", "random", "mcts:iterations=10,c=1.0",
                     "--seed", "0")
    assert spaced == repeated == after
    assert spaced["agents"] == ["random", "mcts:iterations=10,c=1.0"]


def test_determinism_across_worker_counts(tmp_path):
    out1, out2 = tmp_path / "w1.jsonl", tmp_path / "w2.jsonl"
    args = ["--agents", "random", "greedy", "--games", "4", "--seed", "5"]
    s1 = run_json(*args, "--workers", "1", "--out", str(out1))
    s2 = run_json(*args, "--workers", "2", "--out", str(out2))
    assert s1 == s2
    h1, g1 = read_out(out1)
    h2, g2 = read_out(out2)
    assert h1 == h2
    assert by_game(g1) == by_game(g2)
    # the text summary too
    t1 = run(*args, "--workers", "1").stdout
    t2 = run(*args, "--workers", "2").stdout
    assert t1 == t2


def test_resume_after_an_interrupted_run(tmp_path, monkeypatch):
    full = tmp_path / "full.jsonl"
    args = ["--agents", "random", "greedy", "--games", "4", "--seed", "2"]
    whole = run_json(*args, "--out", str(full))
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) == 5

    cut = tmp_path / "cut.jsonl"
    # the header, 2 finished games, and a third cut off in the middle of its line
    cut.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2], encoding="utf-8")
    played = []
    real = tournament.play_game

    def counting(task):
        played.append(task["game"])
        return real(task)

    monkeypatch.setattr(tournament, "play_game", counting)
    result = run(*args, "--out", str(cut), "--json")
    assert result.exit_code == 0, result.output
    assert "resuming" in result.stderr and "2 of 4" in result.stderr
    done = {json.loads(line)["meta"]["game"] for line in lines[1:3]}
    assert sorted(played) == sorted({0, 1, 2, 3} - done)
    assert len(played) == 2
    assert json.loads(result.stdout) == whole
    _, resumed = read_out(cut)
    _, original = read_out(full)
    assert len(resumed) == 4
    assert by_game(resumed) == by_game(original)

    # a third run has nothing left to play
    played.clear()
    again = run(*args, "--out", str(cut), "--json")
    assert again.exit_code == 0
    assert played == []
    assert json.loads(again.stdout) == whole


@pytest.mark.parametrize("stop", ["before its line is written", "while its line is synced"])
def test_an_interrupted_run_counts_the_games_its_file_holds(tmp_path, monkeypatch, stop):
    # finish() counted a game before its line reached the results file: Ctrl-C right after
    # a game ended made arle selfplay say it "holds the 2 finished games" of a file of 1
    from arle_ai.play.results import read_file

    out = tmp_path / "t.jsonl"
    lines = []  # the games whose lines were begun
    real_dumps, real_sync = json.dumps, tournament._sync

    def dumps(obj, *args, **kwargs):
        if isinstance(obj, dict) and "meta" in obj:
            lines.append(obj["meta"]["game"])
            if stop.startswith("before") and len(lines) == 2:
                raise KeyboardInterrupt  # the second game ended, its line not yet written
        return real_dumps(obj, *args, **kwargs)

    def sync(fh):
        real_sync(fh)
        if stop.startswith("while") and len(lines) == 2:
            raise KeyboardInterrupt  # its line on the disk, the game not yet counted

    monkeypatch.setattr(tournament.json, "dumps", dumps)
    monkeypatch.setattr(tournament, "_sync", sync)
    t = Tournament(["random", "greedy"], 4, seed=2)
    with pytest.raises(KeyboardInterrupt):
        t.run(out=out)
    held = len(read_file(out).games)
    assert held == (1 if stop.startswith("before") else 2)
    assert t.played + t.resumed == held
    # what arle selfplay says of it, resumed and stopped the same way one game later
    lines.clear()
    result = run("--agents", "random", "greedy", "--games", "4", "--seed", "2", "--out",
                 str(out))
    assert result.exit_code == 130, result.output
    held = len(read_file(out).games)
    assert held == (2 if stop.startswith("before") else 4)
    assert f"{out} holds the {held} finished games of 4" in result.stderr, result.stderr


def test_odd_games_exit_2():
    result = run("--agents", "random", "greedy", "--games", "3")
    assert result.exit_code == 2
    assert "even" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert run("--agents", "random", "greedy", "--games", "0").exit_code == 2


def test_unknown_spec_exit_2():
    result = run("--agents", "random", "wizard", "--games", "2")
    assert result.exit_code == 2
    assert result.stderr.strip() == "arle: error: unknown agent 'wizard' in 'wizard' " \
        "(random, greedy, mcts, py:module.Class)"
    result = run("--agents", "random", "mcts:depth=3", "--games", "2")
    assert result.exit_code == 2
    assert "unknown option 'depth'" in result.stderr
    assert "Traceback" not in result.output


def test_one_agent_exit_2():
    result = run("--agents", "random", "--games", "2")
    assert result.exit_code == 2
    assert "at least 2" in result.stderr


@pytest.mark.parametrize("values", [("10", "0"), ("5", "5"), ("x", "5"), ("nan", "5"),
                                    ("0", "inf")])
def test_bad_sprt_exit_2(values):
    result = run("--agents", "random", "greedy", "--games", "2", "--sprt", *values)
    assert result.exit_code == 2
    assert "--sprt" in result.stderr


def test_sprt_in_summary():
    summary = run_json("--agents", "random", "greedy", "--games", "4", "--sprt", "0", "10")
    s = summary["pairings"][0]["sprt"]
    assert (s["elo0"], s["elo1"]) == (0.0, 10.0)
    assert s["lower"] == pytest.approx(-2.944439, abs=1e-6)
    assert s["upper"] == pytest.approx(2.944439, abs=1e-6)
    assert s["verdict"] in ("H0", "H1", "continue")
    text = run("--agents", "random", "greedy", "--games", "4", "--sprt", "0", "10").stdout
    assert "SPRT" in text and "LLR" in text


def test_out_file_mismatch_exit_2(tmp_path):
    out = tmp_path / "r.jsonl"
    assert run("--agents", "random", "greedy", "--games", "2", "--out", str(out)).exit_code == 0
    before = out.read_text(encoding="utf-8")
    for args in (["--agents", "random", "greedy", "--games", "2", "--seed", "1"],
                 ["--agents", "greedy", "random", "--games", "2"],
                 ["--agents", "random", "greedy", "--games", "4"],
                 ["--agents", "random", "greedy", "--games", "2", "--variant", "first-game"]):
        result = run(*args, "--out", str(out))
        assert result.exit_code == 2, args
        assert "another tournament" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert out.read_text(encoding="utf-8") == before  # untouched

    # a file that is not a results file is never overwritten
    other = tmp_path / "position.json"
    other.write_text(arle_ai.new_game(seed=0).to_json(), encoding="utf-8")
    text = other.read_text(encoding="utf-8")
    result = run("--agents", "random", "greedy", "--games", "2", "--out", str(other))
    assert result.exit_code == 2
    assert "not" in result.stderr
    assert other.read_text(encoding="utf-8") == text


def test_three_agents_rating_table(tmp_path):
    out = tmp_path / "rr.jsonl"
    args = ["--agents", "random", "greedy", "mcts:iterations=20", "--games", "2",
            "--out", str(out)]
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "Ratings (maximum-likelihood Elo, mean 0" in result.stdout
    for pair in ("random vs greedy", "random vs mcts:iterations=20",
                 "greedy vs mcts:iterations=20"):
        assert pair in result.stdout
    summary = run_json(*args)
    assert len(summary["pairings"]) == 3
    ratings = summary["ratings"]
    assert sorted(r["agent"] for r in ratings) == ["greedy", "mcts:iterations=20", "random"]
    assert all(r["games"] == 4 for r in ratings)
    assert sum(r["rating"] for r in ratings) == pytest.approx(0.0, abs=1e-6)
    assert [r["rating"] for r in ratings] == sorted((r["rating"] for r in ratings), reverse=True)
    _, games = read_out(out)
    assert len(games) == 6


def test_records_in_the_out_file_replay(tmp_path):
    out = tmp_path / "r.jsonl"
    result = run("--agents", "random", "greedy", "--games", "4", "--workers", "2",
                 "--variant", "first-game", "--out", str(out))
    assert result.exit_code == 0, result.output
    _, games = read_out(out)
    assert len(games) == 4
    for g in games:
        rec = load_record(g)
        final = rec.final_state()
        assert final.is_terminal()
        assert final.scores() == g["meta"]["scores"]
        assert final.winner() == g["meta"]["winner"]
        assert rec.setup == {"seed": g["meta"]["setup_seed"], "variant": "first-game"}
        assert rec.players == g["meta"]["agents"]
        assert rec.meta["game"] == g["meta"]["game"]
        assert rec.start.start_player == g["meta"]["start_player"]
        # the line is the record itself: written out again it is the same
        assert rec.to_dict() == g


def test_resume_edge_cases_of_the_file(tmp_path):
    args = ["--agents", "random", "greedy", "--games", "2"]
    full = tmp_path / "full.jsonl"
    whole = run_json(*args, "--out", str(full))
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)

    # a header only (interrupted before the first game ended): all games are played
    head = tmp_path / "head.jsonl"
    head.write_text(lines[0], encoding="utf-8")
    assert run_json(*args, "--out", str(head)) == whole
    assert by_game(read_out(head)[1]) == by_game(read_out(full)[1])

    # a last game written in full but for its newline: kept, and the next line starts anew
    nonl = tmp_path / "nonl.jsonl"
    nonl.write_text(lines[0] + lines[1].rstrip("\n"), encoding="utf-8")
    result = run(*args, "--out", str(nonl), "--json")
    assert result.exit_code == 0, result.output
    assert "1 of 2" in result.stderr
    assert json.loads(result.stdout) == whole
    assert by_game(read_out(nonl)[1]) == by_game(read_out(full)[1])

    # another tool's JSON-lines file with a cut-off end: refused, not truncated
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"a": 1}\n{"b": 2}\n{"c": ', encoding="utf-8")
    result = run(*args, "--out", str(foreign))
    assert result.exit_code == 2
    assert "not a selfplay results file" in result.stderr
    assert foreign.read_text(encoding="utf-8") == '{"a": 1}\n{"b": 2}\n{"c": '

    # a game line that belongs to another plan
    forged = tmp_path / "forged.jsonl"
    game = json.loads(lines[1])
    game["meta"]["setup_seed"] += 1
    forged.write_text(lines[0] + json.dumps(game) + "\n", encoding="utf-8")
    result = run(*args, "--out", str(forged))
    assert result.exit_code == 2
    assert "does not match this tournament (setup_seed)" in result.stderr


def test_a_parallel_run_ignores_ctrl_c_only_while_it_starts_its_workers(monkeypatch):
    # sigint_ignored drops a Ctrl-C that arrives within it; around every later submission it
    # made a run deaf to Ctrl-C now and then (the CI's Ctrl-C test saw exit 0, all games played)
    from contextlib import contextmanager

    from arle_ai.base import procs

    real = procs.sigint_ignored
    entered = []

    @contextmanager
    def counted():
        entered.append(1)
        with real():
            yield

    monkeypatch.setattr(procs, "sigint_ignored", counted)
    results = Tournament(["random", "greedy"], 10, seed=3).run(workers=2)
    assert len(results) == 10  # 6 of them submitted after the first 4
    assert len(entered) == 1  # the first submissions alone, which start the workers
