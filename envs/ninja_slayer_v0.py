"""# Ninja Slayer (ニンジャスレイヤーTCG) — placeholder, full page below is written at the end."""
from __future__ import annotations

from envs.core.versioned import env_factories
from envs.ninja_slayer.game import NinjaSlayer as Game

raw_env, env = env_factories(Game)

__all__ = ["Game", "env", "raw_env"]
