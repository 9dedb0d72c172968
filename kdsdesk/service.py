"""The ``Library`` facade that both the CLI and the GUI use: open a library folder, add/remove files, search, ask.

Long operations are generators of ``Progress`` that return their result (``yield from`` / ``StopIteration.value``);
closing the generator between yields cancels them, leaving the library consistent.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from kdsdesk import config, paths
from kdsdesk.errors import KnownError
from kdsdesk.records import Answer, Chunk, DocInfo, Hit, IndexReport, Progress

log = logging.getLogger(__name__)
T = TypeVar("T")


def drain(gen: Generator[Any, None, T]) -> T:
    """Run a long operation to its end without showing its progress; return its result."""
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def check_library_folder(root: Path) -> None:
    """Create ``root`` if needed and prove a file can be written there; else ``KnownError`` in Korean
    (read-only folder, no permission, a OneDrive folder that is not available offline …)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except PermissionError as exc:
        raise KnownError(
            "라이브러리 폴더에 쓸 수 없습니다(읽기 전용이거나 권한이 없음). 폴더의 읽기 전용 속성을 해제하거나 "
            "쓰기 가능한 폴더를 --library로 지정하세요.",
            path=str(root),
        ) from exc
    except OSError as exc:
        raise KnownError(f"라이브러리 폴더를 만들거나 쓸 수 없습니다: {exc.strerror or exc}", path=str(root)) from exc


class Library:
    """One library folder: catalog (SQLite), lexical index (Tantivy), dense vectors, settings, unanswered log."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = paths.library_dir(root)
        check_library_folder(self.root)
        self.settings = config.load(self.root / "settings.json")
        from kdsdesk.index.library import Catalog

        self.catalog = Catalog(self.root)

    # -- documents -------------------------------------------------------------------------------------------
    def add(self, sources: Sequence[Path | str]) -> Generator[Progress, None, IndexReport]:
        """Index files and folders (PDF, HWPX): unchanged files skipped by hash, changed replaced, failures recorded."""
        from kdsdesk.index.indexer import add_files

        return (yield from add_files(self.catalog, [Path(s) for s in sources]))

    def remove(self, sources: Sequence[Path | str]) -> int:
        return self.catalog.remove([Path(s) for s in sources])

    def documents(self) -> list[DocInfo]:
        return self.catalog.documents()

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self.catalog.chunk(chunk_id)

    def outline(self, file: Path | str) -> list[tuple[tuple[str, ...], int]]:
        """Clause paths of one document in reading order, each with its first page (0-based; -1 for HWPX)."""
        target = str(file)
        out: dict[tuple[str, ...], int] = {}
        for c in self.catalog.iter_chunks(target):
            if c.clause_path and c.clause_path not in out:
                out[c.clause_path] = c.pages[0] if c.pages else -1
        return list(out.items())

    # -- search and answers ------------------------------------------------------------------------------------
    def search(
        self, query: str, k: int = 20, doc_codes: Sequence[str] | None = None, dense: bool | None = None
    ) -> list[Hit]:
        """Top ``k`` hits; ``dense`` None = as the settings say, False = lexical only (``--lexical``)."""
        from kdsdesk.retrieve.hybrid import search

        use_dense = self.settings.dense_enabled if dense is None else dense and self.settings.dense_enabled
        return search(self.catalog, query, k=k, doc_codes=doc_codes, dense=use_dense)

    def ask(
        self,
        question: str,
        llm: str | None = None,
        on_token: Callable[[str], None] | None = None,
        doc_codes: Sequence[str] | None = None,
        remember: bool = True,
    ) -> Answer:
        """Answer a question: retrieve, answer (LLM or extractive), verify. ``llm``: a GGUF path, "none" or None.
        A question that ends restricted or unverified goes to the unanswered list unless ``remember`` is False
        (evaluation runs)."""
        from kdsdesk.answer.pipeline import answer_question

        hits = self.search(question, k=20, doc_codes=doc_codes)
        answer = answer_question(question, hits, llm=llm or self.settings.llm_path or None, on_token=on_token)
        if remember and answer.status in ("restricted", "unverified"):
            self.catalog.log_unanswered(question, answer.status)
        return answer

    # -- dense vectors in the background -----------------------------------------------------------------------
    def encode_pending(self) -> Generator[Progress, None, int]:
        """Compute dense vectors for chunks that have none (checkpointed; resumable). Returns chunks encoded."""
        from kdsdesk.index.dense import encode_pending

        return (yield from encode_pending(self.catalog, threads=self.settings.effective_threads()))

    def warm_up(self) -> None:
        """Load the Korean analyser now. Kiwi holds the GIL while it loads (seconds): the GUI calls this once
        before its event loop runs, with a message on screen, so no later search or indexing freezes the window."""
        from kdsdesk.text.korean import warm_up

        warm_up()

    def close(self) -> None:
        self.catalog.close()
