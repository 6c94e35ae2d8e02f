"""SVG → ``uint8[H, W, 3]`` with wheels only: resvg (``resvg-py``) draws, Pillow decodes its PNG.

The font is IPAexGothic from the ``matplotlib-fontja`` wheel (IPA Font License v1.0, which allows
redistribution); no system font is read, so a picture is the same on every machine. Install them
with ``pip install "yuugi[pictures]"``.
"""
from __future__ import annotations

import functools
import io

import numpy as np

MISSING = ('drawing pictures needs resvg-py, Pillow and matplotlib-fontja: pip install "yuugi[pictures]" '
           '(or pip install resvg-py pillow matplotlib-fontja)')


@functools.lru_cache(maxsize=1)
def font_file() -> str:
    """The path of IPAexGothic inside the matplotlib-fontja wheel."""
    from importlib import resources

    try:
        path = resources.files("matplotlib_fontja") / "fonts" / "ipaexg.ttf"
    except ModuleNotFoundError as e:
        raise ImportError(MISSING) from e
    if not path.is_file():
        raise ImportError(f"{MISSING}: {path} is missing")
    return str(path)


def svg_to_png(svg: str) -> bytes:
    """The PNG bytes of ``svg`` (its own width and height)."""
    try:
        import resvg_py
    except ImportError as e:
        raise ImportError(MISSING) from e
    return bytes(resvg_py.svg_to_bytes(svg_string=str(svg), skip_system_fonts=True, font_files=[font_file()],
                                       font_family="IPAexGothic", sans_serif_family="IPAexGothic"))


def svg_to_rgb(svg: str) -> np.ndarray:
    """``uint8[H, W, 3]``: the picture as an array (what ``render_mode="rgb_array"`` returns)."""
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(MISSING) from e
    with Image.open(io.BytesIO(svg_to_png(svg))) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8).copy()


def save_png(svg: str, path: str) -> None:
    with open(path, "wb") as f:
        f.write(svg_to_png(svg))
