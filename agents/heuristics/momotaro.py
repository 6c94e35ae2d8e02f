"""A club player's 鬼ヶ島: bid by retainer value, attack oni it can beat, heal when hurt.

Every legal action gets a score and the best one is played (ties broken by tiny noise). The policy
reads only the observation (``yuugi.envs.momotaro.observation.offsets``), the legal mask and the game's
rule options, given as ``rules`` (``cpu("momotaro", level, **rules)`` passes them): the number of
players, K0, the card and oni values and the janken marks come from them. Without ``rules`` it plays
as for the default options, taking the number of players from the observation size (56·N + 144) and
K0 from the action count (K0 + 96). It always assumes that damage weakens a card (the default
``damage_reduces_power``).

* **Bids (D1)**: a retainer is worth more the stronger it is (2.5 / 4 / 5.5 for power 1 / 2 / 3),
  more when it would be the first one (it lets the warrior fight beside it without risking itself)
  or joins a type already held. The bid is the spendable stock (all but a 1-kibidango healing
  reserve) times min(N, 3) times the retainer's share of the worth still to be auctioned, capped at
  60% of the stock. **Additional bids (D2)**: one more for a good retainer, two for a strong one,
  within the reserve. **TAKE** a won retainer (every retainer counts: it fights, shields the warrior
  and breaks ties); DECLINE always scores lower.
* **Battle (D5, D6)**: for every oni on the field and every legal card set, the expected outcome
  over the 36 dice rolls: the oni's treasure when the roll defeats it, a little for damage that
  wears a big oni down, minus the expected cost of the damage taken (assigned to the cheapest card
  that fought, as D7 does): a knocked-out retainer costs its worth, the warrior's loss is
  elimination and costs far more, damage that can be healed costs little. D5 picks the oni whose
  best card set scores highest; D6 the best set against the chosen oni.
* **Heal (D4)**: always, warrior (potion) first, then the strongest retainers; END HEAL last.
* **Damage (D7)**: the card for which taking the damage costs least (a knock-out of the cheapest
  retainer rather than of a strong one; the warrior is never knocked out while another card that
  fought could take the damage).
* **黄鬼 (D8)**: the treasure, unless a potion is needed (the warrior is hurt beyond the potions in
  hand, or it fights alone with none).
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.momotaro.actions import ActionLayout
from yuugi.envs.momotaro.cards import IS_YELLOW, NUM_CARDS, NUM_ONI, NUM_RETAINERS, WARRIOR
from yuugi.envs.momotaro.config import MomotaroConfig
from yuugi.envs.momotaro.observation import offsets
from yuugi.envs.momotaro.state import PHASE_ADD, PHASE_ASSIGN, PHASE_BID, PHASE_COMBO, PHASE_ONI, PHASE_YELLOW
from yuugi.envs.momotaro.tables import COMBO_CARDS, LEGAL_BY_HAND, NUM_COMBOS, POW2

_CC = COMBO_CARDS  # [58, 10]
_RET_POWER = MomotaroConfig().derive().card_power[1:].astype(np.float64)  # retainer r = card r + 1 (no option)
_RET_TYPE = np.arange(NUM_RETAINERS) // 3  # 0 Dog, 1 Monkey, 2 Pheasant

# white − red die: −5..5 with probability (6 − |d|) / 36
_DICE = np.arange(-5, 6)
_P_DICE = (6.0 - np.abs(_DICE)) / 36.0
_MAX_HIT = 16  # damage 0..15 (≥ every card's power, so the cost table saturates)
_OBS_FIXED, _OBS_PER_PLAYER, _ACTIONS_FIXED = 144, 56, 96
_MARGIN = 20  # margins (set power − oni power) beyond ±20 are clipped: the dice cannot change them
_MAX_LEFT = 9  # an oni's remaining power


def _dice_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Expectations over the dice for each margin m (index m + _MARGIN).

    * ``P_DEFEAT[l, m]``: probability that an oni with l power left is defeated (diff ≥ l, or a
      draw when l = 1);
    * ``WEAR_HITS[l, m]``: expected damage put on it when it is not defeated;
    * ``TAKEN_PROB[t, m]``: probability that the player's side takes t damage (0 on a win).
    """
    margins = np.arange(-_MARGIN, _MARGIN + 1)
    p_defeat = np.zeros((_MAX_LEFT + 1, margins.size))
    wear = np.zeros((_MAX_LEFT + 1, margins.size))
    taken = np.zeros((_MAX_HIT, margins.size))
    for i, m in enumerate(margins):
        for d, pr in zip(_DICE, _P_DICE):
            diff = m + d
            hit = max(diff, 1) if diff >= 0 else 0
            for left in range(1, _MAX_LEFT + 1):
                if hit >= left:
                    p_defeat[left, i] += pr
                else:
                    wear[left, i] += pr * hit
            t = 0 if diff > 0 else (1 if diff == 0 else min(-diff, _MAX_HIT - 1))
            taken[t, i] += pr
    return p_defeat, wear, taken


_P_DEFEAT, _WEAR_HITS, _TAKEN_PROB = _dice_tables()
# The cards of each set, padded with 10 ("no card").
_SET_CARDS = np.full((NUM_COMBOS, 3), NUM_CARDS, dtype=np.int64)
for _k in range(NUM_COMBOS):
    _c = np.flatnonzero(_CC[_k])
    _SET_CARDS[_k, :_c.size] = _c


class MomotaroHeuristic:
    name = "heuristic"

    def __init__(self, warrior_loss: float = 30.0, wear: float = 0.25, reserve: int = 1,
                 bid_cap: float = 0.6, rules: Mapping[str, Any] | None = None) -> None:
        self.warrior_loss = warrior_loss  # cost of losing the warrior (elimination), in treasure points
        self.wear = wear  # value of a point of damage on an oni not defeated, per point of its treasure/power
        self.reserve = reserve  # kibidango kept for healing while bidding
        self.bid_cap = bid_cap  # never bid more than this fraction of the stock
        self._layouts: dict[tuple[int, int], tuple[dict[str, slice], ActionLayout]] = {}
        # The rule options (the observation does not carry the values; damage is a fraction of them).
        self.config = MomotaroConfig.from_options(rules) if rules is not None else None
        tables = (self.config or MomotaroConfig()).derive()
        self._card_power = tables.card_power.astype(np.float64)  # [10], warrior first
        self._oni_power = tables.oni_power.astype(np.float64)  # [12] = treasure value
        self._mod = tables.combo_oni_mod.astype(np.float64)  # [58, 12] janken modifier of each set against each oni

    # ---- layout ----------------------------------------------------------------------------------
    def _layout(self, obs_dim: int, num_actions: int) -> tuple[int, dict[str, slice], ActionLayout]:
        if self.config is not None:  # the rules say what the spaces must be
            p, k0 = self.config.num_players, self.config.kibi
            if (obs_dim, num_actions) != (_OBS_FIXED + _OBS_PER_PLAYER * p, k0 + _ACTIONS_FIXED):
                raise ValueError(f"observations of size {obs_dim} with {num_actions} actions are not momotaro's "
                                 f"under these rules ({p} players: {_OBS_FIXED + _OBS_PER_PLAYER * p}; "
                                 f"K0 = {k0}: {k0 + _ACTIONS_FIXED} actions)")
        p = (obs_dim - _OBS_FIXED) // _OBS_PER_PLAYER
        if p not in (2, 3, 4) or _OBS_FIXED + _OBS_PER_PLAYER * p != obs_dim:
            raise ValueError(f"observation size {obs_dim} is not a momotaro observation (56·N + 144)")
        key = (obs_dim, num_actions)
        if key not in self._layouts:
            self._layouts[key] = (offsets(p), ActionLayout(num_actions - _ACTIONS_FIXED))
        off, lay = self._layouts[key]
        return p, off, lay

    # ---- the policy ------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        obs = np.asarray(observation, dtype=np.float64)
        mask = np.asarray(mask, dtype=bool)
        b, n_act = mask.shape
        p, off, lay = self._layout(obs.shape[1], n_act)
        k0 = lay.kibi
        phase = obs[:, off["phase"]].argmax(axis=1)

        own_hand = obs[:, off["cards_in_play"]][:, :NUM_CARDS] > 0.5  # relative seat 0 = self
        card_power = self._card_power
        own_dmg = np.rint(obs[:, off["card_damage"]][:, :NUM_CARDS] * card_power)
        eff = np.where(own_hand, np.maximum(card_power - own_dmg, 0.0), 0.0)  # fighting power per card
        kibi = np.rint(obs[:, off["kibidango"].start] * k0)
        potions = np.rint(obs[:, off["potions"].start] * 3.0)

        score = np.zeros((b, n_act))

        # Hiring: first and additional bids, take.
        r = np.flatnonzero((phase == PHASE_BID) | (phase == PHASE_ADD))
        if r.size:
            target = self._bid_target(obs[r], off, own_hand[r], kibi[r], phase[r] == PHASE_ADD, k0, p)
            bids = np.arange(lay.num_bids, dtype=np.float64)
            score[r, lay.bid0:lay.bid0 + lay.num_bids] = -np.abs(bids[None, :] - target[:, None])
        score[:, lay.take] = 1.0
        score[:, lay.decline] = -1.0

        # Heal: everything that can be healed, the warrior first, then the strongest retainers.
        heal = 10.0 + card_power.copy()
        heal[WARRIOR] = 20.0
        score[:, lay.heal0:lay.heal0 + NUM_CARDS] = heal
        score[:, lay.end_heal] = 0.0

        # Battle: expected value of every (oni, card set).
        r = np.flatnonzero((phase == PHASE_ONI) | (phase == PHASE_COMBO))
        if r.size:
            ev = self._battle_values(obs[r], off, eff[r], kibi[r], potions[r])  # [n, 12, 58]
            legal = LEGAL_BY_HAND[(own_hand[r] * POW2).sum(axis=1)]  # [n, 58]
            ev = np.where(legal[:, None, :], ev, -np.inf)
            score[r, lay.oni0:lay.oni0 + NUM_ONI] = np.maximum(ev.max(axis=2), -1e6)
            tgt = obs[r][:, off["target"]].argmax(axis=1)
            score[r, lay.combo0:lay.combo0 + NUM_COMBOS] = np.maximum(ev[np.arange(r.size), tgt], -1e6)

        # Damage: the card for which it costs least.
        r = np.flatnonzero(phase == PHASE_ASSIGN)
        if r.size:
            pending = np.rint(obs[r, off["pending_damage"].start] * 15.0).astype(np.int64)
            cost = self._damage_cost(eff[r], kibi[r], potions[r])  # [n, 10, 16]
            hit = np.clip(pending, 0, _MAX_HIT - 1)
            score[r, lay.assign0:lay.assign0 + NUM_CARDS] = -cost[np.arange(r.size), :, hit]

        # 黄鬼: the treasure unless a potion is needed.
        r = np.flatnonzero(phase == PHASE_YELLOW)
        if r.size:
            w_dmg = own_dmg[r, WARRIOR]
            alone = own_hand[r, 1:].sum(axis=1) == 0
            need = (w_dmg > potions[r]) | (alone & (potions[r] == 0))
            score[r, lay.yellow_treasure] = np.where(need, 0.0, 1.0)
            score[r, lay.yellow_potion] = np.where(need, 1.0, 0.0)

        # Small noise breaks ties between equal actions without favouring low indices.
        score = score + rng.random(score.shape) * 1e-3
        return np.where(mask, score, -np.inf).argmax(axis=1).astype(np.int64)

    # ---- hiring ----------------------------------------------------------------------------------
    def _retainer_worth(self, hand: np.ndarray) -> np.ndarray:
        """[n, 9]: worth of each retainer to a player holding ``hand`` (cards in play, [n, 10])."""
        held = hand[:, 1:]
        n_held = held.sum(axis=1, keepdims=True)
        held_type = np.stack([held[:, 3 * t:3 * t + 3].any(axis=1) for t in range(3)], axis=1)  # [n, 3]
        worth = np.broadcast_to(1.0 + 1.5 * _RET_POWER, held.shape).copy()  # 2.5, 4, 5.5
        worth += np.where(n_held == 0, 2.0, 0.0)  # the first retainer shields the warrior
        worth += np.where(held_type[:, _RET_TYPE], 0.5, 0.0)  # same-type sets
        return worth

    def _bid_target(self, obs: np.ndarray, off: dict[str, slice], hand: np.ndarray, kibi: np.ndarray,
                    additional: np.ndarray, k0: int, p: int) -> np.ndarray:
        on_auction = obs[:, off["auction_card"]].argmax(axis=1)
        face_down = obs[:, off["hiring_deck"]] > 0.5
        worth = self._retainer_worth(hand)
        n = np.arange(len(obs))
        w_now = worth[n, on_auction]
        # Worth still to come (ignoring the bonus the first won card would lose for the others).
        w_rest = w_now + (worth * face_down).sum(axis=1)
        spendable = np.maximum(kibi - self.reserve, 0.0)
        share = spendable * min(p, 3) * w_now / np.maximum(w_rest, 1e-9)
        first = np.minimum(share, self.bid_cap * kibi)
        first = np.minimum(first, spendable)
        # Additional bid: one more for a good retainer, two for a strong first one, within the reserve.
        my_bid = np.rint(obs[:, off["bid_value"].start] * k0)
        extra = np.where(w_now >= 5.5, 2.0, np.where(w_now >= 4.0, 1.0, 0.0))
        extra = np.minimum(extra, np.maximum(kibi - my_bid - self.reserve, 0.0))
        return np.rint(np.where(additional, extra, first))

    # ---- battle ----------------------------------------------------------------------------------
    def _damage_cost(self, eff: np.ndarray, kibi: np.ndarray, potions: np.ndarray) -> np.ndarray:
        """[n, 10, 16]: cost of card c taking d damage (c not in play: infinite)."""
        d = np.arange(_MAX_HIT, dtype=np.float64)[None, None, :]
        rem = eff[:, :, None]
        ko = (d >= rem) & (d > 0)
        ret_worth = 1.0 + 1.5 * self._card_power  # a lost retainer, as at the auction
        ko_cost = np.where(np.arange(NUM_CARDS) == WARRIOR, self.warrior_loss, ret_worth)[None, :, None]
        # Damage that stays: healable with kibidango (retainers) or potions (warrior), else weakening.
        per_point = np.empty(eff.shape)
        per_point[:, 1:] = np.where(kibi[:, None] > 0, 0.4, 1.0)
        per_point[:, WARRIOR] = np.where(potions > 0, 1.0, 4.0)  # the warrior nearer to elimination
        cost = np.where(ko, ko_cost + 0.01 * rem, d * per_point[:, :, None])
        return np.where(rem > 0, cost, np.inf)

    def _battle_values(self, obs: np.ndarray, off: dict[str, slice], eff: np.ndarray, kibi: np.ndarray,
                       potions: np.ndarray) -> np.ndarray:
        """[n, 12, 58]: expected value of sending each card set against each oni.

        With margin m = the set's power + janken − the oni's remaining power, a roll of white − red = d
        gives diff = m + d: the oni takes max(diff, 1) when diff ≥ 0, the player's side −diff (1 on
        a draw). The dice expectations are precomputed per (remaining power, margin) and per damage.
        """
        n = len(obs)
        field = obs[:, off["oni_field"]] > 0.5
        oni_power = self._oni_power
        oni_dmg = np.rint(obs[:, off["oni_damage"]] * oni_power)
        oni_left = np.clip(oni_power - oni_dmg, 1, _MAX_LEFT).astype(np.int64)  # [n, 12]
        war = eff @ _CC.T.astype(np.float64)  # [n, 58]
        margin = war[:, None, :] + self._mod.T[None, :, :] - oni_left[:, :, None]  # [n, 12, 58]
        m_idx = (np.clip(margin, -_MARGIN, _MARGIN) + _MARGIN).astype(np.int64)

        cost = self._damage_cost(eff, kibi, potions)  # [n, 10, 16]
        cost = np.concatenate([cost, np.full((n, 1, _MAX_HIT), np.inf)], axis=1)  # card 10: "no card"
        set_cost = cost[:, _SET_CARDS[:, 0], :]  # cheapest card of each set to take d damage: [n, 58, 16]
        for j in (1, 2):
            set_cost = np.minimum(set_cost, cost[:, _SET_CARDS[:, j], :])
        set_cost = np.where(np.isfinite(set_cost), set_cost, 1e6)
        set_cost[:, :, 0] = 0.0
        exp_loss = set_cost @ _TAKEN_PROB  # [n, 58, margins]

        wear = np.where(np.arange(NUM_ONI) == 9, 0.0, self.wear)  # per damage point; 黒鬼 regenerates
        wear = np.where(IS_YELLOW, 0.5 * wear, wear)
        left = oni_left[:, :, None]
        gain = oni_power[None, :, None] * _P_DEFEAT[left, m_idx] + wear[None, :, None] * _WEAR_HITS[left, m_idx]
        loss = exp_loss[np.arange(n)[:, None, None], np.arange(NUM_COMBOS)[None, None, :], m_idx]
        return np.where(field[:, :, None], gain - loss, -np.inf)
