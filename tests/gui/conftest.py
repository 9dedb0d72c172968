"""GUI fixtures: a real window over a fresh library in ``tmp_path`` (offscreen), shut down after each test."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "resources" / "samples"


@pytest.fixture(autouse=True)
def _gc_on_gui_thread(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """As in the app: no automatic GC while a GUI test runs (a worker thread must never finalise Qt objects);
    everything is collected on the GUI thread afterwards."""
    from kdsdesk.ui.garbage import GuiGarbageCollector

    collector = GuiGarbageCollector()
    yield
    collector.stop()
    collector.deleteLater()


@pytest.fixture
def sample_pdf() -> Path:
    return next(SAMPLES.glob("*.pdf"))


@pytest.fixture
def sample_hwpx() -> Path:
    return next(SAMPLES.glob("*.hwpx"))


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from kdsdesk.service import Library
    from kdsdesk.ui.controller import Controller
    from kdsdesk.ui.main_window import MainWindow

    lib = Library(tmp_path / "library")
    controller = Controller(lib)
    win = MainWindow(controller, tmp_path / "library" / "logs" / "kdsdesk.log")
    qtbot.addWidget(win)
    win.show()
    yield win
    assert controller.shutdown(30000)


def copy_samples(dest: Path, kinds: tuple[str, ...] = (".pdf", ".hwpx")) -> list[Path]:
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for p in sorted(SAMPLES.iterdir()):
        if p.suffix in kinds:
            out.append(Path(shutil.copy2(p, dest / p.name)))
    return out
