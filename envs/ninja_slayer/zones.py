"""The current カラテ and 工作力 of every field slot of a batch, for readers of a state (rendering, the
search's horizon value); the rules compute them per character (:func:`.engine.karate`)."""
from __future__ import annotations

import numpy as np

from . import cards as C
from .state import NinjaSlayerState


def karate(st: NinjaSlayerState, g=slice(None)) -> np.ndarray:
    """int[...,2,6]: current カラテ (printed + modifiers, floored at 0); 0 on empty slots."""
    card = st.fld_card[g]
    return np.where(card >= 0, np.maximum(C.KARATE[np.maximum(card, 0)] + st.fld_kmod[g], 0), 0)


def kousaku(st: NinjaSlayerState, g=slice(None)) -> np.ndarray:
    """int[...,2,6]: current 工作力 (printed + modifiers, floored at 0); 0 on empty slots."""
    card = st.fld_card[g]
    return np.where(card >= 0, np.maximum(C.KOUSAKU[np.maximum(card, 0)] + st.fld_wmod[g], 0), 0)
