"""Positions: a game as a JSON-safe dict with card codes ("C04"), and back.

Object ids are not part of a position: characters get fresh ids on loading, and every reference
to a character (a stack target, the attacker, the attacked character) is written as (seat, slot);
a reference to a character that has left the field is written with ``"gone": true`` and loads as
a fresh object id that matches no character, as the departed one's id does in continuous play: the
item will fizzle, and a ウケミ effect aimed at the SOURCE of its damage still records that departed
source. Transient engine registers (damage being dealt, the micro-operation) never appear: a position
is always at a decision or over.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core import rng
from yuugi.envs.core.errors import PositionError
from yuugi.envs.core.positions import as_bool, as_int, as_list, check_header

from . import actions as A
from . import cards as C
from .config import DECK_MAX, FIELD_SLOTS, HAND_SLOTS, LOSE_AT_DAMAGE, STACK_MAX, NinjaSlayerConfig
from .state import (DECISION_NAMES, DECISION_PRIORITY, DECISION_TARGET, END_NAMES, ITEM_NAMES, OP_WAIT, PEND_MAX,
                    PHASE_NAMES, NinjaSlayerState, empty_state)

_KEYS = ("game", "turn", "turn_player", "first_player", "phase", "decision", "to_play", "passes", "players", "stack",
         "pending", "asking", "attack", "n_decisions", "history", "last_resolved", "terminated", "truncated",
         "winner", "end_reason")
_REQUIRED = ("turn", "turn_player", "phase", "decision", "players")
_PLAYER_KEYS = ("deck", "hand", "hand_known", "field", "etel", "etel_untapped", "damage_up", "damage_down",
                "damage_seen", "healed", "grave")
_FIELD_KEYS = ("card", "tapped", "damage", "karate_mod", "kousaku_mod", "entered", "redirected", "kaizen")
_ITEM_KEYS = ("kind", "card", "controller", "op", "arg", "target_kind", "target", "source_slot", "counter_of")


def _code(c: int) -> str | None:
    return None if c < 0 else C.CODES[int(c)]


def _codes_from_counts(counts: np.ndarray) -> list[str]:
    return [C.CODES[i] for i in range(C.NUM_CARDS) for _ in range(int(counts[i]))]


def _ref(st: NinjaSlayerState, i: int, player: int, slot: int, obj: int) -> dict[str, Any] | None:
    if slot < 0:
        return None
    d: dict[str, Any] = {"player": int(player), "slot": int(slot)}
    if obj < 0 or int(st.fld_obj[i, player, slot]) != int(obj):
        d["gone"] = True
    return d


def _item(st: NinjaSlayerState, i: int, prefix: str, j: int) -> dict[str, Any]:
    get = lambda name: int(getattr(st, f"{prefix}_{name}")[i, j])  # noqa: E731
    ctrl = get("ctrl")
    d: dict[str, Any] = {
        "kind": ITEM_NAMES[get("kind")], "card": _code(get("card")), "controller": ctrl,
        "op": C.OPCODE_NAMES[get("op")], "arg": get("arg"), "target_kind": C.TARGET_NAMES[get("tk")],
        "target": _ref(st, i, get("tgt_player"), get("tgt_slot"), get("tgt_obj")),
        "source_slot": None if get("src_slot") < 0 else get("src_slot"),
    }
    if d["source_slot"] is not None and int(st.fld_obj[i, ctrl, get("src_slot")]) != get("src_obj"):
        d["source_gone"] = True
    if prefix == "stk":
        d["counter_of"] = None if get("ref") < 0 else get("ref")
    return d


def to_position(st: NinjaSlayerState, i: int, cfg: NinjaSlayerConfig) -> dict[str, Any]:
    players = []
    for p in range(2):
        ptr, size = int(st.deck_ptr[i, p]), int(st.deck_size[i, p])
        field = []
        for s in range(FIELD_SLOTS):
            c = int(st.fld_card[i, p, s])
            field.append(None if c < 0 else {
                "card": C.CODES[c], "tapped": bool(st.fld_tap[i, p, s]), "damage": int(st.fld_dmg[i, p, s]),
                "karate_mod": int(st.fld_kmod[i, p, s]), "kousaku_mod": int(st.fld_wmod[i, p, s]),
                "entered": bool(st.fld_entered[i, p, s]), "redirected": bool(st.fld_redir[i, p, s]),
                "kaizen": bool(st.fld_kz[i, p, s])})
        players.append({
            "deck": [C.CODES[int(c)] for c in st.deck[i, p, ptr:size]],
            "hand": [_code(c) for c in st.hand[i, p]],
            "hand_known": [bool(k) for k in st.hand_known[i, p]],
            "field": field,
            "etel": _codes_from_counts(st.etel_count[i, p]), "etel_untapped": int(st.etel_untapped[i, p]),
            "damage_up": int(st.dmg_up[i, p]), "damage_down": int(st.dmg_down[i, p]),
            "damage_seen": _codes_from_counts(st.dmg_seen[i, p]), "healed": int(st.grave_anon[i, p]),
            "grave": _codes_from_counts(st.grave[i, p]),
        })
    pending = [dict(_item(st, i, "pend", j), key=int(st.pend_key[i, j]))
               for j in range(int(st.pend_len[i])) if not st.pend_used[i, j]]
    asking = None
    if int(st.pend_ask[i]) >= 0:
        live = [j for j in range(int(st.pend_len[i])) if not st.pend_used[i, j]]
        asking = live.index(int(st.pend_ask[i]))
    attack = None
    if int(st.att_slot[i]) >= 0:
        tp = int(st.tp[i])
        attack = {"attacker": _ref(st, i, tp, int(st.att_slot[i]), int(st.att_obj[i])),
                  "target": _ref(st, i, 1 - tp, int(st.tgt_slot[i]), int(st.tgt_obj[i])),
                  "interrupt_asked": bool(st.interrupt_asked[i])}
    history = [[int(st.hist_player[i, k]), int(st.hist_action[i, k]), _code(int(st.hist_card[i, k]))]
               for k in range(st.hist_action.shape[1]) if st.hist_action[i, k] >= 0]
    return {
        "game": "ninja_slayer", "turn": int(st.turn[i]), "turn_player": int(st.tp[i]),
        "first_player": int(st.first[i]), "phase": PHASE_NAMES[int(st.phase[i])],
        "decision": DECISION_NAMES[int(st.decision[i])], "to_play": int(st.to_play[i]), "passes": int(st.passes[i]),
        "players": players, "stack": [_item(st, i, "stk", j) for j in range(int(st.stk_len[i]))],
        "pending": pending, "asking": asking, "attack": attack, "n_decisions": int(st.n_decisions[i]),
        "history": history, "last_resolved": _code(int(st.last_resolved[i])),
        "terminated": bool(st.terminated[i]), "truncated": bool(st.truncated[i]), "winner": int(st.winner[i]),
        "end_reason": END_NAMES[int(st.end_reason[i])],
    }


# ---- loading -----------------------------------------------------------------------------------
def _card(value: Any, field: str) -> int:
    try:
        return C.card_index(value)
    except ValueError as e:
        raise PositionError(field, str(e)) from None


def _name(value: Any, names: tuple[str, ...], field: str) -> int:
    if isinstance(value, str) and value in names:
        return names.index(value)
    raise PositionError(field, f"expected one of {list(names)}, got {value!r}")


_ZONE_MAX = 100  # cards a zone list may hold (per-card counts are int8)


def _counts(value: Any, field: str) -> np.ndarray:
    out = np.zeros(C.NUM_CARDS, np.int8)
    cards = as_list(value, field)
    if len(cards) > _ZONE_MAX:
        raise PositionError(field, f"at most {_ZONE_MAX} cards, got {len(cards)}")
    for k, c in enumerate(cards):
        out[_card(c, f"{field}[{k}]")] += 1
    return out


def from_position(pos: Mapping[str, Any], cfg: NinjaSlayerConfig, seed: int = 0) -> NinjaSlayerState:
    check_header(pos, "ninja_slayer", _KEYS, _REQUIRED)
    st = empty_state(1, cfg)
    st.rng_key[:] = rng.keys_from_seeds(np.array([seed], dtype=np.uint64))
    st.turn[0] = as_int(pos["turn"], "turn", 1, 10_000)
    st.tp[0] = as_int(pos["turn_player"], "turn_player", 0, 1)
    st.first[0] = as_int(pos.get("first_player", 0), "first_player", 0, 1)
    st.phase[0] = _name(pos["phase"], PHASE_NAMES, "phase")
    st.decision[0] = _name(pos["decision"], DECISION_NAMES, "decision")
    st.passes[0] = as_int(pos.get("passes", 0), "passes", 0, 1)
    players = as_list(pos["players"], "players", 2)
    obj = 0
    for p, pl in enumerate(players):
        f = f"players[{p}]"
        if not isinstance(pl, Mapping):
            raise PositionError(f, "expected a dict")
        unknown = sorted(set(pl) - set(_PLAYER_KEYS))
        if unknown:
            raise PositionError(f"{f}.{unknown[0]}", f"unknown key; known keys: {list(_PLAYER_KEYS)}")
        deck = [_card(c, f"{f}.deck[{k}]") for k, c in enumerate(as_list(pl.get("deck", []), f"{f}.deck"))]
        if len(deck) > DECK_MAX:
            raise PositionError(f"{f}.deck", f"at most {DECK_MAX} cards, got {len(deck)}")
        st.deck[0, p, :len(deck)] = deck
        st.deck_size[0, p] = len(deck)
        st.deck_count[0, p] = np.bincount(np.array(deck, dtype=np.int64), minlength=C.NUM_CARDS)
        hand = as_list(pl.get("hand", []), f"{f}.hand")
        if len(hand) > HAND_SLOTS:
            raise PositionError(f"{f}.hand", f"at most {HAND_SLOTS} slots, got {len(hand)}")
        for h, c in enumerate(hand):
            st.hand[0, p, h] = -1 if c is None else _card(c, f"{f}.hand[{h}]")
        known = as_list(pl.get("hand_known", [False] * len(hand)), f"{f}.hand_known")
        for h, k in enumerate(known[:HAND_SLOTS]):
            st.hand_known[0, p, h] = as_bool(k, f"{f}.hand_known[{h}]") and st.hand[0, p, h] >= 0
        field = as_list(pl.get("field", []), f"{f}.field")
        if len(field) > FIELD_SLOTS:
            raise PositionError(f"{f}.field", f"at most {FIELD_SLOTS} slots, got {len(field)}")
        for s, ch in enumerate(field):
            if ch is None:
                continue
            fs = f"{f}.field[{s}]"
            if not isinstance(ch, Mapping) or "card" not in ch:
                raise PositionError(fs, "expected null or a dict with 'card'")
            unknown = sorted(set(ch) - set(_FIELD_KEYS))
            if unknown:
                raise PositionError(f"{fs}.{unknown[0]}", f"unknown key; known keys: {list(_FIELD_KEYS)}")
            c = _card(ch["card"], f"{fs}.card")
            if not C.IS_CHAR[c]:
                raise PositionError(f"{fs}.card", f"{C.CODES[c]} is a kotodama, not a character")
            st.fld_card[0, p, s] = c
            st.fld_obj[0, p, s] = obj
            obj += 1
            st.fld_tap[0, p, s] = as_bool(ch.get("tapped", False), f"{fs}.tapped")
            st.fld_dmg[0, p, s] = as_int(ch.get("damage", 0), f"{fs}.damage", 0, 99)
            st.fld_kmod[0, p, s] = as_int(ch.get("karate_mod", 0), f"{fs}.karate_mod", -99, 99)
            st.fld_wmod[0, p, s] = as_int(ch.get("kousaku_mod", 0), f"{fs}.kousaku_mod", -99, 99)
            st.fld_entered[0, p, s] = as_bool(ch.get("entered", False), f"{fs}.entered")
            st.fld_redir[0, p, s] = as_bool(ch.get("redirected", False), f"{fs}.redirected")
            st.fld_kz[0, p, s] = as_bool(ch.get("kaizen", False), f"{fs}.kaizen")
        st.etel_count[0, p] = _counts(pl.get("etel", []), f"{f}.etel")
        st.etel_total[0, p] = int(st.etel_count[0, p].sum())
        st.etel_untapped[0, p] = as_int(pl.get("etel_untapped", 0), f"{f}.etel_untapped", 0, int(st.etel_total[0, p]))
        st.dmg_up[0, p] = as_int(pl.get("damage_up", 0), f"{f}.damage_up", 0, 99)
        st.dmg_down[0, p] = as_int(pl.get("damage_down", 0), f"{f}.damage_down", 0, 99)
        st.grave_anon[0, p] = as_int(pl.get("healed", 0), f"{f}.healed", 0, 99)
        st.dmg_seen[0, p] = _counts(pl.get("damage_seen", []), f"{f}.damage_seen")
        zone = int(st.dmg_up[0, p] + st.dmg_down[0, p] + st.grave_anon[0, p])
        if int(st.dmg_seen[0, p].sum()) != zone:
            raise PositionError(f"{f}.damage_seen", f"must list {zone} cards (damage_up + damage_down + healed)")
        st.grave[0, p] = _counts(pl.get("grave", []), f"{f}.grave")

    def departed() -> int:
        """A fresh object id for a character that has left play. In continuous play a departed character
        keeps its id (≥ 0, matched by nothing on the field), and the rules read a valid id as "there was a
        source": a ウケミ effect aimed at SOURCE records it (then does nothing). A negative id would load as
        "no source" and record a null target where the game it came from records the gone reference."""
        nonlocal obj
        obj += 1
        return obj - 1

    def load_ref(value: Any, field: str, player: int | None = None) -> tuple[int, int, int]:
        if value is None:
            return -1, -1, -1
        if not isinstance(value, Mapping):
            raise PositionError(field, "expected null or {'player', 'slot'}")
        pl = as_int(value.get("player", player), f"{field}.player", 0, 1)
        s = as_int(value.get("slot"), f"{field}.slot", 0, FIELD_SLOTS - 1)
        if as_bool(value.get("gone", False), f"{field}.gone"):
            return pl, s, departed()
        if st.fld_card[0, pl, s] < 0:
            raise PositionError(field, f"seat {pl} slot {s} is empty (mark a departed character with gone: true)")
        return pl, s, int(st.fld_obj[0, pl, s])

    def load_item(d: Any, field: str, prefix: str, j: int) -> None:
        if not isinstance(d, Mapping):
            raise PositionError(field, "expected a dict")
        unknown = sorted(set(d) - set(_ITEM_KEYS) - {"key", "source_gone"})
        if unknown:
            raise PositionError(f"{field}.{unknown[0]}", f"unknown key; known keys: {list(_ITEM_KEYS)}")
        put = lambda name, v: getattr(st, f"{prefix}_{name}").__setitem__((0, j), v)  # noqa: E731
        kind = _name(d.get("kind"), ITEM_NAMES, f"{field}.kind")
        card = _card(d.get("card"), f"{field}.card")
        ctrl = as_int(d.get("controller"), f"{field}.controller", 0, 1)
        op = _name(d.get("op", "NONE"), C.OPCODE_NAMES, f"{field}.op")
        arg = as_int(d.get("arg", 0), f"{field}.arg", 0, 9)
        tk = _name(d.get("target_kind", "NONE"), C.TARGET_NAMES, f"{field}.target_kind")
        _check_item(kind, card, op, arg, tk, field, prefix)
        put("kind", kind)
        put("card", card)
        put("ctrl", ctrl)
        put("op", op)
        put("arg", arg)
        put("tk", tk)
        tp_, ts, to = load_ref(d.get("target"), f"{field}.target")
        put("tgt_player", tp_)
        put("tgt_slot", ts)
        put("tgt_obj", to)
        src = d.get("source_slot")
        if src is not None:
            s = as_int(src, f"{field}.source_slot", 0, FIELD_SLOTS - 1)
            gone = as_bool(d.get("source_gone", False), f"{field}.source_gone") or st.fld_card[0, ctrl, s] < 0
            put("src_slot", s)
            put("src_obj", departed() if gone else int(st.fld_obj[0, ctrl, s]))
        if prefix == "stk":
            ref = d.get("counter_of")
            if ref is not None and j == 0:
                raise PositionError(f"{field}.counter_of", "the bottom item has nothing beneath it to cancel")
            put("ref", -1 if ref is None else as_int(ref, f"{field}.counter_of", 0, j - 1))
        else:
            put("key", as_int(d.get("key", 0), f"{field}.key", 0, 1000))
            st.pend_used[0, j] = False

    stack_items = as_list(pos.get("stack", []), "stack")
    if len(stack_items) > STACK_MAX:
        raise PositionError("stack", f"at most {STACK_MAX} items, got {len(stack_items)}")
    for j, d in enumerate(stack_items):
        load_item(d, f"stack[{j}]", "stk", j)
    st.stk_len[0] = len(stack_items)
    pending = as_list(pos.get("pending", []), "pending")
    if len(pending) > PEND_MAX:
        raise PositionError("pending", f"at most {PEND_MAX} items, got {len(pending)}")
    for j, d in enumerate(pending):
        load_item(d, f"pending[{j}]", "pend", j)
    st.pend_len[0] = len(pending)
    asking = pos.get("asking")
    if asking is not None:
        st.pend_ask[0] = as_int(asking, "asking", 0, len(pending) - 1) if pending else as_int(asking, "asking", 0, -1)
    att = pos.get("attack")
    if att is not None:
        if not isinstance(att, Mapping):
            raise PositionError("attack", "expected null or a dict")
        tp = int(st.tp[0])
        _, s, o = load_ref(att.get("attacker"), "attack.attacker", tp)
        if s < 0:
            raise PositionError("attack.attacker", "required when there is an attack")
        st.att_slot[0], st.att_obj[0] = s, o
        _, s, o = load_ref(att.get("target"), "attack.target", 1 - tp)
        st.tgt_slot[0], st.tgt_obj[0] = s, o
        st.interrupt_asked[0] = as_bool(att.get("interrupt_asked", False), "attack.interrupt_asked")
    st.next_obj[0] = obj  # characters entering from here on get ids no reference above holds
    st.n_decisions[0] = as_int(pos.get("n_decisions", 0), "n_decisions", 0, 10**9)
    hist = as_list(pos.get("history", []), "history")
    for k, h in enumerate(hist[: st.hist_action.shape[1]]):
        h = as_list(h, f"history[{k}]", 3)
        st.hist_player[0, k] = as_int(h[0], f"history[{k}][0]", 0, 1)
        st.hist_action[0, k] = as_int(h[1], f"history[{k}][1]", 0, A.NUM_ACTIONS - 1)
        st.hist_card[0, k] = -1 if h[2] is None else _card(h[2], f"history[{k}][2]")
    lr = pos.get("last_resolved")
    st.last_resolved[0] = -1 if lr is None else _card(lr, "last_resolved")
    st.terminated[0] = as_bool(pos.get("terminated", False), "terminated")
    st.truncated[0] = as_bool(pos.get("truncated", False), "truncated")
    st.winner[0] = as_int(pos.get("winner", -1), "winner", -1, 1)
    st.end_reason[0] = _name(pos.get("end_reason", ""), END_NAMES, "end_reason")
    st.op[0] = OP_WAIT
    _rebuild_decks(st)
    _check_decision(st, pos, cfg)
    return st


def _rebuild_decks(st: NinjaSlayerState) -> None:
    """Put the cards that have left each deck back in front of it (in card order, as already drawn),
    so that the deck array holds everything the seat owns, as after a real set-up."""
    for p in range(2):
        left = (st.etel_count[0, p] + st.grave[0, p] + st.dmg_seen[0, p]).astype(np.int64)
        for arr in (st.hand[0, p], st.fld_card[0, p]):
            np.add.at(left, arr[arr >= 0].astype(np.int64), 1)
        n = int(st.stk_len[0])
        cards = (st.stk_kind[0, :n] == 0) | (st.stk_kind[0, :n] == 1)
        mine = cards & (st.stk_ctrl[0, :n] == p)
        np.add.at(left, st.stk_card[0, :n][mine].astype(np.int64), 1)
        prefix = np.repeat(np.arange(C.NUM_CARDS), left)
        remaining = st.deck[0, p, :int(st.deck_size[0, p])].copy()
        total = len(prefix) + len(remaining)
        if total > DECK_MAX:
            raise PositionError(f"players[{p}]", f"a seat owns at most {DECK_MAX} cards in all its zones, got {total}")
        st.deck[0, p] = -1
        st.deck[0, p, :len(prefix)] = prefix
        st.deck[0, p, len(prefix):total] = remaining
        st.deck_ptr[0, p] = len(prefix)
        st.deck_size[0, p] = total


_ITEM_OF_KIND = {  # stack / pending item kind -> (what the card must be, which of its effects the item carries)
    "entry": "char", "kotodama": "koto", "activated": "activated", "trigger": "trigger", "ukemi": "ukemi"}


def _check_item(kind: int, card: int, op: int, arg: int, tk: int, field: str, prefix: str) -> None:
    """An item carries exactly its card's effect: entries a character, ウケミ items the card's ウケミ, ..."""
    name = ITEM_NAMES[kind]
    if prefix == "pend" and name not in ("trigger", "ukemi"):
        raise PositionError(f"{field}.kind", "pending items are triggers or ukemi effects")
    if name == "entry":
        want, ok = (C.OP_NONE, 0, C.TK_NONE), bool(C.IS_CHAR[card])
    elif name == "kotodama":
        want, ok = (int(C.OPCODE[card]), int(C.ARG[card]), int(C.TARGET[card])), not C.IS_CHAR[card]
    elif name == "ukemi":
        want, ok = (int(C.UK_OP[card]), int(C.UK_ARG[card]), int(C.UK_TARGET[card])), bool(C.HAS_UKEMI[card])
    else:
        trig = int(C.TRIGGER[card])
        ok = C.IS_CHAR[card] and ((trig == C.TR_ACTIVATED) == (name == "activated")) and trig != C.TR_NONE
        want = (int(C.OPCODE[card]), int(C.ARG[card]), int(C.TARGET[card]))
    if not ok:
        raise PositionError(f"{field}.card", f"{C.CODES[card]} cannot be a {name} item")
    if (op, arg, tk) != want:
        raise PositionError(f"{field}.op", f"a {name} item of {C.CODES[card]} is "
                                           f"{C.OPCODE_NAMES[want[0]]} {want[1]} {C.TARGET_NAMES[want[2]]}")


def _check_decision(st: NinjaSlayerState, pos: Mapping[str, Any], cfg: NinjaSlayerConfig) -> None:
    """``to_play`` follows from the decision; a live position must offer at least one legal action."""
    dec = int(st.decision[0])
    tp = int(st.tp[0])
    if dec == DECISION_TARGET:
        if st.pend_ask[0] < 0:
            raise PositionError("asking", "a target decision needs the index of the pending item being asked")
        who = int(st.pend_ctrl[0, st.pend_ask[0]])
    elif dec == DECISION_PRIORITY:
        who = as_int(pos.get("to_play", tp), "to_play", 0, 1)
    elif dec == 3:  # interrupt
        who = 1 - tp
        if st.att_slot[0] < 0:
            raise PositionError("attack", "an interrupt decision needs an attack")
    else:
        who = tp
    if "to_play" in pos and as_int(pos["to_play"], "to_play", 0, 1) != who:
        raise PositionError("to_play", f"the {DECISION_NAMES[dec]} decision is seat {who}'s")
    st.to_play[0] = who
    st.prio[0] = who
    if st.terminated[0] and st.truncated[0]:
        raise PositionError("truncated", "a game is either terminated or truncated, not both")
    for p in range(2):
        if int(st.dmg_up[0, p] + st.dmg_down[0, p]) >= LOSE_AT_DAMAGE and not st.done[0]:
            raise PositionError(f"players[{p}].damage_up", "10 or more damage: the game would be over")
        if cfg.deckout_rule == "reach_zero" and st.deck_size[0, p] == st.deck_ptr[0, p] and not st.done[0]:
            raise PositionError(f"players[{p}].deck", "an empty deck has lost already (deckout_rule reach_zero)")
    if not st.done[0] and st.turn[0] > cfg.max_turns:
        raise PositionError("turn", f"a live game is at most at turn max_turns = {cfg.max_turns}")
    if not st.done[0]:
        from .batch import Compiled

        if not Compiled(cfg).legal_mask(st)[0].any():
            raise PositionError("decision", "no legal action in this position")
