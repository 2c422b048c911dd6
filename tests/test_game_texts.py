"""Game text shown to players says what the rules do (actions.md, core.md): the question of
each repeated conversion, and what ``arle info`` prints for goods, animals, tools and vehicles.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.engine import rules
from arle_ai.text import decisions
from arle_ai.text.decisions import NONE
from arle_cli.main import cli
from helpers import MORE, place, position, run


def _more_question(space: str, **goods: int) -> arle_ai.GameState:
    d = position({"goods": dict(goods)}, half_year=2 if space != "wool_weaver" else 1)
    return run(d, place(space))


@pytest.mark.parametrize("space,goods,asked,gets", [
    # W8 Potter: per pottery wheel 1 clay -> 3 food and 1 peat
    ("potter", {"clay": 2, "food": 0, "peat": 0},
     "how much clay do you turn into 3 food and 1 peat each? (0-2)",
     {"clay": 1, "food": 3, "peat": 1}),
    # W9 Baker: per oven 1 grain (flax) and 1 peat (wood) -> 6 food
    ("baker", {"grain": 1, "peat": 1, "food": 0},
     "how many times do you bake (turn 1 grain (or flax) and 1 peat (or wood) into 6 food)? "
     "(0-1)", {"grain": 0, "peat": 0, "food": 6}),
    ("tanner", {"hide": 1, "leather": 0}, "how many hides do you turn into leather? (0-1)",
     {"hide": 0, "leather": 1}),
    ("linen_weaver", {"flax": 1, "linen": 0}, "how much flax do you turn into linen? (0-1)",
     {"flax": 0, "linen": 1}),
    ("wool_weaver", {"wool": 1, "woolen": 0}, "how much wool do you turn into woolen? (0-1)",
     {"wool": 0, "woolen": 1}),
])
def test_a_repeated_conversion_is_asked_as_a_count(space, goods, asked, gets):
    # actions.md §1.4: "up to N times", zero included: one question, how many (0-N), not
    # "once more? stop / more" before the first conversion
    s = _more_question(space, **goods)
    assert MORE in s.legal_actions()
    assert decisions.question(s) == f"P0 - {rules.action_space(space).name}: {asked}"
    answers = decisions.how_many(s)
    assert answers is not None and answers[0].label == "none" and answers[0].effect == ""
    assert [c.count for c in answers] == list(range(len(answers)))
    one = s.copy()
    for a in answers[1].actions:
        one.apply(a)
    after = one.to_dict()["players"][0]["goods"]
    assert {k: after[k] for k in gets} == gets
    assert answers[1].change is not None and answers[1].change.goods == {
        k: v - goods.get(k, 0) for k, v in gets.items() if v != goods.get(k, 0)}


def test_each_count_makes_its_conversions_and_the_action_ends():
    s = _more_question("tanner", hide=5, leather=0)
    answers = decisions.how_many(s)
    assert answers is not None
    most = len(answers) - 1
    assert most == rules.tool("fleshing_beams").values[0]  # the beams, fewer than the hides
    for c in answers:
        after = s.copy()
        for a in c.actions:
            after.apply(a)
        # the turn passed to P1 whatever the count: the action is over, c hides converted
        assert after.current_player == 1 and after.pending == "turn"
        assert after.to_dict()["players"][0]["goods"]["leather"] == c.count
    assert decisions.how_many(arle_ai.new_game(seed=0)) is None


def test_only_repeated_conversions_have_a_more_text():
    # every space that can offer "more" has its words, and no other space has any
    offering = set()
    for space in (a.key for a in rules.ACTION_SPACES if a.season == "winter"
                  or a.key == "wool_weaver"):
        try:
            s = _more_question(space, clay=3, grain=3, peat=3, hide=3, flax=3, wool=3, food=10)
        except arle_ai.IllegalActionError:
            continue
        if s.current_player == 0 and MORE in s.legal_actions():
            offering.add(space)
    assert offering == set(decisions.MORE)


def _info(name: str) -> str:
    result = CliRunner().invoke(cli, ["info", name])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name,line", [
    ("wood", "good; no VP at the end"),
    ("clay", "good; no VP at the end"),
    ("peat", "good; no VP at the end"),
    ("grain", "on the goods track (at most 15); VP by its track position"),
    ("food", "on the goods track (at most 30)"),
    ("timber", "0.5 VP each at the end"),
    ("winter wear", "2.5 VP each at the end"),
    ("sheep", "at the end 2 VP per animal of your least kept type, 1 of the middle one, 0 of"),
    ("shovels", "values 3 / 4 / 5 / 6 (clay; dikes 1 / 2 / 2 / 3), VP 0 / 0 / 0 / 0"),
    ("carriage", "large barn piece, 4 VP, 3 loading spaces"),
    ("carriage", "cost: 4 wood, 2 horses"),
    ("handcart", "small barn piece, 0 VP, 1 loading space\n"),
    ("plow", "cost: 1 wood, 1 cattle or horse"),
    ("farmers house", "acts before each November inventorying (light green)"),
])
def test_info_lines_follow_the_rules(name, line):
    assert line in _info(name)


@pytest.mark.parametrize("space, half_year, asked, moves", [
    ("summer_grocer", 1, "which good or animal do you take?", None),  # S2: timber, brick, animal
    # S12: a building, or a stall for 2 clay and 1 grain
    ("summer_carpenter", 1, "which building do you build, or do you build a stall?",
     {"tile stall"}),
    # W14: upgrade a stall to a stable for 2 brick, or a stall for 2 clay and 1 grain
    ("winter_carpenter", 2, "do you upgrade a stall to a stable, or build a new stall?",
     {"flip stall", "tile stall"}),
    # S13 Forester: a forest, or a building; S5 Wood Trader: 4 wood, or a building
    ("forester", 1, "do you place a forest, or which building do you build?", {"tile forest"}),
    ("wood_trader", 1, "do you take 4 wood, or which building do you build?", {"good wood"}),
])
def test_a_choice_of_several_kinds_says_what_is_chosen(space, half_year, asked, moves):
    s = run(position({"goods": {"food": 9, "wood": 9, "clay": 9, "grain": 9, "brick": 9},
                      "home": {"stalls": 1}}, half_year=half_year), place(space))
    q = decisions.question(s)
    assert q == f"P0 - {rules.action_space(space).name}: {asked}", q
    assert "choose" not in q
    if moves is not None:  # the other moves are buildings
        texts = {s.action_to_string(a) for a in s.legal_actions()}
        assert moves <= texts and all(t.startswith("build ") for t in texts - moves), texts


def test_the_laborer_asks_for_a_vehicle_or_a_space_to_copy():
    s = arle_ai.new_game(seed=2)
    for move in ["place woodcutter", "place cattle_trader (special)", "animal cattle",
                 "place colonist", "place fisherman", "place summer_grocer", "animal cattle",
                 "place summer_laborer"]:
        s.apply(s.parse_action(move))
    kinds = {s.action_to_string(a).split()[0] for a in s.legal_actions()}
    assert {"vehicle", "imitate"} <= kinds
    assert decisions.question(s) == ("P1 - Laborer: which vehicle do you build, or which "
                                      "action space do you copy?")


ASKED = {  # the question at each of these steps, as seeded random games meet them
    "action:field": "placing a field: a grain field or a flax field? (or stop)",
    "action:farmers_inn": "Farmer's Inn: which field do you turn into a forest? (or stop)",
    "action:bakehouse": "Bakehouse: how many times do you pay 2 grain and 1 flax for 8 food? "
                        "(0-1)",
    "action:smithy": "Smithy: which vehicle do you swap for plows? (or stop)",
    "action:butcher": "Butcher: which animal do you slaughter? (or stop)",
    "action:farmer": "Farmer: which animal do you pay for a plow? (or stop)",
    "action:pay_building": "paying for the building: which good do you pay with?",
    "action:builders_merchant": "Builders' Merchant: which good do you take?",
    "action:give_animals": "handing over animals: which animal do you hand over?",
    "action:junk_dealer": "Junk Dealer's Inn: which vehicle do you take?",
}


def test_questions_say_what_the_chosen_thing_is_for():
    """Fields, the Bakehouse's exchange and what an animal, good or vehicle is chosen for:
    no bare "which tile?", "which animal?" or "go on?"."""
    import random

    asked = {}
    for seed in range(60):
        s, rng = arle_ai.new_game(seed=seed), random.Random(seed)
        while not s.is_terminal() and len(asked) < len(ASKED):
            if s.pending in ASKED and len(s.legal_actions()) > 1:
                asked.setdefault(s.pending, decisions.question(s).split(" - ", 1)[1])
            s.apply(rng.choice(s.legal_actions()))
    assert asked == ASKED


# ---- menu labels in the game's words; the notation is read as before ----

FLIP_LABELS = {
    "moor": "flip moor to dehydrated moor", "forest": "flip forest to park",
    "stall": "flip stall to depot", "stable": "flip stable to double stall",
    "peat_boat": "flip Peat Boat to Plow", "handcart": "flip Handcart to Wagon",
    "cart": "flip Cart to Horse Cart", "carriage": "flip Carriage to Droshky",
}


def _warden() -> arle_ai.GameState:
    """P0 at the Warden (S14) with one of every flippable tile and vehicle."""
    from helpers import veh
    d = position({"home": {"forests": 1, "stalls": 1, "stables": 1},
                  "barn": {"peat_boats": 1, "vehicles": veh("handcart", "cart", "carriage")}})
    return run(d, place("warden"))


def test_flip_labels_say_what_the_tile_becomes_and_the_engine_agrees():
    s = _warden()
    assert s.pending == "action:flip"
    menu = {o.notation: o for o in decisions.menu(s)}
    for target, label in FLIP_LABELS.items():
        option = menu[f"flip {target}"]  # the notation is unchanged
        assert option.label == label
        assert s.parse_action(f"flip {target}") == option.action == s.parse_action(label)
        # what the flip turns the target into is rules.FLIP_BACKS[target], as the label says
        after = s.copy()
        after.apply(option.action)
        back = rules.FLIP_BACKS[target]
        p0, p1 = s.to_dict()["players"][0], after.to_dict()["players"][0]
        if target in {v.key for v in rules.VEHICLES}:
            kinds = [v["kind"] for v in p1["barn"]["vehicles"]]
            if target == "peat_boat":
                assert (p1["barn"]["peat_boats"], p1["barn"]["plows"]) == (0, 1)
            else:
                assert back in kinds and target not in kinds
        elif target == "moor":
            assert p1["home"]["hydrated_moors"] == p0["home"]["hydrated_moors"] - 1
            assert len(p1["home"]["dehydrated_moors"]) == len(p0["home"]["dehydrated_moors"]) + 1
        else:
            plural = {"park": "parks", "depot": "depots", "double_stall": "double_stalls"}[back]
            assert p1["home"][plural] == p0["home"][plural] + 1


def test_the_winter_carpenter_upgrades_a_stall_to_a_stable():
    s = run(position({"goods": {"brick": 9, "clay": 9, "grain": 9}, "home": {"stalls": 1}},
                     half_year=2), place("winter_carpenter"))
    labels = {o.notation: o.label for o in decisions.menu(s)}
    assert labels["flip stall"] == "upgrade stall to stable"
    assert s.parse_action("flip stall") == s.parse_action("upgrade stall to stable")


def test_cut_labels_name_the_boardwalk_or_the_moor():
    d = position({"home": {"hydrated_moors": 1, "dehydrated_moors": [4, 2]}})
    s = run(d, place("peat_cutter"))
    assert s.pending == "action:cut"
    labels = {o.notation: o.label for o in decisions.menu(s)}
    assert labels == {"cut boardwalk": "cut 1 peat from the boardwalk",
                      "cut moor(4)": "cut 1 peat from a dehydrated moor with 4 peat",
                      "cut moor(2)": "cut 1 peat from a dehydrated moor with 2 peat"}
    for notation, label in labels.items():
        assert s.parse_action(notation) == s.parse_action(label)


def test_the_more_texts_read_the_rules_numbers():
    # the Baker's and Potter's questions carry the numbers of the rules tables, not copies
    (clay, n_clay), gives = rules.SPACE_EXCHANGES["potter"]
    food, peat = dict(gives)["food"], dict(gives)["peat"]
    assert decisions.MORE["potter"] == f"turn {n_clay} {clay} into {food} food and {peat} peat"
    assert decisions.MORE["baker"] == (f"turn {rules.BAKER_GRAIN} grain (or flax) and "
                                       f"{rules.BAKER_FUEL} peat (or wood) into "
                                       f"{rules.BAKER_FOOD} food")


# ---- the game's words: vehicles and compartments, repeats, breeding, moors (issue 28) ----


def _load_labels(barn: list[dict], goods: dict[str, int], loaded: int = 0) -> dict[str, str]:
    """The labels of loading wood and linen (the goods given) on the vehicles of ``barn``
    (``loaded``: wood already on them)."""
    d = position({"barn": {"peat_boats": 0, "plows": 0, "vehicles": barn},
                  "goods": goods, "animals": {"horse": 4}, "loaded": {"wood": loaded}})
    s = arle_ai.GameState.from_dict(d)
    return {o.notation: o.label for o in decisions.menu(s)
            if o.notation.startswith(("load wood", "load linen"))}


def test_loads_name_the_vehicle_and_the_compartments_in_spaces():
    # a Carriage (a single space and the bench) and a Droshky (single, bench, single): wood
    # takes one space (never a bench); linen (size 2) a bench, or two joined single spaces
    labels = _load_labels([{"kind": "carriage", "used": []}, {"kind": "droshky", "used": []}],
                          {"wood": 1, "linen": 1, "clay": 0})
    assert labels == {
        "load wood on carriage#0 at 0": "load wood on the Carriage (space 1 of 3)",
        "load wood on droshky#1 at 0": "load wood on the Droshky (space 1 of 4)",
        "load linen on carriage#0 at 1": "load linen on the Carriage (bench)",
        "load linen on droshky#1 at 1": "load linen on the Droshky (bench)",
    }


def test_loads_on_two_vehicles_of_a_kind_say_which_one():
    # two Carts, one with its first space loaded: the empty one, and the one with 1 of 3
    # spaces loaded (identical placements are offered once: mirror images)
    labels = _load_labels([{"kind": "cart", "used": [0]}, {"kind": "cart", "used": []}],
                          {"wood": 1, "clay": 0, "linen": 0}, loaded=1)
    assert labels == {  # the barn lists the empty one first
        "load wood on cart#0 at 0": "load wood on the empty Cart (space 1 of 3)",
        "load wood on cart#0 at 1": "load wood on the empty Cart (space 2 of 3)",
        "load wood on cart#1 at 1": "load wood on the Cart with 1 of 3 spaces loaded (space "
                                    "2 of 3)",
        "load wood on cart#1 at 2": "load wood on the Cart with 1 of 3 spaces loaded (space "
                                    "3 of 3)",
    }
    # a Handcart and a Wagon have no choice of place: the vehicle is enough
    assert set(_load_labels([{"kind": "wagon", "used": []}], {"wood": 1, "clay": 0,
                                                               "linen": 0}).values()) == {
        "load wood on the Wagon"}


def test_the_old_load_notation_is_still_read():
    d = position({"barn": {"peat_boats": 0, "plows": 0,
                           "vehicles": [{"kind": "carriage", "used": []}]},
                  "goods": {"linen": 1}, "animals": {"horse": 4}})
    s = arle_ai.GameState.from_dict(d)
    a = s.parse_action("load linen on carriage#0 at 1")
    assert s.parse_action("load linen on vehicle#0 at 1") == a
    assert s.parse_action("Load linen on the Carriage (bench)") == a
    assert s.action_to_string(a) == "load linen on carriage#0 at 1"  # notation unchanged


def test_more_is_named_by_what_it_repeats_and_a_turn_says_the_count_answered():
    from arle_ai.text.narration import Narrator
    from arle_ai.text.notation import action_label

    d = position({"goods": {"hide": 3, "leather": 0}}, half_year=2)
    s = arle_ai.GameState.from_dict(d)
    n = Narrator(("You", "AI"))
    n.play(s, place("tanner"))
    assert action_label(s, MORE) == "Tanner once more"
    answers = {c.count: c.label for c in decisions.how_many(s)}
    n.play(s, MORE)
    assert n.in_progress().text == f"You: Tanner, {answers[1]}"  # the count so far
    n.play(s, MORE)
    lines = n.play(s, rules.ACTION_LAYOUT["stop"])
    # the count as the question lists it (issue 34: was "Tanner, 2 times"); what the turn
    # did in brackets, as the menu shows it: no "- -2 hide"
    assert answers[2] == "2 hide into 2 leather"
    assert [line.text for line in lines] == [
        "You: Tanner, 2 hide into 2 leather [-2 hide, +2 leather (+2 VP)]"]


def test_a_conversion_of_nothing_says_so_and_a_loss_reads_without_a_double_minus():
    from arle_ai.text.narration import Narrator

    d = position({"goods": {"hide": 3, "leather": 0, "food": 5}}, half_year=2)
    s = arle_ai.GameState.from_dict(d)
    n = Narrator(("You", "AI"))
    n.play(s, place("tanner"))
    lines = n.play(s, rules.ACTION_LAYOUT["stop"])  # the count 0
    assert [line.text for line in lines] == ["You: Tanner, converted nothing"]
    n.play(s, place("peat_boatman"))  # the AI's turn
    n.play(s, place("wood_trader"))  # W10: pay 1 food, take 4 wood
    lines = n.play(s, s.parse_action("good wood"))
    assert [line.text for line in lines] == ["You: Wood Trader, good wood [-1 food, +4 wood]"]


def test_breeding_is_told_as_a_line_of_the_inventorying():
    from arle_ai.text.narration import Narrator

    for seed in range(40):  # a game that reaches a breeding decision
        s = arle_ai.new_game(seed=seed)
        n = Narrator(("You", "AI"))
        rng = random.Random(seed)
        while not s.is_terminal() and s.pending != "breed":
            n.play(s, rng.choice(s.legal_actions()))
        if s.pending == "breed":
            break
    assert s.pending == "breed"
    who = ("You", "AI")[s.current_player]
    plan = s.legal_actions()[-1]
    born = {a: n for a, n in zip(rules.ANIMALS, s.breeding_plans()[plan - rules.ACTION_LAYOUT[
        "breed"]], strict=True) if n}
    lines = [line.text for line in n.play(s, plan)]
    assert lines[0].startswith(f"  {who} breeding: ")
    assert not any(line.startswith(f"{who}: breed") for line in lines)
    for animal, k in born.items():
        word = "sheep" if animal == "sheep" else "cattle" if animal == "cattle" else "horse"
        assert f"+{k} {word}" in lines[0]
        # the newborns are not told again under shearing
        assert not any(f"{who} shearing" in line and f"+{k} {word}" in line
                       for line in lines[1:])


def test_moors_are_dehydrated_and_removed_and_a_dike_warden_flip_says_both():
    from arle_ai.text import effects

    d = position({"goods": {"food": 10}})
    s = run(d, place("colonist"))
    assert effects.describe(arle_ai.GameState.from_dict(d), s)[0].phrases() == [
        "dehydrated a moor"]
    d = position({"home": {"stalls": 1}}, half_year=2)
    s0 = arle_ai.GameState.from_dict(d)
    s = s0.copy()
    s.apply(place("dike_warden"))
    s.apply(s.parse_action("flip stall"))
    assert effects.describe(s0, s)[0].phrases() == ["built a dike", "turned a stall into a depot"]


@pytest.mark.parametrize("players", [2, 1])
def test_the_last_half_years_summary_says_the_game_is_over(players):
    from arle_ai.text.narration import Narrator

    s = arle_ai.new_game(seed=3, players=players)
    n = Narrator(("You", "AI")[:players])
    summaries = []
    while not s.is_terminal():
        summaries += [line.text for line in n.play(s, s.legal_actions()[0])
                      if line.text.startswith("-- half-year ")]
    assert len(summaries) == 9
    assert summaries[0].endswith("; half-year 2 (winter) begins --")
    assert summaries[-1].startswith("-- half-year 9 over: You ")
    assert summaries[-1].endswith("; the game is over --")  # was: "half-year 9 (summer) begins"


def test_a_line_through_a_count_says_its_answer_as_the_question_lists_it():
    # issue 34: a hint's line read "place Tanner, Tanner once more, Tanner once more, stop"
    from arle_ai.search.result import ActionStats, SearchResult
    from arle_ai.text import reading
    from arle_cli.suggest_cmd import format_report

    s = arle_ai.GameState.from_dict(position({"goods": {"hide": 3, "leather": 0}},
                                             half_year=2))
    at_tanner = run(position({"goods": {"hide": 3, "leather": 0}}, half_year=2),
                    place("tanner"))
    answers = {c.count: c.label for c in decisions.how_many(at_tanner)}
    line = ["place tanner", "more", "more", "stop", "place fisherman (special)"]
    assert reading.pv_text(s, line) == (
        f"P0: place Tanner, Tanner: {answers[2]} / P1: place Fisherman (special)")
    steps = reading.pv_steps(s, line)
    assert [step.moves for step in steps] == [("place tanner",), ("more", "more", "stop"),
                                              ("place fisherman (special)",)]
    # the count each step answers (the page's count button), none for any other move
    assert [step.count_answered for step in steps] == [None, 2, None]
    assert reading.printed_answer(at_tanner, "more", line[1:]) == (f"Tanner: {answers[2]}", 2)
    assert reading.printed_answer(at_tanner, "stop") == (f"Tanner: {NONE}", 0)
    assert reading.printed_answer(s, "place tanner") == ("place Tanner", None)
    # none converted; all three (the last "more" ends the action: no stop); a line cut
    # short counts the conversions it shows
    assert reading.pv_text(s, ["place tanner", "stop"]) == f"P0: place Tanner, Tanner: {NONE}"
    assert reading.pv_text(s, ["place tanner", "more", "more", "more"]) == (
        f"P0: place Tanner, Tanner: {answers[3]}")
    assert reading.pv_text(s, ["place tanner", "more"]) == (
        f"P0: place Tanner, Tanner: {answers[1]}")
    # arle suggest's (and arle play's hint's) continuation
    moves = [ActionStats(rank=1, action=s.parse_action(line[0]), move=line[0], visits=3000,
                         win_rate=0.55, mean_margin=2.0, prior=0.0, pv=line)]
    report = SearchResult(player=0, pending=s.pending, moves=moves, iterations=3000,
                          time_taken=1.0)
    text = format_report(report, s, legend=False, width=200)
    assert f"P0: Tanner: {answers[2]} / P1: place Fisherman (special)" in text
    assert "once more" not in text and "stop" not in text


def test_a_review_names_the_moves_at_a_count_question_by_their_counts():
    # issue 34: arle analyze and the page's review said "played Tanner once more, best stop"
    # where the player answered "how many hides?" with 2 and the search would convert none
    from arle_ai.formats.records import GameRecord
    from arle_ai.play.analysis import GameAnalysis
    from arle_cli.analyze_cmd import format_analysis

    s = arle_ai.GameState.from_dict(position({"goods": {"hide": 3, "leather": 0}},
                                             half_year=2))
    rec = GameRecord.from_position(s)
    for text in ("place tanner", "more", "more", "stop"):
        rec.push(rec.final_state().parse_action(text))
    at_tanner = rec.state_at(1)
    answers = {c.count: c.label for c in decisions.how_many(at_tanner)}
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": [{
        "ply": 2, "player": 0, "half_year": 2, "pending": at_tanner.pending, "played": "more",
        "best": "stop", "best_pv": ["stop", "place fisherman (special)"], "near_best": [],
        "best_visits": 40000, "played_visits": 40000, "played_value": 0.40,
        "best_value": 0.60, "value_lost": 0.2, "played_margin": -5.0, "best_margin": 1.0,
        "vp_lost": 6.0}]}
    analysis = GameAnalysis.from_review(rec.review)
    d = analysis.to_dict(rec)["decisions"][0]
    # the count the game's moves made from there, and the one the search's line makes
    assert d["played_label"] == f"Tanner: {answers[2]}" and d["best_label"] == "Tanner: none"
    # and the counts they answer (the page marks the count buttons by them)
    assert d["played_count"] == 2 and d["best_count"] == 0
    assert d["played"] == "more" and d["best"] == "stop"  # the record's notation kept
    text = format_analysis(analysis, ["P0", "P1"], rec, width=120)
    assert f"played Tanner: {answers[2]}, best Tanner: none" in text, text
    assert "once more" not in text, text
