"""Shared helpers for the ninja daifugō rule scenario tests.

Every expected value in the tests comes from ``shared/rules/ninja_daifugo.md`` (§5, §6, §8, §9);
these helpers only build positions, name actions and step the engine.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable

import numpy as np

from yuugi.envs import make_game
from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.config import DaifugoConfig

# These tests cover the base daifugō rules. When the engine has the ninja layer (option ``ninja``),
# it is switched off so that the jutsu indices stay masked and no points come into play.
HAS_NINJA_OPTION = "ninja" in {f.name for f in dataclasses.fields(DaifugoConfig)}

RANKS = "3456789TJQKA2"  # weakest .. strongest in the normal order (rules §5.1)
SUITS = "SHDC"  # ♠ ♥ ♦ ♣, also the tribute tie order ♠ > ♥ > ♦ > ♣ (rules §5.2-5)
ALL_CARDS = [s + r for r in RANKS for s in SUITS] + ["JK"]
JUTSU_INDICES = range(2328, 2336)
PICK0 = 2336
ZERO_SUM = (1.0, 1.0 / 3.0, -1.0 / 3.0, -1.0)  # rules §5.9

# label -> index, built once from the action table (labels are unique).
_LABELS: dict[str, int] = {A.action_label(i): i for i in range(A.NUM_ACTIONS)}


def card_index(name: str) -> int:
    """Rules §5.1: c = 4*r + s, joker 52."""
    if name == "JK":
        return 52
    return 4 * RANKS.index(name[1]) + SUITS.index(name[0])


def card_name(c: int) -> str:
    return "JK" if c == 52 else SUITS[c % 4] + RANKS[c // 4]


def game(**options: Any):
    """A plain-daifugō core: one game, declaration D0, ninja layer off, unless options say otherwise."""
    opts: dict[str, Any] = {"series_games": 1, "declarations": (0,)}
    if HAS_NINJA_OPTION:
        opts["ninja"] = "off"
    opts.update(options)
    return make_game("ninja_daifugo", **opts)


def position(hands: list[list[str]], to_play: int = 0, field: dict | None = None, **extra: Any) -> dict:
    """A position dict; every card not in a hand, the field or ``removed`` goes to the discard."""
    used = set()
    for h in hands:
        used.update(h)
    if field is not None:
        used.update(field["cards"])
    used.update(extra.get("removed", []))
    pos: dict[str, Any] = {"hands": [list(h) for h in hands], "to_play": to_play, "field": field}
    if "discard" not in extra:
        pos["discard"] = [c for c in ALL_CARDS if c not in used]
    pos.update(extra)
    return pos


def load(g, hands, to_play=0, field=None, seed=0, **extra):
    return g.from_position(position(hands, to_play, field, **extra), seed=seed)


def play_index(*cards: str, joker_as: str | None = None, kind: str | None = None) -> int:
    """The play action whose cards are exactly ``cards`` (joker_as picks a joker sequence)."""
    mask = 0
    for c in cards:
        mask |= 1 << card_index(c)
    cand = np.flatnonzero(A.CARDS[: A.NUM_PLAY_ACTIONS] == np.uint64(mask))
    cand = [int(i) for i in cand if i != A.PASS]
    if kind is not None:
        want = {"single": (A.K_SINGLE, A.K_JSINGLE), "group": (A.K_GROUP,), "sequence": (A.K_SEQ,)}[kind]
        cand = [i for i in cand if A.KIND[i] in want]
    if joker_as is not None:
        jc = card_index(joker_as)
        cand = [i for i in cand if A.KIND[i] == A.K_SEQ and A.HAS_JOKER[i]
                and 4 * (int(A.LO[i]) + int(A.JOKER_POS[i])) + int(A.SEQ_SUIT[i]) == jc]
    if len(cand) != 1:
        raise AssertionError(f"no unique play for {cards} joker_as={joker_as}: {[A.action_label(i) for i in cand]}")
    return cand[0]


def act(spec: str | int) -> int:
    """An action index from an index, a label ("pass", "S5 H5", "S4 S5 JK(S6)", "pick D9")."""
    if isinstance(spec, (int, np.integer)):
        return int(spec)
    if spec in _LABELS:
        return _LABELS[spec]
    # Cards in any order; a joker sequence written with "JK(X)".
    toks = spec.split()
    joker_as = None
    names = []
    for t in toks:
        if t.startswith("JK(") and t.endswith(")"):
            joker_as = t[3:-1]
            names.append("JK")
        else:
            names.append(t)
    return play_index(*names, joker_as=joker_as)


def label(i: int) -> str:
    return A.action_label(int(i))


def mask(g, st) -> np.ndarray:
    return g.legal_mask(st)[0]


def legal(g, st, spec) -> bool:
    return bool(mask(g, st)[act(spec)])


def legal_labels(g, st) -> set[str]:
    return {label(i) for i in np.flatnonzero(mask(g, st))}


def step(g, st, spec):
    """Step one action (the engine validates it and raises IllegalActionError if illegal)."""
    g.step(st, np.array([act(spec)]))
    return st


def steps(g, st, specs: Iterable):
    for s in specs:
        step(g, st, s)
    return st


def pos(g, st) -> dict:
    return g.to_position(st, 0)


def hand(g, st, seat: int) -> set[str]:
    return set(pos(g, st)["hands"][seat])


def strength_key_normal(c: str) -> tuple:
    """Tribute order in the normal direction: joker first, then rank descending, ties ♠>♥>♦>♣."""
    if c == "JK":
        return (0, 0, 0)
    return (1, -RANKS.index(c[1]), SUITS.index(c[0]))


def strongest(cards: Iterable[str], k: int, declaration: int = 0) -> set[str]:
    """The k strongest cards by the order at game start (rules §5.2-5 / §8 A19)."""
    cards = list(cards)
    if declaration == 1:  # D1: the joker is the weakest card
        key = lambda c: (1, 0, 0) if c == "JK" else (0, -RANKS.index(c[1]), SUITS.index(c[0]))  # noqa: E731
    elif declaration == 5:  # D5: revolution from the start: 3 strongest, joker still top
        key = lambda c: (0, 0, 0) if c == "JK" else (1, RANKS.index(c[1]), SUITS.index(c[0]))  # noqa: E731
    else:
        key = strength_key_normal
    return set(sorted(cards, key=key)[:k])
