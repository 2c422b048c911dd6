"""A game record is bounded and read without recursion (issue 35): a record beyond the caps
of docs/game-record.md is refused before any move is replayed (D2), a long chain of
variations is read, written and opened as a game (D5), and a review's figures are values in
0..1, VP within the bounds and players of the game (D12)."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from arle_ai.formats import records
from arle_ai.formats.records import (
    MAX_DECISIONS,
    MAX_REVIEW_VP,
    MAX_VARIATIONS,
    GameRecord,
    RecordError,
    Variation,
    load_record,
    record_from_dict,
)
from arle_ai.play import session as session_module
from arle_ai.play.analysis import GameAnalysis, analyze_game
from arle_ai.play.session import Session, TreeFullError
from arle_cli.main import cli
from helpers import assert_bad_input

CHAIN = 1500  # chained variations: a RecursionError at about 1,000


def game(seed: int, decisions: int, players: int = 2) -> GameRecord:
    rng = random.Random(seed)
    rec = GameRecord.new(seed=seed, players=["a", "b"][:players])
    for _ in range(decisions):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    return rec


def chained(length: int = CHAIN) -> dict:
    """A record whose variations each branch from the one before, one decision before its
    end, with another move there: a chain ``length`` variations deep."""
    rec = game(5, 20)
    before = rec.state_at(19)
    others = [a for a in before.legal_actions() if a != rec.actions[19]]
    for i in range(length):
        rec.variations.append(Variation(None if i == 0 else i - 1, 19,
                                        [others[i % len(others)]]))
    return json.loads(rec.to_json())


# ---- D5: a chain of variations ----


def test_a_long_chain_of_variations_is_read_written_and_opened():
    """1,500 chained variations (86 KB): RecursionError from GameRecord.line in arle show,
    arle analyze and the web (a 500)."""
    data = chained()
    rec = record_from_dict(data)
    assert len(rec.variations) == CHAIN
    last = rec.line(CHAIN - 1)
    assert last[:19] == rec.actions[:19] and last[19] == rec.variations[-1].actions[0]
    assert rec.lines()[-1] == last
    assert json.loads(rec.to_json())["variations"] == data["variations"]
    game = Session.from_record(rec)
    # every line is the game's first 19 decisions and another 20th: one node each
    others = {v.actions[0] for v in rec.variations}
    assert len(game.nodes) == 1 + 20 + len(others)
    again = record_from_dict(json.loads(game.record().to_json()))
    assert {tuple(line) for line in again.lines()} == {
        tuple(rec.actions[:19] + [a]) for a in others}


def test_a_variations_parent_must_come_before_it():
    rec = game(5, 6)
    rec.variations = [Variation(1, 2, [rec.actions[2]]), Variation(0, 2, [rec.actions[2]])]
    with pytest.raises(ValueError, match="variation 0's parent 1 is not an earlier"):
        rec.line(1)
    with pytest.raises(ValueError, match="variation 0's parent 1 is not an earlier"):
        rec.lines()


@pytest.mark.parametrize("command", ["show", "analyze"])
def test_the_cli_reads_a_long_chain_of_variations(tmp_path, command):
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(chained()))
    args = [command, str(path)] + (["--iterations", "10", "--player", "0"]
                                   if command == "analyze" else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


# ---- D2: the caps, before any replay ----


def test_a_record_beyond_the_variation_cap_is_refused_before_any_replay():
    data = json.loads(game(5, 4).to_json())
    # moves that would not replay: the cap is named, so nothing was replayed
    data["variations"] = [{"parent": None, "ply": 0, "moves": ["place nowhere"]}] * (
        MAX_VARIATIONS + 1)
    with pytest.raises(RecordError, match=f"the record holds {MAX_VARIATIONS + 1:,} "
                                          f"variations, more than the {MAX_VARIATIONS:,} a "
                                          f"record may keep"):
        record_from_dict(data)
    data["variations"] = data["variations"][:MAX_VARIATIONS]
    with pytest.raises(RecordError, match="place nowhere"):  # within the cap: replayed
        record_from_dict(data)


def test_a_record_beyond_the_decision_cap_is_refused_before_any_replay():
    data = json.loads(game(5, 4).to_json())
    data["variations"] = [{"parent": None, "ply": 0,
                           "moves": ["place nowhere"] * (MAX_DECISIONS // 2)}] * 2
    with pytest.raises(RecordError, match=f"the record holds {MAX_DECISIONS + 4:,} decisions "
                                          f"\\(its moves and its variations'\\), more than "
                                          f"the {MAX_DECISIONS:,}"):
        record_from_dict(data)
    data["moves"] = ["pass"] * (MAX_DECISIONS + 1)
    data.pop("variations")
    with pytest.raises(RecordError, match=f"{MAX_DECISIONS + 1:,} decisions"):
        record_from_dict(data)


def test_the_cli_refuses_a_record_beyond_the_caps_in_one_line(tmp_path):
    data = json.loads(game(5, 4).to_json())
    data["variations"] = [{"parent": None, "ply": 0, "moves": ["pass"]}] * (MAX_VARIATIONS + 1)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    assert_bad_input(CliRunner().invoke(cli, ["show", str(path)]), "a record may keep")


def test_a_game_in_progress_does_not_outgrow_a_record(monkeypatch):
    """What the session keeps can be saved and opened again: a move that would pass the
    caps is refused by name, the game unchanged."""
    monkeypatch.setattr(session_module, "MAX_DECISIONS", 6)
    monkeypatch.setattr(session_module, "MAX_VARIATIONS", 3)
    game = Session.new(seed=2, seats=["human", "human"])
    legal = game.state.legal_actions()
    for action in legal[:3]:  # two moves tried beside the first: 2 variations, room for
        game.play(action)      # one more when the game is written up to an earlier decision
        game.undo()
    with pytest.raises(TreeFullError, match="holds 2 variations, the most a game record keeps"):
        game.play(legal[3])
    game.play(legal[0])
    while len(game.nodes) - 1 < 6:
        game.play(game.state.legal_actions()[0])
    before = (len(game.nodes), list(game.line), game.cursor)
    with pytest.raises(TreeFullError, match="holds 6 decisions with its variations"):
        game.play(game.state.legal_actions()[0])
    assert (len(game.nodes), list(game.line), game.cursor) == before
    game.goto(1)
    monkeypatch.setattr(records, "MAX_DECISIONS", 6)
    monkeypatch.setattr(records, "MAX_VARIATIONS", 3)
    for upto in (None, 1):  # written whole or up to the cursor, it reads back
        again = load_record(game.record(upto).to_json())
        assert Session.from_record(again).record().to_dict()["moves"] == \
            game.record(upto).to_dict()["moves"]


# ---- D12: a review's figures ----


@pytest.fixture(scope="module")
def reviewed() -> dict:
    rec = game(3, 8)
    rec.review = analyze_game(rec, iterations=30).to_review()
    return json.loads(rec.to_json())


@pytest.fixture(scope="module")
def reviewed_solo() -> dict:
    rec = game(3, 8, players=1)
    rec.review = analyze_game(rec, iterations=30).to_review()
    return json.loads(rec.to_json())


@pytest.mark.parametrize("key, value, words", [
    ("value_lost", 1e308, "value_lost must be a value in 0..1, not 1e+308"),
    ("value_lost", -0.5, "value_lost must be a value in 0..1"),
    ("played_value", 1.01, "played_value must be a value in 0..1"),
    ("best_value", -1e-3, "best_value must be a value in 0..1"),
    ("vp_lost", 1e308, f"vp_lost must be VP in 0..{MAX_REVIEW_VP:g}"),
    ("vp_lost", -2.0, "vp_lost must be VP in 0.."),
    ("best_margin", -1e308, f"best_margin must be VP in -{MAX_REVIEW_VP:g}..{MAX_REVIEW_VP:g}"),
    ("played_margin", 1e6, "played_margin must be VP in"),
    ("why", {"by_category": {"animals": 1e308}}, "why.by_category.animals must be VP in"),
])
def test_review_figures_beyond_their_bounds_are_refused(reviewed, key, value, words):
    """value_lost 1e308 printed 'accuracy -inf%' and was a 500 on the web."""
    data = json.loads(json.dumps(reviewed))
    data["review"]["decisions"][0][key] = value
    with pytest.raises(RecordError) as err:
        record_from_dict(data)
    assert f"review.decisions[0].{words}" in str(err.value)


def test_a_review_names_the_player_who_decided(reviewed, reviewed_solo):
    """A player-1 decision was accepted in a solo review."""
    data = json.loads(json.dumps(reviewed_solo))
    record_from_dict(data)
    data["review"]["decisions"][0]["player"] = 1
    with pytest.raises(RecordError, match=r"review.decisions\[0\].player 1 is not the player "
                                          r"who made move \d+ \(player 0; a solo game has one"):
        record_from_dict(data)
    data = json.loads(json.dumps(reviewed))
    first = data["review"]["decisions"][0]
    first["player"] = 1 - first["player"]
    with pytest.raises(RecordError, match=r"player \d is not the player who made move"):
        record_from_dict(data)


def test_a_review_within_its_bounds_reads_and_its_accuracy_is_a_percentage(reviewed):
    data = json.loads(json.dumps(reviewed))
    d = data["review"]["decisions"][0]
    d.update(value_lost=1.0, played_value=0.0, best_value=1.0, vp_lost=MAX_REVIEW_VP,
             best_margin=MAX_REVIEW_VP, played_margin=-MAX_REVIEW_VP)
    rec = record_from_dict(data)
    analysis = GameAnalysis.from_review(rec.review)
    for player in (0, 1):
        accuracy = analysis.accuracy(player)
        assert accuracy is None or 0.0 <= accuracy <= 100.0
