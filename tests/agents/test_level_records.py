"""A trained level is offered only under the rule sets its record says a ladder checked it on.

The records (``agents/weights/<game>_hard*.json``, key ``checked_rules``) are checked against the ladder
files they cite, so a record can never claim a rule set or a figure that no ladder measured.
"""
from __future__ import annotations

import json
import shutil
import warnings

import pytest

from yuugi.agents import level_records, registry, shipped
from yuugi.agents.level_records import LevelRecordError, UncheckedRulesWarning
from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError

GAMES = ("ninja_daifugo", "nigejozu", "momotaro", "ninja_slayer")
DAIFUGO_TRAINING_RULES = {"series_games": 1, "ninja": "symmetric"}  # the rules its hard was trained and laddered on
SHIPPED_WEIGHTS = [path for game in GAMES for path in shipped.shipped_weights(game)]


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    """Every test starts with no (game, rules) warned about yet: the warning is said once per process."""
    monkeypatch.setattr(level_records, "_WARNED", set())


def _hard_vs_normal(ladder: dict) -> tuple[int, float, list[float]]:
    """hard's score against normal in a ladder file: (games, score, 95% interval), from hard's side."""
    for p in ladder.get("pairings", []):  # yuugi eval's round-robins
        if {p["a"], p["b"]} == {"hard", "normal"}:
            if p["a"] == "hard":
                return p["games"], p["score"], list(p["score_ci95"])
            return p["games"], -p["score"], [-p["score_ci95"][1], -p["score_ci95"][0]]
    for step in ladder.get("steps", []):  # the ninja_slayer ladders
        if (step["stronger"], step["weaker"]) == ("hard", "normal"):
            both = step["both_seats"]
            return both["games"], both["score"], list(both["score_ci95"])
    raise AssertionError("the ladder has no hard-against-normal step")


def test_every_shipped_weights_file_has_a_record_that_lists_where_it_was_checked():
    # momotaro's 2, 3 and 4 players, daifugō's single games and its default series, one for each other game
    assert len(SHIPPED_WEIGHTS) == 7
    for weights in SHIPPED_WEIGHTS:
        assert level_records.checked_entries(weights), f"{weights.name}: its record lists no checked rules"


@pytest.mark.parametrize("weights", SHIPPED_WEIGHTS, ids=lambda p: p.name)
def test_each_checked_rule_set_is_valid_for_its_game_and_matches_the_ladders_it_cites(weights):
    game = json.loads(level_records.record_path(weights).read_text())["game"]
    for entry in level_records.checked_entries(weights):
        make_game(game, **entry["rules"])  # rules the game accepts (an OptionError otherwise)
        # these rules are played by this very file (the registry picks weights by their spaces)
        assert registry.hard_weights(game, **entry["rules"]) == weights
        for cited in entry["checked_by"]:
            ladder = json.loads((shipped.WEIGHTS_DIR / cited["ladder"]).read_text())
            assert ladder["game"] == game
            assert (level_records.canonical_rules(game, ladder["rules"])
                    == level_records.canonical_rules(game, entry["rules"])), cited["ladder"]
            games, score, ci = _hard_vs_normal(ladder)
            assert cited["games"] == games
            assert cited["hard_vs_normal"] == pytest.approx(score, abs=1e-4)
            assert cited["hard_vs_normal_ci95"] == pytest.approx(ci, abs=1e-4)
            assert ci[0] > 0, f"{cited['ladder']}: hard is not decided ahead of normal there"


def test_canonical_rules_treat_the_defaults_spelled_out_as_the_defaults():
    spelled = level_records.canonical_rules("ninja_daifugo", {"series_games": 5, "ninja": "faithful"})
    assert spelled == level_records.canonical_rules("ninja_daifugo", {})
    assert spelled != level_records.canonical_rules("ninja_daifugo", {"series_games": 1})
    # ninja_slayer's "constructed" for both seats, as one name or as the pair the config keeps
    assert (level_records.canonical_rules("ninja_slayer", {"decks": "constructed"})
            == level_records.canonical_rules("ninja_slayer", {"decks": ["constructed", "constructed"]})
            == level_records.canonical_rules("ninja_slayer", {}))
    with pytest.raises(OptionError, match="series_games"):
        level_records.canonical_rules("ninja_daifugo", {"series_games": 0})


def test_daifugo_hard_under_the_default_rules_is_the_file_checked_there():
    """The default 5-deal faithful series has its own hard (the single-game one measured no stronger than
    normal there): it is offered and played there without a warning, the single-game file elsewhere."""
    for defaults in ({}, {"series_games": 5, "ninja": "faithful"}):
        assert "hard" in registry.available_levels("ninja_daifugo", **defaults)
        assert level_records.checked_for("ninja_daifugo", "お館様", defaults)  # the persona that is hard
        assert registry.hard_weights("ninja_daifugo", **defaults).name == "ninja_daifugo_hard_series.npz"
    assert registry.hard_weights("ninja_daifugo", **DAIFUGO_TRAINING_RULES).name == "ninja_daifugo_hard.npz"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert registry.cpu("ninja_daifugo", "hard").name == "hard"


def test_daifugo_hard_is_offered_under_the_rules_it_was_checked_on():
    assert registry.available_levels("ninja_daifugo", **DAIFUGO_TRAINING_RULES) == [
        "random", "easy", "normal", "hard", "expert", "uecda_default"]
    assert level_records.checked_for("ninja_daifugo", "hard", DAIFUGO_TRAINING_RULES)
    # the same rule set with another option spelled at its default value
    assert level_records.checked_for("ninja_daifugo", "hard", {**DAIFUGO_TRAINING_RULES, "reward_scheme": "zero_sum"})
    # but not a nearby one that was never laddered
    assert not level_records.checked_for("ninja_daifugo", "hard", {**DAIFUGO_TRAINING_RULES, "series_games": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning where it was checked
        assert registry.cpu("ninja_daifugo", "hard", **DAIFUGO_TRAINING_RULES).name == "hard"


def test_untrained_levels_fit_every_rule_set():
    for level in ("random", "easy", "normal", "expert", "モコ"):
        assert level_records.checked_for("ninja_daifugo", level, {})


def test_building_daifugo_hard_under_unchecked_rules_warns_once_naming_the_rules_it_fits():
    with pytest.warns(UncheckedRulesWarning) as said:
        policy = registry.cpu("ninja_daifugo", "hard", series_games=2)
    assert policy.name == "hard"  # it is still built: a person may ask for it
    assert len(said) == 1
    message = str(said[0].message)
    assert 'series_games=1, ninja="symmetric"' in message  # neither file was checked there: the first plays
    assert "ninja_daifugo_ladder.json" in message and "series_games=2" in message
    assert said[0].filename == __file__  # it points at the caller of cpu, not at the registry
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per game and rule set: the same rules again, the persona
        registry.cpu("ninja_daifugo", "hard", series_games=2)
        registry.cpu("ninja_daifugo", "oyakatasama", series_games=2, ninja="faithful")
    with pytest.warns(UncheckedRulesWarning, match="series_games=3"):  # another rule set is told again
        registry.cpu("ninja_daifugo", "hard", series_games=3)


@pytest.mark.parametrize("game, rules", [("nigejozu", {}), ("momotaro", {}), ("momotaro", {"num_players": 2}),
                                         ("momotaro", {"num_players": 3}), ("ninja_slayer", {}),
                                         ("ninja_slayer", {"decks": "sealed"})])
def test_a_hard_checked_under_these_rules_is_still_offered_without_a_warning(game, rules):
    assert "hard" in registry.available_levels(game, **rules)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry.cpu(game, "hard", **rules)


def test_rules_outside_a_records_list_take_hard_off_the_list_even_where_the_spaces_fit():
    # nigejozu's hard was trained on the chip-margin reward but laddered under the defaults (±1 per game)
    assert "hard" not in registry.available_levels("nigejozu", reward_scheme="score_diff")
    # ninja_slayer's was laddered with constructed decks and with sealed ones, never the two mixed
    assert "hard" not in registry.available_levels("ninja_slayer", decks="any")
    assert "hard" not in registry.available_levels("momotaro", num_players=3, reward_scheme="linear")
    with pytest.warns(UncheckedRulesWarning, match=r"momotaro hard \(momotaro_hard_3p\.npz\).*num_players=3 "
                                                   r"\(momotaro_ladder_3p\.json, momotaro_ladder_3p_field\.json\)"):
        registry.cpu("momotaro", "hard", num_players=3, reward_scheme="linear")


def _weights_copied(tmp_path, monkeypatch, with_records: bool):
    for f in shipped.WEIGHTS_DIR.glob("nigejozu_hard.*"):
        if f.suffix == ".npz" or with_records:
            shutil.copy(f, tmp_path / f.name)
    monkeypatch.setattr(shipped, "WEIGHTS_DIR", tmp_path)
    return tmp_path / "nigejozu_hard.json"


def test_weights_without_a_record_were_checked_nowhere(tmp_path, monkeypatch):
    _weights_copied(tmp_path, monkeypatch, with_records=False)
    assert "hard" not in registry.available_levels("nigejozu")
    with pytest.warns(UncheckedRulesWarning, match="checked against normal only under no rules"):
        registry.cpu("nigejozu", "hard")


def test_a_malformed_record_is_an_error_naming_the_file(tmp_path, monkeypatch):
    record = _weights_copied(tmp_path, monkeypatch, with_records=True)
    assert "hard" in registry.available_levels("nigejozu")
    data = json.loads(record.read_text())
    data["checked_rules"] = [{"rules": {}, "checked_by": []}]  # a rule set no ladder is cited for
    record.write_text(json.dumps(data))
    assert "hard" not in registry.available_levels("nigejozu")
    with pytest.raises(LevelRecordError, match=r"nigejozu_hard\.json: checked_rules\[0\]\.checked_by must list"):
        registry.cpu("nigejozu", "hard")
    record.write_text("{not json")
    with pytest.raises(LevelRecordError, match=r"nigejozu_hard\.json: not a readable JSON record"):
        level_records.checked_for("nigejozu", "hard", {})


def test_a_round_robin_marks_the_hard_rows_played_outside_the_checked_rules():
    pytest.importorskip("rich")
    from yuugi.training.eval.evaluate import EvalResult, Pairing, format_tables, outside_checked_rules, to_json

    two_games = {"series_games": 2}  # a rule set neither daifugō hard file was checked under
    with pytest.warns(UncheckedRulesWarning):
        policies = {name: registry.cpu("ninja_daifugo", name, **two_games) for name in ("normal", "hard")}
    unchecked = outside_checked_rules("ninja_daifugo", policies, two_games)
    assert list(unchecked) == ["hard"] and 'series_games=1, ninja="symmetric"' in unchecked["hard"]
    assert outside_checked_rules("ninja_daifugo", policies, DAIFUGO_TRAINING_RULES) == {}
    assert outside_checked_rules("ninja_daifugo", policies, {}) == {}
    result = EvalResult("ninja_daifugo", [Pairing("normal", "hard", 10, 0.1, (-0.1, 0.3), 0.6, (0.3, 0.8), 0.5)],
                        {"normal": (30.0, 2.0), "hard": (29.0, 2.0)},
                        {"layout": "alternate", "seating": "s", "score_range": [-2.0, 2.0], "unchecked": unchecked})
    text = format_tables(result)
    assert "hard*" in text and f"* hard: {unchecked['hard']}" in text
    assert "normal*" not in text
    assert to_json(result)["unchecked"] == unchecked


def test_of_two_files_that_fit_the_one_checked_under_the_rules_plays_them(tmp_path, monkeypatch):
    """Two daifugō files with the same spaces, each checked under its own rule family: the registry
    picks the file by its record, and falls back to the first that fits where neither was checked."""
    for stem, checked in (("ninja_daifugo_hard", DAIFUGO_TRAINING_RULES), ("ninja_daifugo_hard_series", {})):
        shutil.copy(shipped.WEIGHTS_DIR / "ninja_daifugo_hard.npz", tmp_path / f"{stem}.npz")
        record = json.loads((shipped.WEIGHTS_DIR / "ninja_daifugo_hard.json").read_text())
        record["checked_rules"] = [{"rules": checked, "checked_by": [
            {"ladder": "l.json", "layout": "field", "games": 10, "hard_vs_normal": 0.2, "hard_vs_normal_ci95": [0.1, 0.3]}]}]
        (tmp_path / f"{stem}.json").write_text(json.dumps(record))
    monkeypatch.setattr(shipped, "WEIGHTS_DIR", tmp_path)
    assert registry.hard_weights("ninja_daifugo").name == "ninja_daifugo_hard_series.npz"
    assert registry.hard_weights("ninja_daifugo", series_games=5, ninja="faithful").name == "ninja_daifugo_hard_series.npz"
    assert registry.hard_weights("ninja_daifugo", **DAIFUGO_TRAINING_RULES).name == "ninja_daifugo_hard.npz"
    assert registry.hard_weights("ninja_daifugo", series_games=2).name == "ninja_daifugo_hard.npz"  # neither: the first
    assert "hard" in registry.available_levels("ninja_daifugo")
    assert "hard" in registry.available_levels("ninja_daifugo", **DAIFUGO_TRAINING_RULES)
