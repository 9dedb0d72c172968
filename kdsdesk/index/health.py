"""A library's health: find every kind of damage, explain it in Korean, and repair it without losing documents.

Damage kinds (``Damage.kind``):

- ``catalog_corrupt``: ``catalog.sqlite3`` cannot be read or fails SQLite's ``quick_check``;
- ``catalog_blank``: the catalog is 0 bytes / has no tables while the search index still holds documents;
- ``lexical_missing``: the search index folder or its ``meta.json`` is gone while the catalog has chunks;
- ``lexical_corrupt``: Tantivy cannot open or read the index (a damaged segment);
- ``lexical_mismatch``: the index holds fewer documents of a file than the catalog has chunks;
- ``interrupted``: files left ``indexing`` by a writer that is no longer alive (the next writer repairs them).

Repair (``repair_library``, a generator of ``Progress``): the damaged parts are first moved, never deleted, into
``backup/<time>/`` in the library folder; then a damaged search index is rebuilt from the catalog's chunks, and a
damaged catalog is rebuilt by indexing the source files again (paths read from the old catalog when SQLite can
still list them, else from ``sources.json``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import shutil
import sqlite3
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kdsdesk.errors import KnownError, LibraryDamaged
from kdsdesk.index.library import DB_NAME, LEXICAL_DIR, SOURCES_NAME, Catalog
from kdsdesk.records import IndexReport, ParsedDoc, Progress

log = logging.getLogger(__name__)

CATALOG_KINDS = frozenset({"catalog_corrupt", "catalog_blank"})
LEXICAL_KINDS = frozenset({"lexical_missing", "lexical_corrupt", "lexical_mismatch"})
BACKUP_DIR = "backup"
Parser = Callable[[Path], ParsedDoc]


@dataclass(frozen=True, slots=True)
class Damage:
    """One damage found: its kind, a Korean explanation, and the files it concerns (if any)."""

    kind: str
    message: str
    files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RepairReport:
    backup: str  # folder holding the damaged parts ("" when nothing had to be moved)
    rebuilt_lexical: int = 0  # files whose search documents were rebuilt from the catalog
    reindexed: IndexReport | None = None  # when the catalog was rebuilt from the source files


def check_library(root: Path) -> list[Damage]:
    """Every damage of the library in ``root`` (``[]`` when healthy). Reads only; changes nothing."""
    root = Path(root)
    if not (root / DB_NAME).exists():
        return []
    try:
        cat = Catalog(root, read_only=True)
    except LibraryDamaged as exc:
        return [Damage(exc.kind, exc.message)]
    except KnownError as exc:
        return [Damage("catalog_corrupt", exc.message)]
    try:
        return _check_open(cat)
    finally:
        cat.close()


def _check_open(cat: Catalog) -> list[Damage]:
    out: list[Damage] = []
    try:
        docs = cat.documents()
    except sqlite3.DatabaseError as exc:
        return [Damage("catalog_corrupt", f"라이브러리 목록(catalog.sqlite3)을 읽을 수 없습니다({exc}).")]
    interrupted = tuple(d.file for d in docs if d.status == "failed" and d.message.startswith("색인이 중간에"))
    stuck = cat.db().execute("SELECT COUNT(*) FROM files WHERE status = 'indexing'").fetchone()[0]
    if interrupted and stuck:
        out.append(Damage("interrupted", f"색인이 중단된 채 남은 파일 {len(interrupted)}개 — 다시 색인하면 이어서 "
                                         "처리합니다.", interrupted))  # fmt: skip
    searchable = [d for d in docs if d.status == "searchable" and d.n_chunks > 0]
    try:
        lexical = cat.lexical
        short = tuple(d.file for d in searchable if lexical.count_file(d.file) < d.n_chunks)
    except LibraryDamaged as exc:
        out.append(Damage(exc.kind, exc.message))
        return out
    if short:
        out.append(Damage(
            "lexical_mismatch",
            f"검색 색인에 문서 {len(short)}개의 내용이 빠져 있어 목록에는 있지만 검색되지 않습니다.",
            short,
        ))  # fmt: skip
    return out


def repair_library(
    root: Path, damages: Sequence[Damage] | None = None, parse: Parser | None = None
) -> Generator[Progress, None, RepairReport]:
    """Repair ``damages`` (found again when ``None``): move damaged parts to a backup folder, then rebuild.
    ``parse`` replaces the isolated parser when source files are indexed again (tests)."""
    root = Path(root)
    found = list(check_library(root) if damages is None else damages)
    kinds = {d.kind for d in found}
    if not kinds - {"interrupted"}:
        if "interrupted" in kinds:  # the writer's clean-up does it
            cat = Catalog(root)
            try:
                with cat.writing():
                    pass
            finally:
                cat.close()
        return RepairReport(backup="")
    backup = _backup_folder(root)
    if kinds & CATALOG_KINDS:
        report = yield from _rebuild_catalog(root, backup, parse)
    else:
        report = yield from _rebuild_lexical(root, backup)
    if not any(backup.iterdir()):  # nothing was left to keep (the damaged part was gone)
        backup.rmdir()
        return dataclasses.replace(report, backup="")
    return report


def _backup_folder(root: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = root / BACKUP_DIR / stamp
    n = 1
    while folder.exists():
        n += 1
        folder = root / BACKUP_DIR / f"{stamp}-{n}"
    folder.mkdir(parents=True)
    return folder


def _move(src: Path, backup: Path) -> None:
    if src.exists():
        shutil.move(str(src), str(backup / src.name))


def _rebuild_lexical(root: Path, backup: Path) -> Generator[Progress, None, RepairReport]:
    """A new search index from the catalog's chunks (the old one kept in ``backup``)."""
    from kdsdesk.index.terms import lexdocs

    _move(root / LEXICAL_DIR, backup)
    cat = Catalog(root)
    try:
        lexical = cat.fresh_lexical()
        with cat.writing():
            files = [d.file for d in cat.documents() if d.status == "searchable"]
            for i, f in enumerate(files):
                yield Progress("복구", i, len(files), Path(f).name)
                lexical.replace_file(f, lexdocs(list(cat.iter_chunks(f))))
            yield Progress("복구", len(files), len(files), "검색 색인을 다시 만들었습니다")
        return RepairReport(backup=str(backup), rebuilt_lexical=len(files))
    finally:
        cat.close()


def _old_paths(root: Path) -> list[str]:
    """Source paths the damaged catalog can still list, else those in ``sources.json``."""
    paths: list[str] = []
    db = root / DB_NAME
    with contextlib.suppress(sqlite3.Error, OSError):
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            paths = [str(r[0]) for r in conn.execute("SELECT path FROM files ORDER BY id")]
        finally:
            conn.close()
    if not paths:
        with contextlib.suppress(OSError, ValueError, TypeError):
            data = json.loads((root / SOURCES_NAME).read_text(encoding="utf-8"))
            paths = [str(p) for p in data.get("files", [])]
    return paths


def _rebuild_catalog(root: Path, backup: Path, parse: Parser | None) -> Generator[Progress, None, RepairReport]:
    """A new catalog and search index by indexing the source files again (old ones kept in ``backup``)."""
    from kdsdesk.index.indexer import add_files

    paths = _old_paths(root)
    for name in (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", LEXICAL_DIR):
        _move(root / name, backup)
    present = [Path(p) for p in paths if Path(p).is_file()]
    gone = [p for p in paths if not Path(p).is_file()]
    if gone:
        log.warning("repair: %d source file(s) no longer exist: %s", len(gone), gone[:5])
    cat = Catalog(root)
    try:
        yield Progress("복구", 0, len(present), f"원본 파일 {len(present)}개를 다시 색인합니다")
        report = yield from add_files(cat, present, parse=parse)
    finally:
        cat.close()
    if gone:
        lost = tuple((p, "원본 파일이 없어 다시 색인하지 못했습니다.") for p in gone)
        report = IndexReport(report.added, report.replaced, report.skipped, (*report.failed, *lost))
    return RepairReport(backup=str(backup), reindexed=report)
