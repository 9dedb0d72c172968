"""Turn the 350 flattened KCSC texts (``../shared/corpus/kcsc/json/*.json``) into a whole real KDS library: each
standard as a KDS-style HWPX and as an HWP-style PDF, plus question files that say where each quote lies.

    .venv/bin/python bench/kcsc_build.py [--only "KDS 14 20 22"] [--qa FILE.jsonl …] [--jobs 2]

Writes under ``bench/out/kcsc/`` (git-ignored):
- ``hwpx/<stem>.hwpx`` — the code line, the title, then headings and item paragraphs as 한글 writes them
  (fixture builder ``tests/data/hwpx_builder.py``);
- ``pdf/<stem>.pdf`` — as a 한글 PDF export looks: A4, a running header "KDS xx xx xx : YEAR 제목" over a rule, the
  page number "- n -" in the footer, a title block on page 1, numbered clause headings set larger, "(1)"/"①"/"가."
  items as paragraphs with wrapped lines, the Korean font embedded (PyMuPDF's ``korea``; characters it lacks are
  written NFKC-folded, so math-italic 𝑓 becomes f, or in DejaVu Sans). Equations stay their Unicode text and
  flattened tables stay text;
- ``map/<stem>.json`` — the drawn body text of each PDF page and each block's clause (whitespace-free NFKC), so
  question files are placed again without rebuilding (``--qa-only``);
- ``qa/<name>.jsonl`` — each question file given (default: ``kcsc/qa.jsonl`` and ``bench/qa/kcsc-w*.jsonl``)
  with ``file_stem`` and 1-based ``pdf_pages`` of its quote in the built PDF (found by whitespace-free NFKC search
  of the drawn text), so "citation page right" can be measured;
- ``headings.json`` — per standard the 목차's headings listed / placed / after the end of a ``_part1`` text / not
  found, deeper headings found, and for each question whether its quote lies under its ``clause``.

The clause structure comes from ``bench/kcsc_structure.py`` (the standard's own 목차). Prints the totals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.kcsc_structure import Block, Standard, Structure, load, split_body, squash  # noqa: E402

SRC = ROOT.parent / "shared" / "corpus" / "kcsc"
OUT = ROOT / "bench" / "out" / "kcsc"
DEFAULT_QA = [SRC / "qa.jsonl", *sorted((ROOT / "bench" / "qa").glob("kcsc-w*.jsonl"))]
FALLBACK_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


# -- HWPX -----------------------------------------------------------------------------------------------------
def write_hwpx(std: Standard, st: Structure, out: Path) -> Path:
    from tests.data.hwpx_builder import p, para, section, t
    from tests.data.hwpx_builder import write_hwpx as _write

    code_line = f"{std.code} : {std.year}" if std.year else std.code
    paras = [p(t(code_line), first=True), para(std.title)]
    for b in st.blocks:
        paras.append(para(b.heading_line if b.kind == "h" else b.text))
    return _write(out, [section(*paras)], title=std.title)


# -- PDF ------------------------------------------------------------------------------------------------------
class PdfWriter:
    """A 한글-export-like PDF of one standard; ``page_of`` maps the drawn body text (squashed) to pages."""

    W, H = 595.0, 842.0
    LEFT, RIGHT, TOP, BOTTOM = 62.0, 62.0, 92.0, 70.0
    BODY, LEAD = 10.0, 16.0

    def __init__(self, std: Standard) -> None:
        import pymupdf

        self.pymupdf = pymupdf
        self.std = std
        self.kr = pymupdf.Font("korea")
        self.fb = pymupdf.Font(fontfile=str(FALLBACK_FONT)) if FALLBACK_FONT.exists() else None
        self.doc = pymupdf.open()
        self.page: Any = None
        self.y = 0.0
        self.flat: list[str] = []  # squashed body text in drawing order
        self.pages: list[int] = []  # page number of each character of "".join(flat)
        self.header = f"{std.code} : {std.year} {std.title}".strip() if std.year else f"{std.code} {std.title}"
        self._cache: dict[str, tuple[str, str, float]] = {}
        self.writer: Any = None

    # each character: the Korean font, else NFKC-folded, else the fallback font (cached: widths per em)
    def _glyph(self, ch: str) -> tuple[str, str, float]:
        got = self._cache.get(ch)
        if got is None:
            font, out = "kr", ch
            if ch != " " and not self.kr.has_glyph(ord(ch)):
                folded = unicodedata.normalize("NFKC", ch)
                if folded and all(self.kr.has_glyph(ord(c)) for c in folded):
                    out = folded
                elif self.fb is not None and self.fb.has_glyph(ord(ch)):
                    font = "fb"
            got = (font, out, self._font(font).text_length(out, 1.0))
            self._cache[ch] = got
        return got

    def _runs(self, s: str) -> list[tuple[str, str, float]]:
        runs: list[tuple[str, str, float]] = []
        for ch in s:
            font, out, adv = self._glyph(ch)
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + out, runs[-1][2] + adv)
            else:
                runs.append((font, out, adv))
        return runs

    def _font(self, name: str) -> Any:
        return self.fb if name == "fb" else self.kr

    def length(self, s: str, size: float) -> float:
        return sum(self._glyph(ch)[2] for ch in s) * size

    def text(self, x: float, y: float, s: str, size: float, body: bool = True) -> None:
        for f, r, adv in self._runs(s):
            self.writer.append((x, y), r, font=self._font(f), fontsize=size)
            x += adv * size
        if body:
            sq = squash(s)
            self.flat.append(sq)
            self.pages += [self.doc.page_count] * len(sq)

    def _flush(self) -> None:
        if self.page is not None:
            self.writer.write_text(self.page)

    def new_page(self) -> None:
        self._flush()
        self.page = self.doc.new_page(width=self.W, height=self.H)
        self.writer = self.pymupdf.TextWriter(self.page.rect)
        n = self.doc.page_count
        self.text(self.LEFT, 52, self.header[:90], 8.5, body=False)
        self.page.draw_line((self.LEFT, 60), (self.W - self.RIGHT, 60), width=0.5)
        footer = f"- {n} -"
        self.text((self.W - self.length(footer, 9)) / 2, self.H - 40, footer, 9, body=False)
        self.y = self.TOP

    def need(self, height: float) -> None:
        if self.page is None or self.y + height > self.H - self.BOTTOM:
            self.new_page()

    def wrap(self, s: str, size: float, width: float) -> list[str]:
        """Lines as 한글 wraps them: at spaces; a word longer than the line is cut where it fills it."""
        lines: list[str] = []
        line, used = "", 0.0
        space = self.length(" ", size)
        for word in s.split(" "):
            w = self.length(word, size)
            if line and used + space + w <= width:
                line, used = f"{line} {word}", used + space + w
                continue
            if not line and w <= width:
                line, used = word, w
                continue
            if line:
                lines.append(line)
            line, used = word, w
            while used > width:
                k, acc = 0, 0.0
                while k < len(line) and acc + self.length(line[k], size) <= width:
                    acc += self.length(line[k], size)
                    k += 1
                k = max(k, 1)
                lines.append(line[:k])
                line = line[k:]
                used = self.length(line, size)
        if line:
            lines.append(line)
        return lines

    def title_block(self) -> None:
        self.need(120)
        code = f"{self.std.code} : {self.std.year}" if self.std.year else self.std.code
        self.y += 30
        self.text(self.LEFT, self.y, code, 14)
        for line in self.wrap(self.std.title, 16, self.W - self.LEFT - self.RIGHT):
            self.y += 26
            self.text(self.LEFT, self.y, line, 16)
        self.y += 20

    def heading(self, b: Block) -> None:
        level = b.num.count(".") + 1 if b.num else 1
        size = {1: 13.0, 2: 12.0}.get(level, 11.0)
        lines = self.wrap(b.heading_line, size, self.W - self.LEFT - self.RIGHT)
        self.need(size * 1.9 + len(lines) * size * 1.5 + self.LEAD)  # keep a heading with its first line
        self.y += size * 0.9
        for line in lines:
            self.y += size * 1.5
            self.text(self.LEFT, self.y, line, size)
        self.y += size * 0.2

    def para(self, s: str) -> None:
        sub_item = s[:1] in "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳" or (len(s) > 1 and s[1] == "." and "가" <= s[0] <= "하")
        indent = 12.0 if sub_item else 0.0
        width = self.W - self.LEFT - self.RIGHT - indent
        for line in self.wrap(s, self.BODY, width):
            self.need(self.LEAD)
            self.y += self.LEAD
            self.text(self.LEFT + indent, self.y, line, self.BODY)
        self.y += 4

    def build(self, st: Structure, out: Path) -> Path:
        self.new_page()
        self.title_block()
        for b in st.blocks:
            if b.kind == "h":
                self.heading(b)
            else:
                self.para(b.text)
        self.doc.set_metadata({"title": self.std.title, "subject": self.header, "creator": "bench/kcsc_build.py",
                               "producer": "PyMuPDF", "creationDate": "", "modDate": ""})
        self._flush()
        self.doc_pages = self.doc.page_count
        self.doc.subset_fonts()
        self.doc.save(out, garbage=3, deflate=True, no_new_id=True)
        self.doc.close()
        return out

    def page_texts(self) -> list[str]:
        """The drawn body text of each page (squashed), page 1 first."""
        joined = "".join(self.flat)
        out = [""] * self.doc_pages
        for ch, pg in zip(joined, self.pages, strict=True):
            out[pg - 1] += ch
        return out


def pages_of(page_texts: Sequence[str], quote: str) -> list[int]:
    """1-based pages holding ``quote`` (whitespace-free NFKC search across page breaks)."""
    q = squash(quote)
    joined = "".join(page_texts)
    at = joined.find(q) if q else -1
    if at < 0:
        return []
    out, pos = [], 0
    for i, t in enumerate(page_texts, 1):
        if pos < at + len(q) and at < pos + len(t):
            out.append(i)
        pos += len(t)
    return out


def clause_in(blocks: Sequence[Sequence[str]], quote: str) -> str | None:
    """The clause whose block holds ``quote`` in a stored map (``[[clause, squashed text], …]``)."""
    q = squash(quote)
    joined = "".join(t for _, t in blocks)
    at = joined.find(q) if q else -1
    if at < 0:
        return None
    pos = 0
    for clause, t in blocks:
        if at < pos + len(t):
            return clause
        pos += len(t)
    return None


# -- one standard -------------------------------------------------------------------------------------------
def build_one(path: str) -> dict[str, Any]:
    """Build the HWPX, the PDF and the page map of one JSON; its heading counts."""
    std = load(Path(path))
    st = split_body(std.text, std.part_only)
    for d in ("hwpx", "pdf", "map"):
        (OUT / d).mkdir(parents=True, exist_ok=True)
    write_hwpx(std, st, OUT / "hwpx" / f"{std.stem}.hwpx")
    pdf = PdfWriter(std)
    pdf.build(st, OUT / "pdf" / f"{std.stem}.pdf")
    owner, blocks = "", []
    for b in st.blocks:
        owner = (b.num or owner) if b.kind == "h" else owner
        blocks.append([owner, squash(b.heading_line if b.kind == "h" else b.text)])
    page_map = {"code": std.code, "stem": std.stem, "pages": pdf.page_texts(), "blocks": blocks}
    (OUT / "map" / f"{std.stem}.json").write_text(json.dumps(page_map, ensure_ascii=False), encoding="utf-8")
    return {
        "stem": std.stem, "code": std.code, "year": std.year, "title": std.title, "pages": pdf.doc_pages,
        "listed": st.listed, "found": len(st.found), "beyond_part": len(st.beyond), "missing": len(st.missing),
        "missing_labels": [e.label for e in st.missing], "deeper": st.deeper, "unnumbered": st.unnumbered,
        "headings": sum(1 for b in st.blocks if b.kind == "h"),
    }


def place_questions(files: Sequence[Path], maps: dict[str, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Write ``qa/<name>.jsonl`` for each question file: ``file_stem`` and ``pdf_pages`` added; counts."""
    (OUT / "qa").mkdir(parents=True, exist_ok=True)
    stats = {}
    for f in files:
        n = on_page = under = 0
        lines = []
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            it = json.loads(line)
            doc = it.get("doc") or ""
            if doc:
                m = maps.get(doc)
                if m is None:
                    continue  # a standard not built (--only)
                it["file_stem"] = m["stem"]
                it["pdf_pages"] = pages_of(m["pages"], it.get("quote", ""))
                n += 1
                on_page += bool(it["pdf_pages"])
                under += clause_in(m["blocks"], it.get("quote", "")) == it.get("clause")
            lines.append(json.dumps(it, ensure_ascii=False))
        (OUT / "qa" / f.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        stats[f.name] = {"answerable": n, "quote_on_a_pdf_page": on_page, "quote_under_its_clause": under}
    return stats


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", default=[], help="a standard's code (KDS 14 20 22) or file stem")
    ap.add_argument("--qa", action="append", type=Path, default=[], help="question file(s); default kcsc + drafts")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--qa-only", action="store_true", help="only place the questions in what was built before")
    ap.add_argument("--src", type=Path, default=SRC / "json")
    args = ap.parse_args(argv)
    files = sorted(args.src.glob("*.json"))
    if args.only:
        want = {o.replace("_", " ").strip() for o in args.only} | set(args.only)
        files = [f for f in files if f.stem in want or load(f).code in want]
    t0 = time.time()
    results: list[dict[str, Any]] = []
    if not args.qa_only:
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [ex.submit(build_one, str(f)) for f in files]
            for i, fu in enumerate(futs, 1):
                results.append(fu.result())
                if i % 25 == 0 or i == len(futs):
                    print(f"  {i}/{len(futs)} built ({time.time() - t0:.0f} s)", flush=True)
    elif (OUT / "headings.json").exists():
        results = json.loads((OUT / "headings.json").read_text(encoding="utf-8"))["standards"]
    maps = {}
    for f in files:
        mp = OUT / "map" / f"{f.stem}.json"
        if mp.exists():
            m = json.loads(mp.read_text(encoding="utf-8"))
            maps[m["code"]] = m
    qa_stats = place_questions(args.qa or DEFAULT_QA, maps)
    totals = {k: sum(r[k] for r in results) for k in ("listed", "found", "beyond_part", "missing", "deeper",
                                                      "headings", "pages")}
    summary = {"standards": len(results), "unnumbered_bodies": sum(r["unnumbered"] for r in results),
               "with_toc": sum(1 for r in results if r["listed"]), **totals, "qa": qa_stats,
               "seconds": round(time.time() - t0, 1)}
    report = {"summary": summary, "standards": results}
    if not args.only and not args.qa_only:
        (OUT / "headings.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
