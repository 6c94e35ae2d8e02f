"""Precomputed tables that make the legal mask a few lookups instead of per-action comparisons.

* **Holding tables**: which plays a hand can form, looked up by the hand's suit pattern at each
  rank (groups) and its rank pattern in each suit (sequences), times "holds the joker".
* **Rule table** ``RULE[variant, field_class, direction, lock]``: which actions (PASS and the
  card plays) the rules allow against that field, before asking whether the cards are held.

A *field class* names what a candidate must beat: 0 empty (a lead), 1..13 single of effective
rank r (1 + r), 14 the strong joker single, 15 the weak joker (D1), 16..67 a group of size n and
effective rank r (``16 + 13 (n - 2) + r``), 68..133 a sequence of length L from effective rank st
(``68 + off3[L] + st``). The *variant* is 0 for the base rules, 1 under D1 (the joker is the
weakest card and never wild) and 2 under D4 (no sequences).
"""
from __future__ import annotations

import numpy as np

from . import actions as A

NUM_FIELD_CLASSES = 134
FC_EMPTY, FC_JOKER, FC_WEAK_JOKER, FC_GROUP0, FC_SEQ0 = 0, 14, 15, 16, 68
VARIANT_BASE, VARIANT_WEAK_JOKER, VARIANT_NO_SEQ = 0, 1, 2
NUM_VARIANTS = 3
_P = A.NUM_PLAY_ACTIONS


_OFF3 = np.zeros(14, dtype=np.int16)  # sequence length -> offset of its block of field classes
for _length, _offset in A.OFF3.items():
    _OFF3[_length] = _offset


def field_class_of(kind: np.ndarray, size: np.ndarray, elo: np.ndarray, weak_joker: np.ndarray) -> np.ndarray:
    """Field class (see module doc) of plays with the given kind, size and effective low rank."""
    kind = np.asarray(kind)
    fc = np.zeros(kind.shape, dtype=np.int16)
    fc = np.where(kind == A.K_SINGLE, 1 + elo, fc)
    fc = np.where(kind == A.K_JSINGLE, np.where(weak_joker, FC_WEAK_JOKER, FC_JOKER), fc)
    fc = np.where(kind == A.K_GROUP, 16 + 13 * (size.astype(np.int16) - 2) + elo, fc)
    fc = np.where(kind == A.K_SEQ, 68 + _OFF3[np.clip(size, 0, 13)] + elo, fc)
    return fc.astype(np.int16)


# FIELD_CLASS[weak_joker, a]: the field class of action a played without a 変化 boost (one lookup
# per play instead of four comparisons).
FIELD_CLASS = np.stack([field_class_of(A.KIND, A.SIZE, A.LO, np.full(A.NUM_ACTIONS, w)) for w in (False, True)])


def shifted_low(lo: np.ndarray, hi: np.ndarray, kind: np.ndarray, shift: int | np.ndarray,
                direction: int | np.ndarray) -> np.ndarray:
    """Effective low rank of a play boosted by 変化 ``shift`` ranks in the strength direction.

    Singles and groups move by ``shift`` but stay inside 3..2; a sequence moves as a whole, the
    shift reduced so that its range stays inside 3..2 (§2.1).
    """
    lo = np.asarray(lo, dtype=np.int64)
    length = np.asarray(hi, dtype=np.int64) - lo + 1
    up = np.where(kind == A.K_SEQ, np.minimum(lo + shift, 13 - length), np.minimum(lo + shift, 12))
    down = np.maximum(lo - shift, 0)
    return np.where(np.asarray(direction) == 0, up, down)


# The number of cards of the play on the field, by field action + 1 (0: an empty field).
FIELD_SIZE = np.concatenate([[0], A.SIZE]).astype(np.int64)


def _boosted_field() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The field a play boosted by 変化 leaves, by [shift - 1, direction, action]: its effective low and
    high ranks (high -1 for a play without ranks), and its field class by [.., weak joker, action]."""
    elo = np.array([[shifted_low(A.LO, A.HI, A.KIND, shift, d) for d in (0, 1)] for shift in (1, 2)])
    ehi = np.where(A.LO >= 0, elo + (A.HI - A.LO), -1)
    fclass = np.array([[[field_class_of(A.KIND, A.SIZE, elo[s, d], np.full(A.NUM_ACTIONS, w)) for w in (False, True)]
                        for d in (0, 1)] for s in (0, 1)])
    return elo, ehi, fclass


BOOSTED_ELO, BOOSTED_EHI, BOOSTED_CLASS = _boosted_field()


def _beats(shift: int) -> np.ndarray:
    """bool[variant, field_class, direction, play action]: strength and shape rules.

    With a 変化 ``shift`` > 0 the candidate's ranks are boosted, PASS is not allowed, and the joker
    single and revolution plays cannot be chosen (§2.1, A27).
    """
    kind, size, lo, hi = A.KIND[:_P], A.SIZE[:_P].astype(int), A.LO[:_P].astype(int), A.HI[:_P].astype(int)
    t = np.zeros((NUM_VARIANTS, NUM_FIELD_CLASSES, 2, _P), dtype=bool)
    plays = kind != A.K_PASS
    t[:, FC_EMPTY, :, :] = plays  # a lead: any formable play, never PASS
    for d in (0, 1):
        stronger = (lambda cand, f: cand > f) if d == 0 else (lambda cand, f: cand < f)
        elo = shifted_low(lo, hi, kind, shift, d)
        ehi = elo + (hi - lo)
        for r in range(13):
            t[:, 1 + r, d] = ((kind == A.K_SINGLE) & stronger(elo, r)) | (kind == A.K_JSINGLE)
            for n in range(2, 6):
                t[:, 16 + 13 * (n - 2) + r, d] = (kind == A.K_GROUP) & (size == n) & stronger(elo, r)
        t[:, FC_JOKER, d, A.SPADE3_SINGLE] = True  # only the ♠3 answers a lone (strong) joker
        t[:, FC_WEAK_JOKER, d] = kind == A.K_SINGLE  # any natural single beats the weak joker
        for L, o in A.OFF3.items():
            for st in range(0, 14 - L):
                fhi = st + L - 1
                ok = elo > fhi if d == 0 else ehi < st
                t[:, 68 + o + st, d] = (kind == A.K_SEQ) & (size == L) & ok
    if shift == 0:
        t[:, 1:, :, A.PASS] = True  # a responder may always pass
    else:
        t[..., A.JOKER_SINGLE] = False
        t[..., A.REVOLUTION[:_P]] = False
    # D1: the joker is the weakest card and never wild: no joker combos, and its single only leads.
    combos_with_joker = A.HAS_JOKER[:_P] & (kind != A.K_JSINGLE)
    t[VARIANT_WEAK_JOKER, :, :, combos_with_joker] = False
    t[VARIANT_WEAK_JOKER, 1:, :, A.JOKER_SINGLE] = False
    t[VARIANT_NO_SEQ, :, :, kind == A.K_SEQ] = False
    return t


def _lock_ok() -> np.ndarray:
    """bool[lock suit mask 0..15, play action]: the play fits a 縛り on those suits (0 = no lock)."""
    kind, ns, hj = A.KIND[:_P], A.NS[:_P].astype(int), A.HAS_JOKER[:_P]
    t = np.ones((16, _P), dtype=bool)
    pc = np.array([bin(m).count("1") for m in range(16)])
    for L in range(1, 16):
        seq = (kind == A.K_SEQ) & (ns == L)  # a sequence's natural suit is its suit (joker takes it too)
        natural = (kind != A.K_SEQ) & ~hj & (ns == L)
        # The joker takes the one missing locked suit.
        joker = (kind != A.K_SEQ) & hj & ((ns & ~L) == 0) & (pc[ns] + 1 == pc[L])
        t[L] = seq | natural | joker
        t[L, A.PASS] = True
    return t


BEATS = _beats(0)
LOCK_OK = _lock_ok()
# The whole rule table, flattened over (variant, field class, direction, lock) for one gather.
RULE = (BEATS[:, :, :, None, :] & LOCK_OK[None, None, None, :, :]).reshape(-1, _P)
# What a lead may play, by variant (the rows of BEATS for an empty field).
LEAD_OK = BEATS[:, FC_EMPTY, 0, :].copy()
assert (LEAD_OK == BEATS[:, FC_EMPTY, 1, :]).all()  # a lead does not depend on the direction
# Rows for a 変化-boosted play, by shift 1 or 2 (index shift - 1); the lock is applied apart.
BEATS_BOOSTED = np.stack([_beats(1), _beats(2)])


def beats_row(variant: np.ndarray, fclass: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Row index into ``BEATS.reshape(-1, 2328)`` (and into each shift of :data:`BEATS_BOOSTED`)."""
    return (variant.astype(np.int64) * NUM_FIELD_CLASSES + fclass) * 2 + direction


def rule_row(variant: np.ndarray, fclass: np.ndarray, direction: np.ndarray, lock: np.ndarray) -> np.ndarray:
    """Row index into :data:`RULE`."""
    return ((variant.astype(np.int64) * NUM_FIELD_CLASSES + fclass) * 2 + direction) * 16 + lock


# ---- holding tables ----------------------------------------------------------------------------
def _holding() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    pats = np.arange(16)
    group_nat = np.array([[all((p >> s) & 1 for s in sub) for sub in A.SUBSETS11] for p in pats], dtype=bool)
    group_jk = np.array([[all((p >> s) & 1 for s in sub) for sub in A.SUBSETS15] for p in pats], dtype=bool)
    rp = np.arange(1 << 13)
    have = ((rp[:, None] >> np.arange(13)) & 1).astype(bool)  # [8192, 13]
    seq_nat = np.zeros((1 << 13, 66), dtype=bool)
    seq_jk = np.zeros((1 << 13, 418), dtype=bool)
    for L, o in A.OFF3.items():
        for st in range(0, 14 - L):
            run = have[:, st:st + L]
            seq_nat[:, o + st] = run.all(axis=1)
            for p in range(L):
                # Every rank but position p held naturally (the joker stands at p).
                others = np.delete(run, p, axis=1).all(axis=1)
                seq_jk[:, A.OFFJ[L] + st * L + p] = others
    # Joker tables are indexed by pattern + 16 * joker (groups) or pattern + 8192 * joker (sequences).
    no_joker_group = np.zeros_like(group_jk)
    no_joker_seq = np.zeros_like(seq_jk)
    return group_nat, np.concatenate([no_joker_group, group_jk]), seq_nat, np.concatenate([no_joker_seq, seq_jk])


GROUP_NAT_HOLD, GROUP_JOKER_HOLD, SEQ_NAT_HOLD, SEQ_JOKER_HOLD = _holding()
