"""Printed names (arle_ai.text.names) and the printed action labels of the notation."""

from __future__ import annotations

import random
import re

import pytest

import arle_ai
from arle_ai.engine import rules
from arle_ai.text import names
from arle_ai.text.answers import parse_action
from arle_ai.text.notation import action_label, action_to_string


def test_printed_names_come_from_rules():
    for a in rules.ACTION_SPACES:
        assert names.space(a.key) == a.name
    for b in rules.BUILDINGS:
        assert names.building(b.key) == b.name
    assert names.space("winter_grocer", qualified=True) == "Grocer (winter)"
    assert names.space("tanner", qualified=True) == "Tanner"
    assert names.count(2, "horse") == "2 horses"
    assert names.count(-1, "summer_wear", signed=True) == "-1 summer wear"
    assert names.count(1, "stalls") == "1 stall"


@pytest.mark.parametrize("kind", list(names.KINDS))
def test_every_key_and_printed_name_finds_its_thing(kind):
    keys, _ = names.KINDS[kind]
    for key in keys:
        assert names.find(key, kind) == key
        assert names.find(names.name(kind, key).upper(), kind) == key


def test_find_explains_unknown_and_ambiguous_names():
    with pytest.raises(names.NameError_, match="no building is called 'Castle'"):
        names.find("Castle", "building")
    with pytest.raises(names.NameError_, match="more than one space"):
        names.find("Grocer", "space")
    assert names.find("builders merchant") == "builders_merchant"
    assert {k for k, _ in names.matches("wood trader")} == {"space", "building"}


def _states(games: int = 12, every: int = 4):
    for g in range(games):
        rng = random.Random(g)
        s = arle_ai.new_game(seed=g)
        step = 0
        while not s.is_terminal():
            if step % every == 0:
                yield s
            s = s.copy()
            s.apply(rng.choice(s.legal_actions()))
            step += 1


def test_printed_labels_round_trip_through_notation():
    checked = 0
    for s in _states():
        for a in s.legal_actions():
            label = action_label(s, a)
            assert parse_action(s, label) == a, (label, s.pending)
            assert parse_action(s, label.upper()) == a
            assert parse_action(s, action_to_string(s, a)) == a
            checked += 1
    assert checked > 2_000


def test_printed_space_names_as_input():
    s = arle_ai.new_game(seed=0)  # summer
    assert action_to_string(s, parse_action(s, "place Carpenter")) == "place summer_carpenter"
    assert (action_to_string(s, parse_action(s, "place Carpenter (special)"))
            == "place winter_carpenter (special)")
    assert (action_to_string(s, parse_action(s, "place carpenter (winter)"))
            == "place winter_carpenter (special)")
    assert action_to_string(s, parse_action(s, "place builders merchant")).startswith(
        "place builders_merchant")
    assert action_label(s, parse_action(s, "place peat_boatman")) == "place Peat Boatman (special)"


def test_costs_in_words_are_written_once_for_info_and_the_browser():
    assert names.cost(rules.building("mill").cost) == "1 timber + either 8 flax or 8 grain"
    assert names.cost(rules.building("textile_house").cost) == (
        "1 brick + 2 clothing of different kinds")
    assert names.amounts((("horse", 2), ("grain", 1))) == "2 horses, 1 grain"


def test_a_breeding_choice_reads_as_the_animals_born():
    rng = random.Random(3)
    seen = 0
    for seed in range(40):
        s = arle_ai.new_game(seed=seed)
        while not s.is_terminal() and seen < 30:
            if s.pending == "breed":
                for a in s.legal_actions():
                    text, label = action_to_string(s, a), action_label(s, a)
                    born = [int(n) for n in re.findall(r"\+(\d+)", text)]
                    assert label == "breed nothing" if not any(born) else (
                        label.startswith("breed +") and "+0" not in label), (text, label)
                    assert parse_action(s, label) == a and parse_action(s, text) == a
                    seen += 1
            s.apply(rng.choice(s.legal_actions()))
    assert seen >= 30
