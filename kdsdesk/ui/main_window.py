"""The main window: library panel, question box, answer card with citations, source viewer, status bar; and
``run_gui`` (the ``kdsdesk`` entry without a subcommand), including the scriptable ``--screenshot`` run.

The window is a thin layer over ``kdsdesk.service.Library`` through ``Controller``; nothing slow runs on the GUI
thread. Korean renders without system packages: a Nanum font when installed, else PyMuPDF's bundled Korean font.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QProgressDialog,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from kdsdesk import config
from kdsdesk.errors import KnownError
from kdsdesk.records import Answer, Citation, DocInfo, IndexReport, Progress
from kdsdesk.service import Library
from kdsdesk.ui import dialogs, startup
from kdsdesk.ui.answer_view import AnswerView
from kdsdesk.ui.controller import Controller
from kdsdesk.ui.garbage import GuiGarbageCollector
from kdsdesk.ui.library_panel import LibraryPanel
from kdsdesk.ui.page_viewer import PageViewer
from kdsdesk.ui.passage_list import passage_citation
from kdsdesk.ui.render import PageRequest

log = logging.getLogger(__name__)


def load_korean_font(app: QApplication) -> str:
    """Make Hangul render: a system Nanum font if present, else PyMuPDF's bundled Korean font. Returns the family."""
    families = QFontDatabase.families()
    family = next((f for f in families if f.replace(" ", "").lower().startswith("nanumgothic")), "")
    if not family:
        import pymupdf

        mu: Any = pymupdf
        fid = QFontDatabase.addApplicationFontFromData(mu.Font("korea").buffer)
        loaded = QFontDatabase.applicationFontFamilies(fid) if fid >= 0 else []
        family = loaded[0] if loaded else ""
    if family:
        font = QFont(app.font())
        latin = next((f for f in ("Segoe UI", "DejaVu Sans", "Noto Sans", "Liberation Sans") if f in families), "")
        font.setFamilies([f for f in (latin, family) if f])
        font.setPointSizeF(max(font.pointSizeF(), 10.0))
        app.setFont(font)
    return family


class QuestionBox(QLineEdit):
    """Enter asks; ↑/↓ walk the history of questions."""

    asked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history: list[str] = []
        self._pos = 0
        self.setPlaceholderText("질문을 입력하고 Enter (예: 보행자용 난간의 수평 등분포하중은?)")
        self.returnPressed.connect(self._ask)

    def _ask(self) -> None:
        q = self.text().strip()
        if not q:
            return
        if not self.history or self.history[-1] != q:
            self.history.append(q)
        self._pos = len(self.history)
        self.asked.emit(q)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and self.history:
            step = -1 if event.key() == Qt.Key.Key_Up else 1
            self._pos = min(max(self._pos + step, 0), len(self.history))
            self.setText(self.history[self._pos] if self._pos < len(self.history) else "")
            return
        super().keyPressEvent(event)


def library_summary(docs: Sequence[DocInfo], dense_available: bool) -> str:
    """The status bar's line: standards and files, how many are searchable, still indexing, still encoding for
    meaning search, failed."""
    codes = len({d.doc_code for d in docs if d.doc_code})
    searchable = sum(d.status == "searchable" for d in docs)
    indexing = sum(d.status == "indexing" for d in docs)
    failed = sum(d.status == "failed" for d in docs)
    encoding = sum(
        d.status == "searchable" and dense_available and d.n_chunks > 0 and d.n_vectors < d.n_chunks for d in docs
    )
    parts = [f"라이브러리: 기준 {codes}종 · 파일 {len(docs)}개", f"검색 가능 {searchable}"]
    parts += [f"색인 중 {indexing}"] if indexing else []
    parts += [f"의미 검색 준비 중 {encoding}"] if encoding else []
    parts += [f"실패 {failed}"] if failed else []
    return " · ".join(parts)


class MainWindow(QMainWindow):
    def __init__(self, controller: Controller, log_file: Path) -> None:
        super().__init__()
        self.controller = controller
        self.log_file = log_file
        self._pending: list[str] = []
        self.setWindowTitle("KDS Desk — 설계기준 질의응답")
        self.setAcceptDrops(True)
        self.resize(1440, 880)

        self.library_panel = LibraryPanel()
        self.question = QuestionBox()
        self.only_selected = QCheckBox("선택한 기준에서만")
        self.ask_button = QPushButton("질문")
        self.ask_button.clicked.connect(self.question.returnPressed)
        self.answer_view = AnswerView()
        self.viewer = PageViewer()

        qrow = QHBoxLayout()
        qrow.addWidget(self.question, 1)
        qrow.addWidget(self.only_selected)
        qrow.addWidget(self.ask_button)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addLayout(qrow)
        inner = QSplitter(Qt.Orientation.Horizontal)
        inner.addWidget(self.answer_view)
        inner.addWidget(self.viewer)
        inner.setSizes([470, 560])
        rv.addWidget(inner, 1)
        outer = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(self.library_panel)
        outer.addWidget(right)
        outer.setSizes([470, 970])
        self.setCentralWidget(outer)

        self.docs_label = QLabel()
        self.models_label = QLabel("모델 확인 중…")
        self.encode_label = QLabel()
        self.encode_bar = QProgressBar()
        self.encode_bar.setMaximumWidth(160)
        self.encode_bar.hide()
        self.outdated: list[str] = []
        self.outdated_label = QLabel()
        self.outdated_button = QPushButton("다시 색인")
        self.outdated_button.setFlat(True)
        self.outdated_button.setToolTip("이전 버전으로 색인된 파일을 지금 다시 색인합니다.")
        self.outdated_label.hide()
        self.outdated_button.hide()
        bar = self.statusBar()
        bar.addPermanentWidget(self.outdated_label)
        bar.addPermanentWidget(self.outdated_button)
        bar.addPermanentWidget(self.encode_label)
        bar.addPermanentWidget(self.encode_bar)
        bar.addPermanentWidget(self.docs_label)
        bar.addPermanentWidget(self.models_label)
        self._menus()
        self._wire()

    # -- wiring --------------------------------------------------------------------------------------------------------
    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu("파일")
        self._action(file_menu, "기준 추가…", self.open_files, QKeySequence.StandardKey.Open)
        self._action(file_menu, "설정…", self.open_settings)
        self._action(file_menu, "종료", self.close, QKeySequence.StandardKey.Quit)
        self._action(self.menuBar().addMenu("보기"), "답하지 못한 질문…", self.open_unanswered)
        self._action(self.menuBar().addMenu("도움말"), "KDS Desk 정보…", self.open_about)
        self._model_files: list[dict[str, object]] = []

    def _action(
        self, menu: QMenu, text: str, slot: Callable[[], object], key: QKeySequence.StandardKey | None = None
    ) -> QAction:
        action = QAction(text, self)
        if key is not None:
            action.setShortcut(QKeySequence(key))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _wire(self) -> None:
        c, panel = self.controller, self.library_panel
        c.documents_changed.connect(self.on_documents)
        c.indexing_changed.connect(self.on_indexing)
        c.index_progress.connect(panel.show_progress)
        c.index_finished.connect(self.on_index_finished)
        c.encode_progress.connect(self.on_encode_progress)
        c.answer_started.connect(self.answer_view.start)
        c.answer_text.connect(self.answer_view.append_stream)
        c.answer_ready.connect(self.on_answer)
        c.answer_failed.connect(self.answer_view.fail)
        c.page_ready.connect(self.viewer.show_page)
        c.find_ready.connect(self.viewer.show_found)
        c.outline_ready.connect(panel.set_outline)
        c.models_ready.connect(self.on_models)
        c.outdated_ready.connect(self.on_outdated)
        self.outdated_button.clicked.connect(self.reindex_outdated)
        c.failure.connect(self.show_failure)
        panel.add_clicked.connect(self.open_files)
        panel.remove_requested.connect(c.remove)
        panel.reindex_requested.connect(c.reindex)
        panel.cancel_requested.connect(c.cancel_indexing)
        panel.outline_requested.connect(c.load_outline)
        panel.clause_activated.connect(self.open_clause)
        panel.selection_changed.connect(self.on_scope)
        self.question.asked.connect(self.ask)
        self.answer_view.citation_activated.connect(self.open_citation)
        self.answer_view.reindex_requested.connect(c.reindex)
        self.viewer.page_requested.connect(c.render)
        self.viewer.find_requested.connect(c.find)
        self.viewer.twin_requested.connect(self.open_twin)

    # -- library -------------------------------------------------------------------------------------------------------
    def add_paths(self, paths: Sequence[str]) -> None:
        if not paths:
            return
        if not self.controller.add_paths(list(paths)):
            self._pending.extend(paths)  # indexing now: added when it ends
            self.statusBar().showMessage(f"색인이 끝나면 {len(self._pending)}개 항목을 추가합니다.", 5000)

    def open_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "기준 파일 추가", "", "설계기준 (*.pdf *.hwpx);;모든 파일 (*)")
        self.add_paths(files)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QEvent) -> None:
        event.accept()

    def dropEvent(self, event: QDropEvent) -> None:
        files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.add_paths(files)

    def on_documents(self, docs: list[DocInfo]) -> None:
        self.library_panel.set_documents(docs)
        self.docs_label.setText(library_summary(docs, self.library_panel.dense_available))
        editions: dict[str, set[str]] = {}
        for d in docs:
            if d.doc_code and d.status == "searchable":
                editions.setdefault(d.doc_code, set()).add(d.year)
        self.answer_view.editions = {c: tuple(sorted(ys)) for c, ys in editions.items()}

    def on_outdated(self, files: list[str]) -> None:
        """The status bar says how many files an older version of the app indexed (their text may be missing from
        what is found) and offers to index them again."""
        self.outdated = list(files)
        self.outdated_label.setVisible(bool(files))
        self.outdated_button.setVisible(bool(files))
        if not files:
            self.outdated_label.clear()
            return
        self.outdated_label.setText(f"이전 버전으로 색인된 파일 {len(files)}개 — 검색·답변에서 빠질 수 있음")
        names = "\n".join(Path(f).name for f in files[:20]) + (f"\n… 외 {len(files) - 20}개" if len(files) > 20 else "")
        self.outdated_label.setToolTip(f"앱이 업데이트된 뒤 다시 색인하지 않은 파일입니다. 다시 색인하세요.\n{names}")

    def reindex_outdated(self) -> None:
        if self.outdated and self.controller.reindex(self.outdated):
            self.on_outdated([])

    def on_scope(self, codes: list[str]) -> None:
        """The scope box names how many standards a question would be limited to."""
        self.only_selected.setText(f"선택한 기준에서만 ({len(codes)}종)" if codes else "선택한 기준에서만")
        more = f"\n… 외 {len(codes) - 30}종" if len(codes) > 30 else ""
        self.only_selected.setToolTip("\n".join(codes[:30]) + more)

    def on_indexing(self, running: bool) -> None:
        self.library_panel.set_indexing(running)
        if not running and self._pending:
            pending, self._pending = self._pending, []
            QTimer.singleShot(0, lambda: self.add_paths(pending))

    def on_index_finished(self, report: IndexReport | None) -> None:
        if report is None:
            self.statusBar().showMessage("색인을 취소했습니다. 끝난 파일은 그대로 검색할 수 있습니다.", 8000)
            return
        msg = f"색인 완료: 추가 {len(report.added)}, 교체 {len(report.replaced)}, 그대로 {len(report.skipped)}"
        if report.duplicates:
            msg += f", 같은 내용 {len(report.duplicates)}"
        if report.failed:
            msg += f", 실패 {len(report.failed)} — 목록에서 이유를 확인하세요"
        self.statusBar().showMessage(msg, 10000)

    def on_encode_progress(self, p: Progress | None) -> None:
        if p is None or not p.total:
            self.encode_bar.hide()
            self.encode_label.setText("")
            return
        self.encode_bar.show()
        self.encode_bar.setRange(0, p.total)
        self.encode_bar.setValue(min(p.done, p.total))
        self.encode_label.setText(f"의미 검색 준비 {p.done}/{p.total}")

    def on_models(self, report: object) -> None:
        encoder_ok = bool(getattr(report, "encoder_ok", False))
        llm_path = getattr(report, "llm_path", None)
        llm_ok = bool(getattr(report, "llm_ok", False))
        parts = (["BGE-M3"] if encoder_ok else []) + ([f"LLM ({Path(str(llm_path)).name})"] if llm_ok else [])
        self.models_label.setText("모델: " + (" · ".join(parts) if parts else "없음 (단어 검색 · 추출식 답변)"))
        self.models_label.setToolTip("\n".join(getattr(report, "lines", lambda: [])()))
        as_json = getattr(report, "as_json", None)
        self._model_files = list(as_json().get("files", [])) if callable(as_json) else []
        self.library_panel.dense_available = encoder_ok
        self.library_panel.set_documents(self.controller.documents)

    # -- questions and sources ---------------------------------------------------------------------------------------
    def ask(self, question: str) -> None:
        codes = self.library_panel.selected_codes() if self.only_selected.isChecked() else None
        self.controller.ask(question, doc_codes=codes)

    def on_answer(self, answer: Answer) -> None:
        self.answer_view.show_answer(answer)
        if answer.answerer and answer.answerer != "extractive":
            self.models_label.setText(f"{self.models_label.text().split(' | ')[0]} | 답변: {answer.answerer}")

    def open_citation(self, citation: Citation) -> None:
        self.viewer.show_citation(citation, self.controller.documents)
        self.library_panel.select_file(citation.chunk.doc.file)

    def open_clause(self, file: str, page: int) -> None:
        if page >= 0 and file.lower().endswith(".pdf"):
            self.viewer.title.setText(Path(file).name)
            self.viewer.open_page(PageRequest(file, page, self.viewer.zoom))

    def open_twin(self, pdf: str, quote: str) -> None:
        def found(page: int) -> None:
            note = "HWPX 인용을 같은 기준의 PDF에서 찾은 쪽입니다 (검증된 위치가 아니어서 강조하지 않음)."
            self.viewer.open_page(PageRequest(pdf, page, self.viewer.zoom, (), note, Path(pdf).name))

        self.controller.locate_quote(pdf, quote, found)

    # -- dialogs -------------------------------------------------------------------------------------------------------
    def show_failure(self, exc: BaseException) -> None:
        dialogs.show_error(self, exc, self.log_file)

    def open_settings(self) -> None:
        lib = self.controller.library
        dlg = dialogs.SettingsDialog(lib.settings, lib.root, self)
        if dlg.exec():
            lib.settings = dlg.result_settings()
            config.save(lib.settings, lib.root / "settings.json")
            if dlg.library_folder() and Path(dlg.library_folder()) != lib.root:
                dialogs.save_preferred_library(dlg.library_folder())
            self.controller.check_models()

    def open_unanswered(self) -> None:
        rows = self.controller.library.catalog.unanswered()
        dialogs.UnansweredDialog(rows, self).exec()

    def open_about(self) -> None:
        dialogs.AboutDialog(self._model_files, self).exec()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.controller.shutdown()
        event.accept()


class ScreenshotRun(QObject):
    """``--screenshot``: index the samples if the library is empty, ask, open the first citation (or passage), save,
    quit."""

    def __init__(self, window: MainWindow, out: str, question: str | None, timeout_s: float = 600.0) -> None:
        super().__init__(window)
        self.window, self.out, self.question = window, out, question
        self.code = 1
        c = window.controller
        c.indexing_changed.connect(self._indexing)
        c.answer_ready.connect(self._answered)
        c.answer_failed.connect(lambda _m: self._finish(1))
        c.page_ready.connect(lambda _p: QTimer.singleShot(300, lambda: self._finish(0)))
        QTimer.singleShot(int(timeout_s * 1000), lambda: self._finish(1))

    def start(self) -> None:
        if not self.window.controller.add_samples_if_empty():
            self._next()

    def _indexing(self, running: bool) -> None:
        if not running:
            QTimer.singleShot(200, self._next)

    def _next(self) -> None:
        if self.question:
            self.window.question.setText(self.question)
            self.window.question.returnPressed.emit()
        else:
            QTimer.singleShot(300, lambda: self._finish(0))

    def _answered(self, answer: Answer) -> None:
        """Open what a user would click first: the first citation, or — when nothing is confirmed or warned —
        the first of the best passages."""
        view = self.window.answer_view
        if answer.status in ("restricted", "unverified") and answer.passages:
            view.passages.setCurrentRow(0)
            citation = passage_citation(answer.passages[0])
        elif answer.citations:
            view.citations.setCurrentRow(0)
            citation = answer.citations[0]
        else:
            QTimer.singleShot(300, lambda: self._finish(0))
            return
        self.window.open_citation(citation)
        if citation.chunk.doc.kind != "pdf":
            QTimer.singleShot(300, lambda: self._finish(0))

    def _finish(self, code: int) -> None:
        if self.out:
            Path(self.out).parent.mkdir(parents=True, exist_ok=True)
            self.window.grab().save(self.out)
            self.out = ""
            self.code = code
            QApplication.exit(code)


def open_library(root: Path | str | None, parent: QWidget | None = None) -> Library | None:
    """The library at ``root``; a damaged one is explained and, if the user agrees, repaired with progress
    (damaged parts kept in ``backup/``). ``None`` when the user declined the repair; ``KnownError`` when the
    library cannot be opened or repaired (``open_window`` explains it)."""
    from kdsdesk.service import library_damage, repair_library

    damage = [d for d in library_damage(root) if d.kind != "interrupted"]  # the next writer clears those
    if not damage:
        return Library(root)
    text = "\n".join(d.message for d in damage)
    text += "\n\n지금 복구할까요? 손상된 파일은 라이브러리의 backup 폴더에 보관됩니다."
    answer = QMessageBox.question(parent, "라이브러리 손상", text)
    if answer != QMessageBox.StandardButton.Yes:
        return None
    progress = QProgressDialog("라이브러리를 복구하는 중…", "", 0, 0, parent)
    progress.setCancelButton(None)
    progress.setMinimumDuration(0)
    progress.show()
    try:
        gen = repair_library(root)
        while True:
            try:
                p = next(gen)
            except StopIteration:
                break
            progress.setMaximum(p.total)
            progress.setValue(p.done)
            progress.setLabelText(f"라이브러리를 복구하는 중… {p.detail}")
            QApplication.processEvents()
        return Library(root)
    finally:
        progress.close()


def open_window(root: str | None, boot_log: startup.StartupLog) -> MainWindow | None:
    """The main window over the library at ``root``. A ``KnownError`` while opening the library or building the
    window is explained in a Korean message box (choose another folder, repair, open the log); ``None`` when the
    user closes it or declines the repair of a damaged library. A folder chosen there is remembered for the next
    start."""
    chosen = False
    while True:
        lib: Library | None = None
        controller: Controller | None = None
        try:
            lib = open_library(root)
            if lib is None:
                return None
            try:
                log_file = dialogs.setup_logging(lib.root)
                boot_log.close()
            except OSError as exc:  # the library folder is read-only: keep the start-up log
                log.warning("no log file in %s: %s", lib.root, exc)
                log_file = boot_log.path or dialogs.log_path(lib.root)
            controller = Controller(lib)
            window = MainWindow(controller, log_file)
        except KnownError as exc:
            if controller is not None:
                controller.shutdown()
            elif lib is not None:
                lib.close()
            root = startup.explain_failure(exc, boot_log.path)
            if root is None:
                return None
            chosen = True
            continue
        if chosen:
            dialogs.save_preferred_library(str(lib.root))
        return window


def run_gui(library: str | None = None, screenshot: str | None = None, ask: str | None = None) -> int:
    app = QApplication.instance() or QApplication(["kdsdesk"])
    assert isinstance(app, QApplication)
    app.setApplicationName("KDS Desk")
    boot_log = startup.StartupLog()
    startup.install_excepthook(boot_log.path)  # first: a failure from here on is logged and shown
    load_korean_font(app)
    collector = GuiGarbageCollector(app)  # Qt objects must never be finalised on a worker thread
    window = open_window(library or dialogs.preferred_library(), boot_log)
    if window is None:
        collector.stop()
        boot_log.close()
        return startup.EXIT_STARTUP
    controller = window.controller
    lib = controller.library
    dialogs.install_excepthook(window.log_file, window.show_failure)
    window.show()
    # Kiwi blocks every Python thread while it loads: do it once now, with a message, not during a search.
    window.statusBar().showMessage("한국어 형태소 분석기를 준비하는 중…")
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    app.processEvents()
    try:
        lib.warm_up()
    finally:
        QApplication.restoreOverrideCursor()
        window.statusBar().clearMessage()
    controller.refresh_documents()
    controller.check_models()
    controller.check_outdated()
    run: ScreenshotRun | None = None
    if screenshot:
        run = ScreenshotRun(window, screenshot, ask)
        QTimer.singleShot(0, run.start)
    else:
        QTimer.singleShot(0, controller.add_samples_if_empty)
    code = int(app.exec())
    controller.shutdown()
    collector.stop()
    return run.code if run is not None else code
