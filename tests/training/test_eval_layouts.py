"""Seat layouts, intervals and output formats of the round-robin evaluation.

Seats are checked with spy policies: the game's observation is replaced by the seat being asked
(so each policy sees which seat it acts for), and games are played one per batch, so every call
belongs to the game just dealt.
"""
from __future__ import annotations

import csv
import importlib
import io
import json
from collections import Counter, defaultdict

import numpy as np
import pytest
from yuugi.envs import make_game
from yuugi.training.eval import evaluate

# the module, not the package's re-exported function of the same name
cli = importlib.import_module("yuugi.training.cli.main")


class SeatSpy:
    """Plays the first legal action and records (game, seat) for every seat it is asked to act for."""

    def __init__(self, deals: list[int]) -> None:
        self.deals = deals
        self.seats: dict[int, set[int]] = defaultdict(set)

    def act(self, observation, mask, rng):
        for seat in observation[:, 0]:
            self.seats[len(self.deals) - 1].add(int(seat))
        return mask.argmax(axis=1).astype(np.int64)


def _spied_round(monkeypatch, game_name: str, layout: str, games: int, **rules) -> tuple[SeatSpy, SeatSpy]:
    game_class = type(make_game(game_name, **rules))
    deals: list[int] = []
    real_init = game_class.init

    def init(self, seeds):
        deals.append(len(seeds))
        return real_init(self, seeds)

    monkeypatch.setattr(game_class, "init", init)
    monkeypatch.setattr(game_class, "observe",
                        lambda self, state, seat: np.asarray(seat, dtype=np.float32).reshape(-1, 1))
    a, b = SeatSpy(deals), SeatSpy(deals)
    evaluate.evaluate(game_name, {"A": a, "B": b}, games=games, rules=rules, batch=1, layout=layout)
    assert deals == [1] * games  # one game per batch: a spy's record is per game
    return a, b


@pytest.mark.parametrize("players", [3, 4])
def test_field_seats_one_a_in_every_seat_equally_often_and_b_everywhere_else(monkeypatch, players):
    games = 2 * players
    a, b = _spied_round(monkeypatch, "momotaro", "field", games, num_players=players)
    for g in range(games):
        assert len(a.seats[g]) == 1, f"game {g}: A acted for seats {a.seats[g]}"
        assert a.seats[g] | b.seats[g] == set(range(players)) and not a.seats[g] & b.seats[g]
    assert Counter(next(iter(a.seats[g])) for g in range(games)) == {s: 2 for s in range(players)}


def test_alternate_seats_two_against_two_and_swaps_every_game(monkeypatch):
    a, b = _spied_round(monkeypatch, "momotaro", "alternate", 4, num_players=4)
    for g in range(4):
        even, odd = {0, 2}, {1, 3}
        assert (a.seats[g], b.seats[g]) == ((even, odd) if g % 2 == 0 else (odd, even)), g


def test_alternate_with_three_players_swaps_two_against_one(monkeypatch):
    a, b = _spied_round(monkeypatch, "momotaro", "alternate", 2, num_players=3)
    assert (a.seats[0], b.seats[0]) == ({0, 2}, {1})
    assert (a.seats[1], b.seats[1]) == ({1}, {0, 2})


def test_two_player_layouts_are_the_same():
    for layout in evaluate.LAYOUTS:
        seating = evaluate.seat_layout(layout, np.arange(6), 2)
        assert seating.tolist() == [[0, 1], [1, 0]] * 3, layout
    from yuugi.agents.registry import cpu

    runs = [evaluate.evaluate("nigejozu", {lv: cpu("nigejozu", lv) for lv in ("random", "easy")}, games=6,
                              layout=layout) for layout in evaluate.LAYOUTS]
    assert runs[0].pairings == runs[1].pairings and runs[0].ratings == runs[1].ratings
    assert "alternate and field are the same layout for 2 players" in runs[0].extra["seating"]


def test_an_unknown_layout_names_the_choices():
    from yuugi.agents.registry import cpu

    with pytest.raises(ValueError, match="unknown layout 'ring'; choose from: alternate, field"):
        evaluate.evaluate("nigejozu", {lv: cpu("nigejozu", lv) for lv in ("random", "easy")}, games=2, layout="ring")


# ---- intervals -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name, rules, layout, expected", [
    # nigejozu pays ±1 per game: A's return minus B's lies in [-2, 2].
    ("nigejozu", {}, "alternate", (-2.0, 2.0)),
    # momotaro, 4 players, "winner": +1 to the winner, -1/3 to the others. Field: A wins, B's mean is
    # -1/3: +4/3; A loses to one B: A -1/3, B's mean (1 - 1/3 - 1/3)/3 = 1/9: -4/9.
    ("momotaro", {"num_players": 4}, "field", (-4 / 9, 4 / 3)),
    # Alternate, 2 against 2: one seat wins, so A's two seats return +2/3 together (an A seat wins) or
    # -2/3 (a B seat wins), and the score is A's mean minus B's: (+1/3) - (-1/3) = 2/3 or -2/3. The 4/3
    # once printed here was a bound on A's seats alone, which no game reaches (issue 38).
    ("momotaro", {"num_players": 4}, "alternate", (-2 / 3, 2 / 3)),
    # daifugo's episode is a series: 5 games of +1 .. -1 each, so a seat returns -5 .. +5.
    ("ninja_daifugo", {"series_games": 5}, "alternate", (-10.0, 10.0)),
])
def test_score_range_follows_the_reward_scheme(game_name, rules, layout, expected):
    lo, hi = evaluate.score_range(make_game(game_name, **rules), layout)
    assert lo == pytest.approx(expected[0]) and hi == pytest.approx(expected[1])


def _always_won(monkeypatch, a_return: float, b_return: float) -> None:
    """Every game ends with A's seats earning ``a_return`` and B's ``b_return``."""
    def play_games(game, seat_policy, policies, seeds, rng, on_finished=None):
        return np.where(seat_policy == 0, a_return, b_return).astype(np.float64)

    monkeypatch.setattr(evaluate, "play_games", play_games)


@pytest.mark.parametrize("games", [1, 2, 7, 400])
def test_all_games_won_reach_the_maximum_exactly_and_never_pass_it(monkeypatch, games):
    from yuugi.agents.registry import cpu

    _always_won(monkeypatch, 1.0, -1.0)
    result = evaluate.evaluate("nigejozu", {"a": cpu("nigejozu", "random"), "b": cpu("nigejozu", "random")},
                               games=games)
    (p,) = result.pairings
    assert p.score_mean == 2.0 and p.score_ci == (2.0, 2.0)  # the largest possible score is 2
    assert p.a_win_rate == 1.0 and p.win_ci[1] == 1.0 and 0.0 < p.win_ci[0] < 1.0
    assert tuple(result.extra["score_range"]) == (-2.0, 2.0)


def test_all_games_lost_in_field_layout_stop_at_the_minimum(monkeypatch):
    from yuugi.agents.registry import cpu

    # momotaro, 4 players: A last at -1/3, the B seats' rewards then sum to 1/3 (zero-sum).
    _always_won(monkeypatch, -1 / 3, 1 / 9)
    result = evaluate.evaluate("momotaro", {"a": cpu("momotaro", "random"), "b": cpu("momotaro", "random")},
                               games=40, layout="field", rules={"num_players": 4})
    (p,) = result.pairings
    lo, _ = result.extra["score_range"]
    assert p.score_ci[0] == pytest.approx(-4 / 9) and p.score_ci[0] >= p.score_mean - 1e-15
    assert lo == pytest.approx(-4 / 9) and p.a_win_rate == 0.0 and p.win_ci[0] == 0.0


def test_wilson_interval_stays_in_zero_one():
    for n in (1, 2, 5, 30, 1000):
        for wins in np.linspace(0, n, 11):
            lo, hi = evaluate.wilson_ci(float(wins), n)
            assert 0.0 <= lo <= wins / n <= hi <= 1.0, (wins, n, lo, hi)
    assert evaluate.wilson_ci(0.0, 10)[0] == 0.0 and evaluate.wilson_ci(10.0, 10)[1] == 1.0


def test_bootstrap_is_seeded_and_inside_the_data():
    x = np.array([2.0] * 9 + [-2.0])
    m, (lo, hi) = evaluate.bootstrap_mean_ci(x, seed=[0, 1, 2])
    assert m == pytest.approx(1.6) and -2.0 <= lo <= m <= hi <= 2.0
    assert evaluate.bootstrap_mean_ci(x, seed=[0, 1, 2]) == (m, (lo, hi))


@pytest.mark.parametrize("game_name, rules, layout", [
    ("nigejozu", {}, "alternate"),
    ("momotaro", {"num_players": 4}, "field"),
    ("momotaro", {"num_players": 3}, "alternate"),
])
def test_played_intervals_never_leave_the_possible_range(game_name, rules, layout):
    from yuugi.agents.registry import cpu

    result = evaluate.evaluate(game_name, {lv: cpu(game_name, lv, **rules) for lv in ("random", "easy")},
                               games=12, rules=rules, layout=layout)
    lo, hi = result.extra["score_range"]
    (p,) = result.pairings
    # momotaro's rewards are float32 (-1/3 is not exact): allow that rounding, nothing more.
    assert lo - 1e-6 <= p.score_ci[0] <= p.score_mean <= p.score_ci[1] <= hi + 1e-6
    assert 0.0 <= p.win_ci[0] <= p.a_win_rate <= p.win_ci[1] <= 1.0


# ---- progress ---------------------------------------------------------------------------------------
def test_progress_counts_every_game_of_every_pairing():
    from yuugi.agents.registry import cpu

    ticks: list[int] = []
    evaluate.evaluate("nigejozu", {lv: cpu("nigejozu", lv) for lv in ("random", "easy", "normal")}, games=7,
                      batch=3, progress=ticks.append)
    assert sum(ticks) == 3 * 7 and all(t > 0 for t in ticks)


# ---- the command line: layout text and formats ----------------------------------------------------
EVAL = ["eval", "momotaro", "--rule", "num_players=4", "--levels", "random", "easy", "--games", "8"]


def test_the_table_says_the_layout_and_the_seat_rotation(capsys):
    assert cli.main(EVAL + ["--layout", "field"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar where stderr is not a terminal
    assert "layout: field: one A against 3 copies of B; A at seat g mod 4 in game g (each seat equally often)" \
        in captured.out
    assert "[-0.444, +1.333]" in captured.out  # the possible range of a score
    assert cli.main(EVAL) == 0
    assert "layout: alternate: A at seats 0,2 and B at 1,3 in even games, swapped in odd ones" in \
        capsys.readouterr().out
    assert cli.main(["eval", "nigejozu", "--levels", "random", "easy", "--games", "2", "--layout", "field"]) == 0
    assert "alternate and field are the same layout for 2 players" in capsys.readouterr().out


def test_json_format_loads(capsys):
    assert cli.main(EVAL + ["--layout", "field", "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["layout"] == "field" and record["game"] == "momotaro"
    (p,) = record["pairings"]
    assert (p["a"], p["b"], p["games"]) == ("random", "easy", 8)
    assert set(record["ratings"]) == {"random", "easy"}


def test_csv_format_has_a_header_and_a_row_per_pairing(capsys, tmp_path):
    save = tmp_path / "run.json"
    assert cli.main(["eval", "nigejozu", "--levels", "random", "easy", "normal", "--games", "4", "--format", "csv",
                     "--save", str(save)]) == 0
    captured = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(captured.out)))
    assert list(rows[0]) == ["game", "layout", "a", "b", "games", "score", "score_ci95_low", "score_ci95_high",
                             "a_ahead", "a_ahead_ci95_low", "a_ahead_ci95_high", "decided", "a_ordinal", "b_ordinal",
                             "mirror"]
    assert [(r["a"], r["b"]) for r in rows] == [("random", "easy"), ("random", "normal"), ("easy", "normal")]
    assert {r["mirror"] for r in rows} == {"no"}
    for r in rows:
        assert -2.0 <= float(r["score_ci95_low"]) <= float(r["score"]) <= float(r["score_ci95_high"]) <= 2.0
    assert f"saved: {save}" in captured.err  # stdout holds only the CSV


def test_a_bad_format_or_layout_is_one_line(capsys):
    assert cli.main(EVAL + ["--format", "xml"]) == 2
    line = capsys.readouterr().err.strip()
    assert "--format" in line and "'table', 'json', 'csv'" in line and "\n" not in line
    assert cli.main(EVAL + ["--layout", "ring"]) == 2
    line = capsys.readouterr().err.strip()
    assert "--layout" in line and "'alternate', 'field'" in line and "\n" not in line
