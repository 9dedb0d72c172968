"""Per-file PUA measurement over every PDF of the shared corpus (real/kds, real/hwp-pdf, samples).

For each PDF: HyhwpEQ PUA glyphs decoded by the table or rebuilt from layout (fraction bars, radical vincula and
bracket pieces used in a rebuilt structure), unknown (□, with the codes), symbol-font PUA counted apart,
equations printed as ASCII codes (the 한글 Viewer route), and the time of ``pdf_math.build_lines`` per page.
Checks against ground truth: the 한글 source/PDF pairs (letters, digits and operators of the true scripts) and
the OCR transcript of KDS 14 31 10 (share of rebuilt equations found on the same page).

    .venv/bin/python bench/measure_pua.py [--corpus ../shared/corpus] [--markdown]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kdsdesk.ingest import pdf_math, pua  # noqa: E402
from tests.data.pdf_builder import read_glyphs  # noqa: E402


def measure(path: Path) -> dict[str, object]:
    import pymupdf

    stats = pua.PuaStats()
    pages = read_glyphs(path)
    t0 = time.perf_counter()
    unreadable = 0
    for glyphs in pages:
        for line in pdf_math.build_lines(glyphs, stats=stats):
            unreadable += sum(p.unreadable for p in line.pieces)
    dt = time.perf_counter() - t0
    det = pua.GarbageDetector()
    with pymupdf.open(path) as doc:
        for page in doc:
            for b in page.get_text("dict")["blocks"]:
                for ln in b.get("lines", []):
                    for s in ln["spans"]:
                        det.feed(s["text"], s["font"])
    return {
        "pages": len(pages), "stats": stats, "ms_page": 1000 * dt / max(1, len(pages)),
        "unreadable": unreadable, "garbled": det.document_is_garbled,
    }


def hwp_pair_ok(corpus: Path, stem: str) -> bool:
    from tests.unit.ingest.test_pua import _symbols, hwp_equation_scripts

    folder = corpus / "real" / "hwp-pdf"
    scripts = hwp_equation_scripts(folder / f"{stem}.hwp")
    glyphs = [g for g in read_glyphs(folder / f"{stem}.pdf")[0] if pua.is_hyhwpeq_font(g.font)]
    import re

    return _symbols(pdf_math.linearize(glyphs)) == _symbols("".join(re.sub(r"[가-힣~`]", "", s) for s in scripts))


def ocr_agreement(corpus: Path, part: int, path: Path) -> tuple[int, int]:
    from tests.unit.ingest.test_pua import _ocr_pages, ocr_skeleton, text_skeleton

    pages = _ocr_pages(corpus)
    hits = total = 0
    for pi, glyphs in enumerate(read_glyphs(path)):
        if (part, pi) not in pages:
            continue
        sk = ocr_skeleton(pages[(part, pi)])
        for line in pdf_math.build_lines(glyphs):
            for piece in line.pieces:
                mine = text_skeleton(piece.text)
                if piece.is_math and len(mine) >= 4:
                    total += 1
                    hits += mine in sk
    return hits, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = ap.parse_args()
    corpus: Path = args.corpus
    files = sorted(corpus.glob("real/kds/*.pdf")) + sorted(corpus.glob("real/hwp-pdf/*.pdf")) + sorted(
        corpus.glob("samples/*.pdf")
    )
    kds_parts = {"KDS143110.pdf": 0, **{f"KDS143110-{i}.pdf": i for i in range(1, 6)}}
    total = pua.PuaStats()
    print("| file | pages | HyhwpEQ PUA | decoded | rebuilt | unknown (codes) | coverage | symbol-font PUA "
          "| ASCII-coded eq. | build_lines ms/page | ground truth |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---|---:|---|")
    for path in files:
        m = measure(path)
        st = m["stats"]
        assert isinstance(st, pua.PuaStats)
        if "samples" not in path.parts:
            total.add(st)
        codes = ", ".join(f"U+{c:04X}×{n}" for c, n in st.unknown_codes.most_common(4))
        truth = ""
        if path.name in kds_parts:
            hits, n = ocr_agreement(corpus, kds_parts[path.name], path)
            truth = f"OCR: {hits}/{n} equations found ({100 * hits / max(1, n):.1f}%)"
        elif path.stem in ("equation-lim", "exam_math_8"):
            truth = "HWP source: symbols " + ("match" if hwp_pair_ok(corpus, path.stem) else "DIFFER")
        garbled = f"{m['unreadable']} (document garbled)" if m["garbled"] else str(m["unreadable"])
        rel = path.relative_to(corpus)
        cov = f"{100 * st.coverage:.2f}%" if st.hyhwpeq_total else "—"
        print(f"| {rel} | {m['pages']} | {st.hyhwpeq_total} | {st.decoded} | {st.rebuilt} | {st.unknown}"
              f"{' (' + codes + ')' if codes else ''} | {cov} | {st.symbol_font} | {garbled} "
              f"| {m['ms_page']:.1f} | {truth} |")
    print(f"\nReal PDFs together: {total.hyhwpeq_total} HyhwpEQ PUA glyphs, {100 * total.coverage:.2f}% decoded or "
          f"rebuilt, {total.unknown} unknown, {total.symbol_font} symbol-font PUA.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
