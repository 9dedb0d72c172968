"""The answer card and the citations list.

A confirmed answer shows its value and unit large; a ``warning`` or ``restricted`` answer never shows a bare
number: the badge says why and the evidence (the quotes) is listed instead. When nothing is confirmed (and below a
warning) the best passages of the retrieved evidence follow (관련 본문, ``kdsdesk.ui.passage_list``): a click opens
the page with the passage highlighted. When the verifier found several cases that fit the question equally, they
are listed as 값 / 조건 rows (경우별 값) instead of one value. Streamed LLM text appears while the answer is
generated. "인용 복사" puts ``KDS 24 12 21 : 2021  3.6.1 (2)  ω = 12.7 kN/m`` on the clipboard.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from PySide6.QtCore import QRect, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kdsdesk.records import Answer, Citation
from kdsdesk.ui.passage_list import PassageList

BADGES = {
    "confirmed": ("확정", "#2e7d32"),
    "warning": ("경고: 원문 확인 필요", "#ef6c00"),
    "restricted": ("제한: 값을 확정할 수 없음", "#c62828"),
    "unverified": ("검증 안 됨: 값을 확정할 수 없음", "#616161"),
}
UNLIMITED = 16777215  # QWIDGETSIZE_MAX
CASES_MAX_HEIGHT = 180  # px: the cases table scrolls past about six rows
_SYMBOL = re.compile(r"^[A-Za-zα-ωΑ-Ωφ][A-Za-z0-9_α-ωΑ-Ω,{}]{0,7}$")
_PARTICLE = re.compile(r"[가-힣]+$")


def source_label(c: Citation) -> str:
    """``KDS 14 20 22 : 2022  3.1 (2)`` for a citation."""
    doc = c.chunk.doc
    head = f"{doc.doc_code} : {doc.year}" if doc.year else (doc.doc_code or doc.stem)
    clause = " ".join(x for x in (c.chunk.clause, c.chunk.item) if x)
    return f"{head}  {clause}".rstrip()


def edition_note(doc_code: str, year: str, editions: Mapping[str, Sequence[str]]) -> str:
    """Which edition a citation is, when the library holds several of its standard: "최신판", or
    "2016판 · 최신은 2021판"; "" for a standard with one edition."""
    years = sorted({y for y in editions.get(doc_code, ()) if y})
    if len(years) < 2 or not year:
        return ""
    return "최신판" if year == years[-1] else f"{year}판 · 최신은 {years[-1]}판"


def _symbol_before(quote: str, value: str) -> str:
    """The symbol named just before ``value`` in the quote (``ω는 1.2 kN/m`` → ``ω``), else ``""``."""
    at = quote.find(value)
    if at <= 0:
        return ""
    words = quote[:at].split()
    for w in reversed(words[-3:]):
        w = w.strip("=:,()")
        w = _PARTICLE.sub("", w) if not _SYMBOL.match(w) else w
        if w and _SYMBOL.match(w) and not w.isdigit():
            return w
    return ""


def citation_text(answer: Answer) -> str:
    """The line for a calculation report; marks an unconfirmed value."""
    if not answer.citations:
        return ""
    c = answer.citations[0]
    parts = [source_label(c)]
    if answer.value:
        sym = _symbol_before(c.quote, answer.value)
        val = f"{answer.value} {answer.unit}".strip()
        parts.append(f"{sym} = {val}" if sym else val)
    line = "  ".join(parts)
    if answer.status != "confirmed":
        line += "  [원문 확인 필요]"
    return line


class AnswerView(QWidget):
    """Status badge, value, condition, alternatives, requirements, definition, streamed text, citations."""

    citation_activated = Signal(object)  # Citation
    reindex_requested = Signal(list)  # list[str]: cited files changed or gone since indexing

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.answer: Answer | None = None
        self.editions: dict[str, tuple[str, ...]] = {}  # doc code → edition years in the library (main window)
        self.question = QLabel()
        self.question.setWordWrap(True)
        self.question.setStyleSheet("color:#455a64;")
        self.badge = QLabel()
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.copy_button = QPushButton("인용 복사")
        self.copy_button.setToolTip("계산서에 붙여 넣을 출처와 값을 클립보드에 복사")
        self.copy_button.clicked.connect(self.copy_citation)
        self.reindex_button = QPushButton("다시 색인")
        self.reindex_button.setToolTip("원문 파일이 색인 후 바뀌었거나 없어졌습니다. 근거 문서를 다시 색인합니다.")
        self.reindex_button.clicked.connect(self._reindex)
        self.reindex_button.hide()
        head = QHBoxLayout()
        head.addWidget(self.badge)
        head.addStretch(1)
        head.addWidget(self.reindex_button)
        head.addWidget(self.copy_button)

        self.value = QLabel()
        font = self.value.font()
        font.setPointSizeF(max(font.pointSizeF(), 9.0) * 2.0)
        font.setBold(True)
        self.value.setFont(font)
        self.value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.condition = QLabel()
        self.edition = QLabel()
        self.edition.setStyleSheet("color:#6d4c41;")
        self.reason = QLabel()
        self.body = QLabel()
        for lab in (self.condition, self.edition, self.reason, self.body, self.value):
            lab.setWordWrap(True)
        self.reason.setStyleSheet("color:#bf360c;")
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.alternatives = QTableWidget(0, 3)
        self.alternatives.setHorizontalHeaderLabels(["다른 조건", "값", "단위"])
        self.alternatives.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.alternatives.verticalHeader().hide()
        self.alternatives.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.alternatives.setMaximumHeight(130)
        self.cases_title = QLabel("경우별 값 — 질문의 조건에 맞는 경우를 원문에서 확인하세요")
        self.cases_title.setWordWrap(True)
        self.cases = QTableWidget(0, 2)
        self.cases.setHorizontalHeaderLabels(["값", "조건"])
        self.cases.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.cases.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.cases.verticalHeader().hide()
        self.cases.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.cases.setWordWrap(True)
        self.stream = QPlainTextEdit()
        self.stream.setReadOnly(True)
        self.stream.setMaximumHeight(110)
        self.stream.setPlaceholderText("생성 중인 답변")
        self.evidence_title = QLabel("근거")
        bold = self.evidence_title.font()
        bold.setBold(True)
        self.evidence_title.setFont(bold)
        self.citations = QListWidget()
        self.citations.setWordWrap(True)
        self.citations.setAlternatingRowColors(True)
        self.citations.itemActivated.connect(self._activated)
        self.citations.itemClicked.connect(self._activated)
        self.passages_title = QLabel("관련 본문")
        self.passages_title.setFont(bold)
        self.passages_title.setToolTip("질문의 낱말이 든 본문 구절입니다. 누르면 원문의 그 쪽이 열립니다.")
        self.passages = PassageList()
        self.passages.passage_activated.connect(self.citation_activated)

        card = QFrame()
        card.setFrameShape(QFrame.Shape.StyledPanel)
        cv = QVBoxLayout(card)
        cv.addWidget(self.question)
        cv.addLayout(head)
        cv.addWidget(self.value)
        cv.addWidget(self.condition)
        cv.addWidget(self.edition)
        cv.addWidget(self.reason)
        cv.addWidget(self.body)
        cv.addWidget(self.alternatives)
        cv.addWidget(self.cases_title)
        cv.addWidget(self.cases)
        cv.addWidget(self.stream)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(card)
        lay.addWidget(self.evidence_title)
        lay.addWidget(self.citations, 1)
        lay.addWidget(self.passages_title)
        lay.addWidget(self.passages, 2)
        self.clear()

    # -- states ----------------------------------------------------------------------------------------------------
    def clear(self, message: str = "질문을 입력하면 근거와 함께 답합니다.") -> None:
        self.answer = None
        self.question.setText(message)
        self._badge("", "#9e9e9e")
        self.badge.hide()
        self._reset_fields()
        self.stream.clear()
        self.stream.hide()

    def _reset_fields(self) -> None:
        for lab in (self.value, self.condition, self.edition, self.reason, self.body):
            lab.clear()
            lab.hide()
        self.alternatives.setRowCount(0)
        self.alternatives.hide()
        self.cases.setRowCount(0)
        for w in (self.cases, self.cases_title, self.passages, self.passages_title):
            w.hide()
        self.passages.set_passages(())
        self.evidence_title.show()
        self.citations.show()
        self.citations.clear()
        self.copy_button.setEnabled(False)

    def start(self, question: str) -> None:
        self.clear(f"질문: {question}")
        self.badge.show()
        self._badge("답을 찾는 중…", "#1565c0")

    def append_stream(self, text: str) -> None:
        self.stream.show()
        self.stream.moveCursor(self.stream.textCursor().MoveOperation.End)
        self.stream.insertPlainText(text)

    def fail(self, message: str) -> None:
        self._badge("오류", "#c62828")
        self.reason.setText(message)
        self.reason.show()

    def show_answer(self, a: Answer) -> None:
        self._reset_fields()
        self.answer = a
        label, colour = BADGES.get(a.status, BADGES["unverified"])
        self.badge.show()
        self._badge(label, colour)
        confirmed = a.status == "confirmed"
        val = f"{a.value} {a.unit}".strip()
        if a.value and confirmed:
            self.value.setText(val)
            self.value.show()
        elif a.value and a.status == "warning":  # never a bare number: a candidate, with the evidence below
            self.body.setText(f"후보 값 {val} — 아래 근거의 원문을 확인하세요.")
            self.body.show()
        if a.condition:
            self.condition.setText(f"적용 조건: {a.condition}")
            self.condition.show()
        if a.citations:
            doc = a.citations[0].chunk.doc
            note = edition_note(doc.doc_code, doc.year, self.editions)
            if note:
                n = len(set(self.editions.get(doc.doc_code, ())))
                self.edition.setText(f"인용한 판: {doc.doc_code} : {doc.year} ({note}; 라이브러리에 {n}개 판)")
                self.edition.show()
        if a.verdict.reason and not confirmed:
            self.reason.setText(a.verdict.reason)
            self.reason.show()
        self.reindex_button.setVisible(a.verdict.checks.get("source_fresh") is False)
        texts: list[str] = []
        if a.requirements:
            texts.append("\n".join(f"• {r}" for r in a.requirements))
        if a.definition:
            texts.append(f"정의: {a.definition}")
        # the answer text, unless it only repeats the badge or the reason (restricted: "값을 확정할 수 없음")
        if a.answer_text and not a.value and not texts and a.answer_text.strip() not in f"{label} {self.reason.text()}":
            texts.append(a.answer_text)
        if texts:
            prev = self.body.text()
            self.body.setText("\n\n".join([t for t in (prev, *texts) if t]))
            self.body.show()
        self.alternatives.setRowCount(0)
        if a.alternatives and (confirmed or a.status == "warning"):
            self.alternatives.setRowCount(len(a.alternatives))
            for r, alt in enumerate(a.alternatives):
                for k, text in enumerate((alt.condition, alt.value, alt.unit)):
                    self.alternatives.setItem(r, k, QTableWidgetItem(text))
            self.alternatives.show()
        elif a.alternatives and not a.value:  # several cases fit the question equally: list them, pick none
            self._show_cases(a)
        self.evidence_title.setText("근거 (원문을 확인하세요)" if not confirmed else "근거")
        self.evidence_title.setVisible(bool(a.citations) or confirmed)
        self.citations.setVisible(bool(a.citations) or confirmed)
        self.citations.clear()
        for c in a.citations:
            page = f"  {c.page_index + 1}쪽" if c.page_index is not None else (
                f"  {c.chunk.pages[0] + 1}쪽" if c.chunk.pages else "  (HWPX)")
            mark = "✓ 검증됨" if c.verified else "✗ 인용 미확인"
            path = " › ".join(c.chunk.clause_path[-2:])
            note = edition_note(c.chunk.doc.doc_code, c.chunk.doc.year, self.editions)
            note = f" ({note})" if note else ""
            item = QListWidgetItem(f"{source_label(c)}{note}{page}   {mark}\n{path}\n“{c.quote}”")
            item.setData(Qt.ItemDataRole.UserRole, c)
            item.setToolTip(c.chunk.doc.file)
            self.citations.addItem(item)
        self.copy_button.setEnabled(bool(a.citations) and (bool(a.value) or confirmed))
        self.citations.setMaximumHeight(UNLIMITED)
        if a.passages and not confirmed:
            self.passages.set_passages(a.passages)
            self.passages_title.setText(f"관련 본문 {len(a.passages)}곳 — 누르면 원문의 그 쪽이 열립니다")
            self.passages_title.show()
            self.passages.show()
            self._fit_citations()
            QTimer.singleShot(0, self._fit_citations)  # again once the layout has given the list its width

    def _fit_citations(self) -> None:
        """Beside the passages, the few citations take the room they need (the passages get the rest)."""
        if not self.passages.isVisibleTo(self):
            self.citations.setMaximumHeight(UNLIMITED)
            return
        lst = self.citations
        fm = lst.fontMetrics()
        width = max(80, lst.viewport().width() - 12)
        flags = int(Qt.TextFlag.TextWordWrap)
        rows = 0
        for r in range(lst.count()):
            item = lst.item(r)
            text = item.text() if item is not None else ""
            rows += fm.boundingRect(QRect(0, 0, width, 100_000), flags, text).height() + 6
        lst.setMaximumHeight(max(48, rows + 2 * lst.frameWidth() + fm.lineSpacing() // 2))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_citations()

    def _show_cases(self, a: Answer) -> None:
        self.cases.setRowCount(len(a.alternatives))
        for r, alt in enumerate(a.alternatives):
            for k, text in enumerate((f"{alt.value} {alt.unit}".strip(), alt.condition)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.cases.setItem(r, k, item)
        self.cases.resizeRowsToContents()
        rows = sum(self.cases.rowHeight(r) for r in range(self.cases.rowCount()))
        head = self.cases.horizontalHeader().sizeHint().height()
        self.cases.setFixedHeight(min(CASES_MAX_HEIGHT, head + rows + 2 * self.cases.frameWidth() + 2))
        self.cases_title.show()
        self.cases.show()

    # -- actions ---------------------------------------------------------------------------------------------------
    def _reindex(self) -> None:
        if self.answer is not None:
            from kdsdesk.service import cited_files

            self.reindex_requested.emit(cited_files(self.answer))
            self.reindex_button.hide()

    def copy_citation(self) -> str:
        if self.answer is None:
            return ""
        text = citation_text(self.answer)
        if text:
            QGuiApplication.clipboard().setText(text)
        return text

    def _activated(self, item: QListWidgetItem) -> None:
        c = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(c, Citation):
            self.citation_activated.emit(c)

    def _badge(self, text: str, colour: str) -> None:
        self.badge.setText(text)
        self.badge.setStyleSheet(
            f"QLabel {{ background:{colour}; color:white; border-radius:4px; padding:3px 10px; font-weight:bold; }}"
        )
