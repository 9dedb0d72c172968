"""Shared test fixtures: an isolated library folder per test, the shared corpus, gui auto-marking."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KDSDESK_SHARED", REPO.parent / "shared")).resolve()
CORPUS = SHARED / "corpus"
SAMPLES = CORPUS / "samples"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "kdsdesk-home"
    monkeypatch.setenv("KDSDESK_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session")
def samples(corpus: Path) -> Path:
    return corpus / "samples"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "qtbot" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.gui)
