"""Settings, About and unanswered-log dialogs from the window's menus; streamed LLM text through the controller's
LLM lane and token buffer (a fake ``Library.ask`` feeds ``on_token``; no model); "인용 복사" onto the clipboard."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QTableWidget, QTextBrowser
from pytestqt.qtbot import QtBot

from kdsdesk import config
from kdsdesk.errors import Cancelled
from kdsdesk.records import Answer, Chunk, Citation, DocRef, Draft, Verdict
from kdsdesk.ui import dialogs
from kdsdesk.ui.main_window import MainWindow


class DialogCloser:
    """When the next modal dialog is up (``exec`` blocks the test), run ``act`` on it; ``act`` must close it."""

    def __init__(self, act: Callable[[QDialog], None]) -> None:
        self.act = act
        self.seen: list[QDialog] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        dlg = QApplication.activeModalWidget()
        if isinstance(dlg, QDialog) and dlg.isVisible() and not self.seen:
            self.seen.append(dlg)
            self.timer.stop()
            self.act(dlg)

    def closed(self) -> bool:
        return bool(self.seen) and not self.seen[0].isVisible()


def _button(dlg: QDialog, which: QDialogButtonBox.StandardButton):  # type: ignore[no-untyped-def]
    box = dlg.findChild(QDialogButtonBox)
    assert box is not None
    button = box.button(which)
    assert button is not None
    assert button.isVisible()
    return button


def test_settings_dialog_opens_and_ok_saves_the_settings(qtbot: QtBot, window: MainWindow) -> None:
    lib = window.controller.library
    before = lib.settings

    def fill(dlg: QDialog) -> None:
        assert isinstance(dlg, dialogs.SettingsDialog)
        assert dlg.windowTitle() == "설정"
        assert dlg.library_folder() == str(lib.root)
        dlg.threads.setValue(3)
        dlg.llm.setText("none")
        QTest.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    closer = DialogCloser(fill)
    window.open_settings()
    assert closer.closed()
    assert (lib.settings.threads, lib.settings.llm_path) == (3, "none")
    saved = config.load(lib.root / "settings.json")
    assert (saved.threads, saved.llm_path) == (3, "none")
    assert before.threads != 3


def test_settings_dialog_cancel_changes_nothing(qtbot: QtBot, window: MainWindow) -> None:
    lib = window.controller.library
    before = lib.settings

    def cancel(dlg: QDialog) -> None:
        dlg.threads.setValue(5)  # type: ignore[attr-defined]
        QTest.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)

    closer = DialogCloser(cancel)
    window.open_settings()
    assert closer.closed()
    assert lib.settings == before
    assert not (lib.root / "settings.json").exists() or config.load(lib.root / "settings.json").threads != 5


def test_about_dialog_shows_versions_and_licences_and_closes(qtbot: QtBot, window: MainWindow) -> None:
    html: list[str] = []

    def read_and_close(dlg: QDialog) -> None:
        assert isinstance(dlg, dialogs.AboutDialog)
        view = dlg.findChild(QTextBrowser)
        assert view is not None
        html.append(view.toPlainText())
        QTest.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Close), Qt.MouseButton.LeftButton)

    closer = DialogCloser(read_and_close)
    window.open_about()
    assert closer.closed()
    text = html[0]
    for needle in ("Python", "PySide6-Essentials", "SIL Open Font License 1.1", "Apache License 2.0"):
        assert needle in text


def test_unanswered_log_view_lists_the_logged_questions(qtbot: QtBot, window: MainWindow) -> None:
    catalog = window.controller.library.catalog
    catalog.log_unanswered("기둥 철근의 최소 피복두께는?", "restricted")
    catalog.log_unanswered("풍하중 가스트 계수는?", "unverified")
    catalog.log_unanswered("풍하중  가스트 계수는?", "restricted")  # same question, spaces normalised: counted twice
    rows: list[list[str]] = []

    def read_and_close(dlg: QDialog) -> None:
        assert isinstance(dlg, dialogs.UnansweredDialog)
        table = dlg.findChild(QTableWidget)
        assert table is not None
        for r in range(table.rowCount()):
            items = [table.item(r, k) for k in range(table.columnCount())]
            rows.append([i.text() if i is not None else "" for i in items])
        QTest.mouseClick(_button(dlg, QDialogButtonBox.StandardButton.Close), Qt.MouseButton.LeftButton)

    closer = DialogCloser(read_and_close)
    window.open_unanswered()
    assert closer.closed()
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("풍하중 가스트 계수는?", "2", "restricted"),
        ("기둥 철근의 최소 피복두께는?", "1", "restricted"),
    ]


def _answer(question: str, text: str) -> Answer:
    doc = DocRef("/x.pdf", "0" * 64, "pdf", "KDS 24 12 21", "", "2021")
    text_ = "(2) 수평하중 ω는 12.7 kN/m로 한다."
    chunk = Chunk("c", doc, "text", text_, "3.6.1", ("3 설계", "3.6.1 하중"), "(2)", (0,))
    cit = Citation(chunk, "(2) 수평하중 ω는 12.7 kN/m로 한다.", True, 0)
    return Answer(question, Draft("numeric", "12.7", "kN/m"), Verdict("confirmed"), answer_text=text, citations=(cit,),
                  answerer="llm-fake")


def test_streamed_llm_tokens_reach_the_answer_card_before_the_answer(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = ["수평", "하중 ", "ω는 ", "12.7 ", "kN/m", "입니다."]
    release = threading.Event()
    seen_by_job: list[str] = []

    def fake_ask(question, llm=None, on_token=None, doc_codes=None):  # type: ignore[no-untyped-def]
        assert on_token is not None
        assert threading.current_thread() is not threading.main_thread()  # on the LLM lane, not the GUI thread
        for t in tokens:
            on_token(t)
            seen_by_job.append(t)
        release.wait(30)  # the card must show the text while the answer is still being generated
        return _answer(question, "".join(tokens))

    monkeypatch.setattr(window.controller.library, "ask", fake_ask)
    card = window.answer_view
    window.question.setText("난간 수평하중은?")
    QTest.keyClick(window.question, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: card.stream.toPlainText() == "".join(tokens), timeout=10000)
    assert card.stream.isVisible()
    assert card.badge.text() == "답을 찾는 중…"
    with qtbot.waitSignal(window.controller.answer_ready, timeout=10000):
        release.set()
    assert card.value.text() == "12.7 kN/m"
    assert card.stream.toPlainText() == "".join(tokens)  # the streamed text stays, not doubled by the last flush
    assert "llm-fake" in window.models_label.text()
    # a new question starts with an empty stream
    release.clear()
    window.controller.ask("다음 질문")
    assert card.stream.toPlainText() == ""
    assert not card.stream.isVisibleTo(card)
    release.set()
    qtbot.waitUntil(lambda: not window.controller.llm_lane.busy(), timeout=10000)


def test_a_new_question_stops_the_streaming_one(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_running = threading.Event()
    stopped: list[str] = []

    def fake_ask(question, llm=None, on_token=None, doc_codes=None):  # type: ignore[no-untyped-def]
        assert on_token is not None
        if question == "첫 질문":
            first_running.set()
            try:
                for _ in range(3000):  # a long generation, token by token
                    on_token("가")
                    threading.Event().wait(0.01)
            except Cancelled:
                stopped.append(question)
                raise
            raise AssertionError("the superseded generation was not stopped")
        return _answer(question, "둘째 답")

    monkeypatch.setattr(window.controller.library, "ask", fake_ask)
    answers: list[Answer] = []
    window.controller.answer_ready.connect(answers.append)
    window.controller.ask("첫 질문")
    assert first_running.wait(10)
    window.controller.ask("둘째 질문")
    qtbot.waitUntil(lambda: bool(answers), timeout=15000)
    assert stopped == ["첫 질문"]
    assert [a.question for a in answers] == ["둘째 질문"]
    assert "가" not in window.answer_view.stream.toPlainText()  # no stale tokens of the first question
    assert window.answer_view.question.text() == "질문: 둘째 질문"


def test_copy_as_citation_button_puts_the_report_line_on_the_clipboard(qtbot: QtBot, window: MainWindow) -> None:
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("이전 내용")
    card = window.answer_view
    assert not card.copy_button.isEnabled()  # nothing to copy before an answer
    card.show_answer(_answer("난간 수평하중은?", ""))
    assert card.copy_button.isEnabled()
    QTest.mouseClick(card.copy_button, Qt.MouseButton.LeftButton)
    assert clipboard.text() == "KDS 24 12 21 : 2021  3.6.1 (2)  ω = 12.7 kN/m"



def test_first_pdf_page_fits_the_viewer_width(qtbot: QtBot, window: MainWindow, sample_pdf: Path) -> None:
    """The page scroll area is hidden until the first page comes: fit-width must not use its stale 640 px size."""
    doc = DocRef(str(sample_pdf), "0" * 64, "pdf", "예시 14 20 22", "예시", "2024")
    chunk = Chunk("c", doc, "text", "(1) 예시", "1.1", ("1 일반사항",), "(1)", (0,))
    viewer = window.viewer
    window.resize(1100, 800)  # a narrower viewer than the scroll area's default size
    qtbot.waitUntil(lambda: viewer.stack.width() < 560)
    with qtbot.waitSignal(window.controller.page_ready, timeout=30000):
        viewer.show_citation(Citation(chunk, "(1) 예시", True, 0, ((0, 62.0, 100.0, 200.0, 112.0),)))
    qtbot.waitUntil(lambda: viewer.stack.currentWidget() is viewer.scroll_area)
    assert viewer.canvas.width() <= viewer.scroll_area.viewport().width()
    assert viewer.scroll_area.horizontalScrollBar().maximum() == 0  # no margin scrolled off


def test_restricted_answer_shows_evidence_and_no_repeated_no_value_text(qtbot: QtBot, window: MainWindow) -> None:
    card = window.answer_view
    base = _answer("보의 최대 철근비는?", "")
    verdict = Verdict("restricted", reason="값을 확정할 수 없음: 근거를 직접 확인하세요.")
    restricted = Answer(
        base.question, Draft("numeric"), verdict, answer_text="값을 확정할 수 없음", citations=base.citations
    )
    card.show_answer(restricted)
    assert card.badge.text() == "제한: 값을 확정할 수 없음"
    assert card.reason.text().startswith("값을 확정할 수 없음")
    assert not card.body.isVisibleTo(card)  # the same words again would be noise
    assert not card.value.isVisibleTo(card)
    assert card.citations.count() == 1
    assert not card.copy_button.isEnabled()
    # an answer text that says something new is still shown
    card.show_answer(Answer("q", Draft("definition"), Verdict("confirmed"), answer_text="피복두께는 최단 거리이다.",
                            citations=base.citations))
    assert card.body.text() == "피복두께는 최단 거리이다."
