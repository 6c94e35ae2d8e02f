"""The field: clearing it when a trick ends (a flush) or 雷遁 sweeps it."""
from __future__ import annotations

from yuugi.envs.core.jit import rules

from .tables import FC_EMPTY


@rules
def clear_field(st, i: int) -> None:
    """Flush: the field play goes to the discard; lock, 11-back and the trick record reset."""
    st.discard[i] |= st.field_cards[i]
    st.field_cards[i] = 0
    st.field_action[i] = -1
    st.field_class[i] = FC_EMPTY
    st.field_owner[i] = -1
    st.field_elo[i] = -1
    st.field_ehi[i] = -1
    st.responses[i] = 0
    for seat in range(st.passed.shape[1]):
        st.passed[i, seat] = False
    st.lock[i] = 0
    st.eleven_back[i] = False
