"""Reading daifugō cards as a person types them: any order, suit symbols or letters, ``10`` or ``T``.

``♠9 ♦9``, ``s9 d9``, ``D9,S9``, ``9s 9d`` and ``♦9♠9`` all name the same two cards; ``♥10``,
``HT`` and ``h10`` the same one; ``JK`` (or ``joker``) is the joker, and ``JK(♠7)`` / ``JK=♠7`` says
which card it stands for in a sequence when that is not clear from the rest.
"""
from __future__ import annotations

import dataclasses
import re

from yuugi.envs.ninja_daifugo.cards import JOKER, RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS, card_symbol

from yuugi.training.play.table import InputError

_SUITS = {**{s: i for i, s in enumerate(SUIT_SYMBOLS)}, **{s: i for i, s in enumerate("♤♡♢♧")},
          **{s: i for i, s in enumerate(SUIT_CHARS)}}
_SUIT = "[♠♥♦♣♤♡♢♧SHDC]"
_RANK = "10|[2-9TJQKA]"
_CARD = f"(?:(?P<s1>{_SUIT})(?P<r1>{_RANK})|(?P<r2>{_RANK})(?P<s2>{_SUIT}))"
_JOKER = f"(?:JOKER|JK)(?:\\((?P<as1>[^)]*)\\)|=(?P<as2>{_SUIT}(?:{_RANK})|(?:{_RANK}){_SUIT}))?"
_TOKEN = re.compile(f"{_JOKER}|{_CARD}", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;/+]+")

HOW_TO_WRITE = ("write each card as a suit (♠ ♥ ♦ ♣ or S H D C) and a rank (3-9, 10 or T, J, Q, K, A, 2), "
                "in any order: ♠9 ♦9, s9 d9, HT, ♥10; JK for the joker")


@dataclasses.dataclass(frozen=True)
class TypedCards:
    cards: frozenset[int]  # card indices (JOKER for the joker)
    joker_as: int | None = None  # the card the joker stands for, when the person said so


def _card(suit: str, rank: str) -> int:
    r = "T" if rank == "10" else rank.upper()
    return 4 * RANK_CHARS.index(r) + _SUITS[suit.upper() if suit.isascii() else suit]


def parse_card(text: str) -> int:
    """One card (not the joker); :class:`InputError` naming the problem otherwise."""
    m = re.fullmatch(_CARD, text.strip(), re.IGNORECASE)
    if not m:
        raise InputError(f"'{text}' is not a card: {HOW_TO_WRITE}.")
    return _card(m["s1"] or m["s2"], m["r1"] or m["r2"])


def parse_cards(text: str) -> TypedCards:
    """The cards ``text`` names, in any order; :class:`InputError` for anything that is not a card."""
    cards: list[int] = []
    joker_as = None
    pos = 0
    while pos < len(text):
        sep = _SEPARATORS.match(text, pos)
        if sep:
            pos = sep.end()
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            bad = _SEPARATORS.split(text[pos:], maxsplit=1)[0]
            raise InputError(f"'{bad}' is not a card: {HOW_TO_WRITE}.")
        if m.group(0).upper().startswith(("JK", "JOKER")):
            cards.append(JOKER)
            stands = m["as1"] if m["as1"] is not None else m["as2"]
            if stands is not None:
                joker_as = parse_card(stands)
        else:
            cards.append(_card(m["s1"] or m["s2"], m["r1"] or m["r2"]))
        pos = m.end()
    if not cards:
        raise InputError(f"no cards given: {HOW_TO_WRITE}.")
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise InputError(f"{' '.join(card_symbol(c) for c in twice)} named twice: each card can be played once.")
    return TypedCards(frozenset(cards), joker_as)
