"""Every command a shipped record cites (``python -m MODULE ...`` in ``agents/weights/*.json``) names a module
this install has, so a user who copies it from a record runs it rather than meeting ``No module named``."""
from __future__ import annotations

import importlib.util
import re

import pytest

from yuugi.agents import shipped

MODULE_COMMAND = re.compile(r"python -m ([A-Za-z_][\w.]*)")


def _cited_modules() -> list[tuple[str, str]]:
    return sorted({(path.name, module) for path in shipped.WEIGHTS_DIR.glob("*.json")
                   for module in MODULE_COMMAND.findall(path.read_text(encoding="utf-8"))})


def test_the_records_cite_commands():
    assert len({name for name, _ in _cited_modules()}) >= 10  # the scan finds the records' commands at all


@pytest.mark.parametrize("record, module", _cited_modules())
def test_each_cited_module_exists(record, module):
    assert importlib.util.find_spec(module) is not None, f"{record} cites python -m {module}, which does not exist"
