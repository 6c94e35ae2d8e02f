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

import functools
from typing import Any, Mapping

import numpy as np

from yuugi.envs.core import schema as S
from yuugi.envs.core.errors import PositionError

from . import batch, rules
from .cards import CARD_NAMES, IS_YELLOW, NUM_ONI, NUM_RETAINERS, WARRIOR, YELLOW_POTIONS
from .config import MomotaroConfig
from .state import (AT_FIELD, AT_POTION, AT_TREASURE, OUTCOME_NAMES, PHASE_ADD, PHASE_ASSIGN, PHASE_BID, PHASE_COMBO,
                    PHASE_HEAL, PHASE_NAMES, PHASE_ONI, PHASE_OVER, PHASE_TAKE, PHASE_YELLOW, MomotaroState,
                    empty_state)
from .tables import COMBO_BY_CARDS, COMBO_CARDS, COMBO_SIZE, COMBOS

RETAINER_NAMES = CARD_NAMES[1:]
OUTCOMES = tuple(OUTCOME_NAMES[k] for k in range(len(OUTCOME_NAMES) - 1))  # "win", "draw", "loss" = OUT_WIN..
TAKEN_AS = ("treasure", "potion")


def schema(cfg: MomotaroConfig) -> S.Record:
    """Every key of a position: its parser, range and default, and the state array it is (``.into``)."""
    t = cfg.tables
    return _schema(cfg.num_players, t.kibi, tuple(int(x) for x in t.card_power), t.oni_names,
                   tuple(int(x) for x in t.oni_power), cfg.max_turns)


@functools.lru_cache(maxsize=16)
def _schema(P: int, K: int, power: tuple[int, ...], oni_names: tuple[str, ...], oni_power: tuple[int, ...],
            max_turns: int) -> S.Record:
    card, retainer = S.Name(CARD_NAMES, what="card"), S.Name(RETAINER_NAMES, what="retainer")
    oni = S.Name(oni_names, what="oni")
    bids = S.seat_list(S.Nullable(S.Int(0, K), none=-1), P, -1)
    player = S.Record({
        "cards": S.Table(card, lambda c: S.Int(0, power[c] - 1)).or_default({WARRIOR: 0}),  # card -> damage
        "knocked_out": S.ListOf(card, unique=True).or_default([]),
        "kibidango": S.Int(0, K).or_default(K),
        "potions": S.Int(0, 3).or_default(0),
        "treasure": S.Int(0, sum(oni_power)).or_default(None),  # checked against oni_taken
        "fresh": S.ListOf(card, unique=True).or_default([]),
        "alive": S.Bool().or_default(None),  # checked: the warrior is in play
    })
    return S.Record({
        "game": S.Const("momotaro").or_default("momotaro"),
        "num_players": S.Int(2, 4),
        "round": S.Int(0, 3).or_default(0).into("round"),
        "phase": S.Name(PHASE_NAMES, what="phase").or_default(None).into("phase"),  # default: bid / choose_oni
        "to_play": S.Int(0, P - 1).or_default(None).into("to_play"),  # default: derived from the phase
        "players": S.ListOf(player, length=P),
        "retainer_order": S.ListOf(retainer, length=NUM_RETAINERS, unique=True).or_default(None).into("hire_deck"),
        "auction": S.Int(0, NUM_RETAINERS).or_default(None).into("hire_pos"),
        "declined": S.ListOf(retainer, unique=True).or_default([]),
        "bids": bids.into("bids"), "additional": bids.into("adds"),
        "bidders": S.seat_list(S.Bool(), P, True).into("bidders"),
        "last_bids": bids.into("last_bids"), "last_additional": bids.into("last_adds"),
        "oni_order": S.ListOf(oni, length=NUM_ONI, unique=True).or_default(None).into("oni_deck"),
        "oni_damage": S.Table(oni, lambda o: S.Int(0, oni_power[o])).or_default({}),
        "oni_taken": S.Table(oni, S.Record({"by": S.Int(0, P - 1), "as": S.Name(TAKEN_AS)})).or_default({}),
        "start_player": S.Int(0, P - 1).or_default(0).into("start_player"),
        "slot": S.Int(0, 30000).or_default(0).into("slot"),
        "target": S.Nullable(oni, none=-1).or_default(-1).into("target"),
        "sent": S.Nullable(S.ListOf(card, min_len=1, unique=True)).or_default(None),
        "pending_damage": S.Int(0, 15).or_default(0).into("pending"),
        "dice": S.Nullable(S.ListOf(S.Int(1, 6), length=2)).or_default(None),
        "outcome": S.Nullable(S.Name(OUTCOMES, what="outcome"), none=-1).or_default(-1).into("outcome"),
        "turns": S.Int(0, max_turns).or_default(0).into("turns"),
        "terminated": S.Bool().or_default(False).into("terminated"),
        "truncated": S.Bool().or_default(False).into("truncated"),
    })


def to_position(cfg: MomotaroConfig, st: MomotaroState, i: int = 0) -> dict[str, Any]:
    sch = schema(cfg)
    out = S.read(sch, st, i)
    player = sch.fields["players"].item  # type: ignore[attr-defined]
    combo, at = int(st.combo[i]), st.oni_at[i]
    out.update({
        "game": "momotaro", "num_players": cfg.num_players,
        "players": [player.dump({
            "cards": {c: st.card_dmg[i, p, c] for c in np.flatnonzero(st.hand[i, p])},
            "knocked_out": np.flatnonzero(st.ko[i, p]), "kibidango": st.kibi[i, p], "potions": st.potions[i, p],
            "treasure": st.treasure[i, p], "fresh": np.flatnonzero(st.fresh[i, p])}) for p in range(cfg.num_players)],
        "declined": sch.fields["declined"].dump(np.flatnonzero(st.declined[i])),
        "oni_damage": sch.fields["oni_damage"].dump(
            {o: st.oni_dmg[i, o] for o in range(NUM_ONI) if at[o] == AT_FIELD and st.oni_dmg[i, o] > 0}),
        "oni_taken": sch.fields["oni_taken"].dump(
            {o: {"by": st.oni_owner[i, o], "as": int(at[o] == AT_POTION)} for o in range(NUM_ONI)
             if at[o] in (AT_TREASURE, AT_POTION)}),
        "sent": None if combo < 0 else [CARD_NAMES[c] for c in COMBOS[combo][1]],
        "dice": None if st.dice[i, 0] == 0 else [int(st.dice[i, 0]), int(st.dice[i, 1])],
    })
    return {key: out[key] for key in sch.fields}


# ---- loading -----------------------------------------------------------------------------------
def from_position(cfg: MomotaroConfig, position: Mapping[str, Any], seed: int = 0) -> MomotaroState:
    key = S.check_seed(seed)
    p = schema(cfg).parse(position, "")
    if p["num_players"] != cfg.num_players:
        raise PositionError("num_players", f"this game has {cfg.num_players} players, the position {p['num_players']}")
    if p["phase"] is None:
        p["phase"] = PHASE_BID if p["round"] == 0 else PHASE_ONI
    phase = p["phase"]
    _check_end(p, phase, cfg)
    st = empty_state(1, cfg)
    st.rng_key[:] = key
    S.store(schema(cfg), p, st)
    owner_of = _load_players(st, p["players"], cfg)
    _load_hiring(st, p, owner_of, phase == PHASE_OVER)
    taken = _load_oni(st, p, cfg)
    for seat in range(cfg.num_players):
        won = sum(int(cfg.tables.oni_power[o]) for o, (by, at) in taken.items() if by == seat and at == AT_TREASURE)
        got = sum(int(YELLOW_POTIONS[o]) for o, (by, at) in taken.items() if by == seat and at == AT_POTION)
        st.treasure[0, seat] = won
        if p["players"][seat]["treasure"] not in (None, won):
            raise PositionError(f"players[{seat}].treasure", f"the oni taken as treasure by this player are worth {won}")
        if st.potions[0, seat] > got:
            raise PositionError(f"players[{seat}].potions", f"only {got} potion(s) were won from yellow oni")
    if p["terminated"] and st.alive[0].any() and (p["round"] < 3 or (st.oni_at[0] == AT_FIELD).any()):
        raise PositionError("terminated", "a game ends when every warrior is knocked out or round 3's oni are all "
                                          "defeated")
    if p["round"] in (1, 2) and p["slot"] >= cfg.tables.slot_limit and phase != PHASE_OVER:
        raise PositionError("slot", f"rounds 1 and 2 have {cfg.tables.slot_limit} turn slots")
    if p["sent"] is not None:
        st.combo[0] = COMBO_BY_CARDS.get(frozenset(p["sent"]), -1)
        if st.combo[0] < 0:
            raise PositionError("sent", f"{[CARD_NAMES[c] for c in p['sent']]} is not one of the 58 legal card sets")
    if p["dice"] is not None:
        st.dice[0] = p["dice"]
    st.to_play[0] = _check_turn(st, p, phase, cfg)
    if phase != PHASE_OVER and not batch.legal_mask(st, cfg)[0].any():
        raise PositionError("phase", "no legal action from this position")
    return st


def _check_end(p: Mapping[str, Any], phase: int, cfg: MomotaroConfig) -> None:
    """Phase 'over' goes with a terminated or truncated game, reachable only after the hiring."""
    rnd, terminated, truncated = p["round"], p["terminated"], p["truncated"]
    hiring = phase in (PHASE_BID, PHASE_ADD, PHASE_TAKE)
    if phase != PHASE_OVER and hiring != (rnd == 0):
        raise PositionError("phase", f"phase {PHASE_NAMES[phase]!r} does not belong to round {rnd}")
    if (phase == PHASE_OVER) != (terminated or truncated):
        raise PositionError("phase", "phase 'over' goes with terminated or truncated, and only with them")
    if terminated and truncated:
        raise PositionError("truncated", "a game ends either by its rules (terminated) or by max_turns (truncated)")
    if phase == PHASE_OVER and rnd == 0:
        raise PositionError("round", "a game cannot end during the hiring (round 0)")
    if truncated and p["turns"] != cfg.max_turns:
        raise PositionError("turns", f"a game is truncated when its turns reach max_turns={cfg.max_turns}")
    if phase != PHASE_OVER and p["turns"] >= cfg.max_turns:
        raise PositionError("turns", f"a live game has had fewer than max_turns={cfg.max_turns} turns")


def _load_players(st: MomotaroState, players: list[dict[str, Any]], cfg: MomotaroConfig) -> dict[int, int]:
    """Cards in play (with damage), knocked out, kibidango, potions, fresh damage; returns retainer -> owner."""
    owner_of: dict[int, int] = {}
    for seat, pl in enumerate(players):
        f = f"players[{seat}]"
        for c, dmg in pl["cards"].items():
            st.hand[0, seat, c], st.card_dmg[0, seat, c] = True, dmg
        for c in pl["knocked_out"]:
            if st.hand[0, seat, c]:
                raise PositionError(f"{f}.knocked_out", f"{CARD_NAMES[c]} is also in play")
            st.ko[0, seat, c], st.card_dmg[0, seat, c] = True, cfg.tables.card_power[c]
        if not (st.hand[0, seat, WARRIOR] or st.ko[0, seat, WARRIOR]):
            raise PositionError(f"{f}.cards", "every player has a warrior W, in play or knocked out")
        for c in np.flatnonzero(st.hand[0, seat, 1:] | st.ko[0, seat, 1:]) + 1:
            if owner_of.setdefault(int(c), seat) != seat:
                raise PositionError(f"{f}.cards", f"{CARD_NAMES[c]} also belongs to player {owner_of[int(c)]}")
        st.alive[0, seat] = st.hand[0, seat, WARRIOR]
        st.kibi[0, seat], st.potions[0, seat] = pl["kibidango"], pl["potions"]
        for c in pl["fresh"]:
            if not st.hand[0, seat, c]:  # (it may have been healed back to 0 since)
                raise PositionError(f"{f}.fresh", f"{CARD_NAMES[c]} is not a card in play")
            st.fresh[0, seat, c] = True
        if pl["alive"] is not None and pl["alive"] != bool(st.alive[0, seat]):
            raise PositionError(f"{f}.alive", "alive means the warrior W is in play")
    return owner_of


def _load_hiring(st: MomotaroState, p: dict[str, Any], owner_of: dict[int, int], over: bool) -> None:
    """The deal order of the retainers, the auction index, the declined retainers and the bids."""
    declined = p["declined"]
    if any(r + 1 in owner_of for r in declined):
        raise PositionError("declined", "a declined retainer belongs to nobody")
    gone = {c - 1 for c in owner_of} | set(declined)
    order = p["retainer_order"] or sorted(gone) + sorted(set(range(NUM_RETAINERS)) - gone)
    rnd = p["round"]
    auction = p["auction"] if p["auction"] is not None else len(gone) if rnd == 0 else NUM_RETAINERS
    if set(order[:auction]) != gone:
        raise PositionError("auction", "the retainers before the auction index must be exactly those hired or "
                                       "declined")
    if (rnd == 0) != (auction < NUM_RETAINERS) and not over:
        raise PositionError("auction", "hiring goes on until all 9 retainers were auctioned, then battle starts")
    if over and auction < NUM_RETAINERS:
        raise PositionError("auction", "a game cannot end before all 9 retainers were auctioned")
    st.hire_deck[0], st.hire_pos[0], st.declined[0, declined] = order, auction, True
    for seat, (bid, add) in enumerate(zip(p["bids"], p["additional"])):
        if max(bid, 0) + max(add, 0) > st.kibi[0, seat]:
            raise PositionError(f"bids[{seat}]", "a bid (plus its additional bid) cannot exceed the kibidango held")


def _load_oni(st: MomotaroState, p: dict[str, Any], cfg: MomotaroConfig) -> dict[int, tuple[int, int]]:
    """The oni deal order, the oni taken (as treasure or potion) and the damage on field oni."""
    taken: dict[int, tuple[int, int]] = {}
    names, oni_power = cfg.tables.oni_names, cfg.tables.oni_power
    for o, info in p["oni_taken"].items():
        if info["as"] == 1 and not IS_YELLOW[o]:
            raise PositionError(f"oni_taken.{names[o]}.as", "'treasure', or 'potion' for a yellow oni")
        taken[o] = (info["by"], AT_TREASURE if info["as"] == 0 else AT_POTION)
    damage = p["oni_damage"]
    first = sorted(set(taken) | set(damage))
    oni_order = p["oni_order"] or first + sorted(set(range(NUM_ONI)) - set(first))
    dealt = set(oni_order[:4 * p["round"]])
    if not set(taken) <= dealt:
        raise PositionError("oni_taken", f"only oni dealt by round {p['round']} can have been defeated")
    st.oni_deck[0] = oni_order
    for o in range(NUM_ONI):
        if o in taken:
            st.oni_owner[0, o], st.oni_at[0, o] = taken[o]
            st.oni_dmg[0, o] = oni_power[o]  # a defeated oni carries its full damage
        elif o in dealt:
            st.oni_at[0, o] = AT_FIELD
    for o, dmg in damage.items():
        if st.oni_at[0, o] != AT_FIELD:
            raise PositionError(f"oni_damage.{names[o]}", "only oni on the field carry damage")
        if dmg >= oni_power[o] and not (p["phase"] == PHASE_YELLOW and o == p["target"]):
            raise PositionError(f"oni_damage.{names[o]}", f"an oni with damage {int(oni_power[o])} is defeated")
        st.oni_dmg[0, o] = dmg
    return taken


def _check_turn(st: MomotaroState, p: dict[str, Any], phase: int, cfg: MomotaroConfig) -> int:
    """Whose turn it is and the phase's own consistency (bids, target, cards sent, pending damage)."""
    P, bids, adds, bidders = cfg.num_players, p["bids"], p["additional"], p["bidders"]
    if phase in (PHASE_BID, PHASE_ADD):
        waiting = [s for s in range(P) if bidders[s] and (bids if phase == PHASE_BID else adds)[s] < 0]
        default_tp = waiting[0] if waiting else 0
    else:
        default_tp = 0 if phase == PHASE_TAKE else (p["start_player"] + p["slot"]) % P
    to_play = default_tp if p["to_play"] is None else p["to_play"]
    if phase == PHASE_BID:
        if not all(bidders) or any(a >= 0 for a in adds):
            raise PositionError("bidders", "in the first bid every seat bids and nobody has an additional bid")
        if any((bids[s] >= 0) != (s < to_play) for s in range(P)):
            raise PositionError("bids", f"seats bid in order: seats before {to_play} have bid, the rest not yet")
    elif phase in (PHASE_ADD, PHASE_TAKE):
        if min(bids) < 0:
            raise PositionError("bids", "the additional stage follows a complete first bid")
        tied = [b == max(bids) for b in bids]
        if bidders != tied or sum(tied) < 2:
            raise PositionError("bidders", "the additional bidders are the seats tied for the highest bid")
        if phase == PHASE_ADD:
            if not bidders[to_play] or any((adds[s] >= 0) != (bidders[s] and s < to_play) for s in range(P)):
                raise PositionError("additional", f"tied seats before {to_play} have bid, the rest not yet")
        else:
            if any((adds[s] >= 0) != bidders[s] for s in range(P)):
                raise PositionError("additional", "every tied seat has made its additional bid")
            top = max(adds)
            if adds[to_play] != top or sum(a == top for a in adds) < 2:
                raise PositionError("to_play", "the janken winner is one of the seats still tied")
    elif phase != PHASE_OVER:
        if any(b >= 0 for b in bids + adds) or not all(bidders):
            raise PositionError("bids", "no bids are open during the battle")
        if to_play != default_tp:
            raise PositionError("to_play", f"the seat to play is (start_player + slot) % {P} = {default_tp}")
        if not st.alive[0, to_play]:
            raise PositionError("to_play", "an eliminated player does not play")
        if not (st.oni_at[0] == AT_FIELD).any():
            raise PositionError("oni_damage", "a battle turn needs an oni on the field")
    t, combo, pending = p["target"], int(st.combo[0]), int(st.pending[0])
    if phase in (PHASE_COMBO, PHASE_YELLOW) and (t < 0 or st.oni_at[0, t] != AT_FIELD):
        raise PositionError("target", "the oni attacked this turn is on the field")
    if phase == PHASE_ASSIGN and (t < 0 or not (st.oni_at[0, t] == AT_FIELD or st.oni_owner[0, t] == to_play)):
        raise PositionError("target", "the oni attacked this turn is on the field, or was just defeated in a draw")
    if phase in (PHASE_ASSIGN, PHASE_YELLOW):
        if combo < 0 or not st.hand[0, to_play, COMBO_CARDS[combo]].all():
            raise PositionError("sent", "the cards sent this turn are in play")
    if phase == PHASE_ASSIGN and (COMBO_SIZE[combo] < 2 or pending < 1):
        raise PositionError("pending_damage", "assigning damage needs damage and a set of two or more cards")
    if phase == PHASE_YELLOW:
        if not IS_YELLOW[t] or st.oni_dmg[0, t] != cfg.tables.oni_power[t]:
            raise PositionError("target", "the yellow reward follows the defeat of a yellow oni (damage = power)")
        if pending > 1:
            raise PositionError("pending_damage", "after a defeat only a draw's 1 damage can be pending")
    elif phase != PHASE_ASSIGN and pending != 0:
        raise PositionError("pending_damage", "damage is pending only while it is assigned")
    seat = to_play
    if phase == PHASE_HEAL and not rules.can_heal_any(st.hand[0, seat], st.card_dmg[0, seat], st.fresh[0, seat],
                                                      st.potions[0, seat], st.kibi[0, seat], int(cfg.heal_any_turn)):
        raise PositionError("phase", "the heal step needs a card that can be healed")
    return to_play
