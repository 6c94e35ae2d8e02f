"""The batched state of ninja_slayer (leading axis B; per-player arrays are ``[B, 2, ...]`` by seat).

Phases are the steps of the turn (``PHASE_*``); decisions are the question being asked
(``DECISION_*``); ``op`` is the pending micro-operation of each game, ``OP_WAIT`` when the game is
at a decision (or over). Stack items and pending items (triggers and ウケミ effects waiting to go
on the stack) are struct-of-arrays over 16 entries.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from yuugi.envs.core.game import State, arrays_type

from .cards import NUM_CARDS
from .config import DECK_MAX, FIELD_SLOTS, HAND_SLOTS, STACK_MAX

(PHASE_UNTAP, PHASE_DRAW, PHASE_ETEL, PHASE_CHAR, PHASE_IKUSA_START, PHASE_DECLARE, PHASE_INTERRUPT, PHASE_DAMAGE,
 PHASE_IKUSA_END, PHASE_END) = range(10)
PHASE_NAMES = ("untap", "draw", "etel", "character", "ikusa_start", "declare", "interrupt", "damage", "ikusa_end",
               "end")
NUM_PHASE_CODES = 13  # the ten steps and three spare codes of the observation

DECISION_ETEL, DECISION_PRIORITY, DECISION_DECLARE, DECISION_INTERRUPT, DECISION_TARGET = range(5)
DECISION_NAMES = ("etel", "priority", "declare", "interrupt", "target")
NUM_DECISIONS = 5

# Stack item kinds.
ITEM_ENTRY, ITEM_KOTODAMA, ITEM_ACTIVATED, ITEM_TRIGGER, ITEM_UKEMI = range(5)
ITEM_NAMES = ("entry", "kotodama", "activated", "trigger", "ukemi")

# The engine's automatic operations (engine.advance runs them until the next decision), numbered in the
# order the chains run: a step ends and the next begins; an item
# resolves, its damage is revealed point by point, the rule check, pending items go on the stack, the
# priority window opens; OP_ASK: a decision was just asked (taken by the engine if it is forced,
# else the game waits, OP_WAIT).
(OP_WAIT, OP_END_STEP, OP_BEGIN_STEP, OP_RESOLVE, OP_DAMAGE, OP_RULES, OP_FLUSH, OP_WINDOW, OP_ASK) = range(9)
OP_NAMES = ("wait", "end_step", "begin_step", "resolve", "damage", "rules", "flush", "window", "ask")

END_NONE, END_DAMAGE, END_DECKOUT, END_TRUNCATED = range(4)
END_NAMES = ("", "damage", "deck_out", "truncated")

PEND_MAX = 16

_STACK_FIELDS = ("kind", "card", "ctrl", "src_slot", "src_obj", "op", "arg", "tk", "tgt_player", "tgt_slot",
                 "tgt_obj", "ref")
_PEND_FIELDS = ("kind", "card", "ctrl", "src_slot", "src_obj", "op", "arg", "tk", "tgt_player", "tgt_slot",
                "tgt_obj", "key", "used")


@dataclasses.dataclass
class NinjaSlayerState(State):
    # ---- zones, per seat ----
    deck: np.ndarray  # int8[B,2,50]: deck[ptr] is the top card; -1 past the deck's size
    deck_size: np.ndarray  # int16[B,2]: cards the deck started with (50 constructed, 40 sealed)
    deck_ptr: np.ndarray  # int16[B,2]: cards that have left the deck
    deck_count: np.ndarray  # int8[B,2,48]: per card id, copies still in the deck (what the owner has not seen)
    hand: np.ndarray  # int8[B,2,10]: card id per hand slot, -1 empty
    hand_known: np.ndarray  # bool[B,2,10]: the opponent knows this hand card (it was bounced)
    fld_card: np.ndarray  # int8[B,2,6]: card id per field slot, -1 empty
    fld_obj: np.ndarray  # int32[B,2,6]: object id of the character (fresh per entry), -1 empty
    fld_tap: np.ndarray  # bool[B,2,6]
    fld_entered: np.ndarray  # bool[B,2,6]: entered this turn
    fld_redir: np.ndarray  # bool[B,2,6]: redirected an アイサツ this turn
    fld_kz: np.ndarray  # bool[B,2,6]: granted インターラプト・カイゼン this turn
    fld_dmg: np.ndarray  # int16[B,2,6]
    fld_kmod: np.ndarray  # int16[B,2,6]: カラテ modifier this turn
    fld_wmod: np.ndarray  # int16[B,2,6]: 工作力 modifier this turn
    etel_count: np.ndarray  # int8[B,2,48]: per card id, cards in the エテル zone
    etel_total: np.ndarray  # int16[B,2]
    etel_untapped: np.ndarray  # int16[B,2]
    dmg_up: np.ndarray  # int16[B,2]: face-up damage cards
    dmg_down: np.ndarray  # int16[B,2]: face-down damage cards (spent by ジツ)
    dmg_seen: np.ndarray  # int8[B,2,48]: per card id, cards ever put into the damage zone (zone + grave_anon)
    grave: np.ndarray  # int8[B,2,48]: オヒガン per card id
    grave_anon: np.ndarray  # int16[B,2]: healed damage cards (identity not tracked) in オヒガン
    # ---- the stack (コトダマ空間) ----
    stk_kind: np.ndarray  # int8[B,16]
    stk_card: np.ndarray  # int8[B,16]: source card id
    stk_ctrl: np.ndarray  # int8[B,16]
    stk_src_slot: np.ndarray  # int8[B,16]: source character's slot (controller's field), -1 none
    stk_src_obj: np.ndarray  # int32[B,16]: source character's object id, -1 none
    stk_op: np.ndarray  # int8[B,16]
    stk_arg: np.ndarray  # int8[B,16]
    stk_tk: np.ndarray  # int8[B,16]
    stk_tgt_player: np.ndarray  # int8[B,16]: chosen target's seat, -1 none
    stk_tgt_slot: np.ndarray  # int8[B,16]
    stk_tgt_obj: np.ndarray  # int32[B,16]
    stk_ref: np.ndarray  # int8[B,16]: COUNTER: index of the item it cancels, -1 none
    stk_len: np.ndarray  # int8[B]
    # ---- pending items (triggers and ウケミ effects waiting to go on the stack) ----
    pend_kind: np.ndarray  # int8[B,16]
    pend_card: np.ndarray
    pend_ctrl: np.ndarray
    pend_src_slot: np.ndarray
    pend_src_obj: np.ndarray  # int32
    pend_op: np.ndarray
    pend_arg: np.ndarray
    pend_tk: np.ndarray
    pend_tgt_player: np.ndarray
    pend_tgt_slot: np.ndarray
    pend_tgt_obj: np.ndarray  # int32
    pend_key: np.ndarray  # int16[B,16]: push order (APNAP, ウケミ before triggers, reveal order / slot)
    pend_used: np.ndarray  # bool[B,16]
    pend_len: np.ndarray  # int8[B]
    pend_ask: np.ndarray  # int8[B]: pending item whose target is being asked, -1 none
    ukemi_seq: np.ndarray  # int8[B]: ウケミ reveals in the current chain
    # ---- turn, priority and the current attack ----
    turn: np.ndarray  # int16[B]: 1-based
    tp: np.ndarray  # int8[B]: turn player
    first: np.ndarray  # int8[B]: who went first
    phase: np.ndarray  # int8[B]: PHASE_*
    decision: np.ndarray  # int8[B]: DECISION_*
    prio: np.ndarray  # int8[B]: priority holder
    passes: np.ndarray  # int8[B]: consecutive passes
    op: np.ndarray  # int8[B]: pending micro-operation, OP_WAIT at a decision
    att_slot: np.ndarray  # int8[B]: attacker's slot (turn player's field), -1 no attack
    att_obj: np.ndarray  # int32[B]
    tgt_slot: np.ndarray  # int8[B]: attacked character's slot (non-turn player's field), -1 the player
    tgt_obj: np.ndarray  # int32[B]: -1 when the player is the target
    interrupt_asked: np.ndarray  # bool[B]: the interrupt decision was asked in this attack
    kill_obj: np.ndarray  # int32[B]: イクサ target watched for ON_KILL at the next rule check, -1 none
    kill_src_slot: np.ndarray  # int8[B]
    kill_src_obj: np.ndarray  # int32[B]
    dmg_left: np.ndarray  # int16[B]: points of player damage still to reveal
    dmg_player: np.ndarray  # int8[B]: seat taking that damage
    dmg_src_player: np.ndarray  # int8[B]: seat whose field holds the damage source character
    dmg_src_slot: np.ndarray  # int8[B]: damage source character's slot, -1 none
    dmg_src_obj: np.ndarray  # int32[B]
    next_obj: np.ndarray  # int32[B]
    loser: np.ndarray  # bool[B,2]: a loss condition was met (both: a draw)
    end_reason: np.ndarray  # int8[B]: END_*
    winner: np.ndarray  # int8[B]: -1 none / draw
    n_decisions: np.ndarray  # int32[B]: agent decisions so far
    last_resolved: np.ndarray  # int8[B]: card id of the last item that resolved, -1 none
    hist_action: np.ndarray  # int16[B,K]: recent public actions, newest first, -1 none
    hist_player: np.ndarray  # int8[B,K]
    hist_card: np.ndarray  # int8[B,K]: card the action showed, -1 none


def empty_state(b: int, cfg) -> NinjaSlayerState:
    """B games with every array allocated: empty zones, empty stack, no attack."""
    z = lambda shape, dt: np.zeros((b, *shape), dtype=dt)  # noqa: E731
    m = lambda shape, dt: np.full((b, *shape), -1, dtype=dt)  # noqa: E731
    k = cfg.history
    kw = dict(
        to_play=z((), np.int8), terminated=z((), bool), truncated=z((), bool), rewards=z((2,), np.float32),
        rng_key=z((), np.uint64), rng_counter=z((), np.uint64),
        deck=m((2, DECK_MAX), np.int8), deck_size=z((2,), np.int16), deck_ptr=z((2,), np.int16),
        deck_count=z((2, NUM_CARDS), np.int8),
        hand=m((2, HAND_SLOTS), np.int8), hand_known=z((2, HAND_SLOTS), bool),
        fld_card=m((2, FIELD_SLOTS), np.int8), fld_obj=m((2, FIELD_SLOTS), np.int32),
        fld_tap=z((2, FIELD_SLOTS), bool), fld_entered=z((2, FIELD_SLOTS), bool), fld_redir=z((2, FIELD_SLOTS), bool),
        fld_kz=z((2, FIELD_SLOTS), bool), fld_dmg=z((2, FIELD_SLOTS), np.int16),
        fld_kmod=z((2, FIELD_SLOTS), np.int16), fld_wmod=z((2, FIELD_SLOTS), np.int16),
        etel_count=z((2, NUM_CARDS), np.int8), etel_total=z((2,), np.int16), etel_untapped=z((2,), np.int16),
        dmg_up=z((2,), np.int16), dmg_down=z((2,), np.int16), dmg_seen=z((2, NUM_CARDS), np.int8),
        grave=z((2, NUM_CARDS), np.int8), grave_anon=z((2,), np.int16),
        stk_len=z((), np.int8), pend_len=z((), np.int8), pend_ask=m((), np.int8), ukemi_seq=z((), np.int8),
        turn=z((), np.int16), tp=z((), np.int8), first=z((), np.int8), phase=z((), np.int8),
        decision=z((), np.int8), prio=z((), np.int8), passes=z((), np.int8), op=z((), np.int8),
        att_slot=m((), np.int8), att_obj=m((), np.int32), tgt_slot=m((), np.int8), tgt_obj=m((), np.int32),
        interrupt_asked=z((), bool), kill_obj=m((), np.int32), kill_src_slot=m((), np.int8),
        kill_src_obj=m((), np.int32), dmg_left=z((), np.int16), dmg_player=z((), np.int8),
        dmg_src_player=z((), np.int8), dmg_src_slot=m((), np.int8), dmg_src_obj=m((), np.int32),
        next_obj=z((), np.int32),
        loser=z((2,), bool), end_reason=z((), np.int8), winner=m((), np.int8), n_decisions=z((), np.int32),
        last_resolved=m((), np.int8),
        hist_action=m((k,), np.int16), hist_player=m((k,), np.int8), hist_card=m((k,), np.int8),
    )
    for f in _STACK_FIELDS:
        dt = np.int32 if f.endswith("obj") else np.int8
        kw[f"stk_{f}"] = m((STACK_MAX,), dt)
    for f in _PEND_FIELDS:
        dt = np.int32 if f.endswith("obj") else (np.int16 if f == "key" else (bool if f == "used" else np.int8))
        kw[f"pend_{f}"] = z((PEND_MAX,), dt) if f == "used" else m((PEND_MAX,), dt)
    return NinjaSlayerState(**kw)


STACK_FIELDS = _STACK_FIELDS
PEND_FIELDS = _PEND_FIELDS

# the namedtuple of the arrays that compiled rules receive (state.view())
NinjaSlayerArrays = arrays_type(NinjaSlayerState)
