"""HWPX generated paragraph numbers: 한글's outline numbering (개요 번호) and paragraph numbering (문단 번호).

A heading typed as ``일반사항`` may display as ``1. 일반사항`` because its paragraph shape numbers it: the digits
are not in any ``hp:t``. This module restores them so that KDS-style headings (``4.2.3 …``) and item markers
(``(1)``, ``①``, ``가.``) come out as if typed.

- ``Contents/header.xml``: ``hh:paraPr/hh:heading`` (``type`` OUTLINE | NUMBER | BULLET | NONE, ``idRef``,
  ``level`` 0-based) and ``hh:numbering`` (``id``, ``start``) with one ``hh:paraHead`` per level (``level``
  1-based, ``start``, ``numFormat``, and the format text such as ``^1.``, ``^1.^2``, ``(^3)``, ``제^1장``).
- OUTLINE paragraphs use the numbering named by their section's ``hp:secPr/@outlineShapeIDRef`` (``idRef`` is 0);
  NUMBER paragraphs use ``idRef``. BULLET paragraphs get no number (their glyphs are symbol-font codes).
- Counters: one row of levels per (kind, numbering id), advanced in document order. A paragraph at level L sets
  unset shallower levels to their start (a jump from 1 to 1.1.1 shows ``1.1.1``), advances level L (its first use
  shows the level's ``start``) and clears deeper levels. 한글 starts a new list by writing a new numbering id, so
  ids need no other reset.
- Format codes: ``^k`` (k = 1..10) the number of level k in that level's ``numFormat``; ``^n`` the level path
  ``1.1.1``; ``^N`` the path and a final dot. A level whose format text is empty shows nothing.
- ``format_number`` also renders footnote/endnote ``hp:autoNum`` numbers (NumberType2 adds a few formats).

Pure functions and small classes over lxml elements matched by local name; no parser engine imported here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_LEVELS = 10
MAX_NUMBER = 9999  # a counter beyond this is a broken file, not a heading number
_CODE = re.compile(r"\^(10|[1-9]|[nN])")

_HANGUL_SYLLABLES = "가나다라마바사아자차카타파하"
_HANGUL_JAMO = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"
_HANGUL_DIGITS = ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]
_IDEOGRAPH_DIGITS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
_DECAGON_HANJA = "甲乙丙丁戊己庚辛壬癸"
_ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def _local(el: Any) -> str:
    tag = el.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _int_attr(el: Any, name: str, default: int | None) -> int | None:
    value = el.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        return default


def _roman(n: int) -> str:
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def _cycle(n: int, letters: str) -> str:
    """``A … Z, AA … ZZ, AAA …`` (the letter repeats once per round, as word processors do)."""
    k = len(letters)
    return letters[(n - 1) % k] * ((n - 1) // k + 1)


def _circled(n: int) -> str:
    if 1 <= n <= 20:
        return chr(0x2460 + n - 1)  # ① … ⑳
    if 21 <= n <= 35:
        return chr(0x3251 + n - 21)  # ㉑ … ㉟
    if 36 <= n <= 50:
        return chr(0x32B1 + n - 36)  # ㊱ … ㊿
    return str(n)


def _spoken(n: int, digits: list[str], ten: str, hundred: str, thousand: str) -> str:
    """Sino-Korean / Chinese number words: 23 → 이십삼 / 二十三."""
    if n <= 0:
        return str(n)
    out = []
    for unit_value, unit in ((1000, thousand), (100, hundred), (10, ten)):
        d, n = divmod(n, unit_value)
        if d:
            out.append(("" if d == 1 else digits[d]) + unit)
    if n:
        out.append(digits[n])
    return "".join(out)


def format_number(n: int, fmt: str) -> str:
    """``n`` in an OWPML number format (``DIGIT`` 3, ``CIRCLED_DIGIT`` ③, ``HANGUL_SYLLABLE`` 다, ``ROMAN_SMALL``
    iii, …). Formats with a closed set of glyphs fall back to digits past their end; unknown formats give digits."""
    if n <= 0 or fmt in ("", "DIGIT"):
        return str(n)
    if fmt == "CIRCLED_DIGIT":
        return _circled(n)
    if fmt in ("ROMAN_CAPITAL", "ROMAN_SMALL"):
        text = _roman(n) if n < 4000 else str(n)
        return text if fmt == "ROMAN_CAPITAL" else text.lower()
    if fmt == "LATIN_CAPITAL":
        return _cycle(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if fmt == "LATIN_SMALL":
        return _cycle(n, "abcdefghijklmnopqrstuvwxyz")
    if fmt == "CIRCLED_LATIN_CAPITAL":
        return chr(0x24B6 + n - 1) if n <= 26 else str(n)  # Ⓐ
    if fmt == "CIRCLED_LATIN_SMALL":
        return chr(0x24D0 + n - 1) if n <= 26 else str(n)  # ⓐ
    if fmt == "HANGUL_SYLLABLE":
        return _cycle(n, _HANGUL_SYLLABLES)
    if fmt == "CIRCLED_HANGUL_SYLLABLE":
        return chr(0x326E + n - 1) if n <= 14 else str(n)  # ㉮
    if fmt == "HANGUL_JAMO":
        return _cycle(n, _HANGUL_JAMO)
    if fmt == "CIRCLED_HANGUL_JAMO":
        return chr(0x3260 + n - 1) if n <= 14 else str(n)  # ㉠
    if fmt == "HANGUL_PHONETIC":
        return _spoken(n, _HANGUL_DIGITS, "십", "백", "천")
    if fmt == "IDEOGRAPH":
        return _spoken(n, _IDEOGRAPH_DIGITS, "十", "百", "千")
    if fmt == "CIRCLED_IDEOGRAPH":
        return chr(0x3280 + n - 1) if n <= 10 else str(n)  # ㊀
    if fmt == "DECAGON_CIRCLE_HANJA":
        return _DECAGON_HANJA[(n - 1) % 10]
    return str(n)


@dataclass(frozen=True)
class ParaHead:
    """One level of a numbering: its first number, number format and format text (``^1.^2``)."""

    start: int
    num_format: str
    text: str


@dataclass(frozen=True)
class HeadingRef:
    """What a paragraph shape asks for: ``kind`` OUTLINE | NUMBER | BULLET, the numbering id, 0-based level."""

    kind: str
    id_ref: int
    level: int


@dataclass
class NumberingStyles:
    """Numbering definitions of one document (``header.xml``)."""

    numberings: dict[int, dict[int, ParaHead]] = field(default_factory=dict)  # id → level (1-based) → head
    para_prs: dict[str, HeadingRef] = field(default_factory=dict)  # paraPr id → numbered heading


def read_styles(header: Any) -> NumberingStyles:
    """Numbering and numbered paragraph shapes from the root of ``Contents/header.xml`` (``None`` → empty)."""
    styles = NumberingStyles()
    if header is None:
        return styles
    for el in header.iter("{*}numbering", "{*}paraPr"):  # lxml: any namespace (2011/2016/2024) or none
        name = _local(el)
        if name == "numbering":
            nid = _int_attr(el, "id", None)
            if nid is None:
                continue
            list_start = _int_attr(el, "start", 1) or 1
            levels: dict[int, ParaHead] = {}
            for head in el:
                if _local(head) != "paraHead":
                    continue
                level = _int_attr(head, "level", None)
                if level is None or not 1 <= level <= MAX_LEVELS:
                    continue
                default = list_start if level == 1 else 1
                start = max(0, _int_attr(head, "start", default) or 0)
                levels[level] = ParaHead(start, head.get("numFormat", "DIGIT"), "".join(head.itertext()))
            styles.numberings[nid] = levels
        elif name == "paraPr" and el.get("id") is not None:
            for sub in el.iter():
                if _local(sub) == "heading":
                    kind = (sub.get("type") or "NONE").upper()
                    level = _int_attr(sub, "level", 0) or 0
                    if kind in ("OUTLINE", "NUMBER", "BULLET") and 0 <= level < MAX_LEVELS:
                        styles.para_prs[el.get("id")] = HeadingRef(kind, _int_attr(sub, "idRef", 0) or 0, level)
                    break
    return styles


def outline_id(section_root: Any) -> int | None:
    """``outlineShapeIDRef`` of a section's first ``hp:secPr`` (``None`` without one)."""
    for el in section_root.iter():
        if _local(el) == "secPr":
            return _int_attr(el, "outlineShapeIDRef", None)
    return None


def render(text: str, counters: list[int | None], heads: dict[int, ParaHead], level: int) -> str:
    """Expand the format codes of ``text`` for a paragraph at 1-based ``level`` with the given counters."""

    def value(k: int) -> str:
        head = heads.get(k)
        n = counters[k - 1]
        if n is None:
            n = head.start if head is not None else 1
        return format_number(n, head.num_format if head is not None else "DIGIT")

    def code(m: re.Match[str]) -> str:
        c = m.group(1)
        if c in ("n", "N"):
            path = ".".join(value(k) for k in range(1, level + 1))
            return path + "." if c == "N" else path
        return value(int(c))

    return _CODE.sub(code, text).strip()


class Numberer:
    """Numbers paragraphs in document order. ``section(root)`` at each section; ``prefix(paraPrIDRef)`` per
    paragraph (also empty ones: an empty numbered paragraph still takes its number) gives the text shown before
    the paragraph's own text, ``""`` when it has none."""

    def __init__(self, styles: NumberingStyles) -> None:
        self.styles = styles
        self.outline: int | None = None
        self.counters: dict[tuple[str, int], list[int | None]] = {}
        self.numbered = 0

    def section(self, root: Any) -> None:
        nid = outline_id(root)
        if nid is not None:
            self.outline = nid
        elif self.outline is None and self.styles.numberings:
            self.outline = min(self.styles.numberings)

    def prefix(self, para_pr: str | None) -> str:
        ref = self.styles.para_prs.get(para_pr) if para_pr is not None else None
        if ref is None or ref.kind == "BULLET":
            return ""
        nid = self.outline if ref.kind == "OUTLINE" else ref.id_ref
        heads = self.styles.numberings.get(nid) if nid is not None else None
        if nid is None or heads is None:
            return ""
        row = self.counters.setdefault((ref.kind, nid), [None] * MAX_LEVELS)
        level = ref.level + 1
        for k in range(1, level):
            if row[k - 1] is None:
                row[k - 1] = heads[k].start if k in heads else 1
        current = row[level - 1]
        start = heads[level].start if level in heads else 1
        row[level - 1] = start if current is None else min(current + 1, MAX_NUMBER)
        for k in range(level, MAX_LEVELS):
            row[k] = None
        head = heads.get(level)
        if head is None or not head.text.strip():
            return ""
        self.numbered += 1
        return render(head.text, row, heads, level)


def note_number(auto_num: Any, fallback: int) -> str:
    """The number a footnote/endnote ``hp:autoNum`` shows (``1)``): its ``num`` (else ``fallback``) in its
    ``hp:autoNumFormat`` type with prefix/suffix characters."""
    n = _int_attr(auto_num, "num", fallback) or fallback
    fmt: Any = None
    for c in auto_num:
        if _local(c) == "autoNumFormat":
            fmt = c
    if fmt is None:
        return f"{n})"
    kind = fmt.get("type", "DIGIT")
    body = fmt.get("userChar", "") if kind == "USER_CHAR" else format_number(n, kind)
    return f"{fmt.get('prefixChar', '')}{body}{fmt.get('suffixChar', '')}"

