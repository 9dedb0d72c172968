"""Constants stated by a display equation: "(2) 철근의 탄성계수는 다음 식 (4.3-5)의 값을 표준으로 하여야 한다."
followed by "E_s = 200,000 (MPa) (4.3-5)". The value is the right-hand side of a relation whose left side the
referring sentence names; the sentence's topic must be written, whole, in the question (so "긴장재의 탄성계수는 …"
never answers for 철근), and the equation must be a bare number (with an optional unit), not a formula.

``constant_read(question, u, hits)`` returns ``(value, unit, span)`` where ``span`` is one ``Unit`` covering the
referring sentence and the equation line (same chunk, adjacent), so the quote holds both the question's words and
the number."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from kdsdesk import lexicon as lx
from kdsdesk.answer.sentences import Unit, equation_label, is_equation, refers_to, units
from kdsdesk.records import Hit
from kdsdesk.text.normalize import norm

# "E_s = 200,000 (MPa) (4.3-5)": one symbol, "=", one number, an optional unit in parentheses, the label
_CONSTANT = re.compile(
    rf"^[^=<>≤≥]{{1,24}}=\s*(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)\s*(?:\(?\s*({lx.UNIT_ALT})\s*\)?)?\s*"
    r"\(\s*[A-Z]?\d+(?:\.\d+)*\s*-\s*\d+\s*\)\s*$"
)
MAX_GAP = 3  # characters between the sentence and the equation line (a line break, spaces)


def _topic_named(question: str, text: str) -> bool:
    m = lx.TOPIC_AT_START.match(text)
    topic = norm(m.group(1)) if m else ""
    return len(topic) >= 3 and topic in norm(question)


def constant_read(question: str, u: Unit, hits: Sequence[Hit]) -> tuple[str, str, Unit] | None:
    """The constant an adjacent display equation gives for the sentence ``u`` refers to, or None."""
    if not lx.REFERS_TO_FORMULA.search(u.text) or not _topic_named(question, u.text):
        return None
    for v in units([u.hit], 1):
        if v.start < u.end or v.start - u.end > MAX_GAP:
            continue
        if not is_equation(v.text) or not refers_to(u.text, equation_label(v.text)):
            return None
        m = _CONSTANT.match(unicodedata.normalize("NFKC", v.text))
        if m is None:
            return None
        return m.group(1), m.group(2) or "", Unit(u.hit, u.start, v.end, u.score)
    return None
