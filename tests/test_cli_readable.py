"""The CLI speaks the game's language (issue 15): effects after each turn, the inventorying
step by step, questions and menus with costs, both seats at the keyboard, undo of a whole
turn, the log, info and list, and suggestions with who moves and a legend."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.engine import rules
from arle_ai.formats.records import load_record
from arle_ai.text import decisions
from arle_cli.main import cli
from helpers import assert_no_traceback


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert_no_traceback(result)
    return result


def test_a_human_turn_prints_its_effect_and_the_menu_its_costs(tmp_path):
    out = tmp_path / "g.json"
    result = run("play", "--ai", "random", "--out", str(out), input="place Woodcutter\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Your turn: place a worker on an action space, or pass" in result.output
    assert "Woodcutter  [+3 wood]" in result.output
    assert "You: Woodcutter [+3 wood]" in result.output
    assert any(line.startswith("AI: ") for line in result.output.splitlines())


def test_both_seats_at_the_keyboard_play_a_whole_game_saved_and_replayed(tmp_path):
    out = tmp_path / "table.json"
    result = run("play", "--ai", "human", "--seed", "3", "--out", str(out), input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "both players at the keyboard" in result.output
    assert "game over: score" in result.output
    assert "-- end of half-year 1 (summer): inventorying --" in result.output
    assert "-- half-year 1 over: P0 " in result.output
    assert "; half-year 2 (winter) begins --" in result.output
    # the last half-year ends the game: no tenth begins, nor the ninth again
    last = [line for line in result.output.splitlines() if line.startswith("-- half-year 9 over")]
    assert len(last) == 1 and last[0].endswith("; the game is over --"), last
    assert "half-year 9 (summer) begins" not in result.output.split("-- half-year 9 over")[1]
    assert " feeding: " in result.output
    rec = load_record(out)
    assert rec.players == ["human", "human"]
    s = rec.start.copy()
    for a in rec.actions:  # every decision was move 1 of its menu, for either player
        assert a == s.legal_actions()[0]
        s.apply(a)
    assert s.is_terminal() and s == rec.final_state()


def test_undo_takes_back_the_last_decision_and_log_tells_the_game(tmp_path):
    out = tmp_path / "g.json"
    typed = "place Woodcutter\nplace Wool Weaver\n1\nundo\nlog\nundo\nquit\n"
    result = run("play", "--ai", "human", "--out", str(out), input=typed)
    assert result.exit_code == 0, result.output
    assert "P1 - Wool Weaver: how much wool do you turn into woolen? (0-2)" in result.output
    # undo says what it took back: the count given at the Wool Weaver as the question lists
    # it (the turn as it was told, its more and stop together); the worker stays there
    assert ("undone, taken back:\n  P1: Wool Weaver, 1 wool into 1 woolen [-1 wool, +1 woolen "
            "(+1 VP)]\nback to decision 2, in the middle of that turn (P1: Wool Weaver so far)"
            ) in result.output
    assert "log\nP0: Woodcutter [+3 wood]\nP1 (0-2, help)> " in result.output
    # the next undo takes back the worker placed: the turn is gone
    assert ("undone, taken back:\n  P1: Wool Weaver (unfinished)\nback to the start of that "
            "turn (decision 1)") in result.output
    rec = load_record(out)
    assert rec.moves() == ["place woodcutter"]
    # what was taken back is kept beside the game, as the page keeps every line tried
    assert [v.actions for v in rec.variations] == [rec.line(0)[1:]]
    assert len(rec.line(0)) == 4  # the Wool Weaver, and the count 1: more, then stop


def test_a_conversion_is_asked_as_a_count_and_zero_says_it_converted_nothing(tmp_path):
    # issue 34: the Tanner asked "once more? 1. stop 2. once more" before any conversion,
    # and 1 (stop) ended the action having converted nothing
    import json

    from helpers import position

    pos = tmp_path / "tanner.json"
    pos.write_text(json.dumps(position({"goods": {"hide": 3, "leather": 0}}, half_year=2)))
    out = tmp_path / "g.json"
    result = run("play", str(pos), "--ai", "human", "--out", str(out),
                 input="Tanner\n1\nundo\nstop\nquit\n")
    assert result.exit_code == 0, result.output
    assert "P0 - Tanner: how many hides do you turn into leather? (0-3)" in result.output
    assert "  0. none\n  1. 1 hide into 1 leather  [-1 hide, +1 leather (+1 VP)]" in result.output
    # the count as the question lists it (was "Tanner, once")
    assert ("P0 (0-3, help)> 1\nP0: Tanner, 1 hide into 1 leather [-1 hide, +1 leather (+1 VP)]"
            in result.output)
    # undo took the count back whole; 'stop' (the engine's word) is the count 0
    assert "P0 (0-3, help)> stop\nP0: Tanner, converted nothing" in result.output
    assert load_record(out).moves() == ["place tanner", "stop"]


def test_pass_is_explained_where_it_is_offered(tmp_path):
    result = run("show", "--moves")
    assert "1. pass  [the worker does nothing]" in result.output
    info = run("info", "pass")
    assert info.exit_code == 0 and info.output.startswith("pass (a move at your turn)")
    assert "without acting" in info.output
    assert "'arle info pass'" in run("play", "--ai", "human", "--out", str(tmp_path / "g.json"),
                                     input="help\nquit\n").output


def test_hint_names_who_moves_in_the_continuation(tmp_path):
    result = run("play", "--ai", "human", "--hint-iterations", "300",
                 "--out", str(tmp_path / "g.json"), input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "300 simulations" in result.output
    assert "continuation (who moves)" in result.output
    assert " P1: " in result.output


def test_suggest_table_has_printed_names_value_and_a_legend():
    result = run("suggest", "--iterations", "400", "--seed", "1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("P0, your turn: place a worker")
    assert lines[0].endswith("(player 0 to decide)")
    header = next(ln for ln in lines if ln.lstrip().startswith("#  move"))
    assert "value" in header and "win%" not in header
    assert "_" not in "\n".join(lines[3:8])
    assert "a ranking score, not a chance to win" in result.output
    assert "~: as good as the best: measured" in result.output


@pytest.mark.parametrize("players", [2, 1])
def test_the_continuations_heading_sits_where_the_continuations_are(monkeypatch, tmp_path,
                                                                    players):
    """Where the continuations go on the lines under their rows (80 columns, the opening's
    long names), so does their heading, on the line under the others (it made the header 85
    columns wide); where they go on their rows, it heads the column they start in."""
    position = tmp_path / "p.json"
    position.write_text(arle_ai.new_game(2, players=players).to_json())
    args = ("suggest", str(position), "--iterations", "400", "--seed", "1")
    monkeypatch.setenv("COLUMNS", "80" if players == 2 else "60")
    lines = run(*args).output.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("#  move"))
    assert "continuation" not in lines[at]
    assert lines[at + 1].startswith("     continuation") and lines[at + 3].startswith("     ")
    assert max(map(len, lines)) <= 80
    monkeypatch.setenv("COLUMNS", "140")
    lines = run(*args).output.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("#  move"))
    column = lines[at].index("continuation")
    row = lines[at + 1]
    assert row.lstrip().startswith("1  ") and row[column - 1] == " " and row[column] != " "


def test_info_prints_cost_vp_and_ability_by_printed_name_or_key():
    b = rules.building("farmers_house")
    for name in ("Farmer's House", "farmers_house", "FARMERS HOUSE"):
        result = run("info", name)
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Farmer's House (building, key farmers_house)")
        assert b.ability in result.output and "cost: 1 grain" in result.output
    both = run("info", "Grocer")
    assert "Grocer (summer)" in both.output and "Grocer (winter)" in both.output
    assert "Cut 1 peat, and take 1 animal" in both.output  # what the winter Grocer does
    for a in rules.ACTION_SPACES:  # every space says what it does, within 80 columns
        shown = run("info", a.key).output
        assert a.text and " ".join(a.text.split()) in " ".join(shown.split())
        assert max(map(len, shown.splitlines())) <= 80
    assert "Horse Cart (vehicle" in run("info", "horse cart").output
    assert "deliver 1 timber: 5 food" in run("info", "Bremen").output
    bad = run("info", "Castle")
    assert bad.exit_code == 2 and "no space, building" in bad.output


@pytest.mark.parametrize("kind, table", [("spaces", rules.ACTION_SPACES),
                                         ("buildings", rules.BUILDINGS),
                                         ("vehicles", rules.VEHICLES),
                                         ("destinations", rules.DESTINATIONS),
                                         ("tools", rules.TOOLS)])
def test_list_shows_every_name_and_key(kind, table):
    result = run("list", kind)
    assert result.exit_code == 0, result.output
    for item in table:
        assert any(item.name in ln and ln.rstrip().endswith(item.key)
                   for ln in result.output.splitlines())


def test_show_puts_the_players_side_by_side_when_wide():
    from arle_ai.text.display import describe_wide

    text = describe_wide(arle_ai.new_game(seed=0), 120)
    assert all(len(line) <= 120 for line in text.splitlines())
    assert any("Player 0" in ln and "Player 1" in ln for ln in text.splitlines())
    narrow = describe_wide(arle_ai.new_game(seed=0), 80)
    assert narrow == arle_ai.describe(arle_ai.new_game(seed=0), 80)
    assert max(map(len, narrow.splitlines())) <= 80  # one player under the other, wrapped
    assert narrow != arle_ai.describe(arle_ai.new_game(seed=0))  # at the default 100 columns
    assert max(map(len, arle_ai.describe(arle_ai.new_game(seed=0)).splitlines())) > 80


def test_the_menu_fits_80_columns_without_cutting_words():
    from arle_cli.play_cmd import format_menu

    s = arle_ai.new_game(seed=0)
    for _ in range(40):
        menu = format_menu(s, 80)
        for line in menu.splitlines():
            assert len(line) <= 80
        s.apply(s.legal_actions()[-1])


def test_long_menu_cells_wrap_instead_of_being_cut():
    from arle_ai.text.display import columns
    from arle_cli.play_cmd import format_menu

    long = "2. Fisherman (special)  [Fish Traps 3 -> 4 (+4 food, +1 sheep; +2 VP)]"
    others = [f"{i}. Some space with a name {i}" for i in range(3, 31)]  # two columns of 37
    lines = columns(["1. pass", long] + others, 80)
    assert all(len(line) <= 80 for line in lines) and not any("..." in ln for ln in lines)
    left = " ".join(line[:39].strip() for line in lines)  # the first column
    assert " ".join(long.split()) in " ".join(left.split())
    # A real menu: every word of every option is shown, none cut.
    s = arle_ai.new_game(seed=0)
    wrapped = 0
    while not s.is_terminal():
        menu = format_menu(s, 80)
        assert "..." not in menu and all(len(line) <= 80 for line in menu.splitlines())
        words = menu.split()
        options = decisions.how_many(s) or decisions.menu(s)  # a count's answers, or moves
        for o in options:
            shown = (o.label.removeprefix("place ") + (f"  [{o.effect}]" if o.effect else "")
                     ).split()
            assert all(w in words for w in shown), o
        wrapped += any(not re.match(r"\s*\d+\. ", ln) for ln in menu.splitlines())
        s.apply(s.legal_actions()[len(s.legal_actions()) // 2])
    assert wrapped  # some menu of the game had a cell longer than its column


def test_new_writes_no_pending_block_unless_asked_and_takes_quick_options(tmp_path):
    import json

    out = tmp_path / "p.json"
    assert run("new", "--half-year", "4", "--start-player", "1", "-o", str(out)).exit_code == 0
    d = json.loads(out.read_text())
    assert "pending" not in d and d["half_year"] == 4 and d["start_player"] == 1
    d["start_player"] = 0  # changing the start player by hand is safe without a pending block
    out.write_text(json.dumps(d))
    shown = run("show", str(out))
    assert shown.exit_code == 0 and "to decide: P0" in shown.output
    assert "pending" in json.loads(run("new", "--pending").output)
    again = run("new", "-o", str(out))  # an entered position is never replaced silently
    assert again.exit_code == 2 and "exists" in again.output and "--overwrite" in again.output
    assert json.loads(out.read_text())["start_player"] == 0
    replaced = run("new", "--overwrite", "-o", str(out))
    assert replaced.exit_code == 0 and f"written to {out}" in replaced.output
    assert json.loads(out.read_text())["half_year"] == 1


def test_position_files_accept_printed_names(tmp_path):
    import json

    d = arle_ai.new_game(seed=0).to_dict()
    d.pop("pending")
    keyed = arle_ai.GameState.from_dict(json.loads(json.dumps(d)))
    d["buildings_on_board"] = [rules.building(k).name for k in d["buildings_on_board"]]
    d["setup"]["buildings"] = [rules.building(k).name.upper() for k in d["setup"]["buildings"]]
    path = tmp_path / "named.json"
    path.write_text(json.dumps(d))
    from arle_ai.formats.position import load_position

    assert load_position(path) == keyed
    assert run("show", str(path)).exit_code == 0


def refusals(output: str) -> list[str]:
    """The 'not accepted' messages of an ``arle edit`` dialogue, each with its wrapped lines
    (indented by 4) joined."""
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


def assert_fits_80_columns(output: str) -> None:
    """Every line the tool printed fits 80 columns (the test runner echoes each typed answer
    after the prompt's '> ': that part is the user's, as is the file path)."""
    for line in output.splitlines():
        if line.startswith("written to "):
            continue
        printed = line.split("> ")[0] + "> " if "> " in line else line
        assert len(printed) <= 80, line


def test_edit_with_scripted_answers_writes_a_valid_position(tmp_path):
    out = tmp_path / "table.json"
    answers = "\n".join([
        "5", "1", "", "2",                          # half-year, start player, spaces, placed
        "stalls 1", "",                             # P0 home board, dehydrated moors
        "Farmer House", "-",                        # buildings: unknown name, then none
        "sheep 2 dragons 1", "horses",              # animals: a bad answer is asked again
        "sheep 2 cattle 1",
        "food 9 timber 2 summer wear 1",            # P0 goods
        "fish traps 3",
        "", "", "", "",                             # barn, loaded, travel, bottlenecks
        "", "", "Colonists' House", "",             # P1: keep, keep, a building, keep
        "grain 20", "grain 12",                     # goods: out of range, then fine
    ]) + "\n" * 7
    result = run("edit", str(out), input=answers)
    assert result.exit_code == 0, result.output
    assert "not accepted: no animal is called 'dragons'" in result.output
    assert "not accepted: no building is called 'Farmer House'" in result.output
    assert result.output.count("not accepted") == 4
    # the example of an unreadable answer is one of the question's kind
    assert "cannot read 'horses': write a name and a number, e.g. 'sheep 2'" in refusals(
        result.output)
    assert_fits_80_columns(result.output)
    state = arle_ai.GameState.from_json(out.read_text())
    d = state.to_dict()
    assert (d["half_year"], d["start_player"], d["workers_placed"]) == (5, 1, 2)
    p0, p1 = d["players"]
    assert p0["goods"]["timber"] == 2 and p0["goods"]["summer_wear"] == 1
    assert p0["animals"] == {"sheep": 2, "cattle": 1, "horse": 1}
    assert p0["tools"]["fish_traps"] == 3
    assert p1["goods"]["grain"] == 12 and p1["home"]["buildings"] == ["colonists_house"]
    assert "pending" not in out.read_text()


def test_edit_asks_for_workers_moors_vehicles_loads_travel_and_bottlenecks(tmp_path):
    out = tmp_path / "table.json"
    keep = ["", "", ""]
    answers = "\n".join([
        "6", "0",                                   # a winter half-year, start player 0
        "P0 Tanner, Grocer (summer); P1 Peat Boatman, Fisherman",  # one special only
        "P0 Tanner, Fisherman; P1 Peat Boatman, Grocer",  # Grocer: this season's (winter)
        "",                                         # workers placed: at least the 4 workers
        "stalls 1 moors 1 boardwalk 2",
        "4 2 1", "four", "4 2",                     # too many moors; unreadable; fine
        *keep,                                      # P0 buildings, animals, goods
        "",                                         # tools
        "handcart, spaceship", "handcart, Droshky, peat boats 2, plow",
        "woolen 2 wood 3", "wheat 1", "wood 1 linen 1, Hage",
        "Aurich, Dornum", "x", "1",                  # travel; bottlenecks: bad, then 1
        *keep, *keep,                               # P1 home board .. tools
        "wagon", "clay 2", "Norden", "",
        "",                                         # the buildings on the game board
    ]) + "\n"
    result = run("edit", str(out), input=answers)
    assert result.exit_code == 0, result.output
    said = refusals(result.output)
    assert said == [
        "only one worker per half-year may use the other season, not Grocer (summer) and "
        "Fisherman",
        "P0 has 3 moor tiles and 1 of them hydrated, so at most 2 are dehydrated; type 'back' "
        "to give fewer hydrated moors (e.g. 'moors 0')",
        "cannot read 'four': write the peat on each dehydrated moor, e.g. '4 2'",
        "no vehicle is called 'spaceship'; known: Peat Boat, Plow, Handcart, Wagon, Cart, "
        "Horse Cart, Carriage, Droshky",
        "the loaded items (wood 3, woolen 2) do not fit on the vehicles (Handcart, Droshky, "
        "2 peat boats, 1 plow)",
        "'wheat' cannot be loaded; goods that can: wood, clay, linen, woolen, leather, peat",
        "'x' is not a whole number",
    ], result.output
    assert_fits_80_columns(result.output)
    # a long question is wrapped between words, a quoted example is kept whole, what is there
    # now is on a line of its own, and the answer is typed on the next line
    assert ("P0 home board: tiles, dikes, hydrated moors, peat on the boardwalk (e.g.\n"
            "  'stalls 2 forests 1 dikes 3 moors 2 boardwalk 4')\n"
            "  now: hydrated moors 3, boardwalk peat 4, grain fields 1, flax fields 1,\n"
            "    stalls 1\n> ") in result.output
    assert "\nstart player (0 or 1) [0]> 0\n" in result.output  # a short one: one line
    d = arle_ai.GameState.from_json(out.read_text()).to_dict()
    assert d["occupied"] == {"tanner": 0, "fisherman": 0, "peat_boatman": 1,
                             "winter_grocer": 1}
    assert d["special_action_by"] == 0 and d["workers_placed"] == 4
    p0, p1 = d["players"]
    home = p0["home"]
    assert (home["hydrated_moors"], home["dehydrated_moors"], home["boardwalk_peat"]) == (
        1, [4, 2], 2)
    assert p0["barn"] == {"peat_boats": 2, "plows": 1, "vehicles": [
        {"kind": "handcart", "used": [0]}, {"kind": "droshky", "used": [0, 1]}]}
    assert (p0["loaded"]["wood"], p0["loaded"]["linen"], p0["loaded"]["destinations"]) == (
        1, 1, ["hage"])
    assert sorted(p0["travel"]) == ["aurich", "dornum"] and p0["bottlenecks"] == 1
    assert p1["barn"]["vehicles"] == [{"kind": "wagon", "used": [0, 1]}]
    assert p1["loaded"]["clay"] == 2 and p1["travel"] == ["norden"]


def test_suggest_marks_at_most_three_measured_moves_as_good():
    # issue 34: "~" stood beside every move of a few hundred simulations
    import arle_ai
    from arle_ai.search.result import ActionStats, SearchResult
    from arle_ai.text.reading import within_noise
    from arle_cli.suggest_cmd import format_report

    state = arle_ai.new_game(seed=0)
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    stats = [(40000, 0.600), (6000, 0.598), (5000, 0.592), (4000, 0.595), (3500, 0.597),
             (3500, 0.560), (300, 0.58), (250, 0.57), (200, 0.56)]
    moves = [ActionStats(rank=i + 1, action=state.parse_action(texts[i]), move=texts[i],
                         visits=n, win_rate=v, mean_margin=0.0, prior=0.0, pv=[texts[i]])
             for i, (n, v) in enumerate(stats)]
    report = SearchResult(player=0, pending=state.pending, moves=moves, iterations=63000,
                          time_taken=1.0)
    assert all(within_noise(0.6, 40000, v, n) for n, v in stats[1:5] + stats[6:])
    text = format_report(report, state, legend=False, width=200)
    rows = [ln for ln in text.splitlines()[3:] if ln[:3].strip().isdigit()]
    marked = [int(ln.split()[0]) for ln in rows if " ~ " in ln]
    assert marked == [2, 3, 4]  # measured and overlapping: the first 3 of ranks 2-5


def _at_the_tanners_question(tmp_path):
    """A position file at the Tanner's how-many question (3 hides), and its state."""
    import json

    from helpers import place, position
    from helpers import run as played

    state = played(position({"goods": {"hide": 3, "leather": 0}}, half_year=2), place("tanner"))
    path = tmp_path / "tanner.json"
    path.write_text(json.dumps(state.to_dict()))
    return path, state


def test_a_hints_rows_at_a_count_question_read_as_the_counts_they_make(tmp_path):
    # issue 34: at "how many hides do you turn into leather? (0-3)" the hint's table listed
    # "Tanner once more" and "stop", the engine's steps, not the counts the player chooses
    from arle_ai.search.result import ActionStats, SearchResult
    from arle_cli.suggest_cmd import format_report

    path, s = _at_the_tanners_question(tmp_path)
    answers = {c.count: c.label for c in decisions.how_many(s)}
    reply = "place fisherman (special)"
    lines = {"more": ["more", "more", "stop", reply], "stop": ["stop", reply]}
    moves = [ActionStats(rank=k + 1, action=s.parse_action(m), move=m, visits=3000 - 1000 * k,
                         win_rate=0.5, mean_margin=1.0 - k, prior=0.0, pv=lines[m])
             for k, m in enumerate(lines)]
    report = SearchResult(player=0, pending=s.pending, moves=moves, iterations=4000,
                          time_taken=1.0)
    table = format_report(report, s, legend=False, width=120).splitlines()
    # "more" reads as the count its line converts in all, "stop" as the count it stops at;
    # each row's continuation goes on after the count
    rows = [line for line in table if re.match(r"\s+\d\s", line)]
    assert rows[0].split()[:8] == ["1", "Tanner:", *answers[2].split(), "3000"], rows
    assert rows[0].endswith("P1: place Fisherman (special)"), rows
    assert rows[1].split()[:3] == ["2", "Tanner:", "none"], rows
    assert rows[1].endswith("P1: place Fisherman (special)"), rows
    assert not [x for x in table if "once more" in x or "stop" in x], table
    # arle suggest on the position: its rows and its why by the counts; --json keeps the
    # engine's moves ("more", "stop") and names each as a player reads it
    result = run("suggest", str(path), "--iterations", "400", "--no-legend")
    assert result.exit_code == 0, result.output
    assert "once more" not in result.output and " stop" not in result.output, result.output
    assert re.search(r"^\s+\d\s+Tanner: none\s", result.output, re.M), result.output
    result = run("suggest", str(path), "--iterations", "400", "--json")
    data = json.loads(result.output)
    labels = {m["move"]: m["label"] for m in data["moves"]}
    assert set(labels) == {"more", "stop"} and labels["stop"] == "Tanner: none"
    assert labels["more"] in {f"Tanner: {answers[n]}" for n in (1, 2, 3)}, labels
    # arle play's hint, the same table
    result = run("play", str(path), "--ai", "human", "--hint-iterations", "400", "--out",
                 str(tmp_path / "g.json"), input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    hint = result.output.split("P0 (0-3, help)> hint")[1]
    assert re.search(r"^\s+\d\s+Tanner: none\s", hint, re.M), hint
    assert "once more" not in hint, hint
