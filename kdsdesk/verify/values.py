"""Content checks: the answer's value, unit and text must be read from the verified quotes.

- ``value_in_quote``: every number of the value appears in the verified quote as a number (``2`` = ``2.0``,
  ``5 %`` = ``0.05``, thousands separators ignored; ``150`` never matches inside ``1500``); a value that is more
  than a number (``22 × 50``, ``d/2 이하``) must also be contained in the quote after normalisation.
- ``unit_in_quote``: the unit follows the number in the quote, or — for a table cell — appears in the cell, the
  table's header rows or its caption.
- ``text_in_quotes``: a requirement or definition is contained (normalised) in one of its quotes.
- ``relevance``: the share of the question's content terms found in the evidence (quote, clause title, table
  caption and headers) — a rule, not a model, so a well-formed answer about something else is caught;
  ``topic_found``: the word the question is about ("… 정착길이는 …") must be written in the cited chunks — many
  shared words ("최소", "길이", "mm 이상") do not make an answer about another quantity ("겹침길이") relevant.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal

from kdsdesk import lexicon as lx
from kdsdesk.records import Citation
from kdsdesk.text.match import content_terms, number_spans
from kdsdesk.text.normalize import norm

_PERCENT_AFTER = re.compile(r"\s*%")


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def number_values(text: str) -> set[Decimal]:
    """All numbers of ``text``, plus ``n/100`` for numbers followed by ``%``."""
    s = _nfkc(text)
    out: set[Decimal] = set()
    for d, _, b in number_spans(s):
        out.add(d.normalize())
        if _PERCENT_AFTER.match(s, b):
            out.add((d / 100).normalize())
    return out


def _forms(value_text: str, unit: str) -> list[set[Decimal]]:
    """Per number of the value: the set of forms it may take in a quote (with ``%`` both ways)."""
    s = _nfkc(value_text)
    forms = []
    for d, _, b in number_spans(s):
        f = {d.normalize()}
        if _PERCENT_AFTER.match(s, b) or norm(unit) == "%":
            f.add((d / 100).normalize())
        forms.append(f)
    return forms


def only_number(value: str) -> bool:
    """True when the value is one number (optionally with ``%``)."""
    return bool(re.fullmatch(r"\s*[-−]?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*%?\s*", _nfkc(value)))


_UNIT_POWER = re.compile(r"(?<=[A-Za-z²³])\d+")  # the power of a unit written inline (mm2, m3, N/mm2)


def value_in_quote(value: str, quote: str, unit: str = "") -> bool:
    """The value's numbers appear in ``quote`` (see the module docstring)."""
    if not value.strip() or not number_spans(_UNIT_POWER.sub("", _nfkc(value))):
        return False  # no number of its own: the "2" of "(N/mm2" is the unit's
    forms = _forms(value, unit)
    have = number_values(quote)
    if any(not (f & have) for f in forms):
        return False
    if forms and only_number(value):
        return True
    nv = norm(value)
    return bool(nv) and nv in norm(quote)


def unit_after_number(value: str, unit: str, quote: str) -> bool:
    """``unit`` written right after an occurrence of the value's (last) number in ``quote``."""
    nu = norm(unit)
    if not nu:
        return True
    forms = _forms(value, unit)
    if not forms:
        return False
    target = forms[-1]
    s = _nfkc(quote)
    return any(
        d.normalize() in target and norm(s[b : b + len(unit) + 8].lstrip().removeprefix("(")).startswith(nu)
        for d, _, b in number_spans(s)
    )  # the unit of an equation is written in parentheses: "E_s = 200,000 (MPa)"


def unit_ok(value: str, unit: str, quote: str, table_context: Sequence[str] = ()) -> bool:
    """Unit check: right after the number in the quote, or (table) in the cell, headers or caption."""
    nu = norm(unit)
    if not nu:
        return True
    if unit_after_number(value, unit, quote):
        return True
    return any(nu in norm(t) for t in table_context)


def text_in_quotes(text: str, quotes: Iterable[str]) -> bool:
    """A requirement/definition text contained in one of the quotes (normalised)."""
    nt = norm(text)
    return bool(nt) and any(nt in norm(q) for q in quotes)


def table_context(c: Citation) -> list[str]:
    """Caption and header texts of a cited table (for the unit check)."""
    t = c.chunk.table
    if t is None:
        return []
    out = [t.caption]
    grid = t.grid()
    seen: set[int] = set()
    for r in range(min(t.header_rows, t.n_rows)):
        for cell in grid[r]:
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out.append(cell.text)
    for r in range(t.header_rows, t.n_rows):
        for k in range(min(t.header_cols, t.n_cols)):
            cell = grid[r][k]
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out.append(cell.text)
    return out


# -- relevance ---------------------------------------------------------------------------------------------------
def _bigrams(s: str) -> set[str]:
    return {s[i : i + 2] for i in range(len(s) - 1)} if len(s) > 1 else {s}


def relevance(question: str, evidence: Sequence[str]) -> float:
    """Share of the question's content-term bigrams (normalised) found in the evidence texts."""
    grams: set[str] = set()
    for t in content_terms(question):
        grams |= _bigrams(norm(t))
    grams.discard("")
    if not grams:
        return 1.0
    ev = "\n".join(norm(e) for e in evidence)
    return sum(1 for g in grams if g in ev) / len(grams)


TOPIC_MIN = 0.5  # share of the topic word's bigrams the cited chunks must hold


def topic_head(topic: str) -> str:
    """The head word of a question's topic phrase ("인장 이형철근의 정착길이" → "정착길이", "세장비 L/r 한계" →
    "세장비"): its last Hangul word that is not a generic word of quantity or rule; "" when none."""
    words = [re.sub(r"[^가-힣]", "", w) for w in _nfkc(topic).split()]
    words = [w for w in words if len(w) >= 2 and w not in lx.GENERIC_HEADS]
    return words[-1] if words else ""


def topic_found(topic: str, evidence: Sequence[str]) -> bool:
    """The head of the question's topic is written (at least ``TOPIC_MIN`` of its bigrams) in the evidence."""
    head = topic_head(topic)
    if not head:
        return True
    ev = "\n".join(norm(e) for e in evidence)
    if head in lx.WRITTEN_AS_SIGN and norm(lx.WRITTEN_AS_SIGN[head]) in ev:
        return True
    grams = _bigrams(head)
    return sum(1 for g in grams if g in ev) / len(grams) >= TOPIC_MIN
