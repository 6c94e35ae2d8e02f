"""JSON-safe positions: ``to_position`` / ``from_position`` for one game.

A position is a dict with readable cards (``"S3"``, ``"HT"``, ``"JK"``; suits S H D C, ranks
3–9 T J Q K A 2). Only ``hands`` and ``to_play`` are required; every other key has the default of
a fresh trick in game 1::

    {
      "hands": [["S3", "H4"], [...], [...], [...]],      # seat 0..3
      "to_play": 0,
      "field": null | {"cards": ["S5", "H5"], "owner": 1, "kind": "single" | "group" | "sequence",
                        "joker_as": "S7",                # a sequence's joker, when ambiguous
                        "boosted_low": "7"},             # after 変化: the effective (lowest) rank
      "responses": 0, "passed": [false, false, false, false],
      "lock": null | ["S", "H"], "revolution": false, "eleven_back": false,
      "declaration": 0, "game_index": 0,
      "titles": [null | "daifugo" | "fugo" | "hinmin" | "daihinmin", ...],
      "finish_positions": [null | 1..4, ...], "miyako_candidate": null | seat,
      "phase": "play" | "exchange", "picks_left": 0, "picked": [],
      "discard": [], "removed": [], "played": [[], [], [], []],
      "given": [[]...], "received": [[]...], "known": [[[]...]...],   # known[observer][holder]
      "skip_pending": [0, 0, 0, 0], "series_score": [0, 0, 0, 0],
      "game_steps": 0, "terminated": false,
      # the ninja layer (defaults: the game's loadouts, full uses, 0 points or 1 with 極意)
      "points": [0, 0, 0, 0],
      "jutsu": [{"ashidome": 1, "shuriken": 1}, ...], "uses_left": [{"ashidome": 1, ...}, ...],
      "school": [null | "rai" | "henge" | "bogai", ...], "gokui": [false, ...],
      "jutsu_used": false, "henge_shift": 0, "lock_ignored": false,
      "shuriken_target": null | seat          # with "phase": "shuriken"
    }

The 53 cards must each be in exactly one of the hands, the field, the discard and ``removed``.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from envs.core import rng
from envs.core.errors import PositionError
from envs.core.positions import as_bool as _bool
from envs.core.positions import as_int as _int
from envs.core.positions import check_header

from . import actions as A
from . import tables as T
from .cards import ALL_CARDS, RANK_CHARS, SUIT_CHARS, card_name, mask_names, parse_card
from .config import JUTSU, MAX_POINTS, SCHOOLS, USES_BY_LEVEL, D_WEAK_JOKER, DaifugoConfig
from .state import NUM_SEATS, PHASE_EXCHANGE, PHASE_NAMES, PHASE_SHURIKEN, TITLE_NAMES, DaifugoState

KNOWN_KEYS = {
    "game", "hands", "to_play", "field", "responses", "passed", "lock", "revolution", "eleven_back",
    "declaration", "game_index", "titles", "finish_positions", "miyako_candidate", "phase", "picks_left",
    "picked", "discard", "removed", "played", "given", "received", "known", "skip_pending", "series_score",
    "game_steps", "terminated", "points", "jutsu", "uses_left", "school", "gokui", "jutsu_used", "henge_shift",
    "lock_ignored", "shuriken_target",
}
FIELD_KINDS = {"single": (A.K_SINGLE, A.K_JSINGLE), "group": (A.K_GROUP,), "sequence": (A.K_SEQ,)}


def _names(mask: Any) -> list[str]:
    return mask_names(int(mask))


def to_position(st: DaifugoState, i: int = 0) -> dict[str, Any]:
    fa = int(st.field_action[i])
    field = None
    if fa >= 0:
        kind = {A.K_SINGLE: "single", A.K_JSINGLE: "single", A.K_GROUP: "group", A.K_SEQ: "sequence"}[int(A.KIND[fa])]
        field = {"cards": _names(st.field_cards[i]), "owner": int(st.field_owner[i]), "kind": kind,
                 "label": A.action_label(fa)}
        if A.KIND[fa] == A.K_SEQ and A.HAS_JOKER[fa]:
            r = int(A.LO[fa]) + int(A.JOKER_POS[fa])
            field["joker_as"] = card_name(4 * r + int(A.SEQ_SUIT[fa]))
        if A.LO[fa] >= 0 and int(st.field_elo[i]) != int(A.LO[fa]):
            field["boosted_low"] = RANK_CHARS[int(st.field_elo[i])]  # 変化: the rank others must beat from
    lock = int(st.lock[i])
    return {
        "game": "ninja_daifugo",
        "hands": [_names(st.hands[i, p]) for p in range(NUM_SEATS)],
        "to_play": int(st.to_play[i]),
        "field": field,
        "responses": int(st.responses[i]),
        "passed": [bool(x) for x in st.passed[i]],
        "lock": [SUIT_CHARS[s] for s in range(4) if (lock >> s) & 1] if lock else None,
        "revolution": bool(st.revolution[i]),
        "eleven_back": bool(st.eleven_back[i]),
        "declaration": int(st.declaration[i]),
        "game_index": int(st.game_index[i]),
        "titles": [TITLE_NAMES[int(t)] for t in st.titles[i]],
        "finish_positions": [int(x) or None for x in st.finish_pos[i]],
        "miyako_candidate": int(st.miyako[i]) if st.miyako[i] >= 0 else None,
        "phase": PHASE_NAMES[int(st.phase[i])],
        "picks_left": int(st.picks_left[i]),
        "picked": _names(st.picked[i]),
        "discard": _names(st.discard[i]),
        "removed": _names(st.removed[i]),
        "played": [_names(st.played[i, p]) for p in range(NUM_SEATS)],
        "given": [_names(st.given[i, p]) for p in range(NUM_SEATS)],
        "received": [_names(st.received[i, p]) for p in range(NUM_SEATS)],
        "known": [[_names(st.known[i, o, h]) for h in range(NUM_SEATS)] for o in range(NUM_SEATS)],
        "skip_pending": [int(x) for x in st.skip_pending[i]],
        "series_score": [float(x) for x in st.series_score[i]],
        "game_steps": int(st.game_steps[i]),
        "terminated": bool(st.terminated[i]),
        "points": [int(x) for x in st.points[i]],
        "jutsu": [{JUTSU[j]: int(st.levels[i, p, j]) for j in range(4) if st.levels[i, p, j]} for p in range(NUM_SEATS)],
        "uses_left": [{JUTSU[j]: int(st.uses_left[i, p, j]) for j in range(4) if st.levels[i, p, j]}
                      for p in range(NUM_SEATS)],
        "school": [SCHOOLS[int(x)] for x in st.school[i]],
        "gokui": [bool(x) for x in st.gokui[i]],
        "jutsu_used": bool(st.jutsu_used[i]),
        "henge_shift": int(st.henge_shift[i]),
        "lock_ignored": bool(st.lock_ignored[i]),
        "shuriken_target": int(st.shuriken_target[i]) if st.shuriken_target[i] >= 0 else None,
    }


# ---- loading -----------------------------------------------------------------------------------
def _cards(value: Any, field: str) -> int:
    if not isinstance(value, (list, tuple)):
        raise PositionError(field, f"expected a list of card names, got {value!r}")
    mask = 0
    for k, name in enumerate(value):
        try:
            c = parse_card(name)
        except ValueError as e:
            raise PositionError(f"{field}[{k}]", str(e)) from None
        if (mask >> c) & 1:
            raise PositionError(field, f"card {card_name(c)} listed twice")
        mask |= 1 << c
    return mask


def _seat_list(value: Any, field: str, kind: type, default: Any) -> list[Any]:
    if value is None:
        return [default] * NUM_SEATS
    if not isinstance(value, (list, tuple)) or len(value) != NUM_SEATS:
        raise PositionError(field, f"expected a list of {NUM_SEATS} entries, got {value!r}")
    return list(value)




def _field_action(field: Mapping[str, Any]) -> int:
    if not isinstance(field, Mapping):
        raise PositionError("field", f"expected null or an object, got {field!r}")
    unknown = sorted(set(field) - {"cards", "owner", "kind", "joker_as", "label", "boosted_low"})
    if unknown:
        raise PositionError("field", f"unknown key(s) {unknown}")
    if "cards" not in field or not field["cards"]:
        raise PositionError("field.cards", "a non-empty field needs its cards")
    mask = _cards(field["cards"], "field.cards")
    kind = field.get("kind")
    if kind not in FIELD_KINDS:
        raise PositionError("field.kind", f"expected one of {sorted(FIELD_KINDS)}, got {kind!r}")
    match = np.flatnonzero((A.CARDS[:A.NUM_PLAY_ACTIONS] == np.uint64(mask)) & np.isin(A.KIND[:A.NUM_PLAY_ACTIONS],
                                                                                       FIELD_KINDS[kind]))
    if "joker_as" in field:
        try:
            jc = parse_card(field["joker_as"])
        except ValueError as e:
            raise PositionError("field.joker_as", str(e)) from None
        jr = A.LO[match] + A.JOKER_POS[match]
        match = match[(A.JOKER_POS[match] >= 0) & (4 * jr + A.SEQ_SUIT[match] == jc)]
    if len(match) == 0:
        raise PositionError("field.cards", f"{field['cards']} is not a legal {kind}")
    if len(match) > 1:
        raise PositionError("field.joker_as", f"{field['cards']} is ambiguous: say which card the joker stands for")
    return int(match[0])


def from_position(position: Mapping[str, Any], cfg: DaifugoConfig, seed: int = 0) -> DaifugoState:
    from .game import empty_state  # local import: game imports this module

    check_header(position, "ninja_daifugo", KNOWN_KEYS, ("hands", "to_play"))
    get = position.get
    st = empty_state(1)
    st.rng_key[:] = rng.keys_from_seeds(np.array([seed], dtype=np.uint64))

    hands = _seat_list(position["hands"], "hands", list, [])
    hand_masks = [_cards(h, f"hands[{p}]") for p, h in enumerate(hands)]
    fa = -1 if get("field") is None else _field_action(position["field"])
    field_mask = int(A.CARDS[fa]) if fa >= 0 else 0
    discard = _cards(get("discard", []), "discard")
    removed = _cards(get("removed", []), "removed")
    seen = 0
    for name, m in [(f"hands[{p}]", hm) for p, hm in enumerate(hand_masks)] + [
            ("field.cards", field_mask), ("discard", discard), ("removed", removed)]:
        if seen & m:
            raise PositionError(name, f"card(s) {mask_names(seen & m)} appear in more than one place")
        seen |= m
    if seen != ALL_CARDS:
        raise PositionError("hands", f"cards missing from the position: {mask_names(ALL_CARDS & ~seen)}")

    decl = _int(get("declaration", 0), "declaration", 0, 9)
    if decl not in cfg.declarations:
        raise PositionError("declaration", f"D{decl} is not among this game's declarations {cfg.declarations}")
    finish = _seat_list(get("finish_positions"), "finish_positions", int, None)
    finish = [0 if f is None else _int(f, f"finish_positions[{p}]", 1, 4) for p, f in enumerate(finish)]
    taken = sorted(f for f in finish if f)
    if len(set(taken)) != len(taken):
        raise PositionError("finish_positions", f"positions repeat: {finish}")
    next_pos = 1
    while next_pos in taken:
        next_pos += 1
    last_pos = 4
    while last_pos in taken:
        last_pos -= 1
    if any(next_pos <= f <= last_pos for f in taken):
        raise PositionError("finish_positions", f"positions must fill from the top (finishers) and the bottom "
                                                f"(都落ち): {finish}")
    terminated = _bool(get("terminated", False), "terminated")
    for p in range(NUM_SEATS):
        if finish[p] and hand_masks[p] and not terminated:  # the last seat keeps its cards at the end
            raise PositionError(f"hands[{p}]", "a finished seat holds no cards")
        if not finish[p] and not hand_masks[p] and not terminated:
            raise PositionError(f"hands[{p}]", "a seat still playing must hold cards (or give its finish position)")
    to_play = _int(position["to_play"], "to_play", 0, 3)
    if finish[to_play] and not terminated:
        raise PositionError("to_play", f"seat {to_play} has already finished")

    titles = _seat_list(get("titles"), "titles", str, None)
    for p, t in enumerate(titles):
        if t not in TITLE_NAMES:
            raise PositionError(f"titles[{p}]", f"expected one of {TITLE_NAMES}, got {t!r}")
    title_ids = [TITLE_NAMES.index(t) for t in titles]
    if any(title_ids) and sorted(title_ids) != [1, 2, 3, 4]:
        raise PositionError("titles", f"either no titles or each title once, got {titles}")
    game_index = _int(get("game_index", 0), "game_index", 0, cfg.series_games - 1)
    if game_index > 0 and not any(title_ids):
        raise PositionError("titles", "games after the first need the previous game's titles")

    phase_name = get("phase", "play")
    if phase_name not in PHASE_NAMES:
        raise PositionError("phase", f"expected one of {PHASE_NAMES}, got {phase_name!r}")
    phase = PHASE_NAMES.index(phase_name)
    picks_left = _int(get("picks_left", 2 if phase == PHASE_EXCHANGE else 0), "picks_left", 0, 2)
    picked = _cards(get("picked", []), "picked")
    if phase == PHASE_EXCHANGE:
        if not any(title_ids):
            raise PositionError("phase", "an exchange needs titles")
        if picks_left == 0:
            raise PositionError("picks_left", "an exchange step has cards left to pick")
        if picked & ~hand_masks[to_play]:
            raise PositionError("picked", "picked cards must be in the picker's hand")
        if fa >= 0:
            raise PositionError("field", "the field is empty during the exchange")

    lock = 0
    if get("lock") is not None:
        if not isinstance(position["lock"], (list, tuple)) or not position["lock"]:
            raise PositionError("lock", f"expected null or a list of suits, got {position['lock']!r}")
        for s in position["lock"]:
            if s not in SUIT_CHARS:
                raise PositionError("lock", f"unknown suit {s!r}; suits are S H D C")
            lock |= 1 << SUIT_CHARS.index(s)
        if fa < 0:
            raise PositionError("lock", "a lock needs a play on the field")
    if fa >= 0:
        owner = _int(position["field"].get("owner"), "field.owner", 0, 3)
        if decl == D_WEAK_JOKER and A.HAS_JOKER[fa] and A.KIND[fa] != A.K_JSINGLE:
            raise PositionError("field.cards", "under D1 the joker cannot be part of a combination")

    st.hands[0] = np.array(hand_masks, dtype=np.uint64)
    st.to_play[0] = to_play
    st.discard[0], st.removed[0] = discard, removed
    if fa >= 0:
        st.field_action[0] = fa
        st.field_cards[0] = field_mask
        st.field_owner[0] = owner
        elo = int(A.LO[fa])
        boosted = position["field"].get("boosted_low")
        if boosted is not None:
            if elo < 0 or boosted not in RANK_CHARS or RANK_CHARS.index(boosted) + int(A.HI[fa] - A.LO[fa]) > 12:
                raise PositionError("field.boosted_low", f"a rank 3..2 from which the play still fits, got {boosted!r}")
            elo = RANK_CHARS.index(boosted)
        st.field_elo[0] = elo
        st.field_ehi[0] = elo + int(A.HI[fa] - A.LO[fa]) if elo >= 0 else -1
        st.field_class[0] = T.field_class_of(A.KIND[fa:fa + 1], A.SIZE[fa:fa + 1], np.array([elo]),
                                             np.array([decl == D_WEAK_JOKER]))[0]
    st.responses[0] = _int(get("responses", 0), "responses", 0, 3)
    st.passed[0] = [_bool(x, f"passed[{p}]") for p, x in enumerate(_seat_list(get("passed"), "passed", bool, False))]
    st.lock[0] = lock
    st.revolution[0] = _bool(get("revolution", False), "revolution")
    st.eleven_back[0] = _bool(get("eleven_back", False), "eleven_back")
    st.declaration[0] = decl
    st.game_index[0] = game_index
    st.titles[0] = title_ids
    st.finish_pos[0] = finish
    st.active[0] = [f == 0 for f in finish]
    st.next_pos[0], st.last_pos[0] = next_pos, last_pos
    cand = get("miyako_candidate")
    st.miyako[0] = -1 if cand is None else _int(cand, "miyako_candidate", 0, 3)
    st.phase[0] = phase
    st.picks_left[0] = picks_left
    st.picked[0] = picked
    for key in ("played", "given", "received"):
        rows = _seat_list(get(key), key, list, [])
        getattr(st, key)[0] = [_cards(v, f"{key}[{p}]") for p, v in enumerate(rows)]
    known = get("known")
    if known is not None:
        outer = _seat_list(known, "known", list, None)
        for o, row in enumerate(outer):
            inner = _seat_list(row, f"known[{o}]", list, [])
            st.known[0, o] = [_cards(v, f"known[{o}][{h}]") for h, v in enumerate(inner)]
    st.skip_pending[0] = [_int(x, f"skip_pending[{p}]", 0, 20)
                          for p, x in enumerate(_seat_list(get("skip_pending"), "skip_pending", int, 0))]
    scores = _seat_list(get("series_score"), "series_score", float, 0.0)
    for p, x in enumerate(scores):
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise PositionError(f"series_score[{p}]", f"expected a number, got {x!r}")
    st.series_score[0] = scores
    st.game_steps[0] = _int(get("game_steps", 0), "game_steps", 0, cfg.max_game_steps)
    st.terminated[0] = terminated
    _load_ninja(st, position, cfg, phase, to_play)
    return st


def _load_ninja(st: DaifugoState, position: Mapping[str, Any], cfg: DaifugoConfig, phase: int, to_play: int) -> None:
    get = position.get
    ninja_keys = {"points", "jutsu", "uses_left", "school", "gokui", "jutsu_used", "henge_shift", "lock_ignored",
                  "shuriken_target"} & set(position)
    if not cfg.ninja_on:
        set_keys = [k for k in ninja_keys if get(k) not in (None, False, 0, [], [0] * 4, [None] * 4, [False] * 4,
                                                             [{}] * 4)]
        if set_keys or phase == PHASE_SHURIKEN:
            raise PositionError((set_keys or ["phase"])[0], "the ninja layer is off in this game (ninja='off')")
        return
    for p, lo in enumerate(cfg.seat_loadouts):
        st.levels[0, p], st.school[0, p], st.gokui[0, p] = lo.levels, lo.school, lo.gokui
    if get("jutsu") is not None:
        for p, spec in enumerate(_seat_list(get("jutsu"), "jutsu", dict, {})):
            if not isinstance(spec, Mapping) or len(spec) > 2:
                raise PositionError(f"jutsu[{p}]", f"expected at most two {{name: level}} entries, got {spec!r}")
            st.levels[0, p] = 0
            for name, level in spec.items():
                if name not in JUTSU:
                    raise PositionError(f"jutsu[{p}]", f"unknown jutsu {name!r}; choose from {JUTSU}")
                st.levels[0, p, JUTSU.index(name)] = _int(level, f"jutsu[{p}].{name}", 1, 5)
    if get("school") is not None:
        for p, sch in enumerate(_seat_list(get("school"), "school", str, None)):
            if sch not in SCHOOLS:
                raise PositionError(f"school[{p}]", f"expected one of {SCHOOLS}, got {sch!r}")
            st.school[0, p] = SCHOOLS.index(sch)
    if get("gokui") is not None:
        st.gokui[0] = [_bool(x, f"gokui[{p}]") for p, x in enumerate(_seat_list(get("gokui"), "gokui", bool, False))]
    full = np.asarray(USES_BY_LEVEL, dtype=np.int8)[st.levels[0]]
    st.uses_left[0] = full
    if get("uses_left") is not None:
        for p, spec in enumerate(_seat_list(get("uses_left"), "uses_left", dict, {})):
            if not isinstance(spec, Mapping):
                raise PositionError(f"uses_left[{p}]", f"expected {{name: uses}}, got {spec!r}")
            for name, uses in spec.items():
                if name not in JUTSU or not st.levels[0, p, JUTSU.index(name)]:
                    raise PositionError(f"uses_left[{p}]", f"{name!r} is not equipped by seat {p}")
                j = JUTSU.index(name)
                st.uses_left[0, p, j] = _int(uses, f"uses_left[{p}].{name}", 0, int(full[p, j]))
    pts = get("points")
    st.points[0] = st.gokui[0] if pts is None else [
        _int(x, f"points[{p}]", 0, MAX_POINTS) for p, x in enumerate(_seat_list(pts, "points", int, 0))]
    st.jutsu_used[0] = _bool(get("jutsu_used", False), "jutsu_used")
    st.henge_shift[0] = _int(get("henge_shift", 0), "henge_shift", 0, 2)
    st.lock_ignored[0] = _bool(get("lock_ignored", False), "lock_ignored")
    target = get("shuriken_target")
    if phase == PHASE_SHURIKEN:
        if target is None:
            raise PositionError("shuriken_target", "the shuriken phase needs the target seat")
        st.shuriken_target[0] = _int(target, "shuriken_target", 0, 3)
        if st.shuriken_target[0] == to_play:
            raise PositionError("shuriken_target", "a 手裏剣 targets an opponent")
    elif target is not None:
        raise PositionError("shuriken_target", "only the shuriken phase has a target")
