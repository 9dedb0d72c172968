"""Architecture: every module imports, the core never loads Qt, `kdsdesk --help` does not import heavy engines, and
no import cycle exists inside the package (the layers themselves are import-linter's contracts in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("PySide6", "pymupdf", "fitz", "tantivy", "kiwipiepy", "onnxruntime", "llama_cpp")


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print(' '.join(sorted(sys.modules)))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {m.split(".")[0] for m in out.split()}


def test_every_module_imports() -> None:
    """A module that fails to import (a parser with a syntax error, a missing dependency) fails the run here, even
    where the code imports it lazily and the tests that would use it are skipped."""
    import importlib
    import pkgutil

    import kdsdesk

    names = [m.name for m in pkgutil.walk_packages(kdsdesk.__path__, "kdsdesk.") if m.name != "kdsdesk.__main__"]
    assert {"kdsdesk.ingest.pdf", "kdsdesk.ingest.hwpx", "kdsdesk.service", "kdsdesk.ui.main_window"} <= set(names)
    failed = {}
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - every failure is reported
            failed[name] = f"{type(exc).__name__}: {exc}"
    assert not failed, failed


def test_service_loads_no_qt() -> None:
    loaded = _loaded_after("import kdsdesk.service, kdsdesk.cli")
    assert "PySide6" not in loaded
    assert "shiboken6" not in loaded


def test_cli_help_imports_no_heavy_engine() -> None:
    loaded = _loaded_after("import kdsdesk.app, kdsdesk.cli\nkdsdesk.cli.build_parser().format_help()")
    assert not loaded.intersection(HEAVY), loaded.intersection(HEAVY)


def _import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative): each is an import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    group.append(m)
                    if m == node:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return cycles


def test_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert _import_cycles(graph) == [["a", "b", "c"]]
    assert _import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_inside_kdsdesk() -> None:
    """Every import counts: at module level, inside a function (lazy) and under ``if TYPE_CHECKING``."""
    import grimp

    g = grimp.build_graph("kdsdesk")
    graph = {m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}
    cycles = _import_cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" ↔ ".join(c) for c in cycles)
