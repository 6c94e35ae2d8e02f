"""The four ninjutsu (rules file §2.1): which activations are legal, and their effects.

Activation is a decision of its own on the player's turn, before the play or pass: the mask offers
the jutsu actions 2328–2335 next to the plays. 手裏剣 then asks for the thrown card (phase
``shuriken``, PICK_CARD actions); 変化 sets a boost for this turn's play; 雷遁 clears the field and
the activator leads; 足止め gives the target a pending skip.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core.jit import rules

from . import actions as A
from .cards import JOKER, count_cards
from .config import (ASHIDOME, BASE_COST, D_COSTLY_JUTSU, HENGE, MAX_POINTS, RAITON, SCHOOL_BOGAI, SHURIKEN)
from .state import PHASE_PLAY, PHASE_SHURIKEN
from .tables import FC_EMPTY
from . import points as P
from .field import clear_field
from .held import holds_card, offer_plays
from .seats import next_active

_JOKER_BIT = np.uint64(1 << JOKER)
_BASE_ASHIDOME, _BASE_SHURIKEN, _BASE_RAITON, _BASE_HENGE = BASE_COST


@rules
def base_cost(jutsu: int) -> int:
    if jutsu == ASHIDOME:
        return _BASE_ASHIDOME
    if jutsu == SHURIKEN:
        return _BASE_SHURIKEN
    if jutsu == RAITON:
        return _BASE_RAITON
    return _BASE_HENGE


@rules
def jutsu_cost(jutsu: int, level: int, declaration: int) -> int:
    """Cost of a jutsu at ``level``: base − 1 at Lv5 (min 1), +1 under D7, at most 6."""
    cost = base_cost(jutsu)
    if level == 5:
        cost = max(cost - 1, 1)
    if declaration == D_COSTLY_JUTSU:
        cost += 1
    return min(cost, MAX_POINTS)


@rules
def may_target(st, i: int, player: int, offset: int, aim_any: bool) -> bool:
    """The opponent ``offset`` seats after the player may be targeted: he is still in, and (Lv1-2)
    he is the next seat in after the player."""
    target = (player + offset) % st.active.shape[1]
    return st.active[i, target] and (aim_any or target == next_active(st, i, player))


@rules(allocates=True)
def henge_has_a_play(st, i: int, T, hand: np.uint64, level: int, variant: int, direction: int) -> bool:
    """変化 may be used when the boosted turn has a play: on a lead, any non-joker card; on a field,
    a held play that beats it once boosted (Lv3+: by 2 ranks; Lv5: ignoring the lock)."""
    field_class = int(st.field_class[i])
    if field_class == FC_EMPTY:
        return (hand & ~_JOKER_BIT) != 0
    shift = 2 if level >= 3 else 1
    allowed = T.beats_boosted[shift - 1, variant, field_class, direction]
    fits = T.lock_ok[0 if level == 5 else st.lock[i]]
    return offer_plays(T, hand, field_class, allowed, fits, np.zeros(A.NUM_PLAY_ACTIONS, np.bool_))


@rules
def affordable(level: int, uses_left: int, points: int, jutsu: int, declaration: int) -> bool:
    """The jutsu is equipped, has a use left this game, and the player's points pay its cost."""
    return level >= 1 and uses_left > 0 and points >= jutsu_cost(jutsu, level, declaration)


@rules(inline=True)  # one call site, in legal_mask
def jutsu_mask(st, i: int, T, hand: np.uint64, variant: int, direction: int, mask: np.ndarray) -> None:
    """Legal activations (actions 2328..2335) of the player to act, who is in play and has not used a
    jutsu this turn: Lv1-2 aim at the next seat in only, Lv3+ at any opponent still in."""
    p = int(st.to_play[i])
    levels = st.levels[i, p]
    uses = st.uses_left[i, p]
    points = int(st.points[i, p])
    declaration = int(st.declaration[i])
    if affordable(levels[ASHIDOME], uses[ASHIDOME], points, ASHIDOME, declaration):
        for d in range(1, st.active.shape[1]):
            mask[A.ASHIDOME0 + d - 1] = may_target(st, i, p, d, levels[ASHIDOME] >= 3)
    throwable = count_cards(hand) >= 2 and (hand & ~_JOKER_BIT) != 0  # a card to throw, and one to keep
    if affordable(levels[SHURIKEN], uses[SHURIKEN], points, SHURIKEN, declaration) and throwable:
        for d in range(1, st.active.shape[1]):
            mask[A.SHURIKEN0 + d - 1] = may_target(st, i, p, d, levels[SHURIKEN] >= 3)
    if affordable(levels[RAITON], uses[RAITON], points, RAITON, declaration):
        # 雷遁 needs a play on the field, of 1-2 cards below Lv3.
        fa = int(st.field_action[i])
        size = int(T.size[fa]) if fa >= 0 else 0
        mask[A.RAITON] = size > 0 and (levels[RAITON] >= 3 or size <= 2)
    if affordable(levels[HENGE], uses[HENGE], points, HENGE, declaration):
        mask[A.HENGE] = henge_has_a_play(st, i, T, hand, int(levels[HENGE]), variant, direction)


@rules
def activate(st, i: int, a: int, T) -> None:
    """Pay, use up, and apply the jutsu ``a`` (2328..2335) of the player to act."""
    p = int(st.to_play[i])
    j = int(T.jutsu[a])
    level = int(st.levels[i, p, j])
    st.points[i, p] -= jutsu_cost(j, level, int(st.declaration[i]))
    st.uses_left[i, p, j] -= 1
    st.jutsu_used[i] = True
    target = (p + int(T.target[a])) % st.active.shape[1]
    if j == ASHIDOME:
        st.skip_pending[i, target] += 1  # 足止め: the target's next turn is skipped
    elif j == SHURIKEN:
        st.shuriken_target[i] = target  # 手裏剣: the player now picks the card to throw
        st.phase[i] = PHASE_SHURIKEN
    if j == ASHIDOME or j == SHURIKEN:
        if level == 5:
            P.lose_one(st, i, target)
        if st.school[i, p] == SCHOOL_BOGAI:
            P.gain(st, i, p, 1)  # school 妨害: one point back
    elif j == RAITON:
        clear_field(st, i)  # the activator keeps the turn and leads; the revolution stays
        if level == 5:
            P.gain(st, i, p, 1)
    else:  # HENGE: this turn's play is boosted
        st.henge_shift[i] = 2 if level >= 3 else 1
        st.lock_ignored[i] = level == 5


@rules
def throw(st, i: int, a: int, T) -> None:
    """手裏剣's second step: the picked card goes to the target's hand, in view of everyone."""
    p = int(st.to_play[i])
    target = int(st.shuriken_target[i])
    card = T.cards[a]
    for observer in range(st.known.shape[1]):
        st.known[i, observer, p] &= ~card
    st.hands[i, p] &= ~card
    st.hands[i, target] |= card
    for observer in range(st.known.shape[1]):
        st.known[i, observer, target] |= card
    st.shuriken_target[i] = -1
    st.phase[i] = PHASE_PLAY


@rules
def shuriken_picks(hand: np.uint64, mask: np.ndarray) -> None:
    """The cards that may be thrown: any but the joker."""
    for c in range(JOKER):
        mask[A.PICK0 + c] = holds_card(hand, c)
