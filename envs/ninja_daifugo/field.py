"""The field: clearing it when a trick ends (a flush) or 雷遁 sweeps it."""
from __future__ import annotations

import numpy as np

from . import tables as T
from .state import DaifugoState


def clear_field(st: DaifugoState, g: np.ndarray) -> None:
    """Flush: the field play goes to the discard; lock, 11-back and the trick record reset."""
    st.discard[g] |= st.field_cards[g]
    st.field_cards[g] = 0
    st.field_action[g] = -1
    st.field_class[g] = T.FC_EMPTY
    st.field_owner[g] = -1
    st.field_elo[g] = -1
    st.field_ehi[g] = -1
    st.responses[g] = 0
    st.passed[g] = False
    st.lock[g] = 0
    st.eleven_back[g] = False
