"""The library panel: documents grouped by standard, indexing progress with cancel, remove/re-index, clause tree.

Pure view: it shows ``DocInfo`` lists and ``Progress`` records and emits requests; the controller does the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from kdsdesk.records import DocInfo, Progress

FILE_ROLE = Qt.ItemDataRole.UserRole
PAGE_ROLE = Qt.ItemDataRole.UserRole + 1
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
        selected = set(self.selected_files())
        self._docs = list(docs)
        self.tree.blockSignals(True)
        self.tree.clear()
        groups: dict[str, list[DocInfo]] = {}
        for d in sorted(docs, key=lambda d: (d.doc_code or "~", d.year, d.kind, d.file)):
            groups.setdefault(d.doc_code or PurePath(d.file).name, []).append(d)
        for code, members in groups.items():
            title = next((m.title for m in members if m.title), "")
            group = QTreeWidgetItem([code, "", "", "", f"{len(members)}개 파일", title])
            font = group.font(0)
            font.setBold(True)
            group.setFont(0, font)
            self.tree.addTopLevelItem(group)
            for d in members:
                status = status_text(d, self.dense_available)
                item = QTreeWidgetItem(
                    [d.doc_code or "(코드 없음)", d.year, d.kind.upper(), str(d.n_pages or ""), status,
                     d.title or PurePath(d.file).name]
                )
                item.setData(0, FILE_ROLE, d.file)
                tip = d.file + (f"\n{d.message}" if d.message else "")
                for col in range(len(COLUMNS)):
                    item.setToolTip(col, tip)
                item.setForeground(STATUS_COL, QBrush(QColor(STATUS_COLOURS.get(status, "#000000"))))
                if d.status == "failed" and d.message:
                    item.setText(TITLE_COL, f"{PurePath(d.file).name} — {d.message}")
                group.addChild(item)
                if d.file in selected:
                    item.setSelected(True)
            group.setExpanded(True)
        self.tree.blockSignals(False)
        self._update_buttons()

    def documents(self) -> list[DocInfo]:
        return list(self._docs)

    def file_items(self) -> list[QTreeWidgetItem]:
        out: list[QTreeWidgetItem] = []
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group is not None:
                out.extend(c for k in range(group.childCount()) if (c := group.child(k)) is not None)
        return out

    def select_file(self, file: str) -> None:
        """Select one document (its clause tree loads)."""
        for item in self.file_items():
            if item.data(0, FILE_ROLE) == file:
                self.tree.setCurrentItem(item)
                item.setSelected(True)
                return

    def selected_files(self) -> list[str]:
        files: list[str] = []
        for item in self.tree.selectedItems():
            f = item.data(0, FILE_ROLE)
            if f:
                files.append(str(f))
            else:  # a group: all its files
                for k in range(item.childCount()):
                    child = item.child(k)
                    if child is not None:
                        files.append(str(child.data(0, FILE_ROLE)))
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
