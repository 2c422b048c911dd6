"""``arle info NAME`` and ``arle list KIND``: the game's things with their printed text, cost,
VP and ability, all read from :mod:`arle_ai.engine.rules`; names or keys are accepted."""

from __future__ import annotations

import textwrap

import click

from arle_ai.engine import rules
from arle_ai.text import decisions, names
from arle_cli.common import fail

LISTS = {"spaces": "space", "buildings": "building", "vehicles": "vehicle",
         "destinations": "destination", "tools": "tool", "goods": "good", "animals": "animal"}
TIMING = {"november": "before each November inventorying (light green)",
          "anytime": "any time (dark green)",
          "on_build": "once, when built"}


def _vp(half_points: int) -> str:
    return f"{half_points / 2:g}"


def describe_thing(kind: str, key: str) -> list[str]:
    """The lines ``arle info`` prints for one thing."""
    name = names.name(kind, key)
    head = f"{name} ({kind}, key {key})"
    if kind == "space":
        a = rules.action_space(key)
        track = f"; reads the {names.tool(a.tool)} track" if a.tool else ""
        return [head, f"  {a.season} action space {a.order} of 15{track}",
                *textwrap.wrap(a.text, 78, initial_indent="  ", subsequent_indent="  "),
                "  placing a worker here in the other season takes the special action"]
    if kind == "building":
        b = rules.building(key)
        return [head, f"  {b.colour.replace('_', ' ')} building, {b.vp} VP",
                f"  cost: {names.cost(b.cost)}", f"  acts {TIMING[b.timing]}: {b.ability}"]
    if kind == "vehicle":
        v = rules.vehicle(key)
        units = sum(v.spaces)
        spaces = (f"{units} loading space{'s' if units != 1 else ''}" if v.spaces
                  else "no loading spaces")
        return [head, f"  {v.kind} barn piece, {v.vp} VP, {spaces}",
                f"  cost: {names.amounts(v.cost)}",
                f"  other side of the tile: {names.vehicle(v.front)}" if v.front != key
                else "  front side of its tile"]
    if kind == "destination":
        d = rules.destination(key)
        lines = [head, f"  travel destination taking {d.size} vehicle space"
                       f"{'s' if d.size > 1 else ''}"]
        lines += [f"  deliver {names.amounts(x.gives)}: {x.food} food" for x in d.deliveries]
        return lines
    if kind == "tool":
        t = rules.tool(key)
        values = " / ".join(map(str, t.values))
        if key == "shovels":  # one indicator over two printed rows
            values += f" (clay; dikes {' / '.join(map(str, rules.SHOVEL_DIKE_VALUES))})"
        return [head, f"  values {values}, VP {' / '.join(map(str, t.vp))} by position",
                f"  one step costs {t.cost_amount} {names.thing(t.cost_good)}"]
    if kind == "animal":
        least, middle, most = rules.ANIMAL_VP_BY_RANK
        return [head, f"  animal; at the end {least} VP per animal of your least kept type, "
                      f"{middle} of the middle one, {most} of the most kept"]
    vp = rules.VP_HALF_POINTS.get(key)
    if vp:
        worth = f"{_vp(vp)} VP each at the end"
    elif key in rules.TRACK_GOODS:
        cap = rules.FOOD_CAP if key == "food" else rules.GOODS_CAP
        worth = f"on the goods track (at most {cap}); VP by its track position at the end"
    else:
        worth = "no VP at the end"
    return [head, f"  {kind}; {worth}"]


@click.command()
@click.argument("name", nargs=-1, required=True)
def info(name: tuple[str, ...]) -> None:
    """Print what NAME is (an action space, building, vehicle, destination, tool, good or
    animal; printed name or key, any case): its cost, VP and ability; 'pass' says what a
    pass does."""
    text = " ".join(name)
    if text.strip().casefold() == "pass":  # a move, not a thing: what it does
        click.echo("\n".join(["pass (a move at your turn)", *textwrap.wrap(
            decisions.PASS_WORDS, 78, initial_indent="  ", subsequent_indent="  ")]))
        return
    found = names.matches(text)
    if not found:
        fail(f"no space, building, vehicle, destination, tool, good or animal is called "
             f"{text!r}; 'arle list spaces' (or buildings, vehicles, destinations, tools) "
             f"shows the names")
    for i, (kind, key) in enumerate(found):
        if i:
            click.echo()
        click.echo("\n".join(describe_thing(kind, key)))


@click.command(name="list")
@click.argument("kind", type=click.Choice(sorted(LISTS)))
def list_things(kind: str) -> None:
    """List the printed names and keys of one KIND of thing (both are accepted as input)."""
    what = LISTS[kind]
    keys, _ = names.KINDS[what]
    rows = [(names.name(what, k), k) for k in keys]
    width = max(len(n) for n, _ in rows)
    click.echo(f"{'name':<{width}}  key")
    for printed, key in rows:
        click.echo(f"{printed:<{width}}  {key}")
