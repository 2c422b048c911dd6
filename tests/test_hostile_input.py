"""Hostile input found by fuzzing (issue 14): every malformed record, position, typed move or
option is one clear error line (exit 2, no traceback), and no game in progress is lost."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.base.errors import PositionError
from arle_ai.formats.position import load_position
from arle_ai.formats.records import GameRecord, RecordError, load_record, record_from_dict
from arle_cli.main import cli
from helpers import assert_bad_input

BOM = "\ufeff"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture(scope="module")
def finished_record() -> dict:
    rec = GameRecord.new(seed=4)
    state = rec.start.copy()
    rng = random.Random(1)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        rec.actions.append(action)
    return rec.to_dict()


def write(tmp_path, name: str, data) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


# ---- 1. arle play: typed input, and the game is saved whatever happens ----


@pytest.mark.parametrize("typed", ["\u00b2", "\u0663", "7" * 5000, "+" + "0" * 30 + "1x"],
                         ids=["superscript", "arabic-indic", "5000-digits", "zeros"])
def test_play_refuses_non_ascii_or_huge_numbers_and_keeps_the_game(tmp_path, typed):
    out = tmp_path / "g.json"
    result = run("play", "--ai", "random", "--seed", "3", "--out", str(out),
                 input=f"5\n2\n{typed}\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "illegal move" in result.output
    assert len(load_record(out).actions) >= 2


def test_play_saves_the_game_before_reporting_an_unexpected_error(tmp_path, monkeypatch):
    import arle_cli.play_cmd as play_cmd

    calls = []

    def broken(state, text):
        calls.append(text)
        if len(calls) == 3:
            raise RuntimeError("boom")
        return (state.legal_actions()[0],)

    monkeypatch.setattr(play_cmd, "parse_answer", broken)
    out = tmp_path / "g.json"
    result = run("play", "--ai", "random", "--seed", "3", "--out", str(out), input="1\n" * 10)
    line = assert_bad_input(result, "RuntimeError", "boom", str(out))
    assert "saved" in line
    assert len(load_record(out).actions) >= 2


# ---- 2. malformed records and positions: PositionError/RecordError naming the field ----


@pytest.mark.parametrize("scores", [["x", 1], [None, None], [{}, 2], [10**400, 1], [True, 1]],
                         ids=["str", "null", "object", "huge", "bool"])
def test_non_numeric_result_scores_are_a_record_error(finished_record, scores):
    data = json.loads(json.dumps(finished_record))
    data["result"]["scores"] = scores
    with pytest.raises(RecordError, match="result.scores"):
        record_from_dict(data)


def test_deep_nesting_and_huge_literals_are_position_errors():
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(PositionError, match="nested too deeply"):
        arle_ai.GameState.from_json(deep)
    with pytest.raises(PositionError, match="nested too deeply"):
        load_position('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(RecordError, match="nested too deeply"):
        load_record('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(PositionError, match="digits"):
        arle_ai.GameState.from_json('{"half_year": ' + "9" * 5000 + "}")


def _start() -> dict:
    return arle_ai.new_game(0).to_dict()


def _with(path: tuple, value) -> dict:
    d = _start()
    target = d
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return d


@pytest.mark.parametrize("path, value, field", [
    (("pending",), [{"kind": ["turn"]}], "pending[0].kind"),
    (("pending",), [{"kind": {"turn": 1}}], "pending[0].kind"),
    (("players", 0, "home", "dehydrated_moors"), [2, "3"], "dehydrated_moors"),
    (("players", 0, "home", "dehydrated_moors"), [[1], 2], "dehydrated_moors"),
    (("players", 0, "goods", "food"), 10**5000, "goods.food"),
    (("setup", "seed"), 2**63, "setup.seed"),
], ids=["kind-list", "kind-dict", "moor-str", "moor-list", "food-huge", "seed-2**63"])
def test_wrongly_typed_fields_are_position_errors(path, value, field):
    with pytest.raises(PositionError, match=field.replace("[", r"\[").replace("]", r"\]")):
        arle_ai.GameState.from_dict(_with(path, value))


@pytest.mark.parametrize("command", ["show", "suggest", "analyze", "play"])
@pytest.mark.parametrize("case", ["scores", "deep", "bigint", "kind", "moors"])
def test_every_command_gives_one_line_on_a_malformed_file(tmp_path, finished_record, command,
                                                          case):
    if case == "scores":
        data = json.loads(json.dumps(finished_record))
        data["result"]["scores"] = ["x", 1]
        text, word = json.dumps(data), "result.scores"
    elif case == "deep":
        text, word = "[" * 100_000 + "]" * 100_000, "nested too deeply"
    elif case == "bigint":
        text, word = '{"half_year": ' + "9" * 5000 + "}", "digits"
    elif case == "kind":
        text, word = json.dumps(_with(("pending",), [{"kind": ["turn"]}])), "pending[0].kind"
    else:
        text = json.dumps(_with(("players", 0, "home", "dehydrated_moors"), [2, "3"]))
        word = "dehydrated_moors"
    if command == "analyze" and case in ("kind", "moors"):
        word = "game record"  # analyze takes records only
    path = write(tmp_path, "bad.json", text)
    result = run(command, path, input="quit\n")
    assert_bad_input(result, word)


# ---- 6. play --ply never cuts a record silently ----


def test_play_at_an_earlier_ply_does_not_cut_the_record_silently(tmp_path, finished_record):
    path = write(tmp_path, "game.json", finished_record)
    before = (tmp_path / "game.json").read_text()
    result = run("play", path, "--ply", "5", "--ai", "random", input="quit\n")
    assert_bad_input(result, "--ply 5", "170 decisions", "--out", "--overwrite")
    assert (tmp_path / "game.json").read_text() == before

    other = tmp_path / "other.json"
    result = run("play", path, "--ply", "5", "--ai", "random", "--out", str(other),
                 input="quit\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "game.json").read_text() == before
    assert load_record(other).actions[:5] == load_record(path).actions[:5]

    result = run("play", path, "--ply", "5", "--ai", "random", "--overwrite", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "replacing those 170 decisions" in result.output
    assert len(load_record(path).actions) < 170


def test_a_new_game_does_not_overwrite_an_earlier_one_under_the_default_name(tmp_path,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arle-game-3.json").write_text("keep me")
    result = run("play", "--ai", "random", "--seed", "3", input="quit\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "arle-game-3.json").read_text() == "keep me"
    assert "saved to arle-game-3-2.json" in result.output
    load_record(tmp_path / "arle-game-3-2.json")


# ---- 7. smaller items ----


@pytest.mark.parametrize("args, words", [
    (["suggest", "--bogus"], ["arle suggest", "--bogus", "arle suggest --help"]),
    (["nosuch"], ["nosuch"]),
    (["new", "--seed", "x"], ["--seed", "'x'"]),
    (["selfplay", "--agents", "random"], ["--games"]),
])
def test_click_usage_errors_are_one_line(args, words):
    result = run(*args)
    line = assert_bad_input(result, *words)
    assert "Usage:" not in result.output, line


def test_a_utf8_byte_order_mark_is_accepted(tmp_path, finished_record):
    position = arle_ai.new_game(2).to_json()
    pos_path = write(tmp_path, "pos.json", BOM + position)
    rec_path = write(tmp_path, "rec.json", BOM + json.dumps(finished_record))
    assert arle_ai.GameState.from_json(BOM + position) == arle_ai.new_game(2)
    assert load_position(pos_path) == arle_ai.new_game(2)
    assert load_position(BOM + position) == arle_ai.new_game(2)
    assert len(load_record(rec_path).actions) == len(finished_record["moves"])
    assert run("show", pos_path).exit_code == 0
    assert run("show", rec_path).exit_code == 0
    assert run("analyze", rec_path, "--iterations", "1", "--player", "0").exit_code == 0


@pytest.mark.parametrize("seed", [2**63, 2**64 + 5, -1, 10**5000],
                         ids=["2**63", "2**64+5", "-1", "10**5000"])
def test_out_of_range_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed must be an integer in 0.."):
        arle_ai.new_game(seed=seed)
    assert arle_ai.new_game(seed=2**63 - 1).seed == 2**63 - 1


def test_cli_refuses_out_of_range_seeds():
    assert_bad_input(run("new", "--seed", str(2**63)), "seed")
