"""Lexical indexing and search at KDS scale (not CI): ~50,000 chunks in 568 generated standards.

Generates KDS-like documents (sentences drawn from the flattened real KDS texts in
``../shared/corpus/real/kds/*.json``, clause headings, "여기서, X : …" symbol lines, tables with header rows) as
``ParsedDoc``s, then measures on this machine:

- Kiwi's own time: ``Kiwi.tokenize`` over exactly the chunk texts (one shared instance, ``num_workers`` as the
  app uses it) — the floor;
- indexing: ``add_files`` end to end over the same documents (hash, chunk, one Kiwi pass per chunk plus the short
  clause paths/titles, term fields, sub-documents, Tantivy commit per file, SQLite per file), with the time spent
  inside Kiwi, Tantivy and SQLite broken out — target: everything that is not Kiwi within 25% of Kiwi's own time;
- query latency (``hybrid.search``, lexical, k=20, with routes and chunk loading) p50/p95 — target p95 ≤ 20 ms;
- index size (Tantivy folder, SQLite catalog).

    .venv/bin/python bench/bench_lexical.py                 # full scale: 568 documents × 88 chunks
    .venv/bin/python bench/bench_lexical.py --docs 114      # a fifth; times scale linearly (stated in the output)

Parsing is not measured here (``bench_pdf_parse.py``, ``bench_hwpx.py``): documents are handed to the indexer
ready-made. Results also go to ``bench/out/bench_lexical.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kdsdesk.hashing import sha256_of  # noqa: E402
from kdsdesk.index import indexer, lexical, library, terms  # noqa: E402
from kdsdesk.index.library import Catalog  # noqa: E402
from kdsdesk.records import Block, DocRef, ParsedDoc, Span, Table, TableCell  # noqa: E402
from kdsdesk.retrieve.hybrid import search  # noqa: E402
from kdsdesk.service import drain  # noqa: E402
from kdsdesk.text import korean  # noqa: E402
from kdsdesk.text.chunk import chunk_document, make_chunk_id  # noqa: E402

OUT = REPO / "bench" / "out"
KDS_JSON = REPO.parent / "shared" / "corpus" / "real" / "kds"
SYMBOLS = ["f_{ck}", "A_{v,min}", "φV_n", "ρ_{w}", "F_{nw}", "λ", "b_w", "T_{th}", "A_{cp}", "h_f", "L_c", "δ"]


def sentences() -> list[str]:
    pool: list[str] = []
    for f in sorted(KDS_JSON.glob("*.json")):
        content = json.loads(f.read_text(encoding="utf-8"))["content"]
        text = content["full"] if isinstance(content, dict) else str(content)
        for s in re.split(r"(?<=다\.)\s+", text):
            s = " ".join(s.split())
            if 20 <= len(s) <= 300 and re.search(r"[가-힣]", s):
                pool.append(s)
    if not pool:
        raise SystemExit(f"no KDS texts under {KDS_JSON}")
    return pool


def make_doc(i: int, path: Path, sha: str, pool: list[str], n_chunks: int, rnd: random.Random) -> ParsedDoc:
    code = f"KDS {10 + i // 100:02d} {i % 100:02d} {rnd.randint(0, 99):02d}"
    doc = DocRef(str(path), sha, "pdf", code, f"{rnd.choice(pool)[:20]} 설계기준", str(2016 + i % 9))
    blocks: list[Block] = []
    page = 0
    for k in range(n_chunks):
        clause = f"{1 + k // 20}.{1 + (k // 5) % 4}.{1 + k % 5}"
        path_t = (f"{1 + k // 20} 일반", f"{clause.rsplit('.', 1)[0]} 조항", f"{clause} 세부")
        blocks.append(Block("heading", f"{clause} 세부", clause, path_t, heading_level=3))
        if k % 12 == 11:
            n_rows = rnd.randint(3, 10)
            cells = [TableCell(0, c, t, is_header=True) for c, t in enumerate(("구분", "조건", "값(MPa)"))]
            for r in range(1, n_rows):
                cells += [
                    TableCell(r, 0, rnd.choice(pool)[:12]),
                    TableCell(r, 1, rnd.choice(pool)[:18]),
                    TableCell(r, 2, f"{rnd.uniform(0.1, 600):.2f}"),
                ]
            number = f"{clause.rsplit('.', 1)[0]}-{k % 5 + 1}"
            table = Table(number, f"표 {number} {rnd.choice(pool)[:16]}", n_rows, 3, tuple(cells))
            text = "\n".join([table.caption, *table.rows_text()])
            blocks.append(Block("table", text, clause, path_t, pages=(page,), table=table))
        else:
            parts: list[str] = []
            while sum(len(p) for p in parts) < 480:
                parts.append(f"({len(parts) + 1}) {rnd.choice(pool)}")
            if k % 4 == 0:
                sym = rnd.choice(SYMBOLS)
                parts.append(f"여기서, {sym} : {rnd.choice(pool)[:30]}")
            text = "\n".join(parts)[:690]
            blocks.append(Block("text", text, clause, path_t, pages=(page,), spans=(Span(0, len(text), page),)))
        page += k % 2
    return ParsedDoc(doc=doc, blocks=tuple(blocks), n_pages=page + 1)


class Clock:
    """Wall time spent inside wrapped functions."""

    def __init__(self) -> None:
        self.total: dict[str, float] = {}

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*a: Any, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                self.total[name] = self.total.get(name, 0.0) + time.perf_counter() - t

        return timed


def replicate(cat: Catalog, docs: dict[str, ParsedDoc], lex: dict[str, list[Any]], n: int, work: Path) -> list[Any]:
    """Add n-1 copies of every indexed document (new file, code, chunk ids; the same terms): index scale without
    paying Kiwi again. Returns the new chunks."""
    tok_v = indexer.tokenizer_version()
    added: list[Any] = []
    for r in range(1, n):
        for path, parsed in docs.items():
            f = work / "docs" / f"{Path(path).stem}-r{r}.pdf"
            f.write_bytes(b"%PDF-1.7\n" + f.name.encode())
            doc = replace(
                parsed.doc, file=str(f.resolve()), sha256=sha256_of(f), doc_code=f"{parsed.doc.doc_code}-{r}"
            )
            chunks = [
                replace(c, chunk_id=make_chunk_id(doc.sha256, c.ordinal), doc=doc) for c in chunk_document(parsed)
            ]
            lexd = [
                replace(d, chunk_id=c.chunk_id, file=doc.file, doc_code=doc.doc_code)
                for d, c in zip(lex[path], chunks, strict=True)
            ]
            fid = cat.begin_file(doc.file, "pdf", doc.sha256, 1, 0.0)
            cat.lexical.replace_file(doc.file, lexd)
            cat.finish_file(fid, replace(parsed, doc=doc), chunks, indexer.parser_version("pdf"), tok_v)
            added += chunks
    return added


def folder_size(p: Path) -> int:
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=568)
    ap.add_argument("--chunks-per-doc", type=int, default=88)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", metavar="DIR", help="keep the built library in DIR (for profiling)")
    ap.add_argument(
        "--replicate", type=int, default=1, help="then add N-1 copies of every document, reusing its terms (no Kiwi)"
    )
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    pool = sentences()
    work = Path(tempfile.mkdtemp(prefix="bench-lexical-"))
    try:
        files = []
        for i in range(args.docs):
            f = work / "docs" / f"doc{i:04d}.pdf"
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(b"%PDF-1.7\n" + str(i).encode())
            files.append(f)
        docs = {
            str(f.resolve()): make_doc(i, f.resolve(), sha256_of(f), pool, args.chunks_per_doc, rnd)
            for i, f in enumerate(files)
        }
        chunks = [c for d in docs.values() for c in chunk_document(d)]
        texts = [c.text for c in chunks]
        n_chars = sum(len(t) for t in texts)
        print(f"{len(docs)} documents, {len(chunks)} chunks, {n_chars / 1e6:.1f} M characters", flush=True)

        kiwi = korean.get_kiwi()
        kiwi.tokenize("워밍업 문장입니다.")
        t, c = time.perf_counter(), time.process_time()
        for _ in kiwi.tokenize(texts):
            pass
        kiwi_s, kiwi_cpu = time.perf_counter() - t, time.process_time() - c
        print(f"Kiwi alone: {kiwi_s:.1f} s ({n_chars / kiwi_s / 1e3:.0f}k chars/s)", flush=True)

        clock = Clock()
        terms.analyze_many = clock.wrap("kiwi+terms (analyze_many)", terms.analyze_many)  # type: ignore[assignment]
        lexical.LexicalIndex.replace_file = clock.wrap("tantivy", lexical.LexicalIndex.replace_file)  # type: ignore[method-assign]
        library.Catalog.finish_file = clock.wrap("sqlite chunks", library.Catalog.finish_file)  # type: ignore[method-assign]
        captured: dict[str, list[Any]] = {}
        real_lexdocs = indexer.lexdocs

        def capture(chunks_: Any) -> Any:
            out = real_lexdocs(chunks_)
            if chunks_:
                captured[chunks_[0].doc.file] = out
            return out

        indexer.lexdocs = capture  # type: ignore[assignment]
        cat = Catalog(work / "lib")
        t, c = time.perf_counter(), time.process_time()
        report = drain(indexer.add_files(cat, files, parse=lambda p: docs[str(Path(p).resolve())]))
        index_s, index_cpu = time.perf_counter() - t, time.process_time() - c
        assert len(report.added) == len(files), report.failed
        print(f"indexing: {index_s:.1f} s, {json.dumps({k: round(v, 1) for k, v in clock.total.items()})}", flush=True)
        rep_s = 0.0
        if args.replicate > 1:
            t = time.perf_counter()
            chunks += replicate(cat, docs, captured, args.replicate, work)
            rep_s = time.perf_counter() - t
            print(f"replicated ×{args.replicate} without Kiwi: {len(chunks)} chunks in {rep_s:.1f} s", flush=True)

        queries: list[str] = []
        for c in rnd.sample(chunks, args.queries):
            if c.table is not None:
                queries.append(c.table.title)
            elif rnd.random() < 0.2:
                queries.append(rnd.choice([*SYMBOLS, "fck", "A_v,min", "phis"]))
            elif rnd.random() < 0.1:
                queries.append(f"{c.clause} {c.text[4:14]}")
            else:
                s = c.text.split("\n")[0][4:]
                queries.append(s[: rnd.randint(12, 40)] + "는 얼마인가요?")
        search(cat, "워밍업", dense=False)
        lat, cpu = [], []
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            search(cat, q, k=20, dense=False)
            lat.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        lat.sort()
        cpu.sort()
        p50, p95 = statistics.median(lat), lat[int(0.95 * (len(lat) - 1))]
        lex_size = folder_size(work / "lib" / "lexical")
        db_size = (work / "lib" / "catalog.sqlite3").stat().st_size
        cat.close()
        other = index_s - kiwi_s
        scale = 568 / args.docs
        result = {
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
            f"Python {platform.python_version()}",
            "docs": len(docs),
            "chunks": len(chunks),
            "chars": n_chars,
            "kiwi_s": round(kiwi_s, 2),
            "index_s": round(index_s, 2),
            "non_kiwi_over_kiwi": round(other / kiwi_s, 3),
            "cpu_s": {"kiwi": round(kiwi_cpu, 2), "index": round(index_cpu, 2)},
            "non_kiwi_over_kiwi_cpu": round((index_cpu - kiwi_cpu) / kiwi_cpu, 3),
            "breakdown_s": {k: round(v, 2) for k, v in clock.total.items()},
            "query_ms": {"p50": round(p50, 2), "p95": round(p95, 2), "max": round(lat[-1], 2), "n": len(lat)},
            "query_cpu_ms": {"p50": round(statistics.median(cpu), 2), "p95": round(cpu[int(0.95 * (len(cpu) - 1))], 2)},
            "load_average": [round(x, 1) for x in os.getloadavg()],
            "size_mb": {"tantivy": round(lex_size / 1e6, 1), "sqlite": round(db_size / 1e6, 1)},
            "full_scale_estimate_s": {"kiwi": round(kiwi_s * scale, 1), "index": round(index_s * scale, 1)},
            "replicas": args.replicate,
            "chunks_searched": len(chunks),
            "replicate_s": round(rep_s, 1),
        }
        print(json.dumps(result, ensure_ascii=False, indent=1))
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "bench_lexical.json").write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
        if args.keep:
            shutil.copytree(work, args.keep, dirs_exist_ok=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
