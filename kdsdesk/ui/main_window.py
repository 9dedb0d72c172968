"""The main window (placeholder until the desktop-app issue lands)."""

from __future__ import annotations


def run_gui(library: str | None = None, screenshot: str | None = None, ask: str | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication.instance() or QApplication([])
    label = QLabel("KDS Desk")
    label.resize(800, 600)
    label.show()
    if screenshot:
        app.processEvents()
        label.grab().save(screenshot)
        return 0
    return int(app.exec())
