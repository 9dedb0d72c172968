"""HWPX parsing over every .hwpx in ../shared/corpus: files, known errors, tables/cells/paragraphs, paragraphs
numbered by 한글 (outline/paragraph numbering) and footnotes/endnotes per file, time.

Run: .venv/bin/python bench/bench_hwpx.py
"""

from __future__ import annotations

import time
from pathlib import Path

from kdsdesk.errors import KnownError
from kdsdesk.ingest.hwpx import parse_hwpx

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def main() -> None:
    files = sorted(CORPUS.rglob("*.hwpx"))
    ok = known = 0
    tables = cells = paras = numbered = notes = 0.0
    per_file: list[str] = []
    times: list[tuple[float, str]] = []
    start = time.perf_counter()
    for f in files:
        t = time.perf_counter()
        try:
            d = parse_hwpx(f)
            ok += 1
            tables += d.stats.get("tables", 0)
            cells += d.stats.get("table_cells", 0)
            paras += d.stats.get("paragraphs", 0)
            n, k = d.stats.get("numbered_paragraphs", 0), d.stats.get("notes", 0)
            numbered += n
            notes += k
            if n or k:
                heads = sum(1 for b in d.blocks if b.kind == "heading")
                items = sum(1 for b in d.blocks if b.item)
                per_file.append(f"  {f.name}: numbered={n:.0f} notes={k:.0f} headings={heads} items={items}")
        except KnownError:
            known += 1
        times.append((time.perf_counter() - t, f.name))
    total = time.perf_counter() - start
    print(f"files={len(files)} parsed={ok} known_errors={known} total={total:.2f}s "
          f"tables={tables:.0f} cells={cells:.0f} paragraphs={paras:.0f} numbered={numbered:.0f} notes={notes:.0f}")
    print("files with generated numbers or notes:")
    print("\n".join(per_file))
    print("slowest:", ", ".join(f"{name} {sec * 1000:.0f} ms" for sec, name in sorted(times)[-3:]))
    sample = CORPUS / "samples" / "dev-kds-14-20-22.hwpx"
    t = time.perf_counter()
    for _ in range(10):
        parse_hwpx(sample)
    print(f"{sample.name}: {(time.perf_counter() - t) * 100:.1f} ms per parse")


if __name__ == "__main__":
    main()
