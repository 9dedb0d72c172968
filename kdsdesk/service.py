"""The facade that both the CLI and the GUI use: the ``Library`` (open a library folder, add/remove files, search,
ask, encode) and the operations outside one library (parse a single file, check the environment, index packs).

Long operations are generators of ``Progress`` that return their result (``yield from`` / ``StopIteration.value``);
closing the generator between yields cancels them, leaving the library consistent. The entry points (``cli``,
``ui``) and ``evaluation`` reach the stages only through here.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kdsdesk import config, paths
from kdsdesk.errors import KnownError
from kdsdesk.records import Answer, Chunk, DocInfo, Hit, IndexReport, ParsedDoc, Progress

if TYPE_CHECKING:
    from kdsdesk.index.pack import PackInfo
    from kdsdesk.models.manifest import ModelReport
    from kdsdesk.retrieve.hybrid import Stages

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


def library_damage(root: Path | str | None = None) -> list[Any]:
    """Every damage of the library folder (``kdsdesk.index.health.Damage``); ``[]`` when healthy."""
    from kdsdesk.index.health import check_library

    return check_library(paths.library_dir(root))


def repair_library(root: Path | str | None = None) -> Generator[Progress, None, Any]:
    """Repair the library folder (damaged parts moved to ``backup/``, then rebuilt); returns a ``RepairReport``."""
    from kdsdesk.index.health import repair_library as _repair

    return (yield from _repair(paths.library_dir(root)))


def cited_files(answer: Answer) -> list[str]:
    """The files an answer rests on: its citations' files, or (with none) those of the first three hits shown."""
    files = [c.chunk.doc.file for c in answer.citations] or [h.chunk.doc.file for h in answer.hits[:3]]
    return list(dict.fromkeys(files))


class Library:
    """One library folder: catalog (SQLite), lexical index (Tantivy), dense vectors, settings, unanswered log."""

    def __init__(self, root: Path | str | None = None) -> None:
        from kdsdesk.index.library import DB_NAME, Catalog

        self.root = paths.library_dir(root)
        read_only = False
        try:
            check_library_folder(self.root)
        except KnownError:
            if not (self.root / DB_NAME).is_file():
                raise
            read_only = True  # a library on a read-only medium or share: list, search and ask still work
            log.warning("library folder %s is not writable: opened read-only", self.root)
        self.settings = config.load(self.root / "settings.json")
        self.catalog = Catalog(self.root, read_only=read_only)

    @property
    def read_only(self) -> bool:
        return self.catalog.read_only

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

        return search(self.catalog, query, k=k, doc_codes=doc_codes, dense=self._dense(dense))

    def search_stages(
        self, query: str, k: int = 20, doc_codes: Sequence[str] | None = None, dense: bool | None = None
    ) -> Stages:
        """The hits with the candidates of each retrieval stage (lexical, fused pool), for evaluation."""
        from kdsdesk.retrieve.hybrid import search_stages

        return search_stages(self.catalog, query, k=k, doc_codes=doc_codes, dense=self._dense(dense))

    def _dense(self, asked: bool | None) -> bool:
        return self.settings.dense_enabled if asked is None else asked and self.settings.dense_enabled

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
        answer = self.check_sources(answer)
        if remember and answer.status in ("restricted", "unverified"):
            self.catalog.log_unanswered(question, answer.status)
        return answer

    def unanswered(self) -> list[tuple[str, int, str, str]]:
        """Questions that ended restricted/unverified: (question, count, last asked, last status)."""
        return self.catalog.unanswered()

    def check_sources(self, answer: Answer) -> Answer:
        """The ``source_fresh`` check: the cited files (or, with no citation, the evidence shown) still have the
        size and modification time they were indexed with. A changed or missing file turns the answer into a
        warning that asks for re-indexing (``kdsdesk.verify.policy``)."""
        import dataclasses

        from kdsdesk.verify.policy import add_checks, stale_reason

        stale = self.catalog.source_changes(cited_files(answer))
        verdict = add_checks(answer.verdict, {"source_fresh": not stale}, stale_reason(stale))
        return dataclasses.replace(answer, verdict=verdict)

    def outdated_files(self) -> list[str]:
        """Searchable files indexed by another parser, tokenizer or index layout than this version's (after an
        upgrade): their text may be missing from search until they are indexed again."""
        from kdsdesk.index.indexer import stale_files

        return [str(p) for p in stale_files(self.catalog)]

    def stale_sources(self) -> dict[str, str]:
        """Searchable files changed (``"changed"``) or gone (``"missing"``) since they were indexed."""
        return self.catalog.source_changes([d.file for d in self.documents() if d.status == "searchable"])

    # -- dense vectors in the background -----------------------------------------------------------------------
    def encoder_status(self) -> tuple[bool, str]:
        """(ready?, Korean explanation) of the dense encoder this library's settings point to."""
        from kdsdesk.index.encoder import encoder_status

        return encoder_status(self.settings.encoder_dir)

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


# -- outside one library ---------------------------------------------------------------------------------------
def expand_sources(sources: Sequence[Path | str]) -> list[Path]:
    """Files and folders → the supported files in them (folders recursively, in a stable order)."""
    from kdsdesk.index.indexer import expand

    return expand([Path(s) for s in sources])


def parse_document(path: Path | str) -> tuple[ParsedDoc, list[Chunk]]:
    """One file parsed and cut into chunks (``kdsdesk parse``); ``KnownError`` when unreadable. The parse runs in
    the worker process with the same time and memory budget as indexing."""
    from kdsdesk.ingest.isolate import parse_isolated
    from kdsdesk.text.chunk import chunk_document

    parsed = parse_isolated(Path(path))
    return parsed, chunk_document(parsed)


def export_pack(library: Path | str | None, out: Path | str) -> PackInfo:
    """Write the library's index and vectors as one pack file."""
    from kdsdesk.index.pack import export_pack as export

    return export(paths.library_dir(library), Path(out))


def import_pack(pack: Path | str, library: Path | str | None) -> PackInfo:
    """Replace the library's index and vectors with a pack's (settings kept)."""
    from kdsdesk.index.pack import import_pack as import_

    return import_(Path(pack), paths.library_dir(library))


@dataclass(frozen=True, slots=True)
class EnvCheck:
    """One line of the environment check: ``name`` (models, encoder, llm, font, library), passed, Korean message."""

    name: str
    ok: bool
    message: str


@dataclass(frozen=True, slots=True)
class Environment:
    """What ``kdsdesk doctor`` reports: one check per part, and the model files in detail."""

    checks: tuple[EnvCheck, ...]
    models: ModelReport
    library: Path

    @property
    def failed(self) -> bool:
        """A model file is corrupt or the library folder cannot be used (the other checks only limit features)."""
        return any(c.corrupt for c in self.models.files) or not all(c.ok for c in self.checks if c.name == "library")


def korean_font() -> tuple[bool, str]:
    """Is a Korean font available to the window? Bundled ``resources/fonts`` or PyMuPDF's built-in CJK font."""
    fonts = paths.resource("fonts")
    bundled = sorted(p.name for p in fonts.glob("*.[ot]t[fc]")) if fonts.is_dir() else []
    if bundled:
        return True, f"한글 글꼴: {', '.join(bundled)}"
    try:
        import pymupdf as _pymupdf

        pymupdf: Any = _pymupdf  # untyped engine call
        if pymupdf.Font("korea").buffer:
            return True, "한글 글꼴: PyMuPDF 내장 CJK 글꼴(Droid Sans Fallback)"
    except (ImportError, RuntimeError, ValueError) as exc:
        return False, f"한글 글꼴을 찾지 못해 글자가 네모로 보일 수 있습니다 ({exc})"
    return False, "한글 글꼴을 찾지 못해 글자가 네모로 보일 수 있습니다."


def check_environment(library: Path | str | None = None, deep: bool = False) -> Environment:
    """Models (manifest, sizes, hashes, memory), encoder, LLM engine, Korean font, OCR engine and its Korean model,
    library folder. ``deep`` recomputes the model hashes without the cache (``kdsdesk doctor --verify``)."""
    from kdsdesk.index.encoder import encoder_status
    from kdsdesk.ingest import ocr
    from kdsdesk.models.check import check_models

    report = check_models(deep=deep)
    enc_ok, enc_msg = encoder_status()
    engine_ok = importlib.util.find_spec("llama_cpp") is not None
    font_ok, font_msg = korean_font()
    root = paths.library_dir(library)
    try:
        check_library_folder(root)
        lib_ok, lib_msg = True, f"라이브러리 폴더(쓰기 가능): {root}"
    except KnownError as exc:
        lib_ok, lib_msg = False, str(exc)
    if report.llm_ok and report.llm_path and engine_ok:
        llm_msg = f"LLM: {report.llm_path.name}"
        if report.ram_available_mb is not None:
            llm_msg += f" (사용 가능 메모리 {report.ram_available_mb:,} MB, 필요 {report.ram_needed_mb:,} MB)"
    elif report.llm_ok and not engine_ok:
        llm_msg = "LLM 실행 모듈(llama_cpp)이 없어 추출식 답변만 사용합니다."
    else:
        llm_msg = "LLM을 쓸 수 없어 추출식 답변만 사용합니다."
    checks = (
        EnvCheck("models", not report.problems,
                 f"모델 파일 문제 {len(report.problems)}건" if report.problems else "모델 정상"),
        EnvCheck("encoder", enc_ok, enc_msg),
        EnvCheck("llm", report.llm_ok and engine_ok, llm_msg),
        EnvCheck("font", font_ok, font_msg),
        EnvCheck("ocr", ocr.engine_version() != "none", ocr.status()),
        EnvCheck("library", lib_ok, lib_msg),
    )  # fmt: skip
    return Environment(checks, report, root)
