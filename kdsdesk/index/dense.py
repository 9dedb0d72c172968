"""Dense vectors of the library's chunks: background, resumable encoding and exact cosine search.

Store (``<library>/dense/``, portable: copy the folder to ship precomputed vectors):

- ``manifest.json`` — ``format``, ``model`` (the encoder's identity), ``dim``, ``count`` (committed rows) and
  ``generation`` (names the two data files below). Written atomically (temp file + replace) after every batch:
  it is the commit point. Rows past ``count`` are a torn append and are cut off when the writer next opens.
- ``vectors-<generation>.f16`` — float16 rows ``[count, dim]``, unit length, appended in batches, read memory-mapped.
- ``ids-<generation>.tsv`` — one line per row: ``chunk_id``, the document's sha256 and a hash of the encoded text.

A chunk counts only when the catalog still has it and its text hash matches, and only its latest row counts
(re-encoded chunks append a new row); dead rows are skipped by search and compacted away into a new generation
when they exceed :data:`COMPACT_FRACTION` of the rows. A different model identity starts a new generation, so a
model change re-encodes everything, and searches use only vectors of the model that embeds the query.

Concurrency: one writer per library (a thread lock plus an OS file lock on ``dense/.lock``); readers take no lock
at all — a search reads the manifest, then at most ``count`` rows, which the writer never changes once committed.
A search during encoding therefore returns at once (it only shares the CPU), and lexical search never touches this
module.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kdsdesk import config
from kdsdesk.index.encoder import Encoder, load_encoder
from kdsdesk.records import Chunk, Hit, Progress

if TYPE_CHECKING:
    from kdsdesk.index.library import Catalog

log = logging.getLogger(__name__)

STORE_VERSION = 1  # on-disk layout of dense/ (index packs record it)
DENSE_DIR = "dense"
COMPACT_FRACTION = 0.2  # compact when more than this share of the rows is dead
WINDOW = 256  # pending chunks tokenised (and length-sorted) together
SEARCH_BLOCK = 256  # rows per float16 → float32 block in search; ≥ 512 wakes BLAS threads: 5–8× slower here


def passage_text(chunk: Chunk) -> str:
    """What is embedded for a chunk: document title and innermost heading (context), then the chunk's text."""
    head = " ".join(p for p in (chunk.doc.title, chunk.clause_path[-1] if chunk.clause_path else "") if p)
    return f"{head}\n{chunk.text}" if head else chunk.text


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


# -- the on-disk store ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Manifest:
    model: str
    dim: int
    count: int
    generation: int
    uid: str = ""  # random per generation: a folder swapped in by a pack import is never mistaken for ours
    format: int = STORE_VERSION


@dataclass(frozen=True, slots=True)
class _Rows:
    """Row metadata read from an ids file (a newer ``_Rows`` extends it while the generation stays the same)."""

    generation: int
    uid: str
    count: int
    offset: int  # bytes of the ids file consumed
    ids: list[str]
    docs: list[str]
    hashes: list[str]
    latest: dict[str, int]  # chunk_id → its newest row
    alive: npt.NDArray[np.bool_]  # False for rows superseded by a newer row of the same chunk


class Store:
    """The ``dense/`` folder of one library. Readers call :meth:`snapshot`; only the writer calls the rest."""

    def __init__(self, root: Path) -> None:
        self.dir = Path(root) / DENSE_DIR
        self._rows: _Rows | None = None
        self._rows_lock = threading.Lock()  # guards the row cache only; never held across I/O of vectors

    def vectors_path(self, generation: int) -> Path:
        return self.dir / f"vectors-{generation}.f16"

    def ids_path(self, generation: int) -> Path:
        return self.dir / f"ids-{generation}.tsv"

    def manifest(self) -> Manifest | None:
        try:
            raw = json.loads((self.dir / "manifest.json").read_text(encoding="utf-8"))
            m = Manifest(
                str(raw["model"]),
                int(raw["dim"]),
                int(raw["count"]),
                int(raw["generation"]),
                str(raw.get("uid", "")),
                int(raw["format"]),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("dense manifest unreadable, ignoring the vectors: %s", exc)
            return None
        return m if m.format == STORE_VERSION else None

    def write_manifest(self, m: Manifest) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.dir / "manifest.json.tmp"
        data = {
            "format": m.format,
            "model": m.model,
            "dim": m.dim,
            "count": m.count,
            "generation": m.generation,
            "uid": m.uid,
        }
        with tmp.open("w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.dir / "manifest.json")

    # -- reading ---------------------------------------------------------------------------------------------
    def rows(self, m: Manifest) -> _Rows:
        """Metadata of at least the first ``m.count`` rows (more when another caller already read a newer manifest).

        Cached and copy-on-write: only new lines are read, and a ``_Rows`` once returned never changes, so callers
        on other threads may keep using it.
        """
        with self._rows_lock:
            r = self._rows
            same = r is not None and (r.generation, r.uid) == (m.generation, m.uid)
            if r is not None and same and r.count >= m.count:
                return r
            if r is None or not same:
                r = _Rows(m.generation, m.uid, 0, 0, [], [], [], {}, np.ones(0, dtype=np.bool_))
            ids, docs, hashes, latest = r.ids.copy(), r.docs.copy(), r.hashes.copy(), dict(r.latest)
            alive = r.alive.tolist()
            offset = r.offset
            path = self.ids_path(m.generation)
            with path.open("rb") as f:
                f.seek(offset)
                while len(ids) < m.count:
                    line = f.readline()
                    if not line.endswith(b"\n"):
                        raise OSError(f"ids file shorter than the manifest: {path}")
                    offset += len(line)
                    cid, doc, h = line.decode("utf-8").rstrip("\n").split("\t")
                    old = latest.get(cid)
                    if old is not None:
                        alive[old] = False
                    latest[cid] = len(ids)
                    ids.append(cid)
                    docs.append(doc)
                    hashes.append(h)
                    alive.append(True)
            r = _Rows(m.generation, m.uid, len(ids), offset, ids, docs, hashes, latest, np.array(alive, dtype=np.bool_))
            self._rows = r
            return r

    def vectors(self, m: Manifest) -> npt.NDArray[np.float16]:
        """The committed rows, memory-mapped read-only (drop the array to unmap)."""
        if m.count == 0:
            return np.zeros((0, m.dim), dtype=np.float16)
        return np.memmap(self.vectors_path(m.generation), dtype=np.float16, mode="r", shape=(m.count, m.dim))

    # -- writing (the single writer only) ------------------------------------------------------------------------
    def open_for_write(self, model: str, dim: int) -> Manifest:
        """The manifest to append to: repaired after a torn append, or a new empty generation for a new model."""
        self.dir.mkdir(parents=True, exist_ok=True)
        m = self.manifest()
        if m is not None and m.model == model and m.dim == dim:
            try:
                self._cut(m)
            except OSError as exc:
                log.warning("dense vectors damaged, encoding again: %s", exc)
            else:
                self._remove_other_generations(m.generation)
                return m
        gen = (m.generation + 1) if m is not None else 1
        new = Manifest(model, dim, 0, gen, os.urandom(8).hex())
        self.vectors_path(gen).write_bytes(b"")
        self.ids_path(gen).write_bytes(b"")
        self.write_manifest(new)
        self._remove_other_generations(gen)
        return new

    def _cut(self, m: Manifest) -> None:
        """Cut both files back to ``m.count`` rows (an append interrupted before its manifest was written)."""
        vec = self.vectors_path(m.generation)
        want = m.count * m.dim * 2
        if vec.stat().st_size < want:
            raise OSError(f"vector file shorter than the manifest: {vec}")
        if vec.stat().st_size > want:
            os.truncate(vec, want)
        ids = self.ids_path(m.generation)
        data = ids.read_bytes()
        pos = 0
        for _ in range(m.count):
            nl = data.find(b"\n", pos)
            if nl < 0:
                raise OSError(f"ids file shorter than the manifest: {ids}")
            pos = nl + 1
        if pos < len(data):
            os.truncate(ids, pos)

    def _remove_other_generations(self, keep: int) -> None:
        for p in list(self.dir.glob("vectors-*.f16")) + list(self.dir.glob("ids-*.tsv")):
            if p.name not in (self.vectors_path(keep).name, self.ids_path(keep).name):
                try:
                    p.unlink()
                except OSError:  # still mapped by a search (Windows): removed next time
                    pass

    def append(self, m: Manifest, rows: Sequence[tuple[str, str, str]], vecs: npt.NDArray[np.float32]) -> Manifest:
        """Append rows (chunk_id, doc sha256, text hash) and their vectors; commit with a new manifest."""
        data = np.ascontiguousarray(vecs, dtype=np.float16).tobytes()
        lines = "".join(f"{c}\t{d}\t{h}\n" for c, d, h in rows).encode("utf-8")
        for path, payload in ((self.vectors_path(m.generation), data), (self.ids_path(m.generation), lines)):
            with path.open("ab") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
        new = replace(m, count=m.count + len(rows))
        self.write_manifest(new)
        return new

    def compact(self, m: Manifest, keep: Sequence[int]) -> Manifest:
        """Write only rows ``keep`` (in order) into a new generation and switch to it."""
        rows = self.rows(m)
        gen = m.generation + 1
        src = self.vectors(m)
        with self.vectors_path(gen).open("wb") as f:
            for i in range(0, len(keep), 4096):
                f.write(np.ascontiguousarray(src[list(keep[i : i + 4096])]).tobytes())
            f.flush()
            os.fsync(f.fileno())
        del src
        lines = "".join(f"{rows.ids[i]}\t{rows.docs[i]}\t{rows.hashes[i]}\n" for i in keep)
        self.ids_path(gen).write_bytes(lines.encode("utf-8"))
        new = Manifest(m.model, m.dim, len(keep), gen, os.urandom(8).hex())
        self.write_manifest(new)
        self._remove_other_generations(gen)
        return new


_stores: dict[Path, Store] = {}
_stores_lock = threading.Lock()
_writers: dict[Path, threading.Lock] = {}


def store_for(root: Path) -> Store:
    key = Path(root).resolve()
    with _stores_lock:
        if key not in _stores:
            _stores[key] = Store(key)
            _writers[key] = threading.Lock()
        return _stores[key]


@contextmanager
def _writer(store: Store) -> Iterator[bool]:
    """Hold the library's single-writer lock (thread + OS file lock); yields False when someone else holds it."""
    lock = _writers[store.dir.parent]
    if not lock.acquire(blocking=False):
        yield False
        return
    handle: IO[bytes] | None = None
    try:
        store.dir.mkdir(parents=True, exist_ok=True)
        handle = (store.dir / ".lock").open("a+b")
        if not _lock_file(handle):
            yield False
            return
        yield True
    finally:
        if handle is not None:
            handle.close()  # closing releases the OS lock
        lock.release()


def _lock_file(f: IO[bytes]) -> bool:
    """Non-blocking exclusive OS lock on an open file (released when the file is closed)."""
    try:
        if sys.platform == "win32":
            import msvcrt

            f.seek(0)
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


# -- search ----------------------------------------------------------------------------------------------------------
def _settings(catalog: Catalog) -> config.Settings:
    return config.load(Path(catalog.root) / "settings.json")


def cosine_scores(vectors: npt.NDArray[np.float16], query: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``vectors @ query`` in float32, a block of rows at a time (numpy has no fast float16 matrix product)."""
    out = np.empty(len(vectors), dtype=np.float32)
    buf = np.empty((min(SEARCH_BLOCK, len(vectors)), query.shape[0]), dtype=np.float32)
    for i in range(0, len(vectors), SEARCH_BLOCK):
        block = vectors[i : i + SEARCH_BLOCK]
        b = buf[: len(block)]
        b[...] = block
        np.dot(b, query, out=out[i : i + len(block)])
    return out


def dense_search(catalog: Catalog, query: str, n: int = 50, doc_codes: Sequence[str] | None = None) -> list[Hit]:
    """Top ``n`` chunks by cosine similarity among chunks that have vectors; [] when no encoder or vectors.

    Hits have route ``"dense"``, score = cosine, rank 1-based; ties keep row order. ``doc_codes`` keeps only those
    documents (filtered before the cut, so ``n`` hits come back when that many exist). Never waits for encoding.
    """
    settings = _settings(catalog)
    if not settings.dense_enabled or not query.strip() or n <= 0:
        return []
    store = store_for(catalog.root)
    m = store.manifest()
    if m is None or m.count == 0:
        return []
    enc = load_encoder(settings.encoder_dir, settings.effective_threads())
    if enc is None or enc.identity != m.model:
        return []
    try:
        rows = store.rows(m)
        m = replace(m, count=rows.count)  # rows committed since we read the manifest are complete too
        scores = cosine_scores(store.vectors(m), enc.encode([query])[0])
    except (OSError, ValueError) as exc:  # compacted away between manifest and read: no dense hits this time
        log.info("dense vectors changed during search: %s", exc)
        return []
    scores[~rows.alive] = -np.inf
    order = np.argsort(-scores, kind="stable")
    hits: list[Hit] = []
    pos = 0
    while len(hits) < n and pos < len(order):
        window = [int(i) for i in order[pos : pos + max(2 * n, 64)] if np.isfinite(scores[i])]
        pos += max(2 * n, 64)
        if not window:
            break
        found = {c.chunk_id: c for c in catalog.chunks([rows.ids[i] for i in window]) if c is not None}
        for i in window:
            chunk = found.get(rows.ids[i])
            if chunk is None or text_hash(passage_text(chunk)) != rows.hashes[i]:
                continue  # removed from the catalog, or its text changed since it was encoded
            if doc_codes and chunk.doc.doc_code not in doc_codes:
                continue
            hits.append(Hit(chunk=chunk, score=float(scores[i]), rank=len(hits) + 1, route="dense"))
            if len(hits) == n:
                break
    return hits


def vector_counts(root: Path) -> dict[str, int]:
    """Document sha256 → chunks with a current-model vector (for ``DocInfo.n_vectors``); {} when none."""
    store = store_for(root)
    m = store.manifest()
    if m is None or m.count == 0:
        return {}
    try:
        rows = store.rows(m)
    except OSError:
        return {}
    counts: dict[str, int] = {}
    for row in rows.latest.values():
        counts[rows.docs[row]] = counts.get(rows.docs[row], 0) + 1
    return counts


# -- encoding -------------------------------------------------------------------------------------------------------
def _detail(done: int, total: int, started: float) -> str:
    elapsed = time.monotonic() - started
    rate = done / elapsed if elapsed > 0 and done else 0.0
    eta = f", 남은 시간 약 {int((total - done) / rate / 60) + 1}분" if rate > 0 and done < total else ""
    return f"의미 검색 벡터 계산 {done}/{total} ({rate:.1f} 청크/초{eta})"


def encode_pending(catalog: Catalog, threads: int = 2) -> Generator[Progress, None, int]:
    """Encode chunks without vectors, checkpointing after every batch. Returns how many were encoded.

    Closing the generator between yields stops it; every batch reported so far is committed, so the next call
    resumes where this one stopped. Does nothing (returns 0) when dense search is off or the model is missing.
    """
    settings = _settings(catalog)
    if not settings.dense_enabled:
        return 0
    enc = load_encoder(settings.encoder_dir, threads)
    if enc is None:
        from kdsdesk.index.encoder import encoder_status

        yield Progress("encode", 0, 0, encoder_status(settings.encoder_dir)[1])
        return 0
    store = store_for(catalog.root)
    if catalog.read_only or catalog.writer_busy():  # another process indexes: vectors wait for the next run
        yield Progress("encode", 0, 0, "다른 작업이 라이브러리를 쓰고 있어 의미 검색 벡터 계산을 다음으로 미룹니다.")
        return 0
    with catalog.writing(), _writer(store) as mine:
        if not mine:
            yield Progress("encode", 0, 0, "다른 작업이 이미 의미 검색 벡터를 계산하고 있습니다.")
            return 0
        return (yield from _encode(catalog, store, enc))


def _encode(catalog: Catalog, store: Store, enc: Encoder) -> Generator[Progress, None, int]:
    m = store.open_for_write(enc.identity, enc.dim)
    rows = store.rows(m)
    pending: list[tuple[str, str, str, str]] = []  # chunk_id, doc sha256, text hash, text
    live: list[int] = []
    files: dict[str, str] = {}  # doc sha256 → file path (for the catalog's per-file vector counts)
    counts: dict[str, int] = {}
    for chunk in catalog.iter_chunks():
        files.setdefault(chunk.doc.sha256, chunk.doc.file)
        counts.setdefault(chunk.doc.sha256, 0)
        text = passage_text(chunk)
        h = text_hash(text)
        row = rows.latest.get(chunk.chunk_id)
        if row is not None and rows.hashes[row] == h:
            live.append(row)
            counts[chunk.doc.sha256] += 1
        else:
            pending.append((chunk.chunk_id, chunk.doc.sha256, h, text))
    if m.count - len(live) > COMPACT_FRACTION * m.count:
        m = store.compact(m, sorted(live))
    _record_counts(catalog, enc.identity, files, counts, files)
    total = len(pending)
    started = time.monotonic()
    done = 0
    yield Progress("encode", 0, total, _detail(0, total, started))
    for w in range(0, total, WINDOW):
        window = pending[w : w + WINDOW]
        seqs = enc.tokenise([t for *_, t in window])
        for batch in enc.batches([len(s) for s in seqs]):
            vecs = enc.run(enc.pad([seqs[i] for i in batch]))
            m = store.append(m, [window[i][:3] for i in batch], vecs)
            done += len(batch)
            touched = {window[i][1] for i in batch}
            for sha in touched:
                counts[sha] += sum(1 for i in batch if window[i][1] == sha)
            _record_counts(catalog, enc.identity, files, counts, touched)
            yield Progress("encode", done, total, _detail(done, total, started))
    return done


def _record_counts(
    catalog: Catalog, identity: str, files: dict[str, str], counts: dict[str, int], which: Iterable[str]
) -> None:
    """Tell the catalog how many chunks of each file have a vector (``DocInfo.n_vectors``)."""
    for sha in which:
        catalog.set_encoder_state(files[sha], identity, counts[sha])
