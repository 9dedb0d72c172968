"""Background work for the window: a ``QRunnable`` worker, single-thread lanes, and a batched token buffer.

- ``Worker`` runs one job off the GUI thread. A job returns a value, or a ``Progress`` generator whose return value
  is the result; the worker drives it, emits progress at most ~10 times a second, and on ``cancel()`` closes the
  generator between two yields (the core's ``try/finally`` then commits or rolls back).
- ``Lane`` is a ``QThreadPool`` with one thread, for an engine that is not thread-safe (the index writer, the
  LLM, PyMuPDF). It keeps a reference to every queued/running worker, and a *latest-wins* lane drops what a newer
  request supersedes (queued jobs are taken back; running ones are cancelled and their results ignored). Results
  reach the callbacks on the GUI thread.
- ``TokenBuffer`` collects streamed LLM tokens from the worker thread; a 40 ms timer hands them to the GUI in batches.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from kdsdesk.errors import Cancelled
from kdsdesk.records import Progress

PROGRESS_INTERVAL_S = 0.1
TOKEN_INTERVAL_MS = 40


class WorkerSignals(QObject):
    """Signals of one worker; each carries the worker first so a lane can tell stale results apart."""

    progress = Signal(object, object)  # worker, Progress
    result = Signal(object, object)  # worker, value
    error = Signal(object, object)  # worker, BaseException
    cancelled = Signal(object)
    finished = Signal(object)


class Worker(QRunnable):
    """Run ``job()`` in a pool thread; drive it if it returns a generator of ``Progress``."""

    def __init__(self, job: Callable[[], Any], name: str = "") -> None:
        super().__init__()
        self.setAutoDelete(False)  # the lane keeps the Python reference until ``finished``
        self.signals = WorkerSignals()
        self.name = name
        self._job = job
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        """Raise ``Cancelled`` if cancel was asked (for jobs that poll, e.g. an LLM token callback)."""
        if self._cancel.is_set():
            raise Cancelled()

    def run(self) -> None:
        try:
            self.check()
            out = self._job()
            if isinstance(out, Generator):
                out = self._drive(out)
            self.check()
        except Cancelled:
            self.signals.cancelled.emit(self)
        except Exception as exc:  # noqa: BLE001 — handed to the GUI thread, which shows or logs it
            self.signals.error.emit(self, exc)
        else:
            self.signals.result.emit(self, out)
        finally:
            self.signals.finished.emit(self)

    def _drive(self, gen: Generator[Progress, None, Any]) -> Any:
        last = 0.0
        try:
            while True:
                self.check()
                p = next(gen)
                now = time.monotonic()
                if now - last >= PROGRESS_INTERVAL_S or (p.total and p.done >= p.total):
                    last = now
                    self.signals.progress.emit(self, p)
        except StopIteration as stop:
            return stop.value
        finally:
            gen.close()


@dataclass
class _Callbacks:
    on_result: Callable[[Any], None] | None
    on_progress: Callable[[Progress], None] | None
    on_error: Callable[[BaseException], None] | None
    on_done: Callable[[bool], None] | None  # argument: True when the job was cancelled or superseded


class Lane(QObject):
    """One worker thread for one engine; optionally latest-wins."""

    def __init__(self, name: str, latest_wins: bool = False, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.latest_wins = latest_wins
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._jobs: dict[Worker, _Callbacks] = {}
        self._stale: set[Worker] = set()

    def submit(
        self,
        job: Callable[[], Any],
        on_result: Callable[[Any], None] | None = None,
        *,
        on_progress: Callable[[Progress], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_done: Callable[[bool], None] | None = None,
    ) -> Worker:
        if self.latest_wins:
            self.cancel_all()
        worker = Worker(job, self.name)
        self._jobs[worker] = _Callbacks(on_result, on_progress, on_error, on_done)
        worker.signals.progress.connect(self._progress)
        worker.signals.result.connect(self._result)
        worker.signals.error.connect(self._error)
        worker.signals.finished.connect(self._finished)
        self.pool.start(worker)
        return worker

    def busy(self) -> bool:
        return any(w not in self._stale for w in self._jobs)

    def cancel_all(self) -> None:
        """Cancel every job: queued ones are taken back at once, running ones stop at their next check."""
        for w in list(self._jobs):
            self._stale.add(w)
            w.cancel()
            if self.pool.tryTake(w):
                cb = self._jobs.pop(w)
                self._stale.discard(w)
                if cb.on_done:
                    cb.on_done(True)

    def wait(self, msecs: int = -1) -> bool:
        return bool(self.pool.waitForDone(msecs))

    def _live(self, worker: Worker) -> _Callbacks | None:
        if worker in self._stale or worker.is_cancelled:
            return None
        return self._jobs.get(worker)

    @Slot(object, object)
    def _progress(self, worker: Worker, p: Progress) -> None:
        cb = self._live(worker)
        if cb and cb.on_progress:
            cb.on_progress(p)

    @Slot(object, object)
    def _result(self, worker: Worker, value: Any) -> None:
        cb = self._live(worker)
        if cb and cb.on_result:
            cb.on_result(value)

    @Slot(object, object)
    def _error(self, worker: Worker, exc: BaseException) -> None:
        cb = self._live(worker)
        if cb and cb.on_error:
            cb.on_error(exc)

    @Slot(object)
    def _finished(self, worker: Worker) -> None:
        cancelled = worker in self._stale or worker.is_cancelled
        self._stale.discard(worker)
        cb = self._jobs.pop(worker, None)
        if cb and cb.on_done:
            cb.on_done(cancelled)


class TokenBuffer(QObject):
    """Thread-safe buffer of streamed text; emits ``flushed(text)`` on the GUI thread every ~40 ms while filling."""

    flushed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._parts: list[str] = []
        self._timer = QTimer(self)
        self._timer.setInterval(TOKEN_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    def start(self) -> None:
        with self._lock:
            self._parts.clear()
        self._timer.start()

    def push(self, token: str) -> None:
        """Called from the worker thread for each token."""
        with self._lock:
            self._parts.append(token)

    @Slot()
    def flush(self) -> None:
        with self._lock:
            text, self._parts = "".join(self._parts), []
        if text:
            self.flushed.emit(text)

    def stop(self) -> None:
        self._timer.stop()
        self.flush()
