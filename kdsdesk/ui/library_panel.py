"""The library panel: documents grouped by field and standard, a filter box, indexing progress with cancel,
remove/re-index, clause tree.

A whole library (350+ standards) stays usable: standards are grouped by their field (the code's first two digits:
"24 교량 (24)"), a standard with one file is one row (several files — PDF and HWPX, or two editions — get a group
row), and the filter box keeps the standards whose code, title, field or year contain every word typed. Selecting
standards or whole fields sets the question's scope ("선택한 기준에서만"). A refresh that changes only statuses
updates the rows in place (the catalog is re-read once a second while indexing).

Pure view: it shows ``DocInfo`` lists and ``Progress`` records and emits requests; the controller does the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kdsdesk.records import DocInfo, Progress
from kdsdesk.text.fields import field_label

FILE_ROLE = Qt.ItemDataRole.UserRole
PAGE_ROLE = Qt.ItemDataRole.UserRole + 1
KIND_ROLE = Qt.ItemDataRole.UserRole + 2  # "field", "standard" (a group of files) or "file"
FILTER_DELAY_MS = 150
COLUMNS = ["코드", "연도", "형식", "쪽", "상태", "제목"]
STATUS_COL, TITLE_COL = 4, 5
STATUS_COLOURS = {"색인 중": "#1565c0", "검색 가능": "#2e7d32", "의미 검색 준비 중": "#6d4c41", "실패": "#c62828"}


def status_text(doc: DocInfo, dense_available: bool) -> str:
    """The Korean status shown for a document."""
    if doc.status == "indexing":
        return "색인 중"
    if doc.status == "failed":
        return "실패"
    if dense_available and doc.n_chunks and doc.n_vectors < doc.n_chunks:
        return "의미 검색 준비 중"
    return "검색 가능"


def _matches(word: str, hay: str) -> bool:
    """A filter word in a row's text: one or two digits must be a whole number there (a field "24", a code part),
    anything else a substring ("교량", "142010", "2021")."""
    if word.isdigit() and len(word) <= 2:
        return f" {word} " in f" {hay} "
    return word in hay


class LibraryPanel(QWidget):
    """Documents, progress, actions and the clause tree of the selected document."""

    add_clicked = Signal()
    remove_requested = Signal(list)  # files
    reindex_requested = Signal(list)
    cancel_requested = Signal()
    outline_requested = Signal(str)  # file
    clause_activated = Signal(str, int)  # file, 0-based page (-1: none)
    selection_changed = Signal(list)  # doc codes of the selected documents

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dense_available = False
        self._docs: list[DocInfo] = []
        self._shape: tuple[tuple[str, str, str, str, str], ...] = ()
        self._file_items: dict[str, QTreeWidgetItem] = {}
        self._unfolded: set[str] = set()  # fields the filter unfolded (folded again when it is cleared)
        self._rows: list[tuple[QTreeWidgetItem, list[tuple[QTreeWidgetItem, str]]]] = []  # field, (row, text)

        self.filter = QLineEdit()
        self.filter.setPlaceholderText("거르기: 코드·제목·분야·연도 (예: 교량, 14 20, 2021)")
        self.filter.setClearButtonEnabled(True)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self.apply_filter)
        self.filter.textChanged.connect(lambda _t: self._filter_timer.start())
        self.filter_label = QLabel()

        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(True)
        for col in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemSelectionChanged.connect(self._selection)

        self.add_button = QPushButton("추가…")
        self.add_button.setToolTip("PDF·HWPX 파일이나 폴더 추가 (Ctrl+O, 또는 창에 끌어다 놓기)")
        self.remove_button = QPushButton("제거")
        self.reindex_button = QPushButton("다시 색인")
        self.add_button.clicked.connect(self.add_clicked)
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self.selected_files()))
        self.reindex_button.clicked.connect(lambda: self.reindex_requested.emit(self.selected_files()))
        buttons = QHBoxLayout()
        for b in (self.add_button, self.remove_button, self.reindex_button):
            buttons.addWidget(b)
        buttons.addStretch(1)

        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(False)
        self.progress_label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.cancel_button = QPushButton("취소")
        self.cancel_button.clicked.connect(self.cancel_requested)
        prog_row = QHBoxLayout()
        prog_row.addWidget(self.progress, 1)
        prog_row.addWidget(self.cancel_button)
        self.progress_box = QWidget()
        pv = QVBoxLayout(self.progress_box)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addWidget(self.progress_label)
        pv.addLayout(prog_row)
        self.progress_box.hide()

        self.outline = QTreeWidget()
        self.outline.setHeaderLabels(["조항"])
        self.outline.itemActivated.connect(self._clause)
        self.outline.itemClicked.connect(self._clause)

        top = QWidget()
        tv = QVBoxLayout(top)
        tv.setContentsMargins(0, 0, 0, 0)
        tv.addLayout(buttons)
        frow = QHBoxLayout()
        frow.addWidget(self.filter, 1)
        frow.addWidget(self.filter_label)
        tv.addLayout(frow)
        tv.addWidget(self.tree, 1)
        tv.addWidget(self.progress_box)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.outline)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(split)
        self._update_buttons()

    # -- documents -------------------------------------------------------------------------------------------------
    def set_documents(self, docs: Sequence[DocInfo]) -> None:
        """Show ``docs``: rows updated in place when only statuses changed, else the tree is rebuilt."""
        self._docs = list(docs)
        shape = tuple(sorted((d.file, d.doc_code, d.year, d.kind, d.title) for d in docs))
        if shape == self._shape and set(self._file_items) == {d.file for d in docs}:
            for d in docs:
                self._fill_file_row(self._file_items[d.file], d)
            self._update_buttons()
            return
        self._shape = shape
        self._rebuild(docs)

    def _rebuild(self, docs: Sequence[DocInfo]) -> None:
        selected = set(self.selected_files())
        expanded = {self._key(self.tree.topLevelItem(i)) for i in range(self.tree.topLevelItemCount())
                    if (it := self.tree.topLevelItem(i)) is not None and it.isExpanded()}
        first_build = not self._file_items and self.tree.topLevelItemCount() == 0
        self._bulk(True)
        self.tree.blockSignals(True)
        self._file_items = {}  # drop the Python wrappers while their items still exist, then delete the items
        self._rows = []
        self.tree.clear()
        standards: dict[str, list[DocInfo]] = {}
        for d in sorted(docs, key=lambda d: (d.doc_code or "~", d.year, d.kind, d.file)):
            standards.setdefault(d.doc_code or PurePath(d.file).name, []).append(d)
        fields: dict[str, list[tuple[str, list[DocInfo]]]] = {}
        for code, members in standards.items():
            fields.setdefault(field_label(members[0].doc_code), []).append((code, members))
        for label in sorted(fields, key=lambda f: (f == "기타", f)):
            group = QTreeWidgetItem([label, "", "", "", "", ""])
            group.setData(0, KIND_ROLE, "field")
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            self.tree.addTopLevelItem(group)
            for code, members in fields[label]:
                if len(members) == 1:
                    group.addChild(self._file_row(members[0], selected))
                    continue
                title = next((m.title for m in members if m.title), "")
                years = sorted({m.year for m in members if m.year})
                std = QTreeWidgetItem([code, " · ".join(years), "", "", f"{len(members)}개 파일", title])
                std.setData(0, KIND_ROLE, "standard")
                group.addChild(std)
                for d in members:
                    std.addChild(self._file_row(d, selected))
                std.setExpanded(True)
            group.setExpanded((first_build and len(fields) <= 3) or label in expanded)
            rows = [(c, self._haystack(c, label)) for k in range(group.childCount()) if (c := group.child(k))]
            self._rows.append((group, rows))
        self.tree.blockSignals(False)
        self.apply_filter(bulk=False)
        self._bulk(False)
        self._update_buttons()

    def _bulk(self, on: bool) -> None:
        """Around a bulk change: no repaint and no column fitting per row (fitting every row on each change is
        quadratic); the columns are fitted once afterwards."""
        header = self.tree.header()
        mode = QHeaderView.ResizeMode.Fixed if on else QHeaderView.ResizeMode.ResizeToContents
        for col in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(col, mode)
        self.tree.setUpdatesEnabled(not on)

    @staticmethod
    def _key(item: QTreeWidgetItem | None) -> str:
        return item.text(0) if item is not None else ""

    def _file_row(self, d: DocInfo, selected: set[str]) -> QTreeWidgetItem:
        item = QTreeWidgetItem([d.doc_code or "(코드 없음)", d.year, d.kind.upper(), str(d.n_pages or ""), "", ""])
        item.setData(0, FILE_ROLE, d.file)
        item.setData(0, KIND_ROLE, "file")
        self._fill_file_row(item, d)
        self._file_items[d.file] = item
        if d.file in selected:
            item.setSelected(True)
        return item

    def _fill_file_row(self, item: QTreeWidgetItem, d: DocInfo) -> None:
        status = status_text(d, self.dense_available)
        if item.text(STATUS_COL) != status:
            item.setText(STATUS_COL, status)
            item.setForeground(STATUS_COL, QBrush(QColor(STATUS_COLOURS.get(status, "#000000"))))
        title = f"{PurePath(d.file).name} — {d.message}" if d.status == "failed" and d.message else (
            d.title or PurePath(d.file).name)
        if item.text(TITLE_COL) != title:
            item.setText(TITLE_COL, title)
        item.setText(3, str(d.n_pages or ""))
        tip = d.file + (f"\n{d.message}" if d.message else "")
        if item.toolTip(0) != tip:
            for col in range(len(COLUMNS)):
                item.setToolTip(col, tip)

    # -- filter ----------------------------------------------------------------------------------------------------
    def apply_filter(self, bulk: bool = True) -> None:
        """Hide the standards that do not contain every word of the filter box (in code, title, field or year);
        fields show how many of their standards are shown. Clearing the filter folds the fields it unfolded."""
        words = [w.lower() for w in self.filter.text().split()]
        shown_std = total_std = 0
        if bulk:
            self._bulk(True)
        for group, rows in self._rows:
            label = group.text(0)
            visible = 0
            for row, hay in rows:
                ok = all(_matches(w, hay) for w in words)
                if row.isHidden() == ok:
                    row.setHidden(not ok)
                visible += ok
            total_std += len(rows)
            shown_std += visible
            if group.isHidden() != (visible == 0):
                group.setHidden(visible == 0)
            group.setText(4, f"기준 {visible}/{len(rows)}" if words else f"기준 {len(rows)}")
            if words and visible and not group.isExpanded():
                group.setExpanded(True)
                self._unfolded.add(label)
            elif not words and label in self._unfolded:
                group.setExpanded(False)
        if not words:
            self._unfolded.clear()
        if bulk:
            self._bulk(False)
        self.filter_label.setText(f"{shown_std}/{total_std}" if words else f"기준 {total_std}")

    @staticmethod
    def _haystack(row: QTreeWidgetItem, field: str) -> str:
        parts = [field, row.text(0), row.text(0).replace(" ", ""), row.text(1), row.text(TITLE_COL)]
        for k in range(row.childCount()):
            c = row.child(k)
            if c is not None:
                parts += [c.text(1), c.text(2), c.text(TITLE_COL)]
        f = row.data(0, FILE_ROLE)
        if f:
            parts.append(PurePath(str(f)).name)
        return " ".join(parts).lower()

    def documents(self) -> list[DocInfo]:
        return list(self._docs)

    def file_items(self) -> list[QTreeWidgetItem]:
        return list(self._file_items.values())

    def select_file(self, file: str) -> None:
        """Select one document (its clause tree loads)."""
        item = self._file_items.get(file)
        if item is not None:
            self.tree.setCurrentItem(item)
            item.setSelected(True)

    def selected_files(self) -> list[str]:
        """Files of the selected rows: a file, a standard's files, or every shown standard of a selected field."""
        files: list[str] = []

        def collect(item: QTreeWidgetItem) -> None:
            f = item.data(0, FILE_ROLE)
            if f:
                files.append(str(f))
                return
            for k in range(item.childCount()):
                child = item.child(k)
                if child is not None and not child.isHidden():
                    collect(child)

        for item in self.tree.selectedItems():
            collect(item)
        return list(dict.fromkeys(files))

    def selected_codes(self) -> list[str]:
        files = set(self.selected_files())
        return list(dict.fromkeys(d.doc_code for d in self._docs if d.file in files and d.doc_code))

    def _selection(self) -> None:
        self._update_buttons()
        files = self.selected_files()
        self.selection_changed.emit(self.selected_codes())
        if len(files) == 1:
            self.outline_requested.emit(files[0])

    def _update_buttons(self) -> None:
        has = bool(self.selected_files())
        busy = self.progress_box.isVisible()
        self.remove_button.setEnabled(has and not busy)
        self.reindex_button.setEnabled(has and not busy)

    # -- progress --------------------------------------------------------------------------------------------------
    def set_indexing(self, running: bool) -> None:
        self.progress_box.setVisible(running)
        self.cancel_button.setEnabled(running)
        if running:
            self.progress.setRange(0, 0)
            self.progress_label.setText("색인 준비 중…")
        self._update_buttons()

    def show_progress(self, p: Progress) -> None:
        if p.total:
            self.progress.setRange(0, p.total)
            self.progress.setValue(min(p.done, p.total))
            self.progress.setFormat(f"{p.done}/{p.total}")
        else:
            self.progress.setRange(0, 0)
        detail = p.detail or p.stage
        name = PurePath(detail).name if ("/" in detail or "\\" in detail) else detail
        count = f" ({p.done}/{p.total})" if p.total else ""
        text = f"{name}{count}"
        metrics = self.progress_label.fontMetrics()
        self.progress_label.setText(metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, max(80, self.width() - 20)))
        self.progress_label.setToolTip(detail)

    # -- clause tree -----------------------------------------------------------------------------------------------
    def set_outline(self, file: str, entries: Sequence[tuple[tuple[str, ...], int]]) -> None:
        if self.selected_files()[:1] != [file]:
            return
        self.outline.clear()
        nodes: dict[tuple[str, ...], QTreeWidgetItem] = {}
        for path, page in entries:
            for depth in range(1, len(path) + 1):
                key = path[:depth]
                if key in nodes:
                    continue
                parent = nodes.get(path[: depth - 1])
                item = QTreeWidgetItem([key[-1]])
                item.setData(0, FILE_ROLE, file)
                item.setData(0, PAGE_ROLE, page)
                if parent is None:
                    self.outline.addTopLevelItem(item)
                else:
                    parent.addChild(item)
                nodes[key] = item
        self.outline.expandToDepth(0)

    def _clause(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        file = item.data(0, FILE_ROLE)
        page = item.data(0, PAGE_ROLE)
        if file:
            self.clause_activated.emit(str(file), int(page) if page is not None else -1)
