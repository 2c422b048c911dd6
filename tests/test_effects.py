"""Effects of moves in game terms (arle_ai.text.effects): exact texts for a few moves, the structure
for every action space and building, and the inventorying steps one by one."""

from __future__ import annotations

import random

import pytest

import arle_ai
from arle_ai.engine import rules
from arle_ai.text import effects, names

GREEN = ("light_green", "dark_green")


def _turn(state: arle_ai.GameState, first: int, rng: random.Random):
    """Play `first` and then random choices (other than stop) until the mover's turn is over;
    return the position before and the position after the turn (before any inventorying)."""
    before = state.copy()
    mover = state.current_player
    steps = effects.apply(state, first)
    end = steps[0].after
    while (len(steps) == 1 and not state.is_terminal() and state.current_player == mover
           and state.pending not in ("turn", "end_window", "final_window")):
        legal = state.legal_actions()
        doing = [a for a in legal if a != arle_ai.ACTION_LAYOUT["stop"]] or legal
        steps = effects.apply(state, rng.choice(doing))
        end = steps[0].after
    return before, end


def _check_structure(change: effects.PlayerChange, before, after, player: int) -> None:
    """The change is exactly the difference of the two positions, and its text names it."""
    a, b = before.to_dict()["players"][player], after.to_dict()["players"][player]
    for g in names.GOODS:
        assert change.goods.get(g, 0) == b["goods"][g] - a["goods"][g]
    for k in rules.ANIMALS:
        assert change.animals.get(k, 0) == b["animals"][k] - a["animals"][k]
    text = change.text()
    assert (text == "nothing") == change.is_empty()
    for g, n in change.goods.items():
        assert f"{n:+d} {names.thing(g)}" in text
    for k in change.buildings:
        assert f"built {names.building(k)}" in text
    for k, (x, y) in change.tools.items():
        assert f"{names.tool(k)} {x} -> {y}" in text
    assert "_" not in text


def test_exact_texts_of_a_few_moves():
    s = arle_ai.new_game(seed=0)
    assert effects.apply(s, s.parse_action("place Woodcutter"))[0].text() == "P0: +3 wood"
    s = arle_ai.new_game(seed=0)
    s.apply(s.parse_action("place Carpenter"))
    step = effects.apply(s, s.parse_action("tile stall"))[0]
    assert step.what == "move" and step.player == 0
    assert step.text(("You", "AI")) == "You: built a stall (-1 grain, -2 clay; +2 VP)"
    s = arle_ai.new_game(seed=0)
    s.apply(s.parse_action("place woodcutter"))
    assert effects.apply(s, s.parse_action("place Wool Weaver"))[0].text() == "nothing"
    assert effects.apply(s, s.parse_action("more"))[0].text() == "P1: -1 wool, +1 woolen (+1 VP)"


@pytest.mark.parametrize("space", [a.key for a in rules.ACTION_SPACES])
def test_every_action_space_is_described(space):
    rng = random.Random(space)
    seen = nonempty = 0
    for game in range(40):
        s = arle_ai.new_game(seed=game)
        while not s.is_terminal() and seen < 6:
            legal = s.legal_actions()
            place = [a for a in legal if s.action_to_string(a).split(" (")[0] == f"place {space}"]
            if s.pending == "turn" and place:
                player = s.current_player
                before, after = _turn(s, place[0], rng)
                change = effects.describe(before, after)[player]
                _check_structure(change, before, after, player)
                seen += 1
                nonempty += not change.is_empty()
            else:
                s.apply(rng.choice(legal))
        if seen >= 6:
            break
    assert seen >= 1, f"{space} was never played"
    assert nonempty >= 1, f"{space} never changed anything in {seen} turns"


def _with_building(key: str) -> arle_ai.GameState:
    """A summer position where player 0 (to move) is rich and `key` is on the board."""
    d = arle_ai.new_game(seed=0).to_dict()
    d.pop("pending")
    board = d["buildings_on_board"]
    colour = rules.building(key).colour
    if key not in board:
        same = [b for b in board if rules.building(b).colour == colour
                or (colour in GREEN and rules.building(b).colour in GREEN)]
        old = same[0]
        board[board.index(old)] = key
        d["setup"]["buildings"][d["setup"]["buildings"].index(old)] = key
    d["players"][0]["goods"].update(
        food=30, grain=15, flax=15, wool=15, hide=15, wood=20, timber=20, clay=20, brick=20,
        peat=10, linen=5, woolen=5, leather=10, summer_wear=2, winter_wear=2, leather_wear=2)
    return arle_ai.GameState.from_dict(d)


@pytest.mark.parametrize("key", [b.key for b in rules.BUILDINGS])
def test_every_building_is_described(key):
    s = _with_building(key)
    s.apply(s.parse_action("place builder"))
    before, after = _turn(s, s.parse_action(f"build {key}"), random.Random(key))
    change = effects.describe(before, after)[0]
    _check_structure(change, before, after, 0)
    assert change.buildings == [key]
    assert change.text().startswith(f"built {rules.building(key).name}")


def _end_of_summer() -> arle_ai.GameState:
    """The last worker of a summer: player 1 to pass; P0 has 2 sheep and 1 cattle, P1 nothing
    to eat or burn."""
    d = arle_ai.new_game(seed=0).to_dict()
    d.pop("pending")
    d["workers_placed"] = 7
    d["players"][0]["animals"] = {"sheep": 2, "cattle": 1, "horse": 0}
    d["players"][0]["home"]["stalls"] = 1
    d["players"][1]["goods"].update(food=0, grain=0, peat=0, wood=0, timber=0)
    d["players"][1]["animals"] = {"sheep": 0, "cattle": 0, "horse": 0}
    return arle_ai.GameState.from_dict(d)


def test_inventorying_steps_are_reported_one_by_one():
    s = _end_of_summer()
    steps = effects.apply(s, s.parse_action("pass"))
    lines = [(st.what, st.player, st.text()) for st in steps]
    assert lines == [
        ("move", 1, "nothing"),
        ("vehicles emptied", 0, "nothing"),
        ("milking", 0, "P0: +2 food (+1 VP)"),
        ("harvest", 0, "P0: +1 grain, +1 flax"),
        ("feeding", 0, "P0: -3 food, -2 peat (-1 VP)"),
        ("vehicles emptied", 1, "nothing"),
        ("milking", 1, "nothing"),
        ("harvest", 1, "P1: +1 grain, +1 flax"),
        ("feeding", 1, "P1: 4 bottlenecks (-1 grain; -8 VP)"),
        ("new half-year", None, "nothing"),
    ]
    assert s.half_year == 2 and steps[-1].after == s


def test_winter_steps_and_a_feeding_decision():
    rng = random.Random(5)
    names_seen: set[str] = set()
    s = arle_ai.new_game(seed=3)
    while not s.is_terminal():
        for st in effects.apply(s, rng.choice(s.legal_actions())):
            names_seen.add(st.what)
            for c in st.changed():
                assert "_" not in c.text()
    assert names_seen >= {"move", "vehicles emptied", "milking", "harvest", "feeding",
                          "breeding", "shearing", "new half-year"}


def test_apply_matches_plain_apply_and_refuses_illegal_moves():
    rng = random.Random(9)
    s = arle_ai.new_game(seed=9)
    t = s.copy()
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        s.apply(a)
        effects.apply(t, a)
        assert s == t
    u = arle_ai.new_game(seed=1)
    with pytest.raises(arle_ai.IllegalActionError):
        effects.apply(u, u.parse_action("place fisherman") + 10_000)
    assert u == arle_ai.new_game(seed=1)


def test_change_to_dict_is_json_ready():
    import json

    s = arle_ai.new_game(seed=0)
    step = effects.apply(s, s.parse_action("place woodcutter"))[0]
    data = json.loads(json.dumps(step.to_dict()))
    assert data["changes"][0]["goods"] == {"wood": 3}
    assert data["changes"][0]["text"] == "+3 wood"


def test_a_change_splits_into_what_is_paid_and_what_is_gained():
    s = arle_ai.new_game(seed=0)
    fisher = effects.apply(s.copy(), s.parse_action("place fisherman"))[0].changes[0]
    assert fisher.paid() == [] and fisher.gained() == ["3 food", "1 sheep"]
    assert fisher.phrases() == ["Fish Traps 2 -> 3"]
    change = effects.PlayerChange(player=0, goods={"clay": -2, "wood": 1},
                                  buildings=["farmers_house"])
    assert change.paid() == ["2 clay"]
    assert change.gained() == ["1 wood"]
    assert change.phrases() == [f"built {names.building('farmers_house')}"]
