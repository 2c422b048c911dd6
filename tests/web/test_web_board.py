"""The boards in the browser (Debian's headless Chromium): at 1280, 800 and 390 pixels wide no
two panels overlap and nothing runs off the page's side, and the pieces drawn on the SVG
boards are the position's, counted one by one."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from arle_ai.engine import rules
from arle_ai.engine.testing import biased_policy, play_random_game
from arle_ai.formats.records import GameRecord
from web_helpers import root_move, serve_hint, served_hint

pytestmark = pytest.mark.browser

PANELS = ["#status", "#history-cue", "#gameboard", "#player0", "#player1", "#moves-panel",
          "#hint-panel", "#list-panel", "#analysis-panel", "#log-panel"]
# seed 1 of the biased random game: after 202 decisions both players have loaded vehicles,
# animals, travel; buildings are built, moors dehydrated and five workers stand on spaces
SEED, PLY = 1, 202


@pytest.fixture(scope="module")
def rich_record(tmp_path_factory):
    game = play_random_game(SEED, policy=biased_policy)
    rec = GameRecord.new(seed=SEED)
    for a in game.actions[:PLY]:
        rec.push(a)
    path = tmp_path_factory.mktemp("board") / "rich.json"
    rec.save(path)
    return rec, path


def open_record(page, path) -> None:
    page.select_option("#seat1", "human")
    page.wait_for_function("document.querySelector('#seat1').value === 'human'")
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")


def boxes(page) -> dict[str, dict]:
    out = {}
    for sel in PANELS:
        box = page.locator(sel).bounding_box() if page.locator(sel).is_visible() else None
        if box and box["width"] > 0 and box["height"] > 0:
            out[sel] = box
    return out


def overlap(a: dict, b: dict) -> float:
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


@pytest.mark.parametrize("width", [1280, 800, 390])
def test_no_two_panels_overlap_at_any_width(open_page, rich_record, shots, width):
    page = open_page(width=width, height=800)
    open_record(page, rich_record[1])
    page.click("#nav-prev")  # stepped back: the history cue shows too
    page.wait_for_selector("#history-cue:not([hidden])")
    if width in (1280, 800):  # docs/web-board-1280.png, docs/web-board-800.png
        page.evaluate("window.scrollTo(0, 0)")
        height = page.evaluate("document.documentElement.scrollHeight")
        page.screenshot(path=str(shots / f"web-board-{width}.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": min(height, 1700)})
    found = boxes(page)
    assert set(found) == set(PANELS), set(PANELS) - set(found)
    for i, a in enumerate(PANELS):
        for b in PANELS[i + 1:]:
            assert overlap(found[a], found[b]) < 1, (width, a, found[a], b, found[b])
    # nothing wider than the window: no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for sel, box in found.items():
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (sel, box)
    if width >= 1000:  # two columns: the moves beside the board
        assert found["#moves-panel"]["x"] > found["#gameboard"]["x"] + found["#gameboard"]["width"]
    else:  # one column: the decision above the boards
        assert found["#moves-panel"]["y"] < found["#gameboard"]["y"]


@pytest.mark.parametrize("width", [1280, 800, 390])
@pytest.mark.parametrize("tab", ["editor", "tournament"])
def test_the_editor_and_the_results_fit_the_window(open_page, rich_record, width, tab):
    """The other pages reflow too: nothing wider than the window (at 390 pixels the editor's
    four columns of fields once ran 116 pixels off the side)."""
    page = open_page(width=width, height=800)
    open_record(page, rich_record[1])  # the editor starts from the board's position
    page.click(f"#tab-{tab}")
    if tab == "editor":
        page.wait_for_selector("#editor[data-built='1']")
    assert page.is_visible(f"#page-{tab}")
    off = page.evaluate("""(() => { const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')].filter((e) => {
          const r = e.getBoundingClientRect(); return r.width > 0 && r.right > w + 0.5; })
        .map((e) => e.tagName + (e.id ? '#' + e.id : '')); })()""")
    assert not off, off[:5]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def count(page, selector: str) -> int:
    return page.locator(selector).count()


def attrs(page, selector: str, name: str) -> list[str]:
    return page.eval_on_selector_all(selector, f"els => els.map(e => e.getAttribute('{name}'))")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_boards_show_the_positions_pieces(open_page, rich_record, width):
    rec, path = rich_record
    page = open_page(width=width, height=800)
    open_record(page, path)
    d = rec.final_state().to_dict()
    # workers on the action spaces, of the right player
    on_spaces = dict(zip(attrs(page, "#gameboard [data-piece='worker']", "data-space"),
                         map(int, attrs(page, "#gameboard [data-piece='worker']",
                                        "data-player")), strict=True))
    assert on_spaces == d["occupied"]
    # the workers still on the months
    left = Counter(attrs(page, "#gameboard [data-piece='worker-left']", "data-player"))
    placed = [0, 0]
    for turn in range(d["workers_placed"]):
        placed[d["start_player"] if turn % 2 == 0 else 1 - d["start_player"]] += 1
    assert [left["0"], left["1"]] == [rules.WORKERS_PER_PLAYER - n for n in placed]
    # tool markers: each player's on the value the position says
    for p in (0, 1):
        shown = dict(zip(attrs(page, f"[data-piece='tool-marker'][data-player='{p}']",
                               "data-tool"),
                         map(int, attrs(page, f"[data-piece='tool-marker'][data-player='{p}']",
                                        "data-value")), strict=True))
        assert shown == d["players"][p]["tools"]
    # the buildings still on the game board
    assert sorted(attrs(page, "#gameboard [data-piece='building']", "data-building")) == sorted(
        d["buildings_on_board"])
    for p, player in enumerate(d["players"]):
        home = f"#home-svg-{p}"
        # animals
        kinds = Counter(attrs(page, f"{home} [data-piece='animal']", "data-kind"))
        assert kinds == Counter({k: n for k, n in player["animals"].items() if n})
        # goods-track markers: food on two indicators, the others on their number
        track = Counter()
        for good, space in zip(attrs(page, f"{home} [data-piece='goods-marker']", "data-good"),
                               attrs(page, f"{home} [data-piece='goods-marker']",
                                     "data-space"), strict=True):
            track[good] += int(space)
        assert dict(track) == {g: player["goods"][g] for g in rules.TRACK_GOODS}
        # the supply
        supply = dict(zip(attrs(page, f"{home} [data-piece='supply']", "data-good"),
                          map(int, attrs(page, f"{home} [data-piece='supply']", "data-count")),
                          strict=True))
        assert supply == {g: player["goods"][g] for g in supply}
        # barn pieces, and what is loaded on them
        barn = player["barn"]
        assert Counter(attrs(page, f"{home} [data-piece='vehicle']", "data-kind")) == Counter(
            [v["kind"] for v in barn["vehicles"]] + ["peat_boat"] * barn["peat_boats"]
            + ["plow"] * barn["plows"])
        loaded = Counter({k: n for k, n in player["loaded"].items()
                          if k != "destinations" and n})
        loaded.update(player["loaded"]["destinations"])
        assert Counter(attrs(page, f"{home} [data-piece='load']", "data-kind")) == loaded
        # dikes, peat on the boardwalk and the dehydrated moors, tiles and buildings
        assert count(page, f"{home} [data-piece='dike']") == rules.DIKES
        h = player["home"]
        assert count(page, f"{home} [data-piece='peat']") == h["boardwalk_peat"] + sum(
            h["dehydrated_moors"])
        tiles = Counter(attrs(page, f"{home} [data-piece='tile']", "data-kind"))
        assert tiles == Counter({k: h[k + "s"] for k in
                                 ("grain_field", "flax_field", "forest", "park", "stall",
                                  "depot", "stable", "double_stall") if h[k + "s"]})
        assert sorted(attrs(page, f"{home} [data-piece='home-building']", "data-kind")) == sorted(
            h["buildings"])
        assert attrs(page, f"{home} [data-piece='destination']", "data-kind") == player["travel"]
    assert any(player["loaded"]["destinations"] for player in d["players"])  # a rich position


def test_clicking_a_vehicle_offers_its_load_moves(open_page, tmp_path):
    # a position where the player to move can load a vehicle: its barn piece is clickable
    game = play_random_game(SEED, policy=biased_policy)
    rec = GameRecord.new(seed=SEED)
    ply = None
    for i, a in enumerate(game.actions):
        state = rec.final_state()
        loads = [m for m in state.legal_actions() if state.action_to_string(m).startswith("load")]
        if len(loads) > 1 and i > 20:
            ply = i
            break
        rec.push(a)
    assert ply is not None
    path = tmp_path / "load.json"
    rec.save(path)
    page = open_page()
    page.select_option("#seat0", "human")
    open_record(page, path)
    mover = rec.final_state().current_player
    vehicle = page.locator(f"#home-svg-{mover} [data-piece='vehicle'].clickable").first
    vehicle.click()
    picked = [int(a) for a in attrs(page, "#legal .move-btn.picked", "data-action")]
    state = rec.final_state()
    assert picked and all(state.action_to_string(a).startswith("load ") for a in picked)
    assert len(picked) < len(state.legal_actions())  # that vehicle's loads, not every move
    before = page.inner_text("#ply-text")
    page.locator("#legal .move-btn.picked").first.click()
    page.wait_for_function(f"document.querySelector('#ply-text').textContent !== '{before}'")


# (a hint's statistics are its search's at this many simulations of seed 0, on any machine:
# the search ranks place warden, load clay on the wagon, place dike builder, whose badges fit
# beside their words at one width and not at another; a timed hint ranked other moves as
# far as a loaded machine let it search)
HINT_ITERATIONS = 1_000_000


def fixed_hint(page, iterations: int = HINT_ITERATIONS) -> None:
    """The page's hint searches ``iterations`` simulations of seed 0 rather than its seconds
    (the server's ``?iterations=``): the same moves ranked whatever the machine's load."""
    page.route(re.compile(r"/api/games/[^/]+/hint\?"), lambda route: route.continue_(
        url=re.sub(r"seconds=[^&]*", f"iterations={iterations}&seed=0", route.request.url)))


def board_marks(page) -> list[dict]:
    """The marks drawn on the boards: each one's rank, the piece it is about (``on``; the
    piece's box), its outline's and badge's boxes and label, and the words and workers of its
    board that the badge covers (by more than a pixel)."""
    return page.evaluate("""(() => {
      const box = (n) => { const r = n.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height }; };
      const cover = (a, b) => Math.max(0, Math.min(a.x + a.width, b.x + b.width)
        - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height)
        - Math.max(a.y, b.y));
      return [...document.querySelectorAll('#board .board-mark')].map((mark) => {
        const on = mark.getAttribute('data-mark-on');
        const svg = mark.ownerSVGElement;
        const piece = [...svg.querySelectorAll('[data-on]')]
          .find((n) => n.getAttribute('data-on') === on);
        const badge = box(mark.querySelector('.mark-badge'));
        const covered = [...svg.querySelectorAll("text, [data-piece='worker']")]
          .filter((n) => !n.closest('.board-marks') && cover(badge, box(n)) > 1)
          .map((n) => n.textContent || n.getAttribute('data-piece'));
        return { rank: mark.getAttribute('data-mark-rank'), on, piece: box(piece),
                 outline: box(mark.querySelector('.mark-outline')), badge,
                 text: mark.querySelector('.mark-badge + text').textContent, covered };
      }); })()""")


def hinted(page) -> list[dict]:
    """The hint table's ranked moves (action, margin text), each with its mark on the board
    (board_marks: None for a move about no one piece) and its mark on its button."""
    marks = {m["rank"]: m for m in board_marks(page)}
    rows = page.evaluate("""(() => [...document.querySelectorAll('#hint-table .hint-row')]
      .filter((row) => row.querySelector('.rank')).map((row) => {
        const button = document.querySelector(
          `#legal .move-btn[data-action='${row.dataset.action}'] .move-mark`);
        return { rank: row.querySelector('.rank').textContent,
                 action: Number(row.dataset.action),
                 margin: row.querySelector('td:nth-child(4)').textContent,
                 button: button && button.textContent };
      }))()""")
    return [{**row, "mark": marks.get(row["rank"])} for row in rows]


def inside(a: dict, b: dict, slack: float = 0.5) -> bool:
    return (a["x"] >= b["x"] - slack and a["y"] >= b["y"] - slack
            and a["x"] + a["width"] <= b["x"] + b["width"] + slack
            and a["y"] + a["height"] <= b["y"] + b["height"] + slack)


def beside(a: dict, b: dict, gap: float = 3.0) -> bool:
    """``a`` touches ``b`` from outside (no more than ``gap`` pixels away)."""
    return overlap(a, b) < 1 and inside(a, {"x": b["x"] - a["width"] - gap,
                                            "y": b["y"] - a["height"] - gap,
                                            "width": b["width"] + 2 * (a["width"] + gap),
                                            "height": b["height"] + 2 * (a["height"] + gap)})


def check_marks(marks: list[dict], where) -> None:
    """Each mark outlines its piece; its badge lies inside the piece or, where the piece has
    no room, just beside it, and covers no words or worker; no two marks overlap."""
    for m in marks:
        assert inside(m["outline"], m["piece"]), (where, m)
        assert inside(m["badge"], m["piece"]) or beside(m["badge"], m["piece"]), (where, m)
        assert not m["covered"], (where, m)
    for i, a in enumerate(marks):
        for b in marks[i + 1:]:
            for x in ("outline", "badge"):
                for y in ("outline", "badge"):
                    assert overlap(a[x], b[y]) < 1, (where, a, b)


@pytest.fixture(scope="module")
def rich_hint(rich_record):
    """The hint's three best moves in the rich position, as its search ranks them."""
    from arle_ai.search.config import Budget, SearchConfig
    from arle_ai.search.mcts import MCTS
    from arle_ai.web.jobs import HINT_MEMORY

    search = MCTS(SearchConfig(seed=0, max_memory=HINT_MEMORY), Budget(iterations=HINT_ITERATIONS))
    return [m.action for m in search.search(rich_record[0].final_state()).moves[:3]]


@pytest.mark.parametrize("width", [1280, 800, 390])
def test_the_hinted_moves_are_drawn_on_the_board_and_nothing_overlaps(open_page, rich_record,
                                                                      rich_hint, shots, width):
    """Issue 34: the hint's best moves on the board (as lichess's arrows, KaTrain's coloured
    top moves): each of the three best on the piece it is about, ranked, with its VP margin,
    inside that piece or, where it has no room, beside it; a move about no piece marked on
    its button; no panel overlaps. The wagon's badge once lost its margin at 390 pixels (no
    room right of its name and its load) and covered its name at 800."""
    from arle_ai.web.board import move_target

    rec, path = rich_record
    state = rec.final_state()
    # a known hint: its second best is about the wagon, the narrowest piece in the barn
    assert [move_target(a, state.current_player) for a in rich_hint] == [
        "space:warden", "vehicle:1:0", "space:fisherman"]
    page = open_page(width=width, height=800)
    fixed_hint(page)
    open_record(page, path)
    page.click("#hint-start")
    page.wait_for_function("document.body.dataset.hintUpdates !== undefined", timeout=60000)
    found = hinted(page)
    assert [m["rank"] for m in found] == ["1", "2", "3"], found
    assert [m["action"] for m in found] == rich_hint  # as the search ranks them
    for m in found:
        target = move_target(m["action"], state.current_player)
        # every ranked move is marked on its button with its rank and margin
        assert m["button"] == f"{m['rank']} {m['margin']}", m
        assert m["mark"] is not None and target in m["mark"]["on"].split(), m  # on its piece
        assert m["mark"]["text"] == f"{m['rank']} {m['margin']}", m  # ranked, with its margin
    check_marks([m["mark"] for m in found], width)
    found_panels = boxes(page)
    for i, a in enumerate(PANELS):
        for b in PANELS[i + 1:]:
            if a in found_panels and b in found_panels:
                assert overlap(found_panels[a], found_panels[b]) < 1, (width, a, b)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width in (1280, 390):  # docs/web-hint-board-1280.png, docs/web-hint-board-390.png
        page.evaluate("window.scrollTo(0, 0)")
        found_panels = boxes(page)
        top = found_panels["#moves-panel" if width < 1000 else "#status"]["y"]
        bottom = max(found_panels[k]["y"] + found_panels[k]["height"]
                     for k in ("#gameboard", "#moves-panel", "#hint-panel") if width >= 1000
                     or k != "#hint-panel")
        page.screenshot(path=str(shots / f"web-hint-board-{width}.png"), full_page=True,
                        clip={"x": 0, "y": top, "width": width, "height": bottom - top + 4})


@pytest.mark.parametrize("width", [1280, 800, 390])
def test_every_moves_badge_keeps_its_margin_at_every_width(open_page, rich_record, width):
    """Every legal move of the rich position ranked by a hint, three at a time, with margins
    of the longest kind: each one's badge says its rank and margin, inside its piece or
    beside it, covering no words, and no two marks overlap (a badge a player needs never
    disappears, whichever moves a search ranks)."""
    from arle_ai.web.board import move_target

    rec, path = rich_record
    state = rec.final_state()
    actions = state.legal_actions()
    served = {}
    page = open_page(width=width, height=800)
    serve_hint(page, lambda: served["body"])
    open_record(page, path)
    on_board = 0
    for k in range(0, len(actions), 3):
        group = actions[k:k + 3]
        served["body"] = served_hint(state, [
            root_move(state, state.action_to_string(a), rank=i + 1, visits=300 - 100 * i,
                      margin=margin)
            for i, (a, margin) in enumerate(zip(group, [-12.5, 10.0, -0.3], strict=False))])
        page.evaluate("delete document.body.dataset.hintUpdates")
        page.click("#hint-start")
        page.wait_for_function("document.body.dataset.hintUpdates !== undefined")
        found = hinted(page)
        assert [m["action"] for m in found] == group, found
        for m in found:
            assert m["button"] == f"{m['rank']} {m['margin']}", m
            target = move_target(m["action"], state.current_player)
            if target is None:  # about no one piece: on its button only
                assert m["mark"] is None, m
                continue
            on_board += 1
            assert target in m["mark"]["on"].split(), m
            assert m["mark"]["text"] == f"{m['rank']} {m['margin']}", m
        check_marks([m["mark"] for m in found if m["mark"]], (width, group))
    assert on_board >= len(actions) - 2  # (pass is about no piece)


def the_game(page) -> dict:
    """The tab's game as the server gives it."""
    return page.evaluate("""(async () => (await (await fetch('/api/games/'
        + sessionStorage.getItem('arle-game'))).json()).game)()""")


# the page has shown the AI's moves and offers yours: no move asked of the AI, none to come
AI_TURN_OVER = """!document.querySelector('#lead-bar').hidden
  && !!document.querySelector('#legal .move-btn:not([disabled])')
  && !document.querySelector('#ai-status').textContent.includes('thinking')"""


@pytest.mark.parametrize("width", [1280, 800, 390])
def test_the_expected_lead_bar_stands_beside_the_board(open_page, rich_record, width):
    """Issue 34: while the AI plays, a bar beside the game board shows the lead its own search
    expected when it last moved (the AI's move carries it: no search of the page's own), P0's
    red from below, P1's blue from above; no panel overlaps it."""
    page = open_page(width=width, height=800)
    open_record(page, rich_record[1])
    assert page.is_hidden("#lead-bar")  # no move of the AI yet
    page.select_option("#ai-kind", "mcts")
    page.fill("#ai-seconds", "0.2")
    page.select_option("#seat1", "ai")  # P1 is to move: the AI plays
    # until its turn is over: the AI may have several decisions in a row (place warden, then
    # flip a forest), and between two of them the page says what it played before it thinks
    # again; P0's moves are offered (to you) only once the page shows P0 to move
    page.wait_for_function(AI_TURN_OVER, timeout=60000)
    g = the_game(page)
    assert g["to_move"] == 0 and not g["ai_to_move"] and g["ply"] > PLY
    searched = [m for m in g["moves"][:g["ply"]] if m.get("ai") and m["ai"]["margin"] is not None]
    last = searched[-1]
    lead = last["ai"]["margin"] * (1 if last["player"] == 0 else -1)
    assert last["player"] == 1 and last["ai"]["agent"].startswith("mcts")
    assert float(page.get_attribute("#lead-bar", "data-lead")) == pytest.approx(lead, abs=0.006)
    assert page.get_attribute("#lead-bar", "data-ply") == str(last["ply"])
    said = page.inner_text("#lead-bar .lead-text").split()  # the lead, and who has it
    assert said[0].lstrip("+") in (f"{abs(lead):.1f}", f"{round(abs(lead))}"), said
    assert said[1] == f"P{0 if lead >= 0 else 1}", said
    assert f"P{0 if lead >= 0 else 1} +" in page.get_attribute("#lead-bar", "title")
    # P0's part of the bar grows with P0's lead
    p0, p1 = (page.locator(f"#lead-bar .p{p}-part").bounding_box()["height"] for p in (0, 1))
    assert (p0 > p1) == (lead > 0) or abs(lead) < 0.05
    # beside the game board, as tall, and apart from every panel
    bar, board = (page.locator(s).bounding_box() for s in ("#lead-bar", "#gameboard"))
    assert bar["x"] + bar["width"] <= board["x"] + 0.5
    assert abs(bar["y"] - board["y"]) < 1 and abs(bar["height"] - board["height"]) < 1
    found = boxes(page)
    for sel, box in found.items():
        assert overlap(bar, box) < 1, (width, sel)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # stepped back before the AI's move: no estimate to show
    page.click("#nav-first")
    page.wait_for_selector("#lead-bar", state="hidden")


@pytest.mark.parametrize("width", [1280, 800, 390])
def test_the_mistakes_mode_fits_every_width(open_reviewed, shots, width):
    """The mode's panel and its answer on the board: nothing overlaps, nothing off the side,
    each mark on its piece, its badge inside it or beside it, covering no words."""
    page = open_reviewed(width=width)
    page.click("#learn-start")
    page.wait_for_selector(".learn-ask")
    page.click("#learn-answer")
    page.wait_for_selector("#board .board-mark[data-mark-rank='better']")
    page.evaluate("window.scrollTo(0, 0)")
    panels = [*PANELS, "#learn-panel"]
    found = boxes(page) | {"#learn-panel": page.locator("#learn-panel").bounding_box()}
    assert set(panels) - {"#history-cue"} <= set(found)
    for i, a in enumerate(panels):
        for b in panels[i + 1:]:
            if a in found and b in found:
                assert overlap(found[a], found[b]) < 1, (width, a, b)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    check_marks(board_marks(page), width)
    if width < 1000:  # one column: the mode's panel first, then the decision and the board
        assert found["#learn-panel"]["y"] < found["#moves-panel"]["y"] < found["#gameboard"]["y"]
    else:
        assert found["#learn-panel"]["x"] > found["#gameboard"]["x"]
    if width == 390:  # docs/web-mistakes-390.png: the panel, the decision, the board
        top = found["#status"]["y"]
        bottom = found["#gameboard"]["y"] + found["#gameboard"]["height"]
        page.screenshot(path=str(shots / "web-mistakes-390.png"), full_page=True,
                        clip={"x": 0, "y": top, "width": width, "height": bottom - top + 4})
