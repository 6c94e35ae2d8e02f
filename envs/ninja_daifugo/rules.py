"""The rules of ninja daifugō as batched numpy functions (rules file §5).

The rule functions of every game share one shape: ``init(st, g, cfg)`` deals games ``g`` of a state
from :func:`~.state.empty_state` (rng keys set), ``legal_mask(st, cfg)`` is bool[B, A], and
``apply(st, g, actions, cfg)`` applies one validated action per game of ``g``; ``cfg`` is the
:class:`~.config.DaifugoConfig`. Every function takes the state and ``g``, an int array of the
distinct game indices it acts on, plus the per-game values it needs; it never loops over games. The legal mask is table driven (see
:mod:`.tables`): the held plays, looked up by rank and suit patterns, ANDed with one rule row.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.core.advance import MicroOps
from yuugi.envs.core.grouping import rows_by_code

from . import actions as A
from . import ninjutsu as N
from . import points as P
from . import tables as T
from .cards import BIT, DIAMOND3, JOKER, unpack_bits
from .config import (USES_BY_LEVEL, D_ELEVEN_BACK, D_FIVE_SKIP, D_NO_EIGHT_CUT, D_NO_LOCK, D_NO_SEQUENCE, D_START_REVOLUTION,
                     D_WEAK_JOKER, DaifugoConfig)
from .field import clear_field
from .held import (BLOCK_GROUPS, BLOCK_LEAD, BLOCK_SEQUENCES, BLOCK_SINGLES, BLOCKS, field_block, held_block,
                   held_plays)
from .seats import OTHER_SEATS, count_seats, next_seat, seat_with_title
from .state import (DAIFUGO, DAIHINMIN, FUGO, HINMIN, NUM_SEATS, PHASE_EXCHANGE, PHASE_NAMES, PHASE_PLAY,
                    PHASE_SHURIKEN, DaifugoState)

_U0 = np.uint64(0)


# ---- strength orders for tribute (strongest first; ties ♠ > ♥ > ♦ > ♣) ----------------------------
def _order(ranks: range, joker_first: bool) -> np.ndarray:
    naturals = [4 * r + s for r in ranks for s in range(4)]
    return np.array([JOKER] + naturals if joker_first else naturals + [JOKER], dtype=np.uint64)


TRIBUTE_ORDER = np.stack([
    _order(range(12, -1, -1), True),  # normal
    _order(range(0, 13), True),  # revolution from the start (D5): 3 strongest, the joker still top
    _order(range(12, -1, -1), False),  # D1: the joker is the weakest card
])


# The rule-table variant of each declaration: D1 and D4 change the card rules' table, the rest do not.
_VARIANT_OF_DECLARATION = np.full(10, T.VARIANT_BASE, dtype=np.int64)
_VARIANT_OF_DECLARATION[D_WEAK_JOKER] = T.VARIANT_WEAK_JOKER
_VARIANT_OF_DECLARATION[D_NO_SEQUENCE] = T.VARIANT_NO_SEQ


def rule_variant(declaration: np.ndarray) -> np.ndarray:
    return _VARIANT_OF_DECLARATION[declaration]


# ---- the legal mask ----------------------------------------------------------------------------
# What the legal mask computes for a row: nothing (over), one of the four plain play blocks (by
# :data:`BLOCKS`), the plays of a turn boosted by 変化, or the card to pick (exchange, 手裏剣).
(CASE_NONE, CASE_LEAD, CASE_SINGLES, CASE_GROUPS, CASE_SEQUENCES, CASE_BOOSTED, CASE_EXCHANGE,
 CASE_SHURIKEN) = range(8)
_CASE_OF_BLOCK = np.array([CASE_LEAD, CASE_SINGLES, CASE_GROUPS, CASE_SEQUENCES], dtype=np.int8)
assert [BLOCK_LEAD, BLOCK_SINGLES, BLOCK_GROUPS, BLOCK_SEQUENCES] == [0, 1, 2, 3]
# The case of a row that is not playing, by phase (index PHASE_*).
_CASE_OF_PHASE = np.full(max(PHASE_PLAY, PHASE_EXCHANGE, PHASE_SHURIKEN) + 1, CASE_NONE, dtype=np.int8)
_CASE_OF_PHASE[PHASE_EXCHANGE] = CASE_EXCHANGE
_CASE_OF_PHASE[PHASE_SHURIKEN] = CASE_SHURIKEN
# The case of a row by [phase, 変化 shift 0..2, field class]: in play, a boosted turn or the block
# answering the field; otherwise the phase's case.
_CASE = np.empty((len(_CASE_OF_PHASE), 3, T.NUM_FIELD_CLASSES), dtype=np.int8)
_CASE[...] = _CASE_OF_PHASE[:, None, None]
_CASE[PHASE_PLAY, 0] = _CASE_OF_BLOCK[field_block(np.arange(T.NUM_FIELD_CLASSES))]
_CASE[PHASE_PLAY, 1:] = CASE_BOOSTED


def legal_mask(st: DaifugoState, cfg: DaifugoConfig) -> np.ndarray:
    """bool[B, 2389]. Card plays = held plays AND one row of the rule table.

    Only the block of columns a field can be answered with is computed (see :data:`BLOCKS`). A turn
    boosted by 変化 uses the boosted rule rows; the ninja layer adds the jutsu activations.
    """
    b = st.batch_size
    mask = np.zeros((b, A.NUM_ACTIONS), dtype=bool)
    hand = st.hands[np.arange(b), st.to_play]
    case = _CASE[st.phase, st.henge_shift, st.field_class]
    case[st.terminated | st.truncated] = CASE_NONE
    _, lead, singles, groups, sequences, boosted, exchanging, throwing = rows_by_code(case, 8)
    in_play = any(g is not None for g in (lead, singles, groups, sequences, boosted))
    if in_play:
        variant = rule_variant(st.declaration)
        direction = (st.revolution ^ st.eleven_back).astype(np.int64)
    if (g := lead) is not None:
        # A lead may play anything it holds (never PASS); only D1 and D4 forbid some shapes.
        held = held_plays(hand[g])
        held[:, A.PASS] = False
        restricted = variant[g] != T.VARIANT_BASE
        if restricted.any():
            held[restricted] &= T.LEAD_OK[variant[g][restricted]]
        mask[g, :A.NUM_PLAY_ACTIONS] = held
    for blk, g in ((BLOCK_SINGLES, singles), (BLOCK_GROUPS, groups), (BLOCK_SEQUENCES, sequences)):
        if g is not None:
            lo, hi = BLOCKS[blk]
            row = T.rule_row(variant[g], st.field_class[g], direction[g], st.lock[g])
            mask[g, A.PASS] = True  # a responder may always pass
            mask[g, lo:hi] = T.RULE[row, lo:hi] & held_block(hand[g], blk)
    if (g := boosted) is not None:
        mask[g, :A.NUM_PLAY_ACTIONS] = N.boosted_plays(st, g, hand[g], st.henge_shift[g], st.lock_ignored[g],
                                                       variant[g], direction[g])
    if cfg.ninja_on and in_play:
        g = ((case >= CASE_LEAD) & (case <= CASE_BOOSTED) & ~st.jutsu_used).nonzero()[0]
        if g.size:
            mask[g, A.ASHIDOME0:A.PICK0] = N.jutsu_mask(st, g, hand[g], variant[g], direction[g])
    if (g := exchanging) is not None:
        mask[g, A.PICK0:] = unpack_bits(hand[g] & ~st.picked[g])
    if (g := throwing) is not None:
        mask[g, A.PICK0:] = N.shuriken_picks(hand[g])
    return mask


# ---- dealing and the start of a game -----------------------------------------------------------
def init(st: DaifugoState, g: np.ndarray, cfg: DaifugoConfig) -> None:
    """The first game of a series for games ``g``: each seat's ninja loadout, then the deal."""
    for seat, lo in enumerate(cfg.seat_loadouts):
        st.levels[g, seat] = lo.levels
        st.school[g, seat] = lo.school
        st.gokui[g, seat] = lo.gokui
    start_game(st, g, cfg)


def start_game(st: DaifugoState, g: np.ndarray, cfg: DaifugoConfig) -> None:
    """Declaration, deal, tribute and the exchange phase (or the first lead) for games ``g``."""
    n = len(g)
    if n == 0:
        return
    # The declaration, a start seat and the shuffle, in this order, from one draw (the same numbers as
    # three draws in a row: number j of a draw is hashed from the counter + j).
    ctr = st.rng_counter[g]
    raw = rng.draw_uint64(st.rng_key[g], ctr, 2 + 53)
    st.rng_counter[g] = ctr
    pool = np.asarray(cfg.declarations, dtype=np.int8)
    decl = pool[rng.below_from(raw[:, 0], len(pool))]
    first_game = st.game_index[g] == 0
    random_start = rng.below_from(raw[:, 1], NUM_SEATS)
    start = np.where(first_game, random_start, seat_with_title(st.titles[g], DAIFUGO))
    perm = rng.permutations_from(raw[:, 2:])

    # Deal one card at a time clockwise from the start seat (which gets the 14th card): the k-th card
    # goes to seat start + k (mod 4), so the cards k = j, j + 4, ... (one column of the dealt order
    # viewed as 14 rounds of 4, padded with 3 empty cards) make the hand of seat start + j.
    dealt = np.zeros((n, 14 * NUM_SEATS), dtype=np.uint64)
    dealt[:, :53] = BIT[perm]
    by_turn = np.bitwise_or.reduce(dealt.reshape(n, 14, NUM_SEATS), axis=1)
    hands = np.take_along_axis(by_turn, (np.arange(NUM_SEATS) - start[:, None]) % NUM_SEATS, axis=1)

    st.declaration[g] = decl
    st.hands[g] = hands
    for name in ("played", "given", "received"):
        getattr(st, name)[g] = 0
    st.known[g] = 0
    clear_field(st, g)  # before emptying the discard, which the old field play joins
    st.discard[g] = 0
    st.removed[g] = 0
    st.revolution[g] = decl == D_START_REVOLUTION
    st.active[g] = True
    st.finish_pos[g] = 0
    st.next_pos[g] = 1
    st.last_pos[g] = NUM_SEATS
    st.skip_pending[g] = 0
    st.game_steps[g] = 0
    # Ninja points and uses reset every game (+1 point with 極意).
    st.points[g] = st.gokui[g] if cfg.ninja_on else 0
    st.uses_left[g] = np.asarray(USES_BY_LEVEL, dtype=np.int8)[st.levels[g]]
    end_turn(st, g)
    st.shuriken_target[g] = -1
    st.picked[g] = 0
    st.picks_left[g] = 0
    st.miyako[g] = np.where(first_game | (not cfg.miyako_ochi), -1, seat_with_title(st.titles[g], DAIFUGO))

    later = g[~first_game]
    if len(later):
        _tribute(st, later, DAIHINMIN, DAIFUGO, 2)
        _tribute(st, later, HINMIN, FUGO, 1)
        st.phase[later] = PHASE_EXCHANGE
        st.to_play[later] = seat_with_title(st.titles[later], DAIFUGO)
        st.picks_left[later] = 2
    firsts = g[first_game]
    if len(firsts):
        st.phase[firsts] = PHASE_PLAY
        holds_d3 = (st.hands[firsts] >> np.uint64(DIAMOND3)) & np.uint64(1)
        st.to_play[firsts] = holds_d3.argmax(axis=1)


def _tribute(st: DaifugoState, g: np.ndarray, giver_title: int, taker_title: int, k: int) -> None:
    """The giver's ``k`` strongest cards (order at the start of this game) go to the taker."""
    giver = seat_with_title(st.titles[g], giver_title)
    taker = seat_with_title(st.titles[g], taker_title)
    order = TRIBUTE_ORDER[np.where(st.declaration[g] == D_WEAK_JOKER, 2,
                                   np.where(st.declaration[g] == D_START_REVOLUTION, 1, 0))]
    hand = st.hands[g, giver]
    held = ((hand[:, None] >> order) & np.uint64(1)).astype(bool)
    chosen = held & (np.cumsum(held, axis=1) <= k)
    cards = np.bitwise_or.reduce(np.where(chosen, np.uint64(1) << order, _U0), axis=1)
    transfer(st, g, giver, taker, cards)


def transfer(st: DaifugoState, g: np.ndarray, giver: np.ndarray, taker: np.ndarray, cards: np.ndarray) -> None:
    """Move cards between hands; the giver knows where they went, the taker sees them anyway."""
    st.known[g, :, giver] &= ~cards[:, None]
    st.hands[g, giver] &= ~cards
    st.hands[g, taker] |= cards
    st.given[g, giver] |= cards
    st.received[g, taker] |= cards
    st.known[g, giver, taker] |= cards


# ---- the field and the trick -------------------------------------------------------------------
def eligible(st: DaifugoState, g: np.ndarray, cfg: DaifugoConfig) -> np.ndarray:
    """bool[n, 4]: seats that may still act in the current trick."""
    return st.active[g] & ~st.passed[g] if cfg.pass_lockout else st.active[g]


def flush_and_lead(st: DaifugoState, g: np.ndarray, after_owner: np.ndarray) -> None:
    """Clear the field; the owner leads if still active, else the next active seat after him."""
    if not len(g):
        return
    clear_field(st, g)
    owner_active = st.active[g, after_owner]
    st.to_play[g] = np.where(owner_active, after_owner, next_seat(st.active[g], after_owner))


def respond(st: DaifugoState, g: np.ndarray, seat: np.ndarray, cfg: DaifugoConfig) -> None:
    """A pass or a skip by ``seat`` on a non-empty field, then the trick-end check (§5.8)."""
    if not len(g):
        return
    st.responses[g] += 1
    st.passed[g, seat] = True
    owner = st.field_owner[g].astype(np.int64)
    ended = st.responses[g] >= count_seats(st.active[g] & OTHER_SEATS[owner])
    flush_and_lead(st, g[ended], owner[ended])
    go_on = ~ended
    st.to_play[g[go_on]] = next_seat(eligible(st, g[go_on], cfg), seat[go_on])


# The turn start as a micro-operation of yuugi.envs.core.advance: a row whose player to act has a pending
# skip consumes it and the turn passes on (which may end the trick), until someone may act.
OP_WAIT, OP_TURN_START = 0, 1


def _turn_start(st: DaifugoState, g: np.ndarray, cfg: DaifugoConfig, op: np.ndarray) -> None:
    """One pending skip (§5.6) of whoever is to play in games ``g``; those without one wait."""
    seat = st.to_play[g].astype(np.int64)
    skipped = st.skip_pending[g, seat] > 0
    op[g[~skipped]] = OP_WAIT
    g, seat = g[skipped], seat[skipped]
    if not len(g):
        return
    st.skip_pending[g, seat] -= 1
    leading = st.field_class[g] == T.FC_EMPTY
    st.to_play[g[leading]] = next_seat(st.active[g[leading]], seat[leading])
    respond(st, g[~leading], seat[~leading], cfg)


TURN_START = MicroOps({OP_TURN_START: _turn_start}, wait=OP_WAIT, names={OP_TURN_START: "turn_start"},
                      game="ninja_daifugo")


def resolve_turn_start(st: DaifugoState, g: np.ndarray, cfg: DaifugoConfig) -> None:
    """Consume pending skips of whoever is to play (§5.6), until someone may act."""
    g = g[~(st.terminated[g] | st.truncated[g])]
    g = g[st.skip_pending[g, st.to_play[g]] > 0]  # most turns start with no skip: nothing to run
    if not len(g):
        return
    op = np.zeros(st.batch_size, dtype=np.int8)  # OP_WAIT: scratch, every row waits when this returns
    op[g] = OP_TURN_START
    TURN_START.run(op, st, g, cfg, op)


# ---- applying actions --------------------------------------------------------------------------
def end_turn(st: DaifugoState, g: np.ndarray) -> None:
    """Per-turn ninja flags reset when a play or pass ends the turn."""
    st.jutsu_used[g] = False
    st.henge_shift[g] = 0
    st.lock_ignored[g] = False


# What applying an action does, by [phase, kind of action] (a validated action fits its phase): an
# exchange gift, a 手裏剣 throw, a jutsu activation, a pass, a card play.
STEP_PICK, STEP_THROW, STEP_JUTSU, STEP_PASS, STEP_PLAY = range(5)
_STEP_OF = np.full((len(PHASE_NAMES), len(A.KIND_NAMES)), STEP_PLAY, dtype=np.int8)
_STEP_OF[PHASE_EXCHANGE] = STEP_PICK
_STEP_OF[PHASE_SHURIKEN] = STEP_THROW
_STEP_OF[PHASE_PLAY, A.K_JUTSU] = STEP_JUTSU
_STEP_OF[PHASE_PLAY, A.K_PASS] = STEP_PASS
assert (A.KIND == A.K_PASS).nonzero()[0].tolist() == [A.PASS]  # PASS is the only action of its kind


def apply(st: DaifugoState, g: np.ndarray, actions: np.ndarray, cfg: DaifugoConfig) -> None:
    """Apply the already validated ``actions`` (one per game of ``g``) to games ``g``."""
    stepped, a = g, actions
    st.game_steps[g] += 1
    step = _STEP_OF[st.phase[g], A.KIND[a]]
    # Positions in g of each kind of step (None: none); only the kinds present run (at a batch of one,
    # a single one).
    picks, throws, jutsu, passes, plays = rows_by_code(step, STEP_PLAY + 1)
    if picks is not None:
        apply_pick(st, g[picks], a[picks], cfg)
    if throws is not None:
        N.throw(st, g[throws], a[throws])
    if jutsu is not None:
        N.activate(st, g[jutsu], a[jutsu], cfg)
    if passes is not None:
        gp = g[passes]
        end_turn(st, gp)
        respond(st, gp, st.to_play[gp].astype(np.int64), cfg)
    if plays is not None:
        apply_play(st, g[plays], a[plays], cfg)
    if passes is not None or plays is not None:
        # The next turn of every game that passed or played (a new deal has no skips pending).
        resolve_turn_start(st, g[step >= STEP_PASS], cfg)
    over = stepped[(st.game_steps[stepped] >= cfg.max_game_steps) & ~st.terminated[stepped]]
    st.truncated[over] = True


def apply_pick(st: DaifugoState, g: np.ndarray, a: np.ndarray, cfg: DaifugoConfig) -> None:
    """An exchange gift card (§5.2-6): 大富豪 picks 2 for 大貧民, then 富豪 picks 1 for 貧民."""
    if not len(g):
        return
    st.picked[g] |= A.CARDS[a]
    st.picks_left[g] -= 1
    done = st.picks_left[g] == 0
    g = g[done]
    giver = st.to_play[g].astype(np.int64)
    by_daifugo = st.titles[g, giver] == DAIFUGO
    taker = np.where(by_daifugo, seat_with_title(st.titles[g], DAIHINMIN), seat_with_title(st.titles[g], HINMIN))
    transfer(st, g, giver, taker, st.picked[g])
    st.picked[g] = 0
    to_fugo = g[by_daifugo]
    st.to_play[to_fugo] = seat_with_title(st.titles[to_fugo], FUGO)
    st.picks_left[to_fugo] = 1
    to_play = g[~by_daifugo]
    st.phase[to_play] = PHASE_PLAY
    st.to_play[to_play] = seat_with_title(st.titles[to_play], DAIHINMIN)  # previous 大貧民 leads


def apply_play(st: DaifugoState, g: np.ndarray, a: np.ndarray, cfg: DaifugoConfig) -> None:
    """Resolve accepted plays in the order of §5.7 (the caller then resolves the next turn's start)."""
    if not len(g):
        return
    p = st.to_play[g].astype(np.int64)
    decl = st.declaration[g]
    cards = A.CARDS[a]
    # 1. Cards to the field.
    st.hands[g, p] &= ~cards
    st.played[g, p] |= cards
    st.known[g, :, p] &= ~cards[:, None]
    prev = st.field_action[g]
    had_prev = prev >= 0
    prev_natural = had_prev & ~A.HAS_JOKER[prev]
    prev_ns = A.NS[prev]
    strong_joker_on_field = st.field_class[g] == T.FC_JOKER
    st.discard[g] |= st.field_cards[g]
    st.field_cards[g] = cards
    st.field_action[g] = a
    st.field_owner[g] = p
    # 変化 boosts this play's ranks for comparison only (8-cut, 5, J, revolution use natural ranks).
    st.field_elo[g] = A.LO[a]
    st.field_ehi[g] = A.HI[a]
    st.field_class[g] = T.FIELD_CLASS[(decl == D_WEAK_JOKER).astype(np.intp), a]
    k = st.henge_shift[g].nonzero()[0]  # the few boosted plays are recomputed apart
    if k.size:  # (tables by [shift - 1, direction, action], see tables.BOOSTED_ELO)
        gb, ab = g[k], a[k]
        boost = st.henge_shift[gb] - 1
        direction = (st.revolution[gb] ^ st.eleven_back[gb]).astype(np.intp)
        st.field_elo[gb] = T.BOOSTED_ELO[boost, direction, ab]
        st.field_ehi[gb] = T.BOOSTED_EHI[boost, direction, ab]
        st.field_class[gb] = T.BOOSTED_CLASS[boost, direction, (decl[k] == D_WEAK_JOKER).astype(np.intp), ab]
    end_turn(st, g)
    # 2. Lock trigger: same natural suits as the previous play of this trick, no joker in either.
    trigger = (decl != D_NO_LOCK) & (st.lock[g] == 0) & prev_natural & ~A.HAS_JOKER[a] & (A.NS[a] == prev_ns)
    st.lock[g] = np.where(trigger, A.NS[a], st.lock[g])
    # 3. Revolution.
    st.revolution[g] ^= A.REVOLUTION[a]
    eight_cut = A.HAS8[a] & (decl != D_NO_EIGHT_CUT)
    spade3 = strong_joker_on_field & (a == A.SPADE3_SINGLE)
    # 4. Points.
    if cfg.ninja_on:
        P.gain(st, g, p, P.play_gain(a, st.school[g, p], trigger, eight_cut, spade3))
    # 5. Going out, and 都落ち on the first finisher.
    out = st.hands[g, p] == 0
    if out.any():
        _go_out(st, g[out], p[out])
    # 6. Flush effects: 8-cut and the ♠3 return.
    flush = eight_cut | spade3
    # 7. Declaration triggers.
    st.eleven_back[g] ^= (decl == D_ELEVEN_BACK) & A.HAS_JACK[a] & ~flush
    five = (decl == D_FIVE_SKIP) & A.HAS5[a]
    if five.any():
        target = next_seat(st.active[g[five]], p[five])
        st.skip_pending[g[five][target >= 0], target[target >= 0]] += 1
    # 8. Game end.
    ended = count_seats(st.active[g]) <= 1
    if ended.any():
        finish_game(st, g[ended], cfg)
        g, p, flush = g[~ended], p[~ended], flush[~ended]
    # 9. Advance: after a flush the player leads again; otherwise the next seat responds.
    flush_and_lead(st, g[flush], p[flush])
    g, p = g[~flush], p[~flush]
    if cfg.pass_lockout:
        # Seats that passed earlier in this trick stay out; if nobody is left to answer, it ends.
        others = st.active[g] & OTHER_SEATS[p]
        st.responses[g] = count_seats(st.passed[g] & others)
        over = st.responses[g] >= count_seats(others)
        flush_and_lead(st, g[over], p[over])
        g, p = g[~over], p[~over]
    else:
        st.responses[g] = 0
        st.passed[g] = False
    st.to_play[g] = next_seat(eligible(st, g, cfg), p)


def _go_out(st: DaifugoState, go: np.ndarray, po: np.ndarray) -> None:
    """Seats ``po`` emptied their hands: they take the next position; 都落ち on the first finisher."""
    first = st.next_pos[go] == 1
    st.finish_pos[go, po] = st.next_pos[go]
    st.next_pos[go] += 1
    st.active[go, po] = False
    cand = st.miyako[go].astype(np.int64)
    falls = first & (cand >= 0) & (cand != po) & st.active[go, np.maximum(cand, 0)]
    gf, cf = go[falls], cand[falls]
    st.finish_pos[gf, cf] = st.last_pos[gf]
    st.last_pos[gf] -= 1
    st.active[gf, cf] = False
    st.removed[gf] |= st.hands[gf, cf]
    st.hands[gf, cf] = 0
    st.known[gf, :, cf] = 0  # the removed hand is face down: nobody knows a card to be "in" it any more


def finish_game(st: DaifugoState, g: np.ndarray, cfg: DaifugoConfig) -> None:
    """The last active seat takes the remaining position; rewards; next game or the series ends."""
    if not len(g):
        return
    last = st.active[g].argmax(axis=1)
    has_last = st.active[g].any(axis=1)
    gl, sl = g[has_last], last[has_last]
    st.finish_pos[gl, sl] = st.next_pos[gl]
    st.active[gl, sl] = False
    table = np.asarray(cfg.rewards_by_position, dtype=np.float32)
    reward = table[st.finish_pos[g] - 1]
    st.rewards[g] += reward
    st.series_score[g] += reward
    st.titles[g] = st.finish_pos[g]  # position 1..4 = 大富豪 .. 大貧民
    st.game_index[g] += 1
    over = st.game_index[g] >= cfg.series_games
    st.terminated[g[over]] = True
    st.game_index[g[over]] -= 1  # stays on the last game played
    start_game(st, g[~over], cfg)
