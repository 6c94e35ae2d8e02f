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

from envs.core import rng
from envs.core.errors import PositionError
from envs.core.positions import as_int as _int
from envs.core.positions import check_header

from . import cards as C
from . import rules
from .board import NUM_PROVINCES, PROVINCE_NAMES, province_index
from .config import NigejozuConfig
from .state import CARD, DICE, FACTION_NAMES, OVER, PHASE_NAMES, REROLLED, NigejozuState, empty_state

KNOWN_KEYS = {"game", "chips", "troops", "hands", "removed", "escape", "cards", "used", "to_play", "phase", "dice",
              "card", "turn", "terminated", "battle"}
CARD_KEYS = {"effect", "step", "selected", "picks"}


def _faction_or_none(v: int) -> str | None:
    return FACTION_NAMES[v] if v >= 0 else None


def battle_record(st: NigejozuState, i: int) -> dict[str, Any]:
    """The battle phase's results of a finished game, in chip order."""
    order = [int(st.prov_of[i, n]) for n in range(2, 13)]
    return {
        "chips_taken": {PROVINCE_NAMES[p]: _faction_or_none(int(st.winner_of[i, p])) for p in order},
        "reinforcements": {PROVINCE_NAMES[p]: [int(x) for x in st.reinf[i, p]] for p in order},
        "score": {f: int(st.score[i, k]) for k, f in enumerate(FACTION_NAMES)},
        "winner": FACTION_NAMES[int(rules.winner(st.take(i))[0])],
    }


def to_position(st: NigejozuState, i: int, cfg: NigejozuConfig) -> dict[str, Any]:
    phase = int(st.phase[i])
    pos: dict[str, Any] = {
        "game": "nigejozu",
        "chips": {PROVINCE_NAMES[p]: int(st.chip[i, p]) for p in range(NUM_PROVINCES)},
        "troops": {PROVINCE_NAMES[p]: [int(x) for x in st.troops[i, p]] for p in range(NUM_PROVINCES)},
        "hands": {f: int(st.hand[i, k]) for k, f in enumerate(FACTION_NAMES)},
        "removed": {f: int(st.removed[i, k]) for k, f in enumerate(FACTION_NAMES)},
        "escape": _faction_or_none(int(st.escape[i])),
        "cards": {f: [C.EFFECT_NAMES[e] for e in np.flatnonzero(st.held[i, k])] for k, f in enumerate(FACTION_NAMES)},
        "used": {f: (C.EFFECT_NAMES[int(st.used[i, k])] if st.used[i, k] >= 0 else None)
                 for k, f in enumerate(FACTION_NAMES)},
        "to_play": FACTION_NAMES[int(st.to_play[i])],
        "phase": PHASE_NAMES[phase],
        "turn": int(st.turn[i]),
        "terminated": bool(st.terminated[i]),
    }
    if phase in (DICE, REROLLED):
        pos["dice"] = [int(d) for d in st.dice[i]]
    if phase == CARD:
        sel = int(st.selected[i])
        pos["card"] = {"effect": C.EFFECT_NAMES[int(st.effect[i])], "step": int(st.card_step[i]),
                       "selected": PROVINCE_NAMES[sel] if sel >= 0 else None, "picks": int(st.picks[i])}
    if phase == OVER:
        pos["battle"] = battle_record(st, i)
    return pos


# ---- loading -----------------------------------------------------------------------------------

def _faction(value: Any, field: str) -> int:
    if isinstance(value, str) and value.lower() in FACTION_NAMES:
        return FACTION_NAMES.index(value.lower())
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and int(value) in (0, 1):
        return int(value)
    raise PositionError(field, f"expected 'hojo' or 'ashikaga', got {value!r}")


def _per_faction(value: Any, field: str) -> list[Any]:
    """``{"hojo": x, "ashikaga": y}`` or ``[x, y]`` -> ``[x, y]``."""
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - set(FACTION_NAMES))
        if unknown:
            raise PositionError(f"{field}.{unknown[0]}", "unknown faction; factions are 'hojo' and 'ashikaga'")
        missing = [f for f in FACTION_NAMES if f not in value]
        if missing:
            raise PositionError(f"{field}.{missing[0]}", "required")
        return [value[f] for f in FACTION_NAMES]
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return list(value)
    raise PositionError(field, f"expected {{'hojo': ..., 'ashikaga': ...}}, got {value!r}")


def _per_province(value: Any, field: str, required: bool) -> dict[int, Any]:
    """``{name: x}`` or a list of 11 entries in map order -> ``{province index: x}``."""
    if isinstance(value, (list, tuple)):
        if len(value) != NUM_PROVINCES:
            raise PositionError(field, f"a list needs {NUM_PROVINCES} entries in map order, got {len(value)}")
        return dict(enumerate(value))
    if not isinstance(value, Mapping):
        raise PositionError(field, f"expected a dict of province name -> value, got {value!r}")
    out: dict[int, Any] = {}
    for name, v in value.items():
        try:
            p = province_index(name)
        except ValueError as e:
            raise PositionError(f"{field}.{name}", str(e)) from None
        if p in out:
            raise PositionError(f"{field}.{name}", f"province {PROVINCE_NAMES[p]} given twice")
        out[p] = v
    if required and len(out) != NUM_PROVINCES:
        missing = [PROVINCE_NAMES[p] for p in range(NUM_PROVINCES) if p not in out]
        raise PositionError(f"{field}.{missing[0]}", "every province needs a value")
    return out


def _effect(value: Any, field: str) -> int:
    try:
        return C.effect_index(value)
    except ValueError as e:
        raise PositionError(field, str(e)) from None


def _province(value: Any, field: str) -> int:
    try:
        return province_index(value)
    except ValueError as e:
        raise PositionError(field, str(e)) from None


def from_position(position: Mapping[str, Any], cfg: NigejozuConfig, seed: int = 0) -> NigejozuState:
    check_header(position, "nigejozu", KNOWN_KEYS, ("chips", "cards", "to_play"))
    get = position.get
    st = empty_state(1)
    st.rng_key[:] = rng.keys_from_seeds(np.array([seed], dtype=np.uint64))
    total = cfg.troops_per_player

    # Chips: a bijection provinces <-> 2..12.
    chips = _per_province(position["chips"], "chips", required=True)
    for p, c in chips.items():
        st.chip[0, p] = _int(c, f"chips.{PROVINCE_NAMES[p]}", 2, 12)
    if sorted(st.chip[0].tolist()) != list(range(2, 13)):
        raise PositionError("chips", f"each chip 2..12 must be on exactly one province, got {st.chip[0].tolist()}")
    st.prov_of[0, st.chip[0]] = np.arange(NUM_PROVINCES)

    # Troops, hands, removed: each side's pieces add up to troops_per_player.
    for p, v in _per_province(get("troops", {}), "troops", required=False).items():
        field = f"troops.{PROVINCE_NAMES[p]}"
        pair = _per_faction(v, field)
        st.troops[0, p] = [_int(x, f"{field}[{k}]", 0, total) for k, x in enumerate(pair)]
    removed = [_int(x, f"removed.{FACTION_NAMES[k]}", 0, total)
               for k, x in enumerate(_per_faction(get("removed", [0, 0]), "removed"))]
    if cfg.muhon_returns_to_hand and any(removed):
        raise PositionError("removed", "troops leave the game only with muhon_returns_to_hand=False")
    st.removed[0] = removed
    board = st.troops[0].sum(axis=0, dtype=np.int64)
    if "hands" in position:
        given = _per_faction(get("hands"), "hands")
        hands = [_int(x, f"hands.{FACTION_NAMES[k]}", 0, total) for k, x in enumerate(given)]
    else:
        hands = [int(total - board[k] - removed[k]) for k in range(2)]
    for k in range(2):
        if board[k] + hands[k] + removed[k] != total:
            raise PositionError(f"hands.{FACTION_NAMES[k]}", f"board {board[k]} + hand {hands[k]} + removed "
                                                             f"{removed[k]} must be {total} (troops_per_player)")
    st.hand[0] = hands

    # Cards and markers.
    faces = cfg.faces
    owner_card: dict[int, int] = {}  # physical card -> side holding it
    card_lists = _per_faction(position["cards"], "cards")
    for k, lst in enumerate(card_lists):
        field = f"cards.{FACTION_NAMES[k]}"
        if not isinstance(lst, (list, tuple)) or len(lst) > 3:
            raise PositionError(field, f"expected a list of at most 3 card names, got {lst!r}")
        for j, name in enumerate(lst):
            e = _effect(name, f"{field}[{j}]")
            if st.held[0, k, e]:
                raise PositionError(field, f"{C.EFFECT_NAMES[e]} listed twice")
            matches = np.flatnonzero(faces[:, k] == e)
            if not len(matches):
                raise PositionError(f"{field}[{j}]", f"{C.EFFECT_NAMES[e]} is not a {FACTION_NAMES[k]} face "
                                                     f"under card_model={cfg.card_model!r}")
            card = int(matches[0])
            if owner_card.get(card, k) != k:
                raise PositionError(f"{field}[{j}]", f"the card carrying {C.EFFECT_NAMES[e]} is held by the other side")
            owner_card[card] = k
            st.held[0, k, e] = True
    for k, v in enumerate(_per_faction(get("used", [None, None]), "used")):
        if v is not None:
            e = _effect(v, f"used.{FACTION_NAMES[k]}")
            if not st.held[0, k, e]:
                raise PositionError(f"used.{FACTION_NAMES[k]}", f"{C.EFFECT_NAMES[e]} is not among that side's cards")
            st.used[0, k] = e

    # Whose turn, the escape chip and the phase.
    me = _faction(position["to_play"], "to_play")
    st.to_play[0] = me
    escape = None if get("escape") is None else _faction(get("escape"), "escape")
    st.escape[0] = -1 if escape is None else escape
    phase_name = get("phase", "turn_start")
    if phase_name not in PHASE_NAMES:
        raise PositionError("phase", f"expected one of {list(PHASE_NAMES)}, got {phase_name!r}")
    phase = PHASE_NAMES.index(phase_name)
    st.phase[0] = phase
    st.turn[0] = _int(get("turn", 0), "turn", 0, 10_000)
    empty = [h == 0 for h in hands]
    if escape is not None and not empty[escape]:
        raise PositionError("escape", "the 逃げチップ goes to a side whose hand is empty")
    if any(empty) and escape is None:
        raise PositionError("escape", "once a hand is empty, the side that emptied it first holds the 逃げチップ")
    if phase == OVER:
        if not all(empty):
            raise PositionError("phase", "the battle phase comes only after both hands are empty")
    else:
        if all(empty):
            raise PositionError("phase", "both hands are empty: the phase must be 'over'")
        if empty[me]:
            raise PositionError("to_play", "a side with an empty hand never gets a turn")
    terminated = get("terminated", phase == OVER)
    if not isinstance(terminated, (bool, np.bool_)) or bool(terminated) != (phase == OVER):
        raise PositionError("terminated", "a game is terminated exactly when its phase is 'over'")
    for key, allowed in (("dice", (DICE, REROLLED)), ("card", (CARD,)), ("battle", (OVER,))):
        if key in position and phase not in allowed:
            raise PositionError(key, f"only in phase(s) {[PHASE_NAMES[x] for x in allowed]}")

    if phase in (DICE, REROLLED):
        dice = get("dice")
        if not isinstance(dice, (list, tuple)) or len(dice) != 3:
            raise PositionError("dice", f"expected three dice, got {dice!r}")
        st.dice[0] = sorted(_int(d, f"dice[{k}]", 1, 6) for k, d in enumerate(dice))
    if phase == CARD:
        _load_card(st, get("card"), cfg)

    if phase == OVER:
        rules.battle(st, np.array([0]), cfg)
        st.rewards[:] = 0.0  # loading is not a step: nothing was earned
        if "battle" in position and position["battle"] != battle_record(st, 0):
            raise PositionError("battle", "does not match the battle the board produces")
    elif not rules.legal_mask(st, cfg)[0].any():
        raise PositionError("card" if phase == CARD else "phase", "no legal action from this position")
    return st


def _load_card(st: NigejozuState, card: Any, cfg: NigejozuConfig) -> None:
    """The card in progress: its effect, step, chosen source and picks, checked to be completable."""
    if not isinstance(card, Mapping):
        raise PositionError("card", f"phase 'card' needs {{'effect', 'step', 'selected', 'picks'}}, got {card!r}")
    unknown = sorted(set(card) - CARD_KEYS)
    if unknown:
        raise PositionError(f"card.{unknown[0]}", f"unknown key; known keys: {sorted(CARD_KEYS)}")
    if "effect" not in card:
        raise PositionError("card.effect", "required")
    me = int(st.to_play[0])
    e = _effect(card["effect"], "card.effect")
    if int(st.used[0, me]) != e:
        raise PositionError("card.effect", "the card in play must be the mover's used card (its marker)")
    if (st.hand[0] == 0).any():
        raise PositionError("card", "cards are used only while both hands hold troops")
    step = _int(card.get("step", 0), "card.step", 0, 1 if C.TWO_STEP[e] else 0)
    picks = _int(card.get("picks", 0), "card.picks", 0,
                 cfg.taikyaku_n - 1 if e == C.TAIKYAKU else (cfg.troops_per_player if e == C.JOURAKU else 0))
    st.phase[0], st.effect[0], st.card_step[0], st.picks[0] = CARD, e, step, picks
    sel = card.get("selected")
    if step == 1:
        if sel is None:
            raise PositionError("card.selected", "step 1 needs the province chosen in step 0")
        x = _province(sel, "card.selected")
        st.card_step[0] = 0  # X must be a legal step-0 choice on this board (nothing moves before step 1)
        if not (int(rules.card_choices(st, np.array([0]))[0]) >> x) & 1:
            raise PositionError("card.selected", f"{PROVINCE_NAMES[x]} is not a legal choice for {C.EFFECT_NAMES[e]}")
        st.card_step[0], st.selected[0] = 1, x
    elif sel is not None:
        raise PositionError("card.selected", "only step 1 of a two-step card has a selected province")
    if e == C.TAIKYAKU and st.troops[0, :, me].sum() < cfg.taikyaku_n - picks:
        raise PositionError("card.picks", "not enough troops on the board to finish 退却")
    if e == C.JOURAKU and not int(rules.card_choices(st, np.array([0]))[0]):
        raise PositionError("card", "上洛 ends by itself once no troop is left next to 京")
