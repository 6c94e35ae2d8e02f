"""The flat action space of rules file §6, sized from K0 (kibidango per player).

| Range (K0 = 15)    | Offset       | Count | Meaning |
|--------------------|--------------|-------|---------|
| 0–15               | 0            | K0+1  | BID n (first bid D1, or additional bid D2) |
| 16, 17             | K0+1         | 2     | TAKE / DECLINE the retainer after janken (D3) |
| 18–27              | K0+3         | 10    | HEAL card c (0 = warrior, with a potion; 1..9 retainer, with kibidango) (D4) |
| 28                 | K0+13        | 1     | END HEAL (D4b) |
| 29–40              | K0+14        | 12    | ATTACK oni o (D5) |
| 41–98              | K0+26        | 58    | SEND card set k, Appendix A (D6) |
| 99–108             | K0+84        | 10    | DAMAGE card c (D7: who takes the damage) |
| 109, 110           | K0+94        | 2     | YELLOW reward: TREASURE / POTION (D8) |

``Discrete(K0 + 96)``: 111 actions with the default 15 kibidango.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from .cards import CARD_NAMES, NUM_CARDS, NUM_ONI
from .tables import COMBO_NAMES, COMBOS, NUM_COMBOS, PATTERN_NAMES

# Where each block starts, counted from K0 (the bids are actions 0..K0): action = K0 + offset.
AT_TAKE, AT_DECLINE, AT_HEAL, AT_END_HEAL, AT_ONI, AT_COMBO, AT_ASSIGN, AT_YELLOW_TREASURE, AT_YELLOW_POTION = (
    1, 2, 3, 13, 14, 26, 84, 94, 95)
NUM_FIXED_ACTIONS = 96  # every action but the bids 1..K0

KINDS = ("bid", "take", "decline", "heal", "end_heal", "attack", "send", "damage", "yellow_treasure",
         "yellow_potion")


@dataclasses.dataclass(frozen=True)
class ActionLayout:
    """Offsets of every action block for a given K0."""

    kibi: int

    @property
    def bid0(self) -> int:
        return 0

    @property
    def num_bids(self) -> int:
        return self.kibi + 1

    @property
    def take(self) -> int:
        return self.kibi + AT_TAKE

    @property
    def decline(self) -> int:
        return self.kibi + AT_DECLINE

    @property
    def heal0(self) -> int:
        return self.kibi + AT_HEAL

    @property
    def end_heal(self) -> int:
        return self.kibi + AT_END_HEAL

    @property
    def oni0(self) -> int:
        return self.kibi + AT_ONI

    @property
    def combo0(self) -> int:
        return self.kibi + AT_COMBO

    @property
    def assign0(self) -> int:
        return self.kibi + AT_ASSIGN

    @property
    def yellow_treasure(self) -> int:
        return self.kibi + AT_YELLOW_TREASURE

    @property
    def yellow_potion(self) -> int:
        return self.kibi + AT_YELLOW_POTION

    @property
    def num_actions(self) -> int:
        return self.kibi + NUM_FIXED_ACTIONS

    def decode(self, a: int) -> tuple[str, int]:
        """(kind, argument) of action ``a``: the bid amount, card id, oni id or combo id (else -1)."""
        a = int(a)
        if not 0 <= a < self.num_actions:
            raise ValueError(f"action {a} out of range 0..{self.num_actions - 1}")
        if a < self.take:
            return "bid", a
        if a == self.take:
            return "take", -1
        if a == self.decline:
            return "decline", -1
        if a < self.end_heal:
            return "heal", a - self.heal0
        if a == self.end_heal:
            return "end_heal", -1
        if a < self.combo0:
            return "attack", a - self.oni0
        if a < self.assign0:
            return "send", a - self.combo0
        if a < self.yellow_treasure:
            return "damage", a - self.assign0
        return ("yellow_treasure", -1) if a == self.yellow_treasure else ("yellow_potion", -1)

    def label(self, a: int, oni_names: tuple[str, ...]) -> str:
        kind, arg = self.decode(a)
        if kind == "bid":
            return f"BID {arg}"
        if kind == "heal":
            return f"HEAL {CARD_NAMES[arg]}" + (" (potion)" if arg == 0 else " (kibidango)")
        if kind == "attack":
            return f"ATTACK {oni_names[arg]}"
        if kind == "send":
            return f"SEND {COMBO_NAMES[arg]}"
        if kind == "damage":
            return f"DAMAGE {CARD_NAMES[arg]}"
        return {"take": "TAKE", "decline": "DECLINE", "end_heal": "END HEAL",
                "yellow_treasure": "YELLOW TREASURE", "yellow_potion": "YELLOW POTION"}[kind]

    def describe(self, a: int, oni_names: tuple[str, ...]) -> dict[str, Any]:
        kind, arg = self.decode(a)
        out: dict[str, Any] = {"index": int(a), "label": self.label(a, oni_names), "kind": kind}
        if kind == "bid":
            out.update(amount=arg, decision="D1 bid or D2 additional bid (sealed)")
        elif kind in ("take", "decline"):
            out.update(decision="D3 after janken")
        elif kind == "heal":
            out.update(card=CARD_NAMES[arg], card_id=arg, pays="potion" if arg == 0 else "kibidango",
                       decision="D4 heal one damage")
        elif kind == "end_heal":
            out.update(decision="D4b end healing")
        elif kind == "attack":
            out.update(oni=oni_names[arg], oni_id=arg, decision="D5 choose the oni")
        elif kind == "send":
            pattern, cards = COMBOS[arg]
            out.update(combo_id=arg, pattern=PATTERN_NAMES[pattern], cards=[CARD_NAMES[c] for c in cards],
                       decision="D6 choose the card set")
        elif kind == "damage":
            out.update(card=CARD_NAMES[arg], card_id=arg, decision="D7 assign the damage")
        else:
            out.update(decision="D8 yellow oni reward")
        return out


assert NUM_CARDS == 10 and NUM_ONI == 12 and NUM_COMBOS == 58
