"""Dense store and search with the tiny encoder: brute-force oracle, resume, torn appends, removed and changed
chunks, model change, and a search while encoding is paused mid-way (no lock is held across encoding)."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Generator, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from kdsdesk.index import dense
from kdsdesk.index import encoder as enc_mod
from kdsdesk.index.dense import dense_search, encode_pending, passage_text, store_for, vector_counts
from kdsdesk.index.encoder import load_encoder
from kdsdesk.records import Chunk, DocInfo, DocRef, Hit, Progress
from tests.data.tiny_encoder import SENTENCES, build_tiny_encoder


class FakeCatalog:
    """The read side of ``kdsdesk.index.library.Catalog`` that dense retrieval uses."""

    def __init__(self, root: Path, chunks: Sequence[Chunk]) -> None:
        self.root = root
        self._chunks = {c.chunk_id: c for c in chunks}
        self.n_vectors: dict[str, tuple[str, int]] = {}  # file → (encoder identity, chunks with a vector)

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def chunks(self, ids: Sequence[str]) -> list[Chunk]:
        return [self._chunks[i] for i in ids if i in self._chunks]

    def iter_chunks(self) -> Iterator[Chunk]:
        yield from list(self._chunks.values())

    def documents(self) -> list[DocInfo]:
        return []

    def set_encoder_state(self, path: str, encoder_version: str, n_vectors: int) -> None:
        self.n_vectors[path] = (encoder_version, n_vectors)

    read_only = False  # the writer side dense encoding needs

    def writer_busy(self) -> bool:
        return False

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        yield

    # test helpers
    def drop_doc(self, sha: str) -> None:
        self._chunks = {k: c for k, c in self._chunks.items() if c.doc.sha256 != sha}

    def put(self, chunk: Chunk) -> None:
        self._chunks[chunk.chunk_id] = chunk


def make_chunks(n_docs: int = 3) -> list[Chunk]:
    out = []
    for d in range(n_docs):
        sha = f"{d:x}" * 64
        doc = DocRef(file=f"/docs/{d}.pdf", sha256=sha, kind="pdf", title=f"기준 {d}")
        for i, s in enumerate(SENTENCES):
            out.append(
                Chunk(
                    chunk_id=f"{sha[:16]}-{i:05d}",
                    doc=doc,
                    kind="text",
                    text=f"{s} ({d}-{i})",
                    clause_path=(f"{i}.1 조항",),
                    ordinal=i,
                )
            )
    return out


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    build_tiny_encoder(tmp_path / "models" / "bge-m3", dim=32)  # fp32 only: vectors independent of batch mates
    monkeypatch.setenv("KDSDESK_MODELS", str(tmp_path / "models"))
    monkeypatch.setattr(enc_mod, "MAX_BATCH", 4)  # several batches, so there is a "mid-way"
    return tmp_path / "models"


@pytest.fixture
def catalog(tmp_path: Path, models: Path) -> FakeCatalog:
    root = tmp_path / "lib"
    root.mkdir()
    return FakeCatalog(root, make_chunks())


def run(gen: Iterator[Progress]) -> tuple[list[Progress], int]:
    seen = []
    try:
        while True:
            seen.append(next(gen))
    except StopIteration as stop:
        return seen, int(stop.value)


def stored_ids(catalog: FakeCatalog) -> list[str]:
    store = store_for(catalog.root)
    m = store.manifest()
    assert m is not None
    return store.rows(m).ids[: m.count]


def test_search_equals_brute_force_cosine(catalog: FakeCatalog) -> None:
    progress, n = run(encode_pending(catalog, threads=1))
    assert n == len(make_chunks())
    assert progress[-1].done == progress[-1].total == n
    assert "청크/초" in progress[-1].detail
    enc = load_encoder()
    assert enc is not None
    chunks = list(catalog.iter_chunks())
    matrix = np.vstack([enc.encode([passage_text(c)]) for c in chunks])
    for query in ("고장력볼트 마찰접합", "동바리 설치 간격", "다차로 재하계수"):
        expected = matrix @ enc.encode([query])[0]
        hits = dense_search(catalog, query, n=10)
        assert [h.rank for h in hits] == list(range(1, 11))
        assert {h.route for h in hits} == {"dense"}
        got = {h.chunk.chunk_id: h.score for h in hits}
        ids = [c.chunk_id for c in chunks]
        for cid, score in got.items():
            assert score == pytest.approx(float(expected[ids.index(cid)]), abs=2e-3)  # float16 storage
        tenth = sorted(expected, reverse=True)[9]
        for cid, exp in zip(ids, expected, strict=True):
            if exp > tenth + 4e-3:
                assert cid in got  # everything clearly inside the brute-force top 10 is found
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_resume_after_close_loses_and_duplicates_nothing(catalog: FakeCatalog) -> None:
    total = len(make_chunks())
    gen = encode_pending(catalog, threads=1)
    first = [next(gen) for _ in range(3)]  # start + two batches
    gen.close()
    done_before = first[-1].done
    assert 0 < done_before < total
    assert len(stored_ids(catalog)) == done_before
    progress, n = run(encode_pending(catalog, threads=1))
    assert progress[0].total == total - done_before
    assert n == total - done_before
    ids = stored_ids(catalog)
    assert sorted(ids) == sorted(c.chunk_id for c in make_chunks())  # nothing lost, nothing twice
    assert {n for _, n in catalog.n_vectors.values()} == {len(SENTENCES)}
    assert len(catalog.n_vectors) == 3
    assert run(encode_pending(catalog, threads=1))[1] == 0  # nothing left


def test_torn_append_is_cut_back(catalog: FakeCatalog) -> None:
    gen = encode_pending(catalog, threads=1)
    next(gen), next(gen)
    gen.close()
    store = store_for(catalog.root)
    m = store.manifest()
    assert m is not None
    with store.vectors_path(m.generation).open("ab") as f:  # an append that crashed before its manifest
        f.write(b"\x01" * (m.dim * 2 * 3 + 5))
    with store.ids_path(m.generation).open("ab") as f:
        f.write(b"partial-id\tx\ty\nhalf")
    run(encode_pending(catalog, threads=1))
    ids = stored_ids(catalog)
    assert sorted(ids) == sorted(c.chunk_id for c in make_chunks())
    m2 = store.manifest()
    assert m2 is not None
    assert store.vectors_path(m2.generation).stat().st_size == m2.count * m2.dim * 2


def test_removed_documents_ignored_then_compacted(catalog: FakeCatalog) -> None:
    run(encode_pending(catalog, threads=1))
    gone = make_chunks()[0].doc.sha256
    catalog.drop_doc(gone)
    hits = dense_search(catalog, "콘크리트 강도", n=100)
    assert hits
    assert all(h.chunk.doc.sha256 != gone for h in hits)
    assert len(hits) == len(list(catalog.iter_chunks()))
    assert run(encode_pending(catalog, threads=1))[1] == 0  # nothing to encode, but a third of rows is dead
    assert sorted(stored_ids(catalog)) == sorted(c.chunk_id for c in catalog.iter_chunks())
    assert gone not in vector_counts(catalog.root)
    assert dense_search(catalog, "콘크리트 강도", n=100, doc_codes=["없는 코드"]) == []
    assert len(list((catalog.root / "dense").glob("vectors-*.f16"))) == 1  # the old generation is gone


def test_changed_text_is_skipped_then_reencoded(catalog: FakeCatalog) -> None:
    run(encode_pending(catalog, threads=1))
    target = make_chunks()[4]
    catalog.put(replace(target, text="풍하중은 설계풍속으로 산정한다. 개정"))
    assert all(h.chunk.chunk_id != target.chunk_id for h in dense_search(catalog, "풍하중 설계풍속", n=100))
    assert run(encode_pending(catalog, threads=1))[1] == 1
    hits = dense_search(catalog, "풍하중 설계풍속", n=100)
    assert [h.chunk.chunk_id for h in hits].count(target.chunk_id) == 1
    assert sum(vector_counts(catalog.root).values()) == len(make_chunks())


def test_model_change_reencodes(catalog: FakeCatalog, models: Path) -> None:
    run(encode_pending(catalog, threads=1))
    assert dense_search(catalog, "강구조", n=5)
    build_tiny_encoder(models / "bge-m3", dim=32, seed=3)  # another model in the same place
    assert dense_search(catalog, "강구조", n=5) == []  # old vectors do not match the new query encoder
    gen = encode_pending(catalog, threads=1)
    assert next(gen).total == len(make_chunks())
    gen.close()
    assert {n for _, n in catalog.n_vectors.values()} == {0}  # the catalog hears at once that none are current
    assert run(encode_pending(catalog, threads=1))[1] == len(make_chunks())
    assert len(dense_search(catalog, "강구조", n=5)) == 5


def test_search_while_encoding_is_paused(catalog: FakeCatalog) -> None:
    """Encoding paused at a yield (as the GUI worker would be between batches) holds nothing searches need."""
    paused, resume = threading.Event(), threading.Event()
    result: list[int] = []

    def worker() -> None:
        gen = encode_pending(catalog, threads=1)
        _, n = run(_pause_after(gen, 2, paused, resume))
        result.append(n)

    t = threading.Thread(target=worker)
    t.start()
    try:
        assert paused.wait(60)
        found: list[list[Hit]] = []
        searcher = threading.Thread(target=lambda: found.append(dense_search(catalog, "콘크리트 강도", n=100)))
        searcher.start()
        searcher.join(60)  # a deadlock guard, not a timing: the search must not need anything encoding holds
        assert not searcher.is_alive()
        hits = found[0]
        assert 0 < len(hits) < len(make_chunks())  # only chunks encoded so far
        assert set(h.chunk.chunk_id for h in hits) <= set(stored_ids(catalog))
        other, n = run(encode_pending(catalog, threads=1))  # a second writer is turned away, not blocked
        assert n == 0
        assert "이미" in other[0].detail
    finally:
        resume.set()
        t.join(60)
    assert result == [len(make_chunks())]
    assert len(dense_search(catalog, "콘크리트 강도", n=100)) == len(make_chunks())


def _pause_after(
    gen: Generator[Progress, None, int], k: int, paused: threading.Event, resume: threading.Event
) -> Generator[Progress, None, int]:
    """Pass ``gen`` through, stopping after its ``k``-th progress until ``resume`` is set."""
    i = 0
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return int(stop.value)
        yield p
        i += 1
        if i == k:
            paused.set()
            resume.wait(60)


def test_no_model_means_no_dense(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(enc_mod.paths, "model", lambda *parts: None)
    monkeypatch.delenv("KDSDESK_MODELS", raising=False)
    cat = FakeCatalog(tmp_path / "lib", make_chunks(1))
    progress, n = run(encode_pending(cat, threads=1))
    assert n == 0
    assert "단어 검색만" in progress[0].detail
    assert dense_search(cat, "콘크리트") == []


def test_disabled_in_settings(catalog: FakeCatalog) -> None:
    run(encode_pending(catalog, threads=1))
    (catalog.root / "settings.json").write_text(json.dumps({"dense_enabled": False}), encoding="utf-8")
    assert dense_search(catalog, "콘크리트") == []
    assert run(encode_pending(catalog, threads=1))[1] == 0


def test_empty_query_and_empty_store(catalog: FakeCatalog) -> None:
    assert dense_search(catalog, "콘크리트") == []
    run(encode_pending(catalog, threads=1))
    assert dense_search(catalog, "   ") == []
    assert vector_counts(catalog.root) == {c.doc.sha256: len(SENTENCES) for c in make_chunks()}


def test_store_version_recorded(catalog: FakeCatalog) -> None:
    run(encode_pending(catalog, threads=1))
    raw = json.loads((catalog.root / "dense" / "manifest.json").read_text(encoding="utf-8"))
    assert raw["format"] == dense.STORE_VERSION
    assert raw["dim"] == 32
    assert raw["count"] == len(make_chunks())


def test_folder_swapped_in_is_read_afresh(catalog: FakeCatalog, tmp_path: Path) -> None:
    """A ``dense/`` folder replaced under a running app (pack import) is read as a new store, not via the cache."""
    import shutil

    run(encode_pending(catalog, threads=1))
    before = [(h.chunk.chunk_id, round(h.score, 3)) for h in dense_search(catalog, "콘크리트 강도", n=20)]
    other = FakeCatalog(tmp_path / "other", list(reversed(make_chunks())))  # same chunks, other row order
    other.root.mkdir()
    run(encode_pending(other, threads=1))
    shutil.rmtree(catalog.root / "dense")
    shutil.copytree(other.root / "dense", catalog.root / "dense")
    after = [(h.chunk.chunk_id, round(h.score, 3)) for h in dense_search(catalog, "콘크리트 강도", n=20)]
    assert len(after) == 20
    assert sorted(after) == sorted(before)
