"""The suit the joker takes in a group, under the UECda game's lock rule, for code that writes plays
in UECda's own terms (the competition protocol's tables mark the joker at a suit).

Our actions do not say which suit the joker takes in a group; the rules decide it
(:func:`~.rules.play_suits`): the one suit that makes the group's suit set equal the field play's
when it can, else the first suit (♠, ♥, ♦, ♣) its natural cards lack. These helpers ask the compiled
rule itself, so that what a protocol writes is what the game played.
"""
from __future__ import annotations

from . import actions as A
from .rules import play_suits
from .tables import kernel_tables


def field_suits(field_action: int, lock: int) -> int:
    """The suit set (bit s = suit s, ♠♥♦♣) of the play on the field: the locked suits when a lock is in
    force; 0 for an empty field or a lone joker."""
    if lock:
        return int(lock)
    if field_action < 0 or A.KIND[field_action] == A.K_JSINGLE:
        return 0
    return int(play_suits(kernel_tables(), int(field_action), 0))


def group_joker_suit(action: int, field_action: int = -1, lock: int = 0) -> int | None:
    """The suit (0..3) the joker takes in the group ``action`` played on ``field_action`` (-1: a lead)
    under ``lock`` (the state's lock bits); None when ``action`` is not a group with the joker, or the
    joker joins all four suits (the quintuple)."""
    if A.KIND[action] != A.K_GROUP or not A.HAS_JOKER[action]:
        return None
    suits = int(play_suits(kernel_tables(), int(action), field_suits(field_action, lock)))
    extra = suits & ~int(A.NS[action])
    return extra.bit_length() - 1 if extra else None
