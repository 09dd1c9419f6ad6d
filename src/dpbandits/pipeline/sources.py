"""The package modules a piece of code can reach: the inputs that decide when Snakemake reruns a job.

Computed from the code, never declared, so no list can fall out of date. :func:`closure` parses imports
with :mod:`ast` (absolute ``dpbandits...`` and relative ones, at module level or inside functions) and
follows them through the package:

- importing a module reaches it and, as files, the ``__init__.py`` of the packages above it (Python runs
  them first). Their own imports are not followed: they only register or re-export siblings;
- importing a package as a whole (``from . import reference``) reaches its ``__init__.py`` and what that
  imports;
- importing a name from a package (``from .bai import wilson_interval``) reaches the module that name is
  re-exported from, or, for a name the ``__init__.py`` defines itself, the imports its definition uses.

A simulation job's inputs are :func:`algorithm_sources`: its algorithm's registering module and the
simulation core, the job's entry point (:data:`dpbandits.pipeline.entry.ENTRY_POINTS`), with their closures.
"""

from __future__ import annotations

import ast
import json
import pkgutil
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
NAME = __name__.partition(".")[0]


@cache
def module_file(module: str) -> Path | None:
    """The file of package module ``module`` (a package's ``__init__.py``), or None outside the package."""
    parts = module.split(".")
    if parts[0] != NAME:
        return None
    path = PACKAGE.joinpath(*parts[1:])
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


def _is_package(module: str) -> bool:
    file = module_file(module)
    return file is not None and file.name == "__init__.py"


@cache
def _tree(file: Path) -> ast.Module:
    return ast.parse(file.read_text(), str(file))


def _base(module: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` statement of ``module`` imports from."""
    if not node.level:
        return node.module or ""
    package = module if _is_package(module) else module.rpartition(".")[0]
    package = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
    return f"{package}.{node.module}" if node.module else package


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[tuple[str, str | None]]:
    """(module, name) pairs ``node`` imports: name None for a whole module, else a name of a package."""
    if isinstance(node, ast.Import):
        return [(alias.name, None) for alias in node.names if module_file(alias.name)]
    base = _base(module, node)
    out = []
    for alias in node.names:
        if alias.name != "*" and module_file(f"{base}.{alias.name}"):
            out.append((f"{base}.{alias.name}", None))
        elif alias.name != "*" and _is_package(base):
            out.append((base, alias.name))
        else:
            out.append((base, None))
    return [(m, n) for m, n in out if module_file(m)]


def _imports(module: str, nodes) -> list[tuple[str, str | None]]:
    return [t for node in nodes if isinstance(node, ast.Import | ast.ImportFrom) for t in _targets(module, node)]


@cache
def _module_imports(module: str) -> list[tuple[str, str | None]]:
    """Every import of ``module``, at module level or inside functions."""
    return _imports(module, _statements(_tree(module_file(module)).body))


def _statements(nodes):
    """The statements in ``nodes`` and, recursively, in their bodies (imports are statements)."""
    for node in nodes:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            yield from _statements(getattr(node, field, ()))


@cache
def _bindings(package: str, name: str) -> list[tuple[str, str | None]]:
    """What ``package/__init__.py`` runs to define ``name``: the import binding it, or the imports its
    own definition uses (transitively through the other names it defines)."""
    body = _tree(module_file(package)).body
    imported: dict[str, list] = {}
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                one = (
                    ast.ImportFrom(node.module, [alias], node.level)
                    if isinstance(node, ast.ImportFrom)
                    else ast.Import([alias])
                )
                imported.setdefault(alias.asname or alias.name.split(".")[0], []).extend(_imports(package, [one]))
    out, done, todo = [], set(), [name]
    while todo:
        n = todo.pop()
        if n in done:
            continue
        done.add(n)
        out += imported.get(n, [])
        todo += [x.id for node in body if n in _defines(node) for x in ast.walk(node) if isinstance(x, ast.Name)]
    return out


def _defines(node: ast.stmt) -> set[str]:
    """Names a top-level statement defines (other than by importing)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def closure(*modules: str) -> list[str]:
    """Sorted paths of the package files ``modules`` (dotted names) can reach, themselves included."""
    return _reach([(m, None) for m in modules])


def script_sources(path: str | Path) -> list[str]:
    """Sorted paths of the package files a script outside the package (a workflow script, or a notebook's
    code cells) can reach."""
    text = Path(path).read_text()
    if Path(path).suffix == ".ipynb":
        text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "code")
    tree = ast.parse(text, str(path))
    return _reach(_imports(NAME, [n for n in _statements(tree.body) if not getattr(n, "level", 0)]))


def _reach(todo: list[tuple[str, str | None]]) -> list[str]:
    files: set[Path | None] = set()
    seen: set[tuple[str, str | None]] = set()
    while todo:
        module, name = todo.pop()
        if (module, name) in seen:
            continue
        seen.add((module, name))
        if module_file(module) is None:
            raise ValueError(f"{module!r} is not a module of {NAME}")
        parts = module.split(".")
        files.update(module_file(".".join(parts[:i])) for i in range(1, len(parts) + 1))
        todo += _bindings(module, name) if name else _module_imports(module)
    return sorted(map(str, files))


def submodules(package: str) -> list[str]:
    """Dotted names of the modules directly inside ``package``."""
    path = module_file(package).parent
    return [f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])]


@cache
def algorithm_files(name: str) -> list[str]:
    """Every file algorithm ``name``'s own code can reach: its module's closure (a plugin: its own files,
    see :data:`dpbandits.plugins.FILES`, and the package modules they import)."""
    from ..core.registry import get

    alg = get(name)
    if module_file(alg.module) is not None:
        return closure(alg.module)
    from ..plugins import FILES

    own = FILES[name]
    return sorted({*own, *(f for path in own for f in script_sources(path))})


@cache
def algorithm_sources(name: str) -> list[str]:
    """Every file a simulation job of algorithm ``name`` runs: :func:`algorithm_files` and the closure of
    its kind's entry point (:data:`dpbandits.pipeline.entry.ENTRY_POINTS`)."""
    from ..core.registry import get
    from .entry import ENTRY_POINTS

    return sorted({*algorithm_files(name), *closure(ENTRY_POINTS[get(name).kind])})
