"""The drawing parts every game's picture is made of, written as SVG text (no library needed).

A picture is an :class:`Svg` of a fixed size (``W`` × ``H``) built from a few shared parts: a
``banner`` (the title bar), a ``panel`` (a seat's area, outlined when that seat is to play), a
``card`` (face up: a corner, a title, lines of text; ``tapped`` turns it sideways), a ``card_back``
and a ``backs`` row (hidden cards, face down, with their count), a ``die`` (pips), a ``badge`` (a
counter in a pill) and ``pips`` (tokens). The text is set in IPAexGothic (the font the rasteriser
loads; a browser falls back to any Japanese sans-serif font).
"""
from __future__ import annotations

import contextlib
import unicodedata
from typing import Iterator, Sequence

W, H = 1024, 768  # every game's picture has this size
FONT = "IPAexGothic, 'IPAexゴシック', 'Noto Sans CJK JP', 'Hiragino Sans', sans-serif"
FELT = "#1d5236"
PANEL = "#143d28"
INK = "#1b1b1b"
LIGHT = "#f4f1e8"
DIM = "#9fb7a8"
GOLD = "#f2c14e"
RED = "#c62828"
BLUE = "#1f5fbf"
CARD_FACE = "#fbfaf5"
CARD_W, CARD_H = 46, 66  # a playing card


def esc(text: object) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def text_width(text: str, size: float) -> float:
    """An estimate of the drawn width: a kana, kanji or symbol takes one em, Latin text about 0.6."""
    return sum(size if unicodedata.east_asian_width(ch) in "WFA" else 0.6 * size for ch in text)


def fit(text: str, size: float, width: float) -> str:
    """``text`` cut (with …) to fit in ``width``."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class Svg:
    """An SVG document built element by element; ``str(svg)`` is the document."""

    def __init__(self, width: int = W, height: int = H, background: str = FELT) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.rect(0, 0, width, height, fill=background)

    def _attrs(self, **kw: object) -> str:
        return "".join(f' {k.rstrip("_").replace("_", "-")}="{esc(_num(v) if isinstance(v, (int, float)) else v)}"'
                       for k, v in kw.items() if v is not None)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = None,
             sw: float | None = None, rx: float | None = None, opacity: float | None = None,
             dash: str | None = None) -> None:
        self.parts.append(f"<rect{self._attrs(x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke, stroke_width=sw, opacity=opacity, stroke_dasharray=dash)}/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = LIGHT, sw: float = 1,
             dash: str | None = None, opacity: float | None = None) -> None:
        self.parts.append(f"<line{self._attrs(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=sw, stroke_dasharray=dash, opacity=opacity)}/>")

    def circle(self, cx: float, cy: float, r: float, fill: str = LIGHT, stroke: str | None = None,
               sw: float | None = None) -> None:
        self.parts.append(f"<circle{self._attrs(cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, stroke_width=sw)}/>")

    def polygon(self, points: Sequence[tuple[float, float]], fill: str = LIGHT, stroke: str | None = None,
                sw: float | None = None) -> None:
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self.parts.append(f"<polygon{self._attrs(points=pts, fill=fill, stroke=stroke, stroke_width=sw)}/>")

    def text(self, x: float, y: float, text: object, size: float = 14, fill: str = LIGHT, anchor: str = "start",
             bold: bool = False, width: float | None = None) -> None:
        """``text`` with its baseline at ``y``; ``anchor`` start, middle or end; cut to ``width`` if given."""
        s = str(text)
        if width is not None:
            s = fit(s, size, width)
        if not s:
            return
        self.parts.append(f"<text{self._attrs(x=x, y=y, font_size=size, fill=fill, text_anchor=anchor, font_weight='bold' if bold else None)}>{esc(s)}</text>")

    @contextlib.contextmanager
    def group(self, transform: str | None = None, opacity: float | None = None) -> Iterator["Svg"]:
        self.parts.append(f"<g{self._attrs(transform=transform, opacity=opacity)}>")
        yield self
        self.parts.append("</g>")

    def __str__(self) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="{esc(FONT)}">'
                + "".join(self.parts) + "</svg>")


# ---- the shared parts -------------------------------------------------------------------------------
def banner(svg: Svg, title: str, right: str = "", height: float = 34) -> None:
    """The title bar across the top: ``title`` on the left, ``right`` (whose turn, the phase) on the right."""
    svg.rect(0, 0, svg.width, height, fill="#0d2b1c")
    svg.text(12, height - 11, title, size=17, bold=True, width=svg.width * 0.62)
    svg.text(svg.width - 12, height - 11, right, size=15, fill=GOLD, anchor="end", width=svg.width * 0.36)


def panel(svg: Svg, x: float, y: float, w: float, h: float, title: str = "", active: bool = False,
          note: str = "") -> None:
    """A seat's area; ``active`` (the seat to play) draws a gold outline and a ▶ before the title."""
    svg.rect(x, y, w, h, fill=PANEL, stroke=GOLD if active else "#2e6b4a", sw=3 if active else 1, rx=8)
    if title:
        svg.text(x + 10, y + 20, ("▶ " if active else "") + title, size=15, bold=True,
                 fill=GOLD if active else LIGHT, width=w - 20 - text_width(note, 13))
    if note:
        svg.text(x + w - 10, y + 20, note, size=13, fill=DIM, anchor="end")


def card(svg: Svg, x: float, y: float, w: float = CARD_W, h: float = CARD_H, corner: str = "", big: str = "",
         lines: Sequence[str] = (), colour: str = INK, fill: str = CARD_FACE, tapped: bool = False,
         faded: bool = False, stroke: str = "#555", mark: str = "", mark_fill: str = RED) -> None:
    """A face-up card at (x, y): ``corner`` top left, ``big`` in the middle, ``lines`` below it, a red
    ``mark`` (damage) in the top right corner. ``tapped`` turns it a quarter to the right about its
    centre; ``faded`` greys it (knocked out, set aside)."""
    transform = f"rotate(90 {_num(x + w / 2)} {_num(y + h / 2)})" if tapped else None
    with svg.group(transform, opacity=0.45 if faded else None):
        svg.rect(x, y, w, h, fill=fill, stroke=stroke, sw=3 if stroke == GOLD else 1.2, rx=5)
        if corner:
            svg.text(x + 4, y + 14, corner, size=12, fill=colour, bold=True, width=w - (22 if mark else 6))
        if big:
            size = min(24.0, (w - 6) / max(1.0, text_width(big, 1.0)))
            svg.text(x + w / 2, y + h * 0.52 + size * 0.35, big, size=size, fill=colour, anchor="middle")
        for k, line in enumerate(lines):
            svg.text(x + w / 2, y + h - 6 - 13 * (len(lines) - 1 - k), line, size=11, fill=colour, anchor="middle",
                     width=w - 4)
        if mark:
            svg.circle(x + w - 8, y + 9, 8, fill=mark_fill)
            svg.text(x + w - 8, y + 13, mark, size=11, fill="white", anchor="middle", bold=True)


def playing_card(svg: Svg, x: float, y: float, rank: str, suit: str, w: float = CARD_W, h: float = CARD_H,
                 joker: bool = False) -> None:
    """A card of the 52 (and the joker): the rank in the corner, the suit large; ♥ ♦ in red."""
    if joker:
        card(svg, x, y, w, h, corner="JK", big="★", lines=["JOKER"], colour="#6a1b9a")
        return
    colour = RED if suit in "♥♦" else INK
    card(svg, x, y, w, h, corner=rank, big=suit, lines=[rank + suit] if h >= 60 else [], colour=colour)


def card_back(svg: Svg, x: float, y: float, w: float = CARD_W, h: float = CARD_H, fill: str = "#7a1f2b",
              tapped: bool = False) -> None:
    """A face-down card."""
    transform = f"rotate(90 {_num(x + w / 2)} {_num(y + h / 2)})" if tapped else None
    with svg.group(transform):
        svg.rect(x, y, w, h, fill=fill, stroke="#e8d9b0", sw=1.2, rx=5)
        svg.rect(x + 4, y + 4, w - 8, h - 8, fill="none", stroke="#e8d9b0", sw=0.8, rx=3, opacity=0.7)
        svg.polygon([(x + w / 2, y + h / 2 - 9), (x + w / 2 + 7, y + h / 2), (x + w / 2, y + h / 2 + 9),
                     (x + w / 2 - 7, y + h / 2)], fill="#e8d9b0")


def step_for(n: int, w: float, width: float, gap: float = 4) -> float:
    """The distance between the left edges of ``n`` cards ``w`` wide laid in ``width``: overlapped if need be."""
    if n <= 1:
        return w + gap
    return min(w + gap, (width - w) / (n - 1))


def backs(svg: Svg, x: float, y: float, n: int, w: float = CARD_W, h: float = CARD_H, width: float = 300,
          label: str | None = None, fill: str = "#7a1f2b") -> None:
    """A row of ``n`` face-down cards in at most ``width``, followed by their count (or ``label``)."""
    shown = min(n, 12)
    step = step_for(shown, w, width - 44)
    for k in range(shown):
        card_back(svg, x + k * step, y, w, h, fill=fill)
    end = x + (shown - 1) * step + w + 6 if shown else x
    svg.text(end, y + h / 2 + 6, label if label is not None else f"×{n}", size=15, bold=True)


_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
         5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


def die(svg: Svg, x: float, y: float, face: int, size: float = 40, fill: str = "#fbfaf5", pip: str = INK,
        stroke: str = "#333") -> None:
    """A die showing ``face`` (1..6) as pips; 0 draws a blank die (not rolled)."""
    svg.rect(x, y, size, size, fill=fill, stroke=stroke, sw=1.5, rx=size * 0.18)
    cell = size / 4
    for cx, cy in _PIPS.get(int(face), []):
        svg.circle(x + cell * (cx + 1), y + cell * (cy + 1), size * 0.09, fill=pip)


def badge(svg: Svg, x: float, y: float, text: str, fill: str = "#0d2b1c", colour: str = LIGHT, size: float = 13,
          anchor: str = "start") -> float:
    """A counter in a pill whose left edge (or right edge with ``anchor="end"``) is at x; returns its width."""
    w = text_width(text, size) + 14
    left = x - w if anchor == "end" else x
    svg.rect(left, y, w, size + 8, fill=fill, rx=(size + 8) / 2, stroke="#3c7a57", sw=1)
    svg.text(left + w / 2, y + size + 2, text, size=size, fill=colour, anchor="middle")
    return w


def pips(svg: Svg, x: float, y: float, n: int, fill: str, r: float = 5, per_row: int = 10,
         stroke: str = "#222") -> None:
    """``n`` round tokens (troops, dumplings) in rows of ``per_row``."""
    for k in range(n):
        svg.circle(x + r + (k % per_row) * (2 * r + 2), y + r + (k // per_row) * (2 * r + 2), r, fill=fill,
                   stroke=stroke, sw=0.8)
