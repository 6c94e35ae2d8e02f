"""What a lower-class client knows of the exchange: the server takes its strongest cards as tribute (the
joker first, then 2s, ♠ > ♥ > ♦ > ♣), and the upper class may give back a card it has just received."""
from __future__ import annotations

import numpy as np

from yuugi.envs.ninja_daifugo.cards import card_name
from yuugi.training.uecda.table import TableState, hand_to_table
from yuugi.training.uecda.view import SeatView

JOKER = 52
ME, DAIFUGO = 2, 3
CLASSES = (1, 3, 4, 0, 2)  # by player number: ME is the 大貧民 (class 4), player 3 the 大富豪 (class 0)


def card(name: str) -> int:
    return next(c for c in range(53) if card_name(c) == name)


def table(cards: set[int], exchange: int) -> np.ndarray:
    return TableState(exchange=exchange, give=0, classes=CLASSES, hand_counts=(11, 11, 11, 11, 10)).write(
        hand_to_table(cards))


def test_a_daihinmin_given_back_the_joker_still_knows_it_gave_the_joker_and_its_best_2():
    deal = {JOKER, card("H2"), card("C2"), card("SK"), card("D9"), card("C3"), card("H5"), card("S7"),
            card("DT"), card("C4"), card("H8")}
    tribute = {JOKER, card("H2")}  # the two strongest: the joker, then ♥2 before ♣2
    back = {JOKER, card("S3")}  # the 大富豪 returns the joker it was just given, and ♠3
    first_hand = (deal - tribute) | back
    view = SeatView(ME)
    view.see_deal(table(deal, exchange=1))
    view.see_hand(table(first_hand, exchange=0))
    assert view.gave == tribute
    assert view.got == back
    pos = view.position()  # the position our policies are asked on
    assert sorted(pos["given"][ME]) == sorted(card_name(c) for c in tribute)
    # It knows the 大富豪 holds the ♥2; the joker is back in its own hand.
    assert pos["known"][ME][DAIFUGO] == [card_name(card("H2"))]


def test_a_hinmin_gives_one_card_and_a_heimin_none():
    deal = {card("S2"), card("D2"), card("SA"), card("C5"), card("H6"), card("D7"), card("S8"), card("C9"),
            card("HT"), card("DJ"), card("C4")}
    for me, gives in ((1, {card("S2")}), (4, set())):  # player 1 is the 貧民 (class 3), player 4 the 平民
        view = SeatView(me)
        view.see_deal(table(deal, exchange=1))
        received = {card("C3")} if gives else set()
        view.see_hand(table((deal - gives) | received, exchange=0))
        assert view.gave == gives and view.got == received
