"""AlphaZero-style training: self-play on the batched environments with the network's tree
search, then fitting the network to the searches' improved policies
(:meth:`.puct.Searched.improved_policy`) and the games' results.

An iteration plays ``games`` games at once in one :class:`~ludoteca.vector.VectorEnv` (one game
a slot; every move of every game searched together, :func:`.puct.search`), keeps the last
``window`` iterations' positions, and trains on them for ``epochs`` passes.  Each iteration's
randomness (the environment's seed, the root noise, the moves drawn in the opening, the order
of the training examples) comes from ``(seed, iteration)``, so a run resumed from its
checkpoint ends with the same network, bit for bit, as one that was never stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..adapters.actions import ActionCursor
from ..core import LudotecaError
from ..vector import VectorEnv
from .net import Adam, Batch, PolicyValueNet
from .puct import search

__all__ = ["Config", "Trainer", "self_play"]

CHECKPOINT = "checkpoint.npz"


@dataclass(frozen=True)
class Config:
    """A training run's settings (kept in its checkpoint); ``rules`` names the rule set."""

    rules: str
    seed: int = 0
    hidden: tuple[int, ...] = (128, 128)
    #: games a self-play iteration (all played at once)
    games: int = 64
    #: tree-search rounds a move in self-play
    simulations: int = 16
    #: moves drawn in proportion to the visits (the rest: the most visited)
    opening_moves: int = 12
    #: a self-play game stopped after this many actions is a draw
    max_plies: int = 200
    noise: float = 0.25
    #: how far the training policy leans from the prior to the searched values
    #: (:meth:`.puct.Searched.improved_policy`)
    value_scale: float = 0.1
    alpha: float = 0.3
    #: iterations whose positions are trained on
    window: int = 6
    epochs: int = 4
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4


@dataclass
class Iteration:
    """What one iteration did: games, positions, results (White wins, draws, Black wins), the
    mean loss parts of its last epoch, and its seconds."""

    number: int
    games: int
    positions: int
    results: tuple[int, int, int]
    losses: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


def self_play(net: PolicyValueNet, config: Config, seed: int) -> tuple[Batch, tuple[int, int, int]]:
    """``config.games`` games of the network against itself: every position's observation,
    mask, improved policy and final result for the side to act; and the results (White
    wins, draws, Black wins)."""
    env = VectorEnv(config.rules, config.games, max_plies=config.max_plies)
    obs, mask = env.reset(seed)
    rng = np.random.default_rng(seed)
    cursors = [ActionCursor(env.setups[s]) for s in env.setup]
    active = np.ones(config.games, dtype=np.bool_)
    games: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]] = [[] for _ in cursors]
    samples: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = []
    results = [0, 0, 0]
    while active.any():
        playing = np.flatnonzero(active)
        found = search(
            net,
            [cursors[i] for i in playing],
            config.simulations,
            rng,
            config.noise,
            config.alpha,
        )
        targets = found.improved_policy(value_scale=config.value_scale)
        actions = env.random_actions().copy()  # the finished slots play on unrecorded
        to_play = env.to_play
        for row, i in enumerate(playing):
            visits = found.visits[row]
            if len(games[i]) < config.opening_moves:
                actions[i] = rng.choice(len(visits), p=visits / visits.sum())
            else:
                actions[i] = int(visits.argmax())
            games[i].append((obs[i].ravel().copy(), mask[i].copy(), targets[row], int(to_play[i])))
        obs, mask, rewards, terminated, truncated = env.step(actions)
        for i in playing:
            cursors[i].apply(int(actions[i]))
            if terminated[i] or truncated[i]:
                active[i] = False
                white = float(rewards[i, 0])
                results[0 if white > 0 else 2 if white < 0 else 1] += 1
                samples.extend((o, m, p, float(rewards[i, t])) for o, m, p, t in games[i])
    batch = Batch(
        np.stack([s[0] for s in samples]),
        np.stack([s[1] for s in samples]),
        np.stack([s[2] for s in samples]).astype(np.float32),
        np.array([s[3] for s in samples], dtype=np.float32),
    )
    return batch, (results[0], results[1], results[2])


class Trainer:
    """A training run kept in ``folder``: its network, optimiser, recent positions and history,
    saved after every iteration (``checkpoint.npz``) and resumed from there."""

    def __init__(self, folder: Path, config: Config) -> None:
        self.folder = folder
        self.config = config
        probe = VectorEnv(config.rules, 1)
        inputs = int(np.prod(probe.observation_shape))
        self.net = PolicyValueNet(
            config.rules, inputs, probe.num_actions, config.hidden, seed=config.seed
        )
        self.adam = Adam(self.net, config.lr)
        self.buffers: list[Batch] = []
        self.history: list[Iteration] = []

    @property
    def iteration(self) -> int:
        """Iterations done."""
        return len(self.history)

    @classmethod
    def resume(cls, folder: Path) -> Trainer:
        """The run saved in ``folder``; ``LudotecaError`` if there is none."""
        path = folder / CHECKPOINT
        if not path.exists():
            raise LudotecaError(f"{folder}: no training checkpoint ({CHECKPOINT}) to resume")
        with np.load(path, allow_pickle=False) as data:
            saved = json.loads(str(data["run"]))
            config = Config(**{**saved["config"], "hidden": tuple(saved["config"]["hidden"])})
            trainer = cls(folder, config)
            for key in trainer.net.params:
                trainer.net.params[key] = data[f"net_{key}"]
            trainer.adam.load_state({k: data[k] for k in data.files if k.startswith("adam_")})
            trainer.buffers = [
                Batch(*(data[f"buffer{i}_{part}"] for part in ("obs", "mask", "policy", "value")))
                for i in range(saved["buffers"])
            ]
        trainer.history = [
            Iteration(**{**h, "results": tuple(h["results"])}) for h in saved["history"]
        ]
        return trainer

    def save(self) -> None:
        """Write the checkpoint (atomically: a stopped save leaves the previous one)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        run = {
            "config": asdict(self.config),
            "buffers": len(self.buffers),
            "history": [asdict(h) for h in self.history],
        }
        arrays: dict[str, npt.NDArray[np.generic]] = {
            f"net_{k}": v for k, v in self.net.params.items()
        }
        arrays.update(self.adam.state())
        for i, b in enumerate(self.buffers):
            arrays.update(
                {
                    f"buffer{i}_obs": b.obs,
                    f"buffer{i}_mask": b.mask,
                    f"buffer{i}_policy": b.policy,
                    f"buffer{i}_value": b.value,
                }
            )
        partial = self.folder / (CHECKPOINT + ".part")
        with partial.open("wb") as out:
            np.savez_compressed(out, run=np.array(json.dumps(run)), **arrays)  # type: ignore[arg-type]
        partial.replace(self.folder / CHECKPOINT)

    def step(self) -> Iteration:
        """One iteration: self-play, training, checkpoint."""
        started = time.process_time()
        number = self.iteration + 1
        play_seed, order_seed = np.random.SeedSequence([self.config.seed, number]).generate_state(2)
        batch, results = self_play(self.net, self.config, int(play_seed))
        self.buffers = [*self.buffers, batch][-self.config.window :]
        losses = self._fit(np.random.default_rng(int(order_seed)))
        done = Iteration(
            number, sum(results), len(batch.obs), results, losses, time.process_time() - started
        )
        self.history.append(done)
        self.save()
        return done

    def _fit(self, rng: np.random.Generator) -> dict[str, float]:
        """``epochs`` passes over the window's positions in minibatches; the last pass's mean
        losses."""
        c = self.config
        data = Batch(
            *(
                np.concatenate([getattr(b, part) for b in self.buffers])
                for part in ("obs", "mask", "policy", "value")
            )
        )
        sums: dict[str, float] = {}
        for _ in range(c.epochs):
            order = rng.permutation(len(data.obs))
            sums = {}
            steps = 0
            for start in range(0, len(order), c.batch):
                pick = order[start : start + c.batch]
                part = Batch(data.obs[pick], data.mask[pick], data.policy[pick], data.value[pick])
                grads, losses = self.net.gradients(part, c.weight_decay)
                self.adam.step(grads)
                for k, v in losses.items():
                    sums[k] = sums.get(k, 0.0) + v
                steps += 1
            sums = {k: v / steps for k, v in sums.items()}
        return sums

    def run(
        self,
        iterations: int,
        report: Callable[[Iteration], None] | None = None,
        budget: float | None = None,
    ) -> None:
        """Iterate until ``iterations`` are done (counting those of a resumed run) or, with a
        ``budget``, until the iterations so far have taken that many CPU seconds."""
        while self.iteration < iterations:
            if budget is not None and sum(h.seconds for h in self.history) >= budget:
                break
            done = self.step()
            if report is not None:
                report(done)
