"""A club player's 逃げ上手 (nigejozu): contest high chips, read the battle order.

Every legal action gets a score and the best one is played (ties broken by tiny noise). The policy
reads only the observation (``yuugi.envs.nigejozu.observation.OFFSETS``) and the legal mask, plus the
static map of :mod:`yuugi.envs.nigejozu.board` and the game's rule options, given as ``rules``
(``cpu("nigejozu", level, **rules)`` passes them; without them, the defaults): how many troops 退却
returns, whether 謀反's troop goes back to its owner's hand, and how many 援軍 a win sends.

**The board value.** Every decision compares the boards it can lead to with one estimate, a *soft
battle*: the provinces are resolved in chip order 2..12 as the battle phase does, but each one is
won with a probability ``sigmoid(margin / T)`` instead of outright, where

* ``margin`` = own troops − opponent troops + expected 援軍 (each side's win probability of every
  earlier adjacent province where it has troops) + a tie term for the 逃げチップ (±0.5 for its
  holder; before anyone holds it, leaning to the side with the smaller hand);
* ``T`` is the uncertainty still ahead: it grows with the troops both sides still hold and with how
  often the dice offer that chip (a pair summing to 7 is six times likelier than one summing to 12),
  so a lone troop on a rarely rolled high chip is already worth most of the chip, while a one-troop
  lead on chip 7 early on is worth little. With both hands empty the battle is nearly exact.

The value is Σ chip × (P(own win) − P(opponent win)) over occupied provinces, plus a worth per troop
still in hand (own minus opponent's). Its saturation is what stops overcommitting: another troop on
a province already safely won gains almost nothing, so the troops go where the fight is close and
the chip high. The hand term is large (6 chip points a troop): troops kept in hand are tempo, since
the side that still holds troops when the other runs out places them unopposed and last, so the
policy prefers small counts unless a bigger one buys a real gain. For the same reason the margin
leans towards the side with more troops in hand in proportion to how often the chip is rolled.

**Decisions.**

* **Count die** (COUNT_DIE): the split whose placement gives the best board.
* **Reroll**: when the expected best placement over the 56 possible rolls beats the best one now.
* **Roll or card** (turn start): every legal card is valued by its best complete use (every source
  and destination; 退却 and 上洛 picked greedily); a card turn does not spend the troops in hand (they
  are placed later anyway), so a card is played when its gain over the present board passes a
  threshold, which drops as the hands run low (cards lock once a hand is empty).
* **Card steps** (PROVINCE, DONE): the source that allows the best destination, the best
  destination, the best single pick; 上洛 stops (DONE) when another troop into 京 no longer helps.
"""
from __future__ import annotations

import itertools
from typing import Any, Mapping

import numpy as np

from yuugi.envs.nigejozu import actions as A
from yuugi.envs.nigejozu import cards as C
from yuugi.envs.nigejozu.board import ADJ, ADJ_LAND, ADJ_SEA, KYO, NUM_PROVINCES
from yuugi.envs.nigejozu.config import NigejozuConfig
from yuugi.envs.nigejozu.observation import OFFSETS, TROOP_SCALE

_P = NUM_PROVINCES
_CHIPS = np.arange(2, 13, dtype=np.float64)  # chip value of chip-order index k
_SHARE = (6.0 - np.abs(_CHIPS - 7.0)) / 36.0  # chance that two given dice sum to the chip
_LATER = np.triu(np.ones((_P, _P), dtype=bool), 1)  # [k, j]: chip order j resolves after k
_KYO_NEIGH = ADJ[KYO]

# The 56 sorted rolls of 3d6 with their probabilities, and per roll and count die i the chip the
# other two dice name and the troops the die places.
_ROLLS = np.array(sorted({tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=3)}), dtype=np.int64)
_ROLL_W = np.array([sum(1 for t in itertools.product(range(1, 7), repeat=3) if tuple(sorted(t)) == tuple(r))
                    for r in _ROLLS], dtype=np.float64) / 216.0
_ROLL_CHIP = _ROLLS.sum(axis=1, keepdims=True) - _ROLLS  # [56, 3]
_ROLL_K = (_ROLLS + 1) // 2  # [56, 3] troops placed, 1..3

# Two-step cards: destinations allowed from a source (own-occupancy rules are added per board).
_TWO_STEP = tuple(int(e) for e in np.flatnonzero(C.TWO_STEP))
_Y_TABLE = {C.MONOMI: ADJ, C.HITOJICHI: ADJ, C.TSUIHOU: ADJ, C.OTORI: ADJ, C.SHINRIKI: ADJ_SEA,
            C.YAMAGOE: ADJ_LAND, C.SHINOBI: ~np.eye(_P, dtype=bool), C.BUNTAI: ADJ}


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


class _Ctx:
    """What the policy decodes from a batch of observations (troop counts as floats)."""

    def __init__(self, obs: np.ndarray) -> None:
        b = len(obs)
        self.rows = np.arange(b)
        chip = np.rint(obs[:, OFFSETS["chip_value"]] * 10.0 + 2.0).astype(np.int64)
        # A malformed observation (no chips) must not break the policy: fall back to map order.
        valid = (np.sort(chip, axis=1) == np.arange(2, 13)).all(axis=1)
        chip = np.where(valid[:, None], chip, np.arange(2, 13))
        self.order = np.argsort(chip, axis=1, kind="stable")  # [B, 11]: province of chip k + 2
        self.prov_of = np.zeros((b, 13), dtype=np.int64)
        self.prov_of[self.rows[:, None], chip] = np.arange(_P)
        self.adj = ADJ[self.order[:, :, None], self.order[:, None, :]] & _LATER  # [B, 11, 11] chip order
        self.own = np.rint(obs[:, OFFSETS["troops_self"]] * TROOP_SCALE)
        self.opp = np.rint(obs[:, OFFSETS["troops_opp"]] * TROOP_SCALE)
        hand = np.rint(obs[:, OFFSETS["hand"]] * TROOP_SCALE)
        self.hs, self.ho = hand[:, 0], hand[:, 1]
        self.esc = obs[:, OFFSETS["escape"]].argmax(axis=1)  # 0 nobody, 1 self, 2 opponent
        self.dice = obs[:, OFFSETS["dice"]].reshape(b, 3, 6).argmax(axis=2) + 1
        self.effect = obs[:, OFFSETS["card_effect"]].argmax(axis=1)
        self.step = obs[:, OFFSETS["card_step"]].argmax(axis=1)
        sel = obs[:, OFFSETS["card_selected"]]
        self.selected = np.where(sel.max(axis=1) > 0.5, sel.argmax(axis=1), -1)


class NigejozuHeuristic:
    name = "heuristic"

    def __init__(self, t0: float = 0.1, t_scale: float = 0.75, hand_worth: float = 6.0, drift: float = 1.0,
                 card_threshold: float = 12.0, reroll_margin: float = 0.0,
                 rules: Mapping[str, Any] | None = None) -> None:
        """The defaults were tuned by head-to-head matches against other settings (2,000-4,000 games each);
        ``rules`` are the game's rule options (default: the rules file's)."""
        cfg = NigejozuConfig.from_options(rules or {})
        self.taikyaku_n = cfg.taikyaku_n  # troops 退却 returns to hand
        self.muhon_returns_to_hand = cfg.muhon_returns_to_hand  # 謀反's troop goes back to its owner's hand
        self.reinf_per_win = cfg.reinf_per_win  # 援軍 per adjacent province after a win
        self.t0, self.t_scale = t0, t_scale  # T = t0 + t_scale · sqrt(troops in both hands × P(pair = chip))
        self.hand_worth = hand_worth  # chip points per troop in hand (own minus opponent's)
        self.drift = drift  # margin shift per troop of hand lead, times P(pair = chip)
        self.card_threshold = card_threshold  # gain (chip points) a card must bring while hands are large
        self.reroll_margin = reroll_margin  # reroll when the fresh roll's expectation beats the best split by this

    # ---- the board value ---------------------------------------------------------------------
    def value(self, ctx: _Ctx, r: np.ndarray, own: np.ndarray, opp: np.ndarray, hs: np.ndarray, ho: np.ndarray
              ) -> np.ndarray:
        """float64[n]: the soft-battle value of boards ``own``/``opp`` [n, 11] (province order) of rows ``r``."""
        n = len(r)
        if n == 0:
            return np.zeros(0)
        order = ctx.order[r]
        rows = np.arange(n)[:, None]
        a, b = own[rows, order], opp[rows, order]  # chip order
        occ_a, occ_b = a > 0, b > 0
        present = (occ_a | occ_b).astype(np.float64)
        adj = ctx.adj[r]
        # [k, n, j]: 援軍 the winner of chip k would send to chip j (k first: contiguous slices in the loop)
        to_a = np.ascontiguousarray((adj & occ_a[:, None, :]).transpose(1, 0, 2), dtype=np.float64)
        to_b = np.ascontiguousarray((adj & occ_b[:, None, :]).transpose(1, 0, 2), dtype=np.float64)
        if self.reinf_per_win != 1:
            to_a *= self.reinf_per_win
            to_b *= self.reinf_per_win
        inv_t = 1.0 / (self.t0 + self.t_scale * np.sqrt(np.maximum(hs + ho, 0.0)[:, None] * _SHARE))
        esc = ctx.esc[r]
        lean = np.where(hs <= 0, 0.5, 0.4 * np.tanh((ho - hs) / 4.0))
        bias = np.where(esc == 1, 0.5, np.where(esc == 2, -0.5, lean))
        base = a - b + bias[:, None] + self.drift * (hs - ho)[:, None] * _SHARE  # margin before 援軍
        reinf = np.zeros((n, _P))  # expected 援軍, own minus opponent's
        win = np.zeros((n, _P))  # P(own win) per chip
        for k in range(_P):
            pk = _sigmoid((base[:, k] + reinf[:, k]) * inv_t[:, k]) * present[:, k]
            qk = present[:, k] - pk
            win[:, k] = pk
            reinf += pk[:, None] * to_a[k]
            reinf -= qk[:, None] * to_b[k]
        v = (2.0 * win - present) @ _CHIPS
        return v + self.hand_worth * (hs - ho)

    def _now(self, ctx: _Ctx, r: np.ndarray) -> np.ndarray:
        return self.value(ctx, r, ctx.own[r], ctx.opp[r], ctx.hs[r], ctx.ho[r])

    # ---- placements --------------------------------------------------------------------------
    def placement_values(self, ctx: _Ctx, r: np.ndarray) -> np.ndarray:
        """float64[n, 11, 3]: the value after placing 1, 2 or 3 troops (at most the hand) in each province."""
        n = len(r)
        ci = np.repeat(np.arange(n), _P * 3)
        p = np.tile(np.repeat(np.arange(_P), 3), n)
        k = np.minimum(np.tile(np.arange(1, 4), n * _P), ctx.hs[r][ci])
        own = ctx.own[r][ci].copy()
        own[np.arange(len(ci)), p] += k
        v = self.value(ctx, r[ci], own, ctx.opp[r][ci], ctx.hs[r][ci] - k, ctx.ho[r][ci])
        return v.reshape(n, _P, 3)

    @staticmethod
    def _roll_best(ctx: _Ctx, r: np.ndarray, pv: np.ndarray) -> np.ndarray:
        """float64[n, 56]: the best placement value of each possible roll."""
        prov = ctx.prov_of[r][:, _ROLL_CHIP]  # [n, 56, 3]
        vals = pv[np.arange(len(r))[:, None, None], prov, _ROLL_K[None] - 1]
        return vals.max(axis=2)

    # ---- cards -------------------------------------------------------------------------------
    def _pair_values(self, ctx: _Ctx, r: np.ndarray, e: int, own: np.ndarray, opp: np.ndarray, hs: np.ndarray,
                     ho: np.ndarray) -> np.ndarray:
        """float64[n, 11, 11]: value after the two-step card ``e`` moves from X to Y (-inf: not allowed)."""
        n = len(r)
        src = {C.MONOMI: own >= 1, C.HITOJICHI: opp >= 1, C.TSUIHOU: (own >= 1) & (opp >= 1),
               C.OTORI: (own >= 1) & (opp >= 2), C.SHINRIKI: own >= 2, C.YAMAGOE: own >= 2, C.SHINOBI: own >= 1,
               C.BUNTAI: own >= 2}[e]
        ok = src[:, :, None] & _Y_TABLE[e][None]
        if e in (C.HITOJICHI, C.SHINOBI):
            ok &= (own >= 1)[:, None, :]
        ci, xi, yi = np.nonzero(ok)
        out = np.full((n, _P, _P), -np.inf)
        if len(ci) == 0:
            return out
        j = np.arange(len(ci))
        o, q = own[ci].copy(), opp[ci].copy()
        mo = o[j, xi] // 2 if e == C.BUNTAI else float(C.OWN_MOVED[e])
        mq = float(C.OPP_MOVED[e])
        o[j, xi] -= mo
        o[j, yi] += mo
        q[j, xi] -= mq
        q[j, yi] += mq
        out[ci, xi, yi] = self.value(ctx, r[ci], o, q, hs[ci], ho[ci])
        return out

    def _pick_values(self, ctx: _Ctx, r: np.ndarray, e: int, own: np.ndarray, opp: np.ndarray, hs: np.ndarray,
                     ho: np.ndarray) -> np.ndarray:
        """float64[n, 11]: value after the one-province card ``e`` (or one pick of 退却 / 上洛) on X."""
        n = len(r)
        src = {C.KASEI: own >= 1, C.MUHON: opp >= 1, C.TAIKYAKU: own >= 1,
               C.JOURAKU: (own >= 1) & _KYO_NEIGH[None]}[e]
        if e in (C.KASEI, C.MUHON):
            src &= (hs >= 1)[:, None]
        ci, xi = np.nonzero(src)
        out = np.full((n, _P), -np.inf)
        if len(ci) == 0:
            return out
        j = np.arange(len(ci))
        o, q, h_s, h_o = own[ci].copy(), opp[ci].copy(), hs[ci].copy(), ho[ci].copy()
        if e == C.KASEI:
            o[j, xi] += 1
            h_s -= 1
        elif e == C.MUHON:
            q[j, xi] -= 1
            if self.muhon_returns_to_hand:
                h_o += 1
            o[j, xi] += 1
            h_s -= 1
        elif e == C.TAIKYAKU:
            o[j, xi] -= 1
            h_s += 1
        else:
            o[j, xi] -= 1
            o[j, KYO] += 1
        out[ci, xi] = self.value(ctx, r[ci], o, q, h_s, h_o)
        return out

    def _card_value(self, ctx: _Ctx, r: np.ndarray, e: int) -> np.ndarray:
        """float64[n]: the value of the best complete use of card ``e`` (multi-pick cards greedily)."""
        own, opp, hs, ho = ctx.own[r].copy(), ctx.opp[r].copy(), ctx.hs[r].copy(), ctx.ho[r].copy()
        if e in _TWO_STEP:
            return self._pair_values(ctx, r, e, own, opp, hs, ho).reshape(len(r), -1).max(axis=1)
        if e in (C.KASEI, C.MUHON):
            return self._pick_values(ctx, r, e, own, opp, hs, ho).max(axis=1)
        best = np.full(len(r), -np.inf)
        picks = self.taikyaku_n if e == C.TAIKYAKU else 12
        j = np.arange(len(r))
        for _ in range(picks):
            vals = self._pick_values(ctx, r, e, own, opp, hs, ho)
            x = vals.argmax(axis=1)
            v = vals[j, x]
            can = np.isfinite(v)
            if not can.any():
                break
            if e == C.TAIKYAKU:
                best = np.where(can, v, best)
                own[j[can], x[can]] -= 1
                hs[can] += 1
            else:
                best = np.where(can, np.maximum(best, v), best)
                own[j[can], x[can]] -= 1
                own[j[can], KYO] += 1
        return best

    # ---- the policy --------------------------------------------------------------------------
    def scores(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """float64[B, 29]: the score of every action (only legal ones matter)."""
        ctx = _Ctx(observation)
        b = len(observation)
        score = np.zeros((b, A.NUM_ACTIONS))
        start = np.flatnonzero(mask[:, A.ROLL])
        dice = np.flatnonzero(mask[:, A.COUNT0])
        carding = np.flatnonzero(mask[:, A.PROVINCE0:].any(axis=1))

        placing = np.concatenate([start, dice])
        if len(placing):
            pv = self.placement_values(ctx, placing)
            best = self._roll_best(ctx, placing, pv)  # [n, 56]
            ev_reroll = best @ _ROLL_W
            ns = len(start)
            # Turn start: a roll is worth its best placement, or the reroll's expectation when that is higher.
            ev_roll = np.maximum(best[:ns], ev_reroll[:ns, None]) @ _ROLL_W
            score[start, A.ROLL] = ev_roll
            # After a roll: each count die's placement; REROLL is worth the expectation of a fresh roll.
            r = placing[ns:]
            d = ctx.dice[r]
            j = np.arange(len(r))
            for i in range(3):
                prov = ctx.prov_of[r, d.sum(axis=1) - d[:, i]]
                score[r, A.COUNT0 + i] = pv[ns + j, prov, (d[:, i] + 1) // 2 - 1]
            score[r, A.REROLL] = ev_reroll[ns:] - self.reroll_margin

            # Cards at turn start: a free extra action (the troops in hand are still placed later).
            card_rows = start[mask[start, A.CARD0:A.REROLL].any(axis=1)]
            if len(card_rows):
                self._card_scores(ctx, card_rows, mask, ev_roll[np.searchsorted(start, card_rows)], score)

        if len(carding):
            self._card_steps(ctx, carding, score)
        return score

    def _card_scores(self, ctx: _Ctx, card_rows: np.ndarray, mask: np.ndarray, roll_of: np.ndarray,
                     score: np.ndarray) -> None:
        """Scores of the usable cards at turn start (rows ``card_rows``, whose roll is worth ``roll_of``): a
        card is a free extra action (the troops in hand are still placed later), played when its gain over
        the present board passes a threshold that drops as the hands run low (cards lock once one is empty)."""
        now = self._now(ctx, card_rows)
        low = np.minimum(ctx.hs[card_rows], ctx.ho[card_rows])
        threshold = self.card_threshold * np.clip(low / 6.0, 0.25, 1.0)  # use it before cards lock
        for e in range(C.NUM_EFFECTS):
            has = mask[card_rows, A.CARD0 + e]
            if not has.any():
                continue
            rr = card_rows[has]
            gain = self._card_value(ctx, rr, e) - now[has]
            score[rr, A.CARD0 + e] = roll_of[has] + gain - threshold[has]

    def _card_steps(self, ctx: _Ctx, g: np.ndarray, score: np.ndarray) -> None:
        """Scores of PROVINCE(x) / DONE for the rows resolving a card."""
        eff = ctx.effect[g]
        for e in np.unique(eff):
            e = int(e)
            r = g[eff == e]
            own, opp, hs, ho = ctx.own[r], ctx.opp[r], ctx.hs[r], ctx.ho[r]
            if e in _TWO_STEP:
                pair = self._pair_values(ctx, r, e, own, opp, hs, ho)
                sel = ctx.selected[r]
                second = (ctx.step[r] == 1) & (sel >= 0)
                vals = pair.max(axis=2)  # step 0: the source that allows the best destination
                vals[second] = pair[second, sel[second], :]
            else:
                vals = self._pick_values(ctx, r, e, own, opp, hs, ho)
                if e == C.JOURAKU:
                    score[r, A.DONE] = self._now(ctx, r) + 1e-6
            score[r, A.PROVINCE0:A.DONE] = vals

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        mask = np.asarray(mask, dtype=bool)
        score = np.zeros(mask.shape)
        # Only rows with a real choice are scored (a turn start without a usable card is just ROLL).
        choice = np.flatnonzero(mask.sum(axis=1) > 1)
        if len(choice):
            score[choice] = self.scores(np.asarray(observation, dtype=np.float32)[choice], mask[choice])
        score = np.where(np.isfinite(score), score, -1e9)  # a legal action never scores -inf
        score = score + rng.random(score.shape) * 1e-6  # ties: no favouring of low indices
        return np.where(mask, score, -np.inf).argmax(axis=1).astype(np.int64)
