"""Architecture: the core never loads Qt, and `kdsdesk --help` does not import heavy engines."""

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


def test_service_loads_no_qt() -> None:
    loaded = _loaded_after("import kdsdesk.service, kdsdesk.cli")
    assert "PySide6" not in loaded
    assert "shiboken6" not in loaded


def test_cli_help_imports_no_heavy_engine() -> None:
    loaded = _loaded_after("import kdsdesk.app, kdsdesk.cli\nkdsdesk.cli.build_parser().format_help()")
    assert not loaded.intersection(HEAVY), loaded.intersection(HEAVY)
