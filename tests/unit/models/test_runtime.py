"""Loading the llama.cpp CPU backends at run time."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.models import runtime


def test_llama_backend_loader_is_a_no_op_without_variants(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A normal llama.cpp build (no ggml-cpu-* variant libraries) needs and gets no backend loading."""
    monkeypatch.setattr(runtime, "llama_backend_dirs", lambda: [tmp_path / "lib", tmp_path / "bin"])
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libggml.so").write_bytes(b"")  # the library itself is not a variant
    assert runtime.load_llama_cpu_backends() == 0
