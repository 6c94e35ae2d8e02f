"""nigejozu at the terminal: dice, provinces, troops and card effects told in words.

A card's text is shown in the menu before it is chosen; once chosen, ``back`` takes the choice back
(the terminal's take-back of an unfinished card, like ``undo``: the rules' "a chosen card cannot be
abandoned" binds the game, not a misclick at the prompt).
"""
from __future__ import annotations

import numpy as np

from yuugi.agents.heuristics.nigejozu import NigejozuHeuristic
from yuugi.envs.nigejozu import actions as A
from yuugi.envs.nigejozu.board import NUM_PROVINCES, PROVINCE_NAMES
from yuugi.envs.nigejozu.rules import count_for
from yuugi.envs.nigejozu.state import FACTION_JA, FACTION_NAMES, PHASE_CARD, PHASE_OVER, NigejozuState

from yuugi.training.play.table import InputError, Table

LEGEND = ("legend: a province reads 名前 #chip hojo:ashikaga troops (京 #7 3:1 = chip 7, 3 北条 and 1 足利 troop); "
          "| = / \\ land borders, ~ sea links;\n"
          "        cards: name (*used) and, in the paired deck, [裏 the other face]; > marks the side to play.")

RULES = """nigejozu in brief (docs/rules/nigejozu.md has it all):
* Two factions, 北条 hojo and 足利 ashikaga, 18 troops each, 11 provinces worth their chip (2..12).
* Your turn: ROLL the three dice (one REROLL of all three allowed), then keep one die as the count
  (1-2 -> 1 troop, 3-4 -> 2, 5-6 -> 3) and the other two name the province whose chip is their sum;
  or instead play one of your strategy cards (once per game; none once either hand is empty).
* The first side to empty its hand takes the 逃げチップ (it wins ties); the other then plays on alone.
* Battle: provinces are fought in chip order 2..12; more troops (plus reinforcements from adjacent
  provinces already won) take the chip. Most chip points wins.
* At the prompt: a number from the menu, or a name (roll, reroll, a card, a province);
  undo / back, hint, moves, quit."""


def _side(k: int) -> str:
    return f"{FACTION_JA[k]} {FACTION_NAMES[k]}"


class NigejozuTable(Table):
    legend = LEGEND
    rules_in_brief = RULES

    def __init__(self, game, seat: int, who: list[str]) -> None:  # type: ignore[no-untyped-def]
        super().__init__(game, seat, [_side(k) for k in range(2)])
        self.who = who

    def render(self, st: NigejozuState) -> str:  # type: ignore[override]
        sides = "; ".join(f"{self.names[k]}: {self.who[k]}" for k in range(2))
        return self.game.render_text(st, 0, seat=self.seat) + "\n" + sides + self.legend_once()

    # ---- the menu ------------------------------------------------------------------------------
    def label(self, action: int) -> str:
        d = A.describe_action(action)
        if d["kind"] == "card":
            return f"card {d['name']} ({d['romaji']}): {d['text']}"
        if d["kind"] == "province":
            return f"{d['name']} ({d['romaji']})"
        return {"roll": "roll", "reroll": "reroll", "done": "done (end 上洛)"}.get(d["kind"], d["label"])

    def choice(self, st: NigejozuState, a: int) -> str:  # type: ignore[override]
        d = A.describe_action(a)
        if d["kind"] == "count_die":
            dice = [int(x) for x in st.dice[0]]
            keep = dice[d["die"]]
            chip = sum(dice) - keep
            p = int(st.prov_of[0, chip])
            n = min(int(count_for(np.array(keep))), int(st.hand[0, int(st.to_play[0])]))
            h, s = (int(x) for x in st.troops[0, p])
            return f"keep {keep}: {n} troop(s) to {PROVINCE_NAMES[p]} #{chip} (now {h}:{s})"
        if d["kind"] == "province":
            p = d["province"]
            h, s = (int(x) for x in st.troops[0, p])
            return f"{PROVINCE_NAMES[p]} #{int(st.chip[0, p])} ({h}:{s})"
        return self.label(a)

    def menu(self, st: NigejozuState, legal: np.ndarray) -> list[str]:  # type: ignore[override]
        lines = ["you may:"] + [f"  [{i}] {self.choice(st, int(a))}" for i, a in enumerate(legal)]
        if int(st.phase[0]) == PHASE_CARD:
            lines.append("  (back: take the card back and choose again)")
        return lines

    def full_list(self, legal: np.ndarray) -> str:
        return "legal moves: " + "  ".join(f"[{i}] {self.label(int(a))}" for i, a in enumerate(legal))

    def parse(self, answer: str, st: NigejozuState, legal: np.ndarray) -> int:  # type: ignore[override]
        word = answer.strip().lower()
        for a in legal:
            d = A.describe_action(int(a))
            names = {d["label"].lower(), d["kind"]}
            if d["kind"] in ("card", "province"):
                names |= {d["name"], d["romaji"].lower(), f"card {d['name']}", f"card {d['romaji'].lower()}"}
            if d["kind"] == "count_die":
                names = {f"keep {int(st.dice[0, d['die']])}"}
            if word in names or word == self.choice(st, int(a)).lower():
                return int(a)
        try:
            return super().parse(answer, st, legal)
        except InputError:
            raise InputError(f"'{answer}' is not one of the legal moves; type its number 0..{len(legal) - 1} "
                             "from the menu, or roll / reroll / keep N (the die to count) / a card's or a province's "
                             "name "
                             "(help: the rules, moves: the list).") from None

    # ---- the log -------------------------------------------------------------------------------
    def narrate(self, before: NigejozuState, action: int, after: NigejozuState) -> list[str]:  # type: ignore[override]
        k = int(before.to_play[0])
        who = self.names[k]
        d = A.describe_action(action)
        lines = []
        if d["kind"] in ("roll", "reroll"):
            dice = " ".join(str(int(x)) for x in after.dice[0])
            lines.append(f"{who} {'rolls' if d['kind'] == 'roll' else 'rerolls'}: {dice}")
        elif d["kind"] == "count_die":
            dice = [int(x) for x in before.dice[0]]
            keep = dice[d["die"]]
            chip = sum(dice) - keep
            p = int(before.prov_of[0, chip])
            placed = int(after.troops[0, p, k] - before.troops[0, p, k])
            h, s = (int(x) for x in after.troops[0, p])
            lines.append(f"{who} keeps the {keep} as the count: {placed} troop(s) to {PROVINCE_NAMES[p]} #{chip} "
                         f"(the other dice sum to {chip}); {PROVINCE_NAMES[p]} now {h}:{s}, "
                         f"{int(after.hand[0, k])} left in hand")
        elif d["kind"] == "card":
            lines.append(f"{who} plays the card {d['name']} ({d['romaji']}): {d['text']}")
        elif d["kind"] == "province":
            moves = self._troop_changes(before, after)
            lines.append(f"{who} chooses {PROVINCE_NAMES[d['province']]}" + (f": {moves}" if moves else ""))
        else:
            lines.append(f"{who} ends 上洛")
        for side in range(2):
            if int(after.escape[0]) == side and int(before.escape[0]) != side:
                lines.append(f"{self.names[side]}'s hand is empty: it takes the 逃げチップ (wins ties); "
                             f"{self.names[1 - side]} plays on alone")
        if int(after.phase[0]) == PHASE_OVER:
            lines.append("both hands are empty: the battle is fought in chip order (below).")
        return lines

    @staticmethod
    def _troop_changes(before: NigejozuState, after: NigejozuState) -> str:
        changes = []
        for p in range(NUM_PROVINCES):
            if not np.array_equal(before.troops[0, p], after.troops[0, p]):
                (h0, s0), (h1, s1) = before.troops[0, p], after.troops[0, p]
                changes.append(f"{PROVINCE_NAMES[p]} {int(h0)}:{int(s0)} -> {int(h1)}:{int(s1)}")
        for k in range(2):
            if before.hand[0, k] != after.hand[0, k]:
                changes.append(f"{FACTION_JA[k]} hand {int(before.hand[0, k])} -> {int(after.hand[0, k])}")
        return ", ".join(changes)

    def explain(self, st: NigejozuState, action: int) -> str:  # type: ignore[override]
        mask = self.game.legal_mask(st)
        scores = NigejozuHeuristic().scores(self.game.observe(st, int(st.to_play[0])), mask)[0]
        legal = np.flatnonzero(mask[0])
        ranked = sorted(legal, key=lambda a: -scores[a])[:3]
        shown = ", ".join(f"{self._short(st, int(a))} {scores[a]:+.2f}" for a in ranked)
        return f"its board value of each move (chip points, higher is better): {shown}"

    def _short(self, st: NigejozuState, a: int) -> str:
        d = A.describe_action(a)
        if d["kind"] == "card":
            return f"card {d['name']}"
        if d["kind"] == "count_die":
            return f"keep {int(st.dice[0, d['die']])}"
        return self.label(a)

