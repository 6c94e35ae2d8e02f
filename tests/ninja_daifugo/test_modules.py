"""The ninja layer stands on the shared helpers (held plays, seats, the field), never on the rules
module that uses it: no import cycle, not even one hidden inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import yuugi.envs.ninja_daifugo as package

_DIR = Path(package.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file, relative ones as ".name"."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out |= {base} if node.module else {f".{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def test_the_ninja_layer_does_not_import_the_rules() -> None:
    for name in ("ninjutsu", "held", "seats", "field", "points"):
        imported = _imported_modules(_DIR / f"{name}.py")
        assert ".rules" not in imported and "yuugi.envs.ninja_daifugo.rules" not in imported, name


def test_the_rules_use_the_ninja_layer() -> None:  # (so the check above is about a real dependency)
    assert ".ninjutsu" in _imported_modules(_DIR / "rules.py")
