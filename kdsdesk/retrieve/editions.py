"""Editions: when the library holds two editions of one standard (KDS 14 20 22 : 2016 and : 2021), answers come
from the newest unless the question names a year.

``prefer_editions`` reorders a ranked list — nothing is removed: hits of an edition the question does not ask for
move behind every other hit (their order kept), so the answerer reads the asked or newest edition first and the
older one stays visible further down. A year counts as named when it is written as an edition ("2016년 기준",
"2016년판", "2016 개정", "KDS 14 20 22 : 2016", "(2016)") and is an edition of a standard among the hits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kdsdesk.records import Hit

_YEAR = re.compile(
    r"(?<!\d)((?:19|20)\d{2})(?!\d)(?=\s*(?:년\s*(?:판|도|에|의|기준|개정|제정|버전)|년?\s*판|\s*(?:개정|제정|기준)|\s*\))|\s*$)"
    r"|[:：]\s*((?:19|20)\d{2})(?!\d)|\(\s*((?:19|20)\d{2})\s*\)"
)


def named_years(query: str) -> set[str]:
    """Edition years the query writes ("2016년 기준", "2016년판", ": 2016", "(2016)")."""
    return {next(g for g in m.groups() if g) for m in _YEAR.finditer(query)}


def prefer_editions(hits: Sequence[Hit], editions: Mapping[str, Sequence[str]], query: str) -> list[Hit]:
    """Hits of the wanted edition of each multi-edition standard first: the year the query names when it is one of
    that standard's editions, else the newest. ``editions``: doc code → its years in the library."""
    years = named_years(query)
    wanted: dict[str, str] = {}
    for code, ys in editions.items():
        ys = sorted({y for y in ys if y})
        if len(ys) < 2:
            continue
        asked = sorted(years & set(ys))
        wanted[code] = asked[-1] if asked else ys[-1]
    if not wanted:
        return list(hits)
    front = [h for h in hits if wanted.get(h.chunk.doc.doc_code, h.chunk.doc.year) == h.chunk.doc.year]
    back = [h for h in hits if wanted.get(h.chunk.doc.doc_code, h.chunk.doc.year) != h.chunk.doc.year]
    if not back:
        return list(hits)
    return [Hit(h.chunk, h.score, i + 1, h.route) for i, h in enumerate(front + back)]
