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
