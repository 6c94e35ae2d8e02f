"""The nigejozu heuristic (agents/heuristics/nigejozu.py): always legal, clearly better than random,
and the easy level (the heuristic with 50% random moves) in between."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic
from yuugi.agents.mixed import EpsilonPolicy
from yuugi.agents.policy import RandomPolicy, random_legal
from yuugi.agents.registry import cpu
from yuugi.envs import make_game
from yuugi.envs.nigejozu import actions as A
from yuugi.envs.nigejozu.state import PHASE_CARD, PHASE_DICE, PHASE_REROLLED, PHASE_TURN_START
from yuugi.training.eval.evaluate import evaluate

PROVINCES = ("九州", "四国", "種子島", "播磨", "京", "敦賀", "三河", "信濃", "奥州", "鎌倉", "蝦夷")
CHIPS = {name: k + 2 for k, name in enumerate(PROVINCES)}  # chip n sits on PROVINCES[n - 2]


def random_positions(game, n_games=64, steps=240, every=4, seed=0):
    """States reached by random play (finished games restart), sampled every few steps."""
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(n_games) + 1000 * seed)
    out = []
    for k in range(steps):
        mask = game.legal_mask(st)
        if k % every == 0:
            out.append(st.copy())
        game.step(st, random_legal(mask, rng))
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, game.init(np.arange(done.size) + 10_000 * (k + 1) + 1000 * seed))
    return out


@pytest.mark.parametrize("rules", [{}, {"card_model": "single12", "taikyaku_n": 2, "troops_per_player": 12,
                                       "muhon_returns_to_hand": False, "reinf_per_win": 2}])
def test_never_picks_an_illegal_action(rules):
    game = make_game("nigejozu", **rules)
    policies = [NigejozuHeuristic(), cpu("nigejozu", "easy")]
    rng = np.random.default_rng(1)
    phases, cards_played, picks = set(), 0, 0
    for st in random_positions(game, seed=len(rules)):
        live = ~st.done
        mask = game.legal_mask(st)[live]
        obs = game.observe(st, st.to_play)[live]
        phases |= set(st.phase[live].tolist())
        assert mask.any(axis=1).all()
        for policy in policies:
            actions = policy.act(obs, mask, rng)
            assert actions.dtype == np.int64 and actions.shape == (len(mask),)
            assert mask[np.arange(len(actions)), actions].all()
        cards_played += int(((actions >= A.CARD0) & (actions < A.REROLL)).sum())
        picks += int((actions >= A.PROVINCE0).sum())
    # The sample covers every decision: turn start, both rolls and card steps.
    assert {PHASE_TURN_START, PHASE_DICE, PHASE_REROLLED, PHASE_CARD} <= phases
    assert cards_played > 0 and picks > 0


def test_registry_builds_it():
    assert isinstance(cpu("nigejozu", "normal"), NigejozuHeuristic)
    easy = cpu("nigejozu", "easy")
    assert isinstance(easy, EpsilonPolicy) and isinstance(easy.base, NigejozuHeuristic) and easy.epsilon == 0.5


def _choose(troops, dice, phase="rerolled"):
    game = make_game("nigejozu")
    st = game.from_position({"chips": CHIPS, "troops": troops, "to_play": "hojo", "phase": phase, "dice": dice,
                             "cards": {"hojo": ["神力", "退却", "忍"], "ashikaga": ["追放", "謀反", "人質"]}})
    return int(NigejozuHeuristic().act(game.observe(st, st.to_play), game.legal_mask(st), np.random.default_rng(0))[0])


def test_contests_the_high_chip():
    # 1·6·6: one troop on the rarely rolled chip 12 (an empty 蝦夷) beats three on chip 7.
    assert _choose({}, [1, 6, 6]) == A.COUNT0 + 0


def test_does_not_overcommit_to_a_won_province():
    # 1·2·6: a troop on chip 8 (三河, already 4-0) or on chip 7 (敦賀, 1-1): the contested one.
    assert _choose({"三河": [4, 0], "敦賀": [1, 1]}, [1, 2, 6]) == A.COUNT0 + 1


def test_beats_random_clearly():
    result = evaluate("nigejozu", {"random": RandomPolicy(), "normal": NigejozuHeuristic()}, games=1000)
    (pr,) = result.pairings
    assert pr.a == "random" and pr.games == 1000
    assert pr.decided and pr.score_ci[1] < 0  # random's score against the heuristic: clearly negative
    assert pr.win_ci[1] < 0.2  # measured: random ahead in 4.1% of games, 95% CI [2.9%, 5.3%]


def test_easy_lies_between_random_and_the_heuristic():
    # Measured over 1000 games (seed 0): easy beats random 72.4% [69.6%, 75.2%], the heuristic beats easy
    # 88.3% [86.3%, 90.3%]; 400 games each keep both intervals well clear of a tie.
    easy = EpsilonPolicy(NigejozuHeuristic(), 0.5, name="easy")
    vs_random = evaluate("nigejozu", {"easy": easy, "random": RandomPolicy()}, games=400).pairings[0]
    assert vs_random.decided and vs_random.score_mean > 0 and vs_random.win_ci[0] > 0.6
    vs_normal = evaluate("nigejozu", {"normal": NigejozuHeuristic(), "easy": easy}, games=400).pairings[0]
    assert vs_normal.decided and vs_normal.score_mean > 0 and vs_normal.win_ci[0] > 0.7
