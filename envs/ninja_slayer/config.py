"""Rule options of ninja_slayer, validated once at construction (an unknown name or a value outside
its choices raises :class:`~yuugi.envs.core.errors.OptionError` naming the valid choices)."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping


from yuugi.envs.core.options import check_bool, check_choice, check_float, check_int, check_option_names

from .sizes import DECK_MAX, FIELD_SLOTS, HAND_SLOTS, LOSE_AT_DAMAGE, STACK_MAX, STACK_USER_MAX  # noqa: F401

_CHOICES: dict[str, tuple[Any, ...]] = {
    "deckout_rule": ("reach_zero", "draw_from_empty"),
    "ukemi_nullifies": ("point", "event"),
    "death_rule": ("karate",),
    "priority_windows": ("all", "compact"),
    "hand_overflow": ("burn",),
    "mulligan": ("none",),
    "observation": ("full", "card_ids"),
}


@dataclasses.dataclass(frozen=True)
class NinjaSlayerConfig:
    """Options (defaults are the faithful rules).

    * ``deckout_rule``: ``"reach_zero"`` (a player whose deck reaches 0 cards loses at once) or
      ``"draw_from_empty"`` (only drawing or revealing from an empty deck loses).
    * ``ukemi_nullifies``: ``"point"`` (a ウケミ card cancels its own point) or ``"event"`` (it also
      cancels the rest of that damage event).
    * ``death_rule``: ``"karate"`` (a character with damage ≥ 1 and ≥ its カラテ is destroyed).
    * ``summoning_sickness``: a character that entered this turn cannot アイサツ unless it has ハヤテ.
    * ``interrupt_taps``: plain インターラプト needs an untapped character and taps it (カイゼン never
      does); False lets plain インターラプト act like カイゼン.
    * ``priority_windows``: ``"all"`` (every window) or ``"compact"`` (only the character phase, after
      an アイサツ, after an asked interrupt, the end phase, and whenever the stack is non-empty).
    * ``auto_pass_forced``: decisions with exactly one legal action are taken by the engine.
    * ``hand_overflow``: ``"burn"`` (a card drawn or bounced into a full hand goes to オヒガン).
    * ``mask_useless``: mask ALL_* effects with nothing to affect and HEAL with an empty damage zone.
    * ``max_turns``, ``max_decisions``: the safety truncation (a draw): after the cleanup of turn
      ``max_turns``, or after ``max_decisions`` agent decisions.
    * ``sr_rate``: the chance that a sealed pack's rare slot holds an SR.
    * ``decks``: one deck per seat: ``"D1".."D4"``, ``"constructed"`` (one of D1..D4 at random per
      game), ``"sealed"`` (5 fresh blitz packs per game), ``"any"`` (one of the five at random) or an
      explicit 50-card list of codes (checked against the constructed rules).
    * ``history``: how many recent public actions the observation shows.
    * ``observation``: ``"full"`` (each card shown as its 68 static features; 5,350 floats with the
      default history) or ``"card_ids"`` (each card shown as one float, its id, ``(id + 1) / 48``, the
      features' second column; 1,464 floats): the same information in a quarter of the bytes, for a
      model that looks a card's features up by its id (``cards.CARD_FEATURES``). Its own observation
      space, so weights trained on one do not load for the other.
    """

    deckout_rule: str = "reach_zero"
    ukemi_nullifies: str = "point"
    death_rule: str = "karate"
    summoning_sickness: bool = True
    interrupt_taps: bool = True
    priority_windows: str = "all"
    auto_pass_forced: bool = True
    hand_overflow: str = "burn"
    mulligan: str = "none"
    mask_useless: bool = False
    max_turns: int = 60
    max_decisions: int = 5000
    sr_rate: float = 0.2
    decks: tuple[Any, Any] = ("constructed", "constructed")
    history: int = 8
    observation: str = "full"

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "NinjaSlayerConfig":
        check_option_names("ninja_slayer", options, cls)
        opts = dict(options)
        if "decks" in opts:
            from .decks import parse_deck_specs

            opts["decks"] = parse_deck_specs(opts["decks"])
        cfg = cls(**opts)
        cfg.validate()
        return cfg

    def validate(self) -> None:
        for name, choices in _CHOICES.items():
            check_choice(name, getattr(self, name), choices)
        for name in ("summoning_sickness", "interrupt_taps", "auto_pass_forced", "mask_useless"):
            check_bool(name, getattr(self, name))
        check_int("max_turns", self.max_turns, 1, 200)
        check_int("max_decisions", self.max_decisions, 1, 100_000)
        check_int("history", self.history, 1, 32)
        check_float("sr_rate", self.sr_rate, 0.0, 1.0)
        from .decks import parse_deck_specs

        parse_deck_specs(self.decks)
