"""What every command reads from its command line the same way, and how it says a line is wrong.

Its own module so that the jobs a command runs (distillation, ladders, the split bench) can read
``--rule`` as the CLI does without importing the CLI, which imports them.
"""
from __future__ import annotations

import json


class UsageError(Exception):
    """A bad command line: printed as one line, exit status 2."""


def parse_rules(pairs: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` rule options; VALUE is read as JSON when it can be (numbers, true, lists)."""
    rules: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--rule expects KEY=VALUE, got {pair!r}")
        try:
            rules[key] = json.loads(value)
        except json.JSONDecodeError:
            rules[key] = value
    return rules
