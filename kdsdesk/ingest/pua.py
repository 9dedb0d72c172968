"""HyhwpEQ Private-Use-Area decoding: the code table, glyph roles and the per-file PUA counter.

한글 exports equation glyphs in its ``HyhwpEQ`` font with Private-Use-Area codes (U+E000…) instead of the
characters they draw. This module owns:

- the code table: the published one (A–Z, digits, ``( ) − = + . √ |``, Greek, a–z) plus codes confirmed by
  evidence (``EVIDENCED``, each with where it was confirmed; tests in ``tests/unit/ingest/test_pua.py``);
- structural glyphs that have no character of their own: the horizontal rule U+E06D (fraction bar and radical
  vinculum) and the pieces that 한글 stacks into tall brackets (``BRACKET_PIECES``); ``kdsdesk.ingest.pdf_math``
  rebuilds them from positions. What they draw is 한글's font's; a file embedding another font under the HyhwpEQ
  name may draw otherwise (a whole ``(`` for a brace piece) — ``kdsdesk.ingest.eqfont`` reads that from the file;
- symbol-font PUA (Wingdings-style bullets that Hancom remaps to U+F0xx in ordinary text fonts), counted apart;
- the second failure mode: equations printed through the 한글 Viewer keep the HyhwpEQ font but come out as ASCII
  punctuation (``looks_like_ascii_equation_garbage``);
- ``PuaStats``: decoded / rebuilt / unknown / symbol-font counts for the per-file measurement.

A code that is not confirmed becomes ``UNKNOWN`` (□), never a guess: a wrong digit in a standard is worse than a box.
Pure functions on strings; no PDF engine is imported here.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

UNKNOWN = "\u25a1"  # □: a HyhwpEQ code nobody has confirmed
FRACTION_BAR = 0xE06D  # a horizontal rule: fraction bar, radical vinculum or overline (rebuilt from positions)

GlyphRole = Literal["plain", "char", "bar", "bracket", "unknown", "symbol"]
BracketFamily = Literal["paren", "square", "brace"]
PieceRole = Literal["top", "middle", "bottom", "extender"]


def _published_table() -> dict[int, str]:
    """The table published with the issue (start of the decoding; confirmed again by the tests)."""
    table: dict[int, str] = {}
    for i, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
        table[0xE000 + i] = ch
    for i, ch in enumerate("1234567890"):
        table[0xE034 + i] = ch
    table.update({0xE044: "(", 0xE045: ")", 0xE046: "−", 0xE047: "=", 0xE048: "+", 0xE053: ".", 0xE05C: "√"})
    table[0xE101] = "|"
    for i, ch in enumerate("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"):
        table[0xE085 + i] = ch
    for i, ch in enumerate("αβγδεζηθικλμνξοπρστυφχψω"):
        table[0xE09D + i] = ch
    for i, ch in enumerate("abcdefghijklmnopqrstuvwxyz"):
        table[0xE0E5 + i] = ch
    return table


PUBLISHED: dict[int, str] = _published_table()

# Codes added to the published table, each confirmed by evidence (see tests/unit/ingest/test_pua.py):
#   OCR  = the independent transcript of KDS 14 31 10 agrees at the same place,
#   SHAPE = the embedded glyph outline, rasterised, matches the character in a reference font best among
#           look-alike candidates (and is identical across all six KCSC PDFs),
#   HWP  = a 한글 source/PDF pair holds the true script.
EVIDENCED: dict[int, tuple[str, str]] = {
    0xE043: ("*", "SHAPE (KDS 14 31 05 p.29 R_b^*)"),
    0xE049: ("[", "OCR 4[(b_l/b_s)^2−1] KDS143110-1 p.1; SHAPE"),
    0xE04A: ("]", "OCR 4[(b_l/b_s)^2−1] KDS143110-1 p.1; SHAPE"),
    0xE04B: ("{", "OCR max{α_L T_L(1+i), α_E T_E} KDS143110-4 p.8; SHAPE"),
    0xE04C: ("}", "OCR max{α_L T_L(1+i), α_E T_E} KDS143110-4 p.8; SHAPE"),
    0xE04D: ("|", "OCR α_D·|M_1+M_D| KDS143110-4 p.13; SHAPE (one thin vertical rectangle)"),
    0xE052: (",", "OCR max{…(1+i), α_E T_E} KDS143110-4 p.8; SHAPE"),
    0xE054: ("/", "OCR D/t, E/F_y, L/r KDS 14 31 10 (all parts); SHAPE"),
    0xE055: ("<", "OCR 0.11E/F_y < D/t < 0.45E/F_y KDS143110-1 p.6; SHAPE"),
    0xE056: (">", "OCR L/r_a > 80 KDS143110-1 p.1; SHAPE"),
    0xE05B: ("∫", "OCR β_w = 1/I_w = ∫_A z(w²+z²)dA KDS143110-2 p.6 (italic ∫: shape alone does not decide)"),
    0xE067: ("∑", "SHAPE (KDS 14 31 05 p.38 ∑η_iγ_iq_i ≤ φR_n)"),
    0xE0C2: ("φ", "SHAPE (curly phi; KDS 14 31 05 p.37 resistance factors φ_bb, φ_f, φ_s)"),
}


@dataclass(frozen=True, slots=True)
class BracketPiece:
    """One piece of a tall bracket that 한글 builds from a top, an optional middle, a bottom and extenders."""

    family: BracketFamily
    side: Literal["left", "right"]
    role: PieceRole
    alone: str  # the character this piece stands for when it is not part of a stacked bracket


# Evidence: HWP exam_math_8 (`cases{` → E078 top, E079 middle, E07A bottom, E07B extenders of one `{` column);
# OCR \left( … \right) and \left[ … \right] at the same places in KDS 14 31 10 (E07C–E081, E100–E105);
# SHAPE: E101 = E105 and E07D = E080 (identical vertical rules).
BRACKET_PIECES: dict[int, BracketPiece] = {
    0xE078: BracketPiece("brace", "left", "top", "\u23a7"),  # ⎧
    0xE079: BracketPiece("brace", "left", "middle", "\u23a8"),  # ⎨
    0xE07A: BracketPiece("brace", "left", "bottom", "\u23a9"),  # ⎩
    0xE07B: BracketPiece("brace", "left", "extender", "|"),
    0xE07C: BracketPiece("paren", "left", "top", "\u239b"),  # ⎛
    0xE07D: BracketPiece("paren", "left", "extender", "|"),
    0xE07E: BracketPiece("paren", "left", "bottom", "\u239d"),  # ⎝
    0xE07F: BracketPiece("paren", "right", "top", "\u239e"),  # ⎞
    0xE080: BracketPiece("paren", "right", "extender", "|"),
    0xE081: BracketPiece("paren", "right", "bottom", "\u23a0"),  # ⎠
    0xE100: BracketPiece("square", "left", "top", "\u23a1"),  # ⎡
    0xE101: BracketPiece("square", "left", "extender", "|"),  # alone it is the published `|`
    0xE102: BracketPiece("square", "right", "top", "\u23a4"),  # ⎤
    0xE103: BracketPiece("square", "left", "bottom", "\u23a3"),  # ⎣
    0xE104: BracketPiece("square", "right", "bottom", "\u23a6"),  # ⎦
    0xE105: BracketPiece("square", "right", "extender", "|"),
}

BRACKET_CHARS: dict[tuple[BracketFamily, str], str] = {
    ("paren", "left"): "(",
    ("paren", "right"): ")",
    ("square", "left"): "[",
    ("square", "right"): "]",
    ("brace", "left"): "{",
    ("brace", "right"): "}",
}

HYHWPEQ: dict[int, str] = {**PUBLISHED, **{code: ch for code, (ch, _why) in EVIDENCED.items()}}

# Symbol-font PUA (Wingdings codes that Hancom maps to U+F0xx in ordinary text fonts). Evidence: pua-test.pdf
# states the intended character of each (한컴 PDF 정답지). Everything else in a symbol font is dropped.
SYMBOL_FONT: dict[int, str] = {
    0xF076: "\u2756",  # ❖
    0xF09F: "\u2022",  # •
    0xF0A0: "\u25aa",  # ▪
    0xF0A7: "\u25aa",  # ▪
    0xF0FE: "\u2611",  # ☑
}

_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")


def is_pua(ch: str) -> bool:
    """True for a character of the Basic Multilingual Plane's Private Use Area (U+E000–U+F8FF)."""
    return len(ch) == 1 and 0xE000 <= ord(ch) <= 0xF8FF


@functools.lru_cache(maxsize=256)
def is_hyhwpeq_font(fontname: str) -> bool:
    """True for 한글's equation font (``HyhwpEQ``, ``AAAAAJ+HyhwpEQ``, ``HyhwpEQ Italic``, ``HYhwpEQ``)."""
    name = _SUBSET_PREFIX.sub("", fontname or "").replace(" ", "").replace("-", "").lower()
    return name.startswith("hyhwpeq")


def glyph_role(ch: str, fontname: str) -> GlyphRole:
    """How a glyph is read: ``plain`` (not PUA), ``char`` (decoded), ``bar`` (U+E06D), ``bracket`` (a piece),
    ``unknown`` (HyhwpEQ code not confirmed) or ``symbol`` (PUA in another font)."""
    if not is_pua(ch):
        return "plain"
    if not is_hyhwpeq_font(fontname):
        return "symbol"
    code = ord(ch)
    if code == FRACTION_BAR:
        return "bar"
    if code in BRACKET_PIECES:
        return "bracket"
    if code in HYHWPEQ:
        return "char"
    return "unknown"


def decode_char(ch: str, fontname: str) -> str | None:
    """Text for one glyph read on its own; ``None`` when ``ch`` is not PUA (keep it as it is).

    HyhwpEQ: the table's character, a bracket piece's own character (``pdf_math`` stacks pieces into brackets),
    ``""`` for the bar U+E06D (``pdf_math`` rebuilds fractions from it), ``UNKNOWN`` (□) otherwise.
    Other fonts (symbol PUA): a plain bullet or similar, ``""`` (dropped) when not known.
    """
    if not is_pua(ch):
        return None
    code = ord(ch)
    if not is_hyhwpeq_font(fontname):
        return SYMBOL_FONT.get(code, "")
    if code == FRACTION_BAR:
        return ""
    piece = BRACKET_PIECES.get(code)
    if piece is not None:
        return piece.alone
    return HYHWPEQ.get(code, UNKNOWN)


@dataclass(slots=True)
class PuaStats:
    """Per-file counter of PUA glyphs: HyhwpEQ ones decoded, rebuilt (bars and bracket pieces used in a layout)
    or unknown (□, including bars and pieces that no layout used); symbol-font PUA apart."""

    decoded: int = 0
    rebuilt: int = 0
    unknown: int = 0
    symbol_font: int = 0
    unknown_codes: Counter[int] = field(default_factory=Counter)

    @property
    def hyhwpeq_total(self) -> int:
        return self.decoded + self.rebuilt + self.unknown

    @property
    def coverage(self) -> float:
        """Share of HyhwpEQ PUA glyphs decoded or rebuilt (1.0 when there are none)."""
        total = self.hyhwpeq_total
        return 1.0 if total == 0 else (self.decoded + self.rebuilt) / total

    def count_unknown(self, code: int) -> None:
        self.unknown += 1
        self.unknown_codes[code] += 1

    def add(self, other: PuaStats) -> None:
        self.decoded += other.decoded
        self.rebuilt += other.rebuilt
        self.unknown += other.unknown
        self.symbol_font += other.symbol_font
        self.unknown_codes.update(other.unknown_codes)


def decode_text(text: str, fontname: str, stats: PuaStats | None = None) -> str:
    """Decode every PUA character of a span in one font, without layout (bars dropped, pieces as themselves).

    For text where positions are not at hand; ``pdf_math`` gives the better result when they are. Bars and
    bracket pieces are counted unknown here because no layout was rebuilt from them.
    """
    out: list[str] = []
    for ch in text:
        role = glyph_role(ch, fontname)
        if role == "plain":
            out.append(ch)
            continue
        if stats is not None:
            if role == "char":
                stats.decoded += 1
            elif role == "symbol":
                stats.symbol_font += 1
            else:
                stats.count_unknown(ord(ch))
        out.append(decode_char(ch, fontname) or "")
    return "".join(out)


# The 한글 Viewer → Quartz route re-encodes the HyhwpEQ subset with codes assigned from "!" upward in order of
# first use: equations read as `!"#$&'()*+,-./0…`. Proper exports carry PUA codes for those glyphs, and only a
# few real characters (lim, max, log, units, ≤, ×, →) in the HyhwpEQ font.
_GARBAGE_TELLTALE = frozenset("!\"#$%&'()*+,-./0123456789:;<=>?@[\\]^_`{|}~")


def looks_like_ascii_equation_garbage(text: str, fontname: str) -> bool:
    """True when ``text`` drawn in ``fontname`` is a HyhwpEQ equation whose glyphs came out as ASCII codes.

    Such text must be marked unreadable rather than indexed. Rule: HyhwpEQ font, no PUA at all, and at least one
    ASCII punctuation mark or digit (a proper export writes digits, brackets and operators as PUA codes; the only
    plain characters seen in the HyhwpEQ font of real exports are letters of lim/max/log/units and ≤ ≥ × ± ° ·).
    """
    if not is_hyhwpeq_font(fontname):
        return False
    body = "".join(text.split())
    if not body or any(is_pua(ch) for ch in body):
        return False
    return any(ch in _GARBAGE_TELLTALE for ch in body)


@dataclass(slots=True)
class GarbageDetector:
    """Document-level view of the second failure mode: counts HyhwpEQ spans that look like ASCII garbage."""

    garbage_spans: int = 0
    hyhwpeq_spans: int = 0
    pua_glyphs: int = 0

    def feed(self, text: str, fontname: str) -> bool:
        """Record one span; returns whether this span is garbage."""
        if not is_hyhwpeq_font(fontname) or not text.strip():
            return False
        self.hyhwpeq_spans += 1
        self.pua_glyphs += sum(1 for ch in text if is_pua(ch))
        bad = looks_like_ascii_equation_garbage(text, fontname)
        self.garbage_spans += bad
        return bad

    @property
    def document_is_garbled(self) -> bool:
        """Most HyhwpEQ spans are garbage and no PUA code was seen anywhere: the whole file took the Viewer route."""
        return self.pua_glyphs == 0 and self.garbage_spans > 0 and self.garbage_spans * 2 >= self.hyhwpeq_spans
