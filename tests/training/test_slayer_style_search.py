"""The style search behind ninja_slayer's tuned heuristic: knobs map onto a style, a run records its
generations and a final mean, and a user's mistake is one line and exit 2."""
from __future__ import annotations

import json

from yuugi.agents.heuristics.ninja_slayer import CONTROL, TUNED
from yuugi.training.research import slayer_style_search as S


def test_knobs_are_clipped_to_their_range_and_the_rest_stays_control():
    style = S.style_of({"face": -5.0, "etel_cap": 6.6, "keep_answer_open": False})
    assert style.face == S.NUMERIC["face"][2]  # the least a face may be
    assert style.etel_cap == 7 and isinstance(style.etel_cap, int)
    assert style.keep_answer_open is False
    assert style.guard_face == CONTROL.guard_face and style.proactive_own_turn == CONTROL.proactive_own_turn


def test_every_knob_of_the_search_is_a_field_of_the_style():
    for knob in list(S.NUMERIC) + list(S.YES_NO):
        assert hasattr(TUNED, knob), knob
    assert set(S.STAGE1) <= set(S.NUMERIC)


def test_a_tiny_search_writes_its_generations_and_final_mean(tmp_path):
    out = tmp_path / "style.json"
    rc = S.main(["--knobs", "face,kill_scale", "--games", "4", "--generations", "2", "--population", "3",
                 "--workers", "1", "--out", str(out)])
    assert rc == 0
    result = json.loads(out.read_text())
    assert len(result["generations"]) == 2
    assert set(result["final"]) == {"face", "kill_scale", "keep_answer_open", "proactive_own_turn"}
    assert result["command"].startswith("python -m yuugi.training.research.slayer_style_search --knobs face,kill_scale")
    # A second stage starts from the first's final mean and searches the other knobs with it fixed.
    out2 = tmp_path / "stage2.json"
    assert S.main(["--knobs", "draw_worth", "--start", str(out), "--games", "2", "--generations", "1",
                   "--population", "2", "--workers", "1", "--out", str(out2)]) == 0
    final2 = json.loads(out2.read_text())["final"]
    assert final2["face"] == result["final"]["face"] and "draw_worth" in final2


def test_mistakes_are_one_line_and_exit_2(tmp_path, capsys):
    assert S.main(["--knobs", "bravery", "--out", str(tmp_path / "x.json")]) == 2
    assert "unknown knobs ['bravery']" in capsys.readouterr().err
    assert S.main(["--start", str(tmp_path / "missing.json"), "--out", str(tmp_path / "x.json")]) == 2
    assert "not a style search result" in capsys.readouterr().err
