"""鬼ヶ島 (Onigashima, the Momotarō oni battle): see :mod:`yuugi.envs.momotaro_v0` for the documentation."""
from .game import Momotaro

__all__ = ["Momotaro"]
