"""The position entry (arle_ai.formats.entry) driven from lists of answers, without a
terminal: the dialogue arle edit prompts over (Enter, back, refusals, notes), and every
answer at once by question key as the browser's editor sends them."""

from __future__ import annotations

import time

import pytest

import arle_ai
from arle_ai.engine import rules
from arle_ai.formats.entry import MAX_ANSWER, Entry, enter, questions
from arle_ai.text import names
from arle_ai.web import board, view


def new(seed: int = 0, players: int = 2) -> dict:
    return arle_ai.new_game(seed=seed, players=players).to_dict()


def talk(entry: Entry, answers: list[str]) -> list[tuple[str, str, str]]:
    """(question key, outcome, message) for each answer, in order."""
    out = []
    for text in answers:
        key = entry.question.key
        reply = entry.reply(text)
        out.append((key, reply.outcome, reply.message or " ".join(reply.notes)))
    return out


def test_the_dialogue_from_a_list_of_answers():
    entry = Entry(new())
    said = talk(entry, [
        "back",                                      # nowhere to go back to
        "5",                                         # half-year
        "1",                                         # start player
        "P0 Fisherman; P1 Forester",                 # workers
        "",                                          # workers placed: kept (2)
        "stalls 2 forests 2 grain fields 1 flax fields 1",  # P0: too many tiles
        "dikes 1 moors 2 stalls 2 forests 2",
        "back",                                      # from the moors to the tiles
        "",                                          # kept
        "4",                                         # dehydrated moors
        "Farmer's House",                            # not dealt: takes a green place
    ])
    assert [(k, o) for k, o, _ in said] == [
        ("half_year", "first"), ("half_year", "accepted"), ("start_player", "accepted"),
        ("occupied", "accepted"), ("workers_placed", "kept"), ("p0.tiles", "refused"),
        ("p0.tiles", "accepted"), ("p0.moors", "back"), ("p0.tiles", "kept"),
        ("p0.moors", "accepted"), ("p0.buildings", "accepted")]
    assert said[5][2] == ("P0 has 6 tiles and the boardwalk for 6 land spaces; move a dike or "
                          "remove a tile")
    assert said[10][2].startswith("Farmer's House was not dealt: it takes the place of ")
    assert entry.question.key == "p0.animals" and entry.shown() == "horse 1"
    d = entry.position
    assert (d["half_year"], d["start_player"], d["workers_placed"]) == (5, 1, 2)
    assert d["occupied"] == {"fisherman": 0, "forester": 1}
    home = d["players"][0]["home"]
    assert (home["dikes"], home["stalls"], home["forests"], home["dehydrated_moors"]) == (
        1, 2, 2, [4])
    assert home["buildings"] == ["farmers_house"]
    assert "pending" not in d
    arle_ai.GameState.from_dict(d)  # every step is a valid position


def test_a_refused_answer_leaves_the_position_as_it_was():
    entry = Entry(new())
    before = entry.position
    for text in ("twenty", "0", "10", "  "):
        entry.index = 0
        reply = entry.reply(text)
        if text.strip():
            assert reply.outcome == "refused", text
            assert entry.position == before
    assert entry.reply("back").outcome == "back" and entry.index == 0


def test_the_solo_dialogue_enters_a_loaded_vehicle():
    entry = Entry(new(seed=4, players=1))
    keys = [q.key for q in entry.questions]
    assert "start_player" not in keys and not any(k.startswith("p1.") for k in keys)
    answers = {"half_year": "3", "occupied": "Fisherman, Colonist", "p0.barn":
               "handcart, cart, peat boats 1", "p0.loaded": "wood 1, clay 1, Hage"}
    for q in entry.questions:
        assert talk(entry, [answers.get(q.key, "")])[0][1] in ("accepted", "kept")
    assert entry.done
    player = entry.position["players"][0]
    assert [v["kind"] for v in player["barn"]["vehicles"]] == ["handcart", "cart"]
    assert player["barn"]["peat_boats"] == 1
    # the compartments the loads take are worked out: 2 of size 1 and Hage (size 2)
    assert sum(len(v["used"]) for v in player["barn"]["vehicles"]) == 3
    assert player["loaded"]["destinations"] == ["hage"]
    assert entry.position["occupied"] == {"fisherman": 0, "colonist": 0}


def test_loads_that_do_not_fit_are_refused_in_words():
    entry = Entry(new())
    entry.index = [q.key for q in entry.questions].index("p0.barn")
    assert entry.reply("handcart").outcome == "accepted"
    reply = entry.reply("wood 1 clay 1 linen 1")
    assert reply.outcome == "refused"
    assert reply.message == ("the loaded items (wood 1, clay 1, linen 1) do not fit on the "
                             "vehicles (Handcart)")


def test_every_answer_at_once_by_question_key():
    got = enter(new(), {"p0.goods": "grain 16, food 9", "p1.barn": "horse cart",
                        "p1.loaded": "Hage, wood 1", "p0.tools": "ovens 4"})
    assert set(got.refused) == {"p0.goods"}
    refusal = got.refused["p0.goods"]
    assert str(refusal) == "P0 grain: 16 is out of range 0..15"
    assert refusal.field == "players.0.goods.grain"  # the page outlines that input
    p0, p1 = got.position["players"]
    assert p0["goods"]["food"] == 5  # the refused answer changed nothing
    assert p0["tools"]["ovens"] == 4
    assert p1["barn"]["vehicles"] == [{"kind": "horse_cart", "used": [0, 1]}]
    with pytest.raises(KeyError, match="no question is called 'p2.goods'"):
        enter(new(), {"p2.goods": "food 1"})


def test_an_answer_that_needs_a_later_one_gets_in():
    """A building moved from P1 to P0: P0's answer is refused until P1's is in."""
    start = enter(new(), {"p1.buildings": "Mill"}).position
    assert start["players"][1]["home"]["buildings"] == ["mill"]
    board_now = [b for b in start["buildings_on_board"]]
    got = enter(start, {"p0.buildings": "Mill", "p1.buildings": "-",
                        "board": ", ".join(board_now)})
    assert got.refused == {}
    assert got.position["players"][0]["home"]["buildings"] == ["mill"]
    assert got.position["players"][1]["home"]["buildings"] == []
    assert got.position["buildings_on_board"] == board_now
    # and what cannot be is still refused, with the board's count
    got = enter(start, {"board": ", ".join([*board_now, "novices_hut"])})
    assert str(got.refused["board"]).startswith("5 green on the board make 5, the board has 4")


def test_hostile_answers_are_refused_quickly():
    entry = Entry(new())
    entry.index = [q.key for q in entry.questions].index("p0.barn")
    t = time.perf_counter()
    reply = entry.reply("handcart " + "9" * 60)
    assert reply.outcome == "refused" and reply.message.startswith(
        f"a barn holds at most {rules.MAX_VEHICLES} vehicles")
    reply = entry.reply("a" + " " * MAX_ANSWER)
    assert reply.outcome == "refused" and "at most" in reply.message
    assert time.perf_counter() - t < 5


def test_one_list_of_the_fields_a_home_board_has():
    fields = [f.field for f in names.HOME_FIELDS]
    home = new()["players"][0]["home"]
    assert set(fields) == {k for k, v in home.items() if isinstance(v, int)}
    assert {field for _, field in board.TILE_FIELDS} == set(names.TILES)
    assert [f["field"] for f in view.catalog()["home_fields"]] == fields
    for f in names.HOME_FIELDS:
        assert names.home_field(f.field) == f.field
        assert names.home_field(f.piece.replace("_", " ") + "s") == f.field
    # the page is told the questions of each game, in order
    entry = view.catalog()["entry"]
    assert [q["key"] for q in entry["1"]] == [q.key for q in questions(1)]
    assert [q["key"] for q in entry["2"]] == [q.key for q in questions(2)]
