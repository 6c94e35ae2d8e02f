"""The pick mask against the constructed rules, with the ウケミ cards read from the card table's CSV."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from yuugi.envs.core.errors import IllegalActionError
from yuugi.seated.deckbuild.env import DeckBuildEnv

CARD_TABLE = Path(__file__).resolve().parents[2] / "envs" / "ninja_slayer" / "cards.csv"


def table() -> list[dict[str, str]]:
    with CARD_TABLE.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def ukemi_positions() -> list[int]:
    return [i for i, row in enumerate(table()) if "UKEMI" in row["keywords"].split()]


def plain_positions() -> list[int]:
    return [i for i, row in enumerate(table()) if "UKEMI" not in row["keywords"].split()]


def fresh() -> DeckBuildEnv:
    env = DeckBuildEnv(level="random", games=2)
    env.reset(seed=0)
    return env


def test_the_table_has_48_cards_in_action_order():
    rows = table()
    assert len(rows) == 48 and fresh().action_space.n == 48
    assert [r["id"] for r in rows[:2]] == ["C01", "C02"] and rows[32]["id"] == "K01"


@pytest.mark.parametrize("card", range(48))
def test_a_fifth_copy_is_masked_and_refused(card):
    env = fresh()
    code = table()[card]["id"]
    for _ in range(4):
        assert env.action_masks()[card]
        env.step(card)
    assert not env.action_masks()[card]
    before = env.counts.copy()
    with pytest.raises(IllegalActionError, match=rf"{code}.*4-copy rule"):
        env.step(card)
    assert np.array_equal(env.counts, before)  # refused picks leave the deck as it was


def test_a_seventeenth_ukemi_card_is_masked_and_refused():
    ukemi, plain = ukemi_positions(), plain_positions()
    assert len(ukemi) >= 5  # four full sets reach 16, one more card remains to try
    env = fresh()
    for card in ukemi[:4]:
        for _ in range(4):
            env.step(card)
    mask = env.action_masks()
    assert not mask[ukemi].any()  # every ウケミ card is closed at 16
    assert mask[plain].all()  # every other card is still open (none picked yet)
    with pytest.raises(IllegalActionError, match=r"ウケミ"):
        env.step(ukemi[4])


def test_sixteen_ukemi_cards_are_allowed():
    ukemi = ukemi_positions()
    env = fresh()
    picks = [c for c in ukemi[:4] for _ in range(4)][:15]
    for card in picks:
        env.step(card)
    assert env.action_masks()[ukemi[4]]  # the 16th is still legal


@pytest.mark.parametrize("bad", [48, -1, 1.5, "C01", True])
def test_a_pick_that_is_not_a_card_is_refused_naming_it(bad):
    env = fresh()
    with pytest.raises(IllegalActionError, match=repr(bad).replace(".", r"\.")):
        env.step(bad)


def test_every_masked_episode_can_finish():
    """Random legal picks never run out of legal cards before 50 (the mask never empties early)."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        counts = np.zeros(48, np.int64)
        env = fresh()
        for pick in range(50):
            mask = env.action_masks()
            assert mask.any(), f"no legal card at pick {pick}"
            card = int(rng.choice(np.flatnonzero(mask)))
            counts[card] += 1
            env.counts[card] += 1  # fill without scoring: the mask is what is under test
        assert counts.sum() == 50 and counts.max() <= 4
        assert sum(counts[i] for i in ukemi_positions()) <= 16
        assert not env.action_masks().any()
