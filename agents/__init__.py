"""Policies that play yuugi games (random, heuristic, shipped trained ones)."""

from .adapters import as_policy  # noqa: F401,E402  (level names, files, functions and models as Policies)
