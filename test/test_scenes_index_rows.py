"""index_rows.unique_index_rows, which Genesis' MJCF import uses to split mesh vertices: the same arrays as
np.unique(rows, axis=0, return_inverse=True), on random rows and on the G1's own mesh index rows."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from reacthuman.spine.g1_assets import g1_mjcf_path
from reacthuman.scenes.index_rows import NumpyWithIndexRows, unique_index_rows


def _same_as_numpy(rows: np.ndarray) -> None:
    want_rows, want_inverse = np.unique(rows, axis=0, return_inverse=True)
    got_rows, got_inverse = unique_index_rows(rows)
    for want, got in ((want_rows, got_rows), (want_inverse, got_inverse)):
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        assert np.array_equal(got, want)


@pytest.mark.parametrize("columns", [2, 3])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16])
def test_random_index_rows_give_numpys_arrays(columns, dtype):
    rng = np.random.default_rng(columns)
    _same_as_numpy(rng.integers(0, 40, size=(4000, columns)).astype(dtype))  # many duplicates
    _same_as_numpy(rng.integers(0, 60000, size=(4000, columns)).astype(dtype))  # few


def test_the_g1_mesh_index_rows_give_numpys_arrays():
    """The rows Genesis' MJCF import builds for each G1 mesh: (vertex, normal[, texcoord]) index per corner."""
    m = mujoco.MjModel.from_xml_path(str(g1_mjcf_path()))
    assert m.nmesh > 20
    for i in range(m.nmesh):
        start, n = m.mesh_faceadr[i], m.mesh_facenum[i]
        cols = [m.mesh_face[start : start + n].ravel(), m.mesh_facenormal[start : start + n].ravel()]
        if m.mesh_texcoordadr[i] != -1:
            cols.append(m.mesh_facetexcoord[start : start + n].ravel())
        _same_as_numpy(np.stack(cols, axis=1))


def test_other_calls_go_to_numpy():
    assert unique_index_rows(np.array([[1, -2], [0, 3]])) is None  # negative: not index rows
    assert unique_index_rows(np.array([[1.0, 2.0]])) is None
    assert unique_index_rows(np.full((2, 3), 1 << 40, np.int64)) is None  # a key would overflow
    npx = NumpyWithIndexRows()
    assert npx.pi == np.pi
    assert npx.zeros(2).tolist() == [0.0, 0.0]
    assert npx.unique([3, 1, 1]).tolist() == [1, 3]
    floats = np.array([[0.5, 1.0], [0.5, 1.0]])
    assert np.array_equal(npx.unique(floats, axis=0, return_inverse=True)[0], [[0.5, 1.0]])
