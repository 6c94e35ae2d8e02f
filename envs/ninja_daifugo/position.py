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

Under ``rules="uecda"`` every per-seat list has five entries (players 0..4), the titles are
``"daifugo"``, ``"fugo"``, ``"heimin"``, ``"hinmin"``, ``"daihinmin"`` (places 1..5), ``responses`` is
the number of passes since the last play (0..19: the 20th ends the game), ``passed`` marks the players
out of the current trick, and one more key says who sits where::

      "seating": [3, 0, 4, 1, 2],     # the player at each seat, clockwise (default [0, 1, 2, 3, 4])

The ninja keys must keep their neutral values there (the layer is off).
"""
from __future__ import annotations

from typing import Any, Mapping

import functools

import numpy as np

from yuugi.envs.core import schema as S
from yuugi.envs.core.errors import PositionError

from . import actions as A
from . import batch
from . import tables as T
from .cards import ALL_CARDS, RANK_CHARS, SUIT_CHARS, card_name, mask_names, parse_card
from .config import D_WEAK_JOKER, HENGE, JUTSU, MAX_POINTS, SCHOOLS, SHURIKEN, USES_BY_LEVEL, DaifugoConfig
from .state import (DAIFUGO, FUGO, PHASE_EXCHANGE, PHASE_NAMES, PHASE_PLAY, PHASE_SHURIKEN, DaifugoState,
                    SeatedDaifugoState, empty_state, title_names)

FIELD_KINDS = ("single", "group", "sequence")
KIND_ACTIONS = ((A.K_SINGLE, A.K_JSINGLE), (A.K_GROUP,), (A.K_SEQ,))
NINJA_KEYS = ("points", "jutsu", "uses_left", "school", "gokui", "jutsu_used", "henge_shift", "lock_ignored",
              "shuriken_target")
CARDS = S.Cards(parse_card, card_name)
JUTSU_LEVELS = S.Table(S.Name(JUTSU, what="jutsu"), S.Int(1, 5))  # {jutsu: level}, at most two
JUTSU_USES = S.Table(S.Name(JUTSU, what="jutsu"), S.Int(0, max(USES_BY_LEVEL)))  # {jutsu: uses left}


STALEMATE_PASSES = 20  # UECda: the 20th pass in a row ends the game (rules.STALEMATE_PASSES)


@functools.lru_cache(maxsize=None)
def schema(n: int = 4, uecda: bool = False) -> S.Record:
    """Every key of a position of ``n`` players (``uecda``: the UECda game): its parser, range and
    default, and the state array it is (``.into``). Ranges that depend on the options (game_index,
    game_steps, series_score) are checked in from_position."""

    def seats(item: S.Spec, default: Any) -> S.Spec:
        return S.seat_list(item, n, default)

    def ninja(item: S.Spec) -> S.Spec:
        """A per-seat ninja field; absent or null = the game's loadouts (full uses, 極意's starting point)."""
        return S.ListOf(item, length=n).or_default(None, null=True)

    fields = {
        "game": S.Const("ninja_daifugo").or_default("ninja_daifugo"),
        "hands": S.ListOf(CARDS, length=n).into("hands"),
        "to_play": S.Int(0, n - 1).into("to_play"),
    }
    if uecda:
        fields["seating"] = S.ListOf(S.Int(0, n - 1), length=n).or_default(list(range(n)), null=True).into("seating")
    fields.update(_common_fields(n, uecda, seats, ninja))
    return S.Record(fields)


def _common_fields(n: int, uecda: bool, seats: Any, ninja: Any) -> dict[str, S.Spec]:
    return {
        "field": S.Nullable(S.Record({
            "cards": CARDS, "owner": S.Int(0, n - 1), "kind": S.Name(FIELD_KINDS, what="kind"),
            "joker_as": S.Nullable(S.Str()).or_default(None),  # a sequence's joker, when ambiguous
            "label": S.Str().or_default(None),  # informative; the cards and kind decide the play
            "boosted_low": S.Nullable(S.Name(tuple(RANK_CHARS), what="rank")).or_default(None),
        })).or_default(None),
        "responses": S.Int(0, STALEMATE_PASSES - 1 if uecda else n - 1).or_default(0).into("responses"),
        "passed": seats(S.Bool(), False).into("passed"),
        "lock": S.Nullable(S.ListOf(S.Name(tuple(SUIT_CHARS), what="suit"), min_len=1, unique=True)).or_default(None),
        "revolution": S.Bool().or_default(False).into("revolution"),
        "eleven_back": S.Bool().or_default(False).into("eleven_back"),
        "declaration": S.Int(0, 9).or_default(0).into("declaration"),
        "game_index": S.Int(0, 99).or_default(0).into("game_index"),
        "titles": seats(S.Name(title_names(n), what="title"), 0).into("titles"),
        "finish_positions": seats(S.Nullable(S.Int(1, n), none=0), 0).into("finish_pos"),
        "miyako_candidate": S.Nullable(S.Int(0, n - 1), none=-1).or_default(-1).into("miyako"),
        "phase": S.Name(PHASE_NAMES, what="phase").or_default(PHASE_PLAY).into("phase"),
        "picks_left": S.Int(0, 2).or_default(None).into("picks_left"),  # default: what the exchange step needs
        "picked": CARDS.or_default(0).into("picked"),
        "discard": CARDS.or_default(0).into("discard"),
        "removed": CARDS.or_default(0).into("removed"),
        "played": seats(CARDS, 0).into("played"),
        "given": seats(CARDS, 0).into("given"),
        "received": seats(CARDS, 0).into("received"),
        "known": seats(seats(CARDS, 0), [0] * n).into("known"),  # known[observer][holder]
        "skip_pending": seats(S.Int(0, 20), 0).into("skip_pending"),
        "series_score": seats(S.Float(-1e6, 1e6), 0.0).into("series_score"),
        "game_steps": S.Int(0, 2 ** 31 - 1).or_default(0).into("game_steps"),
        "terminated": S.Bool().or_default(False).into("terminated"),
        "points": ninja(S.Int(0, MAX_POINTS)).into("points"),
        "jutsu": ninja(JUTSU_LEVELS),
        "uses_left": ninja(JUTSU_USES),
        "school": ninja(S.Name(SCHOOLS, what="school")).into("school"),
        "gokui": ninja(S.Bool()).into("gokui"),
        "jutsu_used": S.Bool().or_default(False).into("jutsu_used"),
        "henge_shift": S.Int(0, 2).or_default(0).into("henge_shift"),
        "lock_ignored": S.Bool().or_default(False).into("lock_ignored"),
        "shuriken_target": S.Nullable(S.Int(0, n - 1), none=-1).or_default(-1).into("shuriken_target"),
    }


SCHEMA = schema()  # the ninja game's four players


def _schema_of(st: DaifugoState) -> S.Record:
    return schema(int(st.hands.shape[1]), isinstance(st, SeatedDaifugoState))


def to_position(st: DaifugoState, i: int = 0) -> dict[str, Any]:
    lock = int(st.lock[i])
    n = int(st.hands.shape[1])
    record = _schema_of(st)
    out = S.read(record, st, i)
    out.update({
        "game": "ninja_daifugo", "field": _field_of(st, i),
        "lock": [SUIT_CHARS[s] for s in range(4) if (lock >> s) & 1] or None,
        "jutsu": [{JUTSU[j]: int(lv) for j, lv in enumerate(st.levels[i, p]) if lv} for p in range(n)],
        "uses_left": [{JUTSU[j]: int(st.uses_left[i, p, j]) for j, lv in enumerate(st.levels[i, p]) if lv}
                      for p in range(n)],
    })
    return {key: out[key] for key in record.fields}


def _field_of(st: DaifugoState, i: int) -> dict[str, Any] | None:
    fa = int(st.field_action[i])
    if fa < 0:
        return None
    kind = next(k for k, kinds in enumerate(KIND_ACTIONS) if A.KIND[fa] in kinds)
    field = {"cards": CARDS.dump(st.field_cards[i]), "owner": int(st.field_owner[i]), "kind": FIELD_KINDS[kind],
             "label": A.action_label(fa)}
    if A.KIND[fa] == A.K_SEQ and A.HAS_JOKER[fa]:
        field["joker_as"] = card_name(4 * (int(A.LO[fa]) + int(A.JOKER_POS[fa])) + int(A.SEQ_SUIT[fa]))
    if A.LO[fa] >= 0 and int(st.field_elo[i]) != int(A.LO[fa]):
        field["boosted_low"] = RANK_CHARS[int(st.field_elo[i])]  # 変化: the rank others must beat from
    return field


def from_position(position: Mapping[str, Any], cfg: DaifugoConfig, seed: int = 0) -> DaifugoState:
    key = S.check_seed(seed)
    n = cfg.num_players
    p = schema(n, cfg.uecda).parse(position, "")
    _check_option_ranges(p, cfg)
    if cfg.uecda:
        _check_uecda(p, n)
    fa = _field_action(p["field"], p["declaration"])
    _check_cards(p["hands"], int(A.CARDS[fa]) if fa >= 0 else 0, p["discard"], p["removed"])
    next_pos, last_pos = _check_finishers(p, p["hands"], n)
    _check_titles_and_phase(p, p["hands"], fa, cfg)
    if p["lock"] and fa < 0:
        raise PositionError("lock", "a lock needs a play on the field")

    st = empty_state(1, cfg)
    st.rng_key[:] = key
    S.store(schema(n, cfg.uecda), p, st)
    st.lock[0] = sum(1 << s for s in p["lock"] or [])
    st.active[0] = [f == 0 for f in p["finish_positions"]]
    st.next_pos[0], st.last_pos[0] = next_pos, last_pos
    if fa >= 0:
        st.field_action[0], st.field_cards[0], st.field_owner[0] = fa, A.CARDS[fa], p["field"]["owner"]
        elo = int(A.LO[fa]) if p["field"]["boosted_low"] is None else p["field"]["boosted_low"]
        st.field_elo[0] = elo
        st.field_ehi[0] = elo + int(A.HI[fa] - A.LO[fa]) if elo >= 0 else -1
        st.field_class[0] = T.field_class_of(A.KIND[fa:fa + 1], A.SIZE[fa:fa + 1], np.array([elo]),
                                             np.array([p["declaration"] == D_WEAK_JOKER]))[0]
    _load_ninja(st, p, cfg)
    if not p["terminated"] and not batch.legal_mask_of(st, cfg)[0].any():
        raise PositionError("phase" if p["phase"] != PHASE_PLAY else "to_play", "no legal action from this position")
    return st


def _check_uecda(p: Mapping[str, Any], n: int) -> None:
    """The UECda game has a seating and none of the ninja game's 都落ち, 11-back or skips."""
    if sorted(p["seating"]) != list(range(n)):
        raise PositionError("seating", f"each player 0..{n - 1} sits at one seat, got {p['seating']}")
    for key, neutral in (("miyako_candidate", -1), ("eleven_back", False), ("removed", 0),
                         ("skip_pending", [0] * n)):
        if p[key] != neutral:
            raise PositionError(key, "the UECda game has no 都落ち, 11-back or skips (rules='uecda')")


def _check_option_ranges(p: Mapping[str, Any], cfg: DaifugoConfig) -> None:
    """The declaration pool, the series length, the step limit and the scores a series can reach."""
    if p["declaration"] not in cfg.declarations:
        raise PositionError("declaration", f"D{p['declaration']} is not among this game's declarations "
                                           f"{cfg.declarations}")
    for key, hi in (("game_index", cfg.series_games - 1), ("game_steps", cfg.max_game_steps)):
        if p[key] > hi:
            raise PositionError(key, f"expected an integer in 0..{hi} under these options, got {p[key]}")
    rewards = cfg.rewards_by_position  # a seat's score sums one reward per game played
    lo, hi = cfg.series_games * min(0.0, min(rewards)), cfg.series_games * max(0.0, max(rewards))
    for seat, score in enumerate(p["series_score"]):
        if not lo <= score <= hi:
            raise PositionError(f"series_score[{seat}]", f"expected a number in {lo}..{hi} (series_games × the "
                                                         f"rewards), got {score}")


def _field_action(field: Mapping[str, Any] | None, decl: int) -> int:
    """The play on the field (an action index), -1 when the field is empty."""
    if field is None:
        return -1
    mask = field["cards"]
    if not mask:
        raise PositionError("field.cards", "a non-empty field needs its cards")
    kind = field["kind"]
    plays = slice(0, A.NUM_PLAY_ACTIONS)
    match = np.flatnonzero((A.CARDS[plays] == np.uint64(mask)) & np.isin(A.KIND[plays], KIND_ACTIONS[kind]))
    if field["joker_as"] is not None:
        try:
            jc = parse_card(field["joker_as"])
        except ValueError as e:
            raise PositionError("field.joker_as", str(e)) from None
        jr = A.LO[match] + A.JOKER_POS[match]
        match = match[(A.JOKER_POS[match] >= 0) & (4 * jr + A.SEQ_SUIT[match] == jc)]
    if len(match) == 0:
        raise PositionError("field.cards", f"{mask_names(mask)} is not a legal {FIELD_KINDS[kind]}")
    if len(match) > 1:
        raise PositionError("field.joker_as", f"{mask_names(mask)} is ambiguous: say which card the joker stands for")
    fa = int(match[0])
    if decl == D_WEAK_JOKER and A.HAS_JOKER[fa] and A.KIND[fa] != A.K_JSINGLE:
        raise PositionError("field.cards", "under D1 the joker cannot be part of a combination")
    boosted = field["boosted_low"]
    if boosted is not None and (A.LO[fa] < 0 or boosted + int(A.HI[fa] - A.LO[fa]) > 12):
        raise PositionError("field.boosted_low", f"a rank 3..2 from which the play still fits, got "
                                                 f"{RANK_CHARS[boosted]!r}")
    return fa


def _check_cards(hands: list[int], field: int, discard: int, removed: int) -> None:
    """The 53 cards are each in exactly one place."""
    seen = 0
    places = [(f"hands[{p}]", m) for p, m in enumerate(hands)] + [
        ("field.cards", field), ("discard", discard), ("removed", removed)]
    for name, m in places:
        if seen & m:
            raise PositionError(name, f"card(s) {mask_names(seen & m)} appear in more than one place")
        seen |= m
    if seen != ALL_CARDS:
        raise PositionError("hands", f"cards missing from the position: {mask_names(ALL_CARDS & ~seen)}")


def _check_finishers(p: Mapping[str, Any], hands: list[int], n: int) -> tuple[int, int]:
    """Finish positions fill from the top (finishers) and the bottom (都落ち); returns (next, last)."""
    finish, terminated, to_play = p["finish_positions"], p["terminated"], p["to_play"]
    taken = sorted(f for f in finish if f)
    if len(set(taken)) != len(taken):
        raise PositionError("finish_positions", f"positions repeat: {finish}")
    next_pos, last_pos = 1, n
    while next_pos in taken:
        next_pos += 1
    while last_pos in taken:
        last_pos -= 1
    if any(next_pos <= f <= last_pos for f in taken):
        raise PositionError("finish_positions", f"positions must fill from the top (finishers) and the bottom "
                                                f"(都落ち): {finish}")
    if terminated:
        if len(taken) != n:
            raise PositionError("terminated", "a finished game has given every seat its finish position")
        return next_pos, last_pos
    if len(taken) > n - 2:
        raise PositionError("finish_positions", "the game ends when only one seat is left playing")
    for seat in range(n):
        if finish[seat] and hands[seat]:
            raise PositionError(f"hands[{seat}]", "a finished seat holds no cards")
        if not finish[seat] and not hands[seat]:
            raise PositionError(f"hands[{seat}]", "a seat still playing must hold cards (or give its finish position)")
    if finish[to_play]:
        raise PositionError("to_play", f"seat {to_play} has already finished")
    return next_pos, last_pos


def _check_titles_and_phase(p: dict[str, Any], hands: list[int], fa: int, cfg: DaifugoConfig) -> None:
    titles, phase, to_play = p["titles"], p["phase"], p["to_play"]
    names = title_names(cfg.num_players)
    if any(titles) and sorted(titles) != list(range(1, cfg.num_players + 1)):
        raise PositionError("titles", f"either no titles or each title once, got {[names[t] for t in titles]}")
    class_reset = p["game_index"] % int(cfg.class_reset_every) == 0  # type: ignore[arg-type]
    if not class_reset and not any(titles):
        raise PositionError("titles", "games after the first (and after a class reset) need the previous "
                                      "game's titles")
    if p["terminated"] and p["game_index"] != cfg.series_games - 1:
        raise PositionError("game_index", f"a series ends after its last game (game_index {cfg.series_games - 1})")
    if phase != PHASE_EXCHANGE:
        if p["picks_left"] or p["picked"]:
            raise PositionError("picks_left" if p["picks_left"] else "picked", "cards are picked only in an exchange")
        p["picks_left"] = 0
        return
    if not any(titles):
        raise PositionError("phase", "an exchange needs titles")
    if fa >= 0:
        raise PositionError("field", "the field is empty during the exchange")
    if p["terminated"]:
        raise PositionError("phase", "a finished game has no exchange")
    if titles[to_play] not in (DAIFUGO, FUGO):
        raise PositionError("to_play", "the 大富豪 (2 cards) and then the 富豪 (1 card) pick the exchange gifts")
    gifts = 2 if titles[to_play] == DAIFUGO else 1
    picked = int(p["picked"]).bit_count()
    if p["picks_left"] is None:
        p["picks_left"] = gifts - picked
    if p["picks_left"] < 1 or picked + p["picks_left"] != gifts:
        raise PositionError("picks_left", f"the {names[titles[to_play]]} gives {gifts} card(s): picked "
                                          f"{picked}, so {gifts - picked} left to pick")
    if p["picked"] & ~hands[to_play]:
        raise PositionError("picked", "picked cards must be in the picker's hand")
    if (hands[to_play] & ~p["picked"]).bit_count() < p["picks_left"]:
        raise PositionError("picks_left", f"the picker holds fewer unpicked cards than the {p['picks_left']} to pick")


def _load_ninja(st: DaifugoState, p: Mapping[str, Any], cfg: DaifugoConfig) -> None:
    """The ninja layer: loadouts (the game's unless given), uses, points and this turn's flags."""
    if not cfg.ninja_on:
        n = cfg.num_players
        neutral = {"points": [0] * n, "jutsu": [{}] * n, "uses_left": [{}] * n, "school": [0] * n,
                   "gokui": [False] * n, "jutsu_used": False, "henge_shift": 0, "lock_ignored": False,
                   "shuriken_target": -1}
        set_keys = [k for k in NINJA_KEYS if p[k] is not None and p[k] != neutral[k]]
        if set_keys or p["phase"] == PHASE_SHURIKEN:
            raise PositionError((set_keys or ["phase"])[0], "the ninja layer is off in this game (ninja='off')")
        return
    loadouts = cfg.seat_loadouts
    for seat, spec in enumerate(p["jutsu"] or []):
        if len(spec) > 2:
            raise PositionError(f"jutsu[{seat}]", f"at most two jutsu per seat, got {len(spec)}")
    st.levels[0] = [lo.levels for lo in loadouts] if p["jutsu"] is None else [
        [spec.get(j, 0) for j in range(len(JUTSU))] for spec in p["jutsu"]]
    if p["school"] is None:
        st.school[0] = [lo.school for lo in loadouts]
    if p["gokui"] is None:
        st.gokui[0] = [lo.gokui for lo in loadouts]
    if p["points"] is None:
        st.points[0] = st.gokui[0]  # 極意: one point to start with
    full = st.uses_left[0] = np.asarray(USES_BY_LEVEL, dtype=np.int8)[st.levels[0]]
    for seat, spec in enumerate(p["uses_left"] or []):
        for j, uses in spec.items():
            where = f"uses_left[{seat}].{JUTSU[j]}"
            if not st.levels[0, seat, j]:
                raise PositionError(where, f"{JUTSU[j]!r} is not equipped by seat {seat}")
            if uses > full[seat, j]:
                raise PositionError(where, f"at most {int(full[seat, j])} use(s) at level {int(st.levels[0, seat, j])}")
            st.uses_left[0, seat, j] = uses
    _check_turn_flags(p, [int(x) for x in st.levels[0, p["to_play"]]])


def _check_turn_flags(p: Mapping[str, Any], levels: list[int]) -> None:
    """This turn's jutsu: 変化's boost and 手裏剣's pending throw follow from the mover's jutsu levels."""
    phase, target, shift = p["phase"], p["shuriken_target"], p["henge_shift"]
    if p["jutsu_used"] and phase not in (PHASE_PLAY, PHASE_SHURIKEN):
        raise PositionError("jutsu_used", "jutsu are used only in play")
    if shift:
        want = 2 if levels[HENGE] >= 3 else 1
        if phase != PHASE_PLAY or not p["jutsu_used"] or not levels[HENGE] or shift != want:
            raise PositionError("henge_shift", f"set by the mover's 変化 this turn: {want if levels[HENGE] else 0} "
                                               f"for its level {levels[HENGE]}, with jutsu_used")
    if p["lock_ignored"] != (bool(shift) and levels[HENGE] == 5):
        raise PositionError("lock_ignored", "exactly when a level-5 変化 was used this turn")
    if phase == PHASE_SHURIKEN:
        if target < 0 or target == p["to_play"] or p["finish_positions"][target]:
            raise PositionError("shuriken_target", "the shuriken phase needs the target: an opponent still playing")
        if not p["jutsu_used"] or not levels[SHURIKEN]:
            raise PositionError("phase", "the shuriken phase follows the mover's 手裏剣 (jutsu_used)")
    elif target >= 0:
        raise PositionError("shuriken_target", "only the shuriken phase has a target")
