"""The rules of 鬼ヶ島 as batched numpy functions (rules file §3–§5 and the state machine of §10).

The rule functions of every game share one shape: ``init(st, g, cfg)`` deals games ``g`` of a state
from :func:`~.state.empty_state` (rng keys set), ``legal_mask(st, cfg)`` is bool[B, A], and
``apply(st, g, actions, cfg)`` applies one validated action per game of ``g``. ``g`` is an int array
of distinct game indices and ``cfg`` the :class:`~.config.MomotaroConfig`, whose ``cfg.tables``
holds the numbers the rules read (powers, layout, index ranges), built once per config. No function
loops over games. A decision is applied by the handler of the game's phase; handlers then run the
automatic steps (reveal, janken, dice, damage with one possible card, end-of-turn housekeeping, next
round) until every game in ``g`` is waiting for a decision again or is over.

All chance (hiring and oni shuffles, janken, start-player ties, dice) is drawn from the per-game
streams of :mod:`yuugi.envs.core.rng`, only for the games that need it, so game i depends only on its own
seed and its own actions.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.core.advance import MicroOps
from yuugi.envs.core.grouping import rows_by_code

from .cards import BLACK_ONI, IS_YELLOW, NUM_CARDS, NUM_ONI, NUM_RETAINERS, WARRIOR, YELLOW_POTIONS
from .config import MomotaroConfig
from .state import (AT_FIELD, AT_POTION, AT_TREASURE, NUM_PHASES, OUT_DRAW, OUT_LOSS, OUT_WIN, PHASE_ADD,
                    PHASE_ASSIGN, PHASE_BID, PHASE_COMBO, PHASE_HEAL, PHASE_ONI, PHASE_OVER, PHASE_TAKE, PHASE_YELLOW,
                    MomotaroState)
from .tables import COMBO_CARDS, COMBO_SINGLE_CARD, COMBO_SIZE, LEGAL_BY_HAND, NUM_COMBOS, POW2

_IS_WARRIOR = np.arange(NUM_CARDS) == WARRIOR


def games_by_phase(ph: np.ndarray, *groups: tuple[int, ...]) -> list[np.ndarray | None]:
    """For each group of phases, the indices into ``ph`` of the games in one of them (None for none);
    the handlers treat every game apart, so the order within a group does not matter."""
    return rows_by_code(ph, NUM_PHASES, *groups)


# The automatic transitions between decisions, as micro-operations of yuugi.envs.core.advance: a row's
# pending code says which transition it runs next; OP_WAIT means it waits for a decision (or is over).
# Codes follow the order in which the rules chain the transitions.
(OP_WAIT, OP_AWARD, OP_NEXT_CARD, OP_AFTER_ONI, OP_DAMAGE, OP_END_TURN, OP_NEW_ROUND, OP_BEGIN_TURN,
 OP_ENTER_ONI) = range(9)


@dataclasses.dataclass
class Pending:
    """What one step hands from transition to transition, per row of the batch (scratch, not state:
    every row waits again when the step returns).

    ``arg`` carries what a transition needs besides the state: the award's winner and price
    (columns 0 and 1), the damaged card (column 0).
    """

    op: np.ndarray  # int8[B]: OP_*
    arg: np.ndarray  # int64[B, 2]

    @classmethod
    def for_batch(cls, b: int) -> "Pending":
        return cls(np.zeros(b, dtype=np.int8), np.empty((b, 2), dtype=np.int64))


def kth_true(flags: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Column of the k-th (0-based) True in each row of ``flags``."""
    return (flags & (np.cumsum(flags, axis=1) == (k[:, None] + 1))).argmax(axis=1)


def rank_keys(alive: np.ndarray, treasure: np.ndarray, hand: np.ndarray, kibi: np.ndarray) -> np.ndarray:
    """int64[n, P] ranking keys of §5.7: survivors first, then treasure, surviving retainers, kibidango.

    Fields are packed so that comparing keys compares the tie-break chain in order (treasure < 1024,
    retainers <= 9, kibidango <= 60).
    """
    retainers = hand[..., 1:].sum(axis=-1).astype(np.int64)
    return ((alive.astype(np.int64) << 20) | (treasure.astype(np.int64) << 10) | (retainers << 6)
            | kibi.astype(np.int64))


def rank_rewards(keys: np.ndarray, scheme: str) -> tuple[np.ndarray, np.ndarray]:
    """(ranks int64[n, P] with 1 = first and shared ranks, rewards float32[n, P]), both zero-sum rewards."""
    p = keys.shape[1]
    greater = (keys[:, None, :] > keys[:, :, None]).sum(axis=2)
    ranks = 1 + greater
    if scheme == "winner":
        first = greater == 0
        n1 = first.sum(axis=1, keepdims=True)
        rewards = np.where(first, (p - n1) / (n1 * (p - 1)), -1.0 / (p - 1))
    else:  # "linear": tied seats share the mean of the places they cover
        equal = (keys[:, None, :] == keys[:, :, None]).sum(axis=2)
        mean_place = greater + (equal - 1) / 2.0
        rewards = 1.0 - 2.0 * mean_place / (p - 1)
    return ranks, rewards.astype(np.float32)


# ---- setup ---------------------------------------------------------------------------------


def init(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig) -> None:
    """Deal games ``g`` of ``st`` (fresh from :func:`~.state.empty_state`, rng keys set): shuffled
    hiring (C1) and oni (C5) decks, K0 kibidango and a warrior each, the first auction open."""
    ctr = st.rng_counter[g]
    keys = st.rng_key[g]
    raw = rng.draw_uint64(keys, ctr, NUM_RETAINERS + NUM_ONI)  # both shuffles from one draw, in this order
    st.hire_deck[g] = rng.permutations_from(raw[:, :NUM_RETAINERS])  # C1
    st.oni_deck[g] = rng.permutations_from(raw[:, NUM_RETAINERS:])  # C5
    st.rng_counter[g] = ctr
    st.kibi[g] = cfg.tables.kibi
    st.hand[g, :, WARRIOR] = True
    st.phase[g] = PHASE_BID


# ---- the legal mask ------------------------------------------------------------------------


def healable(st: MomotaroState, g: np.ndarray, p: np.ndarray, cfg: MomotaroConfig) -> np.ndarray:
    """bool[n, 10]: cards of seat p that may be healed now (D4)."""
    dmg = st.card_dmg[g, p] > 0
    can_pay = np.where(_IS_WARRIOR, (st.potions[g, p] > 0)[:, None], (st.kibi[g, p] > 0)[:, None])
    ok = st.hand[g, p] & dmg & can_pay
    if not cfg.heal_any_turn:
        ok &= st.fresh[g, p]
    return ok


def legal_mask(st: MomotaroState, cfg: MomotaroConfig) -> np.ndarray:
    t = cfg.tables
    b = st.batch_size
    lay = t.layout
    mask = np.zeros((b, lay.num_actions), dtype=bool)
    ph = np.where(st.terminated | st.truncated, PHASE_OVER, st.phase)
    tp = st.to_play.astype(np.intp)
    bidding, taking, healing, choosing, sending, assigning, yellow = games_by_phase(
        ph, (PHASE_BID, PHASE_ADD), (PHASE_TAKE,), (PHASE_HEAL,), (PHASE_ONI,), (PHASE_COMBO,), (PHASE_ASSIGN,),
        (PHASE_YELLOW,))
    if (r := bidding) is not None:
        p = tp[r]
        limit = st.kibi[r, p] - np.where(ph[r] == PHASE_ADD, st.bids[r, p], 0)
        mask[r, :t.kibi + 1] = t.bid_values <= limit[:, None]
    if (r := taking) is not None:
        mask[r, lay.take] = True
        mask[r, lay.decline] = True
    if (r := healing) is not None:
        mask[r, lay.heal0:lay.heal0 + NUM_CARDS] = healable(st, r, tp[r], cfg)
        mask[r, lay.end_heal] = True
    if (r := choosing) is not None:
        mask[r, lay.oni0:lay.oni0 + NUM_ONI] = st.oni_at[r] == AT_FIELD
    if (r := sending) is not None:
        bits = (st.hand[r, tp[r]] * POW2).sum(axis=1)
        mask[r, lay.combo0:lay.combo0 + NUM_COMBOS] = LEGAL_BY_HAND[bits]
    if (r := assigning) is not None:
        mask[r, lay.assign0:lay.assign0 + NUM_CARDS] = COMBO_CARDS[st.combo[r]]
    if (r := yellow) is not None:
        mask[r, lay.yellow_treasure] = True
        mask[r, lay.yellow_potion] = True
    return mask


# ---- applying a decision -------------------------------------------------------------------


def apply(st: MomotaroState, g: np.ndarray, actions: np.ndarray, cfg: MomotaroConfig) -> None:
    """Apply the already validated ``actions`` (one per game of ``g``) to games ``g``."""
    a = actions
    flow = Pending.for_batch(st.batch_size)
    # The decision of each game, by the handler of its phase (BID and ADD share one).
    handlers = ((_bid, (PHASE_BID, PHASE_ADD)), (_take, (PHASE_TAKE,)), (_heal, (PHASE_HEAL,)),
                (_choose_oni, (PHASE_ONI,)), (_send, (PHASE_COMBO,)), (_yellow, (PHASE_YELLOW,)),
                (_assign, (PHASE_ASSIGN,)))
    for (fn, _), sel in zip(handlers, games_by_phase(st.phase[g], *(phases for _, phases in handlers))):
        if sel is not None:
            fn(st, g[sel], a[sel], cfg, flow)
    # Then the automatic transitions, until every game waits for its next decision or is over.
    AUTOMATIC.run(flow.op, st, g, cfg, flow)


# ---- hiring (§4) ---------------------------------------------------------------------------


def _bid(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """A sealed bid (D1) or additional bid (D2); the last bidder's bid triggers the reveal."""
    t = cfg.tables
    p = st.to_play[g].astype(np.intp)
    first = st.phase[g] == PHASE_BID
    st.bids[g[first], p[first]] = a[first]
    st.adds[g[~first], p[~first]] = a[~first]
    later = st.bidders[g] & (t.seats > p[:, None])
    more = later.any(axis=1)
    st.to_play[g[more]] = later[more].argmax(axis=1)
    done = ~more
    _reveal_first(st, g[done & first], flow)
    _reveal_additional(st, g[done & ~first], flow)


def _reveal_first(st: MomotaroState, g: np.ndarray, flow: Pending) -> None:
    if not g.size:
        return
    bids = st.bids[g]
    top = bids.max(axis=1)
    tied = bids == top[:, None]
    one = tied.sum(axis=1) == 1
    first_tied = tied.argmax(axis=1)
    _to_award(flow, g[one], first_tied[one], top[one])
    gt = g[~one]
    st.phase[gt] = PHASE_ADD
    st.bidders[gt] = tied[~one]
    st.to_play[gt] = first_tied[~one]


def _reveal_additional(st: MomotaroState, g: np.ndarray, flow: Pending) -> None:
    if not g.size:
        return
    bidders = st.bidders[g]
    adds = np.where(bidders, st.adds[g], -1)
    top = adds.max(axis=1)
    tied = bidders & (adds == top[:, None])
    n = tied.sum(axis=1)
    one = n == 1
    w = tied[one].argmax(axis=1)
    g1 = g[one]
    _to_award(flow, g1, w, st.bids[g1, w].astype(np.int16) + st.adds[g1, w])
    gj = g[~one]
    if gj.size:  # janken among the still-tied: a uniform draw (C2)
        ctr = st.rng_counter[gj]
        k = rng.draw_below(st.rng_key[gj], ctr, n[~one])
        st.rng_counter[gj] = ctr
        st.phase[gj] = PHASE_TAKE
        st.to_play[gj] = kth_true(tied[~one], k)


def _take(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """D3: the janken winner takes the card (paying first + additional bid) or declines it."""
    t = cfg.tables
    take = a == t.layout.take
    gt = g[take]
    w = st.to_play[gt].astype(np.intp)
    _to_award(flow, gt, w, st.bids[gt, w].astype(np.int16) + st.adds[gt, w])
    gd = g[~take]
    st.declined[gd, st.hire_deck[gd, st.hire_pos[gd]]] = True  # out of the game, nobody pays
    flow.op[gd] = OP_NEXT_CARD


def _to_award(flow: Pending, g: np.ndarray, winner: np.ndarray, price: np.ndarray) -> None:
    flow.op[g] = OP_AWARD
    flow.arg[g, 0] = winner
    flow.arg[g, 1] = price


def _award(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """The auction's winner pays its price and takes the retainer."""
    w, price = flow.arg[g, 0], flow.arg[g, 1]
    st.kibi[g, w] -= price.astype(np.int16)  # paid kibidango leave the game
    st.hand[g, w, st.hire_deck[g, st.hire_pos[g]].astype(np.intp) + 1] = True
    flow.op[g] = OP_NEXT_CARD


def _next_card(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    if not g.size:
        return
    st.last_bids[g] = st.bids[g]
    st.last_adds[g] = st.adds[g]
    st.bids[g] = -1
    st.adds[g] = -1
    st.bidders[g] = True
    st.hire_pos[g] += 1
    over = st.hire_pos[g] >= NUM_RETAINERS
    gb = g[~over]
    st.phase[gb] = PHASE_BID
    st.to_play[gb] = 0
    flow.op[g] = np.where(over, OP_NEW_ROUND, OP_WAIT)


# ---- rounds and turns (§5.1) ---------------------------------------------------------------


def _new_round(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """Next round: 4 new oni join the field; the start player (§5.1, C3/C4) takes the first turn."""
    t = cfg.tables
    if not g.size:
        return
    st.round[g] += 1
    r = st.round[g].astype(np.intp)
    idx = 4 * (r - 1)[:, None] + t.deal_offsets
    dealt = st.oni_deck[g[:, None], idx]
    st.oni_at[g[:, None], dealt] = AT_FIELD
    kibi = st.kibi[g].astype(np.int64)
    # Round 1: most kibidango. Later rounds: fewest treasure, then most kibidango. Living players only.
    score = np.where((r == 1)[:, None], kibi, kibi - (st.treasure[g].astype(np.int64) << 7))
    score = np.where(st.alive[g], score, np.iinfo(np.int64).min)
    tied = score == score.max(axis=1, keepdims=True)
    ctr = st.rng_counter[g]
    k = rng.draw_below(st.rng_key[g], ctr, tied.sum(axis=1))  # janken among the tied
    st.rng_counter[g] = ctr
    start = kth_true(tied, k)
    st.start_player[g] = start
    st.slot[g] = 0
    st.to_play[g] = start
    flow.op[g] = OP_BEGIN_TURN


def _begin_turn(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """Turn start: the heal step (D4) when something can be healed, else choose the oni."""
    if not g.size:
        return
    p = st.to_play[g].astype(np.intp)
    heal = healable(st, g, p, cfg).any(axis=1)
    st.phase[g[heal]] = PHASE_HEAL
    flow.op[g] = np.where(heal, OP_WAIT, OP_ENTER_ONI)


def _enter_oni(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    st.fresh[g, st.to_play[g].astype(np.intp)] = False  # the heal step for that damage is over
    st.phase[g] = PHASE_ONI
    flow.op[g] = OP_WAIT


def _heal(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """D4: one damage off one card (a potion for the warrior, a kibidango for a retainer), or END."""
    t = cfg.tables
    heal = a != t.layout.end_heal
    gh = g[heal]
    c = a[heal] - t.layout.heal0
    p = st.to_play[gh].astype(np.intp)
    st.card_dmg[gh, p, c] -= 1
    w = c == WARRIOR
    st.potions[gh[w], p[w]] -= 1
    st.kibi[gh[~w], p[~w]] -= 1
    more = healable(st, gh, p, cfg).any(axis=1)
    flow.op[g[~heal]] = OP_ENTER_ONI
    flow.op[gh[~more]] = OP_ENTER_ONI


def _choose_oni(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    t = cfg.tables
    st.target[g] = a - t.layout.oni0
    st.combo[g] = -1
    st.phase[g] = PHASE_COMBO


# ---- the battle (§5.2 steps 3–6) -----------------------------------------------------------


def _send(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """D6, then markers, dice and the result."""
    t = cfg.tables
    k = (a - t.layout.combo0).astype(np.intp)
    st.combo[g] = k
    p = st.to_play[g].astype(np.intp)
    o = st.target[g].astype(np.intp)
    if cfg.damage_reduces_power:
        eff = t.card_power - st.card_dmg[g, p]
    else:
        eff = np.broadcast_to(t.card_power, (g.size, NUM_CARDS))
    war = (eff * t.combo_cards_i16[k]).sum(axis=1) + t.combo_oni_mod[k, o]
    oni_power = t.oni_power[o]
    oni_dmg = st.oni_dmg[g, o].astype(np.int16)
    roll = rng.dice_by_modulo_at(st, g, 2).astype(np.int16)  # C6: red, white
    st.dice[g] = roll
    diff = (war + roll[:, 1]) - (oni_power - oni_dmg + roll[:, 0])
    win, draw = diff > 0, diff == 0
    st.outcome[g] = np.where(win, OUT_WIN, np.where(draw, OUT_DRAW, OUT_LOSS))
    hurt = np.abs(diff)
    oni_hit = np.where(win, hurt, draw)
    new_dmg = np.minimum(oni_dmg + oni_hit, oni_power)  # a defeated oni's excess does not matter
    st.oni_dmg[g, o] = new_dmg
    st.pending[g] = np.where(win, 0, np.where(draw, 1, hurt))
    defeated = new_dmg >= oni_power
    yellow = defeated & IS_YELLOW[o]
    plain = defeated & ~yellow
    gp, pp, op = g[plain], p[plain], o[plain]
    st.oni_at[gp, op] = AT_TREASURE  # flipped: treasure = printed power
    st.oni_owner[gp, op] = pp
    st.treasure[gp, pp] += oni_power[plain]
    st.phase[g[yellow]] = PHASE_YELLOW  # D8 first; the card damage of a draw follows
    flow.op[g[~yellow]] = OP_AFTER_ONI


def _yellow(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """D8: 黄鬼 as treasure (its value) or as potions (1 for 黄鬼2, 2 for 黄鬼4); final."""
    t = cfg.tables
    o = st.target[g].astype(np.intp)
    p = st.to_play[g].astype(np.intp)
    treasure = a == t.layout.yellow_treasure
    st.treasure[g[treasure], p[treasure]] += t.oni_power[o[treasure]]
    st.potions[g[~treasure], p[~treasure]] += YELLOW_POTIONS[o[~treasure]]
    st.oni_at[g, o] = np.where(treasure, AT_TREASURE, AT_POTION)
    st.oni_owner[g, o] = p
    flow.op[g] = OP_AFTER_ONI


def _after_oni(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """Damage to the player's side: automatic with one card, else the choice D7."""
    if not g.size:
        return
    k = st.combo[g].astype(np.intp)
    owed = st.pending[g] > 0
    single = owed & (COMBO_SIZE[k] == 1)
    several = owed & ~single
    st.phase[g[several]] = PHASE_ASSIGN
    flow.op[g] = np.where(several, OP_WAIT, np.where(single, OP_DAMAGE, OP_END_TURN))
    flow.arg[g[single], 0] = COMBO_SINGLE_CARD[k[single]]


def _assign(st: MomotaroState, g: np.ndarray, a: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    t = cfg.tables
    flow.op[g] = OP_DAMAGE
    flow.arg[g, 0] = a - t.layout.assign0


def _damage_card(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    """All the pending damage on card c; at printed power it is knocked out and the excess is lost."""
    t = cfg.tables
    c = flow.arg[g, 0]
    p = st.to_play[g].astype(np.intp)
    power = t.card_power[c]
    new = np.minimum(st.card_dmg[g, p, c] + st.pending[g].astype(np.int16), power)
    st.card_dmg[g, p, c] = new
    out = new >= power
    st.hand[g[out], p[out], c[out]] = False
    st.ko[g[out], p[out], c[out]] = True
    st.fresh[g[~out], p[~out], c[~out]] = True
    dead = out & (c == WARRIOR)
    st.alive[g[dead], p[dead]] = False  # the player is eliminated
    st.pending[g] = 0
    flow.op[g] = OP_END_TURN


# ---- end of turn (§5.2 step 7) and the end of the game (§5.7) ------------------------------


def _end_turn(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig, flow: Pending) -> None:
    t = cfg.tables
    if not g.size:
        return
    regen = (st.oni_at[g, BLACK_ONI] == AT_FIELD) & (st.oni_dmg[g, BLACK_ONI] > 0)
    st.oni_dmg[g[regen], BLACK_ONI] -= 1  # 黒鬼 recovers 1 at every hand-over
    st.turns[g] += 1
    field = (st.oni_at[g] == AT_FIELD).any(axis=1)
    rnd = st.round[g]
    over = ~st.alive[g].any(axis=1) | ((rnd == 3) & ~field)
    finish(st, g[over], cfg)
    cut = ~over & (st.turns[g] >= cfg.max_turns)
    st.truncated[g[cut]] = True
    st.phase[g[cut]] = PHASE_OVER
    go = ~(over | cut)
    flow.op[g[~go]] = OP_WAIT
    g, field, rnd = g[go], field[go], rnd[go]
    if not g.size:
        return
    # Next living seat clockwise; dead seats are skipped but use up their turn slot (§11 #15).
    cur = st.start_player[g].astype(np.int64) + st.slot[g]
    seats = (cur[:, None] + t.next_offsets) % t.num_players
    step = st.alive[g[:, None], seats].argmax(axis=1)
    new_slot = st.slot[g] + step + 1
    round_over = (rnd < 3) & (~field | (new_slot >= t.slot_limit))
    flow.op[g] = np.where(round_over, OP_NEW_ROUND, OP_BEGIN_TURN)
    keep = ~round_over
    gk = g[keep]
    st.slot[gk] = new_slot[keep]
    st.to_play[gk] = seats[keep, step[keep]]


def finish(st: MomotaroState, g: np.ndarray, cfg: MomotaroConfig) -> None:
    """The game ends: rank-based rewards (§5.7, §9)."""
    if not g.size:
        return
    st.terminated[g] = True
    st.phase[g] = PHASE_OVER
    keys = rank_keys(st.alive[g], st.treasure[g], st.hand[g], st.kibi[g])
    _, rewards = rank_rewards(keys, cfg.reward_scheme)
    st.rewards[g] = rewards


AUTOMATIC = MicroOps(
    {OP_AWARD: _award, OP_NEXT_CARD: _next_card, OP_AFTER_ONI: _after_oni, OP_DAMAGE: _damage_card,
     OP_END_TURN: _end_turn, OP_NEW_ROUND: _new_round, OP_BEGIN_TURN: _begin_turn, OP_ENTER_ONI: _enter_oni},
    wait=OP_WAIT, game="momotaro",
    names={OP_AWARD: "award", OP_NEXT_CARD: "next_card", OP_AFTER_ONI: "after_oni", OP_DAMAGE: "damage",
           OP_END_TURN: "end_turn", OP_NEW_ROUND: "new_round", OP_BEGIN_TURN: "begin_turn",
           OP_ENTER_ONI: "enter_oni"})
