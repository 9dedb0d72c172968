"""Start-up failures are shown, never silent: a library folder that cannot be opened gives a Korean message box
that says what to do, and the app exits cleanly when it is closed — through ``kdsdesk`` (``kdsdesk.app.main``) and
through the windowed bundle's entry script; an unexpected error at start-up is logged and shown."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from kdsdesk import app, paths
from kdsdesk.ui import main_window, startup

REPO = Path(__file__).resolve().parents[2]
GUI_ENTRY = REPO / "packaging" / "kdsdesk_gui.py"


@pytest.fixture
def user_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data folder (start-up log, remembered library folder) inside the test's folder; the exception hook
    put back afterwards."""
    folder = tmp_path / "user-data"
    monkeypatch.setattr(paths, "user_data_dir", lambda: folder)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    return folder


@pytest.fixture
def blocked_library(tmp_path: Path) -> Path:
    """A library path that cannot be a folder: a file is already there (no permission trick: tests may run as root)."""
    path = tmp_path / "라이브러리"
    path.write_text("not a folder", encoding="utf-8")
    return path


def answer_boxes(clicks: list[str], seen: list[dict[str, Any]]) -> None:
    """Click the buttons named in ``clicks``, one per modal message box as each appears; record what each said."""
    attempts = [0]

    def step() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            attempts[0] += 1
            if attempts[0] < 1000:
                QTimer.singleShot(20, step)
            return
        seen.append({"title": box.windowTitle(), "text": box.text(), "info": box.informativeText(),
                     "buttons": [b.text() for b in box.buttons()]})  # fmt: skip
        label = clicks.pop(0)
        button = next(b for b in box.buttons() if b.text() == label)
        if clicks:
            QTimer.singleShot(20, step)
        button.click()

    QTimer.singleShot(0, step)


def _assert_explained(seen: list[dict[str, Any]], library: Path) -> None:
    assert len(seen) == 1
    box = seen[0]
    assert "라이브러리를 열 수 없" in box["title"] + box["text"]
    assert str(library) in box["text"]
    assert "다른 라이브러리 폴더" in box["info"]
    assert "kdsdesk doctor --repair" in box["info"]
    assert {"다른 폴더 선택…", "로그 열기", "닫기"} <= set(box["buttons"])


def _no_window_left() -> None:
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, main_window.MainWindow) and w.isVisible()]


def test_unopenable_library_is_explained_and_the_app_exits(qapp, user_data: Path, blocked_library: Path) -> None:  # type: ignore[no-untyped-def]
    seen: list[dict[str, Any]] = []
    answer_boxes(["닫기"], seen)
    code = app.main(["--library", str(blocked_library)])
    assert code == startup.EXIT_STARTUP
    _assert_explained(seen, blocked_library)
    _no_window_left()
    assert sys.excepthook is not sys.__excepthook__  # the hook was installed before the library was opened
    log = (user_data / "logs" / "startup.log").read_text(encoding="utf-8")
    assert "start-up failed" in log
    assert str(blocked_library) in log


def test_windowed_entry_shows_the_same_message(qapp, user_data: Path, blocked_library: Path,  # type: ignore[no-untyped-def]
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    answer_boxes(["닫기"], seen)
    monkeypatch.setattr(sys, "argv", [str(GUI_ENTRY), "--library", str(blocked_library)])
    with pytest.raises(SystemExit) as stop:
        runpy.run_path(str(GUI_ENTRY), run_name="__main__")
    assert stop.value.code == startup.EXIT_STARTUP
    _assert_explained(seen, blocked_library)
    _no_window_left()


def test_another_folder_can_be_chosen_and_is_remembered(qapp, user_data: Path, blocked_library: Path,  # type: ignore[no-untyped-def]
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = tmp_path / "새 라이브러리"
    good.mkdir()
    monkeypatch.setattr(startup.QFileDialog, "getExistingDirectory", lambda *a, **k: str(good))
    opened: list[main_window.MainWindow] = []
    monkeypatch.setattr(main_window.MainWindow, "show", lambda self: opened.append(self))
    seen: list[dict[str, Any]] = []
    answer_boxes(["다른 폴더 선택…"], seen)
    window = main_window.open_window(str(blocked_library), startup.StartupLog())
    try:
        assert window is not None
        assert window.controller.library.root == good.resolve()
        assert len(seen) == 1
        from kdsdesk.ui import dialogs

        assert dialogs.preferred_library() == str(good.resolve())
    finally:
        if window is not None:
            assert window.controller.shutdown(30000)
            window.deleteLater()


def test_a_bug_at_start_up_is_logged_and_shown(qapp, user_data: Path) -> None:  # type: ignore[no-untyped-def]
    boot_log = startup.StartupLog()
    startup.install_excepthook(boot_log.path)
    seen: list[dict[str, Any]] = []
    answer_boxes(["OK"], seen)
    try:
        raise RuntimeError("boom at start-up")
    except RuntimeError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    boot_log.close()
    assert len(seen) == 1
    assert "시작하는 중에 오류" in seen[0]["text"]
    assert str(boot_log.path) in seen[0]["text"]
    assert "boom at start-up" in (user_data / "logs" / "startup.log").read_text(encoding="utf-8")
