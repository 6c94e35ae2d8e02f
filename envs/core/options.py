"""Rule options: the check every game's config makes before building itself."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from .errors import OptionError


def check_option_names(game: str, options: Mapping[str, Any], config_cls: type) -> None:
    """Reject option names that ``config_cls`` (a dataclass of the game's options) does not define."""
    known = {f.name for f in dataclasses.fields(config_cls) if f.init}
    unknown = sorted(set(options) - known)
    if unknown:
        raise OptionError(f"unknown {game} option(s) {unknown}; known options: {sorted(known)}")
