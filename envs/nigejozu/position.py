"""JSON-safe positions: ``to_position`` / ``from_position`` for one game.

Provinces, factions and cards are named (Japanese names; romaji and indices are accepted on load).
Only ``chips``, ``cards`` and ``to_play`` are required; other keys default to the start of a game::

    {
      "game": "nigejozu",
      "chips": {"九州": 8, "四国": 3, ...},               # all 11 provinces, chips 2..12 once each
      "troops": {"京": [2, 1], ...},                      # [hojo, ashikaga]; omitted provinces hold none
      "hands": {"hojo": 15, "ashikaga": 17},              # default: what is not on the board
      "removed": {"hojo": 0, "ashikaga": 0},              # 謀反 with muhon_returns_to_hand=False
      "escape": null | "hojo" | "ashikaga",               # the 逃げチップ
      "cards": {"hojo": ["神力", "退却", "忍"], "ashikaga": ["山越え", "上洛", "物見"]},
      "used": {"hojo": null | "<card>", "ashikaga": null},
      "to_play": "hojo",
      "phase": "turn_start" | "dice" | "rerolled" | "card" | "over",
      "dice": [3, 4, 5],                                  # phases dice and rerolled
      "card": {"effect": "人質", "step": 0 | 1, "selected": null | "<province>", "picks": 0},  # phase card
      "turn": 0,
      "terminated": false,
      "battle": {...}                                     # written for finished games; recomputed on load
    }

``cards`` lists the usable (own-faction) faces each side holds, at most 3; under ``paired6`` each must
be a face of that side and the two sides' physical cards differ. Each side's board + hand + removed
must equal ``troops_per_player``. Loading rejects positions the rules cannot reach or cannot
continue from (e.g. a card step without a legal target) with :class:`PositionError` naming the field.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from yuugi.envs.core import schema as S
from yuugi.envs.core.errors import PositionError

from . import actions as A
from . import batch
from . import cards as C
from . import rules
from .board import NUM_PROVINCES, PROVINCE_NAMES, PROVINCE_ROMAJI
from .config import NigejozuConfig
from .state import (FACTION_NAMES, PHASE_CARD, PHASE_DICE, PHASE_NAMES, PHASE_OVER, PHASE_REROLLED, PHASE_TURN_START,
                    NigejozuState, empty_state)

MAX_TROOPS = 18  # the largest troops_per_player; the side's exact total is checked across fields
FACTION = S.Name(FACTION_NAMES, aliases={f: k for k, f in enumerate(FACTION_NAMES)}, indices=True, what="faction")
PROVINCE = S.Name(PROVINCE_NAMES, aliases={r.lower(): k for k, r in enumerate(PROVINCE_ROMAJI)}, indices=True,
                  what="province")
EFFECT = S.Name(C.EFFECT_NAMES, aliases={r.lower(): k for k, r in enumerate(C.EFFECT_ROMAJI)}, indices=True,
                what="strategy card")


def per_faction(value: S.Spec, writes_list: bool = False) -> S.Table:
    """``{"hojo": x, "ashikaga": y}`` or ``[x, y]``."""
    return S.Table(FACTION, value, complete=True, as_list=True, writes_list=writes_list)


def per_province(value: S.Spec, complete: bool = True) -> S.Table:
    """``{province: x}`` or a list of 11 entries in map order."""
    return S.Table(PROVINCE, value, complete=complete, as_list=True)


BATTLE = S.Record({
    "chips_taken": per_province(S.Nullable(FACTION, none=-1)),
    "reinforcements": per_province(S.ListOf(S.Int(0, 1000), length=2)),
    "score": per_faction(S.Int(0, 77)),  # 2 + 3 + ... + 12
    "winner": FACTION,
})
TROOPS = S.Int(0, MAX_TROOPS)
# Every key of a position: its parser, range and default, and the state array it is (``.into``).
SCHEMA = S.Record({
    "game": S.Const("nigejozu").or_default("nigejozu"),
    "chips": per_province(S.Int(2, 12)).into("chip"),
    "troops": per_province(per_faction(TROOPS, writes_list=True), complete=False).or_default({}).into("troops"),
    "hands": per_faction(TROOPS).or_default(None).into("hand"),  # default: what is not on the board
    "removed": per_faction(TROOPS).or_default({0: 0, 1: 0}).into("removed"),
    "escape": S.Nullable(FACTION, none=-1).or_default(-1).into("escape"),
    "cards": per_faction(S.ListOf(EFFECT, max_len=3, unique=True)),
    "used": per_faction(S.Nullable(EFFECT, none=-1)).or_default({0: -1, 1: -1}).into("used"),
    "to_play": FACTION.into("to_play"),
    "phase": S.Name(PHASE_NAMES, what="phase").or_default(PHASE_TURN_START).into("phase"),
    "turn": S.Int(0, 10_000).or_default(0).into("turn"),
    "terminated": S.Bool().or_default(None).into("terminated"),  # default: exactly when the phase is 'over'
    "dice": S.ListOf(S.Int(1, 6), length=3).or_default(None),
    "card": S.Record({
        "effect": EFFECT, "step": S.Int(0, 1).or_default(0),
        "selected": S.Nullable(PROVINCE, none=-1).or_default(-1), "picks": TROOPS.or_default(0),
    }).or_default(None),
    "battle": BATTLE.or_default(None),  # written for finished games; recomputed and compared on load
})


def battle_record(st: NigejozuState, i: int) -> dict[str, Any]:
    """The battle phase's results of a finished game, in chip order."""
    order = [int(st.prov_of[i, n]) for n in range(2, 13)]
    return BATTLE.dump({"chips_taken": {p: st.winner_of[i, p] for p in order},
                        "reinforcements": {p: st.reinf[i, p] for p in order},
                        "score": st.score[i], "winner": rules.winner(st.view(), i)})


def to_position(st: NigejozuState, i: int, cfg: NigejozuConfig) -> dict[str, Any]:
    phase = int(st.phase[i])
    out = S.read(SCHEMA, st, i)
    out.update(game="nigejozu", cards=SCHEMA.fields["cards"].dump([np.flatnonzero(held) for held in st.held[i]]))
    if phase in (PHASE_DICE, PHASE_REROLLED):
        out["dice"] = [int(d) for d in st.dice[i]]
    if phase == PHASE_CARD:
        out["card"] = SCHEMA.fields["card"].dump({"effect": st.effect[i], "step": st.card_step[i],
                                                  "selected": st.selected[i], "picks": st.picks[i]})
    if phase == PHASE_OVER:
        out["battle"] = battle_record(st, i)
    return {key: out[key] for key in SCHEMA.fields if key in out}


# ---- loading -----------------------------------------------------------------------------------
def from_position(position: Mapping[str, Any], cfg: NigejozuConfig, seed: int = 0) -> NigejozuState:
    key = S.check_seed(seed)
    p = SCHEMA.parse(position, "")
    if sorted(p["chips"].values()) != list(range(2, 13)):
        raise PositionError("chips", "each chip 2..12 must be on exactly one province, got "
                                     f"{SCHEMA.fields['chips'].dump(p['chips'])}")
    p["hands"] = _troops_off_board(p, cfg)
    p["terminated"] = _check_turn(p)
    st = empty_state(1)
    st.rng_key[:] = key
    S.store(SCHEMA, p, st)
    st.prov_of[0, st.chip[0]] = np.arange(NUM_PROVINCES)
    _load_cards(st, p, cfg)
    phase = p["phase"]
    if phase in (PHASE_DICE, PHASE_REROLLED):
        st.dice[0] = sorted(p["dice"])
    if phase == PHASE_CARD:
        _load_card(st, p["card"], cfg)
    tab = rules.tables(cfg)
    if phase == PHASE_OVER:
        rules.battle(st.view(), 0, tab)
        st.rewards[:] = 0.0  # loading is not a step: nothing was earned
        if p["battle"] is not None and p["battle"] != BATTLE.parse(battle_record(st, 0), "battle"):
            raise PositionError("battle", "does not match the battle the board produces")
    elif not _legal_mask(st, tab).any():
        raise PositionError("card" if phase == PHASE_CARD else "phase", "no legal action from this position")
    return st


def _troops_off_board(p: Mapping[str, Any], cfg: NigejozuConfig) -> dict[int, int]:
    """Each side's hand (derived when not given): board + hand + removed = troops_per_player, none negative."""
    total, removed, hands = cfg.troops_per_player, p["removed"], {}
    if cfg.muhon_returns_to_hand and any(removed.values()):
        raise PositionError("removed", "troops leave the game only with muhon_returns_to_hand=False")
    for k, side in enumerate(FACTION_NAMES):
        board = sum(pair[k] for pair in p["troops"].values())
        if p["hands"] is None and board + removed[k] > total:
            raise PositionError("troops", f"{side} has {board} troops on the board and {removed[k]} removed, more "
                                          f"than troops_per_player={total}")
        hands[k] = total - board - removed[k] if p["hands"] is None else p["hands"][k]
        if board + hands[k] + removed[k] != total:
            raise PositionError(f"hands.{side}", f"board {board} + hand {hands[k]} + removed {removed[k]} must be "
                                                 f"{total} (troops_per_player)")
    return hands


def _load_cards(st: NigejozuState, p: Mapping[str, Any], cfg: NigejozuConfig) -> None:
    """Each side's usable faces (faces of its own faction; one physical card never on both sides)."""
    owner_card: dict[int, int] = {}  # physical card -> side holding it
    for k, side in enumerate(FACTION_NAMES):
        for j, e in enumerate(p["cards"][k]):
            where = f"cards.{side}[{j}]"
            matches = np.flatnonzero(cfg.faces[:, k] == e)
            if not len(matches):
                raise PositionError(where, f"{C.EFFECT_NAMES[e]} is not a {side} face under "
                                           f"card_model={cfg.card_model!r}")
            if owner_card.setdefault(int(matches[0]), k) != k:
                raise PositionError(where, f"the card carrying {C.EFFECT_NAMES[e]} is held by the other side")
            st.held[0, k, e] = True
        used = p["used"][k]
        if used >= 0 and not st.held[0, k, used]:
            raise PositionError(f"used.{side}", f"{C.EFFECT_NAMES[used]} is not among that side's cards")


def _check_turn(p: Mapping[str, Any]) -> bool:
    """The escape chip, whose turn it is and the phase agree with the hands; returns ``terminated``."""
    phase, me, escape = p["phase"], p["to_play"], p["escape"]
    empty = [p["hands"][k] == 0 for k in range(2)]
    if escape >= 0 and not empty[escape]:
        raise PositionError("escape", "the 逃げチップ goes to a side whose hand is empty")
    if any(empty) and escape < 0:
        raise PositionError("escape", "once a hand is empty, the side that emptied it first holds the 逃げチップ")
    if phase == PHASE_OVER:
        if not all(empty):
            raise PositionError("phase", "the battle phase comes only after both hands are empty")
    elif all(empty):
        raise PositionError("phase", "both hands are empty: the phase must be 'over'")
    elif empty[me]:
        raise PositionError("to_play", "a side with an empty hand never gets a turn")
    if p["terminated"] is not None and p["terminated"] != (phase == PHASE_OVER):
        raise PositionError("terminated", "a game is terminated exactly when its phase is 'over'")
    for key, allowed in (("dice", (PHASE_DICE, PHASE_REROLLED)), ("card", (PHASE_CARD,))):
        if (p[key] is not None) != (phase in allowed):
            raise PositionError(key, f"given exactly in phase(s) {[PHASE_NAMES[x] for x in allowed]}")
    if p["battle"] is not None and phase != PHASE_OVER:
        raise PositionError("battle", "only in phase 'over'")
    return phase == PHASE_OVER


def _load_card(st: NigejozuState, card: Mapping[str, Any], cfg: NigejozuConfig) -> None:
    """The card in progress: its effect, step, chosen source and picks, checked to be completable."""
    me, e = int(st.to_play[0]), card["effect"]
    if int(st.used[0, me]) != e:
        raise PositionError("card.effect", "the card in play must be the mover's used card (its marker)")
    if (st.hand[0] == 0).any():
        raise PositionError("card", "cards are used only while both hands hold troops")
    if card["step"] and not C.TWO_STEP[e]:
        raise PositionError("card.step", f"{C.EFFECT_NAMES[e]} has a single step (0)")
    most = cfg.taikyaku_n - 1 if e == C.TAIKYAKU else (cfg.troops_per_player if e == C.JOURAKU else 0)
    if card["picks"] > most:
        raise PositionError("card.picks", f"{C.EFFECT_NAMES[e]} allows 0..{most} picks made so far")
    st.effect[0], st.card_step[0], st.picks[0] = e, 0, card["picks"]
    x = card["selected"]
    if card["step"] == 1:
        if x < 0:
            raise PositionError("card.selected", "step 1 needs the province chosen in step 0")
        # X must be a legal step-0 choice on this board (nothing moves before step 1).
        if not (_card_choices(st, cfg) >> x) & 1:
            raise PositionError("card.selected", f"{PROVINCE_NAMES[x]} is not a legal choice for {C.EFFECT_NAMES[e]}")
        st.card_step[0], st.selected[0] = 1, x
    elif x >= 0:
        raise PositionError("card.selected", "only step 1 of a two-step card has a selected province")
    if e == C.TAIKYAKU and st.troops[0, :, me].sum() < cfg.taikyaku_n - card["picks"]:
        raise PositionError("card.picks", "not enough troops on the board to finish 退却")
    if e == C.JOURAKU and not _card_choices(st, cfg):
        raise PositionError("card", "上洛 ends by itself once no troop is left next to 京")


def _legal_mask(st: NigejozuState, tab: rules.Tables) -> np.ndarray:
    """The legal actions of the one game of ``st``."""
    mask = np.zeros((1, A.NUM_ACTIONS), dtype=bool)
    batch.legal_masks(st.view(), tab, mask)
    return mask[0]


def _card_choices(st: NigejozuState, cfg: NigejozuConfig) -> int:
    """The provinces the card in progress of the one game of ``st`` may name next, as a set."""
    return int(rules.card_choices(st.troops, 0, int(st.to_play[0]), int(st.effect[0]), int(st.card_step[0]),
                                  int(st.selected[0]), rules.tables(cfg)))
