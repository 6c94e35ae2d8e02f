"""Series of games: titles, rewards, dealing, tribute, exchange, the lead after the exchange, 都落ち.

Rules file §5.2, §5.7-5, §5.9, §8 A3, A4, A16–A19.
"""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError

from .scenario_helpers import (ALL_CARDS, JUTSU_INDICES, PICK0, RANKS, ZERO_SUM, card_index, game, legal_labels,
                               load, pos, step, strongest)

TITLE_OF_POSITION = {1: "daifugo", 2: "fugo", 3: "hinmin", 4: "daihinmin"}


def end_game_zero(g, seed=0, declaration=0, order=(None, 1, None, 2)):
    """Game 0 where seats 1 and 3 already finished 1st/2nd; seat 0 goes out 3rd, seat 2 is 4th."""
    st = load(g, [["HA"], [], ["D3", "D4"], []], to_play=0, finish_positions=list(order), seed=seed,
              declaration=declaration)
    step(g, st, "HA")
    return st


def test_game_end_deals_next_game_with_titles_and_tribute_in_the_same_step():
    g = game(series_games=2)
    st = end_game_zero(g, seed=5)
    np.testing.assert_allclose(st.rewards[0], [ZERO_SUM[2], ZERO_SUM[0], ZERO_SUM[3], ZERO_SUM[1]], atol=1e-6)
    assert not bool(st.terminated[0])
    p = pos(g, st)
    assert p["game_index"] == 1
    assert p["titles"] == ["hinmin", "daifugo", "daihinmin", "fugo"]
    assert p["finish_positions"] == [None, None, None, None]
    assert p["phase"] == "exchange" and p["to_play"] == 1 and p["picks_left"] == 2
    assert p["miyako_candidate"] == 1  # the previous 大富豪 (§5.2-8)
    np.testing.assert_allclose(p["series_score"], [ZERO_SUM[2], ZERO_SUM[0], ZERO_SUM[3], ZERO_SUM[1]], atol=1e-6)
    # Dealing starts at the previous 大富豪 (14 cards); tribute 2 from 大貧民, 1 from 貧民.
    sizes = [len(h) for h in p["hands"]]
    assert sizes == [12, 16, 11, 14]
    assert sorted(c for h in p["hands"] for c in h) == sorted(ALL_CARDS)
    assert p["field"] is None and p["revolution"] is False


def test_exchange_picks_then_previous_daihinmin_leads():
    g = game(series_games=2)
    st = end_game_zero(g, seed=9)
    p = pos(g, st)
    tribute_to_daifugo = set(p["given"][2])
    assert set(p["received"][1]) == tribute_to_daifugo and len(tribute_to_daifugo) == 2
    # Only PICK_CARD of the 大富豪's own cards is legal (no play, no pass, no jutsu).
    m = g.legal_mask(st)[0]
    assert not m[:PICK0].any()
    assert {i - PICK0 for i in np.flatnonzero(m)} == {card_index(c) for c in p["hands"][1]}
    # A18: the 大富豪 may give a tribute card back.
    back = sorted(tribute_to_daifugo)[0]
    other = sorted(set(p["hands"][1]) - tribute_to_daifugo)[0]
    not_mine = p["hands"][0][0]
    with pytest.raises(IllegalActionError):
        step(g, st, f"pick {not_mine}")
    step(g, st, f"pick {back}")
    p = pos(g, st)
    assert p["to_play"] == 1 and p["picks_left"] == 1 and p["picked"] == [back]
    with pytest.raises(IllegalActionError):
        step(g, st, f"pick {back}")  # two distinct cards
    step(g, st, f"pick {other}")
    p = pos(g, st)
    assert back in p["hands"][2] and other in p["hands"][2]
    assert back not in p["hands"][1] and other not in p["hands"][1]
    # Then the 富豪 (seat 3) picks one card for the 貧民 (seat 0).
    assert p["phase"] == "exchange" and p["to_play"] == 3 and p["picks_left"] == 1
    gift = p["hands"][3][-1]
    step(g, st, f"pick {gift}")
    p = pos(g, st)
    assert gift in p["hands"][0] and gift not in p["hands"][3]
    # Play starts; hand sizes back to the dealt sizes; the previous 大貧民 (seat 2) leads.
    assert p["phase"] == "play" and p["to_play"] == 2 and p["field"] is None
    assert [len(h) for h in p["hands"]] == [13, 14, 13, 13]
    lab = legal_labels(g, st)
    assert "pass" not in lab and not any(l.startswith("pick") for l in lab)
    # §5.2-6: gifts are known to giver and receiver only.
    known = p["known"]
    assert {back, other} <= set(known[1][2])
    assert not ({back, other} & (set(known[0][2]) | set(known[3][2])))


@pytest.mark.parametrize("declaration", [0, 5])
def test_tribute_is_the_strongest_cards_by_the_order_at_game_start(declaration):
    """A19: order at the start of this game (D5 reversed, the joker on top), ties ♠ > ♥ > ♦ > ♣."""
    g = game(series_games=2, declarations=(declaration,))
    tie_decided = joker_given = 0
    for seed in range(40):
        st = end_game_zero(g, seed=seed, declaration=declaration)
        p = pos(g, st)
        assert p["declaration"] == declaration
        assert p["revolution"] is (declaration == 5)
        for giver, taker, k in ((2, 1, 2), (0, 3, 1)):  # 大貧民 → 大富豪, 貧民 → 富豪
            dealt = set(p["hands"][giver]) | set(p["given"][giver])
            assert len(dealt) == 13
            exp = strongest(dealt, k, declaration)
            assert set(p["given"][giver]) == exp, (seed, sorted(dealt))
            assert set(p["received"][taker]) == exp
            joker_given += "JK" in exp
            # Count deals where the suit tie order decided the tribute (k-th and next card share a rank).
            nxt = strongest(dealt, k + 1, declaration) - exp
            kth = [c for c in exp if c != "JK"]
            if kth and nxt and "JK" not in nxt:
                weakest_given = max(kth, key=lambda c: (RANKS.index(c[1]) * (1 if declaration == 5 else -1)))
                tie_decided += weakest_given[1] == next(iter(nxt))[1]
    assert joker_given > 0 and tie_decided > 0


def test_tribute_tie_order_examples():
    """Pure rule examples of the helper the tribute tests rely on (§5.2-5)."""
    assert strongest(["H2", "S2", "C2", "JK"], 2) == {"JK", "S2"}
    assert strongest(["H2", "S2", "C2", "DA"], 2) == {"S2", "H2"}
    assert strongest(["H3", "S3", "C4", "JK"], 2, declaration=5) == {"JK", "S3"}
    assert strongest(["JK", "D2", "H2"], 2, declaration=1) == {"H2", "D2"}


def test_series_ends_after_the_last_game_and_accumulates_scores():
    g = game(series_games=3)
    st = load(g, [["HA"], [], ["D3", "D4"], []], to_play=0, finish_positions=[None, 1, None, 2],
              game_index=2, titles=["daifugo", "fugo", "hinmin", "daihinmin"], miyako_candidate=None,
              series_score=[1.0, 0.0, -1.0, 0.0])
    step(g, st, "HA")
    assert bool(st.terminated[0])
    p = pos(g, st)
    np.testing.assert_allclose(st.rewards[0], [ZERO_SUM[2], ZERO_SUM[0], ZERO_SUM[3], ZERO_SUM[1]], atol=1e-6)
    np.testing.assert_allclose(p["series_score"], [1.0 + ZERO_SUM[2], ZERO_SUM[0], -1.0 + ZERO_SUM[3], ZERO_SUM[1]],
                               atol=1e-6)
    assert not g.legal_mask(st)[0].any()


def test_single_game_series_has_no_tribute():
    g = game(series_games=1)
    st = end_game_zero(g)
    assert bool(st.terminated[0])


# ---- 都落ち ---------------------------------------------------------------------------------------------
def series_game2(hands, to_play, **kw):
    g = game(series_games=3, **kw.pop("opts", {}))
    st = load(g, hands, to_play=to_play, game_index=1, titles=["fugo", "daifugo", "hinmin", "daihinmin"],
              miyako_candidate=kw.pop("miyako_candidate", 1), **kw)
    return g, st


def test_miyako_ochi_eliminates_previous_daifugo_and_game_goes_on():
    g, st = series_game2([["S9"], ["S2", "H2", "JK"], ["H6", "D6", "C6"], ["H4", "D4", "C4"]], to_play=0)
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"] == [1, 4, None, None]
    assert p["hands"][1] == [] and sorted(p["removed"]) == ["H2", "JK", "S2"]
    # The ♠9 stays; seat 1 is out, so seat 2 answers; after 2 and 3 pass, seat 2 leads.
    assert p["to_play"] == 2 and p["field"]["owner"] == 0
    step(g, st, "pass")
    step(g, st, "pass")
    p = pos(g, st)
    assert p["field"] is None and p["to_play"] == 2
    # The remaining two finish 2nd and 3rd; the 都落ち player is the next 大貧民.
    step(g, st, "H6 D6 C6")  # seat 2 goes out 2nd; seat 3, the last one, is 3rd: the game ends
    p = pos(g, st)
    assert p["titles"] == ["daifugo", "daihinmin", "fugo", "hinmin"]
    assert p["game_index"] == 2


def test_no_miyako_ochi_when_previous_daifugo_goes_out_first():
    g, st = series_game2([["H4", "D4"], ["S9"], ["H6", "D6"], ["C5", "C7"]], to_play=1)
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"] == [None, 1, None, None]
    assert p["removed"] == []


def test_miyako_ochi_only_on_the_first_finisher():
    g, st = series_game2([["H4", "D4"], ["S2", "H2"], [], ["S9"]], to_play=3, finish_positions=[None, None, 1, None])
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"] == [None, None, 1, 2]
    assert p["hands"][1] == ["S2", "H2"] and p["removed"] == []


def test_miyako_ochi_option_off():
    g, st = series_game2([["S9"], ["S2", "H2", "JK"], ["H6", "D6", "C6"], ["H4", "D4", "C4"]], to_play=0,
                         opts={"miyako_ochi": False}, miyako_candidate=None)
    step(g, st, "S9")
    p = pos(g, st)
    assert p["finish_positions"] == [1, None, None, None] and p["removed"] == []


def test_miyako_option_off_gives_no_candidate_in_the_next_game():
    g = game(series_games=2, miyako_ochi=False)
    st = end_game_zero(g)
    assert pos(g, st)["miyako_candidate"] is None


# ---- random series: every game transition checked against the rules -----------------------------------------
def _check_transition(p, prev_finish):
    titles = [TITLE_OF_POSITION[f] for f in prev_finish]
    assert p["titles"] == titles
    seat = {t: s for s, t in enumerate(titles)}
    decl = p["declaration"]
    assert p["phase"] == "exchange" and p["to_play"] == seat["daifugo"] and p["picks_left"] == 2
    assert p["miyako_candidate"] == seat["daifugo"]
    for giver, taker, k in (("daihinmin", "daifugo", 2), ("hinmin", "fugo", 1)):
        dealt = set(p["hands"][seat[giver]]) | set(p["given"][seat[giver]])
        exp = strongest(dealt, k, decl)
        assert set(p["given"][seat[giver]]) == exp
        assert set(p["received"][seat[taker]]) == exp
    return seat


def test_random_series_follows_the_series_rules():
    g = game(series_games=3, declarations=(0, 1, 2, 3, 4, 5, 8, 9))
    rng = np.random.default_rng(1234)
    for seed in (1, 2):
        st = g.init([seed])
        p = pos(g, st)
        holder = [s for s in range(4) if "D3" in p["hands"][s]][0]
        assert p["to_play"] == holder and p["revolution"] is (p["declaration"] == 5)
        games_done = 0
        seat = None
        steps_taken = 0
        while not bool(st.terminated[0]):
            m = g.legal_mask(st)[0]
            assert m.any() and not m[list(JUTSU_INDICES)].any()
            before = pos(g, st)
            a = int(rng.choice(np.flatnonzero(m)))
            g.step(st, np.array([a]))
            steps_taken += 1
            assert steps_taken < 3000
            after = pos(g, st)
            if after["game_index"] != before["game_index"] or bool(st.terminated[0]):
                games_done += 1
                # The finishing order of the game that just ended: the rewards tell each seat's position.
                r = st.rewards[0]
                finish = [ZERO_SUM.index(min(ZERO_SUM, key=lambda z: abs(z - x))) + 1 for x in r]
                assert sorted(finish) == [1, 2, 3, 4]
                np.testing.assert_allclose(r, [ZERO_SUM[f - 1] for f in finish], atol=1e-6)
                if not bool(st.terminated[0]):
                    seat = _check_transition(after, finish)
            elif before["phase"] == "exchange" and after["phase"] == "play":
                assert after["to_play"] == seat["daihinmin"]
                assert [len(after["hands"][s]) for s in range(4)].count(14) == 1
                assert len(after["hands"][seat["daifugo"]]) == 14
            else:
                assert not st.rewards[0].any()
        assert games_done == 3
