"""The ``.npz`` weights file: its game signature, its integrity checks, and stamping old files.

Format 3 (``FORMAT_VERSION``) arrays: ``w0, b0, ..., w{n-1}, b{n-1}`` (the hidden layers then the
action head; ``w`` as [in, out]), ``activation`` ("tanh" or "relu"), ``prior`` (an
:mod:`yuugi.agents.priors` name or ""), ``meta`` (JSON: the training record) and ``signature`` (JSON):

- ``game``: the game the weights play (null only for a network made for no game);
- ``num_players``, ``observation_size``, ``num_actions``: the spaces they were made for;
- ``options``: every rule option of that game, as they were (the ones that shape the spaces, such
  as momotaro's ``num_players``, are among them), and ``rules``: the ones that were given;
- ``layers``: each layer's [in, out] shape.

Reading checks everything before a policy is built: a file that is truncated, not a zip, has bad
JSON, lacks an array, holds NaN or infinite weights, or whose arrays disagree with ``layers`` fails
with one :class:`WeightsError` naming the file and the problem. ``check_fits`` refuses weights made
for another game or other spaces, naming what differs. Files of formats 1 and 2 have no signature:
they are refused with the command that stamps them (:func:`stamp`, ``python -m yuugi.training.train.export
stamp FILE``), which checks that their arrays fit the game and rewrites them with the same arrays.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

import numpy as np

from yuugi.envs.core.errors import OptionError

FORMAT_VERSION = 3
ACTIVATIONS = ("relu", "tanh")
STAMP_COMMAND = "python -m yuugi.training.train.export stamp"


class WeightsError(OptionError):
    """A weights file that cannot be used: unreadable, inconsistent, or made for another game.

    An :class:`~yuugi.envs.core.errors.OptionError` (and so a ``ValueError``): it is the user's choice of
    file that is wrong, reported like a bad rule option.
    """

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"weights file {self.path}: {problem}")


@dataclass
class WeightsFile:
    """What a weights file holds, checked."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str
    prior: str | None
    meta: dict[str, Any]
    signature: dict[str, Any]


def _json_safe(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, integer keys strings)."""
    return json.loads(json.dumps(value, default=str))


def game_options(game: Any) -> dict[str, Any]:
    """Every rule option of a built game (its config dataclass), JSON-safe."""
    config = getattr(game, "config", None)
    if config is None or not dataclasses.is_dataclass(config):
        return {}
    return _json_safe({f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.init})


def game_signature(game: Any, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The signature fields that describe ``game`` (a built BatchGame) and the ``rules`` it was built with."""
    return {"game": game.name, "num_players": int(game.num_players),
            "observation_size": int(np.prod(game.observation_shape)), "num_actions": int(game.num_actions),
            "options": game_options(game), "rules": _json_safe(dict(rules or {}))}


def describe(signature: Mapping[str, Any]) -> str:
    """``momotaro with num_players=4 (observation 368 floats, 111 actions)``."""
    rules = signature.get("rules") or {}
    shown = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in sorted(rules.items()))
    return (f"{signature.get('game')}{' with ' + shown if shown else ''} ({signature.get('num_players')} players, "
            f"observation {signature.get('observation_size')} floats, {signature.get('num_actions')} actions)")


def fits(signature: Mapping[str, Any], game: Any) -> bool:
    """Whether weights of ``signature`` can play ``game``: the same game and the same spaces."""
    want = game_signature(game)
    return all(signature.get(k) == want[k] for k in ("game", "num_players", "observation_size", "num_actions"))


def check_fits(path: str | Path, signature: Mapping[str, Any], game: Any, rules: Mapping[str, Any] | None = None) -> None:
    """Raise :class:`WeightsError` unless the weights of ``signature`` can play ``game``, saying what differs."""
    want = game_signature(game, rules)
    if signature.get("game") is None:
        raise WeightsError(path, f"it records no game, so it cannot be checked against {game.name}; "
                                 f"stamp it: {STAMP_COMMAND} {path} {game.name}")
    if signature["game"] != want["game"]:
        raise WeightsError(path, f"made for {signature['game']}, not {want['game']}")
    differ = [k for k in ("num_players", "observation_size", "num_actions") if signature.get(k) != want[k]]
    if not differ:
        return
    mine, theirs = signature.get("options") or {}, want["options"]
    options = [f"{k}={json.dumps(mine[k])} in the file, {json.dumps(theirs[k])} here"
               for k in sorted(set(mine) & set(theirs)) if mine[k] != theirs[k]]
    spaces = ", ".join(f"{k} {signature.get(k)} in the file, {want[k]} here" for k in differ)
    raise WeightsError(path, f"made for {describe(signature)}, which does not fit this {describe(want)}: {spaces}"
                             + (f"; options that differ: {'; '.join(options)}" if options else ""))


def _read_json(path: Path, data: Any, key: str) -> dict[str, Any]:
    try:
        value = json.loads(str(data[key]))
    except json.JSONDecodeError as e:
        raise WeightsError(path, f"its {key!r} entry is not valid JSON ({e})") from None
    if not isinstance(value, dict):
        raise WeightsError(path, f"its {key!r} entry is not a JSON object")
    return value


def _version(path: Path, data: Any) -> int:
    if "format_version" not in data.files:
        raise WeightsError(path, "not a yuugi weights file (no format_version entry)")
    raw = data["format_version"]
    if raw.shape != () or not np.issubdtype(raw.dtype, np.integer):
        raise WeightsError(path, f"format_version must be one integer, got {raw!r}")
    return int(raw)


def _layers(path: Path, data: Any, count: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    missing = [k for i in range(count) for k in (f"w{i}", f"b{i}") if k not in data.files]
    if missing:
        raise WeightsError(path, f"missing arrays {missing} (the signature lists {count} layers)")
    weights, biases = [data[f"w{i}"] for i in range(count)], [data[f"b{i}"] for i in range(count)]
    for name, a in [(f"w{i}", w) for i, w in enumerate(weights)] + [(f"b{i}", b) for i, b in enumerate(biases)]:
        if not np.issubdtype(a.dtype, np.floating):
            raise WeightsError(path, f"array {name} holds {a.dtype}, not floats")
        if a.ndim != (2 if name[0] == "w" else 1):
            raise WeightsError(path, f"array {name} has shape {a.shape}; weights are 2-D, biases 1-D")
        if not np.isfinite(a).all():
            raise WeightsError(path, f"array {name} holds {int((~np.isfinite(a)).sum())} NaN or infinite values")
    return weights, biases


def _check_shapes(path: Path, sig: Mapping[str, Any], weights: list[np.ndarray], biases: list[np.ndarray],
                  prior: str | None) -> None:
    layers = [list(w.shape) for w in weights]
    if layers != sig["layers"]:
        raise WeightsError(path, f"array shapes {layers} differ from the signature's layers {sig['layers']}")
    widen = weights[-1].shape[1] if prior else 0  # a prior-guided net also reads one value per action
    for i, (w, b) in enumerate(zip(weights, biases)):
        if w.ndim != 2 or b.shape != (w.shape[1],):
            raise WeightsError(path, f"layer {i}: w{i} {w.shape} and b{i} {b.shape} do not make a layer")
        if i > 0:
            expected = weights[i - 1].shape[1] + (widen if i == len(weights) - 1 else 0)
            if w.shape[0] != expected:
                raise WeightsError(path, f"layer {i} reads {w.shape[0]} inputs, the layer before gives {expected}")
    if sig.get("observation_size") is not None and weights[0].shape[0] != sig["observation_size"] + widen:
        raise WeightsError(path, f"the first layer reads {weights[0].shape[0]} inputs, the observation has "
                                 f"{sig['observation_size']}" + (f" (+{widen} prior values)" if widen else ""))
    if sig.get("num_actions") is not None and weights[-1].shape[1] != sig["num_actions"]:
        raise WeightsError(path, f"the action head gives {weights[-1].shape[1]} logits for {sig['num_actions']} actions")


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[Any]:
    """The loaded .npz; a missing, truncated or corrupt file (also found while reading it) is a WeightsError."""
    if not path.is_file():
        raise WeightsError(path, "no such file")
    try:
        with np.load(path, allow_pickle=False) as data:
            yield data
    except WeightsError:
        raise
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError, ValueError, KeyError) as e:
        raise WeightsError(path, f"not a readable .npz weights file (truncated or corrupt: {type(e).__name__}: {e})") \
            from None


def read(path: str | Path, *, need_signature: bool = True) -> WeightsFile:
    """Read and check a weights file; every problem is one :class:`WeightsError` naming the file.

    ``need_signature=False`` reads a format 1 or 2 file as well (its signature is then empty); only
    :func:`stamp` does that.
    """
    path = Path(path)
    with _opened(path) as data:
        version = _version(path, data)
        if version > FORMAT_VERSION:
            raise WeightsError(path, f"format {version} is newer than this yuugi reads ({FORMAT_VERSION})")
        if "signature" not in data.files:
            if need_signature:
                raise WeightsError(path, f"format {version} records no game signature (game, rule options, "
                                         f"layer shapes); stamp it first: {STAMP_COMMAND} {path} [GAME] "
                                         "[--rule KEY=VALUE ...]")
            sig: dict[str, Any] = {}
            count = sum(1 for k in data.files if k[:1] == "w" and k[1:].isdigit())
        else:
            sig = _read_json(path, data, "signature")
            if not isinstance(sig.get("layers"), list) or not sig["layers"]:
                raise WeightsError(path, "its signature lists no layers")
            count = len(sig["layers"])
        weights, biases = _layers(path, data, count)
        for key in ("activation", "meta"):
            if key not in data.files:
                raise WeightsError(path, f"missing entry {key!r}")
        activation = str(data["activation"])
        meta = _read_json(path, data, "meta")
        prior = (str(data["prior"]) if "prior" in data.files else "") or None
    if activation not in ACTIVATIONS:
        raise WeightsError(path, f"activation {activation!r} is not one of {list(ACTIVATIONS)}")
    if prior is not None:
        from .priors import PRIORS

        if prior not in PRIORS:
            raise WeightsError(path, f"unknown action prior {prior!r}; priors: {sorted(PRIORS)}")
    if sig:
        _check_shapes(path, sig, weights, biases, prior)
    return WeightsFile(weights, biases, activation, prior, meta, sig)


def read_signature(path: str | Path) -> dict[str, Any]:
    """Only the signature (cheap: the arrays stay unread); the same errors as :func:`read`."""
    path = Path(path)
    with _opened(path) as data:
        version = _version(path, data)
        if "signature" not in data.files:
            raise WeightsError(path, f"format {version} records no game signature; stamp it first: "
                                     f"{STAMP_COMMAND} {path}")
        return _read_json(path, data, "signature")


def write(path: str | Path, weights: list[np.ndarray], biases: list[np.ndarray], activation: str,
          prior: str | None, meta: Mapping[str, Any], signature: Mapping[str, Any] | None) -> None:
    """Write a format 3 file (through a temporary file, so a failed write leaves no half file)."""
    sig = {"game": None, "num_players": None, "observation_size": None, "num_actions": None, "options": {},
           "rules": {}, **dict(signature or {}), "layers": [list(w.shape) for w in weights]}
    arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(weights)}
    arrays.update({f"b{i}": b for i, b in enumerate(biases)})
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, format_version=np.int64(FORMAT_VERSION), activation=np.str_(activation),
                        meta=np.str_(json.dumps(dict(meta), ensure_ascii=False)), prior=np.str_(prior or ""),
                        signature=np.str_(json.dumps(sig, ensure_ascii=False)), **arrays)
    os.replace(tmp, path)


def stamp(path: str | Path, game: str | None = None, rules: Mapping[str, Any] | None = None,
          out: str | Path | None = None) -> dict[str, Any]:
    """Give an unsigned (format 1 or 2) weights file its signature; returns the signature.

    ``game`` and ``rules`` default to the ``game`` and ``rules`` of the file's training record
    (``meta``). The arrays must fit that game, and are written unchanged (to ``out``, default in place).
    """
    from yuugi.envs import make_game

    old = read(path, need_signature=False)
    game = game or old.meta.get("game")
    if not game:
        raise WeightsError(path, "its training record names no game; give the game to stamp it for")
    rules = dict(old.meta.get("rules") or {}) if rules is None else dict(rules)
    signature = game_signature(make_game(game, **rules), rules)
    signature["layers"] = [list(w.shape) for w in old.weights]
    _check_shapes(Path(path), signature, old.weights, old.biases, old.prior)
    write(out or path, old.weights, old.biases, old.activation, old.prior, old.meta, signature)
    return signature
