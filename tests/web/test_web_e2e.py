"""End-to-end tests of arle serve in a real headless Chromium (Debian's ``chromium``; the
browser, page and screenshot fixtures are in conftest.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arle_ai.engine import _core, rules
from arle_ai.formats.records import GameRecord, load_record
from arle_ai.play.analysis import GameAnalysis
from arle_ai.play.tournament import Tournament
from arle_ai.search.config import WEB_ANALYZE_BUDGET
from arle_cli.main import cli

pytestmark = pytest.mark.browser


def ply_text(page) -> str:
    return page.inner_text("#ply-text")


def fixed_analysis(page, iterations: int) -> None:
    """The page's analysis searches ``iterations`` simulations a decision (of seed 0) rather
    than its seconds (the server's ``?iterations=``): the same review on any machine."""
    page.route(re.compile(r"/api/games/[^/]+/analysis\?"), lambda route: route.continue_(
        url=re.sub(r"seconds=[^&]*", f"iterations={iterations}", route.request.url)))


def test_play_by_clicking_with_ai_replies_hint_and_undo(page, shots):
    assert "Half-year 1/9" in page.inner_text("#status")
    # the board as printed: summer spaces, tool tracks, winter spaces
    assert page.locator("#gameboard .space-card").count() == 30
    assert page.locator("#gameboard .space-card.off-season").count() == 15
    # hovering a space shows its printed name and what it does, not its engine key
    title = page.text_content(".space-card[data-space='summer_grocer'] > title")
    assert title == f"Grocer (summer): {rules.action_space('summer_grocer').text}", title
    assert page.locator("#gameboard .tool-track").count() == 10
    # each move says what it brings as arle play's menu does (no "get", no "pay")
    fisherman = "#legal .move-btn[title='notation: place fisherman'] .cg"
    assert page.inner_text(fisherman) == "Fish Traps 2 -> 3 (+3 food, +1 sheep)"
    said = " ".join(page.locator("#legal .move-btn .cg").all_inner_texts())
    assert "+3 clay" in said and "get " not in said and "pay " not in said
    page.select_option("#ai-kind", "greedy")
    page.click(".space-card.clickable[data-space='colonist']")  # a worker by clicking the board
    page.wait_for_selector("#move-list li[data-ply='1']")
    # answer our own sub-decisions by clicking moves until the AI has replied
    for _ in range(30):
        if page.locator("#move-list .tag.p1").count():
            break
        buttons = page.locator("#legal .move-btn:not([disabled])")
        if buttons.count():
            n = page.locator("#move-list li").count()
            buttons.first.click()
            page.wait_for_function(
                f"document.querySelectorAll('#move-list li').length > {n}")
        else:  # the AI is answering: until it has moved or offers a move of ours again
            page.wait_for_function("document.querySelector('#move-list .tag.p1') || "
                                   "document.querySelector('#legal .move-btn:not([disabled])')")
    page.wait_for_selector("#event-log li .tag.p1")
    assert "P1 (AI)" in page.inner_text("#event-log")
    page.wait_for_function("!document.querySelector('#ai-status').textContent.includes("
                           "'thinking')")
    # play two more of our moves by clicking
    for _ in range(2):
        page.wait_for_selector("#legal .move-btn:not([disabled])")
        n = page.locator("#move-list li").count()
        page.locator("#legal .move-btn:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelectorAll('#move-list li').length > {n}")
        page.wait_for_function("!document.querySelector('#ai-status').textContent.includes("
                               "'thinking')")
    # a hint with live updates
    page.fill("#hint-seconds", "1.5")
    page.click("#hint-start")
    page.wait_for_selector("#hint-table .hint-row")
    page.wait_for_function("document.body.dataset.hintUpdates !== undefined", timeout=15000)
    assert int(page.evaluate("document.body.dataset.hintUpdates")) >= 4
    assert "simulations in" in page.inner_text("#hint-status")  # arle suggest's words
    # labelled with the decision it answers (the hint follows the board to it)
    ply = int(page.evaluate("document.body.dataset.hintPly"))
    # (the question names the player once: "P0, your turn: ...", "P0 - Grocer: ...")
    assert re.match(rf"for decision {ply + 1} \(P[01](, | - )\D", page.inner_text("#hint-for"))
    # the value as arle suggest writes it (0..1 with 3 decimals, not a percentage)
    value = page.inner_text("#hint-table .hint-row td:nth-child(3)")
    assert re.fullmatch(r"[01]\.\d{3}", value), value
    assert page.locator("#hint-table .pv .tag").count() > 0  # the pv says who moves
    page.screenshot(path=str(shots / "web-play.png"))
    # undo goes back to before our last decision
    before = page.evaluate("Number(document.querySelector('#ply-text').textContent"
                           ".split(' ')[1])")
    page.click("#undo")
    page.wait_for_function(f"!document.querySelector('#ply-text').textContent"
                           f".startsWith('decision {before} ')")
    after = int(ply_text(page).split()[1])
    assert after < before
    # Undo says what it took back, each decision with who made it, as arle play does
    said = page.inner_text("#message")
    assert said.startswith("Taken back: P") and "Redo plays" in said, said
    assert len(re.findall(r"(?:: |, )P[01] ", said)) == before - after, said
    page.click("#redo")
    page.wait_for_function(f"document.querySelector('#ply-text').textContent"
                           f".startsWith('decision {before if before - after == 1 else ''}')")


def test_a_hint_asked_while_the_ai_thinks_follows_the_board_to_your_decision(page):
    # (a hint once stopped the AI's move of its game, or the AI's move the hint: one search
    # per game; now they run side by side and the hint starts again when the AI has played)
    page.select_option("#ai-kind", "mcts")
    page.fill("#ai-seconds", "0.5")
    page.select_option("#seat1", "human")
    page.wait_for_function("document.querySelector('#seat1').value === 'human'")
    page.select_option("#seat0", "ai")  # the AI is P0 and to move: it starts thinking
    page.wait_for_function("document.querySelector('#ai-status').textContent"
                           ".includes('thinking')")
    page.fill("#hint-seconds", "2")
    page.click("#hint-start")
    page.wait_for_selector("#hint-table .hint-row")
    page.wait_for_selector("#legal .move-btn:not([disabled])", timeout=60000)  # your turn
    page.wait_for_function("document.body.dataset.hintUpdates !== undefined", timeout=30000)
    ply = int(ply_text(page).split()[1])
    assert ply >= 1 and page.evaluate("document.body.dataset.hintPly") == str(ply)
    assert int(page.evaluate("document.body.dataset.hintUpdates")) >= 4
    assert "done" in page.inner_text("#hint-status")
    assert page.is_hidden("#message"), page.inner_text("#message")


def test_the_hint_names_its_decision_and_greys_or_goes_with_the_board(page):
    page.select_option("#seat1", "human")
    page.wait_for_function("document.querySelector('#seat1').value === 'human'")
    page.locator("#legal .move-btn:not([disabled])").first.click()
    page.wait_for_function("document.querySelector('#ply-text').textContent === "
                           "'decision 1 of 1'")
    page.fill("#hint-seconds", "0.6")
    page.click("#hint-start")
    page.wait_for_function("document.body.dataset.hintUpdates !== undefined", timeout=15000)
    assert page.inner_text("#hint-for").startswith("for decision 2 (P")
    # why the best move is better than the second, by scoring category (arle_ai.play.why)
    page.wait_for_selector("#hint-why .why")
    assert re.match(r"Why .+ rather than .+: ", page.inner_text("#hint-why"))
    assert "columns" in page.inner_text("#hint-legend")
    assert "not a chance to win" in page.text_content("#legend")  # arle suggest's legend
    # stepping back: the hint is of another position, greyed and saying so
    page.click("#nav-prev")
    page.wait_for_selector("#hint-body.stale")
    assert "the board shows another position" in page.inner_text("#hint-for")
    page.click("#nav-next")
    page.wait_for_selector("#hint-body:not(.stale)")
    # another game: the hint is gone
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#ply-text').textContent === "
                           "'decision 0 of 0'")
    assert page.locator("#hint-table tr").count() == 0 and page.inner_text("#hint-for") == ""


def test_hint_can_be_cancelled(page):
    page.fill("#hint-seconds", "60")
    page.click("#hint-start")
    page.wait_for_selector("#hint-table .hint-row")
    page.click("#hint-stop")
    page.wait_for_function("document.querySelector('#hint-status').textContent"
                           ".includes('stopped')")
    assert page.is_enabled("#hint-start")


def test_load_a_record_step_through_it_and_analyse(page, shots, tmp_path):
    rng = random.Random(5)
    rec = GameRecord.new(seed=5)
    for _ in range(40):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    path = tmp_path / "game.json"
    rec.save(path)
    page.select_option("#seat1", "human")
    page.wait_for_function("document.querySelector('#seat1').value === 'human'")
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")
    assert ply_text(page) == "decision 40 of 40"
    page.click("#move-list li[data-ply='10']")
    page.wait_for_function("document.querySelector('#ply-text').textContent === "
                           "'decision 10 of 40'")
    page.locator("body").click(position={"x": 5, "y": 790})  # focus off the inputs
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#ply-text').textContent === "
                           "'decision 9 of 40'")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#ply-text').textContent === "
                           "'decision 11 of 40'")
    assert page.inner_text("#move-list li.current").strip().endswith(
        page.evaluate("document.querySelector('#move-list li.current').textContent.slice(3)"))
    # the page's default budget is arle analyze's (a time); here 1,000 simulations a
    # decision: the same marks on any machine (a time on a loaded one once left too few
    # simulations to mark a move: noise explains every loss)
    assert float(page.input_value("#analysis-seconds")) == WEB_ANALYZE_BUDGET.seconds
    fixed_analysis(page, 1000)
    page.click("#analysis-start")
    page.wait_for_function("document.querySelector('#analysis-status').textContent === 'done'",
                           timeout=120000)
    review = page.evaluate("""(async () => (await (await fetch('/api/games/'
        + sessionStorage.getItem('arle-game'))).json()).game.analysis)()""")
    assert review["iterations"] == 1000 and review["time_limit"] is None
    assert page.locator("#graph svg path").count() == 2  # value and VP margin
    top, bottom = (page.text_content(f"#graph .axis-{end}") for end in ("top", "bottom"))
    assert top.startswith("+") and bottom == "-" + top[1:]  # a lead: symmetric about 0
    assert page.locator("#graph circle.mistake").count() >= 1
    assert page.locator("#mistakes li").count() >= 1
    # the marks beside the moves, as arle analyze marks them
    marked = page.locator("#graph circle.mistake").count()  # the largest mistakes, up to 5
    assert marked == min(5, page.locator("#move-list li .mark").count())
    assert "accuracy" in page.inner_text("#accuracy")
    page.locator("#mistakes li").first.click()
    page.wait_for_function("!document.querySelector('#ply-text').textContent"
                           ".startsWith('decision 11 ')")
    ply = int(ply_text(page).split()[1])
    mark = page.inner_text("#move-list li.current .mark")
    assert mark in ("?", "??")
    # the review of the move: what was better and its line, and a way to try again
    detail = page.inner_text("#review-detail")
    assert f"Decision {ply}:" in detail and "Better:" in detail and mark in detail
    assert re.search(r"Why .+ rather than .+: ", detail)  # by scoring category
    assert page.is_visible("#retry")
    page.screenshot(path=str(shots / "web-analysis.png"))
    page.click("#retry")
    page.wait_for_function(f"document.querySelector('#ply-text').textContent === "
                           f"'decision {ply - 1} of 40'")
    assert "Viewing history" in page.inner_text("#history-cue")
    played = page.get_attribute(f"#move-list li[data-ply='{ply}']", "title")
    other = page.locator("#legal .move-btn:not([disabled])")
    for k in range(other.count()):  # another move than the one played (a count's button
        # plays several, "notation: more, stop": its first one is the decision's)
        if other.nth(k).get_attribute("title").split(", ")[0] != played:
            other.nth(k).click()
            break
    page.wait_for_selector("#move-list ol.variation li.current")
    assert "Variation" in page.inner_text("#history-cue")
    # the game's moves kept: its 40 decisions, each listed but the steps of a count, folded
    # into the count's entry (a count is one answer, on its last move)
    g = page.evaluate("""(async () => (await (await fetch('/api/games/'
        + sessionStorage.getItem('arle-game'))).json()).game)()""")
    by_id = {n["node"]: n for n in g["tree"]}
    main, kids = [], g["root_children"]
    while kids:
        main.append(by_id[kids[0]])
        kids = main[-1]["children"]
    assert len(main) == 40
    listed = page.locator("#move-list > li[data-node]").evaluate_all(
        "items => items.map((li) => Number(li.dataset.node))")
    assert listed == [n["node"] for n in main if not (n["inner"] and n["children"])], listed
    page.click("#cue-main")
    page.wait_for_function("!document.querySelector('#move-list ol.variation li.current')")


def test_a_review_saved_by_arle_analyze_reopens_in_the_browser(page, tmp_path):
    rng = random.Random(5)
    rec = GameRecord.new(seed=5)
    for _ in range(30):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    path = tmp_path / "game.json"
    rec.save(path)
    result = CliRunner().invoke(cli, ["analyze", str(path), "--iterations", "1500", "--save"])
    assert result.exit_code == 0, result.output
    review = load_record(path).review
    marks = {d.ply: d.mark for d in GameAnalysis.from_review(review).decisions if d.mark}
    assert marks  # random moves: some lose beyond noise at 1,500 iterations
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")
    assert ply_text(page) == "decision 30 of 30"
    # the marks beside the moves and the review's summary, with no analysis run in the page
    shown = {int(li.get_attribute("data-ply")): li.locator(".mark").inner_text()
             for li in page.locator("#move-list li[data-ply]").all()
             if li.locator(".mark").count()}
    assert shown == marks
    assert "accuracy" in page.inner_text("#accuracy")
    assert page.locator("#graph svg path").count() == 2
    ply = min(marks)
    page.click(f"#move-list li[data-ply='{ply}']")
    page.wait_for_function(f"document.querySelector('#ply-text').textContent === "
                           f"'decision {ply} of 30'")
    detail = page.inner_text("#review-detail")
    assert f"Decision {ply}:" in detail and "Better:" in detail and marks[ply] in detail


def test_editor_validates_as_you_type_and_plays_the_position(page, shots):
    page.click("#tab-editor")
    page.wait_for_selector("#editor[data-built='1']")  # built from the board's position
    page.click("#editor-from-new")
    page.wait_for_selector("#editor[data-built='2']")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check good'")
    page.fill("[data-path='players.0.goods.grain']", "16")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check bad'")
    # (the editor answers arle edit's questions since issue 36: its words are the entry's)
    assert page.inner_text("#editor-check") == "P0 grain: 16 is out of range 0..15"
    assert "invalid" in page.get_attribute("[data-path='players.0.goods.grain']", "class")
    assert page.is_disabled("#editor-play")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "web-editor.png"))
    page.fill("[data-path='players.0.goods.grain']", "12")
    page.check("#editor-p1 input[value='hage']")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check good'")
    # workers on the action spaces: a click for P0, two for P1
    page.click("#editor-board .space-card[data-space='colonist']")
    page.click("#editor-board .space-card[data-space='fisherman']")
    page.click("#editor-board .space-card[data-space='fisherman']")
    page.wait_for_selector("#editor-board [data-piece='worker'][data-space='fisherman']"
                           "[data-player='1']")
    assert page.input_value("[data-path='workers_placed']") == "2"
    # the buildings in play: a fifth green one is refused by the library, by name
    page.select_option("select[data-building='novices_hut']", "board")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check bad'")
    assert page.inner_text("#editor-check") == (
        "5 green on the board make 5, the board has 4 green spaces (each space holds a "
        "building until it is built)")
    assert "5 of 4 green" in page.inner_text("#editor-colours")
    page.select_option("select[data-building='colonists_house']", "out")
    page.select_option("select[data-building='mill']", "built0")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check good'")
    assert page.get_attribute("#editor-export", "href").startswith("blob:")
    with page.expect_download() as download:
        page.click("#editor-export")
    exported = Path(download.value.path()).read_text()
    assert '"grain": 12' in exported
    page.click("#editor-play")
    page.wait_for_selector("#page-play:not([hidden])")
    grain = "#player0 [data-piece='goods-marker'][data-good='grain']"
    assert page.get_attribute(grain, "data-space") == "12"
    workers = page.eval_on_selector_all(
        "#gameboard [data-piece='worker']", "els => els.map(e => [e.dataset.space, "
        "e.dataset.player])")
    assert sorted(workers) == [["colonist", "0"], ["fisherman", "1"]]
    assert page.locator("#gameboard [data-piece='building'][data-building='novices_hut']"
                        ).count() == 1
    assert page.locator("#gameboard [data-building='colonists_house']").count() == 0
    assert page.locator("#player0 [data-piece='home-building'][data-kind='mill']").count() == 1
    assert "P0" in page.inner_text("#status") and "Workers placed 2/8" in page.inner_text(
        "#status")


def test_the_editor_enters_a_solo_position_with_a_loaded_vehicle(page, shots):
    """The editor answers arle edit's questions (arle_ai.formats.entry): a solo position (one
    board, no start player), the vehicles in the barn and what is loaded on them, whose
    compartments the entry works out."""
    page.fill("#new-seed", "4")
    page.select_option("#new-players", "1")
    page.click("#tab-editor")
    page.wait_for_selector("#editor[data-built='1']")
    page.click("#editor-from-new")
    page.wait_for_selector("#editor[data-built='2']")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check good'")
    assert page.locator("#editor-p0").count() == 1 and page.locator("#editor-p1").count() == 0
    assert page.locator("[data-path='start_player']").count() == 0
    assert page.locator("#editor-buildings option[value='built1']").count() == 0
    # your workers: a click puts one on a space, another takes it off
    for space in ("fisherman", "colonist", "colonist"):
        page.click(f"#editor-board .space-card[data-space='{space}']")
    page.wait_for_selector("#editor-board [data-piece='worker'][data-space='fisherman']")
    assert page.locator("#editor-board [data-piece='worker']").count() == 1
    assert page.input_value("[data-path='workers_placed']") == "2"  # (a worker may pass)
    page.fill("[data-path='workers_placed']", "1")
    # a handcart and a cart, loaded with wood, clay and the Hage
    page.fill("[data-question='p0.barn'][data-name='handcart']", "1")
    page.fill("[data-question='p0.barn'][data-name='cart']", "1")
    page.fill("[data-path='players.0.loaded.wood']", "1")
    page.fill("[data-path='players.0.loaded.clay']", "1")
    page.check("[data-question='p0.loaded'][data-name='hage']")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check good'")
    # more than the vehicles hold is refused in arle edit's words, the loads outlined
    page.fill("[data-path='players.0.loaded.linen']", "2")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check bad'")
    assert page.inner_text("#editor-check") == (
        "the loaded items (wood 1, clay 1, linen 2, Hage) do not fit on the vehicles "
        "(Handcart, Cart)")
    assert page.locator("#editor-p0 [data-question='p0.loaded'].invalid").count() > 1
    assert page.is_disabled("#editor-play")
    page.fill("[data-path='players.0.loaded.linen']", "0")
    page.wait_for_function("document.querySelector('#editor-check').className === "
                           "'check good'")
    assert "score" in page.inner_text("#editor-check") and "P1" not in page.inner_text(
        "#editor-check")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "web-editor-solo.png"), full_page=True)
    page.click("#editor-play")
    page.wait_for_selector("#page-play:not([hidden])")
    page.wait_for_function("document.querySelector('#status').textContent"
                           ".includes('Solo game')")
    assert page.locator("#players .player").count() == 1
    assert "workers placed 1/4" in page.inner_text("#status")
    loads = sorted(attrs(page, "#player0 [data-piece='load']", "data-kind"))
    assert loads == ["clay", "hage", "wood"]
    vehicles = sorted(attrs(page, "#player0 [data-piece='vehicle']", "data-kind"))
    assert vehicles == ["cart", "handcart"]
    assert attrs(page, "#gameboard [data-piece='worker']", "data-space") == ["fisherman"]


def attrs(page, selector: str, name: str) -> list[str]:
    return page.eval_on_selector_all(selector, f"els => els.map(e => e.getAttribute('{name}'))")


def test_tournament_results_page(page, shots, tmp_path):
    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy", "mcts:iterations=30"], games=2, seed=2).run(out=out)
    page.click("#tab-tournament")
    page.set_input_files("#tournament-file", str(out))
    page.wait_for_selector("#pairings tr:nth-child(4)")
    text = page.inner_text("#pairings")
    assert "random vs greedy" in text and "W-D-L" in text
    assert page.locator("#ratings-chart rect").count() == 3
    page.screenshot(path=str(shots / "web-tournament.png"))


def board_buildings(page) -> list[str]:
    """The printed names of the buildings in play on the game board's building spaces."""
    keys = page.eval_on_selector_all("#gameboard .building-space[data-building]",
                                     "els => els.map(e => e.dataset.building)")
    return [rules.building(k).name for k in keys if k]


def test_new_game_from_a_seed_and_a_variant_and_save_game_and_position(page, tmp_path):
    page.select_option("#seat1", "human")  # no AI replies: the line is ours
    page.wait_for_function("document.querySelector('#seat1').value === 'human'")
    # a new game from a seed: the buildings on the board are the ones that seed deals
    page.fill("#new-seed", "7")
    page.select_option("#new-variant", "standard")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#status').textContent"
                           ".includes('seed 7, standard')")
    dealt = _core.new_game(seed=7, variant="standard").to_dict()["setup"]["buildings"]
    want = sorted(rules.building(k).name for k in dealt)
    assert sorted(board_buildings(page)) == want
    assert ply_text(page) == "decision 0 of 0"
    # and from a variant: the first game's four light-green buildings are on the board
    page.select_option("#new-variant", "first-game")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#status').textContent"
                           ".includes('seed 7, first-game')")
    shown = board_buildings(page)
    for key in rules.FIRST_GAME_GREEN:
        assert rules.building(key).name in shown
    dealt = _core.new_game(seed=7, variant="first-game").to_dict()["setup"]["buildings"]
    assert sorted(shown) == sorted(rules.building(k).name for k in dealt)
    # play two decisions by clicking, then step back one
    for n in (1, 2):
        page.locator("#legal .move-btn:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelector('#ply-text').textContent === "
                               f"'decision {n} of {n}'")
    labels = page.eval_on_selector_all("#move-list li", "els => els.map(e => e.textContent)")
    page.click("#nav-prev")
    page.wait_for_function("document.querySelector('#ply-text').textContent === "
                           "'decision 1 of 2'")
    # Save game: the whole line, from the seed and variant
    with page.expect_download() as download:
        page.click("#save-record")
    assert download.value.suggested_filename.endswith(".json")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    record = load_record(saved)
    assert record.setup == {"seed": 7, "variant": "first-game"}
    assert len(record.actions) == 2 and len(labels) == 2
    start = _core.new_game(seed=7, variant="first-game")
    assert record.start.to_dict() == start.to_dict()
    # Save position: the position shown (after the first decision), a valid position file
    with page.expect_download() as download:
        page.click("#save-position")
    position = _core.GameState.from_dict(json.loads(Path(download.value.path()).read_text()))
    assert position.to_dict() == record.state_at(1).to_dict()
    assert position.to_dict() != record.final_state().to_dict()
    # the saved game opens again where the line ends
    page.set_input_files("#load-file", str(saved))
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")
    assert ply_text(page) == "decision 2 of 2"
    assert page.eval_on_selector_all("#move-list li",
                                     "els => els.map(e => e.textContent)") == labels


def test_a_game_the_server_closed_is_said_on_the_page(page, live_server, monkeypatch):
    """Issue 29: the page's game closed to make room (the server keeps 64) was replaced by a
    new one without a word."""
    import httpx

    base, web = live_server
    monkeypatch.setattr(web.games, "in_use_seconds", 0.0)  # the page's game out of use
    crowd: list[str] = []

    def crowd_out() -> None:
        with httpx.Client(base_url=base, timeout=30) as http:
            for _ in range(web.games.capacity):
                r = http.post("/api/games", json={})
                assert r.status_code == 200
                crowd.append(r.json()["id"])

    said = ("this game is no longer on the server: it was closed to make room for a newer "
            "game")
    first = page.evaluate("sessionStorage.getItem('arle-game')")
    try:
        crowd_out()
        page.locator("#legal .move-btn:not([disabled])").first.click()  # the game is gone
        page.wait_for_function("document.getElementById('message').textContent"
                               ".endsWith('A new game was started.')")
        assert page.inner_text("#message").startswith(said)
        second = page.evaluate("sessionStorage.getItem('arle-game')")
        assert second != first and web.games.get(second) is not None
        crowd_out()  # and when the page is opened again on a closed game
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert said in page.inner_text("#message")
    finally:  # games used within 5 minutes are in use: they would fill the shared store
        for gid in crowd:
            web.games.close(gid, "closed by the test that made it")


def test_a_solo_game_in_the_browser_played_hinted_and_reviewed(page, tmp_path):
    page.fill("#new-seed", "11")
    page.select_option("#new-players", "1")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#status').textContent"
                           ".includes('Solo game')")
    status = page.inner_text("#status")
    assert "workers placed 0/4" in status and "Score -19 VP" in status
    assert "Start player" not in status and page.is_hidden("#seat1-label")
    assert page.locator("#players .player").count() == 1
    assert "You (solo)" in page.inner_text("#players")
    # a hint: the expected final score, not a lead over an opponent
    page.fill("#hint-seconds", "1")
    page.click("#hint-start")
    page.wait_for_selector("#hint-table .hint-row")
    assert page.inner_text("#hint-table th:nth-child(3)") == "score"  # no squashed value
    assert page.inner_text("#hint-table th:nth-child(4)") == "vs best"
    if page.is_enabled("#hint-stop"):
        page.click("#hint-stop")
    # the whole game by clicking the first move each time
    for n in range(1, 400):
        if "Game over" in page.inner_text("#status"):
            break
        page.locator("#legal .move-btn:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelector('#ply-text').textContent"
                               f".startsWith('decision {n} of')")
    status = page.inner_text("#status")
    assert "Game over: final score" in status and "wins" not in status
    with page.expect_download() as download:
        page.click("#save-record")
    saved = tmp_path / "solo.json"
    download.value.save_as(saved)
    record = load_record(saved)
    assert record.start.players == 1 and record.final_state().is_terminal()
    assert record.setup == {"seed": 11, "variant": "standard", "players": 1}
    assert f"final score {record.final_state().scores()[0]:g} VP" in status
    # the review of its first decisions, reopened from a file
    short = GameRecord.from_position(record.start)
    for a in record.actions[:6]:
        short.push(a)
    path = tmp_path / "short.json"
    short.save(path)
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")
    fixed_analysis(page, 1000)
    page.click("#analysis-start")
    page.wait_for_function("document.querySelector('#analysis-status').textContent === 'done'",
                           timeout=60000)
    assert "expected final score" in page.inner_text("#graph")
    # the score axis runs from 0 (or the lowest score below it) up to the highest, in VP:
    # a score, not a lead symmetric about 0
    low, high = (int((page.text_content(f"#graph .axis-{end}") or "").removesuffix(" VP"))
                 for end in ("bottom", "top"))
    assert low <= 0 and high >= low + 5
    assert "accuracy" in page.inner_text("#accuracy")
