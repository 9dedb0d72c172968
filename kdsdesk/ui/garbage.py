"""Python's cyclic garbage collector, run on the GUI thread only (qutebrowser's ``GarbageCollector`` approach).

Automatic collection runs in whichever thread happens to allocate: a worker thread (page rendering, indexing, the
LLM) can then finalise Qt objects created on the GUI thread and crash the process. While a ``GuiGarbageCollector``
is active, automatic collection is off and a GUI-thread timer collects with the interpreter's own thresholds.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class GuiGarbageCollector(QObject):
    """Disables automatic GC and collects from a timer on the thread that created it (the GUI thread)."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect_due)
        self._timer.start(interval_ms)

    def collect_due(self) -> int:
        """Collect the generations whose allocation counts passed their thresholds; returns objects freed."""
        l0, l1, l2 = self._thresholds
        c0, c1, c2 = gc.get_count()
        if c0 <= l0:
            return 0
        generation = 2 if c2 > l2 else (1 if c1 > l1 else 0)
        return gc.collect(generation)

    def stop(self) -> None:
        """Stop the timer, collect everything on this thread and give automatic collection back."""
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()
