"""A game record keeps the lines tried beside the game (variations) and the review of its
moves, and reads them back checked against the replay (docs/game-record.md)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from arle_ai.formats.records import (
    REVIEW_FIELDS,
    GameRecord,
    RecordError,
    Variation,
    load_record,
    record_from_dict,
)
from arle_ai.play.analysis import DecisionReview, GameAnalysis, analyze_game


@pytest.fixture(scope="module")
def reviewed() -> tuple[GameRecord, GameAnalysis]:
    rng = random.Random(1)
    rec = GameRecord.new(seed=3)
    for _ in range(12):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    return rec, analyze_game(rec, iterations=60)


def other_move(rec: GameRecord, line: list[int], ply: int) -> int:
    """A legal move after ``ply`` decisions of ``line`` other than the one played there."""
    s = rec.start.copy()
    for a in line[:ply]:
        s.apply(a)
    return next(a for a in s.legal_actions() if ply >= len(line) or a != line[ply])


def roundtrip(rec: GameRecord) -> GameRecord:
    return record_from_dict(json.loads(rec.to_json()))


def test_the_review_fields_are_the_decision_reviews():
    fields = {f.name: f for f in dataclasses.fields(DecisionReview)}
    del fields["players"]  # the record's, not each decision's
    assert set(REVIEW_FIELDS) == set(fields)
    for name, (_, required) in REVIEW_FIELDS.items():
        no_default = (fields[name].default is dataclasses.MISSING
                      and fields[name].default_factory is dataclasses.MISSING)
        assert required == no_default, name


def test_a_review_is_saved_and_read_back_with_the_record(reviewed):
    rec, analysis = reviewed
    rec = roundtrip(rec)
    assert rec.review is None and "review" not in rec.to_dict()
    rec.review = analysis.to_review()
    again = roundtrip(rec)
    back = GameAnalysis.from_review(again.review)
    assert back.to_dict(again) == analysis.to_dict(rec)
    assert [d.mark for d in back.decisions] == [d.mark for d in analysis.decisions]
    assert back.iterations == 60 and back.time_limit is None


def test_variations_nest_and_replay(reviewed):
    rec, _ = reviewed
    rec = roundtrip(rec)
    first = other_move(rec, rec.actions, 4)
    rec.variations.append(Variation(parent=None, ply=4, actions=[first]))
    line = rec.line(0)
    assert line == rec.actions[:4] + [first]
    second = other_move(rec, line, 5)
    rec.variations.append(Variation(parent=0, ply=5, actions=[second]))
    data = json.loads(rec.to_json())
    assert data["variations"][0]["parent"] is None and data["variations"][1]["parent"] == 0
    again = record_from_dict(data)
    assert again.line(1) == rec.actions[:4] + [first, second]
    assert again.actions == rec.actions


@pytest.mark.parametrize("change, message", [
    (lambda v: v.update(parent=3), "variations[0].parent must be null"),
    (lambda v: v.update(parent=0), "variations[0].parent must be null"),
    (lambda v: v.update(ply=99), "variations[0].ply must be the number of decisions of its "
                                 "parent line it follows, 0..12, not 99"),
    (lambda v: v.update(moves=[]), "variations[0].moves must hold at least one move"),
    (lambda v: v.update(moves="pass"), "'variations[0].moves' must be a list"),
    (lambda v: v.update(moves=["place nowhere"]), "variations[0] move 1 ('place nowhere')"),
])
def test_a_bad_variation_is_named(reviewed, change, message):
    rec, _ = reviewed
    data = json.loads(rec.to_json())
    variation = {"parent": None, "ply": 4,
                 "moves": [rec.start.copy().action_to_string(rec.actions[0])]}
    data["variations"] = [variation]
    with pytest.raises(RecordError):  # move 1 of the game, played after 4 decisions
        record_from_dict(data)
    variation["ply"] = 0
    record_from_dict(data)  # from the start: the game's own first move is fine
    change(variation)
    with pytest.raises(RecordError) as err:
        record_from_dict(data)
    assert message in str(err.value)


def review_data(reviewed) -> dict:
    rec, analysis = reviewed
    data = json.loads(rec.to_json())
    data["review"] = json.loads(json.dumps(analysis.to_review()))
    return data


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(decisions=5), "'review.decisions' must be a list"),
    (lambda r: r.update(iterations="many"), "review.iterations must be a number or null"),
    (lambda r: r["decisions"][0].pop("best_value"), "review.decisions[0].best_value is missing"),
    (lambda r: r["decisions"][0].update(value_lost="0.1"),
     "review.decisions[0].value_lost must be a number, not '0.1'"),
    (lambda r: r["decisions"][0].update(ply=True), "review.decisions[0].ply must be an integer"),
    (lambda r: r["decisions"][1].update(ply=r["decisions"][0]["ply"]),
     "review.decisions[1].ply must be a move of the record after the decision before"),
    (lambda r: r["decisions"][0].update(ply=40),
     "review.decisions[0].ply must be a move of the record"),
    (lambda r: r["decisions"][0].update(played="pass"), "review.decisions[0].played 'pass' is "
                                                        "not move"),
    (lambda r: r["decisions"][0].update(best="build mill"),
     "review.decisions[0].best 'build mill' is not a legal move there"),
    (lambda r: r["decisions"][0].update(near_best=[7]),
     "review.decisions[0].near_best must be a list of moves in notation"),
    (lambda r: r.update(decisions=[3]), "review.decisions[0] must be an object"),
    (lambda r: r["decisions"][0].update(unseparated=-2),
     "review.decisions[0].unseparated must be a whole number, 0 or more, not -2"),
])
def test_a_review_that_does_not_match_the_moves_is_named(reviewed, change, message):
    data = review_data(reviewed)
    record_from_dict(data)
    change(data["review"])
    with pytest.raises(RecordError) as err:
        load_record(json.dumps(data))
    assert message in str(err.value)


def test_a_newer_writers_keys_are_kept_and_ignored(reviewed):
    data = review_data(reviewed)
    data["review"]["decisions"][0]["hunch"] = {"animals": 1.5}
    rec = record_from_dict(data)
    assert rec.to_dict()["review"]["decisions"][0]["hunch"] == {"animals": 1.5}
    assert GameAnalysis.from_review(rec.review).decisions[0].ply == \
        data["review"]["decisions"][0]["ply"]


def test_taking_moves_back_drops_their_review(reviewed):
    rec = record_from_dict(review_data(reviewed))
    plies = [d["ply"] for d in rec.review["decisions"]]
    rec.pop()
    rec.pop()
    kept = [d["ply"] for d in rec.to_dict()["review"]["decisions"]]
    assert kept == [p for p in plies if p <= len(rec.actions)]
    roundtrip(rec)


def test_cutting_a_record_drops_the_variations_that_follow_the_moves_cut(reviewed):
    rec = roundtrip(reviewed[0])
    rec.variations.append(Variation(None, 2, [other_move(rec, rec.actions, 2)]))  # kept
    rec.variations.append(Variation(None, 8, [other_move(rec, rec.actions, 8)]))  # after the cut
    rec.variations.append(Variation(1, 9, [other_move(rec, rec.line(1), 9)]))  # from one cut
    rec.variations.append(Variation(0, 3, [other_move(rec, rec.line(0), 3)]))  # from one kept
    kept = [rec.line(0), rec.line(3)]
    rec.cut(6)
    assert len(rec.actions) == 6 and [v.parent for v in rec.variations] == [None, 0]
    assert [rec.line(0), rec.line(1)] == kept
    again = roundtrip(rec)  # written where they branch, so read back (the moves cut are gone)
    assert again.actions == rec.actions and [again.line(0), again.line(1)] == kept
    with pytest.raises(IndexError, match="outside 0..6"):
        rec.cut(7)
