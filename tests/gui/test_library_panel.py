"""The library panel with a large library: fields with counts, one row per single-file standard, the filter box,
fields and standards as the question's scope, in-place status updates, and the status bar's counts."""

from __future__ import annotations

from dataclasses import replace

from kdsdesk.records import DocInfo
from kdsdesk.ui.library_panel import KIND_ROLE, STATUS_COL, LibraryPanel
from kdsdesk.ui.main_window import library_summary


def doc(code: str, title: str, kind: str = "hwpx", year: str = "2021", status: str = "searchable") -> DocInfo:
    stem = code.replace(" ", "_") + f"_{year}"
    return DocInfo(f"/lib/{stem}.{kind}", "0" * 64, kind, code, title, year, status, n_pages=3,  # type: ignore[arg-type]
                   n_chunks=10, n_vectors=10)


def library() -> list[DocInfo]:
    docs = [doc(f"KDS 24 14 {n:02d}", f"교량 기준 {n}") for n in range(10, 40)]  # 30 bridge standards
    docs += [doc(f"KDS 14 20 {n:02d}", f"콘크리트구조 기준 {n}") for n in range(1, 21)]  # 20 structural
    docs += [doc("KDS 14 20 20", "콘크리트구조 전단 및 비틀림 설계기준", kind="pdf")]  # a second file of one
    docs += [doc("KDS 11 50 05", "얕은기초 설계기준", year="2016"), doc("KDS 11 50 05", "얕은기초 설계기준")]
    return docs


def fields(panel: LibraryPanel) -> dict[str, int]:
    out = {}
    for i in range(panel.tree.topLevelItemCount()):
        g = panel.tree.topLevelItem(i)
        assert g is not None
        assert g.data(0, KIND_ROLE) == "field"
        if not g.isHidden():
            out[g.text(0)] = sum(not g.child(k).isHidden() for k in range(g.childCount()))  # type: ignore[union-attr]
    return out


def test_standards_are_grouped_by_field_one_row_each(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    docs = library()
    panel.set_documents(docs)
    assert fields(panel) == {"11 지반": 1, "14 구조": 20, "24 교량": 30}
    bridge = panel.tree.topLevelItem(2)
    assert bridge is not None
    assert all(bridge.child(k).data(0, KIND_ROLE) == "file" for k in range(bridge.childCount()))  # type: ignore[union-attr]
    found = panel.tree.findItems("KDS 14 20 20", _match_recursive())
    grouped = [it for it in found if it.data(0, KIND_ROLE) == "standard"]
    assert len(grouped) == 1
    assert grouped[0].childCount() == 2
    assert len(panel.file_items()) == len(docs)


def _match_recursive():  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    return Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive


def test_filter_keeps_standards_matching_every_word(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents(library())
    panel.filter.setText("교량")
    panel.apply_filter()
    assert fields(panel) == {"24 교량": 30}
    panel.filter.setText("142010")  # a code typed without spaces
    panel.apply_filter()
    assert fields(panel) == {"14 구조": 1}
    panel.filter.setText("20")  # a whole number of a code (KDS 14 20 xx, KDS 24 14 20), not the 20 of 2021
    panel.apply_filter()
    assert fields(panel) == {"14 구조": 20, "24 교량": 1}
    panel.filter.setText("24 교량")
    panel.apply_filter()
    assert fields(panel) == {"24 교량": 30}
    panel.filter.setText("2016 기초")  # year and title
    panel.apply_filter()
    assert fields(panel) == {"11 지반": 1}
    panel.filter.setText("")
    panel.apply_filter()
    assert sum(fields(panel).values()) == 51


def test_selecting_a_field_scopes_to_its_shown_standards(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents(library())
    panel.filter.setText("전단")
    panel.apply_filter()
    structural = next(panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())
                      if panel.tree.topLevelItem(i).text(0) == "14 구조")  # type: ignore[union-attr]
    with qtbot.waitSignal(panel.selection_changed) as sig:
        structural.setSelected(True)  # type: ignore[union-attr]
    assert sig.args[0] == ["KDS 14 20 20"]
    panel.tree.clearSelection()
    panel.filter.setText("")
    panel.apply_filter()
    structural.setSelected(True)  # type: ignore[union-attr]
    assert len(panel.selected_codes()) == 20


def test_a_status_change_updates_rows_in_place(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    docs = library()
    docs[0] = replace(docs[0], status="indexing")
    panel.set_documents(docs)
    row = panel.file_items()[0]
    target = panel._file_items[docs[0].file]
    assert target.text(STATUS_COL) == "색인 중"
    docs[0] = replace(docs[0], status="searchable")
    panel.set_documents(docs)
    assert panel._file_items[docs[0].file] is target  # the same row, not a rebuilt tree
    assert target.text(STATUS_COL) == "검색 가능"
    assert panel.file_items()[0] is row


def test_status_bar_counts_searchable_indexing_and_encoding() -> None:
    docs = library()
    docs[0] = replace(docs[0], status="indexing")
    docs[1] = replace(docs[1], n_vectors=3)
    docs[2] = replace(docs[2], status="failed", message="손상된 파일")
    line = library_summary(docs, dense_available=True)
    assert "기준 51종" in line
    assert "파일 53개" in line
    assert "검색 가능 51" in line
    assert "색인 중 1" in line
    assert "의미 검색 준비 중 1" in line
    assert "실패 1" in line
    assert "의미 검색" not in library_summary(docs, dense_available=False)


def test_edition_note_names_newest_and_older() -> None:
    from kdsdesk.ui.answer_view import edition_note

    eds = {"KDS 98 30 10": ("2016", "2021"), "KDS 98 40 20": ("2019",)}
    assert edition_note("KDS 98 30 10", "2021", eds) == "최신판"
    assert edition_note("KDS 98 30 10", "2016", eds) == "2016판 · 최신은 2021판"
    assert edition_note("KDS 98 40 20", "2019", eds) == ""


def test_answer_card_says_which_edition_it_cites(qtbot) -> None:  # type: ignore[no-untyped-def]
    from kdsdesk.answer.pipeline import answer_question
    from kdsdesk.records import DocRef
    from kdsdesk.ui.answer_view import AnswerView
    from tests.data.answer_records import hits, text_chunk

    doc = DocRef("/lib/old.hwpx", "0" * 64, "hwpx", "KDS 98 30 10", "시험용 거푸집 설계기준", "2016")
    chunk = text_chunk("(1) 역타설 시 최소 측압에 추가로 고려할 비율은 10 %로 한다.", doc=doc)
    answer = answer_question("역타설 시 최소 측압에 추가로 고려할 비율은?", hits(chunk), llm="none")
    assert answer.citations
    view = AnswerView()
    qtbot.addWidget(view)
    view.editions = {"KDS 98 30 10": ("2016", "2021")}
    view.show_answer(answer)
    assert "KDS 98 30 10 : 2016" in view.edition.text()
    assert "최신은 2021판" in view.edition.text()
    assert "최신은 2021판" in view.citations.item(0).text()
    view.editions = {"KDS 98 30 10": ("2016",)}
    view.show_answer(answer)
    assert view.edition.isHidden()


def test_many_item_updates_do_not_exhaust_none() -> None:
    """PySide6 6.12 on CPython 3.11 takes a reference from None per void call: without the guard (kdsdesk.ui
    imports it) a few tens of thousands of setter calls abort the interpreter."""
    import sys

    from PySide6.QtWidgets import QTreeWidgetItem

    item = QTreeWidgetItem(["a"])
    before = sys.getrefcount(None)
    for _ in range(300_000):
        item.setText(0, "x")
    assert sys.getrefcount(None) > 0
    assert before > 0
