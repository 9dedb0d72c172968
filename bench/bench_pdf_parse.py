"""PDF parse speed: an ~800-page HWP-style PDF made by repeating the real KDS 14 31 10 pages; full ``parse_pdf``
per page against PyMuPDF's own ``get_text("rawdict")`` over the same pages (target: within 2×).

    .venv/bin/python bench/bench_pdf_parse.py [--pages 800]

Writes the PDF under ``bench/out/`` (git-ignored) and prints one JSON line of figures: wall time and process CPU
time per page (CPU time is the fair comparison on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pymupdf

from kdsdesk.ingest.pdf import parse_pdf

ROOT = Path(__file__).resolve().parent.parent
KDS = ROOT.parent / "shared" / "corpus" / "real" / "kds"
OUT = ROOT / "bench" / "out"


def build(pages: int) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"kds-{pages}p.pdf"
    if path.exists():
        return path
    sources = [pymupdf.open(p) for p in sorted(KDS.glob("KDS143110*.pdf"))]
    out = pymupdf.open()
    while out.page_count < pages:
        for src in sources:
            take = min(src.page_count, pages - out.page_count)
            if take <= 0:
                break
            out.insert_pdf(src, from_page=0, to_page=take - 1)
    out.save(path, garbage=3, deflate=True)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=800)
    args = ap.parse_args()
    path = build(args.pages)
    doc = pymupdf.open(path)
    n = doc.page_count
    flags = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES
    t0, c0 = time.perf_counter(), time.process_time()
    for page in doc:
        page.get_text("rawdict", flags=flags)
    raw_s, raw_cpu = time.perf_counter() - t0, time.process_time() - c0
    c0 = time.process_time()
    for page in doc:
        page.get_bboxlog()
    bbox_cpu = time.process_time() - c0
    doc.close()
    t0, c0 = time.perf_counter(), time.process_time()
    parsed = parse_pdf(path)
    parse_s, parse_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        json.dumps(
            {
                "pages": n,
                "rawdict_ms_per_page": round(1000 * raw_s / n, 2),
                "parse_ms_per_page": round(1000 * parse_s / n, 2),
                "rawdict_cpu_ms_per_page": round(1000 * raw_cpu / n, 2),
                "bboxlog_cpu_ms_per_page": round(1000 * bbox_cpu / n, 2),
                "parse_cpu_ms_per_page": round(1000 * parse_cpu / n, 2),
                "parse_over_rawdict_cpu": round(parse_cpu / raw_cpu, 2),
                "blocks": len(parsed.blocks),
                "tables": int(parsed.stats["tables"]),
                "pua_coverage": round(parsed.stats["pua_coverage"], 4),
            }
        )
    )


if __name__ == "__main__":
    main()
