"""The Qt binding itself: emitting a signal must not drop references it does not own. PySide6 6.12.0 took one
reference to ``True`` per emit, so a long session (or a test loop) died at exit with "bool_dealloc"; the
dependency is pinned below it and this test keeps it so."""

from __future__ import annotations

import sys


def test_signal_emission_keeps_the_refcount_of_true(qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        changed = Signal(list)

    emitter = Emitter()
    got: list[int] = []
    emitter.changed.connect(lambda items: got.append(len(items)))
    before = sys.getrefcount(True)
    for _ in range(200):
        emitter.changed.emit([1, 2])
    after = sys.getrefcount(True)
    assert len(got) == 200
    assert after >= before - 5  # 6.12.0: before - 200
