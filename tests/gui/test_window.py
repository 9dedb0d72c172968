"""The real window, offscreen: drop files, index, ask, open a citation, cancel, and a responsive GUI thread."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from kdsdesk.records import Progress
from kdsdesk.ui.answer_view import BADGES
from kdsdesk.ui.library_panel import STATUS_COL

from .conftest import copy_samples

LONG = 180_000  # ms: parsing runs in worker processes on a 2-core machine
QUESTION = "보행자용 난간의 수평 등분포하중은?"


def drop(win, paths: list[Path]) -> None:  # type: ignore[no-untyped-def]
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    centre = QPointF(win.width() / 2, win.height() / 2)
    enter = QDragEnterEvent(  # Qt's signature takes a QPoint (PySide6 before 6.12 insists)
        centre.toPoint(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(win, enter)
    assert enter.isAccepted()
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    event = QDropEvent(centre, Qt.DropAction.CopyAction, mime, buttons, mods)
    QApplication.sendEvent(win, event)


def statuses(win) -> dict[str, str]:  # type: ignore[no-untyped-def]
    from kdsdesk.ui.library_panel import FILE_ROLE

    return {Path(i.data(0, FILE_ROLE)).suffix: i.text(STATUS_COL) for i in win.library_panel.file_items()}


def index_and_wait(qtbot, win, paths: list[Path]) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(win.controller.indexing_changed, timeout=LONG, check_params_cb=lambda r: not r):
        assert win.controller.add_paths(paths)


@pytest.mark.slow
def test_drop_pdf_and_hwpx_indexes_them_and_the_list_updates(qtbot, window, tmp_path: Path) -> None:
    files = copy_samples(tmp_path / "in")
    assert statuses(window) == {}
    drop(window, files)
    assert window.controller.is_indexing()
    assert window.library_panel.progress_box.isVisible()
    qtbot.waitUntil(lambda: not window.controller.is_indexing(), timeout=LONG)
    qtbot.waitUntil(lambda: set(statuses(window)) == {".pdf", ".hwpx"})
    got = statuses(window)
    assert got[".hwpx"] == "검색 가능"
    assert got[".pdf"] == "검색 가능"
    assert not window.library_panel.progress_box.isVisible()
    assert "파일 2개" in window.docs_label.text()


@pytest.mark.slow
def test_asking_a_sample_question_fills_the_answer_card(qtbot, window, sample_hwpx: Path) -> None:
    index_and_wait(qtbot, window, [sample_hwpx])
    with qtbot.waitSignal(window.controller.answer_ready, timeout=LONG) as ready:
        window.question.setText(QUESTION)
        qtbot.keyClick(window.question, Qt.Key.Key_Return)
    answer = ready.args[0]
    card = window.answer_view
    assert card.badge.text() in {label for label, _ in BADGES.values()}
    assert card.citations.count() == len(answer.citations) >= 1
    assert card.value.text() or card.body.text()
    if answer.status != "confirmed":
        assert not card.value.isVisible()  # never a bare number for warning/restricted
    assert window.question.history == [QUESTION]


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _quote_rects(pdf: Path, page_index: int, quote: str) -> list[tuple[float, float, float, float]]:
    import pymupdf

    words = quote.split()
    probe = " ".join(words[1:5] if words[0].startswith("(") else words[:4])
    with pymupdf.open(pdf) as doc:
        return [tuple(r) for r in doc[page_index].search_for(probe)]  # type: ignore[misc]


@pytest.mark.slow
def test_clicking_a_citation_shows_the_page_with_the_quote_highlighted(qtbot, window, sample_pdf: Path) -> None:
    index_and_wait(qtbot, window, [sample_pdf])
    with qtbot.waitSignal(window.controller.answer_ready, timeout=LONG) as ready:
        window.controller.ask(QUESTION)
    answer = ready.args[0]
    rows = [i for i, c in enumerate(answer.citations) if c.verified and c.rects]
    assert rows, "expected a verified citation with rectangles"
    citation = answer.citations[rows[0]]
    lst = window.answer_view.citations
    rect = lst.visualItemRect(lst.item(rows[0]))
    with qtbot.waitSignal(window.controller.page_ready, timeout=LONG):
        qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.viewer.request is not None
    assert window.viewer.request.page_index == citation.page_index
    shown = window.viewer.highlight_rects()
    assert shown
    text_rects = _quote_rects(sample_pdf, citation.page_index, citation.quote)
    assert text_rects
    assert any(_overlap(a, b) for a in shown for b in text_rects)


@pytest.mark.slow
def test_cancel_stops_indexing_and_leaves_the_library_consistent(qtbot, window, tmp_path: Path) -> None:
    src = next(p for p in copy_samples(tmp_path / "one", (".hwpx",)))
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(6):  # six different files (a zip comment changes the hash, not the content)
        dest = Path(shutil.copy2(src, folder / f"copy-{i}.hwpx"))
        with zipfile.ZipFile(dest, "a") as z:
            z.comment = f"copy {i}".encode()
    finished: list[object] = []
    window.controller.index_finished.connect(finished.append)

    def cancel_on_first(p: Progress) -> None:
        window.controller.cancel_indexing()

    window.controller.index_progress.connect(cancel_on_first)
    with qtbot.waitSignal(window.controller.indexing_changed, timeout=LONG, check_params_cb=lambda r: not r):
        window.controller.add_paths([folder])
    window.controller.index_progress.disconnect(cancel_on_first)
    assert finished == [None]  # cancelled: no report
    lib = window.controller.library
    docs = lib.documents()
    assert all(d.status in ("searchable", "failed") for d in docs)
    assert sum(d.status == "searchable" for d in docs) < 6
    # the library reopens and resumes: adding the folder again completes it
    from kdsdesk.service import Library, drain

    assert window.controller.shutdown(30000)  # releases the index writer

    again = Library(lib.root)
    try:
        report = drain(again.add([folder]))
        assert report is not None
        assert sum(d.status == "searchable" for d in again.documents()) == 6
    finally:
        again.close()


@pytest.mark.slow
def test_gui_thread_keeps_processing_events_while_indexing(qtbot, window, tmp_path: Path) -> None:
    files = copy_samples(tmp_path / "in")
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(1) if window.controller.is_indexing() else None)
    timer.start()
    index_and_wait(qtbot, window, files)
    timer.stop()
    assert len(ticks) >= 10  # a blocked GUI thread would tick at most once
