"""The package's layers: imports go one way, from a layer to the layers below it (README, "Layout").

core < mechanisms < algorithms (bandits/, reference/, bai/, plugins) < pipeline < drawing and reading (drawing/,
claims/, diagnoses/) < tools (audit/, bench/, privacy/) < cli/. A module may import its own layer and any layer below.
The root ``dpbandits/__init__.py`` (the public facade: it loads the algorithms and points numba's cache) sits
with the pipeline; a ``__main__.py`` or an ``if __name__ == "__main__":`` block is the command line.
"""

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "dpbandits"
LAYERS = [
    {"_version", "core"},
    {"mechanisms"},
    {"bandits", "reference", "bai", "plugins"},
    {"pipeline", "__init__"},
    {"drawing", "claims", "diagnoses"},
    {"audit", "bench", "privacy"},
    {"cli"},
]
LEVEL = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def _part(module: str) -> str:
    """The layer-naming part of ``dpbandits.<part>[...]`` (``__init__`` for the root package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module(path: Path) -> tuple[str, str]:
    """(dotted module name, the package its relative imports start from)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), ".".join(parts[:-1])
    return ".".join(parts), ".".join(parts[:-1])


def _is_main_block(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported module or ``module.name``) of every package import in ``path``, lazy ones included."""
    _, package = _module(path)
    found = []

    def visit(node):
        if _is_main_block(node):
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "dpbandits":
                found.extend(
                    (node.lineno, f"{target}.{a.name}" if target == "dpbandits" else target) for a in node.names
                )
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "dpbandits")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def back_edges(path: Path) -> list[str]:
    """Imports of ``path`` that go up a layer, as ``file:line imports module (layer a -> layer b)``."""
    module, _ = _module(path)
    own = LEVEL["cli"] if path.name == "__main__.py" else LEVEL[_part(module)]
    out = []
    for line, target in imports(path):
        part = _part(target)
        if part not in LEVEL:  # dpbandits.<name> for a name the root exports (ALGORITHMS, __version__)
            part = "__init__"
        if LEVEL[part] > own:
            out.append(f"{path.relative_to(PACKAGE)}:{line} imports {target} (layer {own} -> {LEVEL[part]})")
    return out


def test_every_top_level_name_has_a_layer():
    names = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if p.suffix == ".py" or (p / "__init__.py").exists()
    }
    assert names <= set(LEVEL), f"give these a layer in tests/test_layers.py: {sorted(names - set(LEVEL))}"
    assert set(LEVEL) <= names, f"layers name what is gone: {sorted(set(LEVEL) - names)}"


def test_the_top_level_holds_at_most_eight_modules():
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 8, modules


def test_no_module_is_over_400_lines():
    long = {
        str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text().splitlines())) > 400
    }
    assert not long, long


def test_imports_go_down_the_layers():
    edges = [edge for path in sorted(PACKAGE.rglob("*.py")) for edge in back_edges(path)]
    assert not edges, "\n".join(edges)


@pytest.mark.parametrize(
    ("where", "code", "caught"),
    [
        ("core/x.py", "from ..pipeline import io\n", True),  # core reaching up to the pipeline
        ("core/x.py", "def f():\n    from ..drawing.style import STYLE\n", True),  # lazily: still a dependency
        ("core/x.py", "from dpbandits import ALGORITHMS\n", True),  # the facade sits above the core
        ("bandits/x.py", "from ..core.registry import register\nfrom ..mechanisms import noise\n", False),
        (
            "audit/x.py",
            "from ..core import registry\n\nif __name__ == '__main__':\n    from ..cli import main\n",
            False,
        ),
        ("pipeline/x.py", "from ..audit import loss\n", True),
    ],
)
def test_the_check_catches_a_back_edge(tmp_path, monkeypatch, where, code, caught):
    fake = tmp_path / "dpbandits" / where
    fake.parent.mkdir(parents=True)
    fake.write_text(code)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "dpbandits")
    assert bool(back_edges(fake)) is caught


PAPERS = {"tossou2016", "sajed2019", "sajed2019thesis", "hu2022", "chen2024", "crosspaper"}


def _layout_block() -> str:
    """The README's block that draws the package (the code block after "The package, `src/dpbandits/`")."""
    text = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    return text.split("The package, `src/dpbandits/`", 1)[1].split("```", 2)[1]


def unlisted_modules(block: str) -> list[str]:
    """Public modules named neither in ``block`` nor in their folder's README.md, nor a paper's module."""
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.stem
        if name.startswith("_") or name in PAPERS:
            continue
        readme = path.parent / "README.md"
        listed = readme.exists() and f"`{name}.py`" in readme.read_text(encoding="utf-8")
        if not listed and not re.search(rf"\b{name}\b", block):
            missing.append(str(path.relative_to(PACKAGE)))
    return missing


def test_the_readme_layout_names_every_module():
    assert not unlisted_modules(_layout_block())
    # the check can fail: a module the block stops naming is listed
    assert "mechanisms/stopping.py" in unlisted_modules(_layout_block().replace("stopping", "rules"))


def test_every_package_opens_with_a_docstring():
    assert not [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("__init__.py")
        if not ast.get_docstring(ast.parse(p.read_text()))
    ]
