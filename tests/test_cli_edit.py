"""``arle edit``: each answer checked when it is given, in the player's words; ``back`` to the
previous question with the answers kept; the buildings on the game board; ``arle new
--list-buildings``."""

from __future__ import annotations

import json

from click.testing import CliRunner

import arle_ai
from arle_ai.text import names
from arle_cli import edit_cmd
from arle_cli.main import cli


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


class Table:
    """A person answering the dialogue: ``answers`` are (start of a question, answer) in the
    order they are typed; a question that the next answer is not for gets Enter (keep what
    is there). ``asked`` records the questions in the order they came."""

    def __init__(self, answers: list[tuple[str, str]]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def prompt(self, text: str, **_: object) -> str:
        self.asked.append(text)
        if self.answers and text.startswith(self.answers[0][0]):
            return self.answers.pop(0)[1]
        return ""


def edit(tmp_path, monkeypatch, answers: list[tuple[str, str]], seed: int = 0):
    table = Table(list(answers))
    monkeypatch.setattr(edit_cmd.click, "prompt", table.prompt)
    out = tmp_path / "table.json"
    result = run("edit", "--seed", str(seed), str(out))
    return result, table, out


def refused(output: str) -> list[str]:
    """The 'not accepted' messages, their wrapped lines joined."""
    said: list[str] = []
    more = False
    for line in output.splitlines():
        if "not accepted: " in line:
            said.append(line.split("not accepted: ")[1])
            more = True
        elif more and line.startswith("    "):
            said[-1] += " " + line.strip()
        else:
            more = False
    return said


def test_back_returns_to_the_previous_question_with_the_answers_kept(tmp_path, monkeypatch):
    result, table, out = edit(tmp_path, monkeypatch, [
        ("half-year", "back"),                      # the first question: nowhere to go back
        ("half-year", "5"),
        ("start player", "1"),
        ("workers on the action spaces", "back"),   # to the start player, which shows 1
        ("start player", ""),                       # Enter keeps 1
        ("P0 home board", "stalls 2 moors 2"),
        ("P0 dehydrated moors", "4"),
        ("P0 buildings", "back"),                   # to the moors, then on again
        ("P0 dehydrated moors", ""),
    ])
    assert result.exit_code == 0, result.output
    assert "this is the first question" in result.output
    asked = [q.split(" (")[0].split(" [")[0].split("\n")[0] for q in table.asked]
    assert asked[:7] == ["half-year", "half-year", "start player",
                         "workers on the action spaces", "start player",
                         "workers on the action spaces",
                         "workers placed or passed so far this half-year"]
    assert table.asked[4] == "start player (0 or 1) [1]"  # the answer given is kept
    moors = [q for q in table.asked if q.startswith("P0 dehydrated moors")]
    assert len(moors) == 2 and "now: 4" in moors[1]
    d = json.loads(out.read_text())
    assert (d["half_year"], d["start_player"]) == (5, 1)
    home = d["players"][0]["home"]
    assert (home["stalls"], home["dehydrated_moors"], home["hydrated_moors"]) == (2, [4], 2)


def test_too_many_tiles_are_refused_at_the_home_board_question_in_the_players_words(
        tmp_path, monkeypatch):
    result, table, out = edit(tmp_path, monkeypatch, [
        ("P1 home board", "stalls 2 forests 2 grain fields 1 flax fields 1"),
        ("P1 home board", "dikes 1 stalls 2 forests 2 grain fields 1 flax fields 1"),
    ])
    assert result.exit_code == 0, result.output
    # 6 tiles and the boardwalk on the 6 land spaces of a board without dikes
    assert refused(result.output) == [
        "P1 has 6 tiles and the boardwalk for 6 land spaces; move a dike or remove a tile"]
    home = json.loads(out.read_text())["players"][1]["home"]
    assert (home["dikes"], home["forests"]) == (1, 2)  # a dike opens a row of 3


def test_buildings_that_need_more_land_are_refused_at_the_buildings_question(
        tmp_path, monkeypatch):
    result, table, out = edit(tmp_path, monkeypatch, [
        ("P0 home board", "stalls 2 forests 1"),     # 5 tiles and the boardwalk: 0 free
        ("P0 buildings", "Mill"),
        ("P0 buildings", "back"),
        ("P0 dehydrated moors", "back"),
        ("P0 home board", "dikes 1"),
        ("P0 buildings", "Mill, Joinery"),
    ])
    assert result.exit_code == 0, result.output
    assert refused(result.output) == [
        "P0 has 5 tiles, the boardwalk and 1 building for 6 land spaces; leave out a "
        "building or type 'back' to move a dike or remove a tile"]
    d = json.loads(out.read_text())
    assert d["players"][0]["home"]["buildings"] == ["mill", "joinery"]
    assert "mill" not in d["buildings_on_board"] and "mill" in d["setup"]["buildings"]


def test_dehydrated_moors_that_leave_too_little_land_are_refused(tmp_path, monkeypatch):
    result, table, out = edit(tmp_path, monkeypatch, [
        ("P0 home board", "moors 0 stalls 3 forests 3"),   # 3 moors gone: 12 land spaces
        ("P0 dehydrated moors", "4 4 4"),                  # all three back: 6
        ("P0 dehydrated moors", "4"),                      # two gone: 10 for 9 tiles
    ])
    assert result.exit_code == 0, result.output
    assert refused(result.output) == [
        "P0 has 8 tiles and the boardwalk for 6 land spaces; name fewer dehydrated moors (a "
        "moor gone frees 2 land spaces) or type 'back' to change the tiles"]
    home = json.loads(out.read_text())["players"][0]["home"]
    assert (home["hydrated_moors"], home["dehydrated_moors"]) == (0, [4])


def test_animals_are_asked_after_the_stalls_that_house_them(tmp_path, monkeypatch):
    result, table, out = edit(tmp_path, monkeypatch, [
        ("P0 home board", "stalls 3"),
        ("P0 animals", "sheep 9 cattle 3"),
    ])
    assert result.exit_code == 0, result.output
    assert refused(result.output) == []
    assert json.loads(out.read_text())["players"][0]["animals"] == {
        "sheep": 9, "cattle": 3, "horse": 1}
    order = [q.split(" ")[1] for q in table.asked if q.startswith("P0 ")]
    assert order.index("home") < order.index("buildings") < order.index("animals")


def test_a_building_the_seed_did_not_deal_takes_a_place_and_the_board_is_asked_last(
        tmp_path, monkeypatch):
    # seed 0 deals Colonists' House, Carpenter's Workshop, Loading Station and Wood Trader
    # onto the 4 green spaces; the table's game has Novice's Hut and Farmer's House
    result, table, out = edit(tmp_path, monkeypatch, [
        ("P0 buildings", "Novice's Hut"),
        ("P1 buildings", "Mill, Novices Hut"),             # P0's
        ("P1 buildings", "Farmer's House"),
        ("buildings on the game board", "Mill"),           # far too few
        ("buildings on the game board", "+Mill"),          # on it already
        ("buildings on the game board", "-Village Church, +Cooperage"),
        ("buildings on the game board", "-Smithy, +Cooperage"),
    ])
    assert result.exit_code == 0, result.output
    assert table.asked[-1].startswith("buildings on the game board")
    notes = " ".join(line.strip() for line in result.output.splitlines()
                     if "note:" in line or line.startswith("    "))
    assert ("note: Novice's Hut was not dealt: it takes the place of Wood Trader on the game "
            "board (the last question asks for the board's buildings)") in notes
    said = refused(result.output)
    assert said[0] == "Novice's Hut is P0's (each building exists once)"
    assert said[1].startswith("0 green on the board and 2 built make 2, the board has 4 "
                              "green spaces; 0 yellow on the board make 0, the board has 2 "
                              "yellow spaces; 1 orange on the board make 1, the board has 6")
    assert said[2] == "Mill is on the game board already"
    assert said[3] == ("3 yellow on the board make 3, the board has 2 yellow spaces; 2 red on "
                       "the board make 2, the board has 3 red spaces (each space holds a "
                       "building until it is built)")
    assert len(said) == 4
    d = json.loads(out.read_text())
    assert d["players"][0]["home"]["buildings"] == ["novices_hut"]
    assert d["players"][1]["home"]["buildings"] == ["farmers_house"]
    on_board = set(d["buildings_on_board"])
    assert {"cooperage", "smokehouse"} <= on_board and "smithy" not in on_board
    assert not {"wood_trader", "loading_station", "novices_hut"} & on_board
    assert set(d["setup"]["buildings"]) == on_board | {"novices_hut", "farmers_house"}
    arle_ai.GameState.from_dict(d)  # a valid position


def test_changes_to_the_board_name_buildings_that_are_not_there(tmp_path, monkeypatch):
    result, table, out = edit(tmp_path, monkeypatch, [
        ("buildings on the game board", "-Cooperage"),
        ("buildings on the game board", "P0 Mill"),
    ])
    assert result.exit_code == 0, result.output
    assert refused(result.output) == ["Cooperage is not on the game board now",
                                      "no building is called 'P0 Mill'"]


def test_new_lists_the_buildings_a_seed_deals(tmp_path):
    result = run("new", "--seed", "7", "--list-buildings")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "buildings dealt by seed 7 (standard), by the game board's spaces:",
        "  green (4): Weaving Parlor, Colonists' House, Carpenter's Workshop, Wood Trader",
        "  yellow (2): Smokehouse, Cooperage",
        "  orange (6): Mill, Weaving Mill, Textile House, Saddlery, Joinery,",
        "      Waterfront House",
        "  blue (3): Potter's Inn, Junk Dealer's Inn, Sluice Yard Inn",
        "  red (3): Village Church, Lutetsburg Castle, Berum Castle",
    ]
    dealt = arle_ai.new_game(seed=7).to_dict()["setup"]["buildings"]
    assert all(names.building(b) in result.output for b in dealt)
    first = run("new", "--variant", "first-game", "--list-buildings").output
    assert "green (4): Farmer's House, Plow Maker's Workshop, Novice's Hut, Workshop" in first
    both = run("new", "--list-buildings", "-o", str(tmp_path / "x.json"))
    assert both.exit_code == 2 and "--list-buildings writes no position" in both.output
    assert not (tmp_path / "x.json").exists()


def test_the_transcript_in_the_docs_is_real_output(tmp_path, monkeypatch):
    """docs/edit-transcript.md: its answers, typed again, give the same output."""
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "edit-transcript.md").read_text()
    shown = page.split("```console\n")[1].split("```")[0]
    new_part, edit_part = shown.split("$ arle edit table.json\n")
    answers = []
    for line in edit_part.splitlines():
        if "> " in line and not line.startswith(" "):  # a prompt and what was typed after it
            answers.append(line.split("> ", 1)[1])
    monkeypatch.chdir(tmp_path)
    new = run("new", "--seed", "7", "--half-year", "4", "-o", "table.json")
    assert "$ arle new --seed 7 --half-year 4 -o table.json\n" + new.output == new_part
    result = run("edit", "table.json", input="\n".join(answers) + "\n")
    assert result.exit_code == 0
    assert result.output == edit_part
