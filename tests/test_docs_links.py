"""The project's files stand on their own: no path outside the repository, no broken doc link.

A clone of the repository has only what is in it, so code, docstrings, docs, notebooks and the
README must not send a reader to a sibling folder (``../``), to the research notes the games were
specified from (``shared/``, ``seeds/``) or to a path on the machine they were written on. Every
relative link in the markdown files must reach a file of the repository (and a heading, when it
names one).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from yuugi.envs import available_games

ROOT = Path(__file__).resolve().parents[1]
SCANNED_DIRS = ("envs", "agents", "training", "yuugi", "docs", "notebooks")
BINARY_SUFFIXES = {".npz", ".png", ".jpg", ".gif", ".pyc", ".pt", ".zip"}
# What a reference to a path outside the repository looks like.
OUTSIDE = {
    "shared/": "the research notes outside the repository",
    "seeds/": "the source texts outside the repository",
    "../": "a path above the file's folder",
    "/work/": "an absolute path on the machine the file was written on",
}
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_INLINE_LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def project_files() -> list[Path]:
    files = [p for p in ROOT.glob("*.md")] + [ROOT / "pyproject.toml"]
    for top in SCANNED_DIRS:
        for p in sorted((ROOT / top).rglob("*")):
            parts = p.relative_to(ROOT).parts
            if p.is_file() and "__pycache__" not in parts and not any(s.startswith(".") for s in parts) \
                    and p.suffix not in BINARY_SUFFIXES:
                files.append(p)
    return files


def markdown_files() -> list[Path]:
    return [p for p in project_files() if p.suffix == ".md"]


def outside_references(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line: text`` for every line of ``path`` that names a path outside the repository."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file under an unexpected name: nothing to read
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for needle, what in OUTSIDE.items():
            if needle in line:
                found.append(f"{path.relative_to(root)}:{number}: {what}: {line.strip()[:120]}")
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_~]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in _HEADING.findall(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    text = _CODE_SPAN.sub("", _FENCE.sub("", path.read_text(encoding="utf-8")))
    targets = _INLINE_LINK.findall(text) + _REFERENCE_LINK.findall(text)
    broken = []
    for target in targets:
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:: not a file of ours
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        where = path.relative_to(root)
        if root not in dest.parents and dest != root:
            broken.append(f"{where}: {target} leaves the repository")
        elif not dest.exists():
            broken.append(f"{where}: {target} does not exist")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{where}: {target} names no heading of {dest.name}")
    return broken


def test_no_file_refers_to_a_path_outside_the_repository() -> None:
    found = [hit for path in project_files() for hit in outside_references(path)]
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_every_relative_markdown_link_resolves() -> None:
    broken = [b for path in markdown_files() for b in broken_links(path)]
    assert not broken, "broken links:\n" + "\n".join(broken)


@pytest.mark.parametrize("game", available_games())
def test_every_game_has_its_rules_for_people(game: str) -> None:
    page = ROOT / "docs" / "rules" / f"{game}.md"
    assert page.exists(), f"{game} has no rules page at docs/rules/{game}.md"
    docstring = (ROOT / "envs" / f"{game}_v0.py").read_text(encoding="utf-8")
    assert f"docs/rules/{game}.md" in docstring, f"envs/{game}_v0.py does not point to docs/rules/{game}.md"


# The checks themselves, on made-up text: they must be able to fail.
def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    assert slug("Suit lock 縛り *shibari*") == "suit-lock-縛り-shibari"
    assert slug("The Lord's declarations お館様の気まぐれ宣言") == "the-lords-declarations-お館様の気まぐれ宣言"
    assert slug("♠3 return スペ3返し") == "3-return-スペ3返し"
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "other.md").write_text("## A heading\n", encoding="utf-8")
    page = root / "docs" / "page.md"
    page.write_text("# Top\n[ok](#top) [gone](#nowhere) [up](../../x.md) [none](missing.md) [there](other.md#a-heading)"
                    " [not there](other.md#b) `[code](missing.md)` [web](https://example.org)\n"
                    "```\n[fenced](missing.md)\n```\nsee shared/rules/x.md\n", encoding="utf-8")
    assert [b.split(": ", 1)[1] for b in broken_links(page, root)] == [
        "#nowhere names no heading of page.md", "../../x.md leaves the repository", "missing.md does not exist",
        "other.md#b names no heading of other.md"]
    hits = outside_references(page, root)
    assert [hit.split(":")[1] for hit in hits] == ["2", "6"]  # the ../ link on line 2, shared/ on line 6
