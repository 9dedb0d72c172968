"""The window's controller: every ``Library`` call goes through here, on the right lane, never on the GUI thread.

Lanes (one thread each): ``index`` (add/remove — the Tantivy writer), ``encode`` (dense vectors in the background,
paused while indexing), ``llm`` (ask: retrieval + LLM; latest-wins, streamed tokens batched), ``render`` (PyMuPDF page
rendering and text search; latest-wins), ``read`` (catalog reads that may take a while: outlines, model checks).
Widgets only listen to the signals and call the methods; they never see a worker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from kdsdesk import paths
from kdsdesk.errors import Cancelled
from kdsdesk.records import Answer, DocInfo, Progress
from kdsdesk.service import Library
from kdsdesk.ui.render import PageRenderer, PageRequest
from kdsdesk.ui.workers import Lane, TokenBuffer, Worker

log = logging.getLogger(__name__)
DOC_REFRESH_S = 1.0


def sample_files() -> list[Path]:
    """The bundled 예시 standards (``resources/samples``)."""
    folder = paths.resource("samples")
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".pdf", ".hwpx"))


class Controller(QObject):
    """Owns the library and the lanes; turns results into signals for the widgets."""

    documents_changed = Signal(list)  # list[DocInfo]
    indexing_changed = Signal(bool)  # running
    index_progress = Signal(object)  # Progress
    index_finished = Signal(object)  # IndexReport | None (cancelled or failed)
    encode_progress = Signal(object)  # Progress | None (done)
    answer_started = Signal(str)
    answer_text = Signal(str)  # a batch of streamed LLM text
    answer_ready = Signal(object)  # Answer
    answer_failed = Signal(str)
    page_ready = Signal(object)  # RenderedPage
    find_ready = Signal(object)  # list[tuple[int, tuple[float, float, float, float]]]
    outline_ready = Signal(str, list)  # file, list of clause paths
    models_ready = Signal(object)  # kdsdesk.models.manifest.ModelReport
    outdated_ready = Signal(list)  # list[str]: searchable files indexed by another version of the app
    failure = Signal(object)  # BaseException for the error dialogs

    def __init__(self, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.library = library
        self.index_lane = Lane("index", parent=self)
        self.encode_lane = Lane("encode", parent=self)
        self.llm_lane = Lane("llm", latest_wins=True, parent=self)
        self.render_lane = Lane("render", latest_wins=True, parent=self)
        self.find_lane = self.render_lane  # PyMuPDF: the same single thread
        self.read_lane = Lane("read", parent=self)
        self.renderer = PageRenderer()  # used only on the render lane
        self.tokens = TokenBuffer(self)
        self.tokens.flushed.connect(self.answer_text)
        self._index_worker: Worker | None = None
        self._encode_worker: Worker | None = None
        self.documents: list[DocInfo] = []
        self.last_answer: Answer | None = None
        self.closing = False
        self._last_refresh = 0.0
        self._closed = False

    # -- documents ---------------------------------------------------------------------------------------------
    def refresh_documents(self) -> None:
        """Re-read the catalog (a quick SQLite read on the GUI thread; no parsing, no index work)."""
        try:
            self.documents = self.library.documents()
        except Exception as exc:  # noqa: BLE001 — shown in the error dialog
            self.failure.emit(exc)
            return
        self.documents_changed.emit(self.documents)

    def add_paths(self, sources: Sequence[Path | str]) -> bool:
        """Index files/folders on the index lane. False when an indexing run is already going."""
        if self._index_worker is not None or not sources:
            return False
        items = [Path(s) for s in sources]
        self._start_indexing(lambda: self.library.add(items))
        return True

    def add_samples_if_empty(self) -> bool:
        """First run: index the bundled 예시 standards when the library has no document."""
        if self.documents or self.library.documents():
            return False
        files = sample_files()
        return bool(files) and self.add_paths(files)

    def reindex(self, files: Sequence[str]) -> bool:
        """Index again: remove then add (on the index lane, as one job)."""
        if self._index_worker is not None or not files:
            return False
        items = [Path(f) for f in files]

        def job() -> Any:
            self.library.remove(items)
            return self.library.add(items)

        self._start_indexing(job)
        return True

    def _start_indexing(self, job: Callable[[], Any]) -> None:
        """Run ``job`` (it returns the indexing generator) on the index lane; background encoding waits."""
        self._pause_encoding()
        self.indexing_changed.emit(True)
        self._index_worker = self.index_lane.submit(
            job, self.index_finished.emit, on_progress=self._index_progress, on_error=self.failure.emit,
            on_done=self._index_done,
        )

    def remove(self, files: Sequence[str]) -> None:
        if not files:
            return
        items = [Path(f) for f in files]
        self.index_lane.submit(
            lambda: self.library.remove(items),
            lambda _n: self.refresh_documents(),
            on_error=self.failure.emit,
        )

    def cancel_indexing(self) -> None:
        if self._index_worker is not None:
            self._index_worker.cancel()

    def is_indexing(self) -> bool:
        return self._index_worker is not None

    def _index_progress(self, p: Progress) -> None:
        self.index_progress.emit(p)
        now = time.monotonic()
        if now - self._last_refresh >= DOC_REFRESH_S:  # statuses change as files finish (색인 중 → 검색 가능)
            self._last_refresh = now
            self.refresh_documents()

    def _index_done(self, cancelled: bool) -> None:
        self._index_worker = None
        if cancelled:
            self.index_finished.emit(None)
        self.indexing_changed.emit(False)
        self.refresh_documents()
        if not self.closing:
            self.check_outdated()
            self.start_encoding()

    # -- dense vectors in the background --------------------------------------------------------------------------
    def start_encoding(self) -> None:
        if self._encode_worker is not None or self._index_worker is not None or self.closing:
            return
        self._encode_worker = self.encode_lane.submit(
            self.library.encode_pending,
            lambda _n: None,
            on_progress=self.encode_progress.emit,
            on_error=self._encode_error,
            on_done=self._encode_done,
        )

    def _encode_error(self, exc: BaseException) -> None:
        log.warning("background encoding stopped: %s", exc)

    def _pause_encoding(self) -> None:
        if self._encode_worker is not None:
            self._encode_worker.cancel()  # checkpointed: resumes after indexing

    def _encode_done(self, cancelled: bool) -> None:
        self._encode_worker = None
        self.encode_progress.emit(None)
        if not cancelled:
            self.refresh_documents()

    # -- questions -----------------------------------------------------------------------------------------------
    def ask(self, question: str, doc_codes: Sequence[str] | None = None, llm: str | None = None) -> None:
        """Answer on the LLM lane (latest wins: a new question supersedes the one being answered)."""
        question = question.strip()
        if not question:
            return
        codes = list(doc_codes) if doc_codes else None
        self.tokens.start()
        self.answer_started.emit(question)
        holder: dict[str, Worker] = {}

        def on_token(token: str) -> None:
            worker = holder.get("w")
            if worker is not None:
                worker.check()  # raises Cancelled: stops the LLM when the question was superseded
            self.tokens.push(token)

        def job() -> Answer:
            return self.library.ask(question, llm=llm, on_token=on_token, doc_codes=codes)

        holder["w"] = self.llm_lane.submit(job, self._answer_result, on_error=self._answer_error)

    def _answer_result(self, answer: Answer) -> None:
        self.tokens.stop()
        self.last_answer = answer
        self.answer_ready.emit(answer)

    def _answer_error(self, exc: BaseException) -> None:
        self.tokens.stop()
        if isinstance(exc, Cancelled):
            return
        self.answer_failed.emit(str(exc))
        self.failure.emit(exc)

    # -- pages -----------------------------------------------------------------------------------------------------
    def render(self, request: PageRequest) -> None:
        """Render a PDF page off the GUI thread (latest request wins)."""
        self.render_lane.submit(
            lambda: self.renderer.render(request), self.page_ready.emit, on_error=self.failure.emit
        )

    def find(self, file: str, term: str) -> None:
        """Find ``term`` in a PDF (all pages) on the render lane."""
        self.find_lane.submit(lambda: self.renderer.find(file, term), self.find_ready.emit, on_error=self.failure.emit)

    def locate_quote(self, file: str, quote: str, on_found: Callable[[int], None]) -> None:
        """Page (0-based) of ``quote`` in a PDF, for opening an HWPX citation's twin PDF."""
        self.render_lane.submit(lambda: self.renderer.locate(file, quote), on_found, on_error=self.failure.emit)

    # -- reads ---------------------------------------------------------------------------------------------------
    def load_outline(self, file: str) -> None:
        def job() -> list[tuple[tuple[str, ...], int]]:
            return self.library.outline(file)

        self.read_lane.submit(job, lambda paths_: self.outline_ready.emit(file, paths_), on_error=self._read_error)

    def check_models(self) -> None:
        def job() -> Any:
            from kdsdesk.models.check import check_models

            return check_models(cache_path=self.library.root / "model-hashes.json")

        self.read_lane.submit(job, self.models_ready.emit, on_error=self._read_error)

    def check_outdated(self) -> None:
        """Which files an older version of the app indexed (``outdated_ready``), on the read lane: the check asks
        the parsers for their versions (the PDF one asks the OCR engine)."""
        self.read_lane.submit(self.library.outdated_files, self.outdated_ready.emit, on_error=self._read_error)

    def _read_error(self, exc: BaseException) -> None:
        log.warning("background read failed: %s", exc)

    # -- shutdown --------------------------------------------------------------------------------------------------
    def shutdown(self, wait_ms: int = 10000) -> bool:
        """Cancel everything, wait for the lanes, close the library; True when all stopped in time. Idempotent."""
        if self._closed:
            return True
        self.closing = True
        lanes = (self.index_lane, self.encode_lane, self.llm_lane, self.render_lane, self.read_lane)
        for lane in lanes:
            lane.cancel_all()
        ok = all(lane.wait(wait_ms) for lane in lanes)
        self.tokens.stop()
        if ok:
            self.render_lane.submit(self.renderer.close)
            self.render_lane.wait(wait_ms)
            self._closed = True
            try:
                self.library.close()
            except Exception:
                log.exception("closing the library failed")
        return ok

