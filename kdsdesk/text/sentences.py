"""Sentence boundaries of KDS text: Korean "…다." endings and item marks; one place for the chunker, the fact
reader and the answer stages. ``sentence_ranges`` (readers and answers, not the chunker) also splits a glossary
flattened into one paragraph ("경간：지점의 … 거리 경간등급：구조용 …") into its entries."""

from __future__ import annotations

import re
from itertools import pairwise

_SENTENCE_END = re.compile(r"(?<=[다음함됨임][.])\s+|(?<=\.)\s+(?=\(\d+\)|[①-⑳])")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence ranges ``[start, end)`` covering ``text`` (Korean '…다.' endings and item markers)."""
    out: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    if start < len(text):
        out.append((start, len(text)))
    return [(a, b) for a, b in out if b > a]


# a glossary entry's start: a Hangul term (no spaces) right before a colon that Hangul text follows
_ENTRY = re.compile(r"(?:(?<=\s)|^)[가-힣][가-힣A-Za-z0-9·]{1,20}\s?[：:]\s?(?=[가-힣])")
GLOSSARY_MIN = 3  # entries in one sentence range before it is read as a glossary


def split_units(text: str) -> list[tuple[int, int]]:
    """``split_sentences``, a glossary flattened into one range ("용어：설명 용어：설명 …", at least
    ``GLOSSARY_MIN`` entries) cut before each entry's term."""
    out: list[tuple[int, int]] = []
    for a, b in split_sentences(text):
        starts = [m.start() for m in _ENTRY.finditer(text, a, b)]
        if len(starts) < GLOSSARY_MIN:
            out.append((a, b))
            continue
        cuts = [a, *(x for x in starts if x > a), b]
        out.extend((x, y) for x, y in pairwise(cuts) if y > x)
    return out


def sentence_ranges(text: str) -> list[tuple[int, int]]:
    """Sentences (and glossary entries) within the lines of a chunk text (offsets into ``text``), whitespace
    trimmed."""
    out: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        for a, b in split_units(line):
            s, e = pos + a, pos + b
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if e > s:
                out.append((s, e))
        pos += len(line) + 1
    return out
