"""Corrupt or foreign result files are refused with their path, never plotted (dpbandits.pipeline.io)."""

import zipfile

import numpy as np
import pytest

import dpbandits
from dpbandits.drawing.figures import load_bai
from dpbandits.pipeline.io import (
    CorruptResultError,
    group_arrays,
    load_groups,
    load_member,
    members,
    save_job,
    save_npz,
)


@pytest.fixture
def job_file(tmp_path):
    """A genuine job file holding one regret configuration (2 epsilons, 3 runs)."""
    results = [dpbandits.simulate("dp_se", [0.9, 0.6], 200, eps, runs=3, seed=1) for eps in (0.5, 1.0)]
    path = tmp_path / "runs0-3.npz"
    save_job(path, {"cid1": group_arrays(results)})
    return path


def test_an_intact_file_loads(job_file):
    assert members(job_file) == ["cid1"]
    groups = load_groups([job_file], "cid1")
    assert set(groups) == {0.5, 1.0} and groups[1.0].regret.shape[0] == 3


@pytest.mark.parametrize("keep", [0.0, 0.5, 0.9, 0.999])
def test_a_truncated_file_is_refused_naming_its_path(job_file, keep):
    raw = job_file.read_bytes()
    job_file.write_bytes(raw[: int(len(raw) * keep)])
    with pytest.raises(CorruptResultError, match=str(job_file)):
        load_groups([job_file], "cid1")


def test_a_hand_edited_array_is_refused(job_file):
    with np.load(job_file) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["cid1.regret"] = arrays["cid1.regret"] * 0.5  # e.g. "fixing" a curve by hand
    np.savez(job_file, **arrays)
    with pytest.raises(CorruptResultError, match="do not match the stored SHA-256"):
        load_member(job_file, "cid1")


def test_a_flipped_byte_is_refused(job_file):
    raw = bytearray(job_file.read_bytes())
    with zipfile.ZipFile(job_file) as z:  # flip one byte inside the regret array's stored data
        info = z.getinfo("cid1.regret.npy")
    raw[info.header_offset + 200] ^= 0xFF
    job_file.write_bytes(bytes(raw))
    with pytest.raises(CorruptResultError, match=str(job_file)):
        load_groups([job_file], "cid1")


def test_a_foreign_npz_is_refused(tmp_path):
    path = tmp_path / "foreign.npz"
    np.savez(path, regret=np.zeros((2, 3)))
    with pytest.raises(CorruptResultError, match="no meta entry"):
        members(path)
    save_npz(path, {"x": 1}, regret=np.zeros(2))  # checksummed but not a simulation job's file
    with pytest.raises(CorruptResultError, match="not a simulation job's file"):
        members(path)


def test_consistent_checksum_but_inconsistent_shapes_is_refused(tmp_path, job_file):
    meta, arrays = load_member(job_file, "cid1")
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    arrays["regret"] = arrays["regret"][:, :2]  # 2 runs stored where the meta lists 3
    bad = tmp_path / "bad.npz"
    save_job(bad, {"cid1": (meta, arrays)})
    with pytest.raises(CorruptResultError, match="shapes"):
        load_groups([bad], "cid1")


def test_bai_shapes_are_checked(tmp_path):
    meta = {"points": ["a", "b"], "run_ids": [0, 1, 2]}
    good = {"x": np.array([1.0, 2.0]), "success": np.ones((2, 3), bool), "recommended": np.zeros((2, 3), int)}
    save_job(tmp_path / "good.npz", {"c": (meta, good)})
    assert load_bai([tmp_path / "good.npz"], "c")["success"].shape == (2, 3)
    save_job(tmp_path / "bad.npz", {"c": (meta, {**good, "success": np.ones((2, 2), bool)})})
    with pytest.raises(CorruptResultError, match="bad.npz"):
        load_bai([tmp_path / "bad.npz"], "c")
