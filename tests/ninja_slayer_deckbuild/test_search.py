"""The swap search: mutants stay legal and move copies from one card to another; the tool's files."""
from __future__ import annotations

import json

import numpy as np
import pytest

from yuugi.envs.ninja_slayer.decks import validate_constructed
from yuugi.training.research import deck_search


def test_mutants_are_legal_and_keep_50_cards():
    rng = np.random.default_rng(0)
    base = deck_search.counts_of("D4")  # D4 holds 16 ウケミ cards: the cap binds
    for _ in range(200):
        new = deck_search.mutate(base, rng, max_move=4)
        assert new.sum() == 50
        validate_constructed(deck_search.deck_codes(new))
        moved = new - base
        assert -moved[moved < 0].sum() == moved[moved > 0].sum() >= 1  # copies out = copies in
        assert (moved < 0).sum() == 1  # one card gives up copies


def test_start_texts_are_read_and_checked():
    counts = deck_search.counts_of("C01x4 C02x4 C03x4 C04x4 C05x4 C06x4 C08x4 C09x4 C10x4 C11x4 C12x4 C13x4 C15x2")
    assert counts.sum() == 50
    with pytest.raises(ValueError, match="4-copy"):
        deck_search.counts_of("C01x5 C02x4 C03x4 C04x4 C05x4 C06x4 C08x4 C09x4 C10x4 C11x4 C12x4 C13x4 C15x1")
    with pytest.raises(ValueError, match="item"):
        deck_search.counts_of("C01 four")


def test_objective_counts_the_weakest_match_up_twice():
    assert deck_search.objective([0.8, 0.6]) == pytest.approx(0.5 * (0.7 + 0.6))


def test_a_tiny_search_and_measurement_write_the_deck_and_its_intervals(tmp_path):
    out = tmp_path / "deck.json"
    assert deck_search.main(["search", "--level", "random", "--starts", "D1", "D3", "--opponents", "D2",
                             "--generations", "1", "--candidates", "1", "--games", "2", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    validate_constructed(data["deck"])
    assert data["search"]["command"].startswith("python -m yuugi.training.research.deck_search search --level random")
    assert deck_search.main(["measure", "--level", "random", "--opponents", "D2", "--games", "4", "--out", str(out)]) == 0
    row = json.loads(out.read_text())["measurement"]["opponents"][0]
    assert row["games"] == 4 == row["wins"] + row["losses"] + row["draws"]
    assert row["by_seat"]["first"]["games"] == row["by_seat"]["second"]["games"] == 2
    assert 0.0 <= row["wilson95"][0] <= row["win_rate"] <= row["wilson95"][1] <= 1.0
