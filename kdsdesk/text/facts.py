"""Facts: the values a chunk states, read once when the file is indexed (the library's fact store).

A *fact* is a number the document gives for something — "나선철근의 순간격은 25 mm 이상, 75 mm 이하" states two —
with what it is for, read from the sentence's grammar (the lexicon in ``kdsdesk.lexicon``):

- ``value`` as written (a number, a range ``2~20``, a ratio ``1 : 0.8``, a fraction ``1/24``, an expression glued to
  a symbol ``0.375h`` / ``1D`` — ``symbolic`` then), its ``unit`` (written after it) and ``bound`` (이상 → ``ge``,
  이하/까지/넘지 않도록 → ``le``, 초과 → ``gt``, 미만 → ``lt``; a sign before it: ``≤ 0.29…``);
- ``subject``: the quantity it belongs to — the word marked as topic/subject/object nearest before it in its
  clause ("순간격은 25 mm"), the bare noun right before it ("지간 16 m"), or the word it is "of" ("0.005의
  인장지배변형률");
- ``cases``: what it is written for — the case phrases before it in its clause and at the head of its sentence
  ("곡선의 경우에는 지간 12 m 이하" → "곡선"), the case of a parenthesis holding it ("(… 고시한 도로노선의 경우
  4.2미터로 한다)");
- ``threshold``: the number states a condition ("두께가 10 mm 이상인 경우"), not a result;
- for a table: every value cell, with its row labels and column headers as cases and the caption as subject.

Numbers that are references (식 (4.2-1), 표 4.1-1, 4.2.3, KDS 14 20 10), item marks (①, (1)) and exponents are no
facts. Offsets are into the chunk's text; ``quote_start``/``quote_end`` is the sentence (or table row line) to
cite. Pure functions of the chunk text: deterministic, versioned by ``FACTS_VERSION`` (part of the chunker's
version, so a change re-indexes every file).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from kdsdesk import lexicon as lx
from kdsdesk.records import Fact, Table, TableCell
from kdsdesk.text.flat_tables import flat_cells
from kdsdesk.text.sentences import sentence_ranges

FACTS_VERSION = "9"

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_NUMBER = re.compile(rf"(?<![\d.,])(?:{_NUM})(?![\d])")
# a value as written: range, ratio, fraction, plain number
_VALUE = re.compile(
    rf"(?<![A-Za-z\d.,])(?P<v>(?:{_NUM})\s*(?:%|°|mm|cm|m|MPa|kN)?\s*[~〜∼～]\s*(?:{_NUM})"
    rf"|(?:{_NUM})\s*:\s*(?:{_NUM})(?![\d.])|(?:{_NUM})\s*/\s*(?:{_NUM})|{_NUM})"
)
_CODE = re.compile(r"(?<!\d)\d{2}\s\d{2}\s\d{2}(?!\d)")
_SYMBOL_AFTER = re.compile(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_α-ωΑ-Ω]*")
_EXPR_CHAR = re.compile(r"[A-Za-z0-9_.√/()α-ωΑ-Ω]")
_GLUED_NOUN = re.compile(r"(?:°|m|mm)?[가-힣]{2,}")
_SPACED_SYMBOL = re.compile(r"\s([A-Za-zα-ωΑ-Ω])(?=[을를이가은는의로와과에,.)]|\s|$)")


def nfkc_map(raw: str) -> tuple[str, list[int]]:
    """NFKC text of ``raw`` and, per character, the offset in ``raw`` it came from (``㎥`` → ``m3``: 2 → 1)."""
    out: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(raw):
        if ch == "\\" and raw[i + 1 : i + 2] == "/":
            continue  # "𝑑\\/4": the flattened texts escape the slash
        n = lx.nfkc(ch) if ord(ch) > 127 and not "\u2460" <= ch <= "\u24ff" else ch  # "㎧" → "m/s"
        out.append(n)
        idx.extend([i] * len(n))
    idx.append(len(raw))
    return "".join(out), idx


def is_reference(text: str, a: int, b: int) -> bool:
    """The number ``text[a:b]`` is part of a clause, table, equation, item or code reference."""
    before, after = text[max(0, a - 12) : a], text[b : b + 16]
    if lx.REFERENCE_BEFORE_NUMBER.search(before) or re.match(r"[.\-‐‑‒–—−]\d", after):
        return True
    if any(m.start() <= a and b <= m.end() for m in _CODE.finditer(text, max(0, a - 6), min(len(text), b + 6))):
        return True
    if re.search(r"\d[.\-‐‑‒–—−]$", before):
        return True
    if "." in text[a:b] and re.match(r"\s*(의\s*규정|에\s*따|에서\s*규정|절|항|조|에\s*의|을\s*참|를\s*참)", after):
        return True
    return before.endswith("(") and after.startswith(")") and not re.search(r"\w\s*$", before[:-1])


def local_clause(text: str, a: int, lo: int = 0, hi: int | None = None) -> tuple[int, int]:
    """The clause of ``text[lo:hi]`` holding offset ``a`` (cut at commas, connective endings, colons)."""
    hi = len(text) if hi is None else hi
    start, end = lo, hi
    for m in lx.FACT_CLAUSE_END.finditer(text, lo, hi):
        if m.end() <= a:
            start = m.end()
        elif m.start() >= a:
            end = m.start()
            break
    return start, end


def case_phrases(text: str) -> list[str]:
    """The case phrases a piece of text states, in order: the words before each case marker, back to the previous
    marker or clause break ("직선인 경우에는 … 곡선의 경우에는" → ["직선", "곡선"])."""
    out: list[str] = []
    last = 0
    for m in lx.CASE_MARKER.finditer(text):
        if m.start() < last:
            continue  # inside the words that except the case before ("경우 외에는")
        head = text[last : m.start()]
        cut = max(head.rfind(","), head.rfind(". "), head.rfind(":"), head.rfind("("), head.rfind("—"), head.rfind("–"))
        phrase = head[cut + 1 :].strip(" ()")
        phrase = re.sub(r"^\s*(\(\d+\)|[①-⑳]|[가-하]\.)\s*", "", phrase)
        words = [w for w in phrase.split() if w not in lx.CASE_STOP]
        for k in range(len(words) - 2, -1, -1):  # the case, not the topic before it: "보강범위는 접속각도 90°"
            if re.fullmatch(r"\S+(은|는)", words[k]) and is_noun_stem(words[k][:-1]):
                words = words[k + 1 :]
                break
        if words and re.search(r"[가-힣A-Za-z]", " ".join(words)):
            phrase, last = lx.case_phrase_end(" ".join(words[-8:]), text, m.end())
            out.append(phrase)
            continue
        last = m.end()
    return out


def is_noun_stem(x: str) -> bool:
    """``x`` (a word without its particle) reads as a noun, not a verb or adjective stem ("받" of "받는")."""
    if not x or not re.search(r"[가-힣A-Za-zα-ωΑ-Ω]", x):
        return False
    if len(x) == 1:
        return x in lx.QUANTITY_DIMENSION or not "가" <= x <= "힣"
    if re.search(r"(경우|때|중)", x) or x.endswith(("에", "에서", "으로", "로", "와", "과", "부터", "까지", "보다")):
        return False
    return not lx.VERB_STEM_END.search(x) and not x.endswith(("기", "함", "됨", "음", "임"))


def _bare_noun(w: str) -> bool:
    """A word written without a particle that reads as a noun or a symbol (a modifier of the next noun)."""
    if re.fullmatch(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_/\\α-ω]*", w):
        return True
    if not re.fullmatch(r"[가-힣]{2,}(\([^()]{1,12}\))?", w):
        return w in lx.QUANTITY_DIMENSION
    core = re.sub(r"\(.*\)$", "", w)
    if core in ("경우", "때", "시", "중", "등", "및", "또는"):
        return False
    if lx.PARTICLE_WORD_END.search(core) or (core.endswith(("가", "이")) and core not in lx.QUANTITY_DIMENSION):
        return core in lx.QUANTITY_DIMENSION or core.endswith(("높이", "길이", "깊이", "차이", "너비"))
    return not lx.VERB_STEM_END.search(core) and not core.endswith(("한", "된", "할", "될", "던", "인", "운", "은"))


def _noun_phrase(words: list[str], i: int, head: str) -> str:
    """``head`` (the noun of ``words[i]``) with the nouns and ``…의`` modifiers written just before it."""
    phrase = head
    j = i - 1
    while j >= 0 and j >= i - 3:
        w = words[j]
        if not ((w.endswith("의") and len(w) > 1 and is_noun_stem(w[:-1].split("(")[0])) or _bare_noun(w)):
            break
        phrase = f"{w} {phrase}"
        j -= 1
    return phrase


def topic_of(sentence: str) -> str:
    """The topic of a sentence: the noun phrase before its first 은/는 ("그 외의 벽체 두께는 …")."""
    words = lx.ITEM_MARK.sub("", sentence, count=1).split()
    for i, w in enumerate(words[:12]):
        m = re.fullmatch(r"(\S+?)(은|는)", w)
        if m and is_noun_stem(m.group(1)):
            return _noun_phrase(words, i, m.group(1))
        if w in ("은", "는") and i > 0:
            return _noun_phrase(words, i - 1, words[i - 1])
    return ""


def subject_before(text: str, a: int, clause_start: int, sentence_start: int) -> str:
    """The word a value belongs to: the nearest word marked as topic/subject/object before it in its clause
    ("간격은 25 mm" → 간격), with its modifiers ("나선철근의 순간격"); the noun right before it ("지간 16 m");
    for a share or multiple of something ("작은 값의 1/24") the sentence's topic; "" when none."""
    words = re.sub(r"\([^()]{0,16}\)", "", text[clause_start:a]).split()  # "소단의 길이(𝑙 )는" → "소단의 길이는"
    if words and len(words[-1]) > 1 and words[-1].endswith("의"):
        return topic_of(text[sentence_start:a])
    for i in range(len(words) - 1, -1, -1):
        w = words[i]
        if w in lx.SUBJECT_PARTICLES + lx.OBJECT_PARTICLES and i > 0:  # a symbol and its particle: "l_d 는"
            return _noun_phrase(words, i - 1, words[i - 1])
        m = lx.OWNER_WORD.fullmatch(w)
        if m and is_noun_stem(m.group(1)) and (len(m.group(1)) > 1 or m.group(1) in lx.QUANTITY_DIMENSION):
            return _noun_phrase(words, i, m.group(1))
        if re.search(r"(는|은|던|한|된|인)$", w) and i < len(words) - 1:
            break  # an adnominal verb or a case: the marked word before it is not the value's
    if words:
        last = words[-1].rstrip(":=")
        if _bare_noun(last) and last not in lx.QUESTION_WORDS:
            return _noun_phrase(words, len(words) - 1, last)
    return topic_of(text[sentence_start:a]) if not words else ""


def _widen(text: str, lo: int, hi: int) -> tuple[int, int, bool]:
    """A number glued to symbols (``0.375h``, ``1D``, ``h/2``, ``2N``) widens to the whole expression."""
    glued_before = lo > 0 and (text[lo - 1] == "/" or (text[lo - 1].isascii() and text[lo - 1].isalpha()))
    glued_after = hi < len(text) and ((text[hi].isascii() and text[hi].isalpha()) or text[hi] in "/√")
    if not (glued_before or glued_after):
        return lo, hi, False
    unit = lx.UNIT_AFTER_NUMBER.match(text, hi)
    if glued_after and not glued_before and unit is not None and unit.start(1) == hi:
        return lo, hi, False  # "25mm": a unit, not a symbol
    a, b = lo, hi
    while a > 0 and _EXPR_CHAR.fullmatch(text[a - 1]) and text[a - 1] != "(":
        a -= 1
    while b < len(text) and _EXPR_CHAR.fullmatch(text[b]) and text[b] != ")":
        b += 1
    return a, b, True


def _clean_subject(s: str) -> str:
    s = re.sub(r"^(\(\d+\)|[①-⑳]|[가-하]\.)\s*", "", s.strip())
    return s.strip(" ,:·()")


def text_facts(raw: str) -> list[Fact]:
    """The facts of a text chunk (see the module docstring)."""
    text, idx = nfkc_map(raw)
    out: list[Fact] = []
    last: Fact | None = None  # the previous sentence's last fact: "다만, 시공 중에는 75를 …" continues its subject
    for s0, e0 in sentence_ranges(raw):
        # sentence bounds in NFKC coordinates
        s = next(i for i, o in enumerate(idx) if o >= s0)
        e = next(i for i, o in enumerate(idx) if o >= e0)
        sentence = text[s:e]
        om = lx.OPENING_CASE.match(lx.ITEM_MARK.sub("", sentence, count=1))
        opening = om.group(1) if om is not None and "(" not in om.group(1) else ""
        continues = lx.EXCEPTION_OPEN.match(sentence) or lx.CONTINUATION_OPEN.match(sentence)
        prev: Fact | None = last if continues else None
        taken_until = s
        for m in _VALUE.finditer(text, s, e):
            lo, hi = m.start("v"), m.end("v")
            if lo < taken_until:
                continue
            if is_reference(text, lo, hi):
                continue
            ch = raw[idx[lo]] if idx[lo] < len(raw) else ""
            if ch in "⁰¹²³⁴⁵⁶⁷⁸⁹" or "\u2460" <= ch <= "\u24ff" or "\u2474" <= ch <= "\u249b":
                continue  # an exponent or an item mark
            if lo > 0 and text[lo - 1] in "^_":
                continue  # a power or subscript written inline
            if re.match(r"\s*\)", text[hi : hi + 2]) and re.search(r"(^|\s)\(\s*$", text[max(s, lo - 2) : lo]):
                continue  # "(1)" item mark
            if lx.DATE_AFTER_NUMBER.match(text, hi):
                continue  # a date "1963년 12월"
            if lx.DESIGNATION_AFTER.match(text, hi) or lx.DESIGNATION_BEFORE.search(text, max(s, lo - 6), lo):
                continue  # a class or item name: "1등급", "3종", "등급 2"
            glued = _GLUED_NOUN.match(text, hi)
            if glued and not lx.unit_at(text, hi) and not lx.BOUND_AFTER.match(text, hi) and not lx.GLUED_GRAMMAR.match(
                text, hi
            ):
                continue  # a name with a number in it: "1블럭", "2차효과", "0 모멘트점" glued, "1층"
            if re.match(r"[\-‐]", text[lo - 1 : lo]) and re.search(r"[A-Za-z]$", text[max(s, lo - 2) : lo - 1]):
                continue  # "KRL-2012"
            paren_ref = re.search(r"\d\.\d[\d.]*\s*\(\s*$|\(\s*$", text[max(s, lo - 12) : lo])
            if re.match(r"\s*\)", text[hi : hi + 2]) and paren_ref:
                continue  # "3.2.1(6)", an item "(2)"
            a, b, symbolic = _widen(text, lo, hi)
            fq = lx.FREQUENCY.match(text, b)
            if fq:
                b = fq.end()  # "1년에 1회": one value
            sp = _SPACED_SYMBOL.match(text, b)
            if not symbolic and sp and not lx.UNIT_AFTER_NUMBER.match(text, b):
                b, symbolic = sp.end(1), True  # "1 D를 표준으로": the value is "1 D"
            if text[b - 1 : b] in ("_", "^"):
                continue
            if re.fullmatch(r"[A-Z]{1,3}\d+", text[a:b]):
                continue  # a designation (D19, M24, SM355)
            taken_until = b
            um = lx.unit_at(text, b)
            unit = um.group(1) if um else ""
            ue = um.end() if um else b
            duration = lx.unit_dimension(unit) == "time" and re.match(r"[간분]", text[ue : ue + 1])
            hangul_unit = bool(unit) and bool(re.match(r"[가-힣]", unit))
            if hangul_unit and re.match(r"[가-힣]", text[ue : ue + 1]) and not duration and not lx.UNIT_PARTICLE.match(
                text, ue
            ):
                unit, ue = "", b  # "2개소" fine, but "5일부터" / "3차로는" read as a word ("7일간", "12시간분": days)
            unit_span = (um.start(1), um.end(1)) if um and unit else (b, b)  # "14 [mm]": the unit inside brackets
            if duration:
                ue += 1
            bound = lx.bound_after(text, ue)
            sign = re.search(r"([≤<≥>⩽⩾])\s*$", text[max(s, a - 3) : a])
            if not bound and sign:
                bound = lx.SIGN_BOUND.get(sign.group(1), "")
            threshold = (bool(lx.THRESHOLD_AFTER.match(text, ue)) and bound != "") or bool(
                re.match(r"\s*(?:[을를이가]\s*)?(?:인\s*경우|일\s*때|이면)", text[ue : ue + 12])
            )
            cs, ce = local_clause(text, a, s, e)
            subject = subject_before(text, a, cs, s)
            nm = lx.NOUN_AFTER.match(text, ue)
            if unit and not bound and nm and is_noun_stem(nm.group(1)):
                subject = nm.group(1)  # "100 m 간격으로", "7일 설계강도": the value of the noun after it
            tail_case, _ = lx.cases_in_parens_after(text, ue)  # not "(… 설치 시 2,000 m2)": another value's case
            pm = None
            for pm_ in lx.PAREN_CASE.finditer(text, s, a):
                close = text.find(")", pm_.end())
                if close == -1 or close > hi:
                    pm = pm_
            open_at = text.rfind("(", s, a)
            in_paren = open_at >= 0 and ")" not in text[open_at:a]
            if in_paren and pm is None:
                words = text[s:open_at].split()  # "세립분(0.08 mm 이하)": the word before the parenthesis
                subject = words[-1] if words and is_noun_stem(words[-1]) else subject
            elif pm is not None or (not text[cs:a].strip() and prev is not None):
                subject = prev.subject if prev is not None else subject  # "4.0미터(… 경우 4.2미터)", "25 이상, 75 이하"
            om2 = lx.OF_NOUN_AFTER.match(text, ue)
            if om2 and not re.match(r"(경우|때|값|것)", om2.group(1)) and (not subject or unit):
                subject = lx.PARTICLE_END.sub("", om2.group(1))  # "15 kN/m2의 상재하중을": the value of the noun after
            if not subject and prev is not None and prev.quote_start == s0:
                subject = prev.subject  # "d/4 이하, 또한 100 mm 이하": a later member of a list of limits
            cases = case_phrases(text[cs:a])
            if opening and cs > s + len(opening):
                cases = [*case_phrases(opening + " 경우"), *cases]
            if pm is not None:
                cases.append(_clean_subject(pm.group(1)))
            if tail_case:
                cases.append(tail_case)  # "＝ 2.0 (미건조제재목)"
            for rm in lx.RESPECTIVELY.finditer(text, s, e):  # "1.2와 2.4를 각각 1.5와 3.0으로": 3.0 stands for 2.4
                if rm.start("y1") == lo or rm.start("y2") == lo:
                    cases = [rm.group("x1") if rm.start("y1") == lo else rm.group("x2")]
            qb = lx.QUALIFIER_BEFORE.search(text, s, a)
            v_lo = qb.start() if qb else a
            if a > s and text[a - 1] in "±+-−" and (a - 1 == s or not text[a - 2].isalnum()):
                a = v_lo = a - 1  # "±0.03 m"
            value = raw[idx[a] : idx[b]]
            prev = Fact(
                    kind="text",
                    value=" ".join(value.split()),
                    unit=raw[idx[unit_span[0]] : idx[unit_span[1]]].strip() if unit else "",
                    bound=bound,
                    subject=_clean_subject(subject),
                    cases=tuple(dict.fromkeys(c for c in cases if c)),
                    start=idx[v_lo],
                    end=idx[b],
                    quote_start=s0,
                    quote_end=e0,
                    symbolic=symbolic,
                    threshold=threshold,
                    clause_start=idx[cs],
                    clause_end=idx[ce],
                )
            out.append(prev)
            last = prev
    return out


_HAS_NUM = re.compile(r"\d")


def is_value_cell(text: str) -> bool:
    """A value cell: digits, units, symbols and comparison words, not a phrase."""
    t = unicodedata.normalize("NFKC", text).strip()
    if not t or not _HAS_NUM.search(t) or len(t) > 40:
        return False
    rest = lx.VALUE_CELL_WORDS.sub("", t)
    return not re.search(r"[가-힣]", rest) and not re.search(r"[A-Za-z]{3,}", rest)


def label_columns(table: Table, grid: Sequence[Sequence[TableCell | None]]) -> list[int]:
    """Columns holding row labels (the parser's row-header columns, else leading columns of mostly text)."""
    if table.header_cols > 0:
        return list(range(min(table.header_cols, table.n_cols)))
    cols: list[int] = []
    for k in range(table.n_cols):
        texts = [
            c.text for r in range(table.header_rows, table.n_rows) if (c := grid[r][k]) is not None and c.text.strip()
        ]
        if not texts:
            break
        if sum(1 for t in texts if is_value_cell(t)) * 2 > len(texts) and cols:
            break
        cols.append(k)
        if k + 1 >= table.n_cols - 1:
            break
    return cols or [0]


def cell_facts(table: Table, text: str) -> list[Fact]:
    """A fact per value cell of a table chunk: its row labels and column headers are its cases, the caption's
    title its subject, the row's line in the chunk text its quote."""
    if table.n_rows <= table.header_rows or table.n_cols < 2 or table.n_rows * table.n_cols > 20000:
        return []
    grid = table.grid()
    labels = label_columns(table, grid)
    rows = table.rows_text()
    heads: dict[int, list[str]] = {}
    for k in range(table.n_cols):
        out: list[str] = []
        for r in range(min(table.header_rows, table.n_rows)):
            c = grid[r][k]
            if c is not None and c.text.strip() and (not out or out[-1] != c.text):
                out.append(c.text.strip())
        heads[k] = out
    facts: list[Fact] = []
    pos = 0
    line_at: dict[int, tuple[int, int]] = {}
    for r, line in enumerate(rows):
        i = text.find(line, pos) if line else -1
        if i >= 0:
            line_at[r] = (i, i + len(line))
            pos = i + len(line)
    for r in range(table.header_rows, table.n_rows):
        row_labels: list[str] = []
        for k in labels:
            c = grid[r][k]
            if c is not None and c.text.strip() and (not row_labels or row_labels[-1] != c.text.strip()):
                row_labels.append(c.text.strip())
        qs, qe = line_at.get(r, (-1, -1))
        for k in range(table.n_cols):
            c = grid[r][k]
            if k in labels or c is None or c.row != r or c.col != k or not is_value_cell(c.text):
                continue
            value, unit = cell_value(c.text, heads[k], table.caption)
            vs = text.find(c.text, qs) if qs >= 0 else -1
            facts.append(
                Fact(
                    kind="cell",
                    value=value,
                    unit=unit,
                    bound=_cell_bound(c.text),
                    subject=table.title,
                    cases=tuple(dict.fromkeys([*row_labels, *heads[k]])),
                    start=vs,
                    end=vs + len(c.text) if vs >= 0 else -1,
                    quote_start=qs,
                    quote_end=qe,
                    row=r,
                    col=k,
                )
            )
    return facts


def _cell_bound(cell: str) -> str:
    m = re.search(r"(이상|이하|초과|미만|이내)\s*$", unicodedata.normalize("NFKC", cell))
    return lx.bound_of_word(m.group(1)) if m else ""


def cell_value(cell: str, headers: Sequence[str], caption: str) -> tuple[str, str]:
    """A cell's value and unit (from the cell, else its column headers or the caption: "치수(mm)")."""
    t = " ".join(unicodedata.normalize("NFKC", cell).split())
    m = re.search(rf"(\d)\s*({lx.UNIT_ALT})(?![A-Za-z])", t)
    if m:
        unit = m.group(2)
        return t[: m.start(2)].strip(), unit
    for h in [*reversed(list(headers)), caption]:
        hm = lx.UNIT_IN_PARENS.search(unicodedata.normalize("NFKC", h))
        if hm:
            return t, hm.group(1)
    return t, ""


def chunk_facts(kind: str, text: str, table: Table | None) -> tuple[Fact, ...]:
    """All facts of one chunk."""
    if kind == "table" and table is not None:
        return tuple(cell_facts(table, text))
    flat = flat_cells(text)
    if not flat:
        return tuple(text_facts(text))
    # a table flattened into the text: its values are cells under their row label and column header, never
    # numbers of a sentence; a column whose header could not be read gives no fact
    inside = [(c.start, c.end) for c in flat if c.read]  # unread columns: the sentence reading stays
    facts = [f for f in text_facts(text) if not any(a <= f.start < b for a, b in inside)]
    facts += [
        Fact(
            kind="cell", value=c.value, unit=c.unit, bound=c.bound, subject=_caption(c.header),
            cases=(c.row_label, c.column or c.column_value), start=c.start, end=c.end, quote_start=c.row_start,
            quote_end=c.row_end, col=c.index,
        )
        for c in flat
        if c.read
    ]
    return tuple(sorted(facts, key=lambda f: f.start))


def _caption(header: str) -> str:
    """A flattened table's title: "표 4.2-1 돌망태 옹벽의 설계안전율 …" → "돌망태 옹벽의 설계안전율"."""
    m = re.search(r"표\s*[A-Z]?\d+(?:\.\d+)*-\d+\s+(.{2,40}?)(?=\s+표\s*[A-Z]?\d|\s*$|\s+구\s*분)", header)
    return m.group(1).strip() if m else ""


def joint_bound(text: str, lo: int, hi: int) -> bool:
    """True when the bounded value ``text[lo:hi]`` ("5배 이상") is one of a list of bounds of the same kind written
    together ("5배 이상, 25 mm 이상"; "0.5배 이상이어야 하며, 100 mm 이상"): either alone would be half an answer."""
    own = lx.JOINT_OWN_BOUND.search(text, lo, hi)
    if own is None:
        return False
    after = lx.JOINT_AFTER.match(text, hi)
    if after is not None and after.group(1) == own.group(1):
        return True
    before = lx.JOINT_BEFORE.search(text, 0, lo)
    return before is not None and before.group(1) == own.group(1)
