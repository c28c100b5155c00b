"""Fitting an evaluation's weights to the results of games (Texel's method): ``ludoteca tune``.

A game's compiled kernel may declare its evaluation as weights times features
(:attr:`~ludoteca.compiled.registry.Kernel.weights` and the kernel's ``features``, see
:mod:`ludoteca.compiled.kernel`).  Its weights are then fitted to game records:

* every position of a game from ply ``skip`` on that is quiet (the side to move has no tactical
  move) and not over is labelled with the game's result for the side to move (1 a win, 0.5 a
  draw, 0 a loss); a position met more than once is kept once, with its labels' mean;
* the games are split at random (by ``seed``) into training games and held-out games (a
  ``holdout`` share); a held-out position also among the training positions is dropped, so the
  held-out error measures positions the fit has not seen;
* the error of weights ``w`` is the mean squared difference between the labels and
  ``sigmoid(K * w . features)``.  ``K`` is fitted first, with the kernel's base weights (its
  hand-set ones, not the tuned ones it may play with), then held;
  the weights are fitted next by Levenberg-Marquardt steps (Gauss-Newton, damped), and
  rounded to integers (the kernel keeps them in its integer ``prm``).  A feature no training
  position has keeps its weight.

The same files and settings give the same weights (numpy only, no randomness but ``seed``).
"""

from __future__ import annotations

import argparse
import json
import lzma
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import record
from ..core import Color, Game, LudotecaError, State
from ..games import load

__all__ = [
    "Sample",
    "Tuning",
    "error",
    "fit_scale",
    "fit_weights",
    "read_games",
    "register",
    "sample",
    "tune",
    "write",
]

Matrix = npt.NDArray[np.float64]
#: the white scores of the results a record can end with
_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass(frozen=True)
class Sample:
    """Labelled positions: their features (one row each), labels, and the games they are from."""

    features: Matrix
    labels: Matrix
    games: int

    def __len__(self) -> int:
        return len(self.labels)


@dataclass(frozen=True)
class Tuning:
    """What :func:`tune` found: the weights it started from (the kernel's base weights) and
    those it fitted, by feature name; the scale ``K``; the training and held-out positions; and
    the settings it ran with (for the weights file)."""

    before: dict[str, int]
    after: dict[str, int]
    scale: float
    train: Sample
    held_out: Sample
    settings: dict[str, Any]

    def errors(self) -> dict[str, dict[str, float]]:
        """The error of the weights before and after on the training and held-out positions
        (NaN for none)."""
        return {
            name: {
                "before": error(part, _vector(self.before), self.scale),
                "after": error(part, _vector(self.after), self.scale),
            }
            for name, part in (("train", self.train), ("held_out", self.held_out))
        }

    def entry(self) -> dict[str, Any]:
        """The rule set's entry of a weights file (:func:`write`): the weights, and how they
        were fitted (an error of no positions is null)."""
        used = np.count_nonzero(self.train.features, axis=0)
        return {
            "weights": self.after,
            "fit": {
                **self.settings,
                "K": float(f"{self.scale:.6g}"),
                "games": {"train": self.train.games, "held_out": self.held_out.games},
                "positions": {"train": len(self.train), "held_out": len(self.held_out)},
                "positions_with_feature": dict(zip(self.after, used.tolist(), strict=True)),
                "error": {
                    part: {
                        when: None if math.isnan(value) else round(value, 6)
                        for when, value in errors.items()
                    }
                    for part, errors in self.errors().items()
                },
                "before": self.before,
            },
        }


def _vector(weights: dict[str, int]) -> Matrix:
    return np.array(list(weights.values()), dtype=np.float64)


def _sigmoid(x: Matrix) -> Matrix:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def error(sample: Sample, weights: Matrix, scale: float) -> float:
    """The mean squared difference between the labels and ``sigmoid(scale * evaluation)``."""
    if not len(sample):
        return math.nan
    return float(np.mean((_sigmoid(scale * (sample.features @ weights)) - sample.labels) ** 2))


def fit_scale(sample: Sample, weights: Matrix) -> float:
    """The ``K`` of least error for ``weights``: a golden-section search over ``log10 K`` from
    -6 to 0 (an evaluation of 1 to 10**6 units is then worth a sigmoid's unit)."""
    low, high = -6.0, 0.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if error(sample, weights, 10**a) <= error(sample, weights, 10**b):
            high = b
        else:
            low = a
    return float(10 ** ((low + high) / 2))


def fit_weights(
    sample: Sample,
    weights: Matrix,
    scale: float,
    steps: int = 200,
    progress: Callable[[int], object] | None = None,
) -> Matrix:
    """The weights of least error at the fixed ``scale``, from ``weights`` on, by at most
    ``steps`` Levenberg-Marquardt steps (stopping when a step gains under 1e-12); a feature
    every position lacks keeps its weight.  ``progress(1)`` after each step."""
    x, y = sample.features, sample.labels
    free = np.flatnonzero(np.any(x != 0, axis=0))
    w = weights.astype(np.float64)
    best = error(sample, w, scale)
    damping = 1e-3
    for _ in range(steps):
        p = _sigmoid(scale * (x @ w))
        jacobian = (scale * p * (1 - p))[:, None] * x[:, free]
        gradient = jacobian.T @ (p - y)
        normal = jacobian.T @ jacobian
        while True:
            system = normal + damping * np.diag(np.diag(normal))
            trial = w.copy()
            trial[free] -= np.linalg.solve(system, gradient)
            found = error(sample, trial, scale)
            if found < best or damping > 1e12:
                break
            damping *= 4
        if progress is not None:
            progress(1)
        if found >= best:
            break
        gained, best, w = best - found, found, trial
        damping = max(damping / 4, 1e-9)
        if gained < 1e-12:
            break
    return w


def read_games(paths: Iterable[Path]) -> Iterator[record.GameRecord]:
    """The finished games of the files ``paths``: JSON lines whose objects hold a game's
    record under ``"record"`` (``ludoteca sprt`` writes them; lines without one, and forfeited
    games, are passed over), or game records one after another (``ludoteca tournament``); a
    file whose name ends in ``.xz`` is read through xz (the committed results are kept so)."""
    for path in paths:
        xz = path.suffix == ".xz"
        with (
            lzma.open(path, "rt", encoding="utf-8") if xz else path.open(encoding="utf-8") as stream
        ):
            text = stream.read()
        if text.lstrip().startswith("{"):
            for line in text.splitlines():
                game = json.loads(line) if line.strip() else {}
                if "record" in game and not game.get("failure"):
                    yield record.loads(game["record"])
        else:
            yield from record.read_games(text.splitlines(keepends=True))


def _positions(game: record.GameRecord, skip: int) -> Iterator[tuple[State, float]]:
    """The quiet positions of a finished game from ply ``skip`` on, each with the result for
    its side to move (walking back from the end)."""
    white = _SCORES[game.result]
    state = game.state.copy()
    while state.move_stack:
        state.pop_code()
        if state.ply < skip or state.tactical_codes(state.legal_codes()):
            continue
        yield state, white if state.turn == Color.WHITE else 1.0 - white


def sample(
    game: Game,
    games: Iterable[record.GameRecord],
    skip: int,
    holdout: float,
    seed: int,
    progress: Callable[[int], object] | None = None,
) -> tuple[Sample, Sample]:
    """The training and held-out positions (see the module's notes) of the finished ``games``
    of ``game``'s rule set (others are passed over)."""
    kernel = game.kernel
    if kernel is None or not kernel.weights:
        raise LudotecaError(f"{game.title} ({game.rules}) has no evaluation weights to tune")
    from ..compiled.registry import functions

    write_features = functions(kernel.name)["features"]
    rng = np.random.default_rng(seed)
    found: tuple[dict[Any, list[Any]], dict[Any, list[Any]]] = ({}, {})
    counts = [0, 0]
    for played in games:
        if progress is not None:
            progress(1)
        if played.result not in _SCORES or played.state.rules != game.rules:
            continue
        part = int(rng.random() < holdout)
        counts[part] += 1
        for state, label in _positions(played, skip):
            key = state.position_key()
            if key in found[part]:
                found[part][key][1] += label
                found[part][key][2] += 1
                continue
            row = np.zeros(len(kernel.weights), dtype=np.float64)
            write_features(kernel.pack(state), kernel.prm, row)
            found[part][key] = [row, label, 1]
    train, held = found
    held = {key: value for key, value in held.items() if key not in train}
    return _sample(train, counts[0]), _sample(held, counts[1])


def _sample(found: dict[Any, list[Any]], games: int) -> Sample:
    rows = list(found.values())
    width = len(rows[0][0]) if rows else 0
    return Sample(
        np.array([r[0] for r in rows], dtype=np.float64).reshape(len(rows), width),
        np.array([r[1] / r[2] for r in rows], dtype=np.float64),
        games,
    )


def tune(
    game: Game,
    paths: Sequence[Path],
    skip: int = 8,
    holdout: float = 0.2,
    seed: int = 1,
    positions: int | None = None,
    steps: int = 200,
    progress: Callable[[str, int | None], Callable[[int], object]] | None = None,
) -> Tuning:
    """Fit the weights of ``game``'s evaluation to the games of the files ``paths`` (see the
    module's notes); ``positions``: at most this many training positions (a sample drawn by
    ``seed``).  ``progress(what, total)`` gives the callback of each stage's progress."""
    report = progress or (lambda what, total: lambda n: None)
    train, held = sample(
        game, read_games(paths), skip, holdout, seed, report("reading games", None)
    )
    kernel = game.kernel
    assert kernel is not None  # sample() checked it
    if not len(train):
        raise LudotecaError(f"no quiet position of a finished {game.rules} game to fit")
    if positions is not None and positions < len(train):
        keep = np.sort(np.random.default_rng(seed).choice(len(train), positions, replace=False))
        train = Sample(train.features[keep], train.labels[keep], train.games)
    before = dict(kernel.base_weights)
    scale = fit_scale(train, _vector(before))
    fitted = fit_weights(train, _vector(before), scale, steps, report("fitting", steps))
    after = {name: round(float(value)) for name, value in zip(before, fitted, strict=True)}
    settings = {
        "games_files": [str(p) for p in paths],
        "skip": skip,
        "holdout": holdout,
        "seed": seed,
        "max_positions": positions,
    }
    return Tuning(before, after, scale, train, held, settings)


def write(tuning: Tuning, rules: str, out: Path) -> None:
    """Put the rule set ``rules``' entry (:meth:`Tuning.entry`) into the weights file
    ``out`` (JSON, ``{rules: entry}``, the rule sets in order), keeping the other rule sets'
    entries."""
    table = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    table[rules] = tuning.entry()
    table = dict(sorted(table.items()))
    out.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")


def register(sub: Any) -> None:
    """Add ``ludoteca tune`` to the command line's subcommands ``sub`` (an ``argparse``
    subparsers object)."""
    p = sub.add_parser(
        "tune",
        help="fit the evaluation's weights to the results of games (Texel's method)",
        description="Fit a rule set's evaluation weights to the results of finished games: "
        "quiet positions labelled with their game's result, the error between the labels "
        "and sigmoid(K * evaluation) minimised (K first, then the weights). The weights go "
        "into --out under the rule set's name (the game's own weights file makes them the "
        "engine's: docs/ai.md).",
    )
    p.add_argument("game")
    p.add_argument("--rules", default=None, help="rule set (default: the game's first)")
    p.add_argument(
        "--games",
        type=Path,
        nargs="+",
        required=True,
        metavar="FILE",
        help="game files: JSON lines with a record each (ludoteca sprt --out), or records",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="the weights file (default: weights-RULES.json)"
    )
    p.add_argument(
        "--positions", type=int, default=None, help="at most N training positions (a sample)"
    )
    p.add_argument("--skip", type=int, default=8, help="pass over the first N plies (default 8)")
    p.add_argument(
        "--holdout", type=float, default=0.2, help="the share of held-out games (default 0.2)"
    )
    p.add_argument("--steps", type=int, default=200, help="at most N fitting steps (default 200)")
    p.add_argument("--seed", type=int, default=1, help="seed of the split and the sample")
    p.set_defaults(handler=_command)


def _command(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    game = load(args.game, args.rules)
    if (
        not 0 <= args.holdout < 1
        or args.steps < 1
        or (args.positions is not None and args.positions < 1)
    ):
        raise LudotecaError("--holdout is from 0 to under 1, --steps and --positions at least 1")
    bars: list[Any] = []

    def progress(what: str, total: int | None) -> Callable[[int], object]:
        bars.append(tqdm(desc=what, total=total, file=sys.stderr, disable=None, leave=False))
        return bars[-1].update  # type: ignore[no-any-return]

    started = time.perf_counter()
    try:
        tuning = tune(
            game,
            args.games,
            args.skip,
            args.holdout,
            args.seed,
            args.positions,
            args.steps,
            progress,
        )
    finally:
        for bar in bars:
            bar.close()
    out = args.out or Path(f"weights-{game.rules}.json")
    write(tuning, str(game.rules), out)
    errors = tuning.errors()
    print(
        f"{game.title} ({game.rules}): {len(tuning.train)} positions of {tuning.train.games} "
        f"games, {len(tuning.held_out)} held out of {tuning.held_out.games}; K {tuning.scale:.6g}"
    )
    for part, label in (("train", "training"), ("held_out", "held-out")):
        print(
            f"{label} error {errors[part]['before']:.6f} before, {errors[part]['after']:.6f} after"
        )
    for name, value in tuning.after.items():
        print(f"  {name:20} {tuning.before[name]:6} -> {value:6}")
    print(f"weights written to {out} ({time.perf_counter() - started:.0f}s)")
    return 0
