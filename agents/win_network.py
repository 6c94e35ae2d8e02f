"""A learned probability of winning, run with numpy: the value networks of the ``hard`` levels that judge
positions (nigejozu's boards, ninja_slayer's positions a turn ahead).

:class:`WinNetwork` is a ReLU network with one output, the log-odds that the side whose view its inputs
are goes on to win; :class:`WinEnsemble` values with several of them at once. What a network reads is its
game's business (``inputs`` says how many numbers; :meth:`WinNetwork.check_inputs` refuses a network made
for other inputs). Files are ``.npz``: ``w<i>``/``b<i>`` per layer and a JSON ``meta``, or an ensemble's
``members``, ``member_meta`` and ``m<j>_w<i>``/``m<j>_b<i>``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np


class WinNetwork:
    """P(win) of the side whose view the inputs are: a ReLU network run with numpy."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], meta: Mapping[str, Any] | None = None):
        if weights[-1].shape[1] != 1:
            raise ValueError(f"a win network gives 1 output, not {weights[-1].shape[1]}")
        self.weights = [np.asarray(w, np.float32) for w in weights]
        self.biases = [np.asarray(b, np.float32) for b in biases]
        self.meta = dict(meta or {})

    @property
    def inputs(self) -> int:
        return int(self.weights[0].shape[0])

    def check_inputs(self, inputs: int, what: str) -> "WinNetwork":
        """This network, if it reads ``inputs`` numbers; else a ValueError naming ``what`` it was meant for."""
        if self.inputs != inputs:
            raise ValueError(f"a {what} win network reads {inputs} inputs, not {self.inputs}")
        return self

    @classmethod
    def load(cls, path: str | Path) -> "WinNetwork":
        """The network saved in ``path``: a single one, or a :class:`WinEnsemble` saved by its ``save``."""
        return load_win_network(path)

    def save(self, path: str | Path) -> None:
        np.savez(path, meta=json.dumps(self.meta), **{f"w{i}": w for i, w in enumerate(self.weights)},
                 **{f"b{i}": b for i, b in enumerate(self.biases)})

    def logits(self, inputs: np.ndarray) -> np.ndarray:
        """float64[n]: log-odds that the side whose view ``inputs`` are wins."""
        x = inputs
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        return x[:, 0].astype(np.float64)

    def __call__(self, inputs: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.logits(inputs)))


class WinEnsemble(WinNetwork):
    """Several :class:`WinNetwork` fitted apart, valued together: P(win) from the mean of their log-odds.

    A decision takes the best of many positions, so a single network's errors pick the positions it
    happens to overvalue; networks fitted on different games err differently, and their mean halves that
    noise. In nigejozu two of them, each winning 56.3% of the selection games against ``normal``, won
    59.1% of them together.
    """

    def __init__(self, members: list[WinNetwork], meta: Mapping[str, Any] | None = None):
        if len(members) < 2 or not all(isinstance(m, WinNetwork) for m in members):
            raise ValueError(f"an ensemble needs at least two WinNetwork members, got {members!r}")
        if len({m.inputs for m in members}) != 1:
            raise ValueError(f"an ensemble's members must read the same inputs, not {[m.inputs for m in members]}")
        self.members = list(members)
        self.meta = dict(meta or {})

    @property
    def inputs(self) -> int:
        return self.members[0].inputs

    def logits(self, inputs: np.ndarray) -> np.ndarray:
        return np.mean([m.logits(inputs) for m in self.members], axis=0)

    def save(self, path: str | Path) -> None:
        arrays = {f"m{j}_{kind}{i}": a for j, m in enumerate(self.members)
                  for kind, layer in (("w", m.weights), ("b", m.biases)) for i, a in enumerate(layer)}
        np.savez(path, meta=json.dumps(self.meta), members=len(self.members),
                 member_meta=json.dumps([m.meta for m in self.members]), **arrays)


def win_network_of(spec: "WinNetwork | str | Path | Sequence[WinNetwork | str | Path]") -> WinNetwork:
    """A network from a network, a file, or several of them (a :class:`WinEnsemble` of their members)."""
    if isinstance(spec, WinNetwork):
        return spec
    if isinstance(spec, (str, Path)):
        return load_win_network(spec)
    return WinEnsemble([win_network_of(member) for member in spec],
                       {"members": [Path(m).name if isinstance(m, (str, Path)) else "given" for m in spec]})


def load_win_network(path: str | Path) -> WinNetwork:
    """The network (or :class:`WinEnsemble`) saved in ``path``."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"])) if "meta" in data.files else {}

        def network(prefix: str, network_meta: Mapping[str, Any]) -> WinNetwork:
            n = sum(1 for k in data.files if k.startswith(f"{prefix}w"))
            return WinNetwork([data[f"{prefix}w{i}"] for i in range(n)], [data[f"{prefix}b{i}"] for i in range(n)],
                              network_meta)

        if "members" not in data.files:
            return network("", meta)
        member_meta = json.loads(str(data["member_meta"]))
        return WinEnsemble([network(f"m{j}_", member_meta[j]) for j in range(int(data["members"]))], meta)
