"""What the page says while a game is played (issue 34, items 3 and 7), in a real headless
Chromium: a repeated conversion asked as a count, pass explained where it is offered, the
event log oldest first with each player named once, and scores that read well below zero."""

from __future__ import annotations

import json

import pytest

from helpers import position
from web_helpers import open_tournament_game, root_move, serve_hint, served_hint, step_to

pytestmark = pytest.mark.browser


def _open_position(page, tmp_path, d) -> None:
    """Both seats at the keyboard, the position ``d`` opened from a file."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(d))
    page.select_option("#seat1", "human")
    page.wait_for_function("document.querySelector('#seat1').value === 'human'")
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent.includes('Opened')")


def test_the_tanner_asks_how_many_hides_and_the_log_reads_oldest_first(page, tmp_path):
    _open_position(page, tmp_path, position({"goods": {"hide": 3, "leather": 0}},
                                            half_year=2))
    # pass, where it is offered, says what it does
    said = page.locator("#legal .move-btn[title='notation: pass'] .cg")
    assert said.inner_text() == "the worker does nothing"
    assert "without acting" in said.get_attribute("title")
    page.click(".space-card.clickable[data-space='tanner']")
    page.wait_for_selector("#legal .move-btn[data-count]")
    assert page.inner_text("#prompt") == (
        "P0 - Tanner: how many hides do you turn into leather? (0-3)")
    labels = page.locator("#legal .move-btn .label").all_inner_texts()
    assert labels == ["0: none", "1: 1 hide into 1 leather", "2: 2 hide into 2 leather",
                      "3: 3 hide into 3 leather"]
    # no "once more? stop / more" before any conversion
    assert not page.locator("#legal .move-btn[data-action]").count()
    page.click("#legal .move-btn[data-count='2']")
    page.wait_for_selector("#legal .move-btn[title='notation: place peat_boatman']")
    assert page.inner_text("#ply-text") == "decision 4 of 4"  # the Tanner, more, more, stop
    # issue 34: the count answered, once, as the question lists it (the move list and the log
    # said "Tanner once more", "Tanner once more", "stop")
    listed = page.locator("#move-list li").all_inner_texts()
    assert listed == ["1.P0 place Tanner", "4.P0 Tanner: 2 hide into 2 leather"], listed
    log = page.locator("#event-log > li:not(.step)").all_inner_texts()
    assert log == ["P0 (you) place Tanner",  # oldest first, as the move list
                   "P0 (you) Tanner: 2 hide into 2 leather: -2 hide, +2 leather (+2 VP)"], log
    # the player is named once per line: by the tag, never again in the line
    assert not any("P0:" in line for line in log), log
    # undo takes the count back whole (once, by its answer); 0 says it converted nothing
    page.click("#undo")
    page.wait_for_selector("#legal .move-btn[data-count]")
    assert page.inner_text("#ply-text").startswith("decision 1 ")
    assert page.inner_text("#message").startswith(
        "Taken back: P0 Tanner: 2 hide into 2 leather (Redo plays it again)")
    page.click("#legal .move-btn[data-count='0']")
    page.wait_for_selector("#legal .move-btn[title='notation: place peat_boatman']")
    assert page.locator("#event-log > li:not(.step)").all_inner_texts()[-1] == (
        "P0 (you) Tanner: converted nothing")
    assert page.locator("#move-list li:not(.variation-box)").all_inner_texts()[-1] == (
        "2.P0 Tanner: none")
    # scores below zero with their unit and a comma, not "-19 - -19"
    status = page.inner_text("#status")
    assert "Score P0 -19 VP, P1 -19 VP" in status, status


def test_a_tournament_lists_every_game_and_opens_one_with_its_agents(page, shots, tmp_path):
    # issue 34: the results page listed no games, and an opened record called its seats
    # "you" and "AI"
    from arle_ai.play.results import read_file
    from arle_ai.play.tournament import Tournament

    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy"], games=2, seed=6).run(out=out)
    entries = read_file(out).entries()
    page.click("#tab-tournament")
    page.set_input_files("#tournament-file", str(out))
    page.wait_for_selector("#games tr[data-game='1']")
    rows = page.locator("#games tr[data-game]")
    assert rows.count() == len(entries)
    for e in entries:
        cells = page.locator(f"#games tr[data-game='{e.game}'] td").all_inner_texts()
        assert cells[1].startswith(e.agents[0] + " (") and cells[2].startswith(e.agents[1])
        assert cells[3] == f"P{e.winner} {e.agents[e.winner]}" and cells[4] == str(e.decisions)
    page.screenshot(path=str(shots / "web-tournament-games.png"))
    second = entries[1]
    open_tournament_game(page, 1, f"Opened game 1 of t.jsonl: {second.agents[0]} against "
                                  f"{second.agents[1]}, {second.decisions} decisions",
                         second.decisions)
    # the seats by the agents that played them, not "you" and "AI"
    heads = page.locator("#players .player h3").all_inner_texts()
    assert heads[0].startswith(f"P0 {second.agents[0]}"), heads
    assert heads[1].startswith(f"P1 {second.agents[1]}"), heads
    assert page.locator(f"#event-log .tag.p1:text-is('P1 {second.agents[1]}')").count() > 0
    step_to(page, 5, second.decisions)  # step through it


# a line through the Tanner's count: 2 hides into leather, then P1's worker
TANNER_LINE = ["place tanner", "more", "more", "stop", "place fisherman (special)"]


def test_a_line_through_a_count_reads_as_its_answer_in_the_hint_and_the_review(
        page, tmp_path):
    # issue 34: the hint's and the review's lines said "place Tanner, Tanner once more,
    # Tanner once more, stop", where the game asks "how many hides do you turn into leather?"
    import arle_ai
    from arle_ai.formats.records import GameRecord

    d = position({"goods": {"hide": 3, "leather": 0}}, half_year=2)
    state = arle_ai.GameState.from_dict(d)
    said = "Tanner: 2 hide into 2 leather"  # the count's answer, as the question lists it
    serve_hint(page, lambda: served_hint(state, [root_move(state, TANNER_LINE[0], margin=1.0,
                                                           pv=TANNER_LINE)]))
    _open_position(page, tmp_path, d)
    page.click("#hint-start")
    page.wait_for_function("document.body.dataset.hintUpdates !== undefined")
    line = page.inner_text("#hint-table .pv")
    assert said in line and "place Fisherman (special)" in line, line
    assert "once more" not in line and "stop" not in line, line
    # the review's better line
    rec = GameRecord.from_position(state)
    played = next(a for a in state.legal_actions()
                  if state.action_to_string(a) not in (TANNER_LINE[0], "pass"))
    rec.push(played)
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": [{
        "ply": 1, "player": 0, "half_year": 2, "pending": state.pending,
        "played": state.action_to_string(played), "best": TANNER_LINE[0],
        "best_pv": TANNER_LINE, "best_visits": 40000, "played_visits": 40000,
        "played_value": 0.40, "best_value": 0.60, "value_lost": 0.2, "played_margin": -5.0,
        "best_margin": 1.0, "vp_lost": 6.0}]}
    path = tmp_path / "reviewed.json"
    rec.save(path)
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent"
                           ".includes('reviewed.json')")
    page.click("#move-list li[data-ply='1']")
    page.wait_for_selector("#review-detail .pv")
    better = page.inner_text("#review-detail .pv")
    assert better.startswith("The better line:") and said in better, better
    assert "once more" not in better and "stop" not in better, better


def test_a_solo_benchmark_lists_its_games_and_opens_each_with_its_agent(page, tmp_path):
    # issue 34: a solo results file (arle selfplay --players 1) was refused by the results
    # page ("the page shows a tournament's pairings"), so none of its games could be opened
    from arle_ai.play.results import read_file
    from arle_ai.play.tournament import Tournament

    out = tmp_path / "solo.jsonl"
    Tournament(["random", "greedy"], games=2, seed=4, players=1).run(out=out)
    entries = read_file(out).entries()
    page.click("#tab-tournament")
    page.set_input_files("#tournament-file", str(out))
    page.wait_for_selector("#games tr[data-game]")
    assert page.inner_text("#tournament-status").startswith("solo.jsonl: 4 solo games")
    # each agent's scores, as arle selfplay --players 1 prints them
    scores = page.locator("#solo-scores tr").all_inner_texts()
    assert [row.split("\t")[:2] for row in scores[1:]] == [["random", "2"], ["greedy", "2"]]
    heads = page.locator("#games tr:first-child th").all_inner_texts()
    assert heads[:3] == ["game", "agent", "decisions"]
    assert page.locator("#games tr[data-game]").count() == len(entries) == 4
    for e in entries:
        cells = page.locator(f"#games tr[data-game='{e.game}'] td").all_inner_texts()
        x = float(e.scores[0])
        score = str(int(x)) if x.is_integer() else f"{x:.1f}"
        assert cells[1] == f"{e.agents[0]} ({score} VP)" and cells[2] == str(e.decisions)
    # a game on the board, its one seat named by the agent that played it
    game = entries[2]
    open_tournament_game(page, game.game, f"Opened game {game.game} of solo.jsonl: "
                                          f"{game.agents[0]} (solo), {game.decisions} decisions",
                         game.decisions)
    heads = page.locator("#players .player h3").all_inner_texts()
    assert len(heads) == 1 and heads[0].startswith(f"{game.agents[0]} (solo)"), heads
    step_to(page, 5, game.decisions)  # step through it


def test_the_hints_rows_at_a_count_question_read_as_the_counts_they_make(page, tmp_path):
    # issue 34: at "how many hides do you turn into leather? (0-3)" the hint's table listed
    # "Tanner once more" and "stop", the engine's steps, not the counts the player chooses
    import arle_ai

    d = position({"goods": {"hide": 3, "leather": 0}}, half_year=2)
    at_tanner = arle_ai.GameState.from_dict(d)
    at_tanner.apply(at_tanner.parse_action(TANNER_LINE[0]))
    serve_hint(page, lambda: served_hint(at_tanner, [
        root_move(at_tanner, "more", visits=3000, margin=1.0, pv=TANNER_LINE[1:]),
        root_move(at_tanner, "stop", rank=2, visits=1000, margin=-1.0,
                  pv=["stop", TANNER_LINE[-1]])]))
    _open_position(page, tmp_path, d)
    page.click(".space-card.clickable[data-space='tanner']")
    page.wait_for_selector("#legal .move-btn[data-count]")
    page.click("#hint-start")
    page.wait_for_function("document.body.dataset.hintUpdates !== undefined")
    # "more" as the count its line converts in all, "stop" as the count it stops at; each
    # row's line goes on after the count
    rows = page.locator("#hint-table .hint-row b").all_inner_texts()
    assert rows == ["Tanner: 2 hide into 2 leather", "Tanner: none"], rows
    lines = page.locator("#hint-table .pv").all_inner_texts()
    assert [x.strip() for x in lines] == ["P1 place Fisherman (special)"] * 2, lines
    table = page.inner_text("#hint-table")
    assert "once more" not in table and "stop" not in table, table


def count_marks(page) -> dict[str, list[dict]]:
    """The marks on the list of moves' buttons, by the count each button answers (its
    ``data-count``; ``data-action`` for any other move): each mark's rank, words and tone."""
    return page.evaluate("""(() => {
      const out = {};
      for (const b of document.querySelectorAll('#legal .move-btn')) {
        out[b.dataset.count ?? `action ${b.dataset.action}`] = [...b.querySelectorAll(
          '.move-mark')].map((m) => ({ rank: m.dataset.markRank, text: m.textContent,
          tone: getComputedStyle(m).backgroundColor, title: m.title }));
      }
      return out; })()""")


TONES = {"1": "rgb(30, 138, 60)", "2": "rgb(45, 108, 181)",  # overlay.js's TONES
         "better": "rgb(30, 138, 60)", "played": "rgb(192, 57, 43)"}


@pytest.mark.parametrize("rows, marked", [
    # "more" first, its line converting twice; "stop" second, at 0
    ([("more", 3000, 1.0, TANNER_LINE[1:]), ("stop", 1000, -1.0, ["stop", TANNER_LINE[-1]])],
     {"2": ("1", "1 +1.0"), "0": ("2", "2 -1.0")}),
    # "stop" first; "more" second, its line converting once and stopping
    ([("stop", 3000, 2.5, ["stop", TANNER_LINE[-1]]), ("more", 1000, 0.5,
                                                       ["more", "stop", TANNER_LINE[-1]])],
     {"0": ("1", "1 +2.5"), "1": ("2", "2 +0.5")}),
])
def test_the_hints_marks_at_a_count_question_are_on_the_counts_they_answer(
        page, tmp_path, rows, marked):
    # issue 34 item 6: the hint's ranked marks were keyed by the engine's moves ("more",
    # "stop"), which no button of a count question carries: no mark was drawn anywhere
    import arle_ai

    d = position({"goods": {"hide": 3, "leather": 0}}, half_year=2)
    at_tanner = arle_ai.GameState.from_dict(d)
    at_tanner.apply(at_tanner.parse_action(TANNER_LINE[0]))
    serve_hint(page, lambda: served_hint(at_tanner, [
        root_move(at_tanner, move, rank=i + 1, visits=visits, margin=margin, pv=pv)
        for i, (move, visits, margin, pv) in enumerate(rows)]))
    _open_position(page, tmp_path, d)
    page.click(".space-card.clickable[data-space='tanner']")
    page.wait_for_selector("#legal .move-btn[data-count]")
    page.click("#hint-start")
    page.wait_for_selector("#legal .move-mark")
    found = count_marks(page)
    assert set(found) == {"0", "1", "2", "3"}, found
    for count, marks in found.items():
        if count not in marked:
            assert marks == [], (count, found)
            continue
        rank, text = marked[count]
        assert [(m["rank"], m["text"], m["tone"]) for m in marks] == [
            (rank, text, TONES[rank])], (count, found)
    # each mark says the answer it stands for, as the hint's row names it
    rows_said = page.locator("#hint-table .hint-row b").all_inner_texts()
    for count, (rank, _) in marked.items():
        title = found[count][0]["title"]
        assert title.startswith(f"hint {rank}: {rows_said[int(rank) - 1]}: "), title
    assert "once more" not in " ".join(rows_said) and "stop" not in " ".join(rows_said)
    # the board draws none: the answers are about no one piece
    assert page.locator("#board .board-mark").count() == 0


def test_the_mistakes_answer_at_a_count_question_is_on_the_counts_buttons(page, tmp_path):
    # issue 34 item 6: the mistakes mode's better move and move played at a count question
    # are the counts they answer (the review's reading: the game played 2, the search's
    # line converts none), marked on those count buttons
    _open_reviewed_tanner(page, tmp_path, TANNER_LINE, 2, "more", "stop",
                          ["stop", TANNER_LINE[-1]])
    page.click("#learn-start")
    page.wait_for_selector("#learn-answer")
    page.wait_for_selector("#legal .move-btn[data-count]")
    page.click("#learn-answer")
    page.wait_for_selector("#legal .move-mark")
    found = count_marks(page)
    assert [(m["rank"], m["tone"]) for m in found["0"]] == [("better", TONES["better"])], found
    assert found["0"][0]["title"] == "the better move: Tanner: none", found
    assert [(m["rank"], m["text"], m["tone"]) for m in found["2"]] == [
        ("??", "?? played", TONES["played"])], found
    assert found["2"][0]["title"] == "the move played: Tanner: 2 hide into 2 leather (??)"
    assert found["1"] == found["3"] == [], found


def test_a_counts_entry_carries_the_review_mark_of_its_moves(page, tmp_path):
    # the review marks each of the engine's decisions: a mark on a step of a count (folded
    # into the count's one entry in the move list) shows on that entry
    # the marked decision is the count's second step (after the first "more")
    _open_reviewed_tanner(page, tmp_path, TANNER_LINE, 3, "more", "stop",
                          ["stop", TANNER_LINE[-1]])
    listed = page.locator("#move-list > li[data-node]").all_inner_texts()
    assert listed == ["1.P0 place Tanner", "4.P0 Tanner: 2 hide into 2 leather ??",
                      "5.P1 place Fisherman (special)"], listed
    # the marked step itself, shown when the board shows it, with its review
    page.locator("#mistakes li").first.click()
    page.wait_for_function("document.querySelector('#ply-text').textContent"
                           ".startsWith('decision 3 ')")
    assert page.inner_text("#move-list li.current") == "3.P0 Tanner: 2 hide into 2 leather ??"


# the Tanner's count question (after "place tanner", 3 hides): the game's answer and the
# review's, each the first of the engine's moves with the line after it
STOPPED_LINE = ["place tanner", "stop", "place fisherman (special)"]


def _open_reviewed_tanner(page, tmp_path, line, ply, played, best, best_pv) -> None:
    """A game through the Tanner's count question (``line``), its decision at ``ply`` (2: the
    question itself; 3: after the first "more") reviewed (``played``, ``best`` and the better
    line ``best_pv``) as a ``??``, saved and opened on the page."""
    import arle_ai
    from arle_ai.formats.records import GameRecord

    d = position({"goods": {"hide": 3, "leather": 0}}, half_year=2)
    rec = GameRecord.from_position(arle_ai.GameState.from_dict(d))
    for text in line:
        rec.push(rec.final_state().parse_action(text))
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": [{
        "ply": ply, "player": 0, "half_year": 2, "pending": rec.state_at(ply - 1).pending,
        "played": played, "best": best, "best_pv": best_pv, "best_visits": 40000,
        "played_visits": 40000, "played_value": 0.40, "best_value": 0.60, "value_lost": 0.2,
        "played_margin": -5.0, "best_margin": 1.0, "vp_lost": 6.0}]}
    path = tmp_path / "reviewed.json"
    rec.save(path)
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("document.querySelector('#message').textContent"
                           ".includes('reviewed.json')")


def _learn_at_the_tanner(page, tmp_path, line, played, best, best_pv) -> None:
    """The reviewed Tanner game (:func:`_open_reviewed_tanner`, its count question) learnt
    from: the board at the count question, its count buttons shown."""
    _open_reviewed_tanner(page, tmp_path, line, 2, played, best, best_pv)
    page.click("#learn-start")
    page.wait_for_selector(".learn-ask")
    page.wait_for_selector("#legal .move-btn[data-count='3']")


def _verdict(page, selector: str) -> str:
    """The mistakes panel's verdict (``.learn-right`` or ``.learn-wrong``), once given."""
    page.wait_for_selector(f"#learn-body {selector}")
    assert "another position" not in page.inner_text("#learn-body")
    return page.inner_text(f"#learn-body {selector}")


def test_the_better_count_is_found_in_the_mistakes_mode(page, tmp_path):
    # a count of 1 or more was never judged (the board showed "another position"): the game
    # converted none, the review's better line converts 2, and 2 is found
    _learn_at_the_tanner(page, tmp_path, STOPPED_LINE, "stop", "more", TANNER_LINE[1:])
    page.click("#legal .move-btn[data-count='2']")
    said = _verdict(page, ".learn-right")
    assert said == "✓ Tanner: 2 hide into 2 leather: the better count the review found.", said
    assert page.inner_text("#learn-count").endswith("found 1"), page.inner_text("#learn-count")
    # the answer is given: the better count and the count played on their buttons
    assert page.locator("#learn-next").count() == 1


def test_the_count_played_is_what_was_played_in_the_mistakes_mode(page, tmp_path):
    # the game converted 2, the review's better answer is none
    _learn_at_the_tanner(page, tmp_path, TANNER_LINE, "more", "stop",
                         ["stop", TANNER_LINE[-1]])
    page.click("#legal .move-btn[data-count='2']")
    said = _verdict(page, ".learn-wrong")
    assert said == "✗ Tanner: 2 hide into 2 leather is the count played in the game.", said
    assert page.inner_text("#learn-count").endswith("found 0")
    # again, a step at a time: the game's first "more" is a count in progress, not judged
    # (it was judged as the move played) nor "another position"
    page.click("#learn-retry")
    page.wait_for_selector(".learn-ask")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#learn-body').textContent"
                           ".includes('A count in progress')")
    body = page.inner_text("#learn-body")
    assert "Tanner: 1 hide into 1 leather so far" in body, body
    assert "another position" not in body and page.locator(".learn-wrong").count() == 0, body
    # the rest of it (1 more): the whole count, 2, is the count played
    page.click("#legal .move-btn[data-count='1']")
    said = _verdict(page, ".learn-wrong")
    assert said == "✗ Tanner: 2 hide into 2 leather is the count played in the game.", said


def test_playing_the_better_count_plays_the_whole_count_in_the_mistakes_mode(page, tmp_path):
    # "Play the better move" at a count question sent the review's first engine move (one
    # "more"), leaving a count in progress; it plays the better count, 2, as its button would
    _learn_at_the_tanner(page, tmp_path, STOPPED_LINE, "stop", "more", TANNER_LINE[1:])
    page.click("#learn-answer")
    page.wait_for_selector("#learn-play")
    page.click("#learn-play")
    page.wait_for_function("document.querySelector('#move-list').textContent"
                           ".includes('Tanner: 2 hide into 2 leather')")
    page.wait_for_function("!document.querySelector('#legal .move-btn[data-count]')")
    assert "count in progress" not in page.inner_text("#learn-body")


def test_another_count_is_one_the_review_cannot_judge_in_the_mistakes_mode(page, tmp_path):
    # the game converted none, the review's better line 2: of 1 and 3 (the last "more" ends
    # the action: no "stop") the review, which measured no other count, says nothing
    _learn_at_the_tanner(page, tmp_path, STOPPED_LINE, "stop", "more", TANNER_LINE[1:])
    for count, said in ((1, "Tanner: 1 hide into 1 leather"), (3, "Tanner: 3 hide into 3 leather")):
        page.click(f"#legal .move-btn[data-count='{count}']")
        verdict = _verdict(page, ".learn-wrong")
        assert verdict == (
            f"✗ {said} is neither the better count the review found (Tanner: 2 hide into 2 "
            "leather) nor the count played (Tanner: none): the review measured no other "
            "count, so it cannot say how this one compares."), verdict
        assert page.inner_text("#learn-count").endswith("found 0")
        page.click("#learn-retry")
        page.wait_for_selector(".learn-ask")
        page.wait_for_selector("#legal .move-btn[data-count='3']")
