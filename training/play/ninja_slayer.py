"""ninja_slayer at the terminal: moves named by their cards, grouped by kind, and what resolved.

The table is the game's own text (both fields, the stack from the top, your hand, the last item that
resolved and the question being asked); under it the legal moves are grouped by kind (pass, エテル,
enter, cast, activate, アイサツ, interrupt, target), each numbered, each naming its card and target.
The log says who did what with which card, what resolved and who took damage.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from yuugi.envs.ninja_slayer import actions as A
from yuugi.envs.ninja_slayer import cards as C
from yuugi.envs.ninja_slayer.decks import DECK_NAMES, RANDOM_SPECS
from yuugi.envs.ninja_slayer.state import DECISION_NAMES, NinjaSlayerState

from yuugi.training.play.table import Table

# The deck choices of ``yuugi play ninja_slayer --deck``: the ``decks`` rule option's names.
DECK_CHOICES = DECK_NAMES + tuple(RANDOM_SPECS)

LEGEND = ("legend: a character reads C04 name K3/W1 dmg1 [T]: code, name, current カラテ/工作力, damage marked; "
          "[T] tapped, * entered this turn,\n"
          "        R redirected this turn, Z カイゼン granted. hand: slot:code name(cost). damage a+b: face up + "
          "face down. エテル untapped/total.")

RULES = """ninja_slayer in brief (the environment's documentation page has it all):
* Each turn: untap, draw 2, put one hand card into エテル (it pays costs by tapping), enter characters,
  then アイサツ (attack) with your untapped characters: a character target takes the attacker's カラテ,
  the player takes its 工作力. An untapped インターラプト character may take over an attack once a turn.
* Damage to a player turns cards from the top of their deck into the damage zone, one per point; a
  card with ウケミ cancels its point and its ウケミ effect goes on the stack for free.
* 10 damage cards lose; so does a deck that reaches 0 cards.
* コトダマ and abilities can be played whenever you hold priority, on either turn; items on the stack
  resolve last-in first-out when both players pass in a row.
* At the prompt: a number from the menu, or a move's label (PASS, SKIP_ETEL, CAST h2 -> opponent slot 1);
  undo / back, hint, moves, quit."""

# The kinds of move, in the order the menu shows them.
_KIND_TITLES = {"pass": "pass", "etel_put": "エテル", "skip_etel": "エテル", "enter": "enter", "cast": "cast",
                "activate": "activate", "aisatsu": "アイサツ", "end_aisatsu": "アイサツ", "interrupt": "interrupt",
                "no_interrupt": "interrupt", "choose_target": "target"}


def card_text(c: int) -> str:
    """A card by code and name, as the table prints it."""
    return f"{C.CODES[c]} {C.NAMES_JP[c].split(' ◆ ')[0]}"


def card_brief(c: int) -> str:
    """What a card is and does, in one short line (for the menu)."""
    keywords = [k for i, k in enumerate(C.KEYWORD_NAMES) if C.KEYWORDS[c] >> i & 1]
    body = f"cost {int(C.COST[c])}"
    if C.IS_CHAR[c]:
        body += f", K{int(C.KARATE[c])}/W{int(C.KOUSAKU[c])}"
    if keywords:
        body += ", " + " ".join(keywords)
    if C.OPCODE[c]:
        trigger = C.TRIGGER_NAMES[int(C.TRIGGER[c])]
        arg = f" {int(C.ARG[c])}" if C.ARG[c] else ""
        target = f" {C.TARGET_NAMES[int(C.TARGET[c])].lower()}" if C.TARGET[c] else ""
        body += f"; {trigger + ' ' if trigger else ''}{C.OPCODE_NAMES[int(C.OPCODE[c])]}{arg}{target}"
    return f"{card_text(c)} ({body})"


def card_details(c: int) -> str:
    """Everything the card table says about a card, for ``card C29`` at the prompt."""
    lines = [card_brief(c), f"  {C.NAMES_JP[c]} ({C.NAMES_ROMAJI[c]}), {'character' if C.IS_CHAR[c] else 'コトダマ'}, "
                            f"rarity {C.RARITY_NAMES[int(C.RARITY[c])]}, faction {C.FACTION_NAMES[int(C.FACTION[c])]}"]
    if C.ACT_E[c] or C.ACT_O[c] or C.ACT_J[c]:
        cost = [f"{int(C.ACT_E[c])} エテル"] if C.ACT_E[c] else []
        cost += ["tap"] if C.ACT_O[c] else []
        cost += [f"{int(C.ACT_J[c])} ジツ"] if C.ACT_J[c] else []
        lines.append(f"  activated ability: costs {' + '.join(cost)}")
    if C.UK_OP[c]:
        arg = f" {int(C.UK_ARG[c])}" if C.UK_ARG[c] else ""
        target = f" {C.TARGET_NAMES[int(C.UK_TARGET[c])].lower()}" if C.UK_TARGET[c] else ""
        lines.append(f"  ウケミ: {C.OPCODE_NAMES[int(C.UK_OP[c])]}{arg}{target}")
    return "\n".join(lines)


def deck_pair(seat: int, mine: str, theirs: str) -> list[str]:
    """The ``decks`` rule option (one per seat) for the person at ``seat`` playing ``mine``."""
    return [mine if p == seat else theirs for p in range(2)]


class NinjaSlayerTable(Table):
    legend = LEGEND
    rules_in_brief = RULES

    def __init__(self, game: Any, seat: int, who: list[str]) -> None:
        super().__init__(game, seat, [f"player_{p} ({w})" for p, w in enumerate(who)])

    # ---- naming moves ----------------------------------------------------------------------------
    def _char(self, st: NinjaSlayerState, owner: int, slot: int) -> str:
        c = int(st.fld_card[0, owner, slot])
        whose = "your" if owner == self.seat else "their"
        return f"{whose} {card_text(c)} (slot {slot})" if c >= 0 else f"{whose} empty slot {slot}"

    def _target(self, st: NinjaSlayerState, actor: int, t: int) -> str:
        if t < 6:
            return self._char(st, actor, t)
        if t < 12:
            return self._char(st, 1 - actor, t - 6)
        return ""

    def describe(self, st: NinjaSlayerState, action: int, actor: int) -> str:
        """``action`` by ``actor`` in ``st``, naming its cards and target."""
        d = A.describe_action(action)
        kind = d["kind"]
        if kind in ("etel_put", "enter", "cast"):
            c = int(st.hand[0, actor, d["hand_slot"]])
            what = {"etel_put": "put into エテル", "enter": "enter", "cast": "cast"}[kind]
            text = f"{what} {card_text(c)}" if c >= 0 else d["label"]
            target = self._target(st, actor, d["target"]) if kind == "cast" else ""
            return text + (f" -> {target}" if target else "")
        if kind == "activate":
            target = self._target(st, actor, d["target"])
            return f"activate {self._char(st, actor, d['field_slot'])}" + (f" -> {target}" if target else "")
        if kind == "aisatsu":
            goal = "the player" if d["target"] == 6 else self._char(st, 1 - actor, d["target"])
            return f"アイサツ with {self._char(st, actor, d['attacker_slot'])} -> {goal}"
        if kind == "interrupt":
            return f"interrupt with {self._char(st, actor, d['field_slot'])}"
        if kind == "choose_target":
            return "target: " + (self._target(st, actor, d["target"]) or "the player / the stack")
        return {"pass": "pass", "skip_etel": "no エテル this turn", "end_aisatsu": "end the アイサツ",
                "no_interrupt": "no interrupt"}[kind]

    def choice(self, st: NinjaSlayerState, action: int) -> str:  # type: ignore[override]
        return self.describe(st, action, int(st.to_play[0]))

    def menu(self, st: NinjaSlayerState, legal: np.ndarray) -> list[str]:  # type: ignore[override]
        asked = DECISION_NAMES[int(st.decision[0])]
        groups: dict[str, list[str]] = {}
        for i, a in enumerate(legal):
            title = _KIND_TITLES[A.FAMILY_NAMES[A.FAMILY[int(a)]]]
            groups.setdefault(title, []).append(f"[{i}] {self.choice(st, int(a))}")
        lines = [f"you are asked: {asked}"]
        lines += [f"  {title}: " + "  ".join(entries) for title, entries in groups.items()]
        played = sorted(set(self._cards_played(st, legal)))
        if played:
            lines.append("  the cards: " + "; ".join(card_brief(c) for c in played))
        return lines

    def _cards_played(self, st: NinjaSlayerState, legal: np.ndarray) -> list[int]:
        """The cards the person would enter, cast or activate with a legal move (what they do is worth showing)."""
        out = []
        for a in legal:
            d = A.describe_action(int(a))
            if d["kind"] in ("enter", "cast"):
                out.append(int(st.hand[0, self.seat, d["hand_slot"]]))
            elif d["kind"] == "activate":
                out.append(int(st.fld_card[0, self.seat, d["field_slot"]]))
        return [c for c in out if c >= 0]

    def look_up(self, name: str) -> str | None:  # type: ignore[override]
        """A card by its code (``C29``, any case) or a part of its name (``ミカヅキ``, ``mikazuki``)."""
        wanted = name.strip().lower()
        if not wanted:
            return None
        found = [c for c in range(C.NUM_CARDS) if C.CODES[c].lower() == wanted]
        found = found or [c for c in range(C.NUM_CARDS)
                          if wanted in C.NAMES_JP[c].lower() or wanted in C.NAMES_ROMAJI[c].lower()]
        return "\n".join(card_details(c) for c in found) if found else None

    def full_list(self, legal: np.ndarray) -> str:
        return "legal moves: " + "  ".join(f"[{i}] {self.label(int(a))}" for i, a in enumerate(legal))

    # ---- the log -----------------------------------------------------------------------------------
    def narrate(  # type: ignore[override]
        self, before: NinjaSlayerState, action: int, after: NinjaSlayerState
    ) -> list[str]:
        actor = int(before.to_play[0])
        lines = [f"{self.names[actor]}: {self.describe(before, action, actor)}"]
        resolved = int(after.last_resolved[0])
        if resolved >= 0 and (resolved != int(before.last_resolved[0]) or after.stk_len[0] < before.stk_len[0]):
            lines.append(f"  resolved: {card_text(resolved)}")
        for p in range(2):
            was = int(before.dmg_up[0, p] + before.dmg_down[0, p])
            now = int(after.dmg_up[0, p] + after.dmg_down[0, p])
            if now != was:
                lines.append(f"  {self.names[p]} damage: {was} -> {now}")
        return lines

    def final(self, st: NinjaSlayerState) -> list[str]:  # type: ignore[override]
        w = int(st.winner[0])
        if w < 0:
            return ["the game is a draw."]
        return ["you win." if w == self.seat else f"{self.names[w]} wins."]

    def hint_policy(self) -> Any:
        """The CPU a hint asks: the registry's normal level once it knows ninja_slayer, else the heuristic."""
        from yuugi.agents.registry import cpu
        from yuugi.envs.core.errors import OptionError

        try:
            return cpu("ninja_slayer", "normal")
        except OptionError:
            from yuugi.agents.heuristics.ninja_slayer import NinjaSlayerHeuristic

            return NinjaSlayerHeuristic()
