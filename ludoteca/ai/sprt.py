"""The sequential probability ratio test on game pairs: the pentanomial generalised SPRT.

Games are played in pairs from the same opening with colours swapped, and a pair is scored by
the new version's points in it: 0, 1/2, 1, 3/2 or 2, so the results are five counts
``n_0 .. n_4`` (the *pentanomial*), and ``a_i = i/4`` is the new version's mean score per game
in a pair of kind ``i``.  Counting pairs instead of games removes the variance the openings put
into the score (a lopsided opening gives one win to each side, not two independent results).

The test is the generalised SPRT (GSPRT) of Van den Bergh, as used by fishtest (implemented
here from the statistics; nothing is copied): for each hypothesis ``H`` (an Elo difference), the
distribution ``p^H`` over the five kinds that maximises the likelihood of the counts among those
with that Elo difference, and

    LLR = sum_i n_i log(p^H1_i / p^H0_i).

The test stops when the LLR leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``
(Wald's bounds): below, H0 is accepted (the new version is not ``elo1`` better), above, H1.
Zero counts are replaced by :data:`EPSILON` pairs first, so that both maxima exist.

Two Elo scales, as in fishtest:

- *logistic* Elo ``E``: the expected score per game is ``s = 1 / (1 + 10^(-E/400))``; the
  hypothesis is ``sum_i p_i a_i = s``.
- *normalised* Elo ``N``: ``N = (mu - 1/2) / sigma_game * 800 / ln 10``, where ``mu`` is the
  expected score per game and ``sigma_game = sqrt(2) * sigma_pair`` the standard deviation of
  a game's score implied by the standard deviation ``sigma_pair`` of a pair's mean score (the
  per-game noise once the pairing has taken out what the opening explains).  The number of
  games a test needs depends on the normalised Elo difference alone, whatever the draw rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "EPSILON",
    "NELO_PER_T",
    "SCORES",
    "Estimate",
    "Model",
    "decide",
    "estimate",
    "llr",
    "llr_bounds",
    "logistic_elo",
    "logistic_score",
    "mle_normalized",
    "mle_score",
    "pair_kind",
]

#: the new version's mean score per game in a pair of each kind (its points in the pair / 2)
SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: a count of zero pairs counts as this many in the likelihoods (so that both maxima exist)
EPSILON = 1e-3
#: normalised Elo per unit of the t-value ``(mu - 1/2) / sigma_game``: 800 / ln 10
NELO_PER_T = 800 / math.log(10)

Model = Literal["normalized", "logistic"]


def pair_kind(points: float) -> int:
    """The pentanomial index of a pair in which the new version scored ``points`` (0 to 2)."""
    kind = round(points * 2)
    if not 0 <= kind <= 4 or abs(kind - points * 2) > 1e-9:
        raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points}")
    return kind


def logistic_score(elo: float) -> float:
    """The expected score per game of a logistic Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


def logistic_elo(score: float) -> float:
    """The logistic Elo difference of an expected score per game: ``-400 log10(1/score - 1)``
    (``±inf`` at 1 and 0)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def llr_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR for the error rates ``alpha`` (accepting H1 when H0 holds) and
    ``beta`` (accepting H0 when H1 holds): ``(log(beta/(1-alpha)), log((1-beta)/alpha))``."""
    if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
        raise ValueError("alpha and beta are in (0, 1) and alpha + beta < 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _regularised(counts: Sequence[float]) -> list[float]:
    if len(counts) != len(SCORES) or any(c < 0 for c in counts):
        raise ValueError("pentanomial counts are five numbers, none negative")
    return [c if c > 0 else EPSILON for c in counts]


def _tilt(freq: Sequence[float], phi: Sequence[float]) -> list[float]:
    """``q_i = freq_i / (1 + lam phi_i)`` with ``lam`` the root of ``sum_i q_i phi_i = 0``, the
    one with every ``1 + lam phi_i > 0`` (``freq`` sums to 1, all positive; ``phi`` takes both
    signs).  ``q`` sums to 1 by construction: ``sum q = sum freq - lam sum q phi``.

    ``g(lam) = sum_i freq_i phi_i / (1 + lam phi_i)`` falls strictly on that interval, from
    +inf to -inf, so the root is found by bisection."""
    if max(phi) <= 0 or min(phi) >= 0:
        raise ValueError("no distribution meets the hypothesis (it is outside the scores)")
    low, high = -1 / max(phi), -1 / min(phi)

    def g(lam: float) -> float:
        return sum(f * x / (1 + lam * x) for f, x in zip(freq, phi, strict=True))

    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if g(middle) > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    return [f / (1 + lam * x) for f, x in zip(freq, phi, strict=True)]


def mle_score(freq: Sequence[float], score: float) -> list[float]:
    """The distribution over the five pair kinds closest to ``freq`` in likelihood (it maximises
    ``sum_i freq_i log p_i``) among those whose mean score per game is ``score``.

    Lagrange's condition makes it ``p_i = freq_i / (1 + lam (a_i - score))`` for the ``lam``
    that gives the mean (:func:`_tilt`)."""
    return _tilt(freq, [a - score for a in SCORES])


def mle_normalized(freq: Sequence[float], t: float, tolerance: float = 1e-10) -> list[float]:
    """The distribution over the five pair kinds that maximises ``sum_i freq_i log p_i`` among
    those with ``(mu - 1/2) / sigma_game = t`` (``mu = sum p_i a_i``, ``sigma_game = sqrt(2)
    sigma_pair``, ``sigma_pair^2 = sum p_i (a_i - mu)^2``).

    With ``c = sqrt(2) t`` the constraint is ``g(p) = mu - 1/2 - c sigma_pair = 0``.  Since
    ``d sigma_pair / d p_i = ((a_i - mu)^2 - mu^2) / (2 sigma_pair)``, Lagrange's condition
    ``freq_i / p_i = nu + lam dg/dp_i`` holds with the gradient shifted by a constant to
    ``phi_i = a_i - 1/2 - c ((a_i - mu)^2 + sigma_pair^2) / (2 sigma_pair)``, for which
    ``sum_i p_i phi_i = g(p) = 0``; summing ``p_i (nu + lam phi_i) = freq_i`` then gives
    ``nu = 1``, so ``p_i = freq_i / (1 + lam phi_i)``.  ``phi`` depends on ``p`` through ``mu``
    and ``sigma_pair``: the fixed point is found by iterating from the uniform distribution
    (``phi`` from the last ``p``, then ``p`` from :func:`_tilt`) until ``p`` moves less than
    ``tolerance`` (a few rounds; at most 1,000).  Starting from ``freq`` instead would fail when
    ``freq`` is nearly all one kind: its ``sigma_pair`` is so small that no ``lam`` fits."""
    c = math.sqrt(2) * t
    p = [1 / len(SCORES)] * len(SCORES)
    for _ in range(1000):
        mu = sum(q * a for q, a in zip(p, SCORES, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, SCORES, strict=True)))
        phi = [a - 0.5 - c * ((a - mu) ** 2 + sigma**2) / (2 * sigma) for a in SCORES]
        new = _tilt(freq, phi)
        moved = max(abs(x - y) for x, y in zip(new, p, strict=True))
        p = new
        if moved < tolerance:
            break
    return p


def llr(counts: Sequence[float], elo0: float, elo1: float, model: Model = "normalized") -> float:
    """The generalised log-likelihood ratio of H1 (Elo difference ``elo1``) against H0
    (``elo0``) for pentanomial ``counts``: ``sum_i n_i log(p1_i / p0_i)``, where ``p0`` and ``p1``
    are the likeliest distributions under each hypothesis (:func:`mle_score` for logistic
    Elo, :func:`mle_normalized` for normalised Elo) and zero counts count as
    :data:`EPSILON`."""
    n = _regularised(counts)
    total = sum(n)
    freq = [x / total for x in n]
    if model == "logistic":
        p0, p1 = (mle_score(freq, logistic_score(e)) for e in (elo0, elo1))
    elif model == "normalized":
        p0, p1 = (mle_normalized(freq, e / NELO_PER_T) for e in (elo0, elo1))
    else:
        raise ValueError(f"unknown Elo model {model!r} (normalized, logistic)")
    return sum(x * math.log(b / a) for x, a, b in zip(n, p0, p1, strict=True))


def decide(value: float, bounds: tuple[float, float]) -> Literal["H0", "H1"] | None:
    """``"H0"`` at or below the lower bound, ``"H1"`` at or above the upper one, else None."""
    if value <= bounds[0]:
        return "H0"
    if value >= bounds[1]:
        return "H1"
    return None


@dataclass(frozen=True)
class Estimate:
    """What the pairs so far say about the new version: its mean score per game, logistic
    Elo and normalised Elo, each with a 95% interval (normal approximation to the mean of the
    pairs' scores)."""

    pairs: int
    score: float
    score_interval: tuple[float, float]
    elo: float
    elo_interval: tuple[float, float]
    nelo: float
    nelo_interval: tuple[float, float]


def estimate(counts: Sequence[int], z: float = 1.959964) -> Estimate:
    """The estimates from pentanomial counts (at least one pair).

    ``mu = sum n_i a_i / N``; its standard error ``sigma_pair / sqrt(N)`` with ``sigma_pair^2 =
    sum n_i (a_i - mu)^2 / N``; the score's interval ``mu ± z se``, mapped to logistic Elo by
    :func:`logistic_elo`; normalised Elo ``(mu - 1/2) / (sqrt(2) sigma_pair) * 800 / ln 10``
    with the interval ``± z * 800 / ln 10 / sqrt(2 N)`` (the standard error of a t-value
    measured on ``2 N`` games; 0 when every pair was drawn 1-1)."""
    pairs = sum(counts)
    if pairs < 1:
        raise ValueError("no pairs yet")
    mu = sum(n * a for n, a in zip(counts, SCORES, strict=True)) / pairs
    sigma = math.sqrt(sum(n * (a - mu) ** 2 for n, a in zip(counts, SCORES, strict=True)) / pairs)
    se = sigma / math.sqrt(pairs)
    low, high = max(mu - z * se, 0.0), min(mu + z * se, 1.0)
    if sigma > 0:
        nelo = (mu - 0.5) / (math.sqrt(2) * sigma) * NELO_PER_T
    else:
        nelo = 0.0 if mu == 0.5 else math.copysign(math.inf, mu - 0.5)
    half = z * NELO_PER_T / math.sqrt(2 * pairs)
    return Estimate(
        pairs,
        mu,
        (low, high),
        logistic_elo(mu),
        (logistic_elo(low), logistic_elo(high)),
        nelo,
        (nelo - half, nelo + half),
    )
