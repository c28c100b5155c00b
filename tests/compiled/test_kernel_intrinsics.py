"""The kernels' indexing intrinsics (:func:`ludoteca.compiled.kernel.load`, ``store``,
``prefetch``) against numpy's own indexing, on every array kind the drivers use them on."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from ludoteca.compiled.kernel import load, prefetch, store


@njit(cache=True)
def _copy_2d(source: npt.NDArray[np.int64], target: npt.NDArray[np.bool_]) -> int:
    """Every element of ``source`` as a truth value into ``target`` through the intrinsics, the
    sum of ``source`` read through them."""
    total = 0
    for i in range(source.shape[0]):
        for j in range(source.shape[1]):
            prefetch(target, (i, j))
            value = load(source, (i, j))
            store(target, (i, j), value != 0)
            total += value
    return total


@njit(cache=True)
def _scale_1d(values: npt.NDArray[np.float32], out: npt.NDArray[np.float32], factor: int) -> None:
    for k in range(values.size):
        store(out, k, load(values, k) * factor)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 9),
    st.lists(st.integers(-3, 3), min_size=54, max_size=54),
)
def test_load_store_and_prefetch_agree_with_numpy_indexing(
    rows: int, columns: int, values: list[int]
) -> None:
    source = np.array(values[: rows * columns], dtype=np.int64).reshape(rows, columns)
    target = np.zeros((rows, columns), dtype=np.bool_)
    assert _copy_2d(source, target) == int(source.sum())
    assert np.array_equal(target, source != 0)


def test_load_and_store_of_floats_and_a_view() -> None:
    values = np.arange(12, dtype=np.float32) / 4
    out = np.zeros(24, dtype=np.float32)
    _scale_1d(values, out[6:18], 3)  # a view: the element's place counts from its start
    assert np.array_equal(out[6:18], values * 3)
    assert not out[:6].any() and not out[18:].any()
