"""The HTML API reference, generated from the docstrings by pdoc (``dpbandits docs``).

Every public module of the package gets a page (a module or package whose name starts with ``_`` is
private). A warning pdoc raises while importing or rendering (a module that fails to import, a
docstring it cannot parse, a broken cross-reference) fails the build.
"""

from __future__ import annotations

import argparse
import pkgutil
import sys
import warnings
from pathlib import Path


def modules() -> list[str]:
    """Names of the package's public modules, the package first."""
    import dpbandits

    found = pkgutil.walk_packages(dpbandits.__path__, "dpbandits.")
    return ["dpbandits", *sorted(m.name for m in found if not any(p.startswith("_") for p in m.name.split(".")))]


def build(out: Path) -> list[str]:
    """Write the reference to ``out`` (``out/index.html``); return pdoc's warnings (empty: a clean build)."""
    from pdoc import doc, render

    render.configure(docformat="restructuredtext", footer_text="dpbandits API reference")
    out = Path(out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # pdoc.pdoc() would walk each package's __all__ only; this is its loop over our own module list
        docs = {name: doc.Module.from_name(name) for name in modules()}
        for name, module in docs.items():
            page = out / f"{name.replace('.', '/')}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(render.html_module(module, docs))
        (out / "index.html").write_text(render.html_index(docs))
        (out / "search.js").write_text(render.search_index(docs))
    return [f"{w.category.__name__}: {w.message}" for w in caught]


def main(argv=None, prog: str = "dpbandits docs") -> int:
    """CLI: build the reference into ``--out``; exit 1 if pdoc warned."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path("docs/api"), help="output folder (default docs/api)")
    args = p.parse_args(argv)
    try:
        import pdoc  # noqa: F401
    except ImportError:
        print(f"{prog}: error: pdoc is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 1
    problems = build(args.out)
    for line in problems:
        print(f"{prog}: warning: {line}", file=sys.stderr)
    print(f"{args.out / 'index.html'}: {len(modules())} modules, {len(problems)} warnings")
    return 1 if problems else 0
