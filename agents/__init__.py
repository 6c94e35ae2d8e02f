"""Policies that play yuugi games (random, heuristic, shipped trained ones)."""
