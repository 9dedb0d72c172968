"""Need ↔ reading: does what the document says a value is for match every slot of what the question asks?

Slots (each a named check; a confirmed answer passes them all):

- ``subject``: the quantity asked (its head noun, "순간격") is written in the value's own clause before it, in
  its sentence's topic, or — for a cell — in the table's caption, column headers or row labels;
- ``conditions``: every case the question states is written in the value's sentence, its clause path, the
  document's title or — for a cell — its row labels and headers;
- ``own_cases``: every case the value is written for (its clause's "… 경우", a cell's row label) is one the
  question states: a value for another case ("직선인 경우 16 m" for a question about 곡선) never answers;
- ``bound``: the bound written with the value agrees with the bound or extreme asked (상한 ↛ "25 mm 이상");
- ``unit``: the unit is the one asked or of the dimension asked; a year, a count or a bare number does not
  answer for a length or a strength; an expression with a symbol ("2N", "d/2") does not answer a question that
  asks for plain units;
- ``threshold``: a number stating a condition ("두께가 10 mm 이상인 경우") answers only a question that asks for
  such a limit ("얼마 미만이면 …");
- ``ordinal``: a position asked ("첫 번째") is the value's place among the values of its sentence;
- ``modifiers`` (soft, ``SOFT_SLOTS``): the words that qualify the quantity asked are all written with the value;
  when only a scope word is missing ("냉동냉장창고 냉각부하 계산의 냉각시간" against "냉각시간은 24시간을 기준으로")
  the reading still answers, at most as a warning.

Coverage is measured on character bigrams of content words (normalised, synonyms folded): "곡선" is covered by
"곡선의 경우에는". Numeric cases are compared as intervals (``kdsdesk.text.conditions``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from kdsdesk import lexicon as lx
from kdsdesk.records import Need
from kdsdesk.text.conditions import agreement, question_conditions
from kdsdesk.text.flat_tables import row_words
from kdsdesk.text.match import (
    alternatives,
    bigrams,
    content_words,
    coverage,
    in_interval,
    interval,
    number_spans,
    words_covered,
)
from kdsdesk.text.normalize import canonical_terms, norm
from kdsdesk.verify.readings import Reading, in_number_run

COVER = 0.5  # share of a phrase's bigrams that must be found
_FILLER = lx.FILLER_WORDS


def content_grams(phrase: str) -> set[str]:
    """Bigrams of a phrase's content words (particles, fillers and question words dropped)."""
    out: set[str] = set()
    for w in re.findall(r"[가-힣]+|[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)?", lx.nfkc(phrase)):
        w = lx.PARTICLE_END.sub("", w) if len(w) > 2 and re.match(r"[가-힣]", w) else w
        if w in _FILLER or w in lx.QUESTION_WORDS or (len(w) < 2 and re.match(r"[가-힣]", w)):
            continue
        out |= bigrams(w)
    return out


def covered(phrase: str, text: str) -> float:
    """Share of the phrase's content bigrams found in ``text`` (1.0 for a phrase without content)."""
    g = content_grams(phrase)
    if not g:
        return 1.0
    return coverage(g, bigrams(text))


WORDS = 0.7  # share of a case's words that must be found
# slots whose failure lets a reading answer, at most as a warning (the verifier names them ``need_<slot>``)
SOFT_SLOTS = ("modifiers",)


def head_in(head: str, texts: Iterable[str]) -> bool:
    """The head noun is written in one of the texts (a one-syllable noun exactly; longer ones by bigrams)."""
    if not head:
        return True
    hs = lx.nfkc(head)
    joined = "\n".join(lx.nfkc(t) for t in texts)
    if len(hs) == 1:
        return hs in joined
    if norm(canonical_terms(hs)) in norm(canonical_terms(joined)):
        return True
    return coverage(bigrams(hs), bigrams(joined)) >= 0.67


def _sentence_start(r: Reading) -> int:
    i = r.chunk.text.find(r.sentence)
    return i if i >= 0 else r.start


def _is_quantity(head: str) -> bool:
    """A head noun that names a measured quantity or a factor ("순간격", "강도감소계수"), not a thing ("부분")."""
    ends = (
        rf"({lx.QUANTITY_ALT_WORDS}|량|율|률|계수|{lx.NOT_A_THING_BI}비|값|{lx.NOT_A_THING_DO}도|폭|경|각|강하|손실)$"
    )  # "압력강하", "마찰손실": a drop or loss is a quantity too
    return head in lx.QUANTITY_DIMENSION or bool(re.search(ends, head))


@dataclass(frozen=True, slots=True)
class Match:
    """The slot checks of one reading against a need, and a score for ranking rival readings."""

    checks: Mapping[str, bool]
    score: float

    @property
    def ok(self) -> bool:
        return all(v for k, v in self.checks.items() if k not in SOFT_SLOTS)

    @property
    def full(self) -> bool:
        """Every slot matched, the soft ones too (a reading with a soft slot failed never rivals a full one)."""
        return all(self.checks.values())


def _bound_ok(need: Need, r: Reading) -> bool:
    if need.bound:
        if need.bound in ("ge", "gt") and r.bound in ("le", "lt"):
            return False
        if need.bound in ("le", "lt") and r.bound in ("ge", "gt"):
            return False
    if need.threshold and need.bound and not r.bound:
        return False  # "몇 mm 이상이면 …": the limit is written as one
    if need.extreme == "max" and r.bound in ("ge", "gt") and not need.threshold:
        return False
    return not (need.extreme == "min" and r.bound in ("le", "lt") and not need.threshold)


def _extreme_ok(need: Need, r: Reading) -> bool:
    """An extreme written with the value's own subject ("최대 사이즈는 …") is the one asked."""
    if not need.extreme:
        return True
    right = lx.EXTREME_RIGHT_BEFORE.search(r.window)
    if right and lx.extreme_of(right.group(1)) != need.extreme:
        return False  # "최소 5 m, 최대 30 m": the value written right after the other extreme
    for m in re.finditer(r"(최소|최대|하한|상한|최솟|최댓)", r.owner + " " + r.window[-40:]):
        ex = lx.extreme_of(m.group(1))
        rest = (r.owner + " " + r.window[-40:])[m.end() : m.end() + 12]
        if need.head and need.head in rest and ex != need.extreme:
            return False
    return True


def _unit_ok(need: Need, r: Reading) -> bool:
    unit = r.unit
    dim = lx.unit_dimension(unit) if unit else ""
    if dim == "year" and need.dimension not in ("year", "time") and lx.canonical_unit(need.unit) != "년":
        return False
    if need.unit:
        if unit:
            return lx.same_unit(unit, need.unit) or (bool(dim) and dim == lx.unit_dimension(need.unit))
        if need.unit in ("배", "%") and not r.cell:
            return False  # "몇 배", "몇 %": the text writes the multiple or the percentage with its sign
        return lx.unit_dimension(need.unit) in ("ratio", "count", "") or need.unit in ("배", "%")
    if not need.dimension and unit and lx.FACTOR_HEAD.search(need.head):
        # a factor, ratio or exponent asked ("환산계수", "지수"): a number with a physical unit is something else
        return lx.unit_dimension(unit) in ("", "ratio", "count")
    if not need.dimension or not unit:
        return not (need.dimension in ("length", "stress") and not unit and not r.cell and _factor_free(need))
    if need.dimension == "force" and dim == "stress":
        return True  # pressures are written in kPa/MPa too
    if unit == "배" and need.dimension in lx.MEASURED_DIMENSIONS and lx.MULTIPLE_BASE_BEFORE.search(r.window.rstrip()):
        return True  # "연장길이는 슬래브 두께의 4.5배": a length written as a multiple of another length
    return not dim or dim == need.dimension


def _factor_free(need: Need) -> bool:
    """The question asks a measured quantity, not a factor or multiple of one ("… 의 몇 배", "계수")."""
    return not re.search(r"배|계수|비율|곱|나누|분의|상수|비\b", need.question)


def _symbol_ok(need: Need, r: Reading) -> bool:
    if not r.symbolic:
        return True
    if not need.unit and lx.FACTOR_HEAD.search(need.head):
        return False  # a factor asked ("환산계수"), a number glued to a letter given ("6t", "2N")
    if need.unit and need.unit not in ("배",):
        return False
    return need.dimension not in ("length", "stress", "force", "area", "speed", "time")


_SYMBOL_SUBJECT = re.compile(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9α-ωΑ-Ω_′'{}〖〗,]{0,10}")


def _plain_symbol(text: str) -> str:
    """A symbol as letters alone: "F_〖a〗" and "Fa" alike."""
    return re.sub(r"[\s_〖〗{}]", "", lx.nfkc(text))


_DESIGNATION = re.compile(
    rf"(?:({lx.DESIGNATION_BEFORE_NUMBER})\s*(\d{{1,2}})(?![\d.])|(?<![\d.])(\d{{1,2}})\s*({lx.DESIGNATION_AFTER_NUMBER}))"
)


def _designations(text: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m in _DESIGNATION.finditer(lx.nfkc(text)):
        word, num = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        out.setdefault(word, set()).add(num)
    return out


def _designation_differs(case: str, question: str) -> bool:
    """A case naming a class by its number ("등급 4", "2종") that the question names with another number."""
    q = _designations(question)
    return any(w in q and not (nums & q[w]) for w, nums in _designations(case).items())


_ASSIGNED = re.compile(r"[=＝]\s*(\d[\d,]*(?:\.\d+)?)")


def _names_other_item(need: Need, r: Reading) -> bool:
    """A sentence that lists symbols set to values, each after its own label ("휨에 대해 φ_f =1.00 전단에 대해
    φ_v =1.00 축방향 압축력에 대해 φ_c =0.90 …"): True when a word of the question stands in another item's label
    and not in this value's own (since the value before it) — the question asks for the neighbour."""
    start = _sentence_start(r)
    sent = r.chunk.text[start : start + len(r.sentence)]
    at = r.start - start
    items = list(_ASSIGNED.finditer(sent))
    mine = next((i for i, m in enumerate(items) if m.start(1) == at), -1)
    if len(items) < 3 or mine < 0:
        return False
    labels = [sent[(items[i - 1].end() if i else 0) : m.start()] for i, m in enumerate(items)]
    others = " ".join(x for i, x in enumerate(labels) if i != mine)
    asked = [w for w in content_words(need.question) if not need.head or (w not in need.head and need.head not in w)]
    return _names_other(asked, labels[mine], others)  # the quantity asked names every item alike


def _names_other(words: Iterable[str], own: str, others: str) -> bool:
    """Some of ``words`` (the question's) stands in ``others`` (another row's or item's label) and not in ``own``."""
    mine, theirs = set(content_words(own)), set(content_words(others))
    return any(w in theirs and w not in mine for w in words)


def _row_named(need: Need, r: Reading) -> bool:
    """A number in a table's text that no reader split into cells ("… 지주형식 동바리 단품 동바리 3 … 조립식 동바리
    2.5 …") answers only when its own row's words name what the question asks: one of them is the question's, no
    word (or ratio: "1:500") of the question that names another row of the table is missing from its own row, and
    every word the question adds to the quantity is in that row or in the table's caption and headers."""
    row = row_words(r.chunk.text, r.start)
    if row is None:
        return True
    q = set(content_words(need.question))
    if not set(content_words(row.own)) & q:
        return False
    ratios = set(re.findall(r"\d+\s*[:/]\s*\d+(?:,\d{3})*", need.question))
    if _names_other(q, f"{row.own} {row.head}", row.others) or any(
        x.replace(" ", "") in row.others.replace(" ", "") and x.replace(" ", "") not in row.own.replace(" ", "")
        for x in ratios
    ):
        return False  # the question names another row
    mods = [w for w in content_words(need.subject) if w != need.head and re.match(r"[가-힣]", w)]
    asked = " ".join([*mods, *need.conditions])
    frame = " ".join([row.own, row.head, *r.chunk.clause_path, r.chunk.doc.title])
    return not asked.strip() or words_covered(asked, frame) >= WORDS


def amounts_missing(case: str, text: str) -> bool:
    """The question's case sets an amount or a grade ("면적이 0.5 ㎢ 미만이면", "높이 3 m 이상인", "5등급 역") that
    ``text`` never writes: a text without that number does not state that case."""
    written = {d for d, _, _ in number_spans(text)}
    c = lx.nfkc(case)
    for d, _, b in number_spans(c):
        u = lx.unit_at(c, b)
        if u is not None and c[u.end() : u.end() + 1] == "당":
            continue  # "1인당", "1 m당": a rate's base, not a case
        if (u or lx.bound_after(c, b) or lx.GRADE_AFTER.match(c, b)) and d not in written:
            return True
    return False


def _other_direction(need: Need, r: Reading) -> bool:
    """The question names a direction ("수평 이격거리") and the words right before the value name another one
    ("…에서 수평 7 m 이상, 상하 3 m 이상": 3 m is the vertical one)."""
    asked = [d for d in lx.DIRECTION_WORDS if d in need.question]
    if not asked or r.cell:
        return False
    before = r.chunk.text[max(0, r.start - 12) : r.start]
    before = re.split(r"[,，]", before)[-1]
    written = [d for d in lx.DIRECTION_WORDS if d in before]
    return bool(written) and not any(d in written for d in asked)


def _relative_base(before: str) -> str:
    """The noun phrase a share or multiple is of, from the text right before it: "… 수직간격은 축방향 철근지름의"
    → "축방향 철근지름"; "" when the text does not end on "…의"."""
    t = re.sub(r"\([^()]*\)", "", before).rstrip()  # "동요 임펄스(Disturbance Impulse)의": the aside left out
    return lx.PHRASE_BREAK.split(t[:-1])[-1].strip() if t.endswith("의") else ""


def _base_differs(need: Need, r: Reading) -> bool:
    """The question asks a multiple or share of one quantity ("띠철근 지름의 몇 배") and the value is written as a
    multiple of another ("축방향 철근지름의 16배"): a word of the question's base is missing from the value's."""
    m = lx.RELATIVE_ASKED.search(need.question)
    if m is None or r.cell:
        return False
    asked = _relative_base(need.question[: m.start()] + "의")
    written = re.sub(r"\s", "", _relative_base(r.window))
    if not asked or not written:
        return False
    words = [w if len(stem := lx.PARTICLE_END.sub("", w)) < 2 else stem
             for w in re.findall(r"[가-힣]{2,}|[A-Za-z][A-Za-z0-9_]*", asked)]  # fmt: skip
    return any(w not in written for w in words)


def _implied_by_unit(need: Need, r: Reading) -> bool:
    """The value's unit measures what the question asks (mm for a 두께, m for a 거리) and it is the sentence's only
    number with a unit of that dimension."""
    dim = lx.unit_dimension(r.unit) if r.unit else ""
    if not dim or dim != need.dimension or dim in ("ratio", "count", ""):
        return False
    named = lx.NOUN_RIGHT_AFTER.match(r.chunk.text, r.end)
    if named and (named.group(1) == "마다" or _is_quantity(named.group(1))):
        return False  # a quantity named after it ("500 m마다", "2 m 폭의") is that quantity
    same = [
        m for m in lx.UNIT_AFTER_NUMBER.finditer(r.sentence)
        if re.search(r"\d\s*$", r.sentence[: m.start()]) and lx.unit_dimension(m.group(1)) == dim
    ]  # fmt: skip
    return len(same) <= 1


_PARAGRAPH_LINE = re.compile(r"^\s*\(\d{1,2}\)", re.MULTILINE)


def _own_block(text: str, pos: int) -> tuple[str, str]:
    """The text a value at ``pos`` is written under — the chunk's words before its first numbered paragraph and
    the numbered paragraph holding the value — and, when that paragraph opens a list ("(2) 교량 강구조의 아이바에
    대한 구조제한은 다음과 같다."), the opening lines of the sibling paragraphs that open lists too ("(1) 일반
    강구조 아이바에 대한 …"); the whole text and "" when there are no such parallel lists."""
    marks = [m.start() for m in _PARAGRAPH_LINE.finditer(text)]
    if len(marks) < 2:
        return text, ""
    start = max((m for m in marks if m <= pos), default=0)
    end = min((m for m in marks if m > pos), default=len(text))
    own = f"{text[: marks[0]]} {text[start:end]}" if start else text[:end]

    def lead(at: int) -> str:
        line = text[at : (text.find("\n", at) + 1 or len(text) + 1) - 1]
        return line if lx.LIST_LEAD.search(line) else ""

    if start not in marks or not lead(start):
        return own, ""
    return own, " ".join(lead(m) for m in marks if m != start)


def _qualifier_written(need: Need, mods: str, context: Sequence[str], near: str) -> bool:
    """The word right before the asked quantity ("코일 1열당 압력강하": 1열당 — not the quantity cut short,
    "압력강") is written by the value, and the item above the value (``context``) is one the question names."""
    nearest = next((w for w in reversed(mods.split()) if w not in lx.GENERIC_WORDS and w not in need.head), "")
    framed_by_asked = all(words_covered(lx.strip_item(c)[:60], need.question) >= 0.5 for c in context)
    return bool(nearest) and framed_by_asked and words_covered(nearest, near) >= 1.0


def match(need: Need, r: Reading, context: Sequence[str] = (), strict: bool = False) -> Match:
    """The slot checks of reading ``r`` against ``need``; ``context`` adds texts that frame the value (clause
    path, document title). ``strict`` (for rivals of an answer): the subject must be the word the number is
    written for, when the clause names one."""
    chunk = r.chunk
    frame = [r.sentence, *chunk.clause_path, chunk.doc.title, chunk.doc.doc_code, *context]
    if r.cell and chunk.table is not None:
        t = chunk.table
        frame.extend([t.caption, *r.columns, *(c.text for c in t.cells if c.row < t.header_rows)])
    lead = r.sentence[: max(0, r.start - _sentence_start(r))][-80:] if not r.cell else ""
    # the sentence before frames the subject only when this one names no topic of its own ("2) 목재의 중량은 …,
    # 8 kN/m3는" is about 목재, whatever the sentence before it lists)
    own_topic = (
        bool(content_words(r.topic))
        and not lx.CASE_MARKER.search(r.topic + " ")
        and not lx.VERB_STEM_END.search(r.topic)  # "… 콘크리트를 사용하는 경우": a verb's 는, no topic
        and not lx.EXCEPTION_OPEN.match(r.sentence)  # "다만, …" goes on about the sentence before
        and not lx.CONTINUATION_OPEN.match(r.sentence)
    )
    before = "" if own_topic else r.before
    local = [r.window, r.topic, lead, before, r.of] + ([r.clause] if r.cell else [])
    checks: dict[str, bool] = {}
    if need.head and _is_quantity(need.head):
        owner_other = (
            bool(r.owner) and _is_quantity(r.owner) and not head_in(need.head, [r.owner])
            and not set(content_words(r.owner)) <= set(content_words(need.question))  # "…와의 차이를 얼마" names it
        )  # fmt: skip
        if r.cell and r.column and _is_quantity(content_words(r.column)[-1] if content_words(r.column) else ""):
            owner_other = owner_other or not head_in(need.head, [r.column])  # the column names another quantity
        close = strict and r.owner_close and bool(r.owner)
        checks["subject"] = not owner_other and head_in(need.head, [r.owner] if close else local)
        if not checks["subject"] and not owner_other:
            # the quantity written right after the value and its unit: "50 m 간격으로", "2 m 폭의"
            named = lx.NOUN_RIGHT_AFTER.match(r.chunk.text, r.end)
            checks["subject"] = named is not None and (
                head_in(need.head, [named.group(1)])
                or (named.group(1) == "마다" and need.head.endswith(("간격", "주기")))
            )  # "2 km마다 … 설치": a spacing or period written as "every"
        verbal = lx.VERBAL_HEAD.match(need.head)
        if not checks["subject"] and not owner_other and verbal:
            # "이격거리" asked, "… 150 mm 이상 이격하여야 한다" written: the quantity named by its verb after the value
            after = r.chunk.text[r.end : r.end + 40]
            checks["subject"] = bool(re.match(rf"[^.,]*?{re.escape(verbal.group(1))}(?:하|되|시|해|돼)", after))
        if not checks["subject"] and not owner_other and not r.cell and _implied_by_unit(need, r):
            # "흡입관 보온재 두께" asked, "흡입관의 보온은 … 20 mm 이상의 … 보온재로 한다" written: the quantity
            # is not named, but its unit's dimension is the one asked and no other value of it is in the sentence
            mods_all = [w for w in content_words(need.subject) if w != need.head and need.head not in w]
            written = " ".join([*local, r.sentence])
            checks["subject"] = bool(mods_all) and words_covered(" ".join(mods_all), written) >= 1.0
        symbols = [w for w in need.subject.split() if _SYMBOL_SUBJECT.fullmatch(w) and not lx.unit_dimension(w)]
        if not checks["subject"] and symbols:
            # "인장철근비 ρ" asked, "철근비 ρ는 0.025 이하" written: the symbol names the quantity
            written = _plain_symbol(r.window[-14:])
            checks["subject"] = not r.cell and any(
                re.search(re.escape(_plain_symbol(s)) + r"(?:는|은|이|가|=|:|의값은)?$", written) for s in symbols
            )  # written right before the number, "ρ는 0.025", "F_a = 1.2" (not a header over a table's numbers)
        mods = " ".join(
            w for w in content_words(need.subject)
            if w != need.head and need.head not in w and re.match(r"[가-힣]", w) and w not in lx.EXTREME_NOUNS
        )  # symbols are other names of the quantity ("C_c"), not modifiers; "최소" is the bound asked  # fmt: skip
        if checks["subject"] and mods:
            # the standard's own field, as the question writes it ("조적조" for a 조적식구조 standard), frames it
            title = bigrams(lx.nfkc(chunk.doc.title))
            field = [w for w in mods.split() if len(w) >= 3 and coverage(bigrams(w), title) >= 0.5]
            checks["subject"] = words_covered(mods, " ".join([*frame, before, *field])) >= WORDS
            if not checks["subject"] and _qualifier_written(need, mods, context, " ".join([*local, r.sentence])):
                # "냉동냉장창고 냉각부하 계산의 냉각시간" asked, "냉각시간은 24시간을 기준으로": the quantity and the
                # word right before it are written, a scope word only elsewhere — at most a warning (the verifier
                # wants the scope words in the cited standard); not when the item above the value names another
                # thing ("(1) 에스컬레이터 …" over "② 출입문 폭은 …")
                checks["subject"], checks["modifiers"] = True, False
        if checks["subject"] and r.owner and lx.opposite_modifier(need.subject, r.owner):
            checks["subject"] = False  # "공칭 너비" asked, "실제너비 38 mm" written
        if checks["subject"] and _base_differs(need, r):
            checks["subject"] = False  # "띠철근 지름의 몇 배" asked, "축방향 철근지름의 16배" written

    elif need.head:
        checks["subject"] = head_in(need.head, frame) or covered(" ".join(need.terms), " ".join(frame)) >= COVER
    else:
        checks["subject"] = covered(need.subject or " ".join(need.terms), " ".join(frame)) >= COVER
    if _SYMBOL_SUBJECT.fullmatch(need.subject) and not lx.unit_dimension(need.subject):
        # a symbol asked alone ("지반증폭계수 Fa는?"): the number is the symbol's, written right after it or
        # under it in a table, not a number elsewhere in a sentence that mentions it
        beside = [r.owner, r.window[-25:], r.of] + ([r.clause, r.column, *r.columns, *r.cases] if r.cell else [])
        checks["subject"] = checks["subject"] and _plain_symbol(need.subject) in _plain_symbol(" ".join(beside))
    qconds = question_conditions(need.question)
    cond_scores = []
    block, sibling = _own_block(chunk.text, r.start) if not r.cell else (chunk.text, "")
    wide = " ".join([*frame, block, *chunk.clause_path])
    # a scope word the value's own paragraph lacks but a sibling paragraph of the chunk writes ("교량" of "(2) 교량
    # 강구조의 아이바 …" for a value under "(1) 일반 강구조 아이바 …"): the value is the sibling's other scope's
    opening = re.split(r",\s", r.sentence, maxsplit=1)[0] if not r.cell else ""
    near = " ".join([r.clause, r.topic, r.owner, opening, r.before, *chunk.clause_path, chunk.doc.title, *context])
    if r.cell:
        near = " ".join(frame)
    for c in need.conditions:
        # the case as stated, or its objects without the activity it is stated with ("…을 정할 때")
        s = (
            max(words_covered(c, near), words_covered(lx.activity_core(c), near))
            if c != need.scope
            else min(1.0, covered(c, wide) / COVER * WORDS)
        )
        if c == need.scope and sibling and any(
            words_covered(w, wide) < 1.0 and words_covered(w, sibling) >= 1.0 for w in content_words(c)
        ):
            s = 0.0
        if lx.acronyms_missing(c, wide):
            s = 0.0  # "GFRP 보강근 콘크리트 부재에서": a standard that never writes GFRP is not about it
        if s < COVER and qconds and agreement(qconds, " ".join(frame)) > 0:
            s = 1.0
        cond_scores.append(s)
    checks["conditions"] = all(s >= WORDS for s in cond_scores)
    # an amount the question states ("계획홍수량이 10,000 ㎥/s 이상인", "높이 3.0 m일 때") is written where the value
    # is: in its sentence (or the one before, the clause headings, the lead of its list)
    if not r.cell and amounts_missing(need.question, " ".join([r.sentence, r.before, *chunk.clause_path, *context])):
        checks["conditions"] = False  # (a cell's row labels are matched below, intervals such as "6 < t ≤ 13" too)
    qnums = {d.normalize() for d, _, _ in number_spans(need.question)}
    own = []
    for c in r.cases:
        iv = interval(c) if r.cell else None
        if iv is not None and qnums and not re.search(r"[가-힣]{2,}", c):
            own.append(1.0 if any(in_interval(x, iv) for x in qnums) else 0.0)  # "6 < t ≤ 13" for "두께가 10 mm"
            continue
        if re.fullmatch(r"\d+(?:\.\d+)?", c.strip()):  # a number it stands for ("각각"): the question's?
            own.append(1.0 if Decimal(c.strip()).normalize() in qnums else 0.0)
            continue
        # "A하거나 B하는 경우": the question states one of the alternatives
        alts = alternatives(lx.case_core(c))
        s = max(words_covered(alt, need.question) for alt in alts)
        lasts = [w[-1] for w in (content_words(a) for a in alts) if w]
        if lasts and s < 1.0 and not any(words_covered(w, need.question) >= 1.0 for w in lasts):
            s = 0.0  # the word that makes the case ("궤도가 직선인 경우") is not the question's
        ag = agreement(qconds, c) if qconds else 0
        s = 1.0 if ag > 0 else (0.0 if ag < 0 else s)
        if _designation_differs(c, need.question):
            s = 0.0  # "등급 4 ALC" is not the question's "등급 2 ALC"
        if lx.negation_disagrees(c, need.question) or lx.opposite_modifier(need.question, c):
            s = 0.0  # "양쪽 면에 … 부착된 경우" for a question about 한쪽 면
        own.append(s)
    if r.cell:
        # a row is named by one of its labels (a description column need not be restated); the column by its
        # lowest header, unless that names the quantity asked or the table has one value column; nothing may
        # contradict the question
        labels = [(c, x) for c, x in zip(r.cases, own, strict=True) if not need.head or not head_in(need.head, [c])]
        contradicted = any(
            lx.negation_disagrees(c, need.question) or (qconds and agreement(qconds, c) < 0)
            for c in [*r.cases, *r.columns]
        ) or any(x == 0.0 and interval(c) is not None for c, x in zip(r.cases, own, strict=True))
        row_ok = r.single_row or not labels or any(x >= WORDS for _, x in labels)
        col = r.column
        col_ok = (
            r.single_column or not col or (bool(need.head) and head_in(need.head, [col]))
            or words_covered(col, need.question) >= WORDS
        )  # fmt: skip
        checks["own_cases"] = not contradicted and row_ok and col_ok
    else:
        # a word the question negates that the text before the value states plainly, or the reverse
        # ("방수처리되지 않은 이음부" against "방수처리된 바닥판 이음부 위치에서 … 5 %")
        negated = lx.negation_disagrees(need.question, " ".join([lead, r.window, r.topic, *r.cases]))
        # the case of another value beside it that the question states ("1,000 m2(스프링클러 설치 시 2,000 m2)")
        other = any(covered(c, need.question) >= COVER for c in r.other_cases)
        checks["own_cases"] = all(s >= WORDS for s in own) and not negated and not other
    own_words = " ".join([r.owner, r.window, *r.cases])
    checks["excluded"] = not any(
        words_covered(x, own_words) >= 1.0 and not re.search(re.escape(x) + lx.NEGATED_AFTER, own_words)
        for x in need.excluded
    )
    checks["bound"] = _bound_ok(need, r) and _extreme_ok(need, r)
    if (need.extreme or need.bound) and lx.RECOMMENDED_AFTER.match(r.chunk.text, r.end):
        # "0.5 % 이상이 바람직하나 최소 0.2 % 이상": the desirable value is not the limit asked
        checks["bound"] = checks["bound"] and bool(lx.RECOMMENDED_ASKED.search(need.question))
    checks["operand"] = not r.operand or bool(lx.OPERATION_ASKED.search(need.question))
    if not r.cell:
        # a number among others with only spaces between, in a flattened table's text after its caption (a cell
        # whose row the question must name), or an item of a list of symbols set to values (its own item's)
        checks["attributable"] = (
            not in_number_run(r.chunk.text, r.start, r.end)
            and (strict or _row_named(need, r))
            and not _names_other_item(need, r)
            and not _other_direction(need, r)
        )
    if lx.TOTAL_ASKED.search(need.question) and not r.cell:
        # "모두 몇 점": not the number given per item ("각 2점씩 4점" — 2 is per point, 4 the total)
        checks["total"] = not lx.PER_ITEM_AFTER.match(r.chunk.text, r.end)
    if lx.DIFFERENCE_ASKED.search(need.question) and not r.cell:
        # the margin between two quantities asked: the value written as a margin ("… 보다 15 ℃ 이상 낮은")
        checks["difference"] = bool(
            lx.COMPARED_BEFORE.search(r.chunk.text[max(0, r.start - 40) : r.start])
            or lx.COMPARATIVE_AFTER.match(r.chunk.text, r.end)
        )
    checks["unit"] = _unit_ok(need, r) and _symbol_ok(need, r)
    # a number that states a condition answers a question asking for such a limit ("몇 mm 이상이면 …"), or one
    # asking for a bound of exactly the quantity it is written for ("두께가 89 mm 이상인 … 두께 기준은 몇 mm 이상")
    checks["threshold"] = (
        not r.threshold or need.threshold or (bool(need.bound) and head_in(need.head, [r.owner, r.window[-20:]]))
    )
    if need.ordinal:
        checks["ordinal"] = r.position == need.ordinal if need.ordinal > 0 else False
    score = (
        (1.0 if checks["subject"] else 0.0)
        + sum(cond_scores) / max(1, len(cond_scores))
        + (sum(own) / len(own) if own else 1.0)
        + covered(" ".join(need.terms), r.sentence + " " + r.before)
        + (words_covered(r.window, need.question) if len(content_words(r.window)) >= 2 else 0.5)
        + (words_covered(r.owner, need.question) if content_words(r.owner) else 0.5)
        + (0.3 if need.unit and r.unit and lx.same_unit(need.unit, r.unit) else 0.0)
        + (0.2 if need.threshold == r.threshold else 0.0)
    )
    return Match(checks, score)
