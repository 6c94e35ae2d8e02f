"""What ``yuugi play`` reads: daifugō cards typed any way a person writes them, and the commands
``undo`` / ``back`` / ``hint`` (scripted through ``play``'s read/write hooks)."""
from __future__ import annotations

import numpy as np
import pytest

from yuugi.agents.policy import RandomPolicy
from yuugi.envs import make_game
from yuugi.envs.ninja_daifugo import actions as A
from yuugi.training.play.play import play
from yuugi.training.play.daifugo import DaifugoTable
from yuugi.training.play.input import parse_card, parse_cards
from yuugi.training.play.table import InputError

# The deck as the rules define it: ranks 3 4 5 6 7 8 9 10 J Q K A 2 (weakest first), suits ♠ ♥ ♦ ♣,
# card = 4 * rank position + suit position; the joker is card 52.
RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


def card(rank: str, suit: str) -> int:
    return 4 * RANKS.index(rank) + "♠♥♦♣".index(suit)


NINES = frozenset({card("9", "♠"), card("9", "♦"), card("9", "♣")})


@pytest.mark.parametrize("typed", ["♠9 ♦9 ♣9", "♣9 ♦9 ♠9", "c9 d9 s9", "S9 D9 C9", "D9,S9,C9", "9s 9d 9c",
                                   "♦9♠9♣9", "s9 ♦9 C9"])
def test_any_order_symbols_or_letters(typed):
    assert parse_cards(typed).cards == NINES


@pytest.mark.parametrize("typed", ["♥10", "HT", "h10", "ht", "10h", "T♥", "♡10"])
def test_ten_as_10_or_t(typed):
    assert parse_cards(typed).cards == {card("10", "♥")}
    assert parse_card(typed) == card("10", "♥")


def test_the_joker_and_what_it_stands_for():
    typed = parse_cards("♠5 ♠6 JK(♠7)")
    assert typed.cards == {card("5", "♠"), card("6", "♠"), 52} and typed.joker_as == card("7", "♠")
    assert parse_cards("jk=s7").joker_as == card("7", "♠")
    assert parse_cards("joker").cards == {52} and parse_cards("joker").joker_as is None


@pytest.mark.parametrize("typed, named", [("x9", "'x9'"), ("s1", "'s1'"), ("♠9 zz", "'zz'"), ("s11", "'s11'")])
def test_a_non_card_is_named_with_how_to_write_one(typed, named):
    with pytest.raises(InputError) as e:
        parse_cards(typed)
    message = str(e.value)
    assert named in message and "suit" in message and "10 or T" in message and "JK" in message


def test_a_card_named_twice_or_no_card_is_refused():
    with pytest.raises(InputError, match="♠9 named twice"):
        parse_cards("♠9 s9")
    with pytest.raises(InputError, match="no cards given"):
        parse_cards(" , ")


def _leading_with_a_pair() -> tuple[object, object, list[int]]:
    """A game where seat 0 leads on an empty field holding a pair (found by playing seeds forward)."""
    game = make_game("ninja_daifugo", series_games=1, ninja="off")
    for seed in range(200):
        st = game.init(np.array([seed]))
        if int(st.to_play[0]) != 0 or int(st.field_action[0]) >= 0:
            continue
        hand = [c for c in range(52) if (int(st.hands[0, 0]) >> c) & 1]
        for rank in range(13):
            pair = [c for c in hand if c // 4 == rank][:2]
            if len(pair) == 2:
                return game, st, pair
    raise AssertionError("no seed deals seat 0 the lead and a pair")


def _symbol(c: int) -> str:
    return "♠♥♦♣"[c % 4] + RANKS[c // 4]


def test_typed_cards_pick_the_play_of_exactly_those_cards_in_any_order():
    game, st, pair = _leading_with_a_pair()
    table = DaifugoTable(game, 0, ["you", "CPU", "CPU", "CPU"])
    legal = np.flatnonzero(game.legal_mask(st)[0])
    want = sum(1 << c for c in pair)
    forward = " ".join(_symbol(c) for c in pair)
    backward = " ".join("shdc"[c % 4] + RANKS[c // 4] for c in reversed(pair))
    for typed in (forward, backward):
        action = table.parse(typed, st, legal)
        assert A.KIND[action] == A.K_GROUP and int(A.CARDS[action]) == want
    with pytest.raises(InputError, match="you cannot pass"):
        table.parse("pass", st, legal)
    not_held = next(c for c in range(52) if not (int(st.hands[0, 0]) >> c) & 1)
    with pytest.raises(InputError, match=f"you do not hold {_symbol(not_held)}"):
        table.parse(_symbol(not_held), st, legal)


def _scripted(answers: list[str]) -> tuple[list[str], object]:
    said: list[str] = []
    script = iter(answers)
    return said, (lambda prompt: next(script))


def _cpu_lines(said: list[str], name: str) -> list[list[str]]:
    """The CPU's lines between consecutive prompts' tables, as blocks."""
    blocks, block = [], []
    for line in said:
        if line.startswith(name) or line.startswith("bids for"):
            block.append(line)
        elif line == "" and block:
            blocks.append(block)
            block = []
    return blocks


def test_undo_replays_the_cpu_moves_identically_even_for_a_cpu_that_draws():
    # easy blunders at random half the time: its draws must come again after undo, and asking for
    # a hint in between must not move its generator.
    said, read = _scripted(["3", "2", "hint", "undo", "hint", "2", "undo", "2", "q"])
    play("momotaro", level="easy", seed=11, read=read, write=said.append, num_players=2)
    text = "\n".join(said)
    assert text.count("undone: back to your previous decision") == 2
    results = [line for line in said if line.startswith("bids for")]
    # the bid of 2 in the second auction was made three times: the same CPU bid and result each time
    assert len(results) == 4 and results[1] == results[2] == results[3]


def test_nigejozu_card_text_before_choosing_and_back_abandons_it():
    said: list[str] = []
    state = {"chose_card": False, "backed": False}

    def read(prompt: str) -> str:
        menu = said[len(said) - 1 - said[::-1].index("you may:"):]
        cards = [line for line in menu if "] card " in line]
        if not state["chose_card"] and cards:
            state["chose_card"] = True
            state["menu"] = menu
            return cards[0].split("]")[0].strip(" [")
        if state["chose_card"] and not state["backed"]:
            state["backed"] = True
            assert any("back: take the card back" in line for line in menu)
            return "back"
        if state["backed"] and "after_back" not in state:
            state["after_back"] = menu
            return "q"
        return "0"

    play("nigejozu", level="normal", seed=5, read=read, write=said.append)
    assert state["backed"], "no card was ever offered"
    # the card's text is in the menu before choosing: "card 名前 (romaji): what it does"
    card_line = next(line for line in state["menu"] if "] card " in line)
    assert "): " in card_line and len(card_line.split("): ", 1)[1]) > 10
    assert state["after_back"] == state["menu"]  # back where the card was chosen, same choices


def test_personas_follow_the_level_in_the_table_and_the_log():
    said, read = _scripted(["q"])
    play("ninja_daifugo", level="easy", seat=2, seed=4, read=read, write=said.append, series_games=1)
    text = "\n".join(said)
    assert "モコ(0)" in text and "モコ(1)" in text and "モコ(3)" in text and "you(2)" in text
    assert "ジライヤ" not in text and "お館様" not in text and "player_" not in text


def test_opponents_per_seat():
    said, read = _scripted(["q"])
    play("nigejozu", seed=1, read=read, write=said.append, opponents=[None, RandomPolicy()])
    assert "足利 ashikaga: CPU random" in "\n".join(said)
    with pytest.raises(ValueError, match="one per seat"):
        play("nigejozu", seed=1, read=read, write=said.append, opponents=[RandomPolicy()])
