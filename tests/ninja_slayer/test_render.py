"""The text table: fields with tapped state and damage, the stack from the top, zones, hands, the question."""
from __future__ import annotations

from tests.ninja_slayer.helpers import aisatsu, cast, char, load, seat, step, table


def test_render_shows_the_table_and_hides_the_other_hand():
    pos = table(seat(hand=["K04", "K01"], etel=3, field=[char("C04"), char("C10", tapped=True, damage=2)],
                     damage_up=2, damage_seen=["C01", "C02"]),
                seat(hand=["K06"], field=[char("C09")]))
    g, st = load(pos)
    step(g, st, cast(0, 0))  # K04 on my C04: the stack holds it
    text = g.render_text(st, 0, seat=0)
    assert "C10 オオタテ K5/W0 dmg2 [T]" in text
    assert "エテル 3/3" in text and "damage 2+0" in text
    assert "stack (1, top first):" in text and "K04 気合" in text
    assert "player_0 hand: 1:C01" not in text and "1:K01 手裏剣雨(1)" in text
    assert "player_1 hand: 1 cards" in text and "K06" not in text
    assert "question: priority for player_0" in text
    omniscient = g.render_text(st, 0)
    assert "K06 影縛り" in omniscient


def test_render_names_the_attack_and_the_end():
    pos = table(seat(field=[char("C01")]), seat(deck=["C01"], field=[]))
    g, st = load(pos)
    step(g, st, aisatsu(0, 6))
    assert "アイサツ: player_0 slot 0 -> the player" in g.render_text(st, 0)
    step(g, st, 0, 0)  # the point empties P1's deck: P1 loses
    assert "game over: player_0 wins (deck_out)" in g.render_text(st, 0)
