"""Scenarios for the UECda baseline policy: a position, the legal options, the move its rule names
(lead: lowest sequence, else lowest group of 2+, else lowest single, the joker last; follow: the lowest
play that beats the field, else pass; revolution reverses the order; exchange: the lowest cards)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.heuristics.uecda_default import UecdaDefault

from .helpers import label, plain_game, position

PLAYER_COUNTS = [4, 5]


def choose(players: int, me: list[str], field: dict | None = None, revolution: bool = False, **extra) -> str:
    """The baseline's move for seat 0 holding ``me``; the other seats hold one card each."""
    others = [[c] for c in ["C2", "H2", "D2", "S2"] if c not in me and not (field and c in field["cards"])]
    others = (others + [["CA"], ["HA"], ["DA"]])[: players - 1]
    g = plain_game(players)
    st = g.from_position(position([me] + others, 0, field, revolution=revolution, **extra))
    mask = g.legal_mask(st)
    obs = g.observe(st, 0)
    action = UecdaDefault().act(obs, mask, np.random.default_rng(0))[0]
    assert mask[0, action]
    return label(action)


def single(card: str, owner: int = 1) -> dict:
    return {"cards": [card], "owner": owner, "kind": "single"}


def group(cards: list[str], owner: int = 1) -> dict:
    return {"cards": cards, "owner": owner, "kind": "group"}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
class TestLeading:
    def test_lowest_sequence_first(self, players):
        # A pair of 3s and a single 4 are lower, but a sequence comes first; the lowest one is S5 S6 S7.
        assert choose(players, ["H3", "D3", "C4", "S5", "S6", "S7", "D9", "DT", "DJ"]) == "S5 S6 S7"

    def test_lowest_group_when_no_sequence(self, players):
        # No sequence; groups of 5s (three) and 9s (two): all the 5s.
        assert choose(players, ["S4", "H5", "D5", "C5", "H9", "C9", "DK"]) == "H5 D5 C5"

    def test_lowest_single_when_no_group(self, players):
        assert choose(players, ["HK", "D6", "S9", "JK"]) == "D6"

    def test_the_joker_goes_last(self, players):
        # The joker would make a pair or a sequence, but plays without it come first.
        assert choose(players, ["HQ", "JK"]) == "HQ"
        assert choose(players, ["JK"]) == "JK"

    def test_revolution_reverses(self, players):
        # Under revolution 2 is the lowest rank: the pair of As is "lower" than the pair of 4s.
        assert choose(players, ["S4", "H4", "SA", "HA", "D9"], revolution=True) == "SA HA"
        assert choose(players, ["S4", "D9", "HK"], revolution=True) == "HK"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
class TestFollowing:
    def test_lowest_single_that_beats(self, players):
        assert choose(players, ["S4", "HT", "DJ", "JK"], field=single("S9")) == "HT"

    def test_joker_single_only_when_nothing_else_beats(self, players):
        assert choose(players, ["S4", "H5", "JK"], field=single("SK")) == "JK"

    def test_pass_when_nothing_beats(self, players):
        assert choose(players, ["S4", "H5"], field=single("SK")) == "pass"

    def test_revolution_answer_is_the_rank_just_below(self, players):
        # Reversed order: against a 9, the 6 and the 4 beat it; the 6 is the lower of the two.
        assert choose(players, ["S4", "H6", "DJ"], field=single("S9"), revolution=True) == "H6"

    def test_pair_without_joker_before_pair_with_it(self, players):
        assert choose(players, ["HT", "DT", "JK", "S4"], field=group(["S9", "H9"])) == "HT DT"

    def test_pair_with_the_joker_when_it_is_the_only_answer(self, players):
        assert choose(players, ["HJ", "JK", "S4"], field=group(["S9", "H9"])) == "HJ JK"

    def test_the_lock_limits_the_answer(self, players):
        # Hearts locked: the lowest heart above 9 (the spade 10 is lower but outside the lock).
        assert choose(players, ["ST", "HQ", "HA"], field=single("H9"), lock=["H"]) == "HQ"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_exchange_gives_the_lowest_cards(players):
    n = players
    titles = ["daifugo", "fugo", "hinmin", "daihinmin"] if n == 4 else ["daifugo", "fugo", "heimin", "hinmin",
                                                                          "daihinmin"]
    g = plain_game(n)
    hands = [["JK", "S2", "H7", "D4", "C9", "H4"], ["C2"], ["H2"], ["D2"], ["S5"]][:n]
    st = g.from_position(position(hands, 0, None, phase="exchange", titles=titles, game_index=0))
    policy = UecdaDefault()
    picks = []
    for _ in range(2):
        mask = g.legal_mask(st)
        a = int(policy.act(g.observe(st, 0), mask, np.random.default_rng(0))[0])
        picks.append(label(a))
        g.step(st, np.array([a]))
    # The two lowest: the 4s (spade-row order breaks the tie: heart before diamond).
    assert picks == ["pick H4", "pick D4"]
