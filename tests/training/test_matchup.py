"""The match-up matrix: seat 0 moves first, cells per deck pair, Wilson intervals, the files it writes."""
from __future__ import annotations

import json

import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.seated.deckbuild.matches import Matchup, first_player_games, play_matchups
from yuugi.seated.deckbuild.scoring import score_deck
from yuugi.training.eval import matchup


def test_seat_0_moves_first_in_every_game_kept():
    game = make_game("ninja_slayer")
    st, seeds = first_player_games(game, ("D1", "sealed"), 500, 40)
    assert st.batch_size == 40 and (st.first == 0).all() and (st.tp == 0).all()
    # the kept seeds are the stream's seeds whose own draw gives seat 0 the first move, in order
    stream = np.arange(500, int(seeds[-1]) + 1)
    fresh = game.init(stream, {"decks": ("D1", "sealed")})
    assert np.array_equal(seeds, stream[fresh.first == 0])


def test_a_tiny_matrix_has_every_cell_and_intervals_inside_0_1():
    result = matchup.run_matrix(["random"], games=3, decks=["D1", "sealed"], seed=0, batch=4)
    cells = {(c["first_deck"], c["second_deck"]): c for c in result["cells"]}
    assert set(cells) == {("D1", "D1"), ("D1", "sealed"), ("sealed", "D1"), ("sealed", "sealed")}
    assert result["complete"] is True
    for c in cells.values():
        assert c["games"] == 3 == c["first_wins"] + c["first_losses"] + c["draws"]
        lo, hi = c["wilson95"]
        assert 0.0 <= lo <= c["first_win_rate"] <= hi <= 1.0
        assert c["first_win_rate"] == pytest.approx((c["first_wins"] + 0.5 * c["draws"]) / 3, abs=1e-5)


def test_two_levels_play_each_deck_pair_with_each_level_first():
    cells, matchups = matchup.plan_cells(["D1", "D2"], ["random", "normal"], 5, seed=0)
    assert len(cells) == 8
    firsts = [(c["first_deck"], c["second_deck"], c["first_level"]) for c in cells]
    assert len(set(firsts)) == 8
    assert sum(c["first_level"] == "random" for c in cells) == 4
    assert len({m.seed_start for m in matchups}) == 8  # every cell has its own seed stream


def test_per_pairing_splits_the_games_over_the_two_orders():
    cells, matchups = matchup.plan_cells(["D1", "D2", "sealed"], ["random"], 11, seed=0, per_pairing=True)
    games = {(c["first_deck"], c["second_deck"]): m.games for c, m in zip(cells, matchups)}
    assert games[("D1", "D1")] == 11 and games[("sealed", "sealed")] == 11
    assert games[("D1", "D2")] + games[("D2", "D1")] == 11 and {games[("D1", "D2")], games[("D2", "D1")]} == {5, 6}


def test_outcomes_add_up_across_a_mixed_batch():
    game = make_game("ninja_slayer")
    from yuugi.agents.registry import cpu

    plays = [Matchup(("D1", "D2"), (0, 0), 7, 0), Matchup(("D3", "D4"), (0, 0), 5, 10**7)]
    out = play_matchups(game, plays, [cpu("ninja_slayer", "random")], np.random.default_rng(0), batch=3)
    assert (out.first_wins + out.first_losses + out.draws).tolist() == [7, 5]
    assert [len(s) for s in out.seeds] == [7, 5]


def test_a_deck_moving_second_wins_when_the_first_player_loses():
    """score_deck(seats="second") is the mirror image of the first player's record on the same games."""
    from yuugi.agents.registry import cpu

    game = make_game("ninja_slayer")
    policy = cpu("ninja_slayer", "random")
    s = score_deck(game, "D3", "D1", policy, policy, 6, seed_start=0, rng=np.random.default_rng(1), seats="second")
    # the same games seen from the first player (D1 at seat 0): its seeds start half a stride later
    from yuugi.seated.deckbuild.matches import SEED_STRIDE

    out = play_matchups(game, [Matchup(("D1", "D3"), (0, 0), 6, SEED_STRIDE // 2)], [policy],
                        np.random.default_rng(1))
    assert s.second == (int(out.first_losses[0]), int(out.first_wins[0]), int(out.draws[0]))
    assert s.first == (0, 0, 0)


def test_the_command_line_writes_json_with_its_command_and_a_heat_map(tmp_path):
    out = tmp_path / "m.json"
    assert matchup.main(["--level", "random", "--games", "2", "--decks", "D2", "--batch", "2", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["command"] == f"python -m yuugi.training.eval.matchup --level random --games 2 --decks D2 --batch 2 --out {out}"
    assert data["complete"] and len(data["cells"]) == 1 and data["cells"][0]["games"] == 2
    assert out.with_suffix(".png").stat().st_size > 1000


def test_level_tags_name_the_files():
    assert matchup.level_tag(["normal"]) == "normal"
    assert matchup.level_tag(["runs/x/ninja_slayer_hard.npz", "normal"]) == "ninja_slayer_hard_vs_normal"


def test_bad_requests_are_named():
    with pytest.raises(ValueError, match="unknown deck"):
        matchup.run_matrix(["random"], games=1, decks=["D7"])
    with pytest.raises(ValueError, match="games"):
        matchup.run_matrix(["random"], games=0, decks=["D1"])
