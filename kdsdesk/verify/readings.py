"""The verifier's own reading of a quoted value: what the document says the number is for.

Independent of the answerer (and of the facts read at index time): given the chunk and where the value stands in
it, read again from the text itself —

- for a sentence: the sentence and the *clause* holding the number (cut at commas and connective endings), the
  words of that clause before the number (the value's subject must be named there or be the sentence's topic),
  the *cases* the clause and the sentence's head state (… 경우, … 때, … 시, … 면, … 중에는, … 에서는, a
  parenthesis "(… 경우 4.2미터로 한다)"), the bound written after it (이상, 이하, 초과, 미만, 까지, 넘지 않도록) and
  its unit;
- for a table cell: the caption, the column headers and the row labels (the cell's cases) and the unit from the
  cell, its headers or the caption.

A :class:`Reading` is what :mod:`kdsdesk.verify.align` compares with the question's need.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kdsdesk import lexicon as lx
from kdsdesk.records import Chunk, Hit, Table, TableCell
from kdsdesk.text.flat_tables import FlatCell, flat_cells
from kdsdesk.text.match import number_spans
from kdsdesk.text.sentences import sentence_ranges


@dataclass(frozen=True, slots=True)
class Reading:
    """A value as the verifier reads it in one chunk."""

    chunk: Chunk
    value: str
    unit: str
    bound: str
    start: int  # the value in chunk.text
    end: int
    sentence: str  # the sentence (cells: the row line)
    clause: str  # the clause holding the value (cells: caption + headers)
    window: str  # the clause's words before the value (cells: caption, headers, row labels)
    topic: str  # the sentence's topic (words before its first 은/는)
    cases: tuple[str, ...]  # cases it is written for (cells: row labels and the column headers below the first)
    before: str = ""  # the sentence before, when this one continues it ("다만, …", "이때 …")
    owner: str = ""  # the word the number is written for: "최대직경이 40 mm", "세립분(0.08 mm", "지간 16 m"
    of: str = ""  # the noun it is the value of, written after it: "90,000 N의 횡하중"
    owner_close: bool = False  # the owner stands right before the number or holds it in a parenthesis
    column: str = ""  # cells: the lowest column header (often the quantity: "최소 연직하중")
    columns: tuple[str, ...] = ()  # cells: every level of the column's headers, top first
    single_column: bool = False  # cells: the table has one value column (its header decides nothing)
    single_row: bool = False
    operand: bool = False  # the number is an operand of what the sentence computes ("판 두께에서 2 mm를 뺀 값")
    symbolic: bool = False
    threshold: bool = False
    cell: bool = False
    position: int = 0  # 1-based place among the values of one unit in its sentence (for ordinals)
    other_cases: tuple[str, ...] = ()  # the case of another value given beside it ("1,000 m2(… 설치 시 2,000 m2)")

    def as_dict(self) -> dict[str, object]:
        return {
            "value": self.value, "unit": self.unit, "bound": self.bound, "cases": list(self.cases),
            "subject_words": self.window.strip()[-60:], "topic": self.topic, "cell": self.cell,
            "chunk_id": self.chunk.chunk_id, "clause": self.chunk.clause,
        }  # fmt: skip


def clause_spans(sentence: str) -> list[tuple[int, int]]:
    """Where each clause of a sentence lies, cut at a comma or a connective ending ("…하고, …", "…하며 …")."""
    out: list[tuple[int, int]] = []
    last = 0
    for m in lx.READING_CLAUSE_CUT.finditer(sentence):
        out.append((last, m.start()))
        last = m.end()
    out.append((last, len(sentence)))
    return out


def _cases_in(text: str) -> list[str]:
    out: list[str] = []
    last = 0
    for m in lx.CASE_MARKER.finditer(text):
        if m.start() < last:
            continue  # inside the words that except the case before ("경우 외에는")
        between = text[last : m.start()]
        # a parenthesis closed inside the piece stays with it ("찌꺼기(슬러지) 제거기를 …")
        piece = re.split(r",|\.\s|:|\((?![^()]*\))", between)[-1]
        words = [w for w in piece.split() if w not in lx.CASE_STOP]
        if out and words and words[0] in lx.CASE_ALTERNATIVE_WORDS and not re.search(r"\d", between):
            # "… 초과할 경우 또는 방향이 급변하는 경우": one case of two alternatives (no value between them)
            out[-1] = f"{out[-1]} {' '.join(words)}"
            last = m.end()
            continue
        for k in range(len(words) - 2, -1, -1):
            if lx.CASE_CLAUSE_JOIN.search(words[k]) or lx.CASE_ITEM_LABEL.match(words[k]):
                words = words[k + 1 :]
                break
        # the case, not the topic written before it ("보강범위는 접속각도 90°인 경우")
        for k in range(len(words) - 2, -1, -1):
            if re.fullmatch(r"\S{2,}(은|는)", words[k]):
                words = words[k + 1 :]
                break
        if words:
            phrase, last = lx.case_phrase_end(" ".join(words[-8:]), text, m.end())  # "… 경우를 제외하고는"
            out.append(phrase)
            continue
        last = m.end()
    return out


def _in_formula(sentence: str, a: int, b: int) -> bool:
    """The number at ``a:b`` is multiplied or divided inside a formula the sentence writes ("… ＝ Q × 1/108 × …")."""
    if a < 0 or not lx.FORMULA_SIGN.search(sentence[:a]):
        return False
    return bool(lx.OPERATOR_BESIDE.search(sentence[max(0, a - 3) : a]) or lx.OPERATOR_AFTER.match(sentence, b))


def _topic(sentence: str) -> str:
    s = lx.ITEM_MARK.sub("", sentence, count=1)
    m = re.search(r"^(.{1,40}?\S)(?:은|는)\s", s)
    return m.group(1) if m else ""


def _past_bound(text: str, pos: int) -> int:
    """Where the text goes on after the bound written at ``pos`` ("15년 이상의 사용수명": after "이상")."""
    m = lx.BOUND_AFTER.match(text, pos)
    return m.end() if m else pos


def _paren_case(sentence: str, pos: int) -> str:
    """The case of a parenthesis holding ``pos``: "(… 고시한 도로노선의 경우 4.2미터로 한다)"."""
    open_at = sentence.rfind("(", 0, pos)
    if open_at < 0 or ")" in sentence[open_at:pos]:
        return ""
    inner = sentence[open_at + 1 : pos]
    cases = _cases_in(inner)
    return cases[-1] if cases else ""


_MARKED = re.compile(r"^(\S{2,}?)(?:은|는|이|가|을|를)$")
_VERBISH = re.compile(r"(하|되|있|없|않|받|같)$|(는|은|던|한|된|할|인)$")


def owner_of(window: str, sentence: str, ra: int) -> tuple[str, bool]:
    """The word the number at ``ra`` is written for, read back from it: the word before a parenthesis holding it
    ("세립분(0.08 mm"), the nearest word marked as subject/topic/object ("최대직경이 40 mm"), or the bare word
    right before it ("지간 16 m"); "" when none is in its clause."""
    open_at = sentence.rfind("(", 0, ra)
    if open_at >= 0 and ")" not in sentence[open_at:ra] and not re.search(r"[가-힣]", sentence[open_at + 1 : ra]):
        words = sentence[:open_at].split()
        return (words[-1], True) if words else ("", False)
    if open_at >= 0 and ")" not in sentence[open_at:ra]:
        inner = sentence[open_at + 1 : ra].split()
        if inner and re.fullmatch(r"[가-힣]{2,12}", inner[-1]):
            return inner[-1], True  # "공칭너비 50 mm(실제너비 38 mm)": the word inside the parenthesis
    skip = {"각각", "모두", "약", "최소", "최대", "적어도"}
    words = [
        w for w in window.split()
        if w not in lx.GENERIC_WORDS and w not in skip and not any(w == e for e, _ in lx.EXTREME_WORDS)
    ]  # fmt: skip
    if words and re.fullmatch(r"[가-힣A-Za-z_/]{1,12}", words[-1]) and not _VERBISH.search(words[-1]):
        marked = _MARKED.match(words[-1])
        if marked and marked.group(1) not in lx.GENERIC_WORDS:
            return marked.group(1), True  # "강도가 21 MPa": the word marked right before it
        return words[-1], True  # "지간 16 m": a noun right before the number
    for w in reversed(words):
        m = _MARKED.match(w)
        if m and not _VERBISH.search(m.group(1)) and m.group(1) not in lx.GENERIC_WORDS:
            return m.group(1), False
    return "", False


def _continues(sentence: str) -> bool:
    """A sentence read with the one before it: an exception or continuation ("다만, …", "이때 …"), a list item
    (its lead), a display equation (the sentence that refers to it: "… 다음 식 (4.3-5)의 값을 표준으로")."""
    if lx.EXCEPTION_OPEN.match(sentence) or lx.CONTINUATION_OPEN.match(sentence) or lx.SUB_ITEM_MARK.match(sentence):
        return True
    return bool(re.search(r"[=≤≥]", sentence)) and len(re.findall(r"[가-힣]", sentence)) <= len(sentence) // 5


_RESPECTIVELY = re.compile(
    r"(?P<x1>\d+(?:\.\d+)?)\s*(?:와|과|및|,)\s*(?P<x2>\d+(?:\.\d+)?)\s*[을를은는이가]?\s*각각\s*"
    r"(?P<y1>\d+(?:\.\d+)?)\s*(?:와|과|및|,)\s*(?P<y2>\d+(?:\.\d+)?)"
)


def _respective(sentence: str, ra: int) -> str:
    """"계수 1.2와 2.4를 각각 1.5와 3.0으로": the number the value at ``ra`` stands for ("2.4" for 3.0)."""
    for m in _RESPECTIVELY.finditer(sentence):
        if m.start("y1") == ra:
            return m.group("x1")
        if m.start("y2") == ra:
            return m.group("x2")
    return ""


def read_sentence_value(
    chunk: Chunk, s0: int, e0: int, a: int, b: int, before: str = "", force: bool = False
) -> Reading:
    """The reading of ``chunk.text[a:b]`` inside the sentence ``[s0, e0)``."""
    text = chunk.text
    sentence = text[s0:e0]
    ra, rb = a - s0, b - s0
    seg_a, seg_b = next(((x, y) for x, y in clause_spans(sentence) if x <= ra <= y), (0, len(sentence)))
    clause = sentence[seg_a:seg_b]
    window = sentence[seg_a:ra]
    cases = _cases_in(window)
    om = lx.OPEN_CASE_COMMA.match(lx.ITEM_MARK.sub("", sentence, count=1))
    if om is not None and "(" not in om.group(1) and seg_a > 0:
        cases = [*_cases_in(om.group(0).rstrip(", ")), *cases]
    pc = _paren_case(sentence, ra)
    if pc:
        cases.append(pc)
    stands_for = _respective(sentence, ra)
    if stands_for:
        cases = [stands_for]  # its case is the number it replaces
    if lx.EXCEPTION_OPEN.match(sentence):
        # "다만, … 경우에는 …": the exception's own case
        cases = [*_cases_in(sentence[: max(ra, 0)]), *cases]
    owner = owner_of(window, sentence, ra)
    nk = lx.nfkc(sentence)
    base = nk if len(nk) == len(sentence) else sentence
    um = lx.unit_at(base, rb)
    unit = um.group(1) if um else ""
    ue = um.end() if um else rb
    bound = lx.bound_after(nk if len(nk) == len(sentence) else sentence, ue)
    # "＝ 2.0 (미건조제재목)": the case written after the value; "(… 설치 시 2,000 m2)": the other value's case
    tail_case, other_case = lx.cases_in_parens_after(base, ue)
    if tail_case:
        cases.append(tail_case)
    sign = re.search(r"([≤<≥>⩽⩾])\s*$", sentence[max(0, ra - 3) : ra])
    if not bound and sign:
        bound = lx.SIGN_BOUND.get(sign.group(1), "")
    threshold = bool(lx.READING_THRESHOLD_AFTER.match(sentence[ue : ue + 14]))
    if re.match(r"\s*[<≤⩽]\s*[A-Za-zα-ωΑ-Ω]", base[ue : ue + 4]) or re.search(
        r"[A-Za-zα-ωΑ-Ω]\s*[<≤⩽]\s*$", base[max(0, ra - 4) : ra]
    ):
        threshold = True  # an end of an interval label ("300<V≤350", "V≤70"): the case of a row, not a value
    symbolic = bool(
        (ra > 0 and ((sentence[ra - 1].isascii() and sentence[ra - 1].isalpha()) or sentence[ra - 1] == "/"))
        or (rb < len(sentence) and sentence[rb].isascii() and sentence[rb].isalpha() and not unit)
    )
    same_unit = [
        (x, y) for _, x, y in number_spans(sentence) if lx.same_unit(_unit_after(sentence, y), unit) or not unit
    ]
    position = 1 + sum(1 for x, _ in same_unit if x < ra)
    return Reading(
        chunk=chunk, value=text[a:b], unit=unit, bound=bound, start=a, end=b, sentence=sentence, clause=clause,
        window=window, topic=_topic(sentence), cases=tuple(dict.fromkeys(c for c in cases if c.strip())),
        other_cases=(other_case,) if other_case else (),
        operand=(
            bool(lx.OPERAND_AFTER.match(nk if len(nk) == len(sentence) else sentence, ue))
            or _in_formula(sentence, ra, rb)
        ),
        before=before if force or _continues(sentence) else "",
        owner=owner[0],
        of=(om2.group(1) if (om2 := lx.OF_NOUN_AFTER_STRICT.match(base, _past_bound(base, ue))) else ""),
        owner_close=owner[1],
        symbolic=symbolic, threshold=threshold, position=position,
    )  # fmt: skip


def _unit_after(text: str, pos: int) -> str:
    m = lx.UNIT_AFTER_NUMBER.match(lx.nfkc(text), pos) if len(lx.nfkc(text)) == len(text) else None
    return m.group(1) if m else ""


def _is_value_cell(text: str) -> bool:
    t = lx.nfkc(text).strip()
    if not t or not re.search(r"\d", t) or len(t) > 40:
        return False
    rest = lx.VALUE_CELL_WORDS.sub("", t)
    return not re.search(r"[가-힣]", rest) and not re.search(r"[A-Za-z]{3,}", rest)


def _label_cols(table: Table, grid: Sequence[Sequence[TableCell | None]]) -> list[int]:
    if table.header_cols > 0:
        return list(range(min(table.header_cols, table.n_cols)))
    cols: list[int] = []
    for k in range(table.n_cols):
        texts = [c.text for r in range(table.header_rows, table.n_rows) if (c := grid[r][k]) is not None and c.text]
        if not texts or (cols and sum(map(_is_value_cell, texts)) * 2 > len(texts)):
            break
        cols.append(k)
        if k + 1 >= table.n_cols - 1:
            break
    return cols or [0]


def cell_readings(chunk: Chunk) -> Iterator[Reading]:
    """Every value cell of a table chunk, read under its headers."""
    t = chunk.table
    if t is None or t.n_rows <= t.header_rows or t.n_cols < 2 or t.n_rows * t.n_cols > 20000:
        return
    grid = t.grid()
    labels = _label_cols(t, grid)
    heads: list[list[str]] = []
    for k in range(t.n_cols):
        hs: list[str] = []
        for r in range(min(t.header_rows, t.n_rows)):
            c = grid[r][k]
            if c is not None and c.text.strip() and (not hs or hs[-1] != c.text.strip()):
                hs.append(c.text.strip())
        heads.append(hs)
    rows = t.rows_text()
    for r in range(t.header_rows, t.n_rows):
        labs: list[str] = []
        for k in labels:
            c = grid[r][k]
            if c is not None and c.text.strip() and (not labs or labs[-1] != c.text.strip()):
                labs.append(c.text.strip())
        line = rows[r] if r < len(rows) else ""
        at = chunk.text.find(line) if line else -1
        for k in range(t.n_cols):
            c = grid[r][k]
            if k in labels or c is None or c.row != r or c.col != k or not _is_value_cell(c.text):
                continue
            nt = " ".join(lx.nfkc(c.text).split())
            um = re.search(rf"(\d)\s*({lx.UNIT_ALT})(?![A-Za-z])", nt)
            unit = um.group(2) if um else ""
            if not unit:
                for h in [*reversed(heads[k]), t.caption]:
                    hm = lx.UNIT_IN_PARENS.search(lx.nfkc(h))
                    if hm:
                        unit = hm.group(1)
                        break
            value = nt[: um.start(2)].strip() if um else nt
            bm = re.search(r"(이상|이하|초과|미만|이내)\s*$", nt)
            vs = chunk.text.find(c.text, at) if at >= 0 else -1
            yield Reading(
                chunk=chunk, value=value, unit=unit, bound=lx.bound_of_word(bm.group(1)) if bm else "",
                start=vs, end=vs + len(c.text) if vs >= 0 else -1, sentence=line,
                clause=" ".join([t.caption, *heads[k]]), window=" ".join([t.caption, *heads[k], *labs]),
                topic=t.title, cases=tuple(dict.fromkeys(labs)), cell=True,
                column=heads[k][-1] if heads[k] else "", columns=tuple(heads[k]),
                single_column=sum(1 for j in range(t.n_cols) if j not in labels) <= 1,
                single_row=t.n_rows - t.header_rows <= 1,
            )  # fmt: skip


def sentence_readings(chunk: Chunk) -> Iterator[Reading]:
    """Every number of a text chunk that is not a reference, read in its sentence."""
    from kdsdesk.text.facts import nfkc_map

    text = chunk.text
    prev = ""
    lead = ""
    intro = ""  # "… 다음과 같이 한다.": the lines after it are its items
    for s0, e0 in sentence_ranges(text):
        nk, idx = nfkc_map(text[s0:e0])
        taken = 0
        for _, x, y in number_spans(nk):
            if x < taken or "\u2460" <= nk[x] <= "\u24ff" or (x > 0 and "\u2460" <= nk[x - 1] <= "\u24ff"):
                continue
            if x > 0 and nk[x - 1].isascii() and nk[x - 1].isalpha() and not re.match(r"\s", nk[x - 1]):
                continue  # the power of a unit or a symbol's index ("mm2", "D19", "f_c28")
            if lx.REFERENCE_BEFORE_VALUE.search(nk[max(0, x - 10) : x]) or re.match(r"[.\-]\d", nk[y : y + 2]):
                continue
            if re.search(r"\d[.\-]$", nk[max(0, x - 2) : x]) or (x > 0 and nk[x - 1] in "^_"):
                continue
            if re.match(r"\s*\)", nk[y : y + 2]) and re.search(r"\(\s*$", nk[max(0, x - 2) : x]):
                continue
            if re.match(r"\s*(등급|급|종|호|번|단계|형|류|군|차원)", nk[y : y + 4]) or re.search(
                r"(등급|제|No\.?)\s*$", nk[max(0, x - 5) : x]
            ):
                continue  # a class or item name
            hi = y
            sp = re.match(r"\s([A-Za-zα-ωΑ-Ω])(?=[을를이가은는의로와과에,.)]|\s|$)", nk[y:])
            if sp and not lx.UNIT_AFTER_NUMBER.match(nk, y):
                hi = y + sp.end(1)  # "1 D를": an expression
            m = re.match(r"\s*(?:%|°|mm|cm|m|MPa|kN)?\s*[~∼〜～:/]\s*(\d[\d.,]*)", nk[y:]) or lx.FREQUENCY.match(nk, y)
            if m:  # a range, ratio or fraction, or a frequency ("1년에 1회"), reads as one value
                hi = y + m.end() if m.re is not lx.FREQUENCY else m.end()
            taken = hi
            sentence = text[s0:e0]
            item = bool(lx.SUB_ITEM_MARK.match(sentence))
            line_item = bool(intro) and not re.search(r"다\.?\s*$", sentence)
            before = lead if item else (intro if line_item else prev)
            orphan = not _topic(sentence) and not re.search(r"\S(은|는|이|가)\s", sentence[: max(0, idx[x])])
            yield read_sentence_value(chunk, s0, e0, s0 + idx[x], s0 + idx[hi], before, force=line_item or orphan)
        sentence = text[s0:e0]
        if not _continues(sentence):
            prev = sentence
        if not lx.SUB_ITEM_MARK.match(sentence):
            lead = sentence
        if re.search(r"다음(과|의|에)|[:：]\s*$", sentence):
            intro = sentence
        elif re.search(r"다\.?\s*$", sentence):
            intro = ""


def flat_readings(chunk: Chunk, cells: Sequence[FlatCell]) -> Iterator[Reading]:
    """The values of a table flattened into the text (``kdsdesk.text.flat_tables``) read as cells: the row's
    label is its case, the column's header its column. A column whose header could not be read gives none."""
    for c in cells:
        if not c.read:
            continue
        yield Reading(
            chunk=chunk, value=c.value, unit=c.unit, bound=c.bound, start=c.start, end=c.end,
            sentence=chunk.text[c.row_start : c.row_end], clause=f"{c.header} {c.column}".strip(),
            window=f"{c.header} {c.row_label}", topic="",
            cases=(c.row_label, c.column_value) if c.column_value else (c.row_label,), cell=True, column=c.column,
            columns=(c.column,) if c.column else (), single_column=c.width == 1,
        )  # fmt: skip


def readings(chunk: Chunk) -> list[Reading]:
    if chunk.kind == "table":
        return list(cell_readings(chunk))
    flat = flat_cells(chunk.text)
    if not flat:
        return list(sentence_readings(chunk))
    inside = [(c.start, c.end) for c in flat if c.read]  # a read table: its numbers are cells, not a sentence's
    out = [r for r in sentence_readings(chunk) if not any(a <= r.start < b for a, b in inside)]
    return sorted([*out, *flat_readings(chunk, flat)], key=lambda r: r.start)


def reading_of_value(chunk: Chunk, quote_start: int, quote_end: int, value: str) -> list[Reading]:
    """The readings inside the quoted range whose numbers are the value's (usually one)."""
    from kdsdesk.verify.values import value_in_quote

    out = []
    for r in readings(chunk):
        inside = quote_start <= r.start < quote_end or (r.cell and quote_start <= max(r.start, 0) <= quote_end)
        if inside and (value_in_quote(value, r.value) or value_in_quote(r.value, value)):
            out.append(r)
    return out


def evidence_readings(hits: Sequence[Hit], top: int) -> list[Reading]:
    out: list[Reading] = []
    for h in hits[:top]:
        out.extend(readings(h.chunk))
    return out


_RUN_NUMBER = re.compile(r"\d[\d,.]*")


def in_number_run(text: str, start: int, end: int, run: int = 3) -> bool:
    """The number ``text[start:end]`` stands in a run of ``run`` or more numbers written with nothing but spaces
    between them ("… 약간 풍화된 암 심하게 풍화된 암 20 10 5 2"): a table flattened into text, whose cells can no
    longer be told apart."""
    left = text[max(0, start - 40) : start]
    right = text[end : end + 40]
    before = re.findall(r"(?:\d[\d,.]*\s+)+$", left)
    after = re.match(r"(?:\s+\d[\d,.]*(?![\d,.]))+", right)
    n = 1 + (len(_RUN_NUMBER.findall(before[0])) if before else 0)
    n += len(_RUN_NUMBER.findall(after.group(0))) if after else 0
    return n >= run
