"""The package's numba compile presets, spelled once: every compiled function uses :func:`kernel` or :func:`helper`.

* :func:`kernel`: a compiled function called by other code (simulation kernels, per-epoch helpers, the random
  streams): ``cache=True`` (compiled once per version of the sources, see :mod:`dpbandits.pipeline.numba_cache`) and
  ``nogil=True`` (a call from Python releases the GIL; a call from compiled code is unaffected).
* :func:`helper`: a small per-step function inlined into its callers at numba's IR level (``inline="always"``),
  so that the caller's loop is optimised as one piece; ``cache=True`` too (it only matters for a call from
  Python, e.g. in the tests).

Two options change what a function computes, so each function states them where it is defined:

* ``contract=True`` (``fastmath={"contract"}``): LLVM may fuse a * b + c into one fused multiply-add, rounded
  once. The argmax kernels need it so that the scalar index is the value the SIMD ``llvm.fma`` computes; no
  other fast-math flag (no reassociation), so results stay deterministic across builds.
* ``numpy_errors=True`` (``error_model="numpy"``): a float division by zero gives inf/nan as in numpy instead of
  raising; the kernels with it divide in their inner loop, where the zero check would cost a branch per step.
"""

from __future__ import annotations

from numba import njit

CONTRACT = frozenset({"contract"})  # the one fast-math flag the package uses (fused multiply-add)


def _preset(name, doc, **base):
    def preset(fn=None, *, contract=False, numpy_errors=False):
        options = dict(base)
        if contract:
            options["fastmath"] = set(CONTRACT)
        if numpy_errors:
            options["error_model"] = "numpy"
        decorate = njit(**options)
        return decorate if fn is None else decorate(fn)

    preset.__name__ = preset.__qualname__ = name
    preset.__doc__ = doc
    return preset


kernel = _preset(
    "kernel",
    "``@kernel`` or ``@kernel(contract=..., numpy_errors=...)``: njit with cache and nogil (see the module).",
    cache=True,
    nogil=True,
)
helper = _preset(
    "helper",
    "``@helper`` or ``@helper(contract=..., numpy_errors=...)``: njit inlined into callers, cached (see the module).",
    cache=True,
    inline="always",
)
