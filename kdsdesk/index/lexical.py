"""The lexical index (Tantivy, BM25) over pre-tokenised Korean: one Tantivy document per chunk.

Fields (all analysed with a whitespace + lowercase analyzer, registered again after every open — Tantivy does not
store analyzers):

- ``body``: chunk text terms; ``gram``: Hangul character bigrams of the content words (a safety net for Kiwi's
  context-dependent splits of compounds);
- ``title``: table title terms without the table number (stored, for the title route); ``rows``: terms of each
  row record, one row a line (stored, for the row route);
- ``path``: clause path terms, the chunk's own heading's once more (``kdsdesk.index.terms``); ``doc``: doc code
  and title terms;
- ``defs``: terms and bigrams of the head of a definition line (``(3) 측압: …`` in a "용어의 정의" clause,
  ``여기서, A_{v,min} : …`` under an equation). Each definition line is indexed as a short sub-document of its
  chunk (same ``chunk_id``; ``line``/``lgram``: terms and bigrams of the line, ``defs``: of its head), so the
  chunk that defines a term or symbol ranks above the chunks that merely use it; results are de-duplicated by
  chunk (best score);
- ``ptitle``/``prof``: one profile document per file (chunk id ``profile:<file>``, no other text field): the terms
  and bigrams of its code and title; the terms of its clause headings and its 1.1 목적/1.2 적용범위 text — searched
  alone, to tell which standards a question is about (``kdsdesk.retrieve.standards``);
- ``chunk_id``/``file``/``doc_code``/``table_no``: raw tokenizer (exact terms for deletes and filters).

Long original text is not stored here: the catalog has it. Queries are built from terms (``Query.term_query``),
never parsed from user text, so no query-syntax error is possible. Writes happen on one thread (the indexer);
searches may come from any thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

LEXICAL_SCHEMA_VERSION = "6"
ANALYZER = "kds_ws"
WRITER_HEAP = 64_000_000

# field → BM25 weight in the combined query (chosen on the samples' qa.jsonl and the evalset of the real KDS PDFs;
# ``path`` 0.7 — from 0.5 — since it holds the chunk's own heading twice: chosen on the development halves of the
# whole-library question sets, issue 14)
FIELD_BOOSTS: dict[str, float] = {
    "body": 1.0, "title": 0.8, "rows": 0.4, "path": 0.7, "doc": 0.3, "gram": 0.25, "defs": 0.7,
    "line": 0.7, "lgram": 0.4,
}  # fmt: skip
GRAM_FIELDS = frozenset({"gram", "lgram"})  # searched with the query's bigrams only
MIXED_FIELDS = frozenset({"defs", "ptitle"})  # searched with terms and bigrams


@dataclass(frozen=True, slots=True)
class LexLine:
    """A definition line of a chunk, indexed as a short sub-document of it."""

    body: Sequence[str]
    grams: Sequence[str] = ()
    defs: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class LexDoc:
    """What the lexical index holds of one chunk (terms already produced by ``kdsdesk.text.korean``)."""

    chunk_id: str
    file: str
    doc_code: str
    body: Sequence[str]
    grams: Sequence[str] = ()
    title: Sequence[str] = ()
    rows: Sequence[Sequence[str]] = ()
    path: Sequence[str] = ()
    doc: Sequence[str] = ()
    table_no: str = ""
    defs: Sequence[str] = ()
    lines: Sequence[LexLine] = ()
    ptitle: Sequence[str] = ()  # only on a file's profile document
    prof: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class LexHit:
    chunk_id: str
    score: float
    stored: dict[str, list[Any]] = field(default_factory=dict)


def _schema() -> Any:
    import tantivy

    sb = tantivy.SchemaBuilder()
    sb.add_text_field("chunk_id", stored=True, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("file", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("doc_code", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("table_no", stored=False, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("body", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("gram", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("title", stored=True, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("rows", stored=True, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("path", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("doc", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("defs", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("line", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("lgram", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("ptitle", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    sb.add_text_field("prof", stored=False, tokenizer_name=ANALYZER, index_option="freq")
    return sb.build()


def _register(index: Any) -> None:
    import tantivy

    analyzer = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).filter(tantivy.Filter.lowercase()).build()
    index.register_tokenizer(ANALYZER, analyzer)


def _clean(terms: Sequence[str]) -> str:
    return " ".join(t for t in terms if t and not any(ch.isspace() for ch in t))


def open_failure(exc: BaseException) -> str | None:
    """Why Tantivy could not open or read an index (a damaged segment or ``meta.json``), or ``None`` when ``exc`` is
    no such failure. Tantivy reports damage as ``ValueError``/``OSError`` or, from a Rust panic, as pyo3's
    ``PanicException`` (a ``BaseException``)."""
    if isinstance(exc, ValueError | OSError) or type(exc).__name__ == "PanicException":
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    return None


class LexicalIndex:
    """A Tantivy index in ``folder`` (created if missing, unless ``read_only``: then an empty one in memory).

    Readers in other processes see a writer's commits: the reader is reloaded when ``meta.json`` changes.
    """

    def __init__(self, folder: Path, *, read_only: bool = False) -> None:
        import tantivy

        self.folder = folder
        self.schema = _schema()
        if read_only and not (folder / "meta.json").is_file():
            self.index = tantivy.Index(self.schema)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            self.index = tantivy.Index(self.schema, path=str(folder), reuse=True)
        _register(self.index)
        self._writer: Any = None
        self._wlock = threading.Lock()
        self._meta_stamp = self._stamp()

    def _stamp(self) -> tuple[int, int]:
        try:
            st = (self.folder / "meta.json").stat()
        except OSError:
            return (0, 0)
        return (st.st_mtime_ns, st.st_size)

    def searcher(self) -> Any:
        """A searcher on the last committed state (reloaded when another process committed since)."""
        stamp = self._stamp()
        if stamp != self._meta_stamp:
            self._meta_stamp = stamp
            self.index.reload()
        return self.index.searcher()

    # -- writing (one thread) -------------------------------------------------------------------------------
    def _get_writer(self) -> Any:
        if self._writer is None:
            self._writer = self.index.writer(WRITER_HEAP, 1)
        return self._writer

    def replace_file(self, file: str, docs: Sequence[LexDoc]) -> None:
        """Delete the file's documents and add ``docs`` in one commit (atomic for readers and after a crash)."""
        with self._wlock:
            w = self._get_writer()
            try:
                self._add(w, file, docs)
            except BaseException:
                w.rollback()  # nothing half-written stays queued for the next commit
                raise
            self._commit(w)
        self.index.reload()

    def _commit(self, w: Any) -> None:
        w.commit()
        self._meta_stamp = self._stamp()

    def _add(self, w: Any, file: str, docs: Sequence[LexDoc]) -> None:
        import tantivy

        w.delete_documents_by_term("file", file)
        for d in docs:
            doc = tantivy.Document()
            doc.add_text("chunk_id", d.chunk_id)
            doc.add_text("file", d.file)
            doc.add_text("doc_code", d.doc_code)
            if d.table_no:
                doc.add_text("table_no", d.table_no)
            doc.add_text("body", _clean(d.body))
            doc.add_text("gram", _clean(d.grams))
            doc.add_text("title", _clean(d.title))
            doc.add_text("rows", "\n".join(_clean(r) for r in d.rows))
            doc.add_text("path", _clean(d.path))
            doc.add_text("doc", _clean(d.doc))
            doc.add_text("defs", _clean(d.defs))
            if d.ptitle or d.prof:
                doc.add_text("ptitle", _clean(d.ptitle))
                doc.add_text("prof", _clean(d.prof))
            w.add_document(doc)
            for line in d.lines:
                sub = tantivy.Document()
                sub.add_text("chunk_id", d.chunk_id)
                sub.add_text("file", d.file)
                sub.add_text("doc_code", d.doc_code)
                sub.add_text("line", _clean(line.body))
                sub.add_text("lgram", _clean(line.grams))
                sub.add_text("defs", _clean(line.defs))
                w.add_document(sub)

    def delete_files(self, files: Sequence[str]) -> None:
        if not files:
            return
        with self._wlock:
            w = self._get_writer()
            for f in files:
                w.delete_documents_by_term("file", f)
            self._commit(w)
        self.index.reload()

    def close(self) -> None:
        with self._wlock:
            if self._writer is not None:
                try:
                    self._writer.wait_merging_threads()
                finally:
                    self._writer = None

    # -- reading (any thread) -------------------------------------------------------------------------------
    def num_docs(self) -> int:
        return int(self.searcher().num_docs)

    def doc_freq(self, field_name: str, term: str) -> int:
        return int(self.searcher().doc_freq(field_name, term))

    def known_terms(self, terms: Sequence[str], fields: Sequence[str] = ("body", "rows")) -> list[str]:
        """The terms that occur in any of ``fields`` (one searcher for all look-ups)."""
        searcher = self.searcher()
        return [t for t in terms if any(searcher.doc_freq(f, t) > 0 for f in fields)]

    def _filter(self, query: Any, doc_codes: Sequence[str] | None) -> Any:
        import tantivy

        if not doc_codes:
            return query
        codes = tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "doc_code", c)) for c in doc_codes]
        )
        return tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (tantivy.Occur.Must, codes)])

    def search(
        self,
        terms: Sequence[str],
        grams: Sequence[str] = (),
        limit: int = 50,
        doc_codes: Sequence[str] | None = None,
        boosts: dict[str, float] | None = None,
    ) -> list[LexHit]:
        """BM25 over the weighted fields; each distinct term once."""
        import tantivy

        boosts = FIELD_BOOSTS if boosts is None else boosts
        clauses: list[tuple[Any, Any]] = []
        uniq = list(dict.fromkeys(t.lower() for t in terms if t))
        for name, weight in boosts.items():
            if weight <= 0:
                continue
            if name in GRAM_FIELDS:
                source = list(dict.fromkeys(grams))
            elif name in MIXED_FIELDS:
                source = list(dict.fromkeys([*uniq, *grams]))
            else:
                source = uniq
            for t in source:
                q = tantivy.Query.term_query(self.schema, name, t)
                clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(q, weight) if weight != 1 else q))
        if not clauses:
            return []
        return self._run(tantivy.Query.boolean_query(clauses), limit, doc_codes, stored=False)

    def search_field(
        self, field_name: str, terms: Sequence[str], limit: int = 10, doc_codes: Sequence[str] | None = None
    ) -> list[LexHit]:
        """BM25 on one field, with that field's stored value (``title``/``rows``) in ``LexHit.stored``."""
        import tantivy

        uniq = list(dict.fromkeys(t.lower() for t in terms if t))
        if not uniq:
            return []
        q = tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, field_name, t)) for t in uniq]
        )
        return self._run(q, limit, doc_codes, stored=True)

    def by_table_no(self, number: str, doc_codes: Sequence[str] | None = None, limit: int = 50) -> list[str]:
        """Chunk ids of the tables numbered ``number`` (e.g. "4.2-1")."""
        import tantivy

        q = tantivy.Query.term_query(self.schema, "table_no", number)
        return [h.chunk_id for h in self._run(q, limit, doc_codes, stored=False)]

    def _run(self, query: Any, limit: int, doc_codes: Sequence[str] | None, stored: bool) -> list[LexHit]:
        """Top ``limit`` chunks: sub-documents fold into their chunk (best score first). A segment that cannot be
        read ends in ``LibraryDamaged`` (Korean, with the repair command), not a Rust panic's traceback."""
        return self._guarded(lambda: self._run_unguarded(query, limit, doc_codes, stored))

    def count_file(self, file: str) -> int:
        """Tantivy documents of one file (chunks and their definition-line sub-documents)."""
        import tantivy

        q = tantivy.Query.term_query(self.schema, "file", file)
        return self._guarded(lambda: int(self.searcher().search(q, limit=1, count=True).count))

    def _guarded(self, read: Callable[[], T]) -> T:
        """``read()``; a segment Tantivy cannot read ends in ``LibraryDamaged`` (Korean, with the repair command)."""
        try:
            return read()
        except BaseException as exc:
            if (reason := open_failure(exc)) is None:
                raise
            from kdsdesk.errors import REPAIR_HINT, LibraryDamaged

            raise LibraryDamaged(
                "lexical_corrupt", f"검색 색인(lexical 폴더)을 읽을 수 없습니다({reason}). {REPAIR_HINT}",
                path=str(self.folder),
            ) from exc  # fmt: skip

    def _run_unguarded(self, query: Any, limit: int, doc_codes: Sequence[str] | None, stored: bool) -> list[LexHit]:
        searcher = self.searcher()
        q = self._filter(query, doc_codes)
        fetch = limit * 2 + 10
        while True:
            result = searcher.search(q, limit=fetch, count=False)
            out: list[LexHit] = []
            seen: set[str] = set()
            for score, addr in result.hits:
                d = searcher.doc(addr).to_dict()
                cid = d["chunk_id"][0]
                if cid in seen:
                    continue
                seen.add(cid)
                out.append(LexHit(cid, float(score), d if stored else {}))
                if len(out) == limit:
                    return out
            if len(result.hits) < fetch:
                return out
            fetch *= 2
