"""``yuugi eval --policy mine=...``: a report with ``mine`` first in every row, one row per level, and
the games that would decide each row; the --games default in --help; momotaro's reachable score range
(issue 38, item 3)."""
from __future__ import annotations

import importlib
import json

import pytest

from yuugi.envs import make_game
from yuugi.training.eval.evaluate import score_range
from yuugi.training.eval.policy_report import ReportRow, games_to_separate

cli = importlib.import_module("yuugi.training.cli.main")  # the module, not the package's main function


def _report_rows(out: str, title: str) -> list[list[str]]:
    """The data rows of the rich table whose title contains ``title``."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            rows.append([cell.strip() for cell in line.strip("│").split("│")])
    return rows[1:] if rows and rows[0][0] == "policy" else rows


def test_the_report_puts_mine_first_in_one_row_per_level(capsys):
    # mine is the normal heuristic under another name: it must come out ahead of random, from its own side,
    # although the round-robin scheduled it after the levels (column B of the pairings table).
    assert cli.main(["eval", "nigejozu", "--levels", "random", "easy", "--policy", "mine=normal",
                     "--games", "40"]) == 0
    out = capsys.readouterr().out
    rows = _report_rows(out, "mine against each level")
    assert [r[:2] for r in rows] == [["mine", "random"], ["mine", "easy"]]
    score_vs_random = float(rows[0][3])
    assert score_vs_random > 0 and rows[0][7] == "yes"  # normal beats random, and 40 games show it
    assert 0.5 < float(rows[0][5]) <= 1.0  # ahead in most games
    pairing = next(r for r in _report_rows(out, "pairings (A against B)") if r[:2] == ["random", "mine"])
    assert float(pairing[3]) == pytest.approx(-score_vs_random)  # the same games, seen from mine's side
    assert "random -> easy: mine's score" in out  # the neighbouring levels


def test_the_json_report_has_the_same_rows(capsys):
    assert cli.main(["eval", "nigejozu", "--levels", "random", "easy", "--policy", "mine=normal",
                     "--games", "20", "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    rows = record["reports"]["mine"]
    assert [(r["policy"], r["against"]) for r in rows] == [("mine", "random"), ("mine", "easy")]
    assert rows[0]["score"] > 0 and rows[0]["score_ci95"][0] <= rows[0]["score"] <= rows[0]["score_ci95"][1]


def test_games_to_decide_and_to_separate_follow_the_normal_approximation():
    # (1.96 * sd / score)^2 = (1.96 / 0.1)^2 = 384.1: 385 games decide a score of 0.1 with sd 1.
    row = ReportRow("normal", 100, 0.1, (-0.1, 0.3), 0.55, (0.45, 0.65), 1.0)
    assert not row.decided and row.games_to_decide == 385
    assert ReportRow("x", 10, 0.0, (-1, 1), 0.5, (0.2, 0.8), 1.0).games_to_decide is None
    # two rows 0.2 apart, sd 1 each: 1.96^2 * 2 / 0.04 = 192.1 -> 193 games per pairing
    assert games_to_separate(ReportRow("a", 100, 0.3, (0, 0), 0, (0, 0), 1.0),
                             ReportRow("b", 100, 0.1, (0, 0), 0, (0, 0), 1.0)) == 193


def test_help_shows_the_games_default(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["eval", "--help"])
    assert "games per pairing (default: 1000)" in " ".join(capsys.readouterr().out.split())


def test_momotaros_score_range_is_one_that_games_can_reach():
    # Four players, +1 to the winner and -1/3 to each other seat. Alternate: two A seats against two B
    # seats, so a game scores (1 - 1/3)/2 - (-1/3 - 1/3)/2 = 2/3 when an A seat wins, -2/3 when a B seat does.
    four = make_game("momotaro")
    assert score_range(four, "alternate") == pytest.approx((-2 / 3, 2 / 3))
    # Field: one A against three B: A wins: 1 - (-1/3) = 4/3; a B wins: -1/3 - (1 - 2/3)/3 = -4/9.
    assert score_range(four, "field") == pytest.approx((-4 / 9, 4 / 3))
    assert score_range(make_game("momotaro", num_players=2), "alternate") == pytest.approx((-2, 2))
    assert score_range(make_game("nigejozu"), "alternate") == pytest.approx((-2, 2))
