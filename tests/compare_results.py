"""Compare two results folders for a refactoring: ``python tests/compare_results.py BEFORE AFTER``.

Every simulation file (``sims/**/*.npz``) must hold the same arrays (NaN equal to NaN) and the same metadata
once the package versions are set aside; every CSV table must be byte-identical, except the privacy audit's
wall-time column. Prints each difference; exit status 1 if there is one. The closing note of a refactoring
quotes the command with the two smoke runs it compared (README, "Layout").
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

VOLATILE = {"versions"}  # metadata a new release changes without changing a result


def _meta(text: str):
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in VOLATILE}
        return [strip(v) for v in o] if isinstance(o, list) else o

    return strip(json.loads(text))


def _audit_rows(path: Path) -> list[dict]:
    with path.open() as f:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(f)]


def differences(before: Path, after: Path) -> list[str]:
    """Every difference between the results folders ``before`` and ``after``, one line each."""
    out = []
    for pattern in ("sims/**/*.npz", "**/*.csv"):
        a = {p.relative_to(before) for p in before.glob(pattern) if "benchmarks" not in p.parts}
        b = {p.relative_to(after) for p in after.glob(pattern) if "benchmarks" not in p.parts}
        out += [f"{rel}: only in one folder" for rel in sorted(a ^ b)]
        for rel in sorted(a & b):
            if rel.suffix == ".npz":
                out += _npz_differences(before / rel, after / rel, rel)
            elif "audit" in rel.parts:
                if _audit_rows(before / rel) != _audit_rows(after / rel):
                    out.append(f"{rel}: differs")
            elif (before / rel).read_bytes() != (after / rel).read_bytes():
                out.append(f"{rel}: differs")
    return out


def _npz_differences(a: Path, b: Path, rel: Path) -> list[str]:
    za, zb = np.load(a), np.load(b)
    if set(za.files) != set(zb.files):
        return [f"{rel}: other members"]
    out = []
    for key in sorted(set(za.files) - {"sha256"}):
        if key == "meta":
            same = _meta(str(za[key])) == _meta(str(zb[key]))
        else:
            same = np.array_equal(za[key], zb[key], equal_nan=za[key].dtype.kind == "f")
        if not same:
            out.append(f"{rel}: {key} differs")
    return out


def main(argv: list[str]) -> int:
    before, after = map(Path, argv)
    found = differences(before, after)
    print("\n".join(found))
    n_npz = len(list(before.glob("sims/**/*.npz")))
    print(f"compared {n_npz} simulation files and the CSV tables: {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
