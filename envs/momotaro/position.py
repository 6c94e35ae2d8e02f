"""JSON-safe positions: ``to_position`` / ``from_position`` for one game of 鬼ヶ島.

Cards use the names of :mod:`.cards` (``"W"``, ``"I1"`` .. ``"K3"``); oni use the configured names
(``"R4"`` .. ``"G6"``, ``"X6"``, ``"Y2"``, ``"Y4"`` with the default values). A position::

    {
      "game": "momotaro", "num_players": 3,                      # required
      "round": 0 | 1 | 2 | 3,                                    # 0 = hiring (default 0)
      "phase": "bid" | "additional_bid" | "take_or_decline" | "heal" | "choose_oni" | "choose_cards"
               | "assign_damage" | "yellow_reward" | "over",      # default: bid / choose_oni
      "to_play": seat,                                           # default: derived from the phase
      "players": [                                               # required, one per seat
        {"cards": {"W": 0, "I3": 1},      # cards in play -> damage on them
         "knocked_out": ["S1"],           # "W" here = the player is eliminated
         "kibidango": 12, "potions": 0,   # defaults K0 and 0
         "treasure": 6,                   # optional; checked against "oni_taken"
         "fresh": ["I3"]},                # damaged in the owner's latest battle (default none)
        ...],
      "retainer_order": [9 names], "auction": 0..9,              # deal order; index of the card on auction
      "declined": [names],
      "bids": [int | null] * P, "additional": [int | null] * P, "bidders": [bool] * P,
      "last_bids": [...], "last_additional": [...],              # the previous auction, revealed
      "oni_order": [12 names],                                   # round r deals entries 4(r-1)..4r-1
      "oni_damage": {"R6": 2},                                   # damage on field oni
      "oni_taken": {"R4": {"by": 0, "as": "treasure"}, "Y2": {"by": 1, "as": "potion"}},
      "start_player": seat, "slot": int,                         # seat to play = (start + slot) % P
      "target": null | oni, "sent": null | [cards], "pending_damage": 0,
      "dice": null | [red, white], "outcome": null | "win" | "draw" | "loss", "turns": 0,
      "terminated": false, "truncated": false
    }

Missing orders default to "dealt cards first, in id order". Every field is checked; a bad one raises
:class:`PositionError` naming it. Rewards are per step and are not part of a position.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from envs.core import rng
from envs.core.errors import PositionError
from envs.core.positions import as_bool as _bool
from envs.core.positions import as_int as _int
from envs.core.positions import as_list as _list
from envs.core.positions import check_header

from .cards import CARD_NAMES, IS_YELLOW, NUM_CARDS, NUM_ONI, NUM_RETAINERS, WARRIOR, YELLOW_POTIONS
from .rules import Engine
from .state import (AT_FIELD, AT_POTION, AT_TREASURE, OUTCOME_NAMES, PH_ADD, PH_ASSIGN, PH_BID, PH_COMBO, PH_HEAL,
                    PH_OVER, PH_TAKE, PH_YELLOW, PHASE_NAMES, MomotaroState, empty_state)
from .tables import COMBO_BY_CARDS, COMBO_CARDS, COMBO_SIZE, COMBOS

KNOWN_KEYS = {
    "game", "num_players", "round", "phase", "to_play", "players", "retainer_order", "auction", "declined", "bids",
    "additional", "bidders", "last_bids", "last_additional", "oni_order", "oni_damage", "oni_taken",
    "start_player", "slot", "target", "sent", "pending_damage", "dice", "outcome", "turns", "terminated",
    "truncated",
}
PLAYER_KEYS = {"cards", "knocked_out", "kibidango", "potions", "treasure", "fresh", "alive"}
RETAINER_NAMES = CARD_NAMES[1:]
OUTCOME_IDS = {v: k for k, v in OUTCOME_NAMES.items() if v is not None}


def _opt(x: int) -> int | None:
    return None if int(x) < 0 else int(x)


def to_position(eng: Engine, st: MomotaroState, i: int = 0) -> dict[str, Any]:
    p_count = eng.P
    names = eng.d.oni_names
    players = []
    for p in range(p_count):
        players.append({
            "cards": {CARD_NAMES[c]: int(st.card_dmg[i, p, c]) for c in range(NUM_CARDS) if st.hand[i, p, c]},
            "knocked_out": [CARD_NAMES[c] for c in range(NUM_CARDS) if st.ko[i, p, c]],
            "kibidango": int(st.kibi[i, p]),
            "potions": int(st.potions[i, p]),
            "treasure": int(st.treasure[i, p]),
            "fresh": [CARD_NAMES[c] for c in range(NUM_CARDS) if st.fresh[i, p, c]],
        })
    taken = {}
    for o in range(NUM_ONI):
        if st.oni_at[i, o] in (AT_TREASURE, AT_POTION):
            taken[names[o]] = {"by": int(st.oni_owner[i, o]),
                               "as": "treasure" if st.oni_at[i, o] == AT_TREASURE else "potion"}
    combo = int(st.combo[i])
    return {
        "game": "momotaro",
        "num_players": p_count,
        "round": int(st.round[i]),
        "phase": PHASE_NAMES[int(st.phase[i])],
        "to_play": int(st.to_play[i]),
        "players": players,
        "retainer_order": [RETAINER_NAMES[int(r)] for r in st.hire_deck[i]],
        "auction": int(st.hire_pos[i]),
        "declined": [RETAINER_NAMES[r] for r in range(NUM_RETAINERS) if st.declined[i, r]],
        "bids": [_opt(x) for x in st.bids[i]],
        "additional": [_opt(x) for x in st.adds[i]],
        "bidders": [bool(x) for x in st.bidders[i]],
        "last_bids": [_opt(x) for x in st.last_bids[i]],
        "last_additional": [_opt(x) for x in st.last_adds[i]],
        "oni_order": [names[int(o)] for o in st.oni_deck[i]],
        "oni_damage": {names[o]: int(st.oni_dmg[i, o]) for o in range(NUM_ONI)
                       if st.oni_at[i, o] == AT_FIELD and st.oni_dmg[i, o] > 0},
        "oni_taken": taken,
        "start_player": int(st.start_player[i]),
        "slot": int(st.slot[i]),
        "target": None if st.target[i] < 0 else names[int(st.target[i])],
        "sent": None if combo < 0 else [CARD_NAMES[c] for c in COMBOS[combo][1]],
        "pending_damage": int(st.pending[i]),
        "dice": None if st.dice[i, 0] == 0 else [int(st.dice[i, 0]), int(st.dice[i, 1])],
        "outcome": OUTCOME_NAMES[int(st.outcome[i])],
        "turns": int(st.turns[i]),
        "terminated": bool(st.terminated[i]),
        "truncated": bool(st.truncated[i]),
    }


# ---- loading -----------------------------------------------------------------------------------



def _dict(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(field, f"expected an object, got {value!r}")
    return value


def _name(value: Any, field: str, names: tuple[str, ...]) -> int:
    if value not in names:
        raise PositionError(field, f"unknown name {value!r}; expected one of {list(names)}")
    return names.index(value)


def _order(value: Any, field: str, names: tuple[str, ...]) -> list[int]:
    ids = [_name(v, f"{field}[{k}]", names) for k, v in enumerate(_list(value, field, len(names)))]
    if len(set(ids)) != len(ids):
        raise PositionError(field, "every card must appear exactly once")
    return ids


def _opt_ints(value: Any, field: str, p: int, hi: int) -> list[int]:
    if value is None:
        return [-1] * p
    return [-1 if v is None else _int(v, f"{field}[{k}]", 0, hi) for k, v in enumerate(_list(value, field, p))]


def from_position(eng: Engine, position: Mapping[str, Any], seed: int = 0) -> MomotaroState:
    check_header(position, "momotaro", KNOWN_KEYS, ("num_players", "players"))
    P, K = eng.P, eng.K
    if position["num_players"] != P:
        raise PositionError("num_players", f"this game has {P} players, the position {position['num_players']!r}")
    get = position.get
    names = eng.d.oni_names
    power = eng.power
    st = empty_state(1, P)
    st.rng_key[:] = rng.keys_from_seeds(np.array([seed], dtype=np.uint64))

    rnd = _int(get("round", 0), "round", 0, 3)
    phase_name = get("phase", "bid" if rnd == 0 else "choose_oni")
    if phase_name not in PHASE_NAMES:
        raise PositionError("phase", f"expected one of {list(PHASE_NAMES)}, got {phase_name!r}")
    phase = PHASE_NAMES.index(phase_name)
    hiring_phase = phase in (PH_BID, PH_ADD, PH_TAKE)
    if phase != PH_OVER and hiring_phase != (rnd == 0):
        raise PositionError("phase", f"phase {phase_name!r} does not belong to round {rnd}")
    terminated = _bool(get("terminated", False), "terminated")
    truncated = _bool(get("truncated", False), "truncated")
    if (phase == PH_OVER) != (terminated or truncated):
        raise PositionError("phase", "phase 'over' goes with terminated or truncated, and only with them")

    # ---- players -------------------------------------------------------------------------------
    owner_of: dict[int, int] = {}
    for p, pl in enumerate(_list(position["players"], "players", P)):
        f = f"players[{p}]"
        pl = _dict(pl, f)
        bad = sorted(set(pl) - PLAYER_KEYS)
        if bad:
            raise PositionError(f"{f}.{bad[0]}", f"unknown key; known keys: {sorted(PLAYER_KEYS)}")
        cards = _dict(pl.get("cards", {"W": 0}), f"{f}.cards")
        for name, dmg in cards.items():
            c = _name(name, f"{f}.cards", CARD_NAMES)
            st.hand[0, p, c] = True
            st.card_dmg[0, p, c] = _int(dmg, f"{f}.cards.{name}", 0, int(power[c]) - 1)
        for k, name in enumerate(_list(pl.get("knocked_out", []), f"{f}.knocked_out")):
            c = _name(name, f"{f}.knocked_out[{k}]", CARD_NAMES)
            if st.hand[0, p, c] or st.ko[0, p, c]:
                raise PositionError(f"{f}.knocked_out", f"{name} is listed twice")
            st.ko[0, p, c] = True
            st.card_dmg[0, p, c] = power[c]
        if not (st.hand[0, p, WARRIOR] or st.ko[0, p, WARRIOR]):
            raise PositionError(f"{f}.cards", "every player has a warrior W, in play or knocked out")
        for c in range(1, NUM_CARDS):
            if st.hand[0, p, c] or st.ko[0, p, c]:
                if c in owner_of:
                    raise PositionError(f"{f}.cards", f"{CARD_NAMES[c]} also belongs to player {owner_of[c]}")
                owner_of[c] = p
        st.alive[0, p] = st.hand[0, p, WARRIOR]
        st.kibi[0, p] = _int(pl.get("kibidango", K), f"{f}.kibidango", 0, K)
        st.potions[0, p] = _int(pl.get("potions", 0), f"{f}.potions", 0, 3)
        for k, name in enumerate(_list(pl.get("fresh", []), f"{f}.fresh")):
            c = _name(name, f"{f}.fresh[{k}]", CARD_NAMES)
            if not st.hand[0, p, c]:  # (it may have been healed back to 0 since)
                raise PositionError(f"{f}.fresh", f"{name} is not a card in play")
            st.fresh[0, p, c] = True
        if "alive" in pl and _bool(pl["alive"], f"{f}.alive") != bool(st.alive[0, p]):
            raise PositionError(f"{f}.alive", "alive means the warrior W is in play")

    # ---- hiring --------------------------------------------------------------------------------
    declined_raw = _list(get("declined", []), "declined")
    declined = [_name(v, f"declined[{k}]", RETAINER_NAMES) for k, v in enumerate(declined_raw)]
    gone = {c - 1 for c in owner_of} | set(declined)
    if len(set(declined)) != len(declined) or any(r + 1 in owner_of for r in declined):
        raise PositionError("declined", "a declined retainer belongs to nobody and is listed once")
    if "retainer_order" in position:
        order = _order(position["retainer_order"], "retainer_order", RETAINER_NAMES)
    else:
        order = sorted(gone) + sorted(set(range(NUM_RETAINERS)) - gone)
    auction = _int(get("auction", len(gone) if rnd == 0 else NUM_RETAINERS), "auction", 0, NUM_RETAINERS)
    if set(order[:auction]) != gone:
        raise PositionError("auction", "the retainers before the auction index must be exactly those hired or "
                                       "declined")
    if (rnd == 0) != (auction < NUM_RETAINERS) and phase != PH_OVER:
        raise PositionError("auction", "hiring goes on until all 9 retainers were auctioned, then battle starts")
    st.hire_deck[0] = order
    st.hire_pos[0] = auction
    st.declined[0, declined] = True
    bids = _opt_ints(get("bids"), "bids", P, K)
    adds = _opt_ints(get("additional"), "additional", P, K)
    bidders = [True] * P if get("bidders") is None else [
        _bool(v, f"bidders[{k}]") for k, v in enumerate(_list(get("bidders"), "bidders", P))]
    st.last_bids[0] = _opt_ints(get("last_bids"), "last_bids", P, K)
    st.last_adds[0] = _opt_ints(get("last_additional"), "last_additional", P, K)
    for p in range(P):
        if bids[p] > st.kibi[0, p] or max(bids[p], 0) + max(adds[p], 0) > st.kibi[0, p]:
            raise PositionError(f"bids[{p}]", "a bid (plus its additional bid) cannot exceed the kibidango held")

    # ---- oni -----------------------------------------------------------------------------------
    taken_raw = _dict(get("oni_taken", {}), "oni_taken")
    taken: dict[int, tuple[int, int]] = {}
    for name, info in taken_raw.items():
        o = _name(name, "oni_taken", names)
        info = _dict(info, f"oni_taken.{name}")
        by = _int(info.get("by"), f"oni_taken.{name}.by", 0, P - 1)
        how = info.get("as")
        if how not in ("treasure", "potion") or (how == "potion" and not IS_YELLOW[o]):
            raise PositionError(f"oni_taken.{name}.as", "'treasure', or 'potion' for a yellow oni")
        taken[o] = (by, AT_TREASURE if how == "treasure" else AT_POTION)
    dealt_count = 4 * rnd
    if "oni_order" in position:
        oni_order = _order(position["oni_order"], "oni_order", names)
    else:
        dmg_keys = {_name(n, "oni_damage", names) for n in _dict(get("oni_damage", {}), "oni_damage")}
        first = sorted(set(taken) | dmg_keys)
        oni_order = first + sorted(set(range(NUM_ONI)) - set(first))
    dealt = set(oni_order[:dealt_count])
    if not set(taken) <= dealt:
        raise PositionError("oni_taken", f"only oni dealt by round {rnd} can have been defeated")
    st.oni_deck[0] = oni_order
    for o in range(NUM_ONI):
        if o in taken:
            st.oni_owner[0, o], st.oni_at[0, o] = taken[o]
            st.oni_dmg[0, o] = eng.oni_power[o]  # a defeated oni carries its full damage
        elif o in dealt:
            st.oni_at[0, o] = AT_FIELD
    target = get("target")
    t = -1 if target is None else _name(target, "target", names)
    for name, dmg in _dict(get("oni_damage", {}), "oni_damage").items():
        o = _name(name, "oni_damage", names)
        if st.oni_at[0, o] != AT_FIELD:
            raise PositionError(f"oni_damage.{name}", "only oni on the field carry damage")
        hi = int(eng.oni_power[o]) if (phase == PH_YELLOW and o == t) else int(eng.oni_power[o]) - 1
        st.oni_dmg[0, o] = _int(dmg, f"oni_damage.{name}", 0, hi)
    for p in range(P):
        won = sum(int(eng.oni_power[o]) for o, (by, at) in taken.items() if by == p and at == AT_TREASURE)
        got = sum(int(YELLOW_POTIONS[o]) for o, (by, at) in taken.items() if by == p and at == AT_POTION)
        st.treasure[0, p] = won
        pl = position["players"][p]
        if "treasure" in pl and pl["treasure"] != won:
            raise PositionError(f"players[{p}].treasure", f"the oni taken as treasure by this player are worth {won}")
        if st.potions[0, p] > got:
            raise PositionError(f"players[{p}].potions", f"only {got} potion(s) were won from yellow oni")

    # ---- the turn ------------------------------------------------------------------------------
    start = _int(get("start_player", 0), "start_player", 0, P - 1)
    slot = _int(get("slot", 0), "slot", 0, 30000)
    if rnd in (1, 2) and slot >= eng.slot_limit and phase != PH_OVER:
        raise PositionError("slot", f"rounds 1 and 2 have {eng.slot_limit} turn slots")
    st.start_player[0], st.slot[0] = start, slot
    st.target[0] = t
    sent = get("sent")
    combo = -1
    if sent is not None:
        ids = frozenset(_name(v, f"sent[{k}]", CARD_NAMES) for k, v in enumerate(_list(sent, "sent")))
        if ids not in COMBO_BY_CARDS or len(ids) != len(sent):
            raise PositionError("sent", f"{sent} is not one of the 58 legal card sets")
        combo = COMBO_BY_CARDS[ids]
    st.combo[0] = combo
    st.pending[0] = _int(get("pending_damage", 0), "pending_damage", 0, 15)
    dice = get("dice")
    if dice is not None:
        st.dice[0] = [_int(v, f"dice[{k}]", 1, 6) for k, v in enumerate(_list(dice, "dice", 2))]
    outcome = get("outcome")
    if outcome is not None and outcome not in OUTCOME_IDS:
        raise PositionError("outcome", f"expected null or one of {sorted(OUTCOME_IDS)}, got {outcome!r}")
    st.outcome[0] = -1 if outcome is None else OUTCOME_IDS[outcome]
    st.turns[0] = _int(get("turns", 0), "turns", 0, eng.cfg.max_turns)
    st.round[0], st.phase[0] = rnd, phase
    st.terminated[0], st.truncated[0] = terminated, truncated

    # to_play and the phase's own consistency.
    if phase in (PH_BID, PH_ADD):
        stage = bids if phase == PH_BID else adds
        waiting = [p for p in range(P) if bidders[p] and stage[p] < 0]
        default_tp = waiting[0] if waiting else 0
    elif phase == PH_TAKE:
        default_tp = 0
    else:
        default_tp = (start + slot) % P
    to_play = _int(get("to_play", default_tp), "to_play", 0, P - 1)
    st.to_play[0] = to_play
    if phase == PH_BID:
        if not all(bidders) or any(a >= 0 for a in adds):
            raise PositionError("bidders", "in the first bid every seat bids and nobody has an additional bid")
        if any((bids[p] >= 0) != (p < to_play) for p in range(P)):
            raise PositionError("bids", f"seats bid in order: seats before {to_play} have bid, the rest not yet")
    elif phase in (PH_ADD, PH_TAKE):
        if min(bids) < 0:
            raise PositionError("bids", "the additional stage follows a complete first bid")
        tied = [b == max(bids) for b in bids]
        if bidders != tied or sum(tied) < 2:
            raise PositionError("bidders", "the additional bidders are the seats tied for the highest bid")
        if phase == PH_ADD:
            if not bidders[to_play] or any((adds[p] >= 0) != (bidders[p] and p < to_play) for p in range(P)):
                raise PositionError("additional", f"tied seats before {to_play} have bid, the rest not yet")
        else:
            if any((adds[p] >= 0) != bidders[p] for p in range(P)):
                raise PositionError("additional", "every tied seat has made its additional bid")
            top = max(adds)
            if adds[to_play] != top or sum(a == top for a in adds) < 2:
                raise PositionError("to_play", "the janken winner is one of the seats still tied")
    elif phase != PH_OVER:
        if any(b >= 0 for b in bids + adds) or not all(bidders):
            raise PositionError("bids", "no bids are open during the battle")
        if to_play != default_tp:
            raise PositionError("to_play", f"the seat to play is (start_player + slot) % {P} = {default_tp}")
        if not st.alive[0, to_play]:
            raise PositionError("to_play", "an eliminated player does not play")
        if not (st.oni_at[0] == AT_FIELD).any():
            raise PositionError("oni_damage", "a battle turn needs an oni on the field")
    st.bids[0], st.adds[0], st.bidders[0] = bids, adds, bidders
    if phase in (PH_COMBO, PH_YELLOW) and (t < 0 or st.oni_at[0, t] != AT_FIELD):
        raise PositionError("target", "the oni attacked this turn is on the field")
    if phase == PH_ASSIGN and (t < 0 or not (st.oni_at[0, t] == AT_FIELD or st.oni_owner[0, t] == to_play)):
        raise PositionError("target", "the oni attacked this turn is on the field, or was just defeated in a draw")
    if phase in (PH_ASSIGN, PH_YELLOW):
        if combo < 0 or not st.hand[0, to_play, COMBO_CARDS[combo]].all():
            raise PositionError("sent", "the cards sent this turn are in play")
    if phase == PH_ASSIGN and (COMBO_SIZE[combo] < 2 or st.pending[0] < 1):
        raise PositionError("pending_damage", "assigning damage needs damage and a set of two or more cards")
    if phase == PH_YELLOW:
        if not IS_YELLOW[t] or st.oni_dmg[0, t] != eng.oni_power[t]:
            raise PositionError("target", "the yellow reward follows the defeat of a yellow oni (damage = power)")
        if st.pending[0] > 1:
            raise PositionError("pending_damage", "after a defeat only a draw's 1 damage can be pending")
    elif phase != PH_ASSIGN and st.pending[0] != 0:
        raise PositionError("pending_damage", "damage is pending only while it is assigned")
    if phase == PH_HEAL and not eng.healable(st, np.array([0]), np.array([to_play])).any():
        raise PositionError("phase", "the heal step needs a card that can be healed")
    if phase == PH_OVER:
        st.to_play[0] = to_play
    return st
