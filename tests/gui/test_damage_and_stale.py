"""The window's side of a library that changed under it: a damaged library is explained and repaired with the
user's consent (nothing lost, the damaged parts kept); an answer whose source changed offers re-indexing."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.records import Answer, Citation, Verdict
from kdsdesk.service import drain
from tests.data.synthetic_docs import fake_parse, make_library_files


def _library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    cat = Catalog(root)
    drain(add_files(cat, list(make_library_files(tmp_path / "docs").values()), parse=fake_parse))
    cat.close()
    return root


@pytest.mark.parametrize("agree", [True, False])
def test_a_damaged_library_is_repaired_only_with_consent(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agree: bool  # type: ignore[no-untyped-def]
) -> None:
    from PySide6.QtWidgets import QMessageBox

    from kdsdesk.ui import main_window

    root = _library(tmp_path)
    (root / "lexical" / "meta.json").unlink()
    asked: list[str] = []

    def question(parent: object, title: str, text: str) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes if agree else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    lib = main_window.open_library(root)
    assert asked
    assert "검색 색인" in asked[0]
    if not agree:
        assert lib is None
        assert not (root / "backup").exists()  # nothing touched without consent
        assert not (root / "lexical" / "meta.json").exists()
        return
    assert lib is not None
    try:
        assert len(lib.documents()) == 3
        assert lib.search("고력볼트", dense=False)
    finally:
        lib.close()


def test_a_stale_source_shows_a_reindex_button_that_asks_for_the_cited_files(qtbot) -> None:  # type: ignore[no-untyped-def]
    from kdsdesk.records import DocRef, Draft
    from kdsdesk.ui.answer_view import AnswerView
    from tests.data.answer_records import text_chunk

    view = AnswerView()
    qtbot.addWidget(view)
    doc = DocRef("/docs/steel.pdf", "h", "pdf", "KDS 14 31 25", "강구조 연결", "2022")
    chunk = text_chunk("(1) 고력볼트 F10T의 설계볼트장력은 200 kN이다.", doc=doc)
    citation = Citation(chunk, "설계볼트장력은 200 kN", verified=True)
    reason = "원문 파일이 색인 후 변경됨 — 다시 색인하세요"
    stale = Verdict("warning", {"value_in_quote": True, "source_fresh": False}, reason)
    view.show_answer(Answer("장력은?", Draft("numeric", value="200", unit="kN"), stale, citations=(citation,)))
    assert view.reindex_button.isVisibleTo(view)
    with qtbot.waitSignal(view.reindex_requested) as sent:
        view.reindex_button.click()
    assert sent.args[0] == ["/docs/steel.pdf"]
    fresh = Verdict("confirmed", {"value_in_quote": True, "source_fresh": True})
    view.show_answer(Answer("장력은?", Draft("numeric", value="200", unit="kN"), fresh, citations=(citation,)))
    assert not view.reindex_button.isVisibleTo(view)


def test_the_status_bar_says_when_files_were_indexed_by_an_older_version_and_offers_to_index_them_again(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    import sqlite3

    from kdsdesk.service import Library
    from kdsdesk.ui.controller import Controller
    from kdsdesk.ui.main_window import MainWindow

    root = _library(tmp_path)

    def checked_window() -> MainWindow:
        win = MainWindow(Controller(Library(root)), tmp_path / "kdsdesk.log")
        qtbot.addWidget(win)
        win.show()
        with qtbot.waitSignal(win.controller.outdated_ready, timeout=30000):
            win.controller.check_outdated()  # on the read lane, as at start-up and after each indexing run
        return win

    win = checked_window()
    try:
        assert not win.outdated_label.isVisibleTo(win)  # indexed by this version: nothing to say
        assert not win.outdated_button.isVisibleTo(win)
    finally:
        assert win.controller.shutdown(30000)
    db = sqlite3.connect(root / "catalog.sqlite3")
    db.execute("UPDATE files SET parser_version = 'pdf-0' WHERE kind = 'pdf'")  # as an older version left them
    db.commit()
    db.close()
    win = checked_window()
    try:
        assert win.outdated_label.isVisibleTo(win)
        assert "이전 버전으로 색인된 파일 2개" in win.outdated_label.text()
        assert "steel.pdf" in win.outdated_label.toolTip()
        asked: list[list[str]] = []
        monkeypatch.setattr(win.controller, "reindex", lambda files: asked.append(list(files)) or True)
        win.outdated_button.click()
        assert [sorted(Path(f).name for f in files) for files in asked] == [["shear.pdf", "steel.pdf"]]
        assert not win.outdated_label.isVisibleTo(win)
    finally:
        assert win.controller.shutdown(30000)
