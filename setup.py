"""Packages of the one distribution, under one import root.

The folders envs/, agents/ and training/ stay at the top of the repository (the project's design) and
are installed as yuugi.envs, yuugi.agents and yuugi.training, so a user's own agents/ or training/
folder can never shadow them. Everything else is in pyproject.toml.
"""
from setuptools import find_packages, setup

FOLDERS = {"yuugi": "yuugi", "yuugi.envs": "envs", "yuugi.agents": "agents", "yuugi.training": "training"}

packages = [root + ("." + sub if sub else "")
            for root, folder in FOLDERS.items()
            for sub in [""] + find_packages(folder)]
setup(packages=packages, package_dir=FOLDERS)
