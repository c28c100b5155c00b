"""A small policy-value network in numpy: a multilayer perceptron on a game's observation
planes, its manual backward pass, Adam, and files.

The input is an observation flattened (``VectorEnv``'s and ``ActionCursor.observation``'s
planes); hidden layers are ReLU; the policy head gives one logit per action (softmax over the
legal ones: the mask), the value head one number in [-1, 1] (tanh) for the side to act.  The
loss is AlphaZero's: cross-entropy of the masked policy against a target distribution, squared
error of the value against a target, and L2 weight decay on the weight matrices.

Everything is float32 numpy so that it runs wherever the package does; the class is small
enough to port to PyTorch or JAX line for line (``forward``, ``backward``, ``Adam.step``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core import LudotecaError

__all__ = ["Adam", "Batch", "PolicyValueNet"]

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

#: what a network file holds besides the weights (its format: a numpy ``.npz`` archive)
_FORMAT = "ludoteca-policy-value-mlp-1"


@dataclass
class Batch:
    """Training examples: flattened observations, legal-action masks, target policies (rows
    summing to 1 over legal actions) and target values for the side to act."""

    obs: FloatArray
    mask: BoolArray
    policy: FloatArray
    value: FloatArray


@dataclass
class _Cache:
    """What the forward pass keeps for the backward pass."""

    inputs: list[FloatArray] = field(default_factory=list)
    probs: FloatArray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    value: FloatArray = field(default_factory=lambda: np.zeros(0, np.float32))


class PolicyValueNet:
    """An MLP from ``inputs`` numbers through ``hidden`` ReLU layers to ``actions`` policy
    logits and a tanh value, for the rule set ``rules`` (a spec, kept with the weights).
    Weights are drawn from ``seed`` (He initialisation; the heads start small)."""

    def __init__(
        self,
        rules: str,
        inputs: int,
        actions: int,
        hidden: tuple[int, ...] = (128, 128),
        seed: int = 0,
    ) -> None:
        self.rules = rules
        self.inputs = inputs
        self.actions = actions
        self.hidden = tuple(hidden)
        rng = np.random.default_rng(seed)
        sizes = [inputs, *self.hidden]
        self.params: dict[str, FloatArray] = {}
        for i, (a, b) in enumerate(pairwise(sizes)):
            self.params[f"w{i}"] = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(
                np.float32
            )
            self.params[f"b{i}"] = np.zeros(b, np.float32)
        top = sizes[-1]
        self.params["wp"] = (rng.standard_normal((top, actions)) * 0.01).astype(np.float32)
        self.params["bp"] = np.zeros(actions, np.float32)
        self.params["wv"] = (rng.standard_normal((top, 1)) * 0.01).astype(np.float32)
        self.params["bv"] = np.zeros(1, np.float32)

    @property
    def size(self) -> int:
        """The number of parameters."""
        return sum(p.size for p in self.params.values())

    def predict(self, obs: FloatArray, mask: BoolArray) -> tuple[FloatArray, FloatArray]:
        """Policies (rows over the actions, 0 where ``mask`` is false) and values for a batch of
        flattened observations with their legal-action masks (each row with a legal action)."""
        return self._forward(obs, mask, None)

    def _forward(
        self, obs: FloatArray, mask: BoolArray, cache: _Cache | None
    ) -> tuple[FloatArray, FloatArray]:
        x = obs.astype(self.params["wp"].dtype, copy=False)
        p = self.params
        for i in range(len(self.hidden)):
            if cache is not None:
                cache.inputs.append(x)
            x = np.maximum(x @ p[f"w{i}"] + p[f"b{i}"], 0.0)
        if cache is not None:
            cache.inputs.append(x)
        logits = np.where(mask, x @ p["wp"] + p["bp"], -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        value = np.tanh(x @ p["wv"] + p["bv"])[:, 0]
        if cache is not None:
            cache.probs, cache.value = probs, value
        return probs, value

    def gradients(
        self, batch: Batch, weight_decay: float
    ) -> tuple[dict[str, FloatArray], dict[str, float]]:
        """The loss's gradients for every parameter on ``batch`` (its mean over the examples),
        and the loss's parts: ``policy`` (cross-entropy), ``value`` (squared error), ``l2``."""
        cache = _Cache()
        probs, value = self._forward(batch.obs, batch.mask, cache)
        n = len(batch.obs)
        p = self.params
        picked = np.where(batch.policy > 0, np.log(np.maximum(probs, 1e-12)), 0.0)
        weights = [k for k in p if k.startswith("w")]
        losses = {
            "policy": float(-(batch.policy * picked).sum() / n),
            "value": float(((value - batch.value) ** 2).mean()),
            "l2": float(weight_decay * sum((p[k] ** 2).sum() for k in weights)),
        }
        top = cache.inputs[-1]
        d_logits = (probs - batch.policy) / n  # softmax cross-entropy; 0 off the mask
        d_value = (2.0 / n) * (value - batch.value) * (1.0 - value**2)
        grads = {
            "wp": top.T @ d_logits,
            "bp": d_logits.sum(axis=0),
            "wv": top.T @ d_value[:, None],
            "bv": d_value.sum(keepdims=True),
        }
        d_x = d_logits @ p["wp"].T + d_value[:, None] @ p["wv"].T
        for i in reversed(range(len(self.hidden))):
            d_x = d_x * (cache.inputs[i + 1] > 0)
            grads[f"w{i}"] = cache.inputs[i].T @ d_x
            grads[f"b{i}"] = d_x.sum(axis=0)
            if i:
                d_x = d_x @ p[f"w{i}"].T
        for k in weights:
            grads[k] = grads[k] + 2.0 * weight_decay * p[k]
        return grads, losses

    def save(self, path: Path) -> None:
        """Write the network (weights, shape and rule set) to ``path``, a ``.npz`` file."""
        meta = np.array([_FORMAT, self.rules, ",".join(map(str, self.hidden))])
        with path.open("wb") as out:
            arrays: dict[str, npt.NDArray[np.generic]] = dict(self.params)
            arrays["inputs"] = np.array([self.inputs, self.actions])
            np.savez_compressed(out, meta=meta, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> PolicyValueNet:
        """The network saved at ``path``; ``LudotecaError`` if it is missing or not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = [str(x) for x in data["meta"]]
                if meta[0] != _FORMAT:
                    raise LudotecaError(f"{path}: not a Ludoteca network file ({meta[0]})")
                inputs, actions = (int(x) for x in data["inputs"])
                hidden = tuple(int(h) for h in meta[2].split(",") if h)
                net = cls(meta[1], inputs, actions, hidden)
                for key, old in net.params.items():
                    new = data[key]
                    if new.shape != old.shape:
                        raise LudotecaError(f"{path}: {key} has shape {new.shape}, not {old.shape}")
                    net.params[key] = new.astype(np.float32)
        except (OSError, KeyError, ValueError) as error:
            raise LudotecaError(f"{path}: cannot read a network ({error})") from None
        return net


class Adam:
    """Adam (Kingma & Ba) over a network's parameters; its moments and step count are state
    (``state``/``load_state``) so that training resumes exactly."""

    def __init__(
        self, net: PolicyValueNet, lr: float = 1e-3, beta1: float = 0.9, beta2: float = 0.999
    ) -> None:
        self.net = net
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, 1e-8
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in net.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in net.params.items()}

    def step(self, grads: dict[str, FloatArray]) -> None:
        """One update of every parameter from its gradient."""
        self.t += 1
        scale = self.lr * np.sqrt(1 - self.beta2**self.t) / (1 - self.beta1**self.t)
        for k, g in grads.items():
            self.m[k] = self.beta1 * self.m[k] + (1 - self.beta1) * g
            self.v[k] = self.beta2 * self.v[k] + (1 - self.beta2) * g * g
            self.net.params[k] -= (scale * self.m[k] / (np.sqrt(self.v[k]) + self.eps)).astype(
                np.float32
            )

    def state(self) -> dict[str, npt.NDArray[np.float32 | np.int64]]:
        """The optimiser's state as named arrays (for a checkpoint)."""
        out: dict[str, npt.NDArray[np.float32 | np.int64]] = {"adam_t": np.array([self.t])}
        out.update({f"adam_m_{k}": v for k, v in self.m.items()})
        out.update({f"adam_v_{k}": v for k, v in self.v.items()})
        return out

    def load_state(self, data: dict[str, npt.NDArray[np.float32 | np.int64]]) -> None:
        """Restore what :meth:`state` gave."""
        self.t = int(data["adam_t"][0])
        self.m = {k: data[f"adam_m_{k}"].astype(np.float32) for k in self.m}
        self.v = {k: data[f"adam_v_{k}"].astype(np.float32) for k in self.v}
