"""Where a trained level was checked: the rule sets its record names, and whether a table's rules are one.

A trained level (``hard``) is shipped as numpy weights with a JSON record beside them
(``agents/weights/<game>_hard*.json``). The record's ``rules`` are the rules it was trained on; its
``checked_rules`` list the rule sets under which a ladder measured it a step above ``normal``, each
with the ladder files and their figures::

    "checked_rules": [{"rules": {"series_games": 1, "ninja": "symmetric"},
                       "checked_by": [{"ladder": "ninja_daifugo_ladder.json", "layout": "alternate",
                                       "games": 2000, "hard_vs_normal": 0.047,
                                       "hard_vs_normal_ci95": [0.0119, 0.0821]}]}]

Weights whose spaces fit a rule set can still be weaker than ``normal`` there (daifugō's ``hard``,
trained on single games with symmetric loadouts, under the default 5-game faithful series), so the
registry offers ``hard`` (``available_levels``) only under a rule set its record names, and ``cpu``
builds it elsewhere with an :class:`UncheckedRulesWarning` naming the rules it was checked under.
Rule sets are compared in the game's canonical options (its config after validation), so ``{}`` and
the defaults spelled out are the same rule set. A weights file without a record, or a record without
``checked_rules``, was checked nowhere.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Mapping

from yuugi.envs import make_game
from yuugi.envs.core.errors import OptionError

from . import weights_format

# The levels that are trained weights, and so play well only where they were checked; the others
# (random, the heuristic and its blundering variant, search over the heuristic) play any rules.
TRAINED_LEVELS = ("hard",)


class UncheckedRulesWarning(UserWarning):
    """A trained level was built for rules its record does not list as checked."""


class LevelRecordError(OptionError):
    """A weights file's record cannot be read or its ``checked_rules`` are malformed."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        super().__init__(f"{self.path}: {problem}")


def record_path(weights: str | Path) -> Path:
    """The JSON record beside a weights file (``<game>_hard.npz`` -> ``<game>_hard.json``)."""
    return Path(weights).with_suffix(".json")


def checked_entries(weights: str | Path) -> list[dict[str, Any]]:
    """The ``checked_rules`` entries of a weights file's record ([] when it has no record or none listed).

    Raises :class:`LevelRecordError` naming the file when the record is not JSON or an entry is not
    ``{"rules": {...}, "checked_by": [{"ladder": ...}, ...]}``.
    """
    path = record_path(weights)
    if not path.exists():
        return []
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise LevelRecordError(path, f"not a readable JSON record ({e})") from None
    if not isinstance(record, dict):
        raise LevelRecordError(path, "not a JSON object")
    entries = record.get("checked_rules", [])
    if not isinstance(entries, list):
        raise LevelRecordError(path, f"checked_rules must be a list of rule sets, got {entries!r}")
    for i, entry in enumerate(entries):
        where = f"checked_rules[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("rules"), dict):
            raise LevelRecordError(path, f"{where} must be an object with a 'rules' object, got {entry!r}")
        checked_by = entry.get("checked_by")
        if (not isinstance(checked_by, list) or not checked_by
                or not all(isinstance(c, dict) and isinstance(c.get("ladder"), str) for c in checked_by)):
            raise LevelRecordError(path, f"{where}.checked_by must list the ladders that checked it "
                                         f"([{{'ladder': FILE, ...}}]), got {checked_by!r}")
    return entries


_CANONICAL: dict[str, dict[str, Any]] = {}


def canonical_rules(game: str, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every rule option of ``game`` under ``rules``, in canonical JSON-safe form (a bad rule raises the
    game's OptionError): two spellings of one rule set give equal dicts."""
    key = json.dumps([game, dict(rules or {})], sort_keys=True, default=repr)
    if key not in _CANONICAL:
        _CANONICAL[key] = weights_format.game_options(make_game(game, **dict(rules or {})))
    return _CANONICAL[key]


def is_checked_under(game: str, weights: str | Path, rules: Mapping[str, Any] | None = None) -> bool:
    """Whether the record of ``weights`` lists ``rules`` (compared canonically) among its checked rule sets."""
    want = canonical_rules(game, rules)
    return any(canonical_rules(game, entry["rules"]) == want for entry in checked_entries(weights))


def show_rules(rules: Mapping[str, Any]) -> str:
    """``series_games=1, ninja="symmetric"``; ``the default rules`` for ``{}``."""
    if not rules:
        return "the default rules"
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in rules.items())


def describe_checked(weights: str | Path) -> str:
    """The rule sets a weights file was checked under, each with its ladders:
    ``series_games=1, ninja="symmetric" (ninja_daifugo_ladder.json, ninja_daifugo_ladder_field.json)``."""
    entries = checked_entries(weights)
    if not entries:
        return f"no rules (its record {record_path(weights).name} lists none)"
    return "; ".join(f"{show_rules(e['rules'])} ({', '.join(c['ladder'] for c in e['checked_by'])})"
                     for e in entries)


def _hard_weights_for(game: str, rules: Mapping[str, Any]) -> Path | None:
    # The registry picks the weights file by its spaces; imported here because the registry imports us.
    from .registry import hard_weights

    try:
        return hard_weights(game, **dict(rules))
    except OptionError:  # no shipped weights fit these rules (or the one that might is unreadable)
        return None


def _level(game: str, level: str) -> str:
    from .registry import level_of

    return level_of(game, level)


def checked_for(game: str, level: str, rules: Mapping[str, Any] | None = None) -> bool:
    """Whether ``level`` (a level or persona name) of ``game`` was checked under ``rules``.

    Untrained levels play any rules and are always True; a trained level is True only when the weights
    that would play these rules exist and their record lists these rules.
    """
    level = _level(game, level)
    if level not in TRAINED_LEVELS:
        return True
    weights = _hard_weights_for(game, rules or {})
    return weights is not None and is_checked_under(game, weights, rules)


def unchecked_note(game: str, level: str, rules: Mapping[str, Any] | None = None) -> str | None:
    """One line saying that ``level`` is played outside the rules it was checked under and which rules
    those are, or None when it was checked under ``rules`` (or is not a trained level, or has no weights
    for these rules: then it cannot be built at all, and building it says why)."""
    named = _level(game, level)
    if named not in TRAINED_LEVELS:
        return None
    weights = _hard_weights_for(game, rules or {})
    if weights is None or is_checked_under(game, weights, rules):
        return None
    return (f"{game} {named} ({weights.name}) was checked against normal only under {describe_checked(weights)}; "
            f"not under these rules ({show_rules(dict(rules or {}))}), where it may be no stronger than normal")


_WARNED: set[str] = set()


def warn_if_unchecked(game: str, level: str, rules: Mapping[str, Any] | None = None, stacklevel: int = 2) -> None:
    """Warn (:class:`UncheckedRulesWarning`) once per game and rule set when ``level`` was not checked
    under ``rules``; ``stacklevel`` as for :func:`warnings.warn`, counted from the caller."""
    note = unchecked_note(game, level, rules)
    if note is None:
        return
    key = json.dumps([game, _level(game, level), canonical_rules(game, rules)], sort_keys=True)
    if key in _WARNED:
        return
    _WARNED.add(key)
    warnings.warn(note, UncheckedRulesWarning, stacklevel=stacklevel + 1)
