"""How well a piece of evidence (sentence, table header, row label) matches a question — by rules.

Korean compounds are written with and without spaces and with different particles, so text similarity is the
share of character bigrams (normalised, spaces removed) of one side found in the other. On top of that:
identifiers (``M22``, ``F10T``, ``A급``, ``1종``) must match exactly; numeric conditions in a label
(``6 < t ≤ 13``, ``4.5 m/h 초과``, ``2.1~4.5``) are tested against the numbers of the question; negation
(``않는``, ``없는``, ``미사용``) and comparison direction (이하/초과) must agree.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from kdsdesk import lexicon as lx
from kdsdesk.text.normalize import canonical_terms, norm

_NUM = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d])")


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _dec(s: str) -> Decimal | None:
    try:
        return Decimal(s.replace(",", ""))
    except InvalidOperation:
        return None


def number_spans(text: str) -> list[tuple[Decimal, int, int]]:
    """Numbers in ``text`` (NFKC) with their ranges; ``1,000`` → 1000."""
    s = _nfkc(text)
    out = []
    for m in _NUM.finditer(s):
        d = _dec(m.group(0))
        if d is not None:
            out.append((d, m.start(), m.end()))
    return out


_TERM = re.compile(r"[가-힣]+|[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)?")


def content_terms(text: str) -> list[str]:
    """Content terms of a question: Hangul words without their particle, symbols, numbers."""
    out = []
    for m in _TERM.finditer(_nfkc(text)):
        w = m.group(0)
        if w[0] >= "가":
            w = lx.ASKING_END.sub("", w)
            w = lx.PARTICLE_END.sub("", w) if len(w) > 2 else w
            if len(w) < 2 or w in lx.ASKING_TERMS:
                continue
        out.append(w)
    return out


_FILLER = lx.FILLER_WORDS | {"사용", "이용", "쓰"}
_PARTICLES = frozenset({"을", "를", "이", "가", "은", "는", "의", "에", "와", "과", "도", "로", "만"})


def words_covered(phrase: str, text: str) -> float:
    """Share of the phrase's content words found in ``text`` (a word counts when half its bigrams are there):
    a case word that is missing ("정적" of "정적 측정") is not made up for by the words around it."""
    words = [w for w in content_words(phrase)]
    if not words:
        return 1.0
    tg = bigrams(text)
    raw_text = lx.nfkc(text)
    nt = norm(canonical_terms(raw_text))
    def found(w: str) -> bool:
        nw = norm(canonical_terms(w))
        # a longer word may differ in its middle or ending, not in how it starts ("복래티스재" ≠ "래티스재")
        if nw in nt or (len(nw) >= 4 and nw[:2] in nt and coverage(bigrams(w), tg) >= 0.67):
            return True
        # a short word with its genitive ("끝의", "폼의"): the noun itself ("끝에서의", "슬립 폼")
        short_genitive = 2 <= len(nw) <= 3 and nw.endswith("의")
        if short_genitive and re.search(rf"{re.escape(nw[:-1])}(?!의)", nt) is not None:
            return True
        # a one-syllable noun joined to the next word ("댐 계측기기" → "댐계측기기"): each written on its own, the
        # syllable as a word of its own ("댐 설계기준", "댐의") — a prefix ("복" of "복래티스재") never is
        head, tail = w[:1], w[1:]
        if len(tail) < 2 or not re.match(r"[가-힣]", head):
            return False
        alone = re.search(rf"(?<![가-힣]){re.escape(head)}(?:[은는이가을를의에과와도]|\s|$)", raw_text) is not None
        return alone and found(tail)

    hit = sum(1 for w in words if found(w))
    return hit / len(words)


def alternatives(phrase: str) -> list[str]:
    """A phrase that lists alternatives, each read whole: "1종, 2종 및 3종 포틀랜드 시멘트" → ["1종 포틀랜드
    시멘트", "2종 포틀랜드 시멘트", "3종 포틀랜드 시멘트"]; "A를 초과하거나 B를 사용" → ["A를 초과하", "B를 사용"]."""
    parts = [p.strip() for p in re.split(r",\s*|\s및\s|\s또는\s|거나\s|이나\s", phrase) if p.strip()]
    if len(parts) < 2:
        return [phrase]
    tail = parts[-1].split()
    shared = " ".join(tail[1:])
    return [f"{p} {shared}".strip() if len(p.split()) <= 2 and shared else p for p in parts[:-1]] + [parts[-1]]


def content_words(phrase: str) -> list[str]:
    """The content words of a phrase for coverage: particles and verb endings cut, fillers and question words
    left out; a one-syllable word is joined to the next ("복 래티스재" → "복래티스재": 복 is what makes it)."""
    out: list[str] = []
    raw = re.findall(r"[0-9]*[가-힣]+|[A-Za-z][A-Za-z0-9]*", lx.nfkc(phrase))
    joined: list[str] = []
    i = 0
    while i < len(raw):
        w = raw[i]
        if w in _PARTICLES or lx.EXISTENCE_WORD.match(w):
            i += 1
            continue
        if w in lx.CONJUNCTION_SYLLABLES:  # "및 중심선측량", "또 박스거더": joins, never part of the next word
            i += 1
            continue
        if len(w) == 1 and re.match(r"[가-힣]", w) and i + 1 < len(raw) and re.match(r"[가-힣]", raw[i + 1]):
            w = w + raw[i + 1]
            i += 1
        joined.append(w)
        i += 1
    for w in joined:
        w = lx.PARTICLE_END.sub("", w) if len(w) > 2 and re.match(r"[가-힣]", w) else w
        if len(w) >= 3 and re.match(r"[가-힣]", w):
            stem = lx.VERB_ENDING.sub("", w)  # "사용하는" and "사용할" are one word
            w = stem if len(stem) >= 2 else w
        if len(w) >= 2 and w[:-1] in _FILLER and re.match(r"[가-힣]", w):
            w = w[:-1]  # a filler verb with its ending: "쓰고", "쓰지"
        stop = w in _FILLER or w in lx.QUESTION_WORDS or w in lx.GENERIC_WORDS or w in lx.UNIT_DIMENSION
        if stop or (len(w) < 2 and re.match(r"[가-힣]", w)):
            continue
        out.append(w)
    return out


_IDENT = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]+\d+[A-Za-z0-9]*|[A-Za-z]\s*급|\d+\s*종|[A-Z]{1,3}(?=\s*급))")


def bigrams(text: str) -> set[str]:
    s = norm(canonical_terms(text))
    return {s[i : i + 2] for i in range(len(s) - 1)} if len(s) > 1 else ({s} if s else set())


def question_grams(question: str) -> set[str]:
    out: set[str] = set()
    for t in content_terms(question):
        out |= bigrams(t)
    return out


def coverage(a: set[str], b: set[str]) -> float:
    """Share of ``a`` found in ``b``."""
    return len(a & b) / len(a) if a else 0.0


def identifiers(text: str) -> set[str]:
    return {norm(m.group(1)) for m in _IDENT.finditer(unicodedata.normalize("NFKC", text))}


def negated(text: str) -> bool:
    return bool(lx.NEGATION_WORDS.search(text))


def direction(text: str) -> str:
    """``le`` / ``gt`` / ``""``: the comparison a text states (a label or a question)."""
    le, gt = bool(lx.ASKS_AT_MOST.search(text)), bool(lx.ASKS_ABOVE.search(text))
    if le and not gt:
        return "le"
    if gt and not le:
        return "gt"
    return ""


def interval(label: str) -> tuple[Decimal | None, bool, Decimal | None, bool] | None:
    """``(low, low_inclusive, high, high_inclusive)`` stated by a label, or None."""
    s = unicodedata.normalize("NFKC", label)
    m = lx.INTERVAL_PATTERNS[0].search(s)
    if m:
        return Decimal(m["a"]), m["o1"] != "<", Decimal(m["b"]), m["o2"] != "<"
    m = lx.INTERVAL_PATTERNS[1].search(s)
    if m and Decimal(m["a"]) < Decimal(m["b"]):
        return Decimal(m["a"]), True, Decimal(m["b"]), True
    m = lx.INTERVAL_PATTERNS[2].search(s)
    if m:
        if m["b"]:
            return None, False, Decimal(m["b"]), m["o2"] != "<"
        return None, False, Decimal(m["b2"]), m["w2"] == "이하"
    m = lx.INTERVAL_PATTERNS[3].search(s)
    if m:
        if m["a"]:
            return Decimal(m["a"]), m["o1"] != ">", None, False
        return Decimal(m["a2"]), m["w1"] == "이상", None, False
    return None


def in_interval(x: Decimal, iv: tuple[Decimal | None, bool, Decimal | None, bool]) -> bool:
    lo, lo_inc, hi, hi_inc = iv
    if lo is not None and (x < lo or (x == lo and not lo_inc)):
        return False
    return not (hi is not None and (x > hi or (x == hi and not hi_inc)))


def label_score(question: str, label: str, qgrams: set[str] | None = None) -> float:
    """How well a header or row label matches the question (higher is better; negative is a contradiction)."""
    if not label.strip():
        return 0.0
    qg = question_grams(question) if qgrams is None else qgrams
    lg = bigrams(label)
    score = 2.0 * coverage(lg, bigrams(question)) + 0.5 * coverage(qg, lg)
    lid, qid = identifiers(label), identifiers(question)
    if lid:
        score += 3.0 * len(lid & qid) if lid & qid else (-2.0 if qid else 0.0)
    iv = interval(label)
    qnums = [d for d, _, _ in number_spans(question)]
    if iv is not None and qnums:
        score += 3.0 if any(in_interval(x, iv) for x in qnums) else -1.5
    if negated(label) != negated(question) and coverage(lg, bigrams(question)) > 0.2:
        score -= 1.5
    dl, dq = direction(label), direction(lx.LIMIT_ASKED.sub("", question))
    if dl and dq:
        score += 1.0 if dl == dq else -2.0
    return score
