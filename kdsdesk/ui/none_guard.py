"""A guard against a reference bug of PySide6 6.12 on CPython 3.11.

Its methods that return nothing hand back ``None`` without a reference of their own (harmless on 3.12+, where
``None`` is immortal): every ``setText``/``setData``/``setToolTip`` call takes one reference from ``None``, and
after some tens of thousands of calls the interpreter aborts ("none_dealloc: deallocating None") — listing a
library of a few hundred standards is enough. ``guard_none`` measures the leak once and, only when there is one,
gives ``None`` so many references that it can never reach zero (what 3.12 does by making it immortal).
"""

from __future__ import annotations

import ctypes
import logging
import sys

log = logging.getLogger(__name__)
SPARE_REFERENCES = 1 << 40
_done = False


def none_leaks(calls: int = 200) -> bool:
    """Does a PySide6 method that returns nothing take a reference from ``None``?"""
    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(calls):
        probe.setObjectName("kdsdesk")
    return sys.getrefcount(None) < before - calls // 2


def guard_none() -> bool:
    """Give ``None`` spare references when PySide6 leaks them (CPython < 3.12 only); True when it did."""
    global _done
    if _done or sys.implementation.name != "cpython" or sys.version_info >= (3, 12) or not none_leaks():
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += SPARE_REFERENCES
    _done = True
    log.info("PySide6 leaks references to None: guarded")
    return True
