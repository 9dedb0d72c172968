"""Sentence boundaries of KDS text: Korean "…다." endings and item marks; one place for the chunker, the fact
reader and the answer stages."""

from __future__ import annotations

import re

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


def sentence_ranges(text: str) -> list[tuple[int, int]]:
    """Sentences within the lines of a chunk text (offsets into ``text``), whitespace trimmed."""
    out: list[tuple[int, int]] = []
    pos = 0
    for line in text.split("\n"):
        for a, b in split_sentences(line):
            s, e = pos + a, pos + b
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if e > s:
                out.append((s, e))
        pos += len(line) + 1
    return out
