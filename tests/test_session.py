"""One game in progress (arle_ai.play.session) without a front end: moves by text or id, the
undo rule, redo and goto along the line, variations, the AI's and the hints' results on
their decisions, and the game written as a record and read back."""

from __future__ import annotations

import json
import random

import pytest

import arle_ai
from arle_ai.base.errors import IllegalActionError
from arle_ai.formats.records import GameRecord, load_record
from arle_ai.play.analysis import analyze_game
from arle_ai.play.session import AIChoice, Session, check_seats


def texts(game: Session, line: list[int] | None = None) -> list[str]:
    """The moves of ``line`` (node ids; default the session's line) in notation."""
    return [game.before(n).action_to_string(game.nodes[n].action)
            for n in (game.line if line is None else line)]


def leaves(game: Session) -> set[tuple[int, ...]]:
    """Every line of the tree, from the start to a node with no child, as its actions."""
    return {tuple(game.nodes[n].action for n in game.path(i))
            for i, node in enumerate(game.nodes) if not node.children}


def ai_replies(game: Session) -> None:
    """Play the first legal move for the AI seats until a human seat is to move."""
    while game.seats[game.state.current_player] == "ai":
        game.play(game.state.legal_actions()[0], ai=AIChoice("first", 0.0))


# ---- moves ----

def test_moves_by_text_or_id_each_with_what_it_did():
    game = Session.new(seed=2, seats=["human", "human"])
    grocer = game.state.parse_action("place summer_grocer")
    first = game.play(grocer)
    second = game.play("Good  TIMBER")  # its text, any case and spacing, as parse_action reads
    assert (first, second, game.cursor) == (1, 2, 2)
    assert texts(game) == ["place summer_grocer", "good timber"]
    assert game.played == game.actions == [grocer, game.nodes[second].action]
    node = game.nodes[second]
    assert node.steps[0].what == "move" and node.steps[-1].after == node.state
    assert node.steps[0].text().startswith("P0: ")
    assert game.before(second) == game.nodes[first].state


@pytest.mark.parametrize("move", ["place nowhere", 9999, "place summer_grocer", -1])
def test_an_illegal_move_changes_nothing(move):
    game = Session.new(seed=2, seats=["human", "human"])
    game.play("place summer_grocer")
    before = (game.state.key(), len(game.nodes), list(game.line), game.cursor)
    with pytest.raises(IllegalActionError):
        game.play(move)
    assert (game.state.key(), len(game.nodes), list(game.line), game.cursor) == before


# ---- undo and redo ----

def test_undo_takes_back_the_last_decision_at_the_keyboard_with_the_ai_replies():
    game = Session.new(seed=2)  # seats: human, ai
    game.play("place summer_grocer")
    game.play("good timber")  # a second decision of the same turn
    ai_replies(game)
    end = game.cursor
    assert end > 2 and game.nodes[game.node].ai == AIChoice("first", 0.0)
    game.undo()  # the good taken back, with the AI's turn; not the whole turn of the Grocer
    assert game.cursor == 1 and game.state.pending == "action:summer_grocer"
    game.redo()  # its inverse: on to the human's next decision
    assert game.cursor == end
    game.undo()
    game.undo()
    assert game.cursor == 0
    with pytest.raises(ValueError, match="nothing to undo: this is the start of the game"):
        game.undo()
    assert len(game.line) == end  # nothing was lost: redo replays the line
    while game.cursor < end:
        game.redo()
    with pytest.raises(ValueError, match="nothing to redo: this is the end of the line"):
        game.redo()


def test_undo_steps_one_decision_at_a_time_between_two_people():
    game = Session.new(seed=2, seats=["human", "human"])
    for _ in range(5):
        game.play(game.state.legal_actions()[-1])
    for ply in (4, 3, 2, 1, 0):
        game.undo()
        assert game.cursor == ply
    for ply in (1, 2, 3):
        game.redo()
        assert game.cursor == ply


def test_with_nobody_at_the_keyboard_a_step_is_one_decision():
    game = Session.new(seed=5, seats=["ai", "ai"])
    for _ in range(4):
        game.play(game.state.legal_actions()[0], ai=AIChoice("first", 0.0))
    game.undo()
    assert game.cursor == 3
    game.redo()
    assert game.cursor == 4


def test_undo_before_a_person_decided_goes_back_to_the_start():
    seats = ["human", "human"]
    seats[arle_ai.new_game(seed=1).current_player] = "ai"  # the AI starts
    game = Session.new(seed=1, seats=seats)
    ai_replies(game)  # the AI's opening turn
    opening = game.cursor
    assert opening >= 1
    game.undo()
    assert game.cursor == 0


# ---- variations ----

def _at_the_tanner(hides: int) -> Session:
    """P0 has placed a worker on the Tanner (W2) with ``hides`` hides: the count is asked."""
    from helpers import place, position

    game = Session(arle_ai.GameState.from_dict(position({"goods": {"hide": hides}},
                                                         half_year=2)),
                   seats=["human", "human"])
    game.play(place("tanner"))
    return game


def test_a_count_plays_its_conversions_and_undo_takes_the_count_back_whole():
    game = _at_the_tanner(3)
    assert game.state.pending == "action:tanner"
    nodes = game.play_count(2)
    assert texts(game)[1:] == ["more", "more", "stop"] and nodes == game.line[1:]
    assert game.state.current_player == 1  # the action is over
    assert game.state.to_dict()["players"][0]["goods"]["leather"] == 2
    game.undo()  # the count was one answer: back to the question, not into it
    assert game.cursor == 1 and game.state.pending == "action:tanner"
    game.redo()
    assert game.cursor == 4
    game.undo()
    nodes = game.play_count(0)  # nothing converted: the action ends, a variation beside
    assert texts(game)[1:] == ["stop"] and game.state.current_player == 1
    assert len(game.record().variations) == 1


def test_a_count_that_is_no_answer_changes_nothing():
    game = _at_the_tanner(1)
    for count in (2, -1, "1", None, True, 1.0):
        with pytest.raises(IllegalActionError):
            game.play_count(count)
        assert game.cursor == 1 and len(game.nodes) == 2
    game.play_count(1)  # the last hide: the engine ends the action itself (no stop)
    assert texts(game)[1:] == ["more"] and game.state.current_player == 1
    with pytest.raises(IllegalActionError, match="no count is asked"):
        game.play_count(0)


def test_a_move_at_the_cursor_follows_the_line_or_starts_a_variation():
    game = Session.new(seed=3, seats=["human", "human"])
    for _ in range(4):
        game.play(game.state.legal_actions()[0])
    line, played = list(game.line), texts(game)
    game.goto(1)
    game.play(game.state.parse_action(played[1]))  # the line's next move: the line goes on
    assert (game.line, game.cursor, len(game.nodes)) == (line, 2, 5)
    other = next(a for a in game.state.legal_actions() if a != game.actions[2])
    branch = game.play(other)  # another: a variation, which the line now follows
    assert game.line == line[:2] + [branch] and game.cursor == 3 and len(game.nodes) == 6
    assert game.nodes[line[1]].children == [line[2], branch]  # the game's own line first
    game.goto_node(line[3])  # back to the old line, on through it
    assert (game.line, game.cursor) == (line, 4)
    game.goto_node(branch)
    assert game.line == line[:2] + [branch]
    with pytest.raises(ValueError, match="ply 9 is outside 0..3"):
        game.goto(9)
    with pytest.raises(ValueError, match="node 6 is outside 0..5"):
        game.goto_node(6)


def test_the_record_keeps_the_line_and_every_variation_and_reads_back():
    rng = random.Random(4)
    game = Session.new(seed=4, seats=["human", "human"])
    for _ in range(10):
        game.play(rng.choice(game.state.legal_actions()))
    game.goto(3)
    for _ in range(4):  # a variation from decision 4...
        game.play(rng.choice(game.state.legal_actions()))
    game.goto(5)
    for _ in range(2):  # ...and one from within it
        game.play(rng.choice(game.state.legal_actions()))
    game.goto(1)
    game.play(next(a for a in game.state.legal_actions() if a != game.actions[1]))
    rec = game.record()
    assert rec.actions == game.actions and len(rec.variations) == 3
    assert {tuple(rec.line(v)) for v in (None, 0, 1, 2)} == leaves(game)
    again = Session.from_record(load_record(rec.to_json()), seats=["human", "human"])
    assert leaves(again) == leaves(game) and again.line == again.path(again.line[-1])
    assert again.record().to_dict() == rec.to_dict()
    assert again.cursor == len(again.line) == len(game.line)


def test_the_game_up_to_the_cursor_keeps_what_follows_as_a_variation():
    game = Session.new(seed=0, seats=["human", "ai"], players=2)
    game.play("place fisherman")
    ai_replies(game)
    end = game.cursor
    game.undo()
    rec = game.record(upto=game.cursor)
    assert rec.moves() == [] and rec.variations[0].ply == 0
    assert rec.line(0) == game.actions and len(game.actions) == end
    assert load_record(rec.to_json()).line(0) == game.actions


def test_players_setup_and_meta_go_to_the_record():
    rec = GameRecord.new(7, "first-game", players=["Ann", "Bob"], meta={"saved_by": "test"})
    rec.push("place woodcutter")
    game = Session.from_record(rec)
    assert (game.seats, game.players, game.cursor) == (["human", "ai"], ["Ann", "Bob"], 1)
    data = json.loads(game.record().to_json())
    assert data["setup"] == {"seed": 7, "variant": "first-game"}
    assert data["players"] == ["Ann", "Bob"] and data["meta"] == {"saved_by": "test"}
    assert "meta" not in Session.from_record(rec, meta={}).record().to_dict()
    position = Session(rec.final_state()).record().to_dict()
    assert "setup" not in position and position["position"] == rec.final_state().to_dict()


def test_a_finished_game_is_saved_with_its_result():
    game = Session.new(seed=6, seats=["ai", "ai"])
    while not game.state.is_terminal():
        game.play(game.state.legal_actions()[0])
    data = game.record().to_dict()
    assert data["result"]["scores"] == game.state.scores()
    with pytest.raises(IllegalActionError):
        game.play(0)


# ---- the account of the game ----

def test_the_game_told_again_says_what_undo_took_back():
    game = Session.new(seed=2, seats=["human", "human"])
    for move in ("place summer_grocer", "good timber", "place woodcutter"):
        game.play(move)
    told = game.narrator(("P0", "P1"))
    assert [line.text for line in told.lines] == [
        "P0: Grocer, good timber [+1 grain, +1 timber, +1 leather (+1.5 VP)]",
        "P1: Woodcutter [+3 wood]"]
    game.undo()
    again = game.narrator(("P0", "P1"))
    assert told.taken_back(again) == ["P1: Woodcutter [+3 wood]"]
    game.undo()  # into the Grocer's turn: it is told as it was, the rest is in progress
    last = game.narrator(("P0", "P1"))
    assert again.taken_back(last) == [told.lines[0].text]
    assert last.in_progress().text == "P0: Grocer" and last.lines == []


# ---- the searches on their decisions ----

def test_the_ai_choice_and_the_hints_stay_on_their_decisions():
    game = Session.new(seed=2)
    hint = arle_ai.suggest(game.state, iterations=40, seed=1)
    game.add_hint(hint)
    node = game.play(hint.best.action)
    assert game.nodes[0].hints == [hint] and game.nodes[node].ai is None
    reply = game.play(game.state.legal_actions()[0], ai=AIChoice("random", 0.25))
    assert game.nodes[reply].ai == AIChoice("random", 0.25)
    game.undo()  # the same move played again by the AI keeps its newest choice
    again = game.play(game.actions[1], ai=AIChoice("greedy", 0.5))
    assert again == reply and game.nodes[reply].ai == AIChoice("greedy", 0.5)


def test_the_review_belongs_to_the_decisions_the_line_shares_with_it():
    rec = GameRecord.new(seed=3)
    for _ in range(4):
        rec.push(rec.final_state().legal_actions()[0])
    rec.review = analyze_game(rec, iterations=20).to_review()
    reviewed = [d["ply"] for d in rec.review["decisions"]]
    game = Session.from_record(load_record(rec.to_json()), seats=["human", "human"])
    assert game.record().review["decisions"] == rec.review["decisions"]
    game.goto(2)
    game.play(next(a for a in game.state.legal_actions() if a != rec.actions[2]))
    assert game.shared(game.line) == 2
    kept = game.record().review["decisions"]
    assert [d["ply"] for d in kept] == [p for p in reviewed if p <= 2]
    load_record(game.record().to_json())  # checked against the moves: it still fits them
    game.goto_node(game.reviewed[-1])
    assert game.record().review["decisions"] == rec.review["decisions"]


# ---- seats ----

def test_seats_are_checked_and_a_solo_game_has_one():
    solo = Session.new(seed=1, players=1)
    assert (solo.seats, solo.players) == (["human"], ["player 0"])
    assert solo.record().setup == {"seed": 1, "variant": "standard", "players": 1}
    assert check_seats(["ai"], 1) == ["ai"]
    with pytest.raises(ValueError, match="seats of a solo game must be one of"):
        check_seats(["human", "ai"], 1)
    for bad in (["human"], ["human", "robot"], "human", None, ["ai", "ai", "ai"]):
        with pytest.raises(ValueError, match="seats must be two of"):
            check_seats(bad)
    with pytest.raises(ValueError, match="players: 1 names for a game of 2 players"):
        Session(arle_ai.new_game(seed=0), players=["me"])
