"""The rules of ninja_slayer as batched numpy functions: ``init``, ``legal_mask``, ``apply``.

Everything automatic runs as per-game micro-operations (``st.op``, see :mod:`.state`):
:func:`advance` groups the games by their pending operation and dispatches each group with fancy
indexing, until every game is at a decision or over ("advance until the next decision"). The chain
after an event is resolve → (damage points, one per pass) → rule check → pending items onto the
stack (which may ask a target) → the priority window or the next step. No function loops over
games; loops run over a bounded number of micro-steps, slots or opcodes.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.core.advance import MicroOps
from yuugi.envs.core.grouping import rows_by_code, single_code

from . import actions as A
from . import cards as C
from . import effects, flow, legality, stack, targets, zones
from .config import STACK_MAX, NinjaSlayerConfig
from .decks import build_decks, shuffle_decks
from .seat_rows import seat_rows, seat_slots
from .state import (DECISION_DECLARE, DECISION_ETEL, DECISION_INTERRUPT, DECISION_PRIORITY, DECISION_TARGET,
                    NUM_DECISIONS,
                    END_DECKOUT, END_TRUNCATED, ITEM_ACTIVATED, ITEM_ENTRY, ITEM_KOTODAMA, ITEM_UKEMI, OP_BEGIN_STEP,
                    OP_ASK, OP_DAMAGE, OP_END_STEP, OP_FLUSH, OP_NAMES, OP_RESOLVE, OP_RULES, OP_WAIT, OP_WINDOW,
                    PHASE_IKUSA_END, PHASE_UNTAP, NinjaSlayerState)

OPENING_HAND = 4
_MAX_MICRO_STEPS = 100_000  # handler calls per run: a guard against an engine bug, far above any real run


# ---- setup -------------------------------------------------------------------------------------
def init(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig, decks=None) -> None:
    """New games ``g`` of an empty state whose ``rng_key`` is set: decks built (``decks``, else the
    configured pair) and shuffled (seat 0 then 1), the first player drawn, 4 cards each; then the
    game advances to its first decision."""
    b = len(g)
    deck, size = build_decks(st, g, decks if decks is not None else cfg.decks, cfg.sr_rate)
    for seat in range(2):
        shuffle_decks(st, g, deck, size, seat)
    st.deck[g] = deck
    st.deck_size[g] = size
    # The opening hands: each seat's top 4 cards into hand slots 0..3, as four draws into an empty
    # hand would put them (every deck holds 40 or 50 cards: no draw could find it empty).
    st.hand[g, :, :OPENING_HAND] = deck[:, :, :OPENING_HAND]
    st.deck_ptr[g] = OPENING_HAND
    for seat in range(2):  # copies per card id left in the deck: one bincount over (game, card) pairs
        d = deck[:, seat, OPENING_HAND:].astype(np.int64)
        pairs = (np.arange(b)[:, None] * C.NUM_CARDS + d)[d >= 0]
        counts = np.bincount(pairs, minlength=b * C.NUM_CARDS).reshape(b, C.NUM_CARDS)
        st.deck_count[g, seat] += counts.astype(st.deck_count.dtype)
    first = rng.below_at(st, g, 2)
    st.first[g] = first
    st.tp[g] = first
    st.turn[g] = 1
    st.phase[g] = PHASE_UNTAP
    st.op[g] = OP_BEGIN_STEP
    advance(st, g, cfg)


# ---- micro-operations --------------------------------------------------------------------------
def rule_check(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """Destroy every character with damage ≥ 1 and ≥ its カラテ (ON_KILL for the watched イクサ target)."""
    st.op[g] = OP_FLUSH
    dmg = st.fld_dmg[g]
    dying = dmg >= 1
    if np.count_nonzero(dying):  # (no damaged character, the common case: nothing dies, no カラテ to compute)
        dying &= (st.fld_card[g] >= 0) & (dmg >= zones.karate(st, g))
    watched = st.kill_obj[g] >= 0
    if np.count_nonzero(watched):
        killed = (dying & (st.fld_obj[g] == st.kill_obj[g][:, None, None])).any(axis=(1, 2)) & watched
        gs = g[killed]
        tp = st.tp[gs].astype(np.int64)
        s = st.kill_src_slot[gs].astype(np.int64)
        card = st.fld_card[gs, tp, np.maximum(s, 0)].astype(np.int64)
        there = (s >= 0) & (st.fld_obj[gs, tp, np.maximum(s, 0)] == st.kill_src_obj[gs])
        gs, tp, s, card = gs[there], tp[there], s[there], card[there]
        stack.pend_triggers(st, gs, tp, s, card, st.kill_src_obj[gs], C.TR_ON_KILL)
        st.kill_obj[g] = -1
    effects.destroy_marked(st, g, dying)


def damage_point(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """One point of damage to a player: turn over the top card (§2.5)."""
    p = st.dmg_player[g].astype(np.int64)
    has = zones.deck_len(st, g, p) > 0
    if cfg.deckout_rule == "draw_from_empty":
        zones.lose(st, g[~has], p[~has], END_DECKOUT)
    st.dmg_left[g[~has]] = 0
    st.op[g[~has]] = OP_RULES
    g, p = g[has], p[has]
    card = zones.take_top(st, g, p)
    uk = C.HAS_UKEMI[card]
    gu, pu, cu = g[uk], p[uk], card[uk]
    zones.to_grave(st, gu, pu, cu)
    src = st.dmg_src_obj[gu] >= 0
    source_tk = C.UK_TARGET[cu] == C.TK_SOURCE
    aim = source_tk & src
    stack.pend(st, gu, kind=ITEM_UKEMI, card=cu, ctrl=pu, op=C.UK_OP[cu], arg=C.UK_ARG[cu], tk=C.UK_TARGET[cu],
               tgt_player=np.where(aim, st.dmg_src_player[gu], -1), tgt_slot=np.where(aim, st.dmg_src_slot[gu], -1),
               tgt_obj=np.where(aim, st.dmg_src_obj[gu], -1))
    zones.take_damage_card(st, g[~uk], p[~uk], card[~uk])
    zones.check_deckout(st, g, p, cfg)
    st.dmg_left[g] -= 1
    if cfg.ukemi_nullifies == "event":
        st.dmg_left[gu] = 0
    done = g[st.dmg_left[g] <= 0]
    st.dmg_left[done] = 0
    st.op[done] = OP_RULES


def flush(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """Put the next pending item on the stack (asking its controller for a target if it chooses one)."""
    if not np.count_nonzero(st.pend_len[g]):  # nothing pending (the common case): the window
        st.pend_len[g] = 0
        st.ukemi_seq[g] = 0
        st.op[g] = OP_WINDOW
        return
    idx = np.arange(st.pend_key.shape[1])
    valid = (idx[None, :] < st.pend_len[g][:, None]) & ~st.pend_used[g]
    none_left = ~valid.any(axis=1)
    done = g[none_left]
    st.pend_len[done] = 0
    st.ukemi_seq[done] = 0
    st.op[done] = OP_WINDOW
    live = ~none_left
    g = g[live]
    if len(g) == 0:
        return
    key = np.where(valid[live], st.pend_key[g], np.iinfo(np.int16).max)
    i = np.argmin(key, axis=1)
    ctrl = st.pend_ctrl[g, i].astype(np.int64)
    tk = st.pend_tk[g, i].astype(np.int64)
    choose = C.CHOOSABLE_TK[tk]
    full = st.stk_len[g] >= STACK_MAX
    if choose.any():
        gc, cc = g[choose], ctrl[choose]
        can = targets.table(st, gc, cc, False)[np.arange(len(gc)), tk[choose]].any(axis=1)
        ask_rows = can & ~full[choose]
        st.pend_ask[gc[ask_rows]] = i[choose][ask_rows]
        flow.ask(st, gc[ask_rows], DECISION_TARGET, cc[ask_rows])
        st.pend_used[gc[~ask_rows], i[choose][~ask_rows]] = True  # no legal target (or no room): skipped
    auto = ~choose
    ga, ia = g[auto], i[auto]
    push_pending(st, ga, ia, st.pend_tgt_player[ga, ia], st.pend_tgt_slot[ga, ia], st.pend_tgt_obj[ga, ia])


def push_pending(st: NinjaSlayerState, g: np.ndarray, i: np.ndarray, tgt_player, tgt_slot, tgt_obj) -> None:
    stack.push(st, g, kind=st.pend_kind[g, i], card=st.pend_card[g, i], ctrl=st.pend_ctrl[g, i],
               op=st.pend_op[g, i], arg=st.pend_arg[g, i], tk=st.pend_tk[g, i], src_slot=st.pend_src_slot[g, i],
               src_obj=st.pend_src_obj[g, i], tgt_player=tgt_player, tgt_slot=tgt_slot, tgt_obj=tgt_obj)
    st.pend_used[g, i] = True


def finish_losses(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig | None = None) -> None:
    """End the games in ``g`` where a loss condition was met (both seats at once: a draw)."""
    # (the common case, checked after every micro-operation, so it must be cheap: where g holds every
    # row of the batch, as it always does at batch size 1, the whole array is counted without a gather)
    if not np.count_nonzero(st.loser if len(g) == len(st.loser) else st.loser[g]):
        return
    lost = st.loser[g]
    any_lost = lost.any(axis=1)
    over = any_lost & ~st.terminated[g] & ~st.truncated[g]
    if not over.any():
        return
    gs, lost = g[over], lost[over]
    st.terminated[gs] = True
    st.op[gs] = OP_WAIT
    one = lost[:, 0] != lost[:, 1]
    winner = np.where(one, np.where(lost[:, 0], 1, 0), -1)
    st.winner[gs] = winner
    sign = np.where(one, np.where(lost[:, 0], -1.0, 1.0), 0.0).astype(np.float32)
    st.rewards[gs, 0] = sign
    st.rewards[gs, 1] = -sign


def take_forced(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """``OP_ASK``: a decision was just asked in games ``g``. Under ``auto_pass_forced`` the engine takes
    a decision that has exactly one legal action (not an agent decision: no history, no count) and
    goes on; otherwise the game waits for its agent.

    Forced rows are found without building the legal mask: PASS (priority) and END_AISATSU
    (declaration) are always legal, so those decisions are forced exactly when no instant action (and
    no アイサツ) is; an interrupt is asked only when an interceptor exists (two choices at least). The
    decisions are grouped by kind (``_FORCED``); each group's forced rows take their one action
    directly (its family is known from the kind), the others wait. A priority decision that opens a
    window settles the other seat's answer in the same call (:func:`_forced_priority`).
    """
    st.op[g] = OP_WAIT  # (the applied actions set the next operation of the rows they take)
    if not cfg.auto_pass_forced:
        return
    me = st.to_play[g].astype(np.int64)
    decision = st.decision[g]
    only = single_code(decision)
    if only is not None:  # one kind (the common case)
        forced = _FORCED.get(only)
        if forced is not None:
            forced(st, g, me, cfg)
        return
    for d, sel in zip(_FORCED, rows_by_code(decision, NUM_DECISIONS, *((d,) for d in _FORCED))):
        if sel is not None:
            _FORCED[d](st, g[sel], me[sel], cfg)


def _no_instant(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig,
                prio: bool) -> np.ndarray:
    """bool[n]: seat ``me`` has no instant action (``prio``: it holds priority, else it declares)."""
    if len(g) > _PREFILTER_MAX:  # a large group: the full test costs about what the cheap one does
        return ~legality.any_instant(st, g, me, cfg, True, prio)
    may = legality.may_have_instant(st, g, me, prio)
    n_may = np.count_nonzero(may)
    if n_may == len(g):  # every row may: the full test on them all (no gathers)
        return ~legality.any_instant(st, g, me, cfg, True, prio)
    none = ~may
    if n_may:
        maybe = may.nonzero()[0]
        none[maybe] = ~legality.any_instant(st, g[maybe], me[maybe], cfg, True, prio)
    return none


# Groups up to this size first take the cheap superset test (most small groups then stop there).
_PREFILTER_MAX = 16


def _forced_etel(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """SKIP_ETEL when the hand is empty."""
    forced = (st.hand[g, me] < 0).all(axis=1)
    if np.count_nonzero(forced):
        _skip_etel(st, g[forced], me[forced], None, cfg)


def _forced_priority(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """PASS when no instant action is legal.

    Where the seat to play opens the window (no pass yet), the other seat's answer is found in the
    same instant test: a pass changes only who holds priority (``passes``, ``prio``, ``to_play``),
    never what either seat could play, so it is the answer the next engine call would find.
    """
    n = len(g)
    opens = st.passes[g] == 0
    n_opens = np.count_nonzero(opens)
    # (where every row opens, or none does, as always at batch size 1, the rows need no selection)
    if n_opens == n:
        none = _no_instant(st, np.concatenate([g, g]), np.concatenate([me, 1 - me]), cfg, True)
    elif n_opens == 0:
        none = _no_instant(st, g, me, cfg, True)
    else:
        none = _no_instant(st, np.concatenate([g, g[opens]]), np.concatenate([me, 1 - me[opens]]), cfg, True)
    forced = none[:n]
    n_forced = np.count_nonzero(forced)
    if not n_forced:
        return
    if n_opens == n:
        other_forced = none[n:]
    else:
        other_forced = np.zeros(n, bool)
        other_forced[opens] = none[n:]
    both = forced & other_forced  # (only where the window opens: other_forced is False elsewhere)
    n_both = np.count_nonzero(both)
    if n_both == n:  # every window closes unplayed (the usual forced window at batch size 1): no selection
        _both_pass(st, g)
        return
    if n_both:
        _both_pass(st, g[both])
    if n_both == n_forced:
        return
    one = forced & ~other_forced  # one pass: it closes a window opened before, or hands priority over
    if n_forced == n and not n_both:  # (every row: no selection)
        _pass(st, g, me, None, cfg)
    else:
        _pass(st, g[one], me[one], None, cfg)
    st.op[g[one & opens]] = OP_WAIT  # handed over: the other seat has a choice and waits for its agent


def _both_pass(st: NinjaSlayerState, g: np.ndarray) -> None:
    """Both seats pass in a row at a window that has just opened, as two calls of :func:`_pass` do:
    the window closes, and priority stays with the seat that passed second."""
    prio = 1 - st.prio[g]
    st.prio[g] = prio
    st.to_play[g] = prio
    st.passes[g] = 0
    st.op[g] = _CLOSED_OP.take(st.stk_len[g] > 0)


def _forced_declare(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """END_AISATSU when no アイサツ and no instant action is legal (the instant test, which costs more,
    only for the seats with no character ready to アイサツ)."""
    idle = ~attackers(st, g, me, cfg).any(axis=1)
    n_idle = np.count_nonzero(idle)
    if not n_idle:
        return
    if n_idle < len(g):
        g, me = g[idle], me[idle]
    forced = _no_instant(st, g, me, cfg, False)
    if np.count_nonzero(forced):
        _end_aisatsu(st, g[forced], me[forced], None, cfg)


def _forced_target(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """The target when exactly one is legal."""
    i = np.maximum(st.pend_ask[g], 0).astype(np.int64)
    tk = st.pend_tk[g, i].astype(np.int64)
    allowed = targets.table(st, g, me, cfg.mask_useless)[np.arange(len(g)), tk]
    forced = allowed.sum(axis=1) == 1
    if np.count_nonzero(forced):
        _choose_target(st, g[forced], me[forced], A.TARGET0 + np.argmax(allowed[forced], axis=1), cfg)


# the decisions that can be forced (an interrupt never is: it is asked only with a choice), each
# with the function that finds its forced rows and takes their one action
_FORCED = {DECISION_ETEL: _forced_etel, DECISION_PRIORITY: _forced_priority, DECISION_DECLARE: _forced_declare,
           DECISION_TARGET: _forced_target}


def attackers(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig) -> np.ndarray:
    """bool[n, 6]: seat ``me``'s characters that may declare an アイサツ (untapped; summoning sickness)."""
    rows = seat_rows(g, me)
    fc = seat_slots(st.fld_card, rows).astype(np.int64)
    ready = (fc >= 0) & ~seat_slots(st.fld_tap, rows)
    if cfg.summoning_sickness:
        ready &= ~seat_slots(st.fld_entered, rows) | C.HAS_HAYATE[np.maximum(fc, 0)]
    return ready


_MICRO_OPS = MicroOps(
    {OP_BEGIN_STEP: flow.begin_step, OP_WINDOW: flow.window, OP_END_STEP: flow.end_step,
     OP_RESOLVE: effects.resolve_top, OP_DAMAGE: damage_point, OP_RULES: rule_check, OP_FLUSH: flush,
     OP_ASK: take_forced},
    wait=OP_WAIT, names=dict(enumerate(OP_NAMES)), after=finish_losses, max_calls=_MAX_MICRO_STEPS,
    # (the only handlers that can meet a loss condition: a step's draw, an effect, a point of damage)
    after_codes=(OP_BEGIN_STEP, OP_RESOLVE, OP_DAMAGE), game="ninja_slayer")


def advance(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """Run the engine until every game in ``g`` waits for a real decision or is over (a game that ends
    is set to ``OP_WAIT`` by :func:`finish_losses` or the cleanup's truncation)."""
    _MICRO_OPS.run(st.op, st, g, cfg)


# ---- the legal mask ----------------------------------------------------------------------------
def legal_rows(st: NinjaSlayerState, g: np.ndarray, cfg: NinjaSlayerConfig) -> np.ndarray:
    """bool[n, 293]: legal actions of the seat to play in games ``g`` (all live), one part per decision
    kind present (``_LEGAL``)."""
    n = len(g)
    mask = np.zeros((n, A.NUM_ACTIONS), dtype=bool)
    me = st.to_play[g].astype(np.int64)
    decision = st.decision[g]
    only = single_code(decision)
    if only is not None:  # one kind of decision (always so at batch size 1): its part writes every row
        part = _LEGAL.get(only)
        if part is not None:
            part(st, g, me, cfg, mask, slice(None))
        return mask
    for part, rows in zip(_LEGAL.values(), rows_by_code(decision, NUM_DECISIONS, *_LEGAL_GROUPS)):
        if rows is not None:
            part(st, g[rows], me[rows], cfg, mask, rows)
    return mask


def _legal_etel(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig, mask: np.ndarray,
                rows) -> None:
    """Put any held card into the エテル zone, or skip."""
    mask[rows, A.ETEL0:A.SKIP_ETEL] = st.hand[g, me] >= 0
    mask[rows, A.SKIP_ETEL] = True


def _legal_instants(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig, mask: np.ndarray,
                    rows, prio: bool) -> None:
    """ENTER, CAST and ACTIVATE (``prio``: the seat holds priority, else it declares)."""
    n = len(g)
    enter, cast, act = legality.instant_actions(st, g, me, cfg, np.ones(n, bool), np.full(n, prio))
    mask[rows, A.ENTER0:A.CAST0] = enter
    mask[rows, A.CAST0:A.ACTIVATE0] = cast.reshape(n, -1)
    mask[rows, A.ACTIVATE0:A.AISATSU0] = act.reshape(n, -1)


def _legal_priority(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig, mask: np.ndarray,
                    rows) -> None:
    """PASS, or an instant action."""
    mask[rows, A.PASS] = True
    _legal_instants(st, g, me, cfg, mask, rows, True)


def _legal_declare(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig, mask: np.ndarray,
                   rows) -> None:
    """END_AISATSU, an アイサツ of a ready character at an opposing character or the player, or an instant."""
    mask[rows, A.END_AISATSU] = True
    _legal_instants(st, g, me, cfg, mask, rows, False)
    ready = attackers(st, g, me, cfg)
    aims = np.concatenate([st.fld_card[g, 1 - me] >= 0, np.ones((len(g), 1), bool)], axis=1)
    mask[rows, A.AISATSU0:A.END_AISATSU] = (ready[:, :, None] & aims[:, None, :]).reshape(len(g), -1)


def _legal_interrupt(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig, mask: np.ndarray,
                     rows) -> None:
    """Redirect the アイサツ to an interceptor, or not."""
    mask[rows, A.NO_INTERRUPT] = True
    mask[rows, A.INTERRUPT0:A.NO_INTERRUPT] = flow.interceptors(st, g, cfg)


def _legal_target(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, cfg: NinjaSlayerConfig, mask: np.ndarray,
                  rows) -> None:
    """A legal target of the pending item being asked."""
    i = np.maximum(st.pend_ask[g], 0).astype(np.int64)
    tk = st.pend_tk[g, i].astype(np.int64)
    mask[rows, A.TARGET0:] = targets.table(st, g, me, cfg.mask_useless)[np.arange(len(g)), tk]


_LEGAL = {DECISION_ETEL: _legal_etel, DECISION_PRIORITY: _legal_priority, DECISION_DECLARE: _legal_declare,
          DECISION_INTERRUPT: _legal_interrupt, DECISION_TARGET: _legal_target}
_LEGAL_GROUPS = tuple((d,) for d in _LEGAL)  # (one group per kind, for rows_by_code)


def legal_mask(st: NinjaSlayerState, cfg: NinjaSlayerConfig) -> np.ndarray:
    """bool[B, 293]; all False where the game is over."""
    done = st.done
    if not np.count_nonzero(done):  # every game live (the common case): their rows are the mask
        return legal_rows(st, np.arange(st.batch_size), cfg)
    live = (~done).nonzero()[0]
    mask = np.zeros((st.batch_size, A.NUM_ACTIONS), dtype=bool)
    if len(live):
        mask[live] = legal_rows(st, live, cfg)
    return mask


# ---- applying actions --------------------------------------------------------------------------
def apply(st: NinjaSlayerState, g: np.ndarray, actions: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """Apply the already validated ``actions`` (one per game of ``g``), then advance to the next decision."""
    a = np.asarray(actions).astype(np.int64, copy=False)
    _record(st, g, a)
    st.n_decisions[g] += 1
    apply_rows(st, g, a, cfg)
    advance(st, g, cfg)
    over = st.n_decisions[g] >= cfg.max_decisions  # (tested first: rarely true)
    if np.count_nonzero(over):
        over = g[over & ~st.terminated[g] & ~st.truncated[g]]
        st.truncated[over] = True
        st.end_reason[over] = END_TRUNCATED


def _shown_slots() -> tuple[np.ndarray, np.ndarray]:
    """Per action: the hand slot whose card it shows (ETEL_PUT, ENTER, CAST) and the field slot whose
    card it shows (ACTIVATE, AISATSU, INTERRUPT), -1 where it shows none."""
    a = np.arange(A.NUM_ACTIONS)
    fam = A.FAMILY[a]
    hand = np.select([fam == A.F_ETEL, fam == A.F_ENTER, fam == A.F_CAST],
                     [a - A.ETEL0, a - A.ENTER0, (a - A.CAST0) // 13], -1)
    field = np.select([fam == A.F_ACTIVATE, fam == A.F_AISATSU, fam == A.F_INTERRUPT],
                      [(a - A.ACTIVATE0) // 13, (a - A.AISATSU0) // 7, a - A.INTERRUPT0], -1)
    return hand, field


_SHOWN_HAND, _SHOWN_FIELD = _shown_slots()
_SHOWS_CARD = (_SHOWN_HAND >= 0) | (_SHOWN_FIELD >= 0)


def _record(st: NinjaSlayerState, g: np.ndarray, a: np.ndarray) -> None:
    """Shift the public action history and record (player, action, card shown)."""
    me = st.to_play[g].astype(np.int64)
    n = len(g)
    if np.count_nonzero(_SHOWS_CARD[a]):
        h, f = _SHOWN_HAND[a], _SHOWN_FIELD[a]  # (-1 indexes the last slot, a value not used)
        from_hand = h >= 0
        n_hand = np.count_nonzero(from_hand)
        # (where every action shows a card from the same zone, as one row always does: one look-up)
        if n_hand == n:
            card = st.hand[g, me, h]
        elif n_hand == 0 and np.count_nonzero(f >= 0) == n:
            card = st.fld_card[g, me, f]
        else:
            card = np.where(from_hand, st.hand[g, me, h], np.where(f >= 0, st.fld_card[g, me, f], -1))
    else:  # no action shows a card (PASS, END_AISATSU, ...): nothing to look up
        card = -1
    every = n == len(st.hist_action)  # (every row, always so at batch size 1: shift whole rows, no gather)
    for arr, v in ((st.hist_action, a), (st.hist_player, me), (st.hist_card, card)):
        if every:
            arr[:, 1:] = arr[:, :-1]  # (numpy copies overlapping ranges safely)
        else:
            arr[g, 1:] = arr[g, :-1]
        arr[g, 0] = v


def apply_rows(st: NinjaSlayerState, g: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    """One legal action per game in ``g``; leaves each game with its next micro-operation set."""
    me = st.to_play[g].astype(np.int64)
    family = A.FAMILY[a]
    only = single_code(family)
    if only is not None:  # one family of actions (always so at batch size 1): no grouping
        _APPLY[only](st, g, me, a, cfg)
        return
    for f, sel in enumerate(rows_by_code(family, A.NUM_FAMILIES)):
        if sel is not None:
            _APPLY[f](st, g[sel], me[sel], a[sel], cfg)


# What follows a window that closes, by whether the stack holds an item: the step ends, or the top resolves.
_CLOSED_OP = np.array([OP_END_STEP, OP_RESOLVE], dtype=np.int8)


def _pass(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    passes = st.passes[g] + 1
    both = passes >= 2  # the second pass in a row closes the window
    n_closed = np.count_nonzero(both)
    # (the rows all close, or all hand over, in most calls and in every call at batch size 1: no selection)
    if n_closed:
        closed = g if n_closed == len(g) else g[both]
        st.passes[closed] = 0
        st.op[closed] = _CLOSED_OP.take(st.stk_len[closed] > 0)  # (a look-up: cheaper than np.where)
    if n_closed < len(g):
        other, passes = (g, passes) if n_closed == 0 else (g[~both], passes[~both])
        st.passes[other] = passes
        prio = 1 - st.prio[other]
        st.prio[other] = prio
        st.to_play[other] = prio
        st.op[other] = OP_ASK  # the other player's priority: a decision the engine takes if it is forced


def _etel_put(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    h = a - A.ETEL0
    card = st.hand[g, me, h].astype(np.int64)
    _leave_hand(st, g, me, h)
    st.etel_count[g, me, card] += 1
    st.etel_total[g, me] += 1
    st.etel_untapped[g, me] += 1
    st.op[g] = OP_WINDOW


def _skip_etel(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    st.op[g] = OP_WINDOW


def _enter(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    h = a - A.ENTER0
    card = st.hand[g, me, h].astype(np.int64)
    _leave_hand(st, g, me, h)
    st.etel_untapped[g, me] -= C.COST[card]
    stack.push(st, g, kind=ITEM_ENTRY, card=card, ctrl=me, op=C.OP_NONE, arg=0, tk=C.TK_NONE)
    flow.ask(st, g, DECISION_PRIORITY, me)


def _cast(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    h, t = np.divmod(a - A.CAST0, 13)
    card = st.hand[g, me, h].astype(np.int64)
    _leave_hand(st, g, me, h)
    st.etel_untapped[g, me] -= C.COST[card]
    tgt = targets.decode(me, t, st, g)
    tk = C.TARGET[card]
    ref = np.where(tk == C.TK_STACK, st.stk_len[g].astype(np.int64) - 1, -1)
    stack.push(st, g, kind=ITEM_KOTODAMA, card=card, ctrl=me, op=C.OPCODE[card], arg=C.ARG[card], tk=tk,
               tgt_player=tgt[0], tgt_slot=tgt[1], tgt_obj=tgt[2], ref=ref)
    flow.ask(st, g, DECISION_PRIORITY, me)


def _activate(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    f, t = np.divmod(a - A.ACTIVATE0, 13)
    card = st.fld_card[g, me, f].astype(np.int64)
    obj = st.fld_obj[g, me, f]
    st.etel_untapped[g, me] -= C.ACT_E[card]  # costs: エテル, then オジギ, then ジツ
    o = C.ACT_O[card]
    st.fld_tap[g[o], me[o], f[o]] = True
    j = C.ACT_J[card]
    st.dmg_up[g, me] -= j
    st.dmg_down[g, me] += j
    tgt = targets.decode(me, t, st, g)
    tk = C.TARGET[card]
    is_self = tk == C.TK_SELF
    stack.push(st, g, kind=ITEM_ACTIVATED, card=card, ctrl=me, op=C.OPCODE[card], arg=C.ARG[card], tk=tk,
               src_slot=f, src_obj=obj, tgt_player=np.where(is_self, me, tgt[0]),
               tgt_slot=np.where(is_self, f, tgt[1]), tgt_obj=np.where(is_self, obj, tgt[2]))
    flow.ask(st, g, DECISION_PRIORITY, me)


def _aisatsu(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    s, u = np.divmod(a - A.AISATSU0, 7)
    card = st.fld_card[g, me, s].astype(np.int64)
    obj = st.fld_obj[g, me, s]
    st.fld_tap[g, me, s] = True
    st.att_slot[g] = s
    st.att_obj[g] = obj
    player = u == 6
    st.tgt_slot[g] = np.where(player, -1, u)
    st.tgt_obj[g] = np.where(player, -1, st.fld_obj[g, 1 - me, np.minimum(u, 5)])
    st.interrupt_asked[g] = False
    stack.pend_triggers(st, g, me, s, card, obj, C.TR_ON_AISATSU)
    st.op[g] = OP_FLUSH


def _end_aisatsu(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    st.phase[g] = PHASE_IKUSA_END
    st.op[g] = OP_BEGIN_STEP


def _interrupt(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    f = a - A.INTERRUPT0
    card = st.fld_card[g, me, f].astype(np.int64)
    st.tgt_slot[g] = f
    st.tgt_obj[g] = st.fld_obj[g, me, f]
    st.fld_redir[g, me, f] = True
    taps = ~(C.HAS_KAIZEN[card] | st.fld_kz[g, me, f]) & cfg.interrupt_taps  # KAIZEN never taps
    st.fld_tap[g[taps], me[taps], f[taps]] = True
    st.op[g] = OP_WINDOW


def _no_interrupt(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray, cfg: NinjaSlayerConfig) -> None:
    st.op[g] = OP_WINDOW


def _choose_target(st: NinjaSlayerState, g: np.ndarray, me: np.ndarray, a: np.ndarray,
                   cfg: NinjaSlayerConfig) -> None:
    i = st.pend_ask[g].astype(np.int64)
    tgt = targets.decode(me, a - A.TARGET0, st, g)
    push_pending(st, g, i, tgt[0], tgt[1], tgt[2])
    st.pend_ask[g] = -1
    st.op[g] = OP_FLUSH


_APPLY = {A.F_PASS: _pass, A.F_ETEL: _etel_put, A.F_SKIP_ETEL: _skip_etel, A.F_ENTER: _enter, A.F_CAST: _cast,
          A.F_ACTIVATE: _activate, A.F_AISATSU: _aisatsu, A.F_END_AISATSU: _end_aisatsu, A.F_INTERRUPT: _interrupt,
          A.F_NO_INTERRUPT: _no_interrupt, A.F_TARGET: _choose_target}


def _leave_hand(st: NinjaSlayerState, g: np.ndarray, p: np.ndarray, h: np.ndarray) -> None:
    st.hand[g, p, h] = -1
    st.hand_known[g, p, h] = False


def winner(st: NinjaSlayerState) -> np.ndarray:
    """int[B]: the winning seat of each finished game, -1 while playing or for a draw/truncation."""
    return np.where(st.terminated, st.winner, -1)
