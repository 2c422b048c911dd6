"""Which vehicle compartments a player's loaded goods and destinations take.

A position records, per vehicle, the compartments used this half-year and, per player, what
lies on the vehicles (docs/position-format.md). At the table a player sees the goods on the
vehicles, not compartment numbers, so :func:`place_loads` finds compartments that hold them by
the shapes of rules section 3.4 (``arle_ai.engine.rules.VEHICLES``): an item takes adjacent
compartments whose widths add up to its size; only large vehicles combine compartments; a bench
(width 2) never holds a size-1 item.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arle_ai.engine import rules

__all__ = ["item_sizes", "place_loads", "assign_loads"]


def item_sizes(loaded: Mapping[str, object]) -> list[tuple[str, int]]:
    """The loaded items as (name, size), largest first: goods by ``rules.LOAD_SIZES`` (peat
    ``rules.LOADING_STATION_PEAT_SIZE``) and destinations by their size."""
    items: list[tuple[str, int]] = []
    for good in rules.LOAD_GOODS:
        n = loaded.get(good, 0)
        size = rules.LOAD_SIZES.get(good, rules.LOADING_STATION_PEAT_SIZE)
        items += [(good, size)] * (n if isinstance(n, int) else 0)
    dests = loaded.get("destinations", [])
    for key in dests if isinstance(dests, list) else []:
        items.append((key, rules.destination(key).size))
    return sorted(items, key=lambda item: -item[1])


def _groups(kind: str) -> list[tuple[int, ...]]:
    """Every group of compartments of a ``kind`` vehicle that can hold one item, with its size
    first: (size, compartment, ...)."""
    v = rules.vehicle(kind)
    out = []
    for start in range(len(v.spaces)):
        for end in range(start + 1, len(v.spaces) + 1 if v.combinable else start + 2):
            out.append((sum(v.spaces[start:end]), *range(start, end)))
    return out


def place_loads(kinds: Sequence[str], loaded: Mapping[str, object]) -> list[list[int]] | None:
    """For vehicles of ``kinds`` (in barn order) carrying ``loaded`` (a position's
    ``loaded`` object), the used compartments of each vehicle, or None when the items do not
    fit. Pieces without compartments (peat boats, plows) get none."""
    items = item_sizes(loaded)
    options = [(i, g) for i, kind in enumerate(kinds) if rules.vehicle(kind).spaces
               for g in _groups(kind)]
    used: list[set[int]] = [set() for _ in kinds]
    room = sum(sum(rules.vehicle(kind).spaces) for kind in kinds)
    if sum(size for _, size in items) > room:
        return None

    def fit(k: int, first: int) -> bool:
        """Place items k.. ; an item the same size as the one before takes a later group
        (items of one size are interchangeable, so each set of groups is tried once)."""
        if k == len(items):
            return True
        size = items[k][1]
        for j in range(first, len(options)):
            i, (width, *cells) = options[j]
            if width == size and not used[i].intersection(cells):
                used[i].update(cells)
                same = k + 1 < len(items) and items[k + 1][1] == size
                if fit(k + 1, j + 1 if same else 0):
                    return True
                used[i].difference_update(cells)
        return False

    return [sorted(u) for u in used] if fit(0, 0) else None


def assign_loads(vehicles: Sequence[tuple[str, Sequence[int]]], loaded: Mapping[str, object]
                 ) -> list[list[tuple[str, list[int]]]] | None:
    """What lies where: for vehicles given as (kind, used compartments) in barn order and a
    position's ``loaded`` object, the items on each vehicle as (item, its compartments), so
    that the items fill exactly the used compartments; None when they cannot."""
    items = item_sizes(loaded)
    used = [set(u) for _, u in vehicles]
    if sum(size for _, size in items) != sum(
            sum(rules.vehicle(kind).spaces[j] for j in u if j < len(rules.vehicle(kind).spaces))
            for kind, u in vehicles):
        return None
    options = [(i, g) for i, (kind, _) in enumerate(vehicles) if rules.vehicle(kind).spaces
               for g in _groups(kind)]
    taken: list[set[int]] = [set() for _ in vehicles]
    out: list[list[tuple[str, list[int]]]] = [[] for _ in vehicles]

    def fit(k: int) -> bool:
        if k == len(items):
            return True
        name, size = items[k]
        for i, (width, *cells) in options:
            if (width == size and used[i].issuperset(cells)
                    and not taken[i].intersection(cells)):
                taken[i].update(cells)
                out[i].append((name, list(cells)))
                if fit(k + 1):
                    return True
                out[i].pop()
                taken[i].difference_update(cells)
        return False

    return out if fit(0) else None
