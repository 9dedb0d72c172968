"""HyhwpEQ PUA decoding: the table, roles, symbol PUA, ASCII-garbage detection, and the evidence for every code
added to the published table — glyph shapes of the embedded font, the 한글 source/PDF pairs, the OCR transcript."""

from __future__ import annotations

import functools
import io
import re
import struct
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kdsdesk.ingest import pdf_math, pua
from tests.data.pdf_builder import read_glyphs

KDS = ("kds/KDS143110.pdf", "kds/KDS143110-1.pdf", "kds/KDS143110-2.pdf", "kds/KDS143110-3.pdf",
       "kds/KDS143110-4.pdf", "kds/KDS143110-5.pdf")


# -- table and roles ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "char"),
    [(0xE000, "A"), (0xE005, "F"), (0xE019, "Z"), (0xE034, "1"), (0xE03C, "9"), (0xE03D, "0"), (0xE044, "("),
     (0xE046, "−"), (0xE053, "."), (0xE05C, "√"), (0xE085, "Α"), (0xE09C, "Ω"), (0xE09D, "α"), (0xE0A7, "λ"),
     (0xE0B1, "φ"), (0xE0E5, "a"), (0xE0FE, "z"), (0xE101, "|")],
)
def test_published_table(code: int, char: str) -> None:
    assert pua.decode_char(chr(code), "AAAAAJ+HyhwpEQ") == char


def test_decode_char_roles() -> None:
    eq = "HyhwpEQ"
    assert pua.decode_char("x", eq) is None  # not PUA: keep the character
    assert pua.decode_char("\ue06d", eq) == ""  # the rule is rebuilt by pdf_math, never text on its own
    assert pua.decode_char("\ue0c3", eq) == pua.UNKNOWN  # not confirmed: a box, never a guess
    assert pua.glyph_role("\ue0c3", eq) == "unknown"
    assert pua.glyph_role("\ue07c", eq) == "bracket"
    assert pua.glyph_role("\ue054", eq) == "char"
    assert pua.decode_char("\ue07c", eq) == "⎛"  # a lone piece keeps its own character


def test_evidenced_codes_do_not_override_the_published_table() -> None:
    assert not set(pua.EVIDENCED) & set(pua.PUBLISHED)
    assert not set(pua.BRACKET_PIECES) - {0xE101} & set(pua.HYHWPEQ)


def test_symbol_font_pua_is_a_bullet_or_dropped() -> None:
    assert pua.decode_char("\uf09f", "Haansoft-Batang") == "•"
    assert pua.decode_char("\uf000", "HCRBatang") == ""
    assert pua.glyph_role("\uf09f", "Wingdings") == "symbol"
    stats = pua.PuaStats()
    assert pua.decode_text("가\uf09f나\ue000", "HCRBatang", stats) == "가•나"
    assert stats.symbol_font == 2
    assert stats.hyhwpeq_total == 0


@pytest.mark.parametrize("name", ["HyhwpEQ", "AAAAAJ+HyhwpEQ", "HyhwpEQ Italic", "INPILL+HyhwpEQ", "HYhwpEQ"])
def test_is_hyhwpeq_font(name: str) -> None:
    assert pua.is_hyhwpeq_font(name)


@pytest.mark.parametrize("name", ["HCRDotum", "Haansoft-Batang", "", "TimesNewRoman"])
def test_is_not_hyhwpeq_font(name: str) -> None:
    assert not pua.is_hyhwpeq_font(name)


def test_stats_coverage_and_merge() -> None:
    a = pua.PuaStats(decoded=97, rebuilt=2)
    a.count_unknown(0xE0C3)
    b = pua.PuaStats(symbol_font=3)
    b.count_unknown(0xE0C3)
    a.add(b)
    assert a.unknown == 2
    assert a.unknown_codes[0xE0C3] == 2
    assert a.coverage == pytest.approx(99 / 101)
    assert pua.PuaStats().coverage == 1.0


@pytest.mark.parametrize(
    ("text", "font", "garbage"),
    [('!"#', "AAAAAD+HyhwpEQ", True), ("5 →7", "HyhwpEQ", True), ("&05", "HyhwpEQ", True),
     ("lim", "HyhwpEQ", False), ("MPa", "HyhwpEQ", False), ("≤", "HyhwpEQ", False), ("   ", "HyhwpEQ", False),
     ("\ue034\ue047", "HyhwpEQ", False), ("1+2=3", "HCRBatang", False)],
)
def test_ascii_garbage(text: str, font: str, garbage: bool) -> None:
    assert pua.looks_like_ascii_equation_garbage(text, font) is garbage


def _span_texts(path: Path) -> list[tuple[str, str]]:
    import pymupdf

    with pymupdf.open(path) as doc:
        return [
            (s["text"], s["font"])
            for page in doc
            for b in page.get_text("dict")["blocks"]
            for line in b.get("lines", [])
            for s in line["spans"]
        ]


@pytest.mark.parametrize(("name", "garbled"), [("hwp-pdf/exam_math.pdf", True), ("hwp-pdf/exam_math_8.pdf", False),
                                                ("kds/KDS143110-1.pdf", False)])
def test_viewer_route_document_is_detected(corpus: Path, name: str, garbled: bool) -> None:
    det = pua.GarbageDetector()
    for text, font in _span_texts(corpus / "real" / name):
        det.feed(text, font)
    assert det.document_is_garbled is garbled
    if not garbled:
        assert det.garbage_spans == 0


# -- evidence: glyph shapes of the embedded HyhwpEQ font ----------------------------------------------------------
def _embedded_outlines(pdf: Path, codes: set[int]) -> dict[int, tuple[str, tuple[float, float, float, float]]]:
    """SVG path and bounds of each code's glyph in the PDF's embedded HyhwpEQ font (via the glyph id)."""
    import pymupdf
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.ttLib import TTFont

    out: dict[int, tuple[str, tuple[float, float, float, float]]] = {}
    with pymupdf.open(pdf) as doc:
        fonts = []
        seen: set[int] = set()
        for pi in range(len(doc)):
            for f in doc.get_page_fonts(pi):
                if pua.is_hyhwpeq_font(f[3]) and f[0] not in seen:
                    seen.add(f[0])
                    fonts.append(TTFont(io.BytesIO(doc.extract_font(f[0])[3])))
        for page in doc:
            for span in page.get_texttrace():
                if not pua.is_hyhwpeq_font(span["font"]):
                    continue
                for c in span["chars"]:
                    if c[0] not in codes or c[0] in out:
                        continue
                    for font in fonts:
                        order = font.getGlyphOrder()
                        if c[1] < len(order) and font["glyf"][order[c[1]]].numberOfContours:
                            gs = font.getGlyphSet()
                            pen, bounds = SVGPathPen(gs), BoundsPen(gs)
                            gs[order[c[1]]].draw(pen)
                            gs[order[c[1]]].draw(bounds)
                            assert bounds.bounds is not None
                            out[c[0]] = (pen.getCommands(), bounds.bounds)
                            break
    return out


def _normalise(pix: Any, n: int = 32) -> tuple[Any, float] | None:
    """Ink of a rendering cropped to its box and resampled to n × n, with its height/width ratio."""
    import numpy as np

    a = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, 0] < 128
    ys, xs = np.nonzero(a)
    if len(ys) == 0:
        return None
    crop = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = crop.shape
    iy, ix = (np.arange(n) * h / n).astype(int), (np.arange(n) * w / n).astype(int)
    return crop[np.ix_(iy, ix)], h / w


def _raster_outline(cmds: str, bounds: tuple[float, float, float, float]) -> tuple[Any, float] | None:
    import pymupdf

    x0, y0, x1, y1 = bounds
    w, h = x1 - x0 + 40, y1 - y0 + 40
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{x0 - 20} {-y1 - 20} {w} {h}">'
           f'<g transform="scale(1,-1)"><path d="{cmds}" fill="black"/></g></svg>')
    with pymupdf.open("svg", svg.encode()) as doc:
        zoom = 200 / max(w, h)
        return _normalise(doc[0].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False))


@functools.lru_cache(maxsize=512)
def _raster_char(ch: str, font: str) -> tuple[Any, float] | None:
    import pymupdf

    with pymupdf.open() as doc:
        page = doc.new_page(width=300, height=300)
        page.insert_font(fontname="ref", fontbuffer=pymupdf.Font(font).buffer)
        page.insert_text((50, 200), ch, fontname="ref", fontsize=150)
        return _normalise(page.get_pixmap(alpha=False))


def _similarity(a: tuple[Any, float] | None, b: tuple[Any, float] | None) -> float:
    import math

    if a is None or b is None:
        return -1.0
    inter, union = (a[0] & b[0]).sum(), (a[0] | b[0]).sum()
    return float(inter / max(1, union)) - 0.25 * abs(math.log(a[1] / b[1]))


CONFUSABLE = "/\\|<>≤≥()[]{},.;:*∗∑Σ∫lI1"
GREEK_LOWER = "αβγδεζηθικλμνξοπρστυφχψωϕ"


@pytest.mark.parametrize(
    ("pdf", "code", "accept", "candidates"),
    [
        ("kds/KDS143110-4.pdf", 0xE049, "[", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE04A, "]", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE04B, "{", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE04C, "}", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE04D, "|", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE052, ",", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE054, "/", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE055, "<", CONFUSABLE),
        ("kds/KDS143110-4.pdf", 0xE056, ">", CONFUSABLE),
        ("kds/KDS143105.pdf", 0xE043, "*∗", CONFUSABLE),
        ("kds/KDS143105.pdf", 0xE067, "∑Σ", CONFUSABLE),
        ("kds/KDS143105.pdf", 0xE0C2, "φϕ", GREEK_LOWER + "0oQ"),
    ],
)
def test_shape_evidence(corpus: Path, pdf: str, code: int, accept: str, candidates: str) -> None:
    """The glyph drawn for ``code`` resembles its decoded character more than any look-alike, in reference fonts."""
    outline = _embedded_outlines(corpus / "real" / pdf, {code})[code]
    glyph = _raster_outline(*outline)
    scores = sorted(
        ((_similarity(glyph, _raster_char(ch, font)), ch) for ch in candidates for font in ("tiro", "symb", "helv",
                                                                                              "korea")),
        reverse=True,
    )
    assert scores[0][1] in accept, scores[:4]
    assert pua.HYHWPEQ[code] in accept


def test_extender_pieces_are_the_same_vertical_rule(corpus: Path) -> None:
    """E105 draws exactly E101 (the published |), E080 exactly E07D: they are bracket extenders."""

    def shape(item: tuple[str, tuple[float, float, float, float]]) -> tuple[str, float, float]:
        path, (x0, y0, x1, y1) = item
        return re.sub(r"[^A-Za-z]", "", path), round(x1 - x0), round(y1 - y0)

    got = _embedded_outlines(corpus / "real" / "kds" / "KDS143110-2.pdf", {0xE101, 0xE105, 0xE07D, 0xE080, 0xE06D})
    assert shape(got[0xE101]) == shape(got[0xE105])
    assert shape(got[0xE07D]) == shape(got[0xE080])
    assert shape(got[0xE101])[2] > 10 * shape(got[0xE101])[1]  # a tall thin rule
    x0, y0, x1, y1 = got[0xE06D][1]
    assert x1 - x0 > 10 * (y1 - y0)  # the fraction bar is a wide thin rule


# -- evidence: 한글 source/PDF pairs ------------------------------------------------------------------------------
def hwp_equation_scripts(path: Path) -> list[str]:
    """Equation scripts of a HWP 5 file: HWPTAG_EQEDIT (tag 88) records of BodyText/Section* (raw deflate)."""
    import olefile

    out: list[str] = []
    with olefile.OleFileIO(str(path)) as ole:
        compressed = struct.unpack("<I", ole.openstream("FileHeader").read()[36:40])[0] & 1
        for entry in ole.listdir():
            if entry[0] != "BodyText":
                continue
            data = ole.openstream(entry).read()
            if compressed:
                data = zlib.decompress(data, -15)
            i = 0
            while i + 4 <= len(data):
                head = struct.unpack("<I", data[i : i + 4])[0]
                i += 4
                tag, size = head & 0x3FF, (head >> 20) & 0xFFF
                if size == 0xFFF:
                    size = struct.unpack("<I", data[i : i + 4])[0]
                    i += 4
                rec = data[i : i + size]
                i += size
                if tag == 88:
                    n = struct.unpack("<H", rec[4:6])[0]
                    out.append(rec[6 : 6 + 2 * n].decode("utf-16-le"))
    return out


_SCRIPT_WORDS = re.compile(r"\b(?:left|right|LEFT|RIGHT|over|cases|rm|it|eqalign|rarrow|lim)\b")


def _symbols(text: str) -> Counter[str]:
    """Letters, digits and operators of a text (what a wrong decoding would change)."""
    text = re.sub(r"[_^{}()]", " ", text.replace("-", "−").replace("rarrow", "→"))
    text = _SCRIPT_WORDS.sub(" ", text)
    return Counter(ch for ch in text if (ch.isascii() and ch.isalnum()) or ch in "+−=|.√→")


@pytest.mark.parametrize("stem", ["equation-lim", "exam_math_8"])
def test_hwp_pairs_decode_to_the_true_scripts(corpus: Path, stem: str) -> None:
    """Every letter, digit and operator decoded from the PDF is in the 한글 source's equation scripts, as often."""
    folder = corpus / "real" / "hwp-pdf"
    scripts = hwp_equation_scripts(folder / f"{stem}.hwp")
    assert scripts
    stats = pua.PuaStats()
    glyphs = [g for g in read_glyphs(folder / f"{stem}.pdf")[0] if pua.is_hyhwpeq_font(g.font)]
    got = _symbols(pdf_math.linearize(glyphs, (), stats))
    want = _symbols("".join(re.sub(r"[가-힣~`]", "", s) for s in scripts))
    assert got == want
    assert stats.unknown == 0
    assert stats.coverage == 1.0


def test_hwp_pair_layout_matches_the_script(corpus: Path) -> None:
    """lim_{h→0} {f(2+h)−f(2)} over {h}: the rebuilt layout reads as the source script does."""
    from kdsdesk.ingest import hwpeq

    folder = corpus / "real" / "hwp-pdf"
    (script,) = hwp_equation_scripts(folder / "equation-lim.hwp")
    text = pdf_math.linearize(read_glyphs(folder / "equation-lim.pdf")[0])
    assert text == "lim_{h→0}((f(2+h)−f(2))/h)"

    def skeleton(t: str) -> str:
        return re.sub(r"[\s(){}_^]", "", t.replace("-", "−"))

    assert skeleton(text) == skeleton(hwpeq.linearize(script))


def test_hwp_pair_cases_brace_is_rebuilt(corpus: Path) -> None:
    """exam_math_8: `cases{` is drawn from E078 (top), E079 (middle), E07A (bottom) and E07B (extenders)."""
    folder = corpus / "real" / "hwp-pdf"
    assert any("cases{" in s for s in hwp_equation_scripts(folder / "exam_math_8.hwp"))
    stats = pua.PuaStats()
    lines = [ln.text for ln in pdf_math.build_lines(read_glyphs(folder / "exam_math_8.pdf")[0], stats=stats)]
    assert "a_{n+1}={" in lines
    assert "(나) |a_m|=|a_{m+2}|인 자연수 m의 최솟값은 3이다." in lines
    assert stats.rebuilt == 6
    assert stats.unknown == 0


# -- evidence: the OCR transcript of KDS 14 31 10 ------------------------------------------------------------------
_TEX = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "eta": "η",
        "theta": "θ", "lambda": "λ", "mu": "μ", "nu": "ν", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ",
        "phi": "φ", "varphi": "φ", "psi": "ψ", "omega": "ω", "Delta": "Δ", "Phi": "Φ", "Sigma": "∑", "sum": "∑",
        "leq": "≤", "geq": "≥", "le": "≤", "ge": "≥", "times": "×", "sqrt": "√", "int": "∫", "cdot": "·",
        "pm": "±", "lt": "<", "gt": ">", "infty": "∞", "mid": "|"}


def _tex_arg(t: str, i: int) -> tuple[str, int]:
    while i < len(t) and t[i] == " ":
        i += 1
    if i < len(t) and t[i] == "{":
        depth = 0
        for j in range(i, len(t)):
            depth += (t[j] == "{") - (t[j] == "}")
            if depth == 0:
                return t[i + 1 : j], j + 1
    return t[i : i + 1], i + 1


def _defrac(t: str) -> str:
    out, i = [], 0
    while i < len(t):
        m = re.match(r"\\[dt]?frac", t[i:])
        if m:
            a, j = _tex_arg(t, i + m.end())
            b, k = _tex_arg(t, j)
            out.append(f"{_defrac(a)}/{_defrac(b)}")
            i = k
            continue
        out.append(t[i])
        i += 1
    return "".join(out)


def ocr_skeleton(tex: str) -> str:
    t = _defrac(tex).replace("\\left", "").replace("\\right", "").replace("\\{", "{").replace("\\}", "}")
    t = re.sub(r"\\([A-Za-z]+)", lambda m: _TEX.get(m.group(1), ""), t)
    return re.sub(r"[\s{}_^()\\$]", "", t.replace("−", "-").replace("Σ", "∑"))


def text_skeleton(text: str) -> str:
    return re.sub(r"[\s{}_^()]", "", text.replace("−", "-").replace("Σ", "∑"))


def _ocr_pages(corpus: Path) -> dict[tuple[int, int], str]:
    text = (corpus / "real" / "kds" / "KDS143110_paddleocr_merged_output.md").read_text(encoding="utf-8")
    parts = re.split(r"<!-- Source: output-(\d+)/doc_(\d+)\.md -->", text)
    return {(int(parts[i]), int(parts[i + 1])): parts[i + 2] for i in range(1, len(parts), 3)}


ALTERNATIVES = {0xE049: "{", 0xE04A: "}", 0xE052: ".;", 0xE054: "|\\1", 0xE055: ">≤≥", 0xE056: "<≤≥", 0xE05B: "/∑",
                0xE04D: "/1"}


@pytest.mark.slow
def test_ocr_transcript_agrees(corpus: Path) -> None:
    """Equations rebuilt from the six KCSC PDFs of KDS 14 31 10 appear in the independent OCR transcript of the
    same pages; for each code added to the table, the chosen character agrees with the transcript more often
    than any look-alike."""
    pages = _ocr_pages(corpus)
    hits = total = 0
    per_code: dict[int, Counter[str]] = {c: Counter() for c in ALTERNATIVES}
    for part, name in enumerate(KDS):
        for pi, glyphs in enumerate(read_glyphs(corpus / "real" / name)):
            ocr = pages.get((part, pi))
            if ocr is None:
                continue
            sk = ocr_skeleton(ocr)
            for line in pdf_math.build_lines(glyphs):
                for piece in line.pieces:
                    mine = text_skeleton(piece.text)
                    if not piece.is_math or len(mine) < 4:
                        continue
                    total += 1
                    hits += mine in sk
                    codes = {ord(glyphs[i].char) for i in piece.glyphs}
                    for code, alts in ALTERNATIVES.items():
                        if code not in codes:
                            continue
                        chosen = pua.HYHWPEQ[code]
                        per_code[code]["chosen"] += mine in sk
                        for alt in alts:
                            per_code[code][alt] += text_skeleton(piece.text.replace(chosen, alt)) in sk
    assert total > 900
    assert hits / total >= 0.85
    for code, counts in per_code.items():
        assert counts["chosen"] >= 1, hex(code)
        assert all(counts["chosen"] > counts[alt] for alt in ALTERNATIVES[code]), (hex(code), counts)


def test_ocr_spot_checks(corpus: Path) -> None:
    """Spots named in ``pua.EVIDENCED``: the rebuilt equation is in the transcript of that page."""
    pages = _ocr_pages(corpus)
    spots = [(1, 0, "4[(b_l/b_s)^2−1]"), (1, 5, "0.11(E/F_y)<D/t<0.45(E/F_y)"), (1, 0, "L/r_a>80"),
             (1, 5, "A_e=[(0.038E)/(F_y(D/t))+2/3]A_g"), (4, 12, "α_D·|M_1+M_D|"), (2, 5, "∫_A z(w^2+z^2)dA"),
             (4, 7, "α_E T_E}")]
    glyph_pages = {part: read_glyphs(corpus / "real" / KDS[part]) for part in {p for p, _, _ in spots}}
    for part, pi, expected in spots:
        text = " ".join(ln.text for ln in pdf_math.build_lines(glyph_pages[part][pi]))
        assert expected.replace("·", "․") in text.replace("·", "․"), (part, pi, expected)
        assert text_skeleton(expected).replace("·", "") in ocr_skeleton(pages[(part, pi)]).replace("·", "")
