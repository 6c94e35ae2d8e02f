"""The 鬼ヶ島 heuristic (agents/heuristics/momotaro.py): always legal, batched, and clearly stronger
than random play, with the easy level (half random moves) in between."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.momotaro import MomotaroHeuristic
from yuugi.agents.mixed import EpsilonPolicy
from yuugi.agents.policy import RandomPolicy, random_legal
from yuugi.agents.registry import cpu
from yuugi.envs import make_game
from yuugi.envs.momotaro.state import PHASE_ASSIGN, PHASE_BID, PHASE_HEAL, PHASE_YELLOW
from yuugi.training.eval.evaluate import evaluate


def random_positions(game, n_games=64, steps=300, every=4, seed=0):
    """States reached by random play (finished games replaced), sampled every few steps."""
    rng = np.random.default_rng(seed)
    st = game.init(np.arange(n_games) + 1000 * seed)
    out = []
    for k in range(steps):
        if k % every == 0:
            out.append(st.copy())
        game.step(st, random_legal(game.legal_mask(st), rng))
        done = np.flatnonzero(st.done)
        if done.size:
            st.put(done, game.init(np.arange(done.size) + 10_000 * (k + 1) + 1000 * seed))
    return out


def heuristic_choices(game, policy, positions, rng):
    """(state, mask, actions) of every live row of every position, acting for the seat to play."""
    for st in positions:
        live = np.flatnonzero(~st.done)
        sub = st.take(live)
        mask = game.legal_mask(sub)
        obs = game.observe(sub, sub.to_play.astype(np.int64))
        yield sub, mask, policy.act(obs, mask, rng)


@pytest.mark.parametrize("rules", [
    {"num_players": 2}, {"num_players": 3}, {"num_players": 4},
    {"num_players": 2, "kibi_per_player": "60/N"}, {"num_players": 3, "kibi_per_player": 0},
    {"num_players": 4, "warrior_value": 5, "colored_values": (2, 4, 6), "heal_any_turn": False},
])
def test_never_an_illegal_action(rules):
    game = make_game("momotaro", **rules)
    rng = np.random.default_rng(1)
    rows = 0
    for sub, mask, actions in heuristic_choices(game, MomotaroHeuristic(), random_positions(game), rng):
        assert actions.dtype == np.int64 and actions.shape == (len(mask),)
        assert mask[np.arange(len(actions)), actions].all()
        rows += len(actions)
    assert rows > 3000


def test_registry_levels():
    assert isinstance(cpu("momotaro", "normal"), MomotaroHeuristic)
    easy = cpu("momotaro", "easy")
    assert isinstance(easy, EpsilonPolicy) and isinstance(easy.base, MomotaroHeuristic) and easy.epsilon == 0.5


def test_decisions_follow_the_club_player():
    """Heal when hurt, never let the warrior be knocked out when another fought card can take the
    damage, take the yellow treasure when the warrior is healthy, never bid more than 60% of the stock."""
    game = make_game("momotaro", num_players=3)
    policy = MomotaroHeuristic()
    lay = game.layout
    rng = np.random.default_rng(2)
    seen = dict.fromkeys(("heal", "assign", "yellow", "bid"), 0)
    for sub, mask, actions in heuristic_choices(game, policy, random_positions(game, seed=3), rng):
        n = np.arange(len(actions))
        p = sub.to_play.astype(np.int64)
        heal = sub.phase == PHASE_HEAL
        assert (actions[heal] != lay.end_heal).all()  # something can be healed there: heal it
        seen["heal"] += int(heal.sum())
        assign = np.flatnonzero(sub.phase == PHASE_ASSIGN)
        card = actions[assign] - lay.assign0
        warrior_left = 3 - sub.card_dmg[assign, p[assign], 0]
        assert not ((card == 0) & (sub.pending[assign] >= warrior_left)).any()
        seen["assign"] += assign.size
        yellow = np.flatnonzero((sub.phase == PHASE_YELLOW) & (sub.card_dmg[n, p, 0] == 0)
                                & sub.hand[n, p, 1:].any(axis=1))
        assert (actions[yellow] == lay.yellow_treasure).all()
        seen["yellow"] += yellow.size
        bid = np.flatnonzero(sub.phase == PHASE_BID)
        assert (actions[bid] <= 0.6 * sub.kibi[bid, p[bid]] + 0.5).all()
        seen["bid"] += bid.size
    assert min(seen.values()) > 0, seen


@pytest.fixture(scope="module")
def ladder_2p():
    """Round robin over 400 two-player games (seats alternate), scored from the games' rewards only."""
    policies = {"random": RandomPolicy(), "easy": EpsilonPolicy(MomotaroHeuristic(), 0.5, name="easy"),
                "normal": MomotaroHeuristic()}
    result = evaluate("momotaro", policies, games=400, rules={"num_players": 2})
    return {(pr.a, pr.b): pr for pr in result.pairings}


def test_heuristic_beats_random(ladder_2p):
    pr = ladder_2p[("random", "normal")]  # score of random minus the heuristic's, per game
    assert pr.games == 400
    assert pr.score_ci[1] < 0 and pr.decided  # the 95% interval excludes a tie
    assert pr.score_mean < -1.0  # ±2 is a certain win/loss: the heuristic wins far more than 3 games in 4


def test_easy_sits_between_random_and_the_heuristic(ladder_2p):
    easy_vs_random = ladder_2p[("random", "easy")]
    normal_vs_easy = ladder_2p[("easy", "normal")]
    assert easy_vs_random.score_ci[1] < 0  # easy beats random...
    assert normal_vs_easy.score_ci[1] < 0  # ...and loses to the heuristic, both beyond the 95% interval
