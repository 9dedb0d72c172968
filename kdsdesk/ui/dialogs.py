"""Dialogs: settings (model files, threads, library folder), the unanswered-question log, About (versions and
licences of the bundled fonts and models), error dialogs, and the ``sys.excepthook`` that logs bugs to a file.

``KnownError`` (the user's environment) gets its Korean message; anything else is a bug: logged with its traceback
to ``logs/kdsdesk.log`` in the library folder and shown in a crash dialog that gives the log path.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import platform
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from kdsdesk import __version__, paths
from kdsdesk.config import Settings
from kdsdesk.errors import KnownError

log = logging.getLogger(__name__)
GUI_PREFS = "gui.json"  # in the user data folder: the chosen library folder (the library holds everything else)
PACKAGES = ("PySide6-Essentials", "PyMuPDF", "tantivy", "kiwipiepy", "onnxruntime", "llama-cpp-python", "tokenizers")
FONTS = (
    ("Droid Sans Fallback (PyMuPDF 내장 'korea' 글꼴)", "Apache License 2.0", "화면과 예시 PDF의 한글 표시"),
    ("나눔고딕 (시스템에 있을 때)", "SIL Open Font License 1.1", "화면 한글 표시"),
)


# -- preferences outside the library ---------------------------------------------------------------------------------
def preferred_library() -> str | None:
    try:
        raw = json.loads((paths.user_data_dir() / GUI_PREFS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = raw.get("library") if isinstance(raw, dict) else None
    return value if isinstance(value, str) and value else None


def save_preferred_library(folder: str) -> None:
    target = paths.user_data_dir() / GUI_PREFS
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"library": folder}, ensure_ascii=False), encoding="utf-8")


# -- errors ----------------------------------------------------------------------------------------------------------
def log_path(library_root: Path) -> Path:
    return library_root / "logs" / "kdsdesk.log"


def setup_logging(library_root: Path) -> Path:
    path = log_path(library_root)
    add_log_file(path)
    return path


def add_log_file(path: Path, max_bytes: int = 2_000_000, backups: int = 2) -> logging.Handler:
    """Log INFO and above to a rotating file (its folder created); ``OSError`` when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    return handler


def show_error(parent: QWidget | None, exc: BaseException, log_file: Path) -> None:
    """Korean message for a ``KnownError``; crash dialog with the log path for a bug (logged here)."""
    if isinstance(exc, KnownError):
        log.warning("known error: %s", exc)
        QMessageBox.warning(parent, "KDS Desk", str(exc))
        return
    log.error("bug: %s", "".join(traceback.format_exception(exc)))
    bug_box(parent, exc, log_file, "프로그램 오류가 발생했습니다. 작업 중이던 라이브러리는 안전합니다.").open()


def bug_box(parent: QWidget | None, exc: BaseException, log_file: Path | None, text: str) -> QMessageBox:
    """The crash dialog (not shown yet): what happened in Korean, where the log is, the traceback as details."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle("KDS Desk — 예기치 못한 오류")
    box.setText(text + (f"\n아래 로그 파일을 개발자에게 보내 주세요:\n{log_file}" if log_file else ""))
    box.setDetailedText("".join(traceback.format_exception(exc)))
    return box


def install_excepthook(log_file: Path | None, on_bug: Callable[[BaseException], None], defer: bool = True) -> None:
    """Log uncaught exceptions (with traceback) and show them in the GUI: after the current event (``defer``), or
    at once — at start-up, when no event loop runs yet to show it later."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        log.error("uncaught exception", exc_info=(kind, exc, tb))
        if QApplication.instance() is not None:
            if defer:
                QTimer.singleShot(0, lambda: on_bug(exc))
            else:
                on_bug(exc)

    sys.excepthook = hook


# -- settings ----------------------------------------------------------------------------------------------------------
class SettingsDialog(QDialog):
    """Model files, threads and library folder; returns new ``Settings`` and the library folder."""

    def __init__(self, settings: Settings, library_root: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("설정")
        self.llm = QLineEdit(settings.llm_path)
        self.llm.setPlaceholderText("비우면 models/ 폴더에서 찾음, none = 추출식 답변만")
        self.encoder = QLineEdit(settings.encoder_dir)
        self.encoder.setPlaceholderText("비우면 models/bge-m3")
        self.threads = QSpinBox()
        self.threads.setRange(0, 64)
        self.threads.setValue(settings.threads)
        self.threads.setSpecialValueText("자동")
        self.library = QLineEdit(str(library_root))
        form = QFormLayout(self)
        form.addRow("LLM 파일 (GGUF)", self._with_browse(self.llm, folder=False, filt="GGUF (*.gguf)"))
        form.addRow("의미 검색 모델 폴더", self._with_browse(self.encoder, folder=True))
        form.addRow("스레드 수", self.threads)
        form.addRow("라이브러리 폴더", self._with_browse(self.library, folder=True))
        form.addRow(QLabel("라이브러리 폴더를 바꾸면 다음 실행부터 적용됩니다."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._base = settings

    def _with_browse(self, edit: QLineEdit, folder: bool, filt: str = "") -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(edit, 1)
        button = QPushButton("찾아보기…")

        def browse() -> None:
            if folder:
                chosen = QFileDialog.getExistingDirectory(self, "폴더 선택", edit.text())
            else:
                chosen, _ = QFileDialog.getOpenFileName(self, "파일 선택", edit.text(), filt)
            if chosen:
                edit.setText(chosen)

        button.clicked.connect(browse)
        row.addWidget(button)
        return box

    def result_settings(self) -> Settings:
        return replace(self._base, llm_path=self.llm.text().strip(), encoder_dir=self.encoder.text().strip(),
                       threads=self.threads.value())

    def library_folder(self) -> str:
        return self.library.text().strip()


# -- unanswered questions --------------------------------------------------------------------------------------------
class UnansweredDialog(QDialog):
    """The questions the app could not answer with a confirmed value (most asked first)."""

    def __init__(self, rows: Sequence[tuple[str, int, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("답하지 못한 질문")
        self.resize(760, 420)
        table = QTableWidget(len(rows), 4)
        table.setHorizontalHeaderLabels(["질문", "횟수", "마지막", "상태"])
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, row in enumerate(rows):
            for k, value in enumerate(row):
                table.setItem(r, k, QTableWidgetItem(str(value)))
        self.table = table
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"{len(rows)}개 질문 — 기준 추가나 질문 표현을 바꿀 때 참고하세요."))
        lay.addWidget(table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)


# -- about -----------------------------------------------------------------------------------------------------------
def versions() -> list[tuple[str, str]]:
    out = [("KDS Desk", __version__), ("Python", platform.python_version())]
    for name in PACKAGES:
        try:
            out.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append((name, "없음"))
    return out


def about_html(model_files: Sequence[dict[str, Any]]) -> str:
    rows = "".join(f"<tr><td>{n}</td><td>{v}</td></tr>" for n, v in versions())
    fonts = "".join(f"<tr><td>{n}</td><td>{lic}</td><td>{use}</td></tr>" for n, lic, use in FONTS)
    models = "".join(
        f"<tr><td>{m.get('name', '')}</td><td>{m.get('licence', '') or '-'}</td><td>{m.get('status', '')}</td></tr>"
        for m in model_files
    ) or "<tr><td colspan='3'>모델 정보를 확인하는 중이거나 모델이 없습니다.</td></tr>"
    return (
        "<h2>KDS Desk</h2><p>국가건설기준(KDS) 설계기준 질의응답 — 오프라인, 검증된 근거와 함께.</p>"
        "<p>예시 기준(예시 14 20 22)은 사용법을 보여 주기 위한 가상 문서입니다.</p>"
        f"<h3>구성 요소</h3><table border='1' cellspacing='0' cellpadding='3'>{rows}</table>"
        "<h3>글꼴</h3><table border='1' cellspacing='0' cellpadding='3'><tr><th>글꼴</th><th>라이선스</th>"
        f"<th>용도</th></tr>{fonts}</table>"
        "<h3>모델</h3><table border='1' cellspacing='0' cellpadding='3'><tr><th>모델</th><th>라이선스</th>"
        f"<th>상태</th></tr>{models}</table>"
    )


class AboutDialog(QDialog):
    def __init__(self, model_files: Sequence[dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("KDS Desk 정보")
        self.resize(620, 560)
        view = QTextBrowser()
        view.setHtml(about_html(model_files))
        lay = QVBoxLayout(self)
        lay.addWidget(view)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
