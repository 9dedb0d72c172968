"""The library catalog: SQLite (files, chunks, unanswered questions) beside the Tantivy index, in one folder.

Files: absolute path, sha256, size, mtime, kind, doc code, title, edition year, status (``indexing`` →
``searchable`` | ``failed``), Korean failure message, parser/tokenizer/encoder versions. Chunks are stored as JSON
(``kdsdesk.index.serial``) with their clause and table number as columns for the routes.

Crash safety: a file is written as "status indexing → Tantivy commit → chunks + status searchable in one SQLite
transaction". Leftovers of a killed run (rows still ``indexing``) are repaired by the next writer — their Tantivy
documents and chunks removed and the row marked failed, so the next ``add`` indexes the file again.

One writer, many readers (``kdsdesk.index.writer_lock``): every write takes the library's writer lock (re-entrant
in one process; ``writing()`` holds it across a whole run). Opening never writes the index and never repairs:
readers see the last committed state (SQLite WAL, Tantivy reloaded when its ``meta.json`` changes) while another
process indexes, and show rows left ``indexing`` by a dead writer as interrupted without touching them. A folder
that cannot be written opens read-only (list, search, ask).

Damage (``kdsdesk.index.health``) is detected and explained, never silently emptied: a catalog SQLite cannot read
or that came back blank beside a filled lexical index ends the open in ``LibraryDamaged`` (Korean, with the repair
command); a missing lexical index while the catalog has chunks likewise when the index is first used.

Threads: every thread gets its own SQLite connection (WAL mode: reads never wait for a writer); Tantivy searches
may run on any thread while another thread writes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kdsdesk.errors import REPAIR_HINT, KnownError, LibraryDamaged
from kdsdesk.index.serial import chunk_from_dict, spans_from_blob
from kdsdesk.index.writer_lock import WriterLock
from kdsdesk.records import Chunk, DocInfo, DocRef

if TYPE_CHECKING:
    from kdsdesk.index.lexical import LexicalIndex
    from kdsdesk.records import ParsedDoc

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # 2: spans packed in chunks.spans
DB_NAME = "catalog.sqlite3"
SOURCES_NAME = "sources.json"
LEXICAL_DIR = "lexical"
INTERRUPTED_MESSAGE = "색인이 중간에 중단되었습니다. 파일을 다시 추가하면 이어서 색인합니다."
READ_ONLY_MESSAGE = (
    "라이브러리 폴더에 쓸 수 없습니다(읽기 전용이거나 권한이 없음). 검색과 질문만 할 수 있습니다. "
    "색인하려면 폴더의 읽기 전용 속성을 해제하거나 쓰기 가능한 폴더를 --library로 지정하세요."
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL DEFAULT '',
    size INTEGER NOT NULL DEFAULT 0,
    mtime REAL NOT NULL DEFAULT 0,
    kind TEXT NOT NULL DEFAULT '',
    doc_code TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    year TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'indexing',
    message TEXT NOT NULL DEFAULT '',
    parser_version TEXT NOT NULL DEFAULT '',
    tokenizer_version TEXT NOT NULL DEFAULT '',
    encoder_version TEXT NOT NULL DEFAULT '',
    n_pages INTEGER NOT NULL DEFAULT 0,
    n_chunks INTEGER NOT NULL DEFAULT 0,
    n_vectors INTEGER NOT NULL DEFAULT 0,
    updated TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    kind TEXT NOT NULL,
    clause TEXT NOT NULL DEFAULT '',
    table_no TEXT NOT NULL DEFAULT '',
    data TEXT NOT NULL,
    spans BLOB
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id, ordinal);
CREATE INDEX IF NOT EXISTS chunks_clause ON chunks(clause);
CREATE INDEX IF NOT EXISTS chunks_table ON chunks(table_no);
CREATE TABLE IF NOT EXISTS aliases (
    path TEXT PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    size INTEGER NOT NULL DEFAULT 0,
    mtime REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS unanswered (
    question TEXT PRIMARY KEY,
    count INTEGER NOT NULL DEFAULT 0,
    last_at TEXT NOT NULL,
    last_status TEXT NOT NULL
);
"""

_SQL_PARAMS = 500  # bound parameters per query (SQLite's limit is 999 in old builds)
_FILE_COLS = "path, sha256, kind, doc_code, title, year, status, message, n_pages, n_chunks, n_vectors, size, mtime, id"


def now_iso() -> str:
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


class Catalog:
    """A library folder's catalog and lexical index. ``Catalog(root)`` creates or opens it (never repairs it).

    ``read_only``: the folder cannot be written (SQLite opened read-only; every write refused in Korean).
    """

    def __init__(self, root: Path, *, read_only: bool = False) -> None:
        self.root = Path(root)
        self.read_only = read_only
        if not read_only:
            self.root.mkdir(parents=True, exist_ok=True)
        self.db_path = self.root / DB_NAME
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        self.write_lock = threading.RLock()  # one writer at a time inside this process
        self.writer = WriterLock(self.root)  # one writing process at a time
        self._lexical: LexicalIndex | None = None
        self._lex_lock = threading.Lock()
        self._cache: dict[str, Chunk] = {}
        self._light: dict[str, Chunk] = {}
        self._docs: dict[int, DocRef] = {}
        self._maintained = False
        try:
            db = self.db()
            blank = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
            check = "ok" if blank else str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
            if check != "ok":
                raise sqlite3.DatabaseError(check)
            if blank and self.lexical_present():
                raise LibraryDamaged(
                    "catalog_blank",
                    "라이브러리 목록(catalog.sqlite3)이 비어 있거나 0바이트인데 검색 색인은 남아 있습니다"
                    f"(파일이 잘리거나 덮어써진 것으로 보입니다). {REPAIR_HINT}",
                    path=str(self.db_path),
                )
            if not read_only:
                db.executescript(_SCHEMA)
                self._migrate(db)
        except sqlite3.DatabaseError as exc:
            self.close()
            raise LibraryDamaged(
                "catalog_corrupt",
                f"라이브러리 목록(catalog.sqlite3)이 손상되어 읽을 수 없습니다({exc}). {REPAIR_HINT}",
                path=str(self.db_path),
            ) from exc
        except KnownError:
            self.close()
            raise

    def lexical_present(self) -> bool:
        return (self.root / LEXICAL_DIR / "meta.json").is_file()

    # -- one writer ------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self, wait_s: float = 0.0) -> Iterator[None]:
        """Hold the library's writer lock (re-entrant). The first holder in this process repairs what a dead
        writer left; a second writing process gets a Korean ``KnownError`` after ``wait_s``."""
        if self.read_only:
            raise KnownError(READ_ONLY_MESSAGE, path=str(self.root))
        self.writer.acquire(wait_s)
        try:
            if not self._maintained:
                self._maintained = True
                self._check_lexical_version()
                self.repair()
            yield
        finally:
            self.writer.release()

    def writer_busy(self) -> bool:
        """Is another process indexing this library now?"""
        return not self.writer.held and self.writer.writer_alive()

    # -- connections -------------------------------------------------------------------------------------------
    def db(self) -> sqlite3.Connection:
        """This thread's connection (created on first use; WAL; foreign keys on)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self.read_only:
                conn = self._connect_read_only()
            else:
                conn = sqlite3.connect(self.db_path, timeout=30.0, check_same_thread=False)
                try:
                    conn.execute("PRAGMA journal_mode=WAL")
                except sqlite3.OperationalError as exc:  # a read-only catalog file in a writable folder
                    conn.close()
                    if "readonly" not in str(exc).replace(" ", "").lower():
                        raise
                    self.read_only = True
                    conn = self._connect_read_only()
                conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA mmap_size=268435456")  # chunk reads without a syscall per page (~50 per query)
            conn.execute("PRAGMA cache_size=-16000")
            self._local.conn = conn
            with self._conns_lock:
                self._conns.append(conn)
        return conn

    def _connect_read_only(self) -> sqlite3.Connection:
        """Read-only: WAL readers need the ``-shm`` file; where it cannot be made the file is read as immutable."""
        if not self.db_path.is_file():
            raise KnownError("라이브러리 목록(catalog.sqlite3)이 없습니다. 라이브러리 폴더를 확인하세요.",
                             path=str(self.root))  # fmt: skip
        uri = self.db_path.resolve().as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30.0, check_same_thread=False)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            conn.close()
            conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)
        return conn

    @property
    def lexical(self) -> LexicalIndex:
        if self._lexical is None:
            with self._lex_lock:
                if self._lexical is None:
                    from kdsdesk.index.lexical import LexicalIndex, open_failure

                    folder = self.root / LEXICAL_DIR
                    if not self.lexical_present() and self.n_searchable_chunks() > 0:
                        raise LibraryDamaged(
                            "lexical_missing",
                            "검색 색인(lexical 폴더 또는 meta.json)이 없어져 문서가 목록에는 있지만 검색되지 "
                            f"않습니다. {REPAIR_HINT}",
                            path=str(folder),
                        )
                    try:
                        self._lexical = LexicalIndex(folder, read_only=self.read_only)
                    except BaseException as exc:
                        if (reason := open_failure(exc)) is None:
                            raise
                        raise LibraryDamaged(
                            "lexical_corrupt",
                            f"검색 색인(lexical 폴더)이 손상되어 열 수 없습니다({reason}). {REPAIR_HINT}",
                            path=str(folder),
                        ) from exc
        return self._lexical

    def fresh_lexical(self) -> LexicalIndex:
        """A new, empty search index in place of a missing one (repair: the damaged one was moved to a backup)."""
        from kdsdesk.index.lexical import LexicalIndex

        folder = self.root / LEXICAL_DIR
        if folder.exists():
            raise RuntimeError(f"{folder} exists: move it away before building a fresh index")
        with self._lex_lock:
            self._lexical = LexicalIndex(folder)
        return self._lexical

    def n_searchable_chunks(self) -> int:
        row = self.db().execute("SELECT COALESCE(SUM(n_chunks), 0) FROM files WHERE status = 'searchable'").fetchone()
        return int(row[0])

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring an older catalog to ``SCHEMA_VERSION`` (newer ones are refused: the app is older than the data)."""
        from kdsdesk.errors import KnownError

        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        version = int(row[0]) if row else SCHEMA_VERSION
        if version > SCHEMA_VERSION:
            raise KnownError(
                f"이 라이브러리는 더 새로운 버전의 KDS Desk로 만들어졌습니다(형식 {version}). "
                "프로그램을 업데이트하세요.",
                path=str(self.root),
            )
        if version < 2:
            cols = {r[1] for r in db.execute("PRAGMA table_info(chunks)")}
            if "spans" not in cols:
                db.execute("ALTER TABLE chunks ADD COLUMN spans BLOB")  # old rows keep spans in their JSON
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        db.commit()

    def meta(self, key: str, default: str = "") -> str:
        row = self.db().execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def _check_lexical_version(self) -> None:
        """A lexical index of another layout is rebuilt: dropped, an empty one of this layout in its place (a
        dropped index is not damage: the files are still listed, searchable again as each is re-indexed), and every
        file marked for re-indexing."""
        from kdsdesk.index.lexical import LEXICAL_SCHEMA_VERSION, LexicalIndex

        if self.meta("lexical_schema") == LEXICAL_SCHEMA_VERSION:
            return
        folder = self.root / LEXICAL_DIR
        if self._lexical is not None:
            self._lexical.close()
            self._lexical = None
        if folder.exists():  # another layout: every file is re-indexed into a new index
            shutil.rmtree(folder, ignore_errors=True)
        if self.n_searchable_chunks() > 0:
            with self._lex_lock:
                self._lexical = LexicalIndex(folder)
        with self.write_lock:
            db = self.db()
            db.execute("UPDATE files SET tokenizer_version = ''")
            db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('lexical_schema', ?)", (LEXICAL_SCHEMA_VERSION,)
            )
            db.commit()

    def repair(self) -> int:
        """Undo what a killed run left half-done (rows still ``indexing``). Returns how many rows were repaired.

        Only the holder of the writer lock may run it (``writing()`` does, once per process): then no live
        writer owns those rows."""
        if not self.writer.held:
            raise RuntimeError("Catalog.repair needs the writer lock (use Catalog.writing())")
        rows = self.db().execute("SELECT id, path FROM files WHERE status = 'indexing'").fetchall()
        if not rows:
            return 0
        self.lexical.delete_files([p for _, p in rows])
        with self.write_lock:
            db = self.db()
            for fid, _ in rows:
                db.execute("DELETE FROM chunks WHERE file_id = ?", (fid,))
                db.execute(
                    "UPDATE files SET status = 'failed', message = ?, n_chunks = 0, n_vectors = 0, sha256 = '' "
                    "WHERE id = ?",
                    (INTERRUPTED_MESSAGE, fid),
                )
            db.commit()
        self._invalidate()
        log.warning("repaired %d file(s) left half-indexed by an interrupted run", len(rows))
        return len(rows)

    # -- documents -----------------------------------------------------------------------------------------------
    def _info(self, r: Sequence[Any]) -> DocInfo:
        return DocInfo(
            file=r[0], sha256=r[1], kind=r[2] or "pdf", doc_code=r[3], title=r[4], year=r[5], status=r[6],
            message=r[7], n_pages=r[8], n_chunks=r[9], n_vectors=r[10], size=r[11], mtime=r[12],
        )  # fmt: skip

    def documents(self) -> list[DocInfo]:
        """All files, grouped by doc code (then year, kind, path); files without a code last."""
        rows = self.db().execute(f"SELECT {_FILE_COLS} FROM files").fetchall()
        infos = [self._info(r) for r in rows]
        if any(d.status == "indexing" for d in infos) and not self.writer.held and not self.writer.writer_alive():
            import dataclasses

            infos = [  # a dead writer's leftovers, as the next writer will record them (readers change nothing)
                dataclasses.replace(d, status="failed", message=INTERRUPTED_MESSAGE) if d.status == "indexing" else d
                for d in infos
            ]
        infos += self._alias_infos(infos)
        infos.sort(key=lambda d: (d.doc_code == "", d.doc_code, d.year, d.kind, d.file))
        return infos

    def _alias_infos(self, infos: Sequence[DocInfo]) -> list[DocInfo]:
        """Other paths of an indexed file's content, each listed like it (one content hash, several paths)."""
        import dataclasses

        try:
            rows = self.db().execute(
                "SELECT a.path, a.size, a.mtime, f.path FROM aliases a JOIN files f ON f.id = a.file_id"
            ).fetchall()
        except sqlite3.OperationalError:  # a read-only catalog of an older layout
            return []
        by_path = {d.file: d for d in infos}
        out = []
        for path, size, mtime, original in rows:
            d = by_path.get(original)
            if d is not None:
                note = f"같은 내용의 파일이 이미 색인됨: {Path(original).name}"
                out.append(dataclasses.replace(d, file=path, size=size, mtime=mtime, message=note))
        return out

    def add_alias(self, path: str, original: str, size: int, mtime: float) -> None:
        """Record ``path`` as another copy of the indexed ``original`` (same content hash)."""
        with self.writing(), self.write_lock:
            db = self.db()
            row = db.execute("SELECT id FROM files WHERE path = ?", (original,)).fetchone()
            if row is None:
                return
            db.execute("DELETE FROM files WHERE path = ? AND status != 'searchable'", (path,))
            db.execute(
                "INSERT INTO aliases(path, file_id, size, mtime) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE "
                "SET file_id = excluded.file_id, size = excluded.size, mtime = excluded.mtime",
                (path, int(row[0]), size, mtime),
            )
            db.commit()

    def _promote_alias(self, file_id: int, old_path: str) -> str | None:
        """The file at ``old_path`` leaves the library: its first other copy takes its place (chunks kept, search
        documents re-keyed to the new path). Returns the new path, or ``None`` when it had no other copy."""
        from kdsdesk.index.terms import lexdocs

        db = self.db()
        row = db.execute(
            "SELECT path, size, mtime FROM aliases WHERE file_id = ? ORDER BY path LIMIT 1", (file_id,)
        ).fetchone()
        if row is None:
            return None
        new_path, size, mtime = str(row[0]), int(row[1]), float(row[2])
        with self.write_lock:
            db.execute("DELETE FROM aliases WHERE path = ?", (new_path,))
            db.execute("UPDATE files SET path = ?, size = ?, mtime = ? WHERE id = ?", (new_path, size, mtime, file_id))
            db.commit()
        self._invalidate()
        self.lexical.replace_file(new_path, lexdocs(list(self.iter_chunks(new_path))))
        self.lexical.delete_files([old_path])
        return new_path

    def documents_by_code(self) -> dict[str, list[DocInfo]]:
        """Searchable documents grouped by doc code (the same standard as PDF and HWPX, or two editions)."""
        out: dict[str, list[DocInfo]] = {}
        for d in self.documents():
            if d.status == "searchable":
                out.setdefault(d.doc_code or d.file, []).append(d)
        return out

    def file_row(self, path: str) -> dict[str, Any] | None:
        cur = self.db().execute("SELECT * FROM files WHERE path = ?", (path,))
        row = cur.fetchone()
        if row is None:
            return None
        return {d[0]: v for d, v in zip(cur.description, row, strict=True)}

    def index_versions(self) -> list[tuple[str, str, str, str]]:
        """``(path, kind, parser_version, tokenizer_version)`` of every searchable file, in one query, in the order
        of ``documents`` (code, year, kind, path)."""
        rows = self.db().execute(
            "SELECT path, kind, parser_version, tokenizer_version FROM files WHERE status = 'searchable'"
            " ORDER BY doc_code = '', doc_code, year, kind, path"
        ).fetchall()
        return [(str(r[0]), str(r[1] or "pdf"), str(r[2]), str(r[3])) for r in rows]

    def source_changes(self, files: Sequence[str]) -> dict[str, str]:
        """Of ``files`` (catalog paths), those whose size or modification time differ from what was indexed
        (``"changed"``) or that are gone (``"missing"``), in the order given. One catalog query for all."""
        wanted = list(dict.fromkeys(files))
        if not wanted:
            return {}
        indexed: dict[str, tuple[int, float]] = {}
        for i in range(0, len(wanted), _SQL_PARAMS):
            part = wanted[i:i + _SQL_PARAMS]
            marks = ",".join("?" * len(part))
            for path, size, mtime in self.db().execute(
                f"SELECT path, size, mtime FROM files WHERE path IN ({marks})", part
            ):
                indexed[str(path)] = (int(size), float(mtime))
        out: dict[str, str] = {}
        for f in wanted:
            row = indexed.get(f)
            if row is None:
                continue
            try:
                st = Path(f).stat()
            except OSError:
                out[f] = "missing"
                continue
            if st.st_size != row[0] or abs(st.st_mtime - float(row[1])) > 1e-3:
                out[f] = "changed"
        return out

    def save_sources(self) -> None:
        """Write ``sources.json``: every file path of the catalog, so a catalog lost beyond reading can be rebuilt
        from the source files (``kdsdesk doctor --repair``)."""
        paths = [str(r[0]) for r in self.db().execute("SELECT path FROM files ORDER BY id").fetchall()]
        target = self.root / SOURCES_NAME
        tmp = target.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps({"files": paths}, ensure_ascii=False, indent=0), encoding="utf-8")
            tmp.replace(target)
        except OSError as exc:
            log.warning("could not write %s: %s", target, exc)

    def touch_file(self, path: str, size: int, mtime: float) -> None:
        """Record a new size/modification time for a file whose content did not change (hash equal)."""
        with self.writing(), self.write_lock:
            db = self.db()
            db.execute("UPDATE files SET size = ?, mtime = ? WHERE path = ?", (size, mtime, path))
            db.commit()

    def doc_codes(self) -> list[str]:
        rows = self.db().execute("SELECT DISTINCT doc_code FROM files WHERE status = 'searchable'").fetchall()
        return sorted(r[0] for r in rows if r[0])

    def file_codes(self) -> dict[str, str]:
        """Searchable file → its doc code ("" when it has none)."""
        rows = self.db().execute("SELECT path, doc_code FROM files WHERE status = 'searchable'").fetchall()
        return {r[0]: r[1] or "" for r in rows}

    def editions(self) -> dict[str, tuple[str, ...]]:
        """Doc code → the edition years of its searchable files, oldest first (``retrieve.editions``)."""
        rows = self.db().execute("SELECT DISTINCT doc_code, year FROM files WHERE status = 'searchable'").fetchall()
        out: dict[str, list[str]] = {}
        for code, year in rows:
            if code:
                out.setdefault(code, []).append(year or "")
        return {c: tuple(sorted(ys)) for c, ys in out.items()}

    # -- chunks --------------------------------------------------------------------------------------------------
    def _doc(self, file_id: int) -> DocRef:
        doc = self._docs.get(file_id)
        if doc is None:
            r = (
                self.db()
                .execute("SELECT path, sha256, kind, doc_code, title, year FROM files WHERE id = ?", (file_id,))
                .fetchone()
            )
            doc = DocRef(file=r[0], sha256=r[1], kind=r[2], doc_code=r[3], title=r[4], year=r[5])
            self._docs[file_id] = doc
        return doc

    def _invalidate(self) -> None:
        self._cache.clear()
        self._light.clear()
        self._docs.clear()

    def _decode(self, row: Sequence[Any], light: bool = False) -> Chunk:
        _cid, file_id, data, blob = row
        spans = () if light else (spans_from_blob(blob) if blob is not None else None)
        return chunk_from_dict(json.loads(data), self._doc(file_id), spans)

    def chunk(self, chunk_id: str) -> Chunk | None:
        found = self.chunks([chunk_id])
        return found[0] if found else None

    def chunks(self, ids: Sequence[str], light: bool = False) -> list[Chunk]:
        """Searchable chunks by id, in the order asked (unknown ids left out).

        ``light=True``: without their ``spans`` (``()``) — 20× cheaper to load; for ranking, never for display,
        quotes or highlights.
        """
        cache = self._light if light else self._cache
        got: dict[str, Chunk] = {}
        for i in ids:  # (another thread may clear the caches at any time: read each entry once)
            c = self._cache.get(i) or (cache.get(i) if light else None)
            if c is not None:
                got[i] = c
        want = [i for i in dict.fromkeys(ids) if i not in got]
        cols = "c.chunk_id, c.file_id, c.data, " + ("NULL" if light else "c.spans")
        for start in range(0, len(want), 500):
            part = want[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = (
                self.db()
                .execute(
                    f"SELECT {cols} FROM chunks c JOIN files f ON f.id = c.file_id "
                    f"WHERE f.status = 'searchable' AND c.chunk_id IN ({marks})",
                    part,
                )
                .fetchall()
            )
            if len(cache) + len(rows) > 20_000:
                cache.clear()
            for row in rows:
                got[row[0]] = cache[row[0]] = self._decode(row, light)
        return [got[i] for i in ids if i in got]

    def iter_chunks(self, file: str | None = None) -> Iterator[Chunk]:
        """All searchable chunks (or those of one ``file``), file by file in reading order."""
        sql = "SELECT c.chunk_id, c.file_id, c.data, c.spans FROM chunks c JOIN files f ON f.id = c.file_id "
        sql += "WHERE f.status = 'searchable'" + (" AND f.path = ?" if file is not None else "")
        cur = self.db().execute(sql + " ORDER BY c.file_id, c.ordinal", (file,) if file is not None else ())
        while True:
            rows = cur.fetchmany(256)
            if not rows:
                return
            for row in rows:
                yield self._decode(row)

    def chunk_refs_where(
        self, *, clause: str = "", table_no: str = "", doc_codes: Sequence[str] | None = None
    ) -> list[tuple[str, str]]:
        """(chunk id, file) of the searchable chunks of a clause or with a table number, in reading order."""
        sql = "SELECT c.chunk_id, f.path FROM chunks c JOIN files f ON f.id = c.file_id "
        sql += "WHERE f.status = 'searchable' AND " + ("c.clause = ?" if clause else "c.table_no = ?")
        args: list[Any] = [clause or table_no]
        if doc_codes:
            sql += f" AND f.doc_code IN ({','.join('?' * len(doc_codes))})"
            args += list(doc_codes)
        sql += " ORDER BY c.file_id, c.ordinal"
        return [(str(a), str(b)) for a, b in self.db().execute(sql, args).fetchall()]

    # -- writing (the indexer) ----------------------------------------------------------------------------------
    def begin_file(self, path: str, kind: str, sha256: str, size: int, mtime: float) -> int:
        """Mark ``path`` as being indexed (committed before any index write). Returns the file id."""
        with self.writing(), self.write_lock:
            db = self.db()
            db.execute("DELETE FROM aliases WHERE path = ?", (path,))  # its content changed: a file of its own
            db.execute(
                "INSERT INTO files(path, kind, size, mtime, status, updated) VALUES (?, ?, ?, ?, 'indexing', ?) "
                "ON CONFLICT(path) DO UPDATE SET status = 'indexing', kind = excluded.kind, "
                "size = excluded.size, mtime = excluded.mtime, updated = excluded.updated",
                (path, kind, size, mtime, now_iso()),
            )
            db.commit()
            row = db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        return int(row[0])

    def finish_file(
        self, file_id: int, parsed: ParsedDoc, chunks: Sequence[Chunk], parser_version: str, tokenizer_version: str
    ) -> None:
        """Replace the file's chunks and mark it searchable, in one transaction (after the Tantivy commit)."""
        from kdsdesk.index.serial import chunk_to_dict, spans_to_blob

        doc = parsed.doc
        with self.writing(), self.write_lock:
            db = self.db()
            try:
                db.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))
                db.executemany(
                    "INSERT OR REPLACE INTO chunks(chunk_id, file_id, ordinal, kind, clause, table_no, data, spans) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            c.chunk_id, file_id, c.ordinal, c.kind, c.clause, c.table_number,
                            json.dumps(
                                {k: v for k, v in chunk_to_dict(c, with_doc=False).items() if k != "spans"},
                                ensure_ascii=False, separators=(",", ":"),
                            ),
                            spans_to_blob(c.spans),
                        )
                        for c in chunks
                    ],
                )  # fmt: skip
                db.execute(
                    "UPDATE files SET sha256 = ?, kind = ?, doc_code = ?, title = ?, year = ?, status = 'searchable', "
                    "message = '', parser_version = ?, tokenizer_version = ?, encoder_version = '', n_pages = ?, "
                    "n_chunks = ?, n_vectors = 0, updated = ? WHERE id = ?",
                    (
                        doc.sha256, doc.kind, doc.doc_code, doc.title, doc.year, parser_version, tokenizer_version,
                        parsed.n_pages, len(chunks), now_iso(), file_id,
                    ),
                )  # fmt: skip
                db.commit()
            except BaseException:
                db.rollback()
                raise
        self._invalidate()

    def fail_file(self, file_id: int, message: str, sha256: str, parser_version: str) -> None:
        """Record a failure (Korean message); the file's old chunks, if any, are gone (Tantivy deleted first)."""
        with self.writing():
            self.lexical.delete_files([self._path(file_id)])
            with self.write_lock:
                db = self.db()
                db.execute("DELETE FROM chunks WHERE file_id = ?", (file_id,))
                db.execute(
                    "UPDATE files SET status = 'failed', message = ?, sha256 = ?, parser_version = ?, n_chunks = 0, "
                    "n_vectors = 0, updated = ? WHERE id = ?",
                    (message, sha256, parser_version, now_iso(), file_id),
                )
                db.commit()
            self._invalidate()

    def _path(self, file_id: int) -> str:
        row = self.db().execute("SELECT path FROM files WHERE id = ?", (file_id,)).fetchone()
        return str(row[0])

    def set_encoder_state(self, path: str, encoder_version: str, n_vectors: int) -> None:
        """For the dense encoder: which encoder produced the file's vectors and how many chunks have one."""
        with self.writing(), self.write_lock:
            db = self.db()
            db.execute(
                "UPDATE files SET encoder_version = ?, n_vectors = ? WHERE path = ?", (encoder_version, n_vectors, path)
            )
            db.commit()

    def remove(self, paths: Sequence[Path]) -> int:
        """Remove files (or every file under a folder) from the library. Returns how many were removed."""
        with self.writing():
            targets: list[tuple[int, str]] = []
            rows = self.db().execute("SELECT id, path FROM files").fetchall()
            alias_rows = self.db().execute("SELECT path FROM aliases").fetchall()
            keys = [str(Path(p).expanduser().resolve()) for p in paths]

            def hit(fp: str) -> bool:
                return any(
                    fp == key or fp.startswith(key.rstrip("/\\") + "/") or fp.startswith(key + "\\") for key in keys
                )

            gone_aliases = [str(a) for (a,) in alias_rows if hit(str(a))]
            if gone_aliases:
                with self.write_lock:
                    self.db().executemany("DELETE FROM aliases WHERE path = ?", [(a,) for a in gone_aliases])
                    self.db().commit()
            for fid, fp in rows:
                if hit(fp) and (fid, fp) not in targets:
                    targets.append((fid, fp))
            kept = [(fid, fp) for fid, fp in targets if self._promote_alias(fid, fp) is None]
            promoted = len(targets) - len(kept)
            targets = kept
            if not targets:
                if promoted or gone_aliases:
                    self.save_sources()
                return promoted + len(gone_aliases)
            self.lexical.delete_files([fp for _, fp in targets])
            with self.write_lock:
                db = self.db()
                for fid, _ in targets:
                    db.execute("DELETE FROM chunks WHERE file_id = ?", (fid,))
                    db.execute("DELETE FROM files WHERE id = ?", (fid,))
                db.commit()
            self._invalidate()
            self.save_sources()
            return len(targets) + promoted + len(gone_aliases)

    # -- unanswered questions ------------------------------------------------------------------------------------
    def log_unanswered(self, question: str, status: str) -> None:
        """Count a question that ended restricted/unverified (SQLite only: readers may log; read-only folders not)."""
        q = " ".join(question.split())
        if not q or self.read_only:
            return
        with self.write_lock:
            db = self.db()
            db.execute(
                "INSERT INTO unanswered(question, count, last_at, last_status) VALUES (?, 1, ?, ?) "
                "ON CONFLICT(question) DO UPDATE SET count = count + 1, last_at = excluded.last_at, "
                "last_status = excluded.last_status",
                (q, now_iso(), status),
            )
            db.commit()

    def unanswered(self) -> list[tuple[str, int, str, str]]:
        """(question, count, last asked ISO time, last status), most asked first."""
        rows = (
            self.db()
            .execute("SELECT question, count, last_at, last_status FROM unanswered ORDER BY count DESC, last_at DESC")
            .fetchall()
        )
        return [(str(a), int(b), str(c), str(d)) for a, b, c, d in rows]

    def close(self) -> None:
        if self._lexical is not None:
            self._lexical.close()
            self._lexical = None
        with self._conns_lock:
            for c in self._conns:
                try:
                    c.close()
                except sqlite3.Error:
                    pass
            self._conns.clear()
        self._local = threading.local()
        self._invalidate()

