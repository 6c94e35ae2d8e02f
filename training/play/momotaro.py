"""momotaro (鬼ヶ島) at the terminal: auctions, battles with both dice and the outcome, damage and heals.

Every battle is told with both strengths and both dice (the oni's total = its strength + the red die,
yours = your strength + the white die), yours as well as the CPUs'; what followed (damage, knock-outs,
defeated oni, treasure) is read off the state before and after the move.
"""
from __future__ import annotations

import numpy as np

from yuugi.envs.momotaro import render
from yuugi.envs.momotaro.cards import CARD_JA, CARD_NAMES, NUM_CARDS, NUM_ONI, WARRIOR_JA
from yuugi.envs.momotaro.state import (AT_DECK, AT_FIELD, AT_POTION, AT_TREASURE, OUT_DRAW, OUT_LOSS, OUT_WIN,
                                 PHASE_ADD, PHASE_BID, PHASE_TAKE, MomotaroState)
from yuugi.envs.momotaro.tables import COMBOS

from yuugi.training.play.table import InputError, Table

LEGEND = """legend: cards W = your warrior (power {warrior}, no mark), I1-I3 イヌ dog (グー rock), S1-S3 サル monkey ({monkey}),
        K1-K3 キジ pheasant (チョキ scissors): the number is the power; [-2] = 2 damage on the card.
        oni R 赤鬼 (チョキ), B 青鬼 (グー), G 緑鬼 ({green}) {values}, X6 黒鬼 (regenerates), Y2/Y4 黄鬼 (treasure or potions);
        the number is its power and treasure. Janken: グー beats チョキ, チョキ beats パー, パー beats グー —
        each card sent whose mark beats the oni's adds 1, each that loses subtracts 1."""

RULES = """momotaro (鬼ヶ島) in brief (docs/rules/momotaro.md has it all):
* Hiring: the 9 retainers are auctioned one by one with sealed bids of kibidango; the highest bid
  takes the card and pays; a tie bids again, then janken, and the winner may take or decline.
* Battle, 3 rounds of 4 new oni each. Your turn: heal (kibidango heal retainers, potions the
  warrior), choose an oni, send one card, 2-3 retainers of one kind, one of each kind, or your
  warrior with one retainer. Your strength = powers - damage + janken; the oni's = power - damage.
  Red die to the oni, white to you. Win: the oni takes the difference (defeated: its treasure is
  yours). Draw: 1 damage each way. Loss: one card you sent takes it all (knocked out at its power;
  your warrior knocked out = you are out).
* Most treasure among the surviving warriors wins.
* At the prompt: the number from the menu or the move's name (BID 3, ATTACK R5, SEND I1+K2);
  undo, hint, moves, quit."""

OUTCOME_WORDS = {OUT_WIN: "win", OUT_DRAW: "draw", OUT_LOSS: "the oni wins"}


class MomotaroTable(Table):
    rules_in_brief = RULES

    def __init__(self, game, seat: int, who: list[str]) -> None:  # type: ignore[no-untyped-def]
        super().__init__(game, seat, [f"{w}({p})" for p, w in enumerate(who)])
        self.cfg = cfg = game.config
        self.tables = cfg.tables  # card and oni powers, oni names, janken modifiers, the action layout
        marks = {"rock": "グー", "scissors": "チョキ", "paper": "パー"}
        self.legend = LEGEND.format(warrior=cfg.warrior_value, green=marks[cfg.green_mark],
                                    monkey=marks[cfg.monkey_mark], values="/".join(str(v) for v in cfg.colored_values))

    def render(self, st: MomotaroState) -> str:  # type: ignore[override]
        text = render.render_text(self.cfg, st, 0, seat=self.seat, names=self.names)
        warriors = ", ".join(f"{WARRIOR_JA[p]} = {self.names[p]}" for p in range(self.cfg.num_players))
        return f"{text}\nwarriors: {warriors}{self.legend_once()}"

    def menu(self, st: MomotaroState, legal: np.ndarray) -> list[str]:  # type: ignore[override]
        kinds = {self.tables.layout.decode(int(a))[0] for a in legal}
        if kinds == {"bid"}:  # bids are 0..max and their numbers are the amounts
            return [f"you may bid 0..{len(legal) - 1} kibidango (sealed): type the amount"]
        return ["you may: " + "  ".join(f"[{i}] {self.label(int(a))}" for i, a in enumerate(legal))]

    def parse(self, answer: str, st: MomotaroState, legal: np.ndarray) -> int:  # type: ignore[override]
        try:
            return super().parse(answer, st, legal)
        except InputError:
            raise InputError(f"'{answer}' is not one of the legal moves; type its number 0..{len(legal) - 1} "
                             "from the menu or its name as shown (help: the rules and the legend).") from None

    # ---- the log -------------------------------------------------------------------------------
    def narrate(self, before: MomotaroState, action: int, after: MomotaroState) -> list[str]:  # type: ignore[override]
        p = int(before.to_play[0])
        who = self.names[p]
        kind, arg = self.tables.layout.decode(action)
        lines: list[str] = []
        if kind == "bid":
            sealed = p != self.seat
            stage = "additional bid" if int(before.phase[0]) == PHASE_ADD else "bid"
            lines.append(f"{who}: sealed {stage}" + ("" if sealed else f" of {arg}"))
            lines += self._auction_result(before, after)
        elif kind in ("take", "decline"):
            lines.append(f"{who} {'takes' if kind == 'take' else 'declines'} the retainer")
            lines += self._auction_result(before, after)
        elif kind == "heal":
            pays = "a potion" if arg == 0 else "a kibidango"
            lines.append(f"{who} heals {CARD_NAMES[arg]} ({pays})")
        elif kind == "end_heal":
            lines.append(f"{who} ends healing")
        elif kind == "attack":
            o = arg
            left = int(self.tables.oni_power[o]) - int(before.oni_dmg[0, o])
            lines.append(f"{who} attacks {self._oni(o)} (strength {left})")
        elif kind == "send":
            lines.append(self._battle(before, arg, after))
        elif kind == "damage":
            lines.append(f"{who} puts the damage on {CARD_NAMES[arg]}")
        else:
            lines.append(f"{who} takes the 黄鬼's " + ("treasure" if kind == "yellow_treasure" else "potions"))
        lines += self._consequences(before, after)
        if int(after.round[0]) > int(before.round[0]):
            new = [self._oni(o) for o in range(NUM_ONI) if after.oni_at[0, o] == AT_FIELD]
            lines.append(f"battle round {int(after.round[0])}: on the field {' '.join(new)}; "
                         f"start player {self.names[int(after.start_player[0])]}")
        return lines

    def _oni(self, o: int) -> str:
        return self.tables.oni_names[o]

    def _auction_result(self, before: MomotaroState, after: MomotaroState) -> list[str]:
        pos = int(before.hire_pos[0])
        retainer = int(before.hire_deck[0, pos])
        card = retainer + 1
        bids_of = lambda first, add: ", ".join(  # noqa: E731
            f"{self.names[q]} {int(first[q])}" + (f"+{int(add[q])}" if add[q] >= 0 else "")
            for q in range(self.cfg.num_players) if first[q] >= 0)
        if int(before.phase[0]) == PHASE_BID and int(after.phase[0]) == PHASE_ADD:
            tied = [self.names[q] for q in range(self.cfg.num_players) if after.bidders[0, q]]
            return [f"bids for {CARD_NAMES[card]}: {bids_of(after.bids[0], after.adds[0])} — a tie: "
                    f"{', '.join(tied)} bid again"]
        if int(after.phase[0]) == PHASE_TAKE and int(before.phase[0]) != PHASE_TAKE:
            return [f"bids for {CARD_NAMES[card]}: {bids_of(after.bids[0], after.adds[0])} — tied again: "
                    f"janken, won by {self.names[int(after.to_play[0])]}, who takes or declines"]
        if int(after.hire_pos[0]) == pos:
            return []
        winners = [q for q in range(self.cfg.num_players) if after.hand[0, q, card] and not before.hand[0, q, card]]
        shown = bids_of(after.last_bids[0], after.last_adds[0])
        if winners:
            q = winners[0]
            paid = int(before.kibi[0, q]) - int(after.kibi[0, q])
            return [f"bids for {CARD_NAMES[card]} ({CARD_JA[card]}): {shown} — {self.names[q]} hires it for {paid}"]
        return [f"{CARD_NAMES[card]} is declined and leaves the game" + (f" (bids {shown})" if shown else "")]

    def _battle(self, before: MomotaroState, combo: int, after: MomotaroState) -> str:
        p = int(before.to_play[0])
        o = int(after.target[0]) if after.target[0] >= 0 else int(before.target[0])
        cards = COMBOS[combo][1]
        reduce = self.cfg.damage_reduces_power
        power = sum(int(self.tables.card_power[c]) - (int(before.card_dmg[0, p, c]) if reduce else 0) for c in cards)
        janken = int(self.tables.combo_oni_mod[combo, o])
        mine = power + janken
        oni = int(self.tables.oni_power[o]) - int(before.oni_dmg[0, o])
        red, white = int(after.dice[0, 0]), int(after.dice[0, 1])
        sent = "+".join(CARD_NAMES[c] for c in cards)
        outcome = OUTCOME_WORDS.get(int(after.outcome[0]), "?")
        return (f"{self.names[p]} sends {sent} against {self._oni(o)}: {self._oni(o)} {oni} + red {red} = {oni + red}, "
                f"{self.names[p]} {power} {janken:+d} janken + white {white} = {mine + white} -> {outcome}")

    def _consequences(self, before: MomotaroState, after: MomotaroState) -> list[str]:
        lines = []
        for o in range(NUM_ONI):
            d0, d1 = int(before.oni_dmg[0, o]), int(after.oni_dmg[0, o])
            defeated = before.oni_at[0, o] == AT_FIELD and after.oni_at[0, o] in (AT_TREASURE, AT_POTION)
            if defeated:
                owner = self.names[int(after.oni_owner[0, o])]
                prize = "potions" if after.oni_at[0, o] == AT_POTION else f"{int(self.tables.oni_power[o])} treasure"
                lines.append(f"  {self._oni(o)} is defeated: {prize} to {owner}")
            elif after.oni_at[0, o] == AT_FIELD and before.oni_at[0, o] != AT_DECK and d1 != d0:
                lines.append(f"  {self._oni(o)} damage {d0} -> {d1}" + (" (黒鬼 regenerates)" if d1 < d0 else ""))
        for q in range(self.cfg.num_players):
            for c in range(NUM_CARDS):
                d0, d1 = int(before.card_dmg[0, q, c]), int(after.card_dmg[0, q, c])
                name = f"{self.names[q]}'s {CARD_NAMES[c]}"
                if after.ko[0, q, c] and not before.ko[0, q, c]:
                    lines.append(f"  {name} is knocked out")
                elif d1 != d0 and not after.ko[0, q, c]:
                    lines.append(f"  {name} damage {d0} -> {d1}")
            if before.alive[0, q] and not after.alive[0, q]:
                lines.append(f"  {self.names[q]}'s warrior is knocked out: {self.names[q]} is out of the game")
        if int(after.pending[0]) and not int(before.pending[0]):
            lines.append(f"  {int(after.pending[0])} damage to put on one of the cards sent "
                         f"({self.names[int(after.to_play[0])]} chooses)")
        return lines

    def final(self, st: MomotaroState) -> list[str]:  # type: ignore[override]
        seats = range(self.cfg.num_players)
        return ["treasure: " + ", ".join(f"{self.names[p]} {int(st.treasure[0, p])}" for p in seats)]

    def explain(self, st: MomotaroState, action: int) -> str:  # type: ignore[override]
        kind, _ = self.tables.layout.decode(action)
        return {
            "bid": "it bids by the retainer's worth (stronger, first of a kind) against the stock still to spend",
            "take": "every retainer fights, shields the warrior and breaks ties",
            "heal": "it heals whenever it can, the warrior first, then the strongest retainers",
            "end_heal": "nothing left worth healing",
            "attack": "the oni whose best card set has the best expected result over the 36 dice rolls",
            "send": "the card set with the best expected result over the 36 dice rolls "
                    "(treasure won minus damage taken)",
            "damage": "the card for which the damage costs least (never the warrior while another card fought)",
            "yellow_treasure": "treasure, as no potion is needed",
            "yellow_potion": "the warrior needs the potions",
        }.get(kind, "")

