"""CPU players of ninja_slayer in two styles: an aggressive racer and a controlling one.

Every legal action gets a score and the best one is played (PASS, END_AISATSU and NO_INTERRUPT score
0, ties broken by tiny noise); the policy reads only the observation (decoded by
:mod:`yuugi.agents.heuristics.ninja_slayer_view`) and the legal mask, and the static card table.

**What things are worth.** A character on the table is worth ``1 + cost + 工作力/2 + カラテ/4`` (+½ if
it can interrupt now). A point of damage to the opponent is worth ``face`` (growing as the opponent
nears 10, and three quarters of it, since about a quarter of a deck has ウケミ and cancels its point);
a point to me is worth ``guard_face``. Finishing the game (an attack or burn that reaches 10) is
worth 20.

**Decisions.**

* **エテル step:** put a card while the エテル zone is below the style's cap (or the hand is large): the
  card worth least to keep, where a card that stays uncastable for turns is worth less.
* **Entering characters:** the biggest first; the controlling style keeps enough エテル untapped for
  its cheapest answer (a コトダマ that kills, taps, bounces, saves or cancels).
* **コトダマ and abilities** are scored by their effect on each target: a kill is the character's worth
  (more if it is the attacker about to hit), +カラテ or −カラテ only when it decides a fight or saves a
  character from the damage on the stack, tap before the attacks, untap for another attack, cancel
  the opponent's item on top of the stack by what it would do. Effects that wait for no one (burn,
  draw, ramp, heal) are played in the style's own window: the aggressive one in its own turn after
  its characters, the controlling one at the end of the opponent's turn with the エテル it kept.
* **アイサツ:** the attacker takes no damage back, so greeting is almost free: the opponent for its
  工作力 (halved when a survivor could interrupt), or a character it kills. The aggressive style
  discounts kills against face damage; the controlling one keeps its untapped インターラプト guards at
  home.
* **Interrupt:** take the attack when what it saves (the damage to me, or the character it aimed
  at) is worth more than the interceptor that would die.
* **Targets of triggers:** the same effect scores.

**Measured** (2,000 games per pairing, seats swapped, fixed seeds not used for tuning; score = my
return minus the opponent's, in [−2, 2], with its 95% bootstrap interval). ``control`` (the default,
``normal``) against random: constructed (D1–D4 mixed) +1.83 [1.79, 1.87], sealed +1.96 [1.94, 1.98];
against easy (itself blundering half the time): +1.36 [1.29, 1.42] and +1.58 [1.53, 1.63]; decided in
each seat. ``aggressive`` against random: +1.88 [1.85, 1.91] and +1.95 [1.93, 1.97]; against
``control``: −0.07 [−0.16, 0.01] constructed (even) and −0.33 [−0.42, −0.24] sealed. ``tuned`` (the
control style's knobs searched against control, ``hard``'s prior) against ``control`` on the search's
selection seeds (``python -m yuugi.training.eval.slayer_ladder --levels normal hard=yuugi.agents.heuristics.ninja_slayer:
TunedHeuristic --games 2000 --seed 501 --rule decks=D``): +0.184 [+0.096, +0.272] constructed, +0.174
[+0.088, +0.260] sealed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from yuugi.envs.ninja_slayer import actions as A
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.config import FIELD_SLOTS, HAND_SLOTS
from yuugi.envs.ninja_slayer.state import (PHASE_CHAR, PHASE_DECLARE, PHASE_END, PHASE_IKUSA_END, PHASE_IKUSA_START,
                                     PHASE_INTERRUPT)

from .ninja_slayer_view import EGO, NO_CHAR, View, _lookup

WIN = 20.0  # the worth of an action that reaches the opponent's 10th damage
UKEMI_KEEP = 0.75  # the share of damage points not cancelled by ウケミ (about a quarter of a deck has it)
# Answers a controlling player keeps エテル for.
_ANSWERS = (C.OP_DMG_CHAR, C.OP_DESTROY_LE, C.OP_BOUNCE, C.OP_TAP, C.OP_COUNTER, C.OP_BUFF_K, C.OP_DEBUFF_K)
_IS_ANSWER = ~C.IS_CHAR & np.isin(C.OPCODE, _ANSWERS)


def _one_of(codes: np.ndarray, values: tuple[int, ...]) -> np.ndarray:
    """``np.isin(codes, values)`` for a few values, without isin's setup (tens of µs a call, on batches
    of a few rows in the expert's rollouts)."""
    hit = codes == values[0]
    for value in values[1:]:
        hit |= codes == value
    return hit


def _legal_pairs(mask: np.ndarray, first: int, slots: int) -> tuple[np.ndarray, np.ndarray]:
    """(games, slots): each card slot with a legal action in the block of ``slots`` × 13 target actions from
    ``first`` (a cast of a hand slot, an activation of a field slot)."""
    block = mask[:, first:first + slots * EGO].reshape(len(mask), slots, EGO)
    return np.nonzero(block.any(axis=2))


def _put_pairs(score: np.ndarray, first: int, games: np.ndarray, slots: np.ndarray, values: np.ndarray) -> None:
    """Write ``values`` [n, 13] as the 13 target actions of card slot ``slots[j]`` of game ``games[j]`` in the
    block of actions from ``first`` (the inverse of :func:`_legal_pairs`)."""
    score[games[:, None], first + slots[:, None] * EGO + np.arange(EGO)] = values


@dataclass(frozen=True)
class Style:
    name: str
    face: float  # worth of a damage point to the opponent
    guard_face: float  # worth of a damage point prevented to me
    kill_scale: float  # how much a kill counts against face damage
    etel_cap: int  # the エテル zone the style builds to before it keeps every card
    keep_answer_open: bool  # enter characters only with the cheapest answer still payable
    guard_home: float  # cost of tapping an untapped plain-インターラプト guard to greet
    own_turn_removal: float  # share of a removal's worth when used in my own turn
    proactive_own_turn: bool  # burn / draw / ramp / heal in my own turn (else at the end of the opponent's)
    etel_worth: float = 0.35  # what one エテル spent is worth, so cheaper plays win ties
    enter_base: float = 3.0  # how much entering a character is preferred to other plays, before its worth
    stopped_face: float = 0.4  # share of a greeting's damage counted when a guard can stop the attacker
    interrupt_tap: float = 0.3  # cost of tapping an untapped guard to interrupt
    far_penalty: float = 1.5  # per turn a card in hand stays uncastable, off its worth to keep
    draw_worth: float = 0.9  # worth of drawing one card
    ramp_worth: float = 1.2  # worth of one more エテル while the zone is below 7


AGGRESSIVE = Style("aggressive", face=1.6, guard_face=0.8, kill_scale=0.5, etel_cap=5, keep_answer_open=False,
                   guard_home=0.3, own_turn_removal=1.0, proactive_own_turn=True)
CONTROL = Style("control", face=1.0, guard_face=1.3, kill_scale=1.0, etel_cap=7, keep_answer_open=True,
                guard_home=2.0, own_turn_removal=0.5, proactive_own_turn=False)
# The control style with every knob tuned by a cross-entropy search against control itself
# (python -m yuugi.training.research.slayer_style_search): it gives little weight to damage prevented to itself, keeps
# no エテル open for answers, and counts a kill a little above face damage. The prior of ``hard``.
TUNED = Style("tuned", face=0.6, guard_face=0.3, kill_scale=1.15, etel_cap=6, keep_answer_open=False,
              guard_home=2.45, own_turn_removal=0.5, proactive_own_turn=False, etel_worth=0.35, enter_base=3.4,
              stopped_face=0.35, interrupt_tap=0.55, far_penalty=1.25, draw_worth=0.95, ramp_worth=1.2)
STYLES = {s.name: s for s in (AGGRESSIVE, CONTROL, TUNED)}


class NinjaSlayerHeuristic:
    """The heuristic of one style (``"aggressive"`` or ``"control"``).

    The default, ``control``, is the ``normal`` level: it edged the aggressive style head to head in
    tuning (constructed about even, sealed about 57–60%).
    """

    def __init__(self, style: str | Style = "control") -> None:
        if isinstance(style, str):
            if style not in STYLES:
                raise ValueError(f"unknown ninja_slayer heuristic style {style!r}; choose from: {', '.join(STYLES)}")
            style = STYLES[style]
        self.style = style
        self.name = f"heuristic_{style.name}"

    # ---- shared valuations -----------------------------------------------------------------------
    def _face(self, v: View) -> np.ndarray:
        """[B]: the worth of one damage point to the opponent (more as they near 10)."""
        return self.style.face * (1.0 + v.damage[:, 1] / 10.0)

    def _burn(self, v: View, points: np.ndarray) -> np.ndarray:
        """Worth of ``points`` [B, ...] of damage to the opponent: expected points, or the win."""
        face = self._face(v).reshape((-1,) + (1,) * (points.ndim - 1))
        left = (10 - v.damage[:, 1]).reshape(face.shape)
        return np.where(points >= left, WIN, points * face * UKEMI_KEEP)

    def _hurt(self, v: View, points: np.ndarray) -> np.ndarray:
        """Worth of preventing ``points`` [B, ...] of damage to me."""
        face = (self.style.guard_face * (1.0 + v.damage[:, 0] / 10.0)).reshape((-1,) + (1,) * (points.ndim - 1))
        left = (10 - v.damage[:, 0]).reshape(face.shape)
        return np.where(points >= left, WIN, points * face * UKEMI_KEEP)

    @staticmethod
    def _dies(v: View, extra: np.ndarray) -> np.ndarray:
        """[B, 13]: the character would die from ``extra`` more damage (at its current カラテ)."""
        total = v.dmg + extra
        return v.present & (total >= 1) & (total >= v.karate)

    def _proactive(self, v: View) -> np.ndarray:
        """[B]: the window where this style plays effects that answer nothing (burn, draw, ramp, heal)."""
        empty = v.stack_len == 0
        if self.style.proactive_own_turn:
            own = v.my_turn & ((v.phase == PHASE_CHAR) | ((v.phase == PHASE_DECLARE) & ~v.attack_on)
                               | (v.phase == PHASE_IKUSA_END) | (v.phase == PHASE_END))
            return empty & (own | (~v.my_turn & (v.phase == PHASE_END)))
        return empty & ~v.my_turn & (v.phase == PHASE_END)

    def _before_their_attacks(self, v: View) -> np.ndarray:
        return ~v.my_turn & ((v.phase <= PHASE_IKUSA_START) | ((v.phase == PHASE_DECLARE) & ~v.attack_on))

    def _able_attackers(self, v: View) -> np.ndarray:
        """[B, 13]: my characters that could greet now (untapped, not entered this turn unless ハヤテ)."""
        return v.mine & ~v.tapped & (~v.entered | v.hayate)

    # ---- effects on targets ------------------------------------------------------------------------
    def effect_values(self, v: View, op: np.ndarray, arg: np.ndarray, tk: np.ndarray) -> np.ndarray:
        """float64[B, K, 13]: the worth of effect ``op``/``arg``/``tk`` [B, K] aimed at each ego target."""
        b, k = op.shape
        op3, arg3, tk3 = op[:, :, None], arg[:, :, None].astype(np.float64), tk[:, :, None]
        out = np.zeros((b, k, EGO))
        r = v.rows
        mine, theirs = v.mine[:, None, :], v.theirs[:, None, :]
        worth = v.worth[:, None, :]
        # The character about to deal イクサ damage to me, and what that would cost me.
        pending = v.attack_on & ((v.phase == PHASE_DECLARE) | (v.phase == PHASE_INTERRUPT))  # damage not dealt yet
        their_attack = pending & ~v.attack_mine
        att = np.zeros((b, EGO), bool)
        att[r, v.attacker] = their_attack
        att[:, NO_CHAR] = False
        incoming = np.where(v.attack_at_player, self._hurt(v, v.greet_kousaku[r, v.attacker]),
                            np.where(self._dies(v, v.karate[r, v.attacker][:, None])[r, v.target],
                                     v.worth[r, v.target], 0.0))
        stop_bonus = np.where(att, incoming[:, None], 0.0)[:, None, :]
        removal_share = np.where(v.my_turn, self.style.own_turn_removal, 1.0)[:, None, None]

        total = v.dmg[:, None, :] + arg3
        kill = v.present[:, None, :] & (total >= 1) & (total >= v.karate[:, None, :])
        # 1. Damage to characters (one chosen, or each opposing one on the no-character target).
        dmg_one = np.where(theirs, np.where(kill, worth * self.style.kill_scale + stop_bonus, 0.05 * arg3),
                           np.where(mine, np.where(kill, -worth, -0.3), 0.0))
        dmg_all = np.where(theirs & kill, worth * self.style.kill_scale, 0.0).sum(axis=2, keepdims=True)
        is_dmg = op3 == C.OP_DMG_CHAR
        all_opp = tk3 == C.TK_ALL_OPP
        out = np.where(is_dmg & ~all_opp, dmg_one * removal_share, out)
        no_char = np.arange(EGO) == NO_CHAR
        out = np.where(is_dmg & all_opp & no_char, dmg_all * removal_share, out)
        # 2. Destroy if カラテ ≤ n, and return to the hand.
        small = v.karate[:, None, :] <= arg3
        out = np.where(op3 == C.OP_DESTROY_LE,
                       np.where(theirs & small, worth * self.style.kill_scale + stop_bonus, -0.5) * removal_share, out)
        cost = _lookup(C.COST, v.card)[:, None, :]
        out = np.where(op3 == C.OP_BOUNCE,
                       np.where(theirs, (0.5 * worth + 0.3 * cost) * self.style.kill_scale + stop_bonus, -0.5)
                       * removal_share, out)
        # 3. −カラテ: finishes a damaged character, or decides my attacker's fight.
        my_fight = pending & v.attack_mine & (v.target < NO_CHAR)
        att_karate = v.karate[r, v.attacker]
        fight_dmg = np.zeros((b, EGO))
        fight_dmg[r, v.target] = np.where(my_fight, att_karate, 0)
        fight_dmg = fight_dmg[:, None, :]
        lowered = np.maximum(v.karate[:, None, :] - arg3, 0)
        dmg_now = v.dmg[:, None, :] + fight_dmg
        kills_low = theirs & (dmg_now >= 1) & (dmg_now >= lowered)
        kills_before = theirs & (dmg_now >= 1) & (dmg_now >= v.karate[:, None, :])
        out = np.where(op3 == C.OP_DEBUFF_K, np.where(kills_low & ~kills_before, worth + stop_bonus, -0.2), out)
        # 4. +カラテ on mine: wins my attacker's fight, or saves my character from what is coming.
        coming = np.zeros((b, EGO))
        coming[r, v.target] = np.where(their_attack & (v.target < NO_CHAR), v.karate[r, v.attacker], 0)
        hits = v.top_theirs & _one_of(v.top_op, (C.OP_DMG_CHAR, C.OP_DEBUFF_K))
        coming[r, v.top_target] += np.where(hits & (v.top_target < FIELD_SLOTS), v.top_arg, 0)
        coming = coming[:, None, :]
        saved = mine & (v.dmg[:, None, :] + coming >= np.maximum(v.karate[:, None, :], 1)) & (coming > 0) & \
            (v.dmg[:, None, :] + coming < v.karate[:, None, :] + arg3)
        target_worth = v.worth[r, v.target]
        fight_total = v.dmg[r, v.target] + att_karate  # [B]
        undecided = my_fight & v.present[r, v.target] & ~((fight_total >= 1) & (fight_total >= v.karate[r, v.target]))
        is_attacker = (np.arange(EGO)[None, :] == v.attacker[:, None]) & undecided[:, None]  # [B, 13]
        wins = is_attacker[:, None, :] & (fight_total[:, None, None] + arg3 >= v.karate[r, v.target][:, None, None])
        out = np.where(op3 == C.OP_BUFF_K,
                       np.where(saved, worth, 0.0) + np.where(wins, target_worth[:, None, None], 0.0) - 0.2, out)
        # 5. Tap: before my attacks, an opposing guard; before theirs, their best attacker.
        before_mine = v.my_turn & (v.phase <= PHASE_DECLARE) & ~v.attack_on
        has_attackers = self._able_attackers(v).any(axis=1)
        guard = theirs & v.can_interrupt[:, None, :] & ~v.tapped[:, None, :]
        tap_mine = np.where(guard, 0.5 * worth, 0.0) * (before_mine & has_attackers)[:, None, None]
        their_able = theirs & ~v.tapped[:, None, :] & (~v.entered | v.hayate)[:, None, :]
        tap_theirs = np.where(their_able, self._hurt(v, v.kousaku)[:, None, :] * 0.8 + 0.3, 0.0) * \
            self._before_their_attacks(v)[:, None, None]
        out = np.where(op3 == C.OP_TAP, tap_mine + tap_theirs - 0.1, out)
        # 6. Untap mine in my アイサツ loop: another attack.
        again = mine & v.tapped[:, None, :] & (~v.entered | v.hayate)[:, None, :]
        in_loop = (v.my_turn & (v.phase == PHASE_DECLARE) & ~v.attack_on)[:, None, None]
        out = np.where(op3 == C.OP_UNTAP,
                       np.where(again & in_loop, self._burn(v, v.greet_kousaku)[:, None, :] * 0.8 + 0.3, -0.1), out)
        # 7. +工作力 to each of mine before my attacks.
        attackers = self._able_attackers(v).sum(axis=1)
        pump = self._burn(v, arg3[..., 0] * attackers[:, None])[:, :, None] * 0.6
        pump_now = (in_loop & (attackers[:, None, None] > 0)) & no_char
        out = np.where(op3 == C.OP_BUFF_W, np.where(pump_now, pump, -0.1), out)
        # 8. Effects that wait for no one: burn, draw, ramp, heal (style's window).
        pro = self._proactive(v)[:, None, None] & no_char
        burn = self._burn(v, arg3[..., 0])[:, :, None]
        urgent = burn >= WIN
        out = np.where(op3 == C.OP_DMG_PLAYER, np.where(pro | (urgent & no_char), burn, -0.1), out)
        out = np.where(op3 == C.OP_DRAW, np.where(pro, self.style.draw_worth * arg3, -0.1), out)
        ramp = np.where(v.etel_total[:, 0] < 7, self.style.ramp_worth, 0.1)[:, None, None]
        out = np.where(op3 == C.OP_RAMP, np.where(pro, ramp * arg3, -0.1), out)
        healed = np.minimum(arg3, v.damage[:, 0][:, None, None])
        out = np.where(op3 == C.OP_HEAL, np.where(pro, self._hurt(v, healed) / UKEMI_KEEP * 0.8, -0.1), out)
        # 9. Cancel the opponent's item on top of the stack, by what it would do.
        out = np.where(op3 == C.OP_COUNTER, np.where(no_char, self._cancel_worth(v)[:, None, None], -5.0), out)
        # 10. Granted カイゼン and the rest: not worth a card.
        out = np.where(_one_of(op3, (C.OP_GRANT_KAIZEN, C.OP_NONE, C.OP_AMBUSH)), -0.1, out)
        return out

    def _cancel_worth(self, v: View) -> np.ndarray:
        """[B]: what cancelling the item on top of the stack is worth (negative for my own)."""
        r = v.rows
        tgt_mine = v.top_target < FIELD_SLOTS
        hit_worth = v.worth[r, v.top_target]
        harmful = _one_of(v.top_op, (C.OP_DMG_CHAR, C.OP_DESTROY_LE, C.OP_BOUNCE, C.OP_DEBUFF_K)) & tgt_mine
        entry = v.top_kind == 0
        cost = _lookup(C.COST, v.top_card)
        worth = np.where(entry, 1.5 + cost, np.where(harmful, hit_worth, 0.5 + 0.5 * cost))
        worth = np.where(v.top_op == C.OP_DMG_PLAYER, self._hurt(v, v.top_arg), worth)
        worth = np.where(v.top_op == C.OP_COUNTER, 2.0, worth)
        return np.where(v.top_theirs, worth, -5.0)

    # ---- decisions --------------------------------------------------------------------------------
    def _etel_scores(self, v: View, score: np.ndarray) -> None:
        hand = v.hand
        have = hand >= 0
        cost = _lookup(C.COST, hand)
        # Answers are kept (they are what a hand is for); other コトダマ are worth about a character.
        base = np.where(_lookup(C.IS_CHAR, hand, False),
                        1.0 + cost + 0.5 * _lookup(C.KOUSAKU, hand) + 0.25 * _lookup(C.KARATE, hand),
                        np.where(_lookup(_IS_ANSWER, hand, False), 3.0 + cost, 2.0 + 0.5 * cost))
        far = np.maximum(cost - v.etel_total[:, 0:1] - 1, 0)
        keep = base - self.style.far_penalty * far
        want = (v.etel_total[:, 0] < self.style.etel_cap) | (v.hand_count[:, 0] >= 6)
        put = np.where(have, 10.0 - keep, -np.inf)
        score[:, A.ETEL0:A.ETEL0 + HAND_SLOTS] = np.where(want[:, None], put, -1.0)

    def _enter_scores(self, v: View, score: np.ndarray) -> None:
        hand = v.hand
        cost = _lookup(C.COST, hand)
        worth = 1.0 + cost + 0.5 * _lookup(C.KOUSAKU, hand) + 0.25 * _lookup(C.KARATE, hand)
        s = self.style.enter_base + worth
        if self.style.keep_answer_open:
            answer_cost = np.where(_lookup(_IS_ANSWER, hand, False), cost, 99).min(axis=1)
            # From 4 エテル on (the curve comes first): an answer's worth stays untapped.
            keep = np.where((answer_cost < 99) & (v.etel_total[:, 0] >= 4), answer_cost, 0)
            short = v.etel_untapped[:, 0:1] - cost < keep[:, None]
            s = np.where(short, -1.0, s)
        score[:, A.ENTER0:A.ENTER0 + HAND_SLOTS] = s

    def _cast_scores(self, v: View, score: np.ndarray, mask: np.ndarray) -> None:
        # Only the hand cards with a legal cast are valued (an effect's worth is the costliest part of the
        # heuristic, and most cards cannot be cast at a given moment), each against all 13 targets.
        rows, slots = _legal_pairs(mask, A.CAST0, HAND_SLOTS)
        if not rows.size:
            return
        card = v.hand[rows, slots][:, None]
        vals = self.effect_values(v.take(rows), _lookup(C.OPCODE, card), _lookup(C.ARG, card),
                                  _lookup(C.TARGET, card))[:, 0]
        vals -= self.style.etel_worth * _lookup(C.COST, card)
        _put_pairs(score, A.CAST0, rows, slots, vals)

    def _activate_scores(self, v: View, score: np.ndarray, mask: np.ndarray) -> None:
        rows, slots = _legal_pairs(mask, A.ACTIVATE0, FIELD_SLOTS)  # (as for casts: legal activations only)
        if not rows.size:
            return
        w = v.take(rows)
        card = v.card[rows, slots][:, None]
        op, arg = _lookup(C.OPCODE, card), _lookup(C.ARG, card)
        etel, jitsu = _lookup(C.ACT_E, card), _lookup(C.ACT_J, card)
        vals = self.effect_values(w, op, arg, _lookup(C.TARGET, card))
        # [O] taps an attacker or a guard; ジツ only turns over damage that already counts.
        tap_cost = _lookup(C.ACT_O, card, False) * np.where(w.my_turn, 0.5, 0.2)[:, None]
        vals -= (self.style.etel_worth * etel + tap_cost + 0.05 * jitsu)[:, :, None]
        # Burn paid by ジツ alone costs nothing that comes back: fire it whenever it can be paid.
        free_burn = (op == C.OP_DMG_PLAYER) & (etel == 0) & (w.stack_len == 0)[:, None]
        burn = self._burn(w, arg) - 0.05 * jitsu
        vals[:, :, NO_CHAR] = np.where(free_burn, burn, vals[:, :, NO_CHAR])
        _put_pairs(score, A.ACTIVATE0, rows, slots, vals[:, 0])

    def _aisatsu_scores(self, v: View, score: np.ndarray) -> None:
        b = len(v.rows)
        st = self.style
        theirs = v.theirs[:, FIELD_SLOTS:NO_CHAR]  # [B, 6] opposing slots
        karate_a = v.greet_karate[:, :FIELD_SLOTS]  # [B, 6] my attackers
        kousaku_a = v.greet_kousaku[:, :FIELD_SLOTS]
        # Against the player: a guard that survives the attacker's カラテ makes the attack likely wasted.
        guards = v.can_interrupt[:, FIELD_SLOTS:NO_CHAR] & theirs
        toughness = np.where(guards, v.karate[:, FIELD_SLOTS:NO_CHAR] - v.dmg[:, FIELD_SLOTS:NO_CHAR], -99)
        stopped = toughness.max(axis=1)[:, None] > karate_a
        face = np.where(stopped, st.stopped_face, 1.0) * self._burn(v, kousaku_a)
        face = np.where(kousaku_a > 0, face, -0.05)
        # Against a character: the kill (and what the attacker's ON_KILL adds).
        dmg_t = v.dmg[:, None, FIELD_SLOTS:NO_CHAR] + karate_a[:, :, None]  # [B, a, u]
        kill = theirs[:, None, :] & (dmg_t >= 1) & (dmg_t >= v.karate[:, None, FIELD_SLOTS:NO_CHAR])
        on_kill = v.on_kill[:, :FIELD_SLOTS, None]
        bonus = np.where(on_kill == C.OP_DMG_PLAYER, self._burn(v, v.on_kill_arg[:, :FIELD_SLOTS])[:, :, None], 0.0)
        bonus += np.where(on_kill == C.OP_UNTAP, 0.8 * self._burn(v, kousaku_a)[:, :, None], 0.0)
        at_char = np.where(kill, v.worth[:, None, FIELD_SLOTS:NO_CHAR] * st.kill_scale + bonus, -0.05)
        vals = np.concatenate([at_char, face[:, :, None]], axis=2)  # [B, 6, 7]
        # Greeting taps the attacker: a plain インターラプト guard is then away for their turn.
        vals -= (st.guard_home * v.guard_taps[:, :FIELD_SLOTS])[:, :, None]
        score[:, A.AISATSU0:A.AISATSU0 + FIELD_SLOTS * 7] = vals.reshape(b, -1)

    def _interrupt_scores(self, v: View, score: np.ndarray) -> None:
        r = v.rows
        k_att = v.karate[r, v.attacker]
        saved = np.where(v.attack_at_player, self._hurt(v, v.kousaku[r, v.attacker]),
                         np.where(self._dies(v, k_att[:, None])[r, v.target], v.worth[r, v.target], 0.0))
        lost = np.where(self._dies(v, k_att[:, None]), v.worth, 0.0)[:, :FIELD_SLOTS]
        taps = (v.guard_taps & ~v.tapped)[:, :FIELD_SLOTS] * self.style.interrupt_tap
        score[:, A.INTERRUPT0:A.INTERRUPT0 + FIELD_SLOTS] = saved[:, None] - lost - taps

    def _target_scores(self, v: View, score: np.ndarray, mask: np.ndarray) -> None:
        rows = np.flatnonzero(mask[:, A.TARGET0:A.TARGET0 + EGO].any(axis=1))  # games choosing a target now
        if not rows.size:
            return
        w = v.take(rows)
        card = w.pending_card[:, None]
        vals = self.effect_values(w, w.pending_op[:, None], _lookup(C.ARG, card), w.pending_tk[:, None])[:, 0]
        # A trigger's own effect is played regardless of the window (it is not a choice to wait).
        score[rows, A.TARGET0:A.TARGET0 + EGO] = vals

    def scores(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """float64[B, 293]: the score of every legal action (casts, activations and targets are valued only
        where legal; their other entries are 0)."""
        v = View(observation)
        score = np.zeros(mask.shape)
        self._etel_scores(v, score)
        self._enter_scores(v, score)
        self._cast_scores(v, score, mask)
        self._activate_scores(v, score, mask)
        self._aisatsu_scores(v, score)
        self._interrupt_scores(v, score)
        self._target_scores(v, score, mask)
        return score

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        mask = np.asarray(mask, dtype=bool)
        score = np.zeros(mask.shape)
        choice = np.flatnonzero(mask.sum(axis=1) > 1)  # a single legal action needs no thought
        observation = np.asarray(observation, dtype=np.float32)
        if len(choice) == len(mask) > 0:  # (no copy of 21 KB observations when every game has a choice)
            score = self.scores(observation, mask)
        elif len(choice):
            score[choice] = self.scores(observation[choice], mask[choice])
        score = np.where(np.isfinite(score), score, -1e9)
        score = score + rng.random(score.shape) * 1e-6  # ties: no favouring of low indices
        return np.where(mask, score, -np.inf).argmax(axis=1).astype(np.int64)


class AggressiveHeuristic(NinjaSlayerHeuristic):
    """The aggressive style, by class (for ``module:attr`` policy specs such as ``yuugi eval``'s)."""

    def __init__(self) -> None:
        super().__init__("aggressive")


class ControlHeuristic(NinjaSlayerHeuristic):
    """The controlling style, by class."""

    def __init__(self) -> None:
        super().__init__("control")


class TunedHeuristic(NinjaSlayerHeuristic):
    """The tuned style (``hard``'s prior), by class."""

    def __init__(self) -> None:
        super().__init__("tuned")
