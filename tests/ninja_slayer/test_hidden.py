"""resample_hidden for ninja_slayer: deck orders, the opponent's unknown hand and its deck list drawn
again consistently with what the seat has seen; the seat's view unchanged."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from yuugi.envs.core.sampling import random_legal
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer import hidden
from yuugi.envs.ninja_slayer.decks import CONSTRUCTED, DECK_NAMES, MAX_UKEMI
from yuugi.envs.ninja_slayer.hidden import deck_candidates, resample_hidden, seen_cards
from tests.ninja_slayer.helpers import game
from tests.ninja_slayer.invariants import check_invariants, initial_decks
from tests.hidden_checks import play_to_the_end

FAMILIES = {
    "constructed": ("constructed", "constructed"),
    "sealed": ("sealed", "sealed"),
    "mixed": ("D3", "sealed"),
    "any": ("any", "any"),
}
# State fields that hold hidden information (everything else is copied unchanged).
HIDDEN_FIELDS = {"deck", "deck_count", "hand", "rng_key", "rng_counter"}


def random_positions(g, n: int, seed: int, steps: int, setup=None):
    """Live positions after a random number (< ``steps``) of random decisions, a third of them early
    in the game (< 12 decisions, few cards seen)."""
    rng = np.random.default_rng(seed)
    st = g.init(np.arange(seed * 1000, seed * 1000 + n), setup)
    stop = np.where(rng.random(n) < 1 / 3, rng.integers(0, 12, size=n), rng.integers(0, steps, size=n))
    for t in range(steps):
        act = ~st.done & (stop > t)
        if not act.any():
            break
        g.step(st, random_legal(g.legal_mask(st), rng), act)
    return st.take(np.flatnonzero(~st.done))


@functools.lru_cache(maxsize=None)
def positions_of(family: str):
    g = game(decks=FAMILIES[family])
    st = random_positions(g, 160, 1 + sorted(FAMILIES).index(family), 220)
    assert st.batch_size > 60
    return g, st


@pytest.fixture(scope="module", params=sorted(FAMILIES))
def positions(request):
    return positions_of(request.param)


def unknown_hand(st, seat):
    rows = np.arange(st.batch_size)
    return (st.hand[rows, 1 - seat] >= 0) & ~st.hand_known[rows, 1 - seat]


def test_every_seat_keeps_its_view_and_the_cards_are_conserved(positions):
    g, st = positions
    rng = np.random.default_rng(1)
    for offset in range(2):
        seat = (st.to_play.astype(np.int64) + offset) % 2
        before = g.observe(st, seat)
        for _ in range(2):
            sim = resample_hidden(g, st, seat, rng)
            np.testing.assert_array_equal(before, g.observe(sim, seat))
            check_invariants(g, sim, g.legal_mask(sim))  # incl. every card of each seat conserved
            if offset == 0:  # the acting seat's choices do not depend on what it cannot see
                np.testing.assert_array_equal(g.legal_mask(sim), g.legal_mask(st))


def test_public_zones_and_known_cards_stay_and_compositions_are_kept(positions):
    g, st = positions
    seat = st.to_play.astype(np.int64)
    rows = np.arange(st.batch_size)
    sim = resample_hidden(g, st, seat, np.random.default_rng(2))
    for name, value in st.arrays().items():
        if name not in HIDDEN_FIELDS:
            np.testing.assert_array_equal(getattr(sim, name), value, err_msg=name)
    np.testing.assert_array_equal(sim.hand[rows, seat], st.hand[rows, seat])  # my hand
    known = st.hand_known[rows, 1 - seat] & (st.hand[rows, 1 - seat] >= 0)
    np.testing.assert_array_equal(sim.hand[rows, 1 - seat][known], st.hand[rows, 1 - seat][known])
    np.testing.assert_array_equal(sim.hand >= 0, st.hand >= 0)  # which slots hold a card is public
    # My deck: the same cards in it, and my whole list the same.
    np.testing.assert_array_equal(sim.deck_count[rows, seat], st.deck_count[rows, seat])
    np.testing.assert_array_equal(initial_decks(sim)[rows, seat], initial_decks(st)[rows, seat])
    # The deck array: the cards still in it from deck_ptr on, -1 past its size.
    for p in range(2):
        for i in range(st.batch_size):
            ptr, size = int(sim.deck_ptr[i, p]), int(sim.deck_size[i, p])
            assert (sim.deck[i, p, size:] == -1).all() and (sim.deck[i, p, :size] >= 0).all()
            np.testing.assert_array_equal(np.bincount(sim.deck[i, p, ptr:size], minlength=C.NUM_CARDS),
                                          sim.deck_count[i, p])
    # The stream is new: future chance does not come from the true one.
    assert (sim.rng_key != st.rng_key).all()


def test_hidden_parts_are_drawn_again(positions):
    g, st = positions
    seat = st.to_play.astype(np.int64)
    rows = np.arange(st.batch_size)
    a = resample_hidden(g, st, seat, np.random.default_rng(3))
    b = resample_hidden(g, st, seat, np.random.default_rng(4))
    unknown = unknown_hand(st, seat)
    several = unknown.sum(axis=1) >= 2
    assert several.sum() > 30
    differs = (a.hand[rows, 1 - seat] != b.hand[rows, 1 - seat]).any(axis=1)
    assert differs[several].mean() > 0.7
    own_left = (st.deck_size - st.deck_ptr)[rows, seat] >= 10
    assert (a.deck[rows, seat] != b.deck[rows, seat]).any(axis=1)[own_left].mean() > 0.95
    opp_left = (st.deck_size - st.deck_ptr)[rows, 1 - seat] >= 10
    assert (a.deck[rows, 1 - seat] != b.deck[rows, 1 - seat]).any(axis=1)[opp_left].mean() > 0.95


def test_playing_on_from_a_resampled_state_reaches_the_end(positions):
    g, st = positions
    rng = np.random.default_rng(5)
    sim = resample_hidden(g, st, st.to_play.astype(np.int64), rng)
    play_to_the_end(g, sim, rng, lambda state, mask: check_invariants(g, state, mask), max_steps=3000)


def test_the_result_depends_only_on_what_the_seat_sees(positions):
    g, st = positions
    seat = st.to_play.astype(np.int64)
    other_world = resample_hidden(g, st, seat, np.random.default_rng(6))
    rows = np.arange(st.batch_size)
    other_list = (initial_decks(other_world) != initial_decks(st))[rows, 1 - seat].any(axis=1)
    assert other_list.sum() >= 5  # the other world gives some opponents another deck list
    assert resample_hidden(g, st, seat, np.random.default_rng(7)).equals(
        resample_hidden(g, other_world, seat, np.random.default_rng(7)))
    # By hand: swap each opponent's first unknown hand card with the top card of its deck.
    swapped = st.copy()
    opp = 1 - seat
    unknown = unknown_hand(st, seat)
    can = unknown.any(axis=1) & (st.deck_ptr < st.deck_size)[rows, opp]
    assert can.sum() > 30
    for i in np.flatnonzero(can):
        h, p, top = int(np.argmax(unknown[i])), int(opp[i]), int(st.deck_ptr[i, opp[i]])
        card, drawn = int(st.hand[i, p, h]), int(st.deck[i, p, top])
        swapped.hand[i, p, h], swapped.deck[i, p, top] = drawn, card
        swapped.deck_count[i, p, drawn] -= 1
        swapped.deck_count[i, p, card] += 1
        gone = int(np.flatnonzero(swapped.deck[i, p, :top] == card)[0])  # the cards that left the deck
        swapped.deck[i, p, gone] = drawn
    check_invariants(g, swapped, g.legal_mask(swapped))
    np.testing.assert_array_equal(g.observe(swapped, seat), g.observe(st, seat))
    assert resample_hidden(g, st, seat, np.random.default_rng(8)).equals(
        resample_hidden(g, swapped, seat, np.random.default_rng(8)))


@pytest.mark.parametrize("family", ["constructed", "mixed", "any"])  # the families with a constructed opponent
def test_a_constructed_opponent_plays_one_of_the_lists_consistent_with_its_seen_cards(family):
    g, st = positions_of(family)
    seat = st.to_play.astype(np.int64)
    rows = np.arange(st.batch_size)
    opp = 1 - seat
    lists, consistent = deck_candidates(g, st, seat)
    fifty = st.deck_size[rows, opp] == 50
    assert fifty.any()
    truth = initial_decks(st)[rows, opp]
    # The true list is always among the candidates (the configured decks are D1..D4 or named).
    assert (consistent & (lists == truth[:, None, :]).all(axis=2)).any(axis=1)[fifty].all()
    assert not consistent[~fifty].any()
    seen = seen_cards(st, opp)
    assert (lists[consistent] >= np.repeat(seen, consistent.sum(axis=1), axis=0)).all()
    drawn_other = np.zeros(st.batch_size, dtype=bool)
    for k in range(6):
        sim = resample_hidden(g, st, seat, np.random.default_rng(10 + k))
        drawn = initial_decks(sim)[rows, opp]
        match = (lists == drawn[:, None, :]).all(axis=2) & consistent
        assert match.any(axis=1)[fifty].all()
        drawn_other |= fifty & ~(drawn == truth).all(axis=1)
    # Where several lists fit, the truth is not always the one drawn.
    ambiguous = consistent.sum(axis=1) >= 2
    if any(spec in ("constructed", "any") for spec in g.config.decks):  # not a named deck at every seat
        assert ambiguous.sum() >= 5
        assert drawn_other[ambiguous].mean() > 0.5


@pytest.mark.parametrize("family", ["sealed", "mixed", "any"])  # the families with a sealed opponent
def test_a_sealed_opponent_gets_a_40_card_list_holding_every_seen_card(family):
    g, st = positions_of(family)
    seat = st.to_play.astype(np.int64)
    rows = np.arange(st.batch_size)
    opp = 1 - seat
    forty = st.deck_size[rows, opp] == 40
    assert forty.any()
    before = hidden.STATS["fallback"]
    sim = resample_hidden(g, st, seat, np.random.default_rng(20))
    assert hidden.STATS["fallback"] == before
    drawn = initial_decks(sim)[rows, opp]
    assert (drawn.sum(axis=1)[forty] == 40).all()
    assert (drawn >= seen_cards(st, opp))[forty].all()


def test_named_and_explicit_lists_in_the_options_are_known():
    explicit = tuple(C.CODES[c] for c in CONSTRUCTED["D2"])[::-1]  # D2's cards, listed another way
    g = game(decks=(explicit, "D4"))
    st = random_positions(g, 40, 9, 80)
    rows = np.arange(st.batch_size)
    for seat, name in ((1, "D2"), (0, "D4")):
        sim = resample_hidden(g, st, seat, np.random.default_rng(seat))
        want = np.bincount(CONSTRUCTED[name], minlength=C.NUM_CARDS)
        assert (initial_decks(sim)[rows, 1 - seat] == want).all()
        _, consistent = deck_candidates(g, st, seat)
        assert (consistent.sum(axis=1) == 1).all()


def far_from_the_named_decks() -> tuple[str, ...]:
    """A legal 50-card list of the cards D1..D4 hold fewest copies of (4 copies each)."""
    most = np.stack([np.bincount(CONSTRUCTED[k], minlength=C.NUM_CARDS) for k in DECK_NAMES]).max(axis=0)
    out, ukemi = [], 0
    for c in np.lexsort((np.arange(C.NUM_CARDS), most)):
        if C.HAS_UKEMI[c] and ukemi + 4 > MAX_UKEMI:
            continue
        take = min(4, 50 - len(out))
        out += [C.CODES[c]] * take
        ukemi += take * int(C.HAS_UKEMI[c])
        if len(out) == 50:
            return tuple(out)
    raise AssertionError("no such list")


def test_an_unknown_list_falls_back_to_the_true_unseen_cards_and_says_so():
    # The game is configured with constructed decks, but these episodes were dealt another list.
    g = game()
    rng = np.random.default_rng(11)
    st = random_positions(g, 60, 11, 120, {"decks": (far_from_the_named_decks(), "D1")})
    seat = np.ones(st.batch_size, dtype=np.int64)  # seat 1 looks at the unknown list of seat 0
    _, consistent = deck_candidates(g, st, seat)
    lost = ~consistent.any(axis=1)
    assert lost.sum() > 10
    before = hidden.STATS["fallback"]
    sim = resample_hidden(g, st, seat, rng)
    assert hidden.STATS["fallback"] - before == lost.sum()
    check_invariants(g, sim, g.legal_mask(sim))
    np.testing.assert_array_equal(g.observe(sim, seat), g.observe(st, seat))
    # The fallback keeps the true list (its unseen cards reshuffled).
    np.testing.assert_array_equal(initial_decks(sim)[lost, 0], initial_decks(st)[lost, 0])
