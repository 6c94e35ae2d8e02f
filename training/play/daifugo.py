"""ninja daifugō at the terminal: the person plays cards from their hand, typed in any order.

The menu groups what can be played (singles, groups by rank, sequences, ninpō) instead of numbering
every move; a play is typed as its cards (:mod:`yuugi.training.play.input`). One notation everywhere: the
hand, the field, the log and the input all write ``♠9`` ``♥10`` ``JK``, and ninpō as ``足止め ashidome``.
The log tells plays, passes, ninpō with their effect, what each play set off (8-cut, revolution,
lock, a skipped turn, a player going out) and, between the games of a series, everyone's place.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from yuugi.envs.ninja_daifugo import actions as A
from yuugi.envs.ninja_daifugo.cards import JOKER, RANK_CHARS, SUIT_SYMBOLS, card_symbol, mask_to_cards
from yuugi.envs.ninja_daifugo.config import D_WEAK_JOKER, DECLARATION_TEXT
from yuugi.envs.ninja_daifugo.render import render_text, sort_hand, symbol_label
from yuugi.envs.ninja_daifugo.state import PHASE_EXCHANGE, PHASE_SHURIKEN, DaifugoState

from yuugi.training.play.input import parse_card, parse_cards
from yuugi.training.play.table import InputError, Table

LEGEND = """legend: ranks 3 (weakest) 4 … 10 J Q K A 2 (strongest), JK the joker; suits ♠ ♥ ♦ ♣ (type s h d c too).
        titles 大富豪 1st, 富豪 2nd, 貧民 3rd, 大貧民 4th of the last game; [忍N …] = ninja points and each
        ninpō's level × uses left (足止め ashidome, 手裏剣 shuriken, 雷遁 raiton, 変化 henge); skips:N = turns to lose."""

RULES = """ninja daifugō in brief (docs/rules/ninja_daifugo.md has it all):
* Be first to empty your hand. On the field goes a single, a group of one rank (2-4 cards, the joker
  may join) or a sequence of 3+ of one suit; beat it with the same shape, stronger (a sequence must
  lie wholly above), or pass. When everyone else has passed the field clears and the last player leads.
* 8-cut: a play with an 8 clears the field and you lead again. ♠3 beats a lone joker. Four or more
  cards at once (group or sequence) start a revolution: the order reverses. Two plays of the same
  suits in a row lock those suits (縛り) until the field clears.
* Each game the Lord declares a rule change (D0-D9, shown on the table). From game 2 the 大貧民 gives
  their 2 best cards to the 大富豪 and gets 2 back (貧民 and 富豪 swap 1); a 大富豪 who does not
  finish first falls to last (都落ち).
* Ninpō (once per turn, before playing, paid with ninja points): 足止め ashidome skips a player's
  next turn; 手裏剣 shuriken throws one of your cards into an opponent's hand; 雷遁 raiton clears the
  field and you lead; 変化 henge makes this turn's play count stronger.
* At the prompt: the cards to play in any order (♠9 ♦9, s9 d9, 9s 9d; 10 or T), pass, a ninpō
  (ashidome 2 = on seat 2), or a card to give/throw; undo, hint, moves (the numbered list), quit."""

PLACE_TITLE = {1: "大富豪", 2: "富豪", 3: "貧民", 4: "大貧民"}
JUTSU_EFFECT = ("{target} loses their next turn", "{who} will throw one of their cards into {target}'s hand",
                "the field clears and {who} leads", "{who}'s play this turn counts {shift} rank(s) stronger")


class DaifugoTable(Table):
    legend = LEGEND
    rules_in_brief = RULES

    def __init__(self, game, seat: int, who: list[str]) -> None:  # type: ignore[no-untyped-def]
        super().__init__(game, seat, [f"{w}({p})" for p, w in enumerate(who)])

    def render(self, st: DaifugoState) -> str:  # type: ignore[override]
        return render_text(st, 0, seat=self.seat, names=self.names) + self.legend_once()

    def label(self, action: int) -> str:
        """The notation of the table; a targeted ninpō names its target's seat as it is typed."""
        if A.KIND[action] == A.K_JUTSU and A.TARGET[action]:
            return self._jutsu_option(int(action))
        return symbol_label(action)

    # ---- the menu ------------------------------------------------------------------------------
    def menu(self, st: DaifugoState, legal: np.ndarray) -> list[str]:  # type: ignore[override]
        phase = int(st.phase[0])
        if phase in (PHASE_EXCHANGE, PHASE_SHURIKEN):
            cards = " ".join(card_symbol(int(A.PICK_CARD[a])) for a in legal)
            if phase == PHASE_SHURIKEN:
                what = f"throw a card into {self.names[int(st.shuriken_target[0])]}'s hand (手裏剣)"
            else:
                to = self.names[self._partner(st, self.seat)]
                what = f"give {int(st.picks_left[0])} card(s) to {to} in the exchange, one at a time"
            return [f"{what}: type one of {cards}"]
        kinds = A.KIND[legal]
        if (kinds == A.K_PASS).all():
            return ["nothing in your hand can be played on this field: type pass"]
        lines = ["you may: " + ("pass, or play" if (kinds == A.K_PASS).any() else "play (you lead)")]
        singles = [int(a) for a in legal if A.KIND[a] in (A.K_SINGLE, A.K_JSINGLE)]
        if singles:
            lines.append("  singles: " + " ".join(symbol_label(a) for a in self._sorted(st, singles)))
        groups = self._groups(legal)
        if groups:
            lines.append("  groups:  " + "; ".join(groups))
        seqs = [symbol_label(int(a)) for a in legal if A.KIND[a] == A.K_SEQ]
        if seqs:
            shown = seqs[:10] + ([f"… {len(seqs) - 10} more"] if len(seqs) > 10 else [])
            lines.append("  sequences: " + " | ".join(shown))
        jutsu = [int(a) for a in legal if A.KIND[a] == A.K_JUTSU]
        if jutsu:
            lines.append("  ninpō: " + ", ".join(self._jutsu_option(a) for a in jutsu))
        lines.append("type the cards to play in any order (♠9 ♦9, s9 d9, 10 or T)"
                     + (", pass" if (kinds == A.K_PASS).any() else "") + (", or a ninpō" if jutsu else ""))
        return lines

    def _sorted(self, st: DaifugoState, actions: list[int]) -> list[int]:
        by_card = {int(mask_to_cards(int(A.CARDS[a]))[0]): a for a in actions}
        order = sort_hand(list(by_card), bool(st.revolution[0]), int(st.declaration[0]) == D_WEAK_JOKER)
        return [by_card[c] for c in order]

    @staticmethod
    def _groups(legal: np.ndarray) -> list[str]:
        """One entry per rank: the cards that can form a group and the sizes allowed now."""
        cards, sizes, joker = defaultdict(set), defaultdict(set), defaultdict(bool)
        for a in legal:
            if A.KIND[a] != A.K_GROUP:
                continue
            r = int(A.LO[a])
            cards[r] |= {c for c in mask_to_cards(int(A.CARDS[a])) if c != JOKER}
            sizes[r].add(int(A.SIZE[a]))
            joker[r] |= bool(A.HAS_JOKER[a])
        out = []
        for r in sorted(cards):
            n = sorted(sizes[r])
            many = f"{n[0]}" if len(n) == 1 else f"{n[0]}-{n[-1]}"
            rank = "10" if RANK_CHARS[r] == "T" else RANK_CHARS[r]
            out.append(f"{rank}×{many} from {' '.join(card_symbol(c) for c in sorted(cards[r]))}"
                       + (" (+JK)" if joker[r] else ""))
        return out

    def _jutsu_option(self, a: int) -> str:
        j = int(A.JUTSU[a])
        name = f"{A.JUTSU_NAMES[j]} ({A.JUTSU_JA[j]})"
        if A.TARGET[a]:
            target = (self.seat + int(A.TARGET[a])) % 4
            return f"{A.JUTSU_NAMES[j]} {target} ({A.JUTSU_JA[j]} on {self.names[target]})"
        return name

    # ---- reading -------------------------------------------------------------------------------
    def parse(self, answer: str, st: DaifugoState, legal: np.ndarray) -> int:  # type: ignore[override]
        text = answer.strip()
        word = text.lower()
        if word.isascii() and word.isdigit():
            if int(word) < len(legal):
                return int(legal[int(word)])
            raise InputError(f"'{answer}' is not one of the legal moves; type the cards to play (or moves: "
                             f"the numbered list 0..{len(legal) - 1}).")
        if not text:
            raise InputError("type the cards to play, pass, or help.")
        if word in ("pass", "p", "パス"):
            if A.PASS in legal:
                return A.PASS
            raise InputError("you cannot pass: " + ("you lead (the field is empty), so play something."
                                                    if int(st.phase[0]) == 0 else "choose a card."))
        first = word.split()[0]
        jutsu_words = {n: j for j, n in enumerate(A.JUTSU_NAMES)} | {n: j for j, n in enumerate(A.JUTSU_JA)}
        if first in jutsu_words:
            return self._parse_jutsu(jutsu_words[first], word.split()[1:], legal)
        phase = int(st.phase[0])
        if phase in (PHASE_EXCHANGE, PHASE_SHURIKEN):
            card = parse_card(text)
            for a in legal:
                if int(A.PICK_CARD[a]) == card:
                    return int(a)
            raise InputError(f"{card_symbol(card)} cannot be chosen now; type one of "
                             + " ".join(card_symbol(int(A.PICK_CARD[a])) for a in legal) + ".")
        try:
            typed = parse_cards(text)
        except InputError as e:
            raise InputError(f"'{answer}' is not one of the legal moves: {e}") from None
        return self._match_play(typed, st, legal)

    def _match_play(self, typed, st: DaifugoState, legal: np.ndarray) -> int:  # type: ignore[no-untyped-def]
        mask = sum(1 << c for c in typed.cards)
        missing = [c for c in typed.cards if not (int(st.hands[0, self.seat]) >> c) & 1]
        if missing:
            raise InputError(f"you do not hold {' '.join(card_symbol(c) for c in sorted(missing))}.")
        plays = [int(a) for a in legal if A.K_SINGLE <= A.KIND[a] <= A.K_SEQ and int(A.CARDS[a]) == mask]
        if typed.joker_as is not None:
            plays = [a for a in plays if A.KIND[a] != A.K_SEQ
                     or 4 * (int(A.LO[a]) + int(A.JOKER_POS[a])) + int(A.SEQ_SUIT[a]) == typed.joker_as]
        if len(plays) == 1:
            return plays[0]
        shown = " ".join(card_symbol(c) for c in sorted(typed.cards))
        if len(plays) > 1:
            raise InputError(f"{shown} can be played {len(plays)} ways; say which card the joker stands for: "
                             + " | ".join(symbol_label(a) for a in plays))
        raise InputError(f"'{shown}' is not one of the legal moves now: it does not form a single, a group or a "
                         "sequence that beats the field (see the menu above; help: the rules).")

    def _parse_jutsu(self, j: int, rest: list[str], legal: np.ndarray) -> int:
        options = [int(a) for a in legal if A.KIND[a] == A.K_JUTSU and int(A.JUTSU[a]) == j]
        if not options:
            raise InputError(f"{A.JUTSU_NAMES[j]} cannot be used now (not equipped, no uses or points left, "
                             "or its condition does not hold).")
        if len(options) == 1 and not rest:
            return options[0]
        if not rest:
            raise InputError("say on whom: " + ", ".join(self._jutsu_option(a) for a in options))
        target = rest[0].strip("()")
        for a in options:
            seat = (self.seat + int(A.TARGET[a])) % 4
            if target in (str(seat), self.names[seat].lower(), self.names[seat].split("(")[0].lower()):
                return a
        raise InputError(f"'{rest[0]}' is not a target here: " + ", ".join(self._jutsu_option(a) for a in options))

    # ---- the log -------------------------------------------------------------------------------
    def narrate(self, before: DaifugoState, action: int, after: DaifugoState) -> list[str]:  # type: ignore[override]
        p = int(before.to_play[0])
        who = self.names[p]
        k = int(A.KIND[action])
        lines: list[str] = []
        if k == A.K_PASS:
            lines.append(f"{who} passes")
        elif k == A.K_JUTSU:
            j = int(A.JUTSU[action])
            target = (p + int(A.TARGET[action])) % 4 if A.TARGET[action] else None
            on = f" on {self.names[target]}" if target is not None else ""
            effect = JUTSU_EFFECT[j].format(who=who, target=self.names[target] if target is not None else "",
                                            shift=int(after.henge_shift[0]))
            lines.append(f"{who} uses 忍法 {A.JUTSU_JA[j]} ({A.JUTSU_NAMES[j]}){on}: {effect}")
        elif k == A.K_PICK:
            card = int(A.PICK_CARD[action])
            if int(before.phase[0]) == PHASE_SHURIKEN:
                lines.append(f"{who} throws {card_symbol(card)} into {self.names[int(before.shuriken_target[0])]}'s "
                             "hand (face up)")
            else:
                receiver = self._partner(before, p)
                seen = self.seat in (p, receiver)
                lines.append(f"{who} gives {card_symbol(card) if seen else 'a card'} to {self.names[receiver]} "
                             "(exchange)")
        else:
            lines.append(f"{who} plays {symbol_label(action)}")
        if int(after.game_index[0]) != int(before.game_index[0]):
            lines += self._game_over(before, after, from_titles=True)
            return lines
        lines += self._effects(before, action, after)
        if after.terminated[0] or after.truncated[0]:
            lines += self._game_over(before, after, from_titles=False)
        return lines

    @staticmethod
    def _partner(st: DaifugoState, p: int) -> int:
        """The seat p trades with in the exchange: 大富豪 (title 1) with 大貧民 (4), 富豪 (2) with 貧民 (3)."""
        title = int(st.titles[0, p])
        return next(q for q in range(4) if int(st.titles[0, q]) == 5 - title)

    def _tribute(self, after: DaifugoState) -> list[str]:
        """The tribute paid when the next game is dealt: the lower titles' best cards, given automatically."""
        lines = []
        for q in sorted(range(4), key=lambda q: -int(after.titles[0, q])):
            if int(after.titles[0, q]) < 3 or not int(after.given[0, q]):
                continue
            to = self._partner(after, q)
            cards = mask_to_cards(int(after.given[0, q]))
            shown = " ".join(card_symbol(c) for c in cards) if self.seat in (q, to) else f"{len(cards)} card(s)"
            lines.append(f"  tribute: {self.names[q]} gives their best {shown} to {self.names[to]}")
        return lines

    def _effects(self, before: DaifugoState, action: int, after: DaifugoState) -> list[str]:
        out = []
        if bool(after.revolution[0]) != bool(before.revolution[0]):
            out.append("  革命 revolution! the order is " + ("reversed (3 strongest)" if after.revolution[0]
                                                            else "back to normal"))
        if after.lock[0] and not before.lock[0]:
            suits = "".join(SUIT_SYMBOLS[s] for s in range(4) if (int(after.lock[0]) >> s) & 1)
            out.append(f"  縛り lock: only {suits} may follow until the field clears")
        if after.eleven_back[0] and not before.eleven_back[0]:
            out.append("  11-back: the order is reversed until the field clears")
        played = A.K_SINGLE <= A.KIND[action] <= A.K_SEQ
        if int(before.phase[0]) == PHASE_EXCHANGE and int(after.phase[0]) == 0:
            out.append(f"  the exchange is over; {self.names[int(after.to_play[0])]} leads")
        elif int(before.field_action[0]) >= 0 or played:
            if int(after.field_action[0]) < 0 and int(after.phase[0]) == 0:
                if played and A.HAS8[action]:
                    why = "8-cut"
                elif action == A.SPADE3_SINGLE:
                    why = "♠3 return on the joker"
                elif A.KIND[action] == A.K_JUTSU and int(A.JUTSU[action]) == 2:
                    why = ""  # 雷遁's own line says so
                else:
                    why = "everyone else passed or was skipped"
                if why:
                    out.append(f"  the field clears ({why}); {self.names[int(after.to_play[0])]} leads")
        finished = []
        for q in range(4):
            if int(after.skip_pending[0, q]) < int(before.skip_pending[0, q]):
                out.append(f"  {self.names[q]}'s turn is skipped (足止め or 五飛び)")
            elif int(after.skip_pending[0, q]) > int(before.skip_pending[0, q]) and A.KIND[action] != A.K_JUTSU:
                out.append(f"  {self.names[q]} will lose their next turn (五飛び)")
            if after.finish_pos[0, q] and not before.finish_pos[0, q]:
                place = int(after.finish_pos[0, q])
                if int(after.hands[0, q]) == 0:
                    how = "goes out"
                elif q == int(before.miyako[0]) and place == int(before.last_pos[0]):
                    how = "falls from the capital (都落ち: the last 大富豪 did not finish first)"
                else:
                    how = "is the last with cards left"
                finished.append((place, f"  {self.names[q]} {how}: place {place} ({PLACE_TITLE[place]})"))
        return out + [line for _, line in sorted(finished)]

    def _game_over(self, before: DaifugoState, after: DaifugoState, from_titles: bool) -> list[str]:
        if from_titles:  # the next game is dealt: the finished one's places are the titles
            places = {q: int(after.titles[0, q]) for q in range(4)}
            number = int(before.game_index[0]) + 1
        else:
            places = self._final_places(after)
            number = int(after.game_index[0]) + 1
        order = sorted(range(4), key=lambda q: places[q])
        ranking = ", ".join(f"{places[q]} {PLACE_TITLE[places[q]]} {self.names[q]}" for q in order)
        lines = [f"game {number} over: {ranking}. You finished {self._ordinal(places[self.seat])} "
                 f"({PLACE_TITLE[places[self.seat]]})."]
        if from_titles:
            d = int(after.declaration[0])
            lines.append(f"game {number + 1}: declaration D{d}: {DECLARATION_TEXT[d]}; "
                         "the exchange comes first (大貧民 ↔ 大富豪 2 cards, 貧民 ↔ 富豪 1)")
            lines += self._tribute(after)
        return lines

    @staticmethod
    def _final_places(st: DaifugoState) -> dict[int, int]:
        pos = {q: int(st.finish_pos[0, q]) for q in range(4)}
        free = [n for n in range(1, 5) if n not in pos.values()]
        for q in range(4):  # the one still holding cards when the game ended takes the place left
            if not pos[q]:
                pos[q] = free.pop(0)
        return pos

    @staticmethod
    def _ordinal(n: int) -> str:
        return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")

    def final(self, st: DaifugoState) -> list[str]:  # type: ignore[override]
        scores = ", ".join(f"{self.names[q]} {float(st.series_score[0, q]):+.2f}" for q in range(4))
        return [f"series score: {scores}"]

    def explain(self, st: DaifugoState, action: int) -> str:  # type: ignore[override]
        k = int(A.KIND[action])
        if k == A.K_PASS:
            return "it keeps its control cards (2s, the joker) while its hand is still large, or cannot beat the field"
        if k == A.K_PICK:
            return "it gives or throws its weakest card"
        if k == A.K_JUTSU:
            return ("足止め on an opponent close to going out, 手裏剣 while its hand is big, 雷遁/変化 when nothing "
                    "good can be played")
        if A.REVOLUTION[action]:
            return "a revolution, as its hand is weak (its strong cards are few)"
        if A.HAS8[action]:
            return "an 8-cut wins the lead"
        return "it sheds its weakest cards first, more cards at once when it can"

