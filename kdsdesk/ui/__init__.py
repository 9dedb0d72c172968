"""The desktop window (PySide6). The only package besides ``kdsdesk.app`` that imports Qt."""

from kdsdesk.ui.none_guard import guard_none

guard_none()  # before any widget code runs: PySide6 6.12 on CPython 3.11 leaks references to None
