"""Whole-file parse time of the seven real KDS PDFs, with and without OCR, and the OCR cost per row and per page.

    .venv/bin/python bench/bench_ocr_parse.py [--repeat N] [--json OUT]

Runs ``parse_pdf`` of the tree it is run from (``PYTHONPATH`` may point at another checkout to time it "before";
a parser without ``use_ocr`` is timed as it is). Process CPU time (Tesseract's threads included) and wall time,
best of ``--repeat``; OCR rows/pages from the parse statistics. The OCR cost per row is the difference of the two
parses divided by the rows read.
"""

from __future__ import annotations

import argparse
import inspect
import json
import time
from pathlib import Path

KDS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "real" / "kds"
FILES = ["KDS143105.pdf", "KDS143110.pdf"] + [f"KDS143110-{i}.pdf" for i in range(1, 6)]


def _time(fn: object, repeat: int) -> tuple[float, float, object]:
    best_cpu = best_wall = float("inf")
    out = None
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        out = fn()  # type: ignore[operator]
        best_cpu = min(best_cpu, time.process_time() - c)
        best_wall = min(best_wall, time.perf_counter() - w)
    return best_cpu, best_wall, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from kdsdesk.ingest.pdf import parse_pdf

    has_ocr = "use_ocr" in inspect.signature(parse_pdf).parameters
    rows = []
    for name in FILES:
        path = KDS / name
        row: dict[str, object] = {"file": name}
        if has_ocr:
            cpu0, wall0, _ = _time(lambda p=path: parse_pdf(p, use_ocr=False), args.repeat)
            cpu1, wall1, doc = _time(lambda p=path: parse_pdf(p), args.repeat)
            stats = getattr(doc, "stats", {})
            n_rows, n_pages = int(stats.get("ocr_rows", 0)), int(stats.get("ocr_pages", 0))
            row.update(cpu_s_no_ocr=round(cpu0, 3), wall_s_no_ocr=round(wall0, 3), cpu_s=round(cpu1, 3),
                       wall_s=round(wall1, 3), ocr_rows=n_rows, ocr_pages=n_pages,
                       ocr_ms_per_row=round(1000 * (wall1 - wall0) / n_rows, 1) if n_rows else None,
                       unreadable_left=len(getattr(doc, "unreadable", ())))
        else:
            cpu1, wall1, doc = _time(lambda p=path: parse_pdf(p), args.repeat)
            row.update(cpu_s=round(cpu1, 3), wall_s=round(wall1, 3),
                       unreadable_left=len(getattr(doc, "unreadable", ())))
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
