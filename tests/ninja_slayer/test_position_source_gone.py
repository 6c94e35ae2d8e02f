"""A saved position whose stack item has lost its source character plays on exactly as the game it came from.

The scenario (rules §2.5, §6.3.9): P0 casts K02 (destroy an opposing character with カラテ ≤ 3) at P1's C19
(カヤクボウズ, ON_DESTROYED: 1 damage to the opposing player). C19 is destroyed, so its trigger goes on the
stack with a source that has left the field (``source_gone``). When it resolves, P0 turns over C14
(ミズカガミ, ウケミ: 2 damage to the SOURCE of that damage); the ウケミ item aims at C19, which is gone, so it
is recorded as the gone reference ``{"player": 1, "slot": 0, "gone": true}`` and does nothing.

A position saved while the trigger waits on the stack must load into a game that records that same ウケミ
item (and every later position) exactly as continuous play does, not with a null target.
"""
from __future__ import annotations

import json

from tests.ninja_slayer.audit_helpers import PASS, Table, cast, opp, position, seat

GONE_C19 = {"player": 1, "slot": 0, "gone": True}  # C19 sat in P1's slot 0 and has been destroyed


def _cast_k02_at_c19() -> Table:
    """Continuous play up to the moment C19's ON_DESTROYED trigger waits on the stack (its source gone)."""
    t = Table(position(seat(hand=["K02"], etel=2, deck=["C14", "C05", "C05"]), seat(field=["C19", "C10"]),
                       "character", "priority"))
    t.act(cast(0, opp(0)))  # K02 at C19
    for _ in range(10):  # both pass until K02 has resolved and the trigger is on the stack
        if [it["card"] for it in t.pos["stack"]] == ["C19"]:
            return t
        t.act(PASS)
    raise AssertionError(f"C19's trigger never reached the stack: {t.pos['stack']}")


def _play_on(t: Table) -> list[dict]:
    """Both seats pass until the stack has emptied; the position at every decision on the way."""
    seen = [t.pos]
    for _ in range(20):
        if not t.pos["stack"] or t.over:
            return seen
        t.act(PASS)
        seen.append(t.pos)
    raise AssertionError("the stack did not empty")


def test_the_trigger_on_the_stack_is_recorded_with_its_source_gone():
    pos = _cast_k02_at_c19().pos
    (item,) = pos["stack"]
    assert (item["kind"], item["op"], item["target_kind"], item["controller"]) == ("trigger", "DMG_PLAYER",
                                                                                   "OPP_PLAYER", 1)
    assert item["source_slot"] == 0 and item["source_gone"] is True
    assert pos["players"][1]["field"][0] is None and "C19" in pos["players"][1]["grave"]


def test_save_load_save_of_the_source_gone_position_is_exact():
    pos = _cast_k02_at_c19().pos
    again = Table(json.loads(json.dumps(pos))).pos  # through JSON, as a file would carry it
    assert again == pos


def test_the_ukemi_aimed_at_a_gone_source_is_recorded_alike_in_continuous_and_loaded_play():
    continuous = _cast_k02_at_c19()
    loaded = Table(json.loads(json.dumps(continuous.pos)))
    played, replayed = _play_on(continuous), _play_on(loaded)

    # the rules' outcome: the trigger's damage turned over C14, whose ウケミ aims at the gone C19
    ukemi = [p["stack"][-1] for p in played if p["stack"] and p["stack"][-1]["kind"] == "ukemi"]
    assert ukemi, "P0 never turned over C14"
    assert (ukemi[0]["card"], ukemi[0]["op"], ukemi[0]["target_kind"]) == ("C14", "DMG_CHAR", "SOURCE")
    assert ukemi[0]["target"] == GONE_C19
    # and it did nothing: P1's other character is untouched, C14 went to P0's オヒガン, no damage to P0
    end = played[-1]
    assert end["players"][1]["field"][1]["card"] == "C10" and end["players"][1]["field"][1]["damage"] == 0
    assert sorted(end["players"][0]["grave"]) == ["C14", "K02"]
    assert end["players"][0]["damage_up"] + end["players"][0]["damage_down"] == 0

    # the game loaded from the saved position records every later decision exactly as continuous play
    assert len(replayed) == len(played)
    for k, (a, b) in enumerate(zip(played, replayed)):
        assert b == a, f"decision {k} after loading differs from continuous play"
    # and each of those positions round-trips too
    for a in played:
        assert Table(json.loads(json.dumps(a))).pos == a
