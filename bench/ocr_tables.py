"""Cells of the outlined tables of KDS 14 31 10 (all six PDFs) against the independent PaddleOCR transcript.

    .venv/bin/python bench/ocr_tables.py [--json OUT]

A table counts as outlined when, parsed without OCR, it had no cells (``[표 내용 판독 불가]``) or some of its cells
were read by OCR when parsed with it. For each such numbered table, its non-empty cells (whitespace removed) are
matched one to one against the cells of the transcript's HTML tables under the same caption (a table continued on
the next page is a second HTML table without a caption there): *equal* = same text, *near* = one character apart.
Also: parse time with and without OCR, OCR rows/pages and the time per row.

Against the hand-checked truth ``bench/data/kds143110_tables_truth.json`` (the printed cells, read by eye from the
rendered tables; figure cells left out): ``truth_equal`` = our non-empty cells equal to a truth cell (one to one),
``truth_found`` = truth cells that one of ours equals (their share of all truth cells: recall).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KDS = ROOT.parent / "shared" / "corpus" / "real" / "kds"
TRUTH = ROOT / "bench" / "data" / "kds143110_tables_truth.json"
FILES = ["KDS143110.pdf"] + [f"KDS143110-{i}.pdf" for i in range(1, 6)]
_WS = re.compile(r"\s+")
_CAPTION = re.compile(r"표\s*([A-Z]?\d+(?:\.\d+)*-\d+)")


def norm(text: str) -> str:
    return _WS.sub("", html.unescape(text))


def transcript_tables() -> dict[str, list[str]]:
    """Table number → the transcript's cell texts (every HTML table under that caption, continuations included)."""
    md = (KDS / "KDS143110_paddleocr_merged_output.md").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    current = ""
    pos = 0
    for m in re.finditer(r"<table.*?</table>", md, flags=re.S):
        before = md[pos : m.start()]
        caps = [
            c for c in _CAPTION.finditer(before) if "text-align: center" in before[max(0, c.start() - 60) : c.start()]
        ]
        if caps:
            current = caps[-1].group(1)
        pos = m.end()
        if not current:
            continue
        cells = re.findall(r"<td[^>]*>(.*?)</td>", m.group(0), flags=re.S)
        out.setdefault(current, []).extend(norm(re.sub(r"<[^>]+>", "", c)) for c in cells)
    return out


def truth_tables() -> dict[str, list[str]]:
    """Table number → the hand-checked cell texts (continuation rows included, figure and empty cells left out)."""
    data = json.loads(TRUTH.read_text(encoding="utf-8"))["tables"]
    return {
        k: [norm(c) for r in t["rows"] + t.get("continued", []) for c in r if c and norm(c)] for k, t in data.items()
    }


def match(ours: list[str], theirs: list[str]) -> tuple[int, int]:
    """(equal, near) one-to-one matches of ``ours`` in ``theirs``."""
    from rapidfuzz.distance import Levenshtein

    pool = Counter(t for t in theirs if t)
    equal = 0
    rest = []
    for t in ours:
        if pool[t] > 0:
            pool[t] -= 1
            equal += 1
        else:
            rest.append(t)
    near = 0
    left = list(pool.elements())
    for t in rest:
        k = next((i for i, u in enumerate(left) if Levenshtein.distance(t, u) <= 1), -1)
        if k >= 0:
            left.pop(k)
            near += 1
    return equal, near


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from kdsdesk.ingest.pdf import parse_pdf
    from kdsdesk.ingest.pdf_tables import UNREADABLE_MARK

    ref = transcript_tables()
    truth = truth_tables()
    rows = []
    totals = Counter()
    timing = []
    for name in FILES:
        t0 = time.process_time()
        plain = parse_pdf(KDS / name, use_ocr=False)
        t1 = time.process_time()
        w0 = time.perf_counter()
        t2 = time.process_time()
        read = parse_pdf(KDS / name)
        t3 = time.process_time()
        wall = time.perf_counter() - w0
        timing.append({
            "file": name, "pages": read.n_pages, "cpu_s_without_ocr": round(t1 - t0, 2),
            "cpu_s_with_ocr": round(t3 - t2, 2), "wall_s_with_ocr": round(wall, 2),
            "ocr_rows": int(read.stats["ocr_rows"]), "ocr_pages": int(read.stats["ocr_pages"]),
        })
        unreadable = {b.table.number for b in plain.blocks if b.table is not None and UNREADABLE_MARK in b.text}
        for t in read.tables():
            if not t.number or not (t.number in unreadable or any(c.ocr for c in t.cells)):
                continue
            ours = [norm(c.text) for c in t.cells if norm(c.text)]
            theirs = ref.get(t.number, [])
            equal, near = match(ours, theirs)
            hand = truth.get(t.number, [])
            t_equal, t_near = match(ours, hand)
            rows.append({"file": name, "table": t.number, "cells": len(ours), "transcript_cells": len(theirs),
                         "equal": equal, "near": near, "truth_cells": len(hand), "truth_equal": t_equal,
                         "truth_near": t_near, "was_unreadable": t.number in unreadable})
            totals["cells"] += len(ours)
            totals["equal"] += equal
            totals["near"] += near
            totals["truth_cells"] += len(hand)
            totals["truth_equal"] += t_equal
            totals["truth_near"] += t_near
    out = {
        "tables": rows,
        "cells": totals["cells"],
        "equal_share": round(totals["equal"] / max(1, totals["cells"]), 4),
        "equal_or_near_share": round((totals["equal"] + totals["near"]) / max(1, totals["cells"]), 4),
        "truth_cells": totals["truth_cells"],
        "truth_equal_share": round(totals["truth_equal"] / max(1, totals["cells"]), 4),
        "truth_equal_or_near_share": round((totals["truth_equal"] + totals["truth_near"]) / max(1, totals["cells"]), 4),
        "truth_found_share": round(totals["truth_equal"] / max(1, totals["truth_cells"]), 4),
        "timing": timing,
    }
    text = json.dumps(out, ensure_ascii=False, indent=1)
    if args.json:
        args.json.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
