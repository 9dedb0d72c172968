"""The window's start-up, before the main window exists: a log and an exception hook first, then a Korean message
box for a ``KnownError`` (a library folder that cannot be opened) that says what to do — choose another library
folder, repair the library, open the log — and a clean exit when the user closes it.

The windowed build has no console: without this, an error while opening the library ended the process silently.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from kdsdesk import paths
from kdsdesk.errors import KnownError
from kdsdesk.ui import dialogs

log = logging.getLogger(__name__)

EXIT_STARTUP = 2  # the window could not be opened (a KnownError the user was shown)
WHAT_TO_DO = (
    "할 수 있는 일:\n"
    "• [다른 폴더 선택…]으로 쓸 수 있는 다른 라이브러리 폴더를 고릅니다.\n"
    "• 폴더가 읽기 전용이면 읽기 전용 속성을 해제하거나 권한을 확인합니다.\n"
    "• 라이브러리가 손상되었다면 명령 프롬프트에서 'kdsdesk doctor --repair'로 복구합니다.\n"
    "• [로그 열기]로 자세한 기록을 확인합니다."
)


class StartupLog:
    """A log file for the start-up, before a library folder (which holds the usual log) is open: in the user data
    folder, or the temporary folder when that cannot be written. ``close`` detaches it once the library's log runs."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self._handler: logging.Handler | None = None
        for folder in (paths.user_data_dir() / "logs", Path(tempfile.gettempdir()) / "kdsdesk-logs"):
            try:
                self._handler = dialogs.add_log_file(folder / "startup.log", max_bytes=500_000, backups=1)
            except OSError:
                continue
            self.path = folder / "startup.log"
            return

    def close(self) -> None:
        if self._handler is not None:
            logging.getLogger().removeHandler(self._handler)
            self._handler.close()
            self._handler = None


def install_excepthook(log_file: Path | None) -> None:
    """Log any uncaught exception with its traceback and show the crash dialog at once (the window replaces this
    hook with its own once it exists)."""

    def show(exc: BaseException) -> None:
        dialogs.bug_box(None, exc, log_file, "프로그램을 시작하는 중에 오류가 발생했습니다.").exec()

    dialogs.install_excepthook(log_file, show, defer=False)


def explain_failure(exc: KnownError, log_file: Path | None, parent: QWidget | None = None) -> str | None:
    """The Korean message box for a library that cannot be opened. Returns the folder the user chose instead, or
    None when the user closed the box (the app then exits). [로그 열기] opens the log and asks again."""
    log.warning("start-up failed: %s", exc)
    while True:
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("KDS Desk — 라이브러리를 열 수 없습니다")
        box.setText(f"라이브러리를 열 수 없어 KDS Desk를 시작하지 못했습니다.\n\n{exc}")
        box.setInformativeText(WHAT_TO_DO)
        choose = box.addButton("다른 폴더 선택…", QMessageBox.ButtonRole.AcceptRole)
        open_log = box.addButton("로그 열기", QMessageBox.ButtonRole.HelpRole) if log_file else None
        close = box.addButton("닫기", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(choose)
        box.setEscapeButton(close)
        box.exec()
        clicked = box.clickedButton()
        if open_log is not None and clicked is open_log and log_file is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(log_file)))
            continue
        if clicked is choose:
            folder = QFileDialog.getExistingDirectory(parent, "라이브러리 폴더 선택")
            if folder:
                return folder
            continue
        return None
