"""Adding files to a library: expand folders, skip unchanged files, parse in a worker process, chunk, tokenise,
write Tantivy then the catalog — one file at a time, so killing the process loses at most the file in progress.
The parts of a standard split over several files (``KDS143110``, ``KDS143110-1`` …) are indexed in order, and the
text before a part's first heading continues the clause that ended the previous part (``text.chunk``).

A file is re-indexed when its content hash, its parser version (parser module ``version()`` or ``PARSER_VERSION``
— the PDF parser's includes the OCR engine and model — + chunker ``CHUNKER_VERSION``) or the tokenizer version
changed. Failures (``KnownError`` from the parser, a parser bug, a
time-out) are recorded with a Korean message and the run goes on. The next file is parsed in the background
while the current one is tokenised (the parser runs in its own process).
"""

from __future__ import annotations

import importlib
import logging
import queue
import re
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from kdsdesk.errors import KnownError
from kdsdesk.index.library import Catalog
from kdsdesk.index.terms import lexdocs
from kdsdesk.records import FileKind, IndexReport, ParsedDoc, Progress

log = logging.getLogger(__name__)

SUFFIXES = (".pdf", ".hwpx")
# Also taken from folders so that each is reported (HWP 5 binaries fail with "한글에서 HWPX/PDF로 저장" advice)
# instead of being skipped without a word.
FOLDER_SUFFIXES = (*SUFFIXES, ".hwp")
BUG_MESSAGE = "파일을 분석하는 중 프로그램 내부 오류가 발생했습니다. 로그를 개발자에게 보내 주세요."

Parser = Callable[[Path], ParsedDoc]
_PART = re.compile(r"^(?P<base>.+?)[-_](?P<no>\d{1,2})$")  # KDS143110-3: the third part of KDS143110


def _part(f: Path) -> tuple[str, int]:
    """(base stem, part number) of a file: ``KDS143110-3.pdf`` → ("KDS143110", 3); a whole file is part 0."""
    m = _PART.match(f.stem)
    return (m.group("base"), int(m.group("no"))) if m else (f.stem, 0)


def previous_part(f: Path) -> list[Path]:
    """Files that would hold the part before ``f`` (``KDS143110-2`` → ``KDS143110-1``; ``-1`` → ``KDS143110``)."""
    base, no = _part(f)
    if no == 0:
        return []
    stems = [f"{base}-{no - 1}", f"{base}_{no - 1}"] if no > 1 else [base]
    return [f.with_name(stem + suffix) for stem in stems for suffix in SUFFIXES]


def _lead(catalog: Catalog, f: Path, parsed: ParsedDoc) -> tuple[str, tuple[str, ...]] | None:
    """The clause that ended the previous part of the same standard, when the library holds it."""
    for prev in previous_part(f):
        row = catalog.file_row(str(prev))
        if row is None or row["status"] != "searchable" or row["doc_code"] != parsed.doc.doc_code:
            continue
        last = None
        for c in catalog.iter_chunks(str(prev)):
            if c.clause:
                last = (c.clause, c.clause_path)
        return last
    return None


def parser_version(kind: str) -> str:
    """Version of the parser for ``kind`` and of the chunker (``"0"`` where a module declares none)."""
    try:
        mod = importlib.import_module(f"kdsdesk.ingest.{kind}")
        own = getattr(mod, "version", None)  # a parser whose output also depends on an engine (PDF: the OCR)
        pv = str(own()) if callable(own) else str(getattr(mod, "PARSER_VERSION", "0"))
    except ImportError:
        pv = "0"
    from kdsdesk.text import chunk

    return f"{kind}-{pv}+chunk-{getattr(chunk, 'CHUNKER_VERSION', '0')}"


def tokenizer_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from kdsdesk.index.lexical import LEXICAL_SCHEMA_VERSION
    from kdsdesk.index.terms import TERMS_VERSION
    from kdsdesk.text.korean import TOKENIZER_VERSION

    try:
        kiwi = version("kiwipiepy")
    except PackageNotFoundError:
        kiwi = "?"
    return f"tok-{TOKENIZER_VERSION}+kiwi-{kiwi}+lex-{LEXICAL_SCHEMA_VERSION}+terms-{TERMS_VERSION}"


def expand(paths: Sequence[Path]) -> list[Path]:
    """Files to index: given files as they are, folders searched recursively for PDF/HWPX (and HWP, to report them);
    order kept, no repeats."""
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        p = Path(p).expanduser().resolve()
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in FOLDER_SUFFIXES)
        else:
            found = [p]
        for f in found:
            if f not in seen:
                seen.add(f)
                out.append(f)
    return out


PROGRESS_POLL_S = 0.25  # while a file is parsed, its worker's progress (OCR) is passed on this often


Event = tuple[str, str, int, int]  # file name, stage, done, total


def _latest(events: queue.SimpleQueue[Event], name: str) -> Iterator[Progress]:
    """The newest progress event of file ``name`` (older ones and other files' are dropped)."""
    latest = None
    while not events.empty():
        event = events.get()
        if event[0] == name:
            latest = event
    if latest is not None:
        yield Progress(latest[1], latest[2], latest[3], name)


def _isolated(events: queue.SimpleQueue[Event], cancel: threading.Event) -> Parser:
    """The isolated parser reporting its worker's progress to ``events`` and killed when ``cancel`` is set."""

    def parse(path: Path) -> ParsedDoc:
        from kdsdesk.ingest.isolate import parse_isolated

        def report(stage: str, done: int, total: int) -> None:
            events.put((path.name, stage, done, total))

        return parse_isolated(path, progress=report, cancel=cancel)

    return parse


def add_files(
    catalog: Catalog, paths: Sequence[Path], parse: Parser | None = None
) -> Generator[Progress, None, IndexReport]:
    """Index ``paths`` (files and folders) into ``catalog``; yields one ``Progress`` per file (and, while a file's
    lettering is read by OCR in the worker, its progress); returns the report. Closing the generator stops the
    worker process at once.

    ``parse`` replaces the isolated parser (tests use synthetic documents).
    """
    with catalog.writing():  # one writer per library; repairs a dead writer's leftovers first
        catalog.lexical  # noqa: B018 — a damaged index is reported now, before any file is skipped as unchanged
        try:
            return (yield from _add_files(catalog, paths, parse))
        finally:
            catalog.save_sources()


def _add_files(
    catalog: Catalog, paths: Sequence[Path], parse: Parser | None
) -> Generator[Progress, None, IndexReport]:
    from kdsdesk.hashing import sha256_of
    from kdsdesk.ingest.sniff import sniff
    from kdsdesk.text.chunk import chunk_document

    events: queue.SimpleQueue[Event] = queue.SimpleQueue()
    cancel = threading.Event()
    parse_fn = parse or _isolated(events, cancel)
    files = expand(paths)
    tok_v = tokenizer_version()
    added: list[str] = []
    replaced: list[str] = []
    skipped: list[str] = []
    failed: list[tuple[str, str]] = []
    duplicates: list[tuple[str, str]] = []
    total = len(files)
    # decide what needs work (cheap: hashes and versions) before any parsing
    todo: list[tuple[Path, FileKind, str, bool]] = []  # path, kind, sha, existed
    for i, f in enumerate(files):
        key = str(f)
        yield Progress("확인", i, total, f.name)
        try:
            kind = sniff(f)
            sha = sha256_of(f)
        except KnownError as exc:
            failed.append((key, exc.message))
            _record_unreadable(catalog, f, exc.message)
            continue
        row = catalog.file_row(key)
        pv = parser_version(kind)
        if (
            row is not None
            and row["status"] == "searchable"
            and row["sha256"] == sha
            and row["parser_version"] == pv
            and row["tokenizer_version"] == tok_v
        ):
            skipped.append(key)
            _touch_if_moved(catalog, f, row)
            continue
        dup = (
            catalog.db()
            .execute("SELECT path FROM files WHERE sha256 = ? AND status = 'searchable' AND path != ?", (sha, key))
            .fetchone()
        )
        if dup is not None:  # one content at several paths: each listed, indexed once
            st = f.stat()
            catalog.add_alias(key, str(dup[0]), st.st_size, st.st_mtime)
            duplicates.append((key, str(dup[0])))
            continue
        todo.append((f, kind, sha, row is not None and row["status"] == "searchable"))
    if any(_part(t[0])[1] for t in todo):  # a standard split over files: each part after the one it continues
        todo.sort(key=lambda t: (str(t[0].parent), *_part(t[0])))

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kdsdesk-parse")
    futures: list[Future[ParsedDoc]] = []
    try:
        if todo:
            futures.append(pool.submit(parse_fn, todo[0][0]))
        for i, (f, kind, sha, existed) in enumerate(todo):
            key = str(f)
            yield Progress("색인", i, len(todo), f.name)
            try:
                st = f.stat()
            except OSError:
                failed.append((key, "파일을 찾을 수 없습니다(색인 도중 옮겨지거나 지워짐)."))
                continue
            file_id = catalog.begin_file(key, kind, sha, st.st_size, st.st_mtime)
            if i + 1 < len(todo):
                futures.append(pool.submit(parse_fn, todo[i + 1][0]))
            pv = parser_version(kind)
            try:
                while True:
                    try:
                        parsed = futures[i].result(timeout=PROGRESS_POLL_S)
                    except FutureTimeout:
                        yield from _latest(events, f.name)
                        continue
                    yield from _latest(events, f.name)
                    break
            except KnownError as exc:
                catalog.fail_file(file_id, exc.message, sha, pv)
                failed.append((key, exc.message))
                continue
            except RuntimeError as exc:  # a parser bug reported by the worker: log it, record it, go on
                log.error("parser bug on %s: %s", key, exc)
                catalog.fail_file(file_id, BUG_MESSAGE, sha, pv)
                failed.append((key, BUG_MESSAGE))
                continue
            try:
                chunks = chunk_document(parsed, _lead(catalog, f, parsed))
                catalog.lexical.replace_file(key, lexdocs(chunks))
            except KnownError as exc:
                catalog.fail_file(file_id, exc.message, sha, pv)
                failed.append((key, exc.message))
                continue
            except Exception:
                log.exception("chunking/tokenising %s failed", key)
                catalog.fail_file(file_id, BUG_MESSAGE, sha, pv)
                failed.append((key, BUG_MESSAGE))
                continue
            catalog.finish_file(file_id, parsed, chunks, pv, tok_v)
            (replaced if existed else added).append(key)
        yield Progress("색인", len(todo), len(todo), "완료")
    finally:
        cancel.set()  # a parse still running in a worker (this file's or the prefetched next one's) is killed
        for fut in futures:
            fut.cancel()
        pool.shutdown(wait=False, cancel_futures=True)  # a cancelled run does not wait for a prefetched parse
    return IndexReport(tuple(added), tuple(replaced), tuple(skipped), tuple(failed), tuple(duplicates))


def _touch_if_moved(catalog: Catalog, f: Path, row: dict[str, object]) -> None:
    """Same content, new size/mtime on record (a copy over it, a touch): the fresh-source check stays quiet."""
    try:
        st = f.stat()
    except OSError:
        return
    if st.st_size != row["size"] or st.st_mtime != row["mtime"]:
        catalog.touch_file(str(f), st.st_size, st.st_mtime)


def _record_unreadable(catalog: Catalog, f: Path, message: str) -> None:
    """A file we cannot even open or sniff: recorded as failed when it exists (so the library panel shows it)."""
    if not f.is_file():
        return
    try:
        st = f.stat()
    except OSError:
        return
    kind: FileKind = "hwpx" if f.suffix.lower() == ".hwpx" else "pdf"
    file_id = catalog.begin_file(str(f), kind, "", st.st_size, st.st_mtime)
    catalog.fail_file(file_id, message, "", "")


def stale_files(catalog: Catalog) -> list[Path]:
    """Searchable files indexed by another parser or tokenizer version (to re-add); one catalog query."""
    tok_v = tokenizer_version()
    parser_v: dict[str, str] = {}
    out = []
    for path, kind, pv, tv in catalog.index_versions():
        if kind not in parser_v:
            parser_v[kind] = parser_version(kind)
        if tv != tok_v or pv != parser_v[kind]:
            out.append(Path(path))
    return out
