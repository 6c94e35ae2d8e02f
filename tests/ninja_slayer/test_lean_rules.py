"""The rules that run at every decision compile without numba's reference counting (none of them
allocates an array: an allocation would then fail to compile), and the target rule that replaced the
per-question target table answers as the rules say (0..5 my slots, 6..11 the opponent's, 12 the player,
no choice or the stack)."""
from __future__ import annotations

import numba
import numpy as np
import pytest

from yuugi.envs import make_game
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer import engine, seen

PLAYER = 12


def _compiled_rules(module) -> dict[str, numba.core.registry.CPUDispatcher]:
    return {name: obj for name, obj in vars(module).items()
            if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.py_func.__module__ == module.__name__}


@pytest.mark.parametrize("module", [engine, seen], ids=["engine", "seen"])
def test_decision_rules_compile_without_reference_counting(module) -> None:
    found = _compiled_rules(module)
    assert len(found) >= (50 if module is engine else 2)  # the rules are found at all
    counted = sorted(name for name, rule in found.items() if rule.targetoptions.get("_nrt", True))
    assert counted == [], f"rules compiled with reference counting (allocating): {counted}"


def _board(own_slots, opp_slots, stack: int = 0):
    """Game 0 with characters on seat 0's ``own_slots`` and seat 1's ``opp_slots`` and ``stack`` items."""
    st = make_game("ninja_slayer").init(np.array([0]))
    st.fld_card[0] = -1
    for s in own_slots:
        st.fld_card[0, 0, s] = 0
    for s in opp_slots:
        st.fld_card[0, 1, s] = 0
    st.stk_len[0] = stack
    return st.view()


def _legal_targets(view, tk: int, mask_useless: bool, me: int = 0) -> set[int]:
    return {t for t in range(13) if engine.target_legal.py_func(view, 0, me, tk, t, mask_useless)}


@pytest.mark.parametrize("mask_useless", [False, True])
def test_target_kinds_on_a_board(mask_useless: bool) -> None:
    view = _board(own_slots=(0, 2), opp_slots=(1,))
    expected = {
        C.TK_OWN_CHAR: {0, 2}, C.TK_OPP_CHAR: {7}, C.TK_ANY_CHAR: {0, 2, 7},
        C.TK_NONE: {PLAYER}, C.TK_SELF: {PLAYER}, C.TK_OPP_PLAYER: {PLAYER},
        C.TK_ALL_OPP: {PLAYER}, C.TK_ALL_OWN: {PLAYER},
        C.TK_STACK: set(),  # nothing on the stack to aim at
        C.TK_SOURCE: set(),  # never chosen: a ウケミ effect aims at its damage source
    }
    for tk, targets in expected.items():
        assert _legal_targets(view, tk, mask_useless) == targets, C.TARGET_NAMES[tk]
    # seen from the other seat, mine and the opponent's swap
    assert _legal_targets(view, C.TK_OWN_CHAR, mask_useless, me=1) == {1}
    assert _legal_targets(view, C.TK_OPP_CHAR, mask_useless, me=1) == {6, 8}


def test_sets_of_characters_need_one_under_mask_useless() -> None:
    view = _board(own_slots=(3,), opp_slots=(), stack=2)
    assert _legal_targets(view, C.TK_ALL_OPP, mask_useless=True) == set()
    assert _legal_targets(view, C.TK_ALL_OPP, mask_useless=False) == {PLAYER}
    assert _legal_targets(view, C.TK_ALL_OWN, mask_useless=True) == {PLAYER}
    assert _legal_targets(view, C.TK_STACK, mask_useless=True) == {PLAYER}
    assert not engine.has_target.py_func(view, 0, 0, C.TK_OPP_CHAR, True)
    assert engine.has_target.py_func(view, 0, 0, C.TK_ANY_CHAR, True)


def test_slot_bits_name_each_character_once() -> None:
    bits = [engine.slot_bit.py_func(p, s) for p in range(2) for s in range(6)]
    assert len(set(bits)) == 12 and all(b > 0 and b & (b - 1) == 0 for b in bits)
