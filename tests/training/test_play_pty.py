"""A whole ``yuugi play`` game per game through a pseudo-terminal, as a person would type it.

The command runs with a pty as its terminal; the driver reads up to each prompt (a read that waits
longer than ``READ_TIMEOUT`` fails the test instead of hanging it), chooses an answer from what is on
the screen, and uses ``help``, ``hint`` and ``undo`` along the way. The assertions are on what a
person sees: the CPU's dice and province (nigejozu), one's own battle with both dice and its result
(momotaro), the finishing place (daifugō), and that after ``undo`` the CPUs answer the same move with
the same moves.
"""
from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

PROMPT = "your move (help, undo, hint, quit): "
READ_TIMEOUT = 60.0  # seconds without a new prompt before the test fails
ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """``python -m yuugi.training.cli.main ARGS`` (the ``yuugi`` command) on a pseudo-terminal."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        env = dict(os.environ, TERM="dumb", PYTHONIOENCODING="utf-8", COLUMNS="200")
        self.proc = subprocess.Popen([sys.executable, "-m", "yuugi.training.cli.main", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=ROOT, env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.buffer = b""
        self.transcript = ""

    def until_prompt(self) -> str | None:
        """Everything written up to the next prompt (None once the program has ended)."""
        deadline = time.monotonic() + READ_TIMEOUT
        while PROMPT.encode() not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                pytest.fail(f"no prompt within {READ_TIMEOUT}s; last output:\n{self.text(self.buffer)[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the program ended and closed the terminal
                chunk = b""
            if not chunk:
                rest, self.buffer = self.text(self.buffer), b""
                self.transcript += rest
                return None if PROMPT not in rest else rest
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(PROMPT.encode())
        screen = self.text(head)
        self.transcript += screen + PROMPT
        return screen

    @staticmethod
    def text(raw: bytes) -> str:
        return ANSI.sub("", raw.decode("utf-8", "replace")).replace("\r\n", "\n")

    def send(self, answer: str) -> None:
        os.write(self.master, (answer + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=READ_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail("the program did not end")
        finally:
            os.close(self.master)


def drive(term: Terminal, choose: Callable[[str], str], cpu_prefix: str) -> dict[str, object]:
    """Play to the end: help and hint at the first decision; one undo once a CPU has answered a move.

    Returns the transcript and the CPU lines after the undone move, the first time and on replay.
    """
    first_cpu_lines: list[str] | None = None
    replay_cpu_lines: list[str] | None = None
    last_answer, undo_state = None, "waiting"
    screen = term.until_prompt()
    decisions = 0
    while screen is not None:
        decisions += 1
        assert decisions < 400, "the game does not end"
        cpu_lines = [line for line in screen.splitlines() if line.startswith(cpu_prefix)]
        if decisions == 1:
            for command in ("help", "hint"):
                term.send(command)
                reply = term.until_prompt()
                assert reply is not None
                if command == "help":
                    assert "legend:" in reply and "undo" in reply
                else:
                    assert "hint: the normal CPU would play" in reply
        if undo_state == "waiting" and cpu_lines and last_answer is not None:
            first_cpu_lines, undo_state = cpu_lines, "undone"
            term.send("undo")
            screen = term.until_prompt()
            assert screen is not None and "undone: back to your previous decision" in screen
            term.send(last_answer)
            screen = term.until_prompt()
            continue
        if undo_state == "undone":
            replay_cpu_lines, undo_state = cpu_lines, "done"
        last_answer = choose(screen)
        term.send(last_answer)
        screen = term.until_prompt()
    assert term.close() == 0
    assert undo_state == "done", "no CPU move ever followed one of the person's decisions"
    return {"text": term.transcript, "first": first_cpu_lines, "replay": replay_cpu_lines}


def _first_option(screen: str) -> str:
    """The menu's first numbered choice (nigejozu and momotaro number their short menus)."""
    return "0"


def test_nigejozu_shows_the_cpu_dice_and_province():
    run = drive(Terminal("play", "nigejozu", "--level", "normal", "--seed", "5"), _first_option, "足利 ashikaga")
    text = run["text"]
    # The CPU's roll and its placement in words: dice, count, province and its chip.
    assert re.search(r"^足利 ashikaga rolls: [1-6] [1-6] [1-6]$", text, re.M)
    placed = re.search(r"^足利 ashikaga keeps the ([1-6]) as the count: ([1-3]) troop\(s\) to (\S+) #(\d+) "
                       r"\(the other dice sum to (\d+)\)", text, re.M)
    assert placed
    keep, count = int(placed[1]), int(placed[2])
    assert count <= (keep + 1) // 2  # 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (fewer only when the hand runs out)
    assert placed[4] == placed[5] and 2 <= int(placed[4]) <= 12
    assert "COUNT_DIE" not in "\n".join(line for line in text.splitlines() if line.startswith("足利"))
    assert run["first"] == run["replay"]
    assert "battle (chip order):" in text and "your total reward" in text


def test_momotaro_shows_your_own_battle():
    run = drive(Terminal("play", "momotaro", "--level", "normal", "--seed", "3", "--rule", "num_players=2"),
                _first_option, "CPU normal(1)")
    text = run["text"]
    battle = re.search(r"^you\(0\) sends (\S+) against (\S+): \S+ (\d+) \+ red ([1-6]) = (\d+), "
                       r"you\(0\) (\d+) ([+-]\d+) janken \+ white ([1-6]) = (\d+) -> (win|draw|the oni wins)$",
                       text, re.M)
    assert battle, "one's own battle is not told"
    oni, red, oni_total = int(battle[3]), int(battle[4]), int(battle[5])
    mine, janken, white, my_total = int(battle[6]), int(battle[7]), int(battle[8]), int(battle[9])
    assert oni_total == oni + red and my_total == mine + janken + white
    expected = "win" if my_total > oni_total else "draw" if my_total == oni_total else "the oni wins"
    assert battle[10] == expected
    assert "legend: cards W = your warrior" in text and "janken" in text
    assert run["first"] == run["replay"]
    assert "game over" in text


SUIT_LETTER = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _typed(play: str) -> str:
    """``♠9 ♦10`` as ``d10 s9``: reversed, letters, 10 kept as 10 (the parser's any-order promise)."""
    if play.startswith("pick "):
        play = play[5:]
    if play == "pass" or not play[0] in SUIT_LETTER and not play.startswith("JK"):
        return " ".join(play.split()[:2])  # a ninpō: "ashidome 3" or "raiton"
    cards = [c if c.startswith("JK") else SUIT_LETTER[c[0]] + c[1:] for c in play.split()]
    return " ".join(reversed(cards))


def test_daifugo_tells_where_you_finished():
    term = Terminal("play", "ninja_daifugo", "--level", "normal", "--seed", "7", "--rule", "series_games=1")
    screen = term.until_prompt()
    decisions, undone, first, replay, last = 0, False, None, None, None
    while screen is not None:
        decisions += 1
        assert decisions < 300
        if decisions == 1:
            term.send("help")
            reply = term.until_prompt()
            assert reply is not None and "ninja daifugō in brief" in reply and "legend:" in reply
        cpu_lines = [line for line in screen.splitlines() if line.startswith("ジライヤ(")]
        if undone and replay is None:
            replay = cpu_lines
        if not undone and cpu_lines and last is not None and decisions > 2:
            first, undone = cpu_lines, True
            term.send("undo")
            assert "undone" in (term.until_prompt() or "")
            term.send(last)
            screen = term.until_prompt()
            continue
        assert "legal moves: [" not in screen  # no numbered list of every move
        term.send("hint")
        hint = term.until_prompt()
        assert hint is not None
        play = re.search(r"hint: the normal CPU would play (.*?)(?: — |$)", hint, re.M)
        assert play, hint
        last = _typed(play[1])
        term.send(last)
        screen = term.until_prompt()
    assert term.close() == 0
    text = term.transcript
    assert "お館様" not in text and "モコ" not in text  # normal CPUs are ジライヤ, in the table and the log
    assert first == replay and first
    finished = re.search(r"^game 1 over: .*You finished (1st|2nd|3rd|4th) \((大富豪|富豪|貧民|大貧民)\)\.$", text, re.M)
    assert finished, "the finishing place is not told"
    reward = float(re.search(r"your total reward: ([+-][0-9.]+)", text)[1])
    # zero_sum rewards by place: +1, +1/3, -1/3, -1
    assert round(reward, 3) == {"1st": 1.0, "2nd": 0.333, "3rd": -0.333, "4th": -1.0}[finished[1]]
    assert re.search(r"^ジライヤ\(\d\) plays [♠♥♦♣JK]", text, re.M)
