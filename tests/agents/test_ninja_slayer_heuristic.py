"""The ninja_slayer heuristics: scenario positions where the rule of thumb is plain, legality over
random play, and batch invariance."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.ninja_slayer import NinjaSlayerHeuristic
from yuugi.agents.heuristics.ninja_slayer_view import View, card_ids
from yuugi.agents.policy import RandomPolicy
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.state import DECISION_INTERRUPT, DECISION_PRIORITY
from tests.ninja_slayer.helpers import (NO_INTERRUPT, PASS, activate, aisatsu, cast, char, enter, game, interrupt, load,
                                        passes, seat, step, table)

STYLES = ("aggressive", "control", "tuned")


def _act(style: str, g, st) -> int:
    """The heuristic's action for the seat to play in game 0 of ``st``."""
    seat_ = int(st.to_play[0])
    obs = g.observe(st, np.array([seat_]))
    mask = g.legal_mask(st)
    return int(NinjaSlayerHeuristic(style).act(obs, mask, np.random.default_rng(0))[0])


def _damaged(n: int, **kw) -> dict:
    """A seat that has taken ``n`` damage (vanilla cards in the damage zone)."""
    return seat(damage_up=n, damage_seen=["C01"] * n, **kw)


def test_the_id_column_of_the_card_features_decodes_every_card():
    features = np.concatenate([C.CARD_FEATURES[:C.NUM_CARDS], np.zeros((1, C.NUM_CARD_FEATURES), np.float32)])
    assert C.CARD_FEATURES[:C.NUM_CARDS, C.CARD_ID_COLUMN].min() > 0  # an empty slot (0) is told apart
    assert card_ids(features).tolist() == list(range(C.NUM_CARDS)) + [-1]


def test_the_view_reads_the_table_from_the_observation():
    pos = table(seat(field=[char("C03"), None, char("C09", tapped=True, damage=1)], hand=["K01", "C10"], etel=3),
                _damaged(4, field=[char("C18")]))
    g, st = load(pos)
    v = View(g.observe(st, np.array([0])))
    assert v.card[0, :3].tolist() == [C.card_index("C03"), -1, C.card_index("C09")]
    assert v.card[0, 6] == C.card_index("C18") and v.card[0, 12] == -1
    assert v.tapped[0, 2] and not v.tapped[0, 0] and v.dmg[0, 2] == 1
    assert v.karate[0, 0] == 3 and v.kousaku[0, 6] == 2  # printed values of C03 and C18
    assert v.hand[0, :3].tolist() == [C.card_index("K01"), C.card_index("C10"), -1]
    assert v.damage[0].tolist() == [0, 4] and v.etel_untapped[0, 0] == 3
    assert v.my_turn[0] and v.stack_len[0] == 0


@pytest.mark.parametrize("style", STYLES)
def test_a_lethal_attack_is_taken_over_a_kill(style):
    # C03 (3/1) kills C18 (3/2) if it greets it, but the opponent is at 9 damage: greeting the player wins.
    g, st = load(table(seat(field=[char("C03")]), _damaged(9, field=[char("C18")])))
    assert _act(style, g, st) == aisatsu(0, 6)


def test_the_aggressive_style_goes_face_when_no_kill_is_on():
    # C05 (3/2, +1 工作力 when it greets) cannot kill C10 (5/0): it greets the player.
    g, st = load(table(seat(field=[char("C05")]), seat(field=[char("C10", tapped=True)])))
    assert _act("aggressive", g, st) == aisatsu(0, 6)


@pytest.mark.parametrize("style", STYLES)
def test_removal_in_hand_targets_the_biggest_character(style):
    # 必殺 (K15, cost 4): destroy an opposing character with カラテ ≤ 9; C06 (6/3) is the threat.
    pos = table(seat(hand=["K15"], etel=4), seat(field=[char("C01"), char("C18"), char("C06")]),
                phase="character", decision="priority")
    g, st = load(pos)
    assert _act(style, g, st) == cast(0, 6 + 2)


@pytest.mark.parametrize("style", STYLES)
def test_damage_removal_targets_the_biggest_character_it_kills(style):
    # 手裏剣雨 (K01): 2 damage kills C01 (1/1) or C11 (2/1), not C10 (5/0): the bigger kill is C11.
    pos = table(seat(hand=["K01"], etel=1), seat(field=[char("C10"), char("C01"), char("C11")]),
                phase="character", decision="priority")
    g, st = load(pos)
    assert _act(style, g, st) == cast(0, 6 + 2)


def test_control_answers_the_attacker_on_the_opponents_turn():
    # Seat 0's C06 (6/3) greets seat 1; seat 1 holds 必殺 with 4 エテル open and destroys the attacker.
    pos = table(seat(field=[char("C06")]), seat(hand=["K15"], etel=4))
    g, st = load(pos)
    step(g, st, aisatsu(0, 6), PASS)  # seat 0 declares and passes its window
    assert st.to_play[0] == 1 and st.decision[0] == DECISION_PRIORITY
    assert _act("control", g, st) == cast(0, 6 + 0)


def test_control_keeps_its_answer_payable_and_aggression_develops():
    # 4 エテル, a 4-cost C28 and a 1-cost K01 in hand: control keeps 1 open, aggression enters C28.
    pos = table(seat(hand=["C28", "K01"], etel=4), seat(), phase="character", decision="priority")
    g, st = load(pos)
    assert _act("aggressive", g, st) == enter(0)
    assert _act("control", g, st) == PASS
    # Below 4 エテル the curve comes first: control too enters a 3-cost C10 with 3 エテル.
    g, st = load(table(seat(hand=["C10", "K01"], etel=3), seat(), phase="character", decision="priority"))
    assert _act("control", g, st) == enter(0)


def test_burn_paid_by_jitsu_alone_is_fired():
    # C24 [J2]: 2 damage to the opponent; with 2 face-up damage cards it is free to fire (any style).
    pos = table(_damaged(2, field=[char("C24", entered=True)]), seat(), phase="character", decision="priority")
    g, st = load(pos)
    for style in STYLES:
        assert _act(style, g, st) == activate(0, 12)


@pytest.mark.parametrize("style", STYLES)
def test_a_wall_that_survives_takes_the_attack(style):
    # C05 greets seat 1 for 3 (工作力 2 + 1); C10 (5/0, インターラプト) survives its 3 カラテ: interrupt.
    g, st = load(table(seat(field=[char("C05")]), seat(field=[char("C10")])))
    step(g, st, aisatsu(0, 6))
    passes(g, st)  # the trigger (+1 工作力) resolves
    passes(g, st)  # the declaration's window closes
    assert st.decision[0] == DECISION_INTERRUPT and st.to_play[0] == 1
    assert _act(style, g, st) == interrupt(0)


@pytest.mark.parametrize("style", STYLES)
def test_no_interrupt_that_throws_away_a_big_character_for_one_point(style):
    # C04's 1 工作力 at the player; interrupting with damaged C06 (カラテ 6, 5 damage) would lose it.
    g, st = load(table(seat(field=[char("C01")]), seat(field=[char("C06", damage=5, kaizen=True)])))
    step(g, st, aisatsu(0, 6))
    passes(g, st)
    assert st.decision[0] == DECISION_INTERRUPT
    assert _act(style, g, st) == NO_INTERRUPT


def _random_play_records(rules: dict, n_games: int, seed: int, style: str):
    """Play the heuristic (seat 0) against random (seat 1); check every heuristic action is legal and keep
    the heuristic's (observation, mask) pairs."""
    g = game(**rules)
    st = g.init(np.arange(n_games, dtype=np.uint64) + np.uint64(seed))
    rng = np.random.default_rng(seed)
    h, rnd = NinjaSlayerHeuristic(style), RandomPolicy()
    obs_rec, mask_rec = [], []
    while not st.done.all():
        live = np.flatnonzero(~st.done)
        sub = st.take(live)
        seats = sub.to_play.astype(np.int64)
        obs = g.observe(sub, seats)
        mask = g.legal_mask(sub)
        actions = np.zeros(n_games, dtype=np.int64)
        mine = seats == 0
        if mine.any():
            a = h.act(obs[mine], mask[mine], rng)
            assert mask[mine][np.arange(mine.sum()), a].all(), "the heuristic played an illegal action"
            actions[live[mine]] = a
            obs_rec.append(obs[mine])
            mask_rec.append(mask[mine])
        if (~mine).any():
            actions[live[~mine]] = rnd.act(obs[~mine], mask[~mine], rng)
        g.step(st, actions, check=True)
    return np.concatenate(obs_rec), np.concatenate(mask_rec), st


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("rules", [{"decks": "any"}, {"decks": "sealed", "history": 3, "priority_windows": "compact"}])
def test_only_legal_actions_over_random_play_and_it_wins(style, rules):
    _, _, st = _random_play_records(rules, 24, seed=7, style=style)
    wins = (st.rewards[:, 0] > 0).sum()
    assert wins >= 18, f"the {style} heuristic won only {wins} of 24 games against random"


def test_batch_invariance():
    obs, mask, _ = _random_play_records({"decks": "any"}, 8, seed=3, style="aggressive")
    rows = np.random.default_rng(0).choice(len(obs), size=min(300, len(obs)), replace=False)
    obs, mask = obs[rows], mask[rows]
    for style in STYLES:
        h = NinjaSlayerHeuristic(style)
        batched = h.scores(obs, mask)
        single = np.concatenate([h.scores(obs[i:i + 1], mask[i:i + 1]) for i in range(len(obs))])
        np.testing.assert_array_equal(batched, single)
        # The played action is the best-scored legal one (ties aside), whatever the batch.
        acts = h.act(obs, mask, np.random.default_rng(1))
        best = np.where(mask, batched, -np.inf).max(axis=1)
        assert np.all(batched[np.arange(len(obs)), acts] >= best - 1e-5)


def test_legal_casts_activations_and_targets_are_valued_as_over_the_whole_hand_and_field():
    """The heuristic values only the cards with a legal cast or activation (and a pending trigger's
    targets only when a target is to be chosen); every legal entry must equal the valuation of the whole
    hand, field and target row at once, each less its cost as the heuristic charges it."""
    from yuugi.agents.heuristics.ninja_slayer_view import _lookup
    from yuugi.envs.ninja_slayer import actions as A

    obs, mask, _ = _random_play_records({"decks": "any"}, 8, seed=5, style="control")
    h = NinjaSlayerHeuristic("control")
    v = View(obs)
    hand, field = v.hand, v.card[:, :6]
    cast = h.effect_values(v, _lookup(C.OPCODE, hand), _lookup(C.ARG, hand), _lookup(C.TARGET, hand))
    cast -= h.style.etel_worth * _lookup(C.COST, hand)[:, :, None]
    act = h.effect_values(v, _lookup(C.OPCODE, field), _lookup(C.ARG, field), _lookup(C.TARGET, field))
    # an activation costs its エテル, its tap ([O]: more on my turn) and its ジツ; a burn paid by ジツ alone
    # with an empty stack is worth its burn less the ジツ
    tap = _lookup(C.ACT_O, field, False) * np.where(v.my_turn, 0.5, 0.2)[:, None]
    act -= (h.style.etel_worth * _lookup(C.ACT_E, field) + tap + 0.05 * _lookup(C.ACT_J, field))[:, :, None]
    free = (_lookup(C.OPCODE, field) == C.OP_DMG_PLAYER) & (_lookup(C.ACT_E, field) == 0) & (v.stack_len == 0)[:, None]
    act[:, :, 12] = np.where(free, h._burn(v, _lookup(C.ARG, field)) - 0.05 * _lookup(C.ACT_J, field), act[:, :, 12])
    pend = h.effect_values(v, v.pending_op[:, None], _lookup(C.ARG, v.pending_card[:, None]),
                           v.pending_tk[:, None])[:, 0]
    scores = h.scores(obs, mask)
    for first, full in ((A.CAST0, cast.reshape(len(obs), -1)), (A.ACTIVATE0, act.reshape(len(obs), -1)),
                        (A.TARGET0, pend)):
        legal = mask[:, first:first + full.shape[1]]
        assert legal.any(), f"the positions must include legal actions from {first} on"
        np.testing.assert_array_equal(scores[:, first:first + full.shape[1]][legal], full[legal])


def test_unknown_style_and_foreign_observation_are_refused():
    with pytest.raises(ValueError, match="aggressive, control"):
        NinjaSlayerHeuristic("timid")
    with pytest.raises(ValueError, match="not a ninja_slayer observation"):
        View(np.zeros((1, 100), np.float32))


def test_each_style_is_a_policy_spec():
    from yuugi.agents.adapters import as_policy
    for style, cls in (("aggressive", "AggressiveHeuristic"), ("control", "ControlHeuristic"),
                       ("tuned", "TunedHeuristic")):
        policy = as_policy(f"yuugi.agents.heuristics.ninja_slayer:{cls}")
        assert isinstance(policy, NinjaSlayerHeuristic) and policy.style.name == style
    assert NinjaSlayerHeuristic().style.name == "control"  # the normal level
