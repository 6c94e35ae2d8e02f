"""Precomputed rule tables, built once in Python and passed to the compiled rules (:func:`kernel_tables`).

* ``BEATS[variant, field_class, direction, play]``: which actions (PASS and the card plays) the
  rules allow against that field, before asking whether the cards are held; ``BEATS_BOOSTED`` the
  same for a play boosted by 変化, and ``LOCK_OK[lock, play]`` the plays that fit a 縛り.
* The field a play leaves (``FIELD_CLASS``, and ``BOOSTED_*`` after 変化) and the tribute order.

A *field class* names what a candidate must beat: 0 empty (a lead), 1..13 single of effective
rank r (1 + r), 14 the strong joker single, 15 the weak joker (D1), 16..67 a group of size n and
effective rank r (``16 + 13 (n - 2) + r``), 68..133 a sequence of length L from effective rank st
(``68 + off3[L] + st``). The *variant* is 0 for the base rules, 1 under D1 (the joker is the
weakest card and never wild) and 2 under D4 (no sequences).
"""
from __future__ import annotations

import collections

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
assert (BEATS[:, FC_EMPTY, 0, :] == BEATS[:, FC_EMPTY, 1, :]).all()  # a lead does not depend on the direction
# The rules for a 変化-boosted play, by shift 1 or 2 (index shift - 1); the lock is applied apart.
BEATS_BOOSTED = np.stack([_beats(1), _beats(2)])
# Every rule row allows only plays of the block of columns answering its field (a lead: any), so the
# legal mask need only look at that block (held.offer_plays); PASS only for a field, never boosted.
assert not BEATS[:, :, :, A.PASS][:, FC_EMPTY].any() and BEATS[:, 1:, :, A.PASS].all()
assert not BEATS_BOOSTED[..., A.PASS].any()
for _fc, (_lo, _hi) in enumerate([(A.SINGLE0, _P)] + [(A.SINGLE0, A.NAT_GROUP0)] * (FC_GROUP0 - 1)
                                 + [(A.NAT_GROUP0, A.NAT_SEQ0)] * (FC_SEQ0 - FC_GROUP0)
                                 + [(A.NAT_SEQ0, _P)] * (NUM_FIELD_CLASSES - FC_SEQ0)):
    for _t in (BEATS[:, _fc], BEATS_BOOSTED[:, :, _fc]):
        assert not _t[..., 1:_lo].any() and not _t[..., _hi:].any()


# ---- tribute: strength orders (strongest first; ties ♠ > ♥ > ♦ > ♣) ---------------------------------
def _order(ranks: range, joker_first: bool) -> np.ndarray:
    naturals = [4 * r + s for r in ranks for s in range(4)]
    return np.array([52] + naturals if joker_first else naturals + [52], dtype=np.uint64)


TRIBUTE_ORDER = np.stack([
    _order(range(12, -1, -1), True),  # normal
    _order(range(0, 13), True),  # revolution from the start (D5): 3 strongest, the joker still top
    _order(range(12, -1, -1), False),  # D1: the joker is the weakest card
])
ORDER_NORMAL, ORDER_REVOLUTION, ORDER_WEAK_JOKER = 0, 1, 2


# ---- the tables the compiled rules receive: one namedtuple, an argument of every kernel ---------------
KernelTables = collections.namedtuple("KernelTables", [
    # per action (actions.py)
    "cards", "kind", "size", "lo", "hi", "ns", "has_joker", "jutsu", "target", "has8", "has5", "has_jack",
    "revolution",
    # the field a play leaves, plain and boosted by 変化
    "field_class", "boosted_elo", "boosted_ehi", "boosted_class",
    # what beats what, and what a lock allows
    "beats", "beats_boosted", "lock_ok",
    # the column of a group and of a sequence (held.py): suit subsets of one rank (the 4 single suits,
    # then actions.SUBSETS11), the offset of each sequence length (actions.OFF3, actions.OFFJ)
    "group_suits", "seq_offset", "joker_seq_offset",
    # tribute
    "tribute_order",
])
_KERNEL_TABLES: list[KernelTables] = []


def kernel_tables() -> KernelTables:
    """The static tables of the compiled rules (built once; C-contiguous)."""
    if not _KERNEL_TABLES:
        c = np.ascontiguousarray
        _KERNEL_TABLES.append(KernelTables(
            cards=c(A.CARDS), kind=c(A.KIND), size=c(A.SIZE), lo=c(A.LO), hi=c(A.HI), ns=c(A.NS),
            has_joker=c(A.HAS_JOKER), jutsu=c(A.JUTSU), target=c(A.TARGET), has8=c(A.HAS8), has5=c(A.HAS5),
            has_jack=c(A.HAS_JACK), revolution=c(A.REVOLUTION),
            field_class=c(FIELD_CLASS), boosted_elo=c(BOOSTED_ELO), boosted_ehi=c(BOOSTED_EHI),
            boosted_class=c(BOOSTED_CLASS), beats=c(BEATS), beats_boosted=c(BEATS_BOOSTED), lock_ok=c(LOCK_OK),
            group_suits=np.array([sum(1 << s for s in sub) for sub in A.SUBSETS15], dtype=np.int64),
            seq_offset=np.array([A.OFF3.get(n, 0) for n in range(14)], dtype=np.int64),
            joker_seq_offset=np.array([A.OFFJ.get(n, 0) for n in range(14)], dtype=np.int64),
            tribute_order=c(TRIBUTE_ORDER)))
    return _KERNEL_TABLES[0]
