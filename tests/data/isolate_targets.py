"""Parser stand-ins for ``kdsdesk.ingest.isolate`` tests: module-level so a spawned worker can import them."""

from __future__ import annotations

import os
import time
from pathlib import Path

from kdsdesk.records import ParsedDoc


def hang(path: Path) -> ParsedDoc:
    """A parser stuck in a loop (a hostile file)."""
    while True:
        time.sleep(0.05)


def crash(path: Path) -> ParsedDoc:
    """A parser that takes the whole process down (a native crash in the PDF engine)."""
    os._exit(139)


def bug(path: Path) -> ParsedDoc:
    raise ZeroDivisionError("a parser bug")


def hog(path: Path) -> ParsedDoc:
    """A parser whose memory grows without bound (a decompression or XML blow-up)."""
    held = []
    while True:
        held.append(bytearray(32 * 1024 * 1024))
        time.sleep(0.01)


def hang_with_pid(path: Path) -> ParsedDoc:
    """Like ``hang``, but writes the worker's pid beside the file first (to watch it from outside)."""
    (path.parent / "worker.pid").write_text(str(os.getpid()))
    return hang(path)
