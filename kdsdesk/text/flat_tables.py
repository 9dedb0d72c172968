"""Tables flattened into running text, read back into rows and columns.

Converters (and the KCSC texts themselves) often write a table as one line of words and numbers: "표 4.2-1 돌망태
옹벽의 설계안전율 구분 검토항목 평상시 지진 시 비고 외적 안정 활 동 1.5 1.1 전 도 1.5 1.1 지지력 2.5 2.0 …". Its
cells can be told apart again where the text has the shape of a table: runs of value cells ("2.5 2.0", "5개 위성
이상") of one length *k*, each led by a short label ("지지력"), at least two such rows in a row (three when each row
holds one value: "육안등급구조재 0.25 기계등급구조재(MSR) 0.11 집성재 0.10"). Then

- a row's label is the words between the run before it and its own run (exact for every row but the first, whose
  label runs into the column headers before it);
- the column headers are the *k* header words right before the first row's label, whose length is guessed from the
  other rows' labels; or, when a symbol stands right before the first run and its numbers are plain and distinct
  ("계수 δ h/l 0.1 0.15 0.2 … 고정 0.360 …"), that run is a header row and each column is one of its numbers (a
  question names the column by stating the number: "h/l = 0.2"). When the guess is wrong, the columns carry words
  the question does not state, and the verifier finds no column for it: such a table declines rather than misreads.

Nothing here is a guess the answer rests on alone: a value read this way is a table cell (at most a warning, with
"원문 표의 행·열 머리를 확인하세요"), and the verifier still checks that the question states its row and column.
Pure functions of the text, shared by the index-time facts and the verifier's readings.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from statistics import median

from kdsdesk import lexicon as lx

_NUM = r"[-−]?\d[\d,]*(?:\.\d+)?(?:/\d+)?(?:\s*[~～∼]\s*\d[\d,]*(?:\.\d+)?)?"
_BOUND = r"이상|이하|미만|초과|이내"
CELL = re.compile(
    rf"(?<![\w.\-/(])({_NUM})(?:\s*({lx.UNIT_ALT})(?![A-Za-z]))?(?:\s*({_BOUND}))?(?![\w.\-/])"
)
_SENTENCE_END = re.compile(r"(다\.|\.\s|[:：;])")
MAX_LABEL_WORDS = 6
MAX_LABEL_CHARS = 30
MIN_ROWS = 2
MIN_ROWS_ONE_VALUE = 3  # "구분 COV_E 육안등급구조재 0.25 기계등급구조재(MSR) 0.11 집성재 0.10": one value per row


@dataclass(frozen=True, slots=True)
class FlatCell:
    """One value of a flattened table: offsets into the text, its row's label and its column's header."""

    start: int
    end: int
    value: str
    unit: str
    bound: str
    row_label: str
    column: str  # "" when the headers could not be read
    index: int  # 0-based among the row's values
    width: int  # values per row
    row_start: int  # the row (label and values) in the text
    row_end: int
    header: str  # the words before the first row (caption, headers)
    column_value: str = ""  # a column headed by a number of a header row ("h/l 0.1 0.15 0.2 …"): that number

    @property
    def read(self) -> bool:
        """Its column is known: by a header word or by a header row's number."""
        return bool(self.column or self.column_value)


@dataclass(frozen=True, slots=True)
class _Run:
    cells: tuple[re.Match[str], ...]

    @property
    def start(self) -> int:
        return self.cells[0].start()

    @property
    def end(self) -> int:
        return self.cells[-1].end()


_CODE = re.compile(r"K[DC]S\s*\d{2}\s*\d{2}\s*\d{2}|\(\s*\d+(?:\.\d+)+\s*\)|\d+(?:\.\d+){2,}")


def _runs(text: str) -> list[_Run]:
    # a standard's code, a clause number or an equation number is no cell: masked (same length) before reading
    masked = _CODE.sub(lambda m: "#" * len(m.group(0)), text)
    runs: list[list[re.Match[str]]] = []
    for m in CELL.finditer(masked):
        if runs and not masked[runs[-1][-1].end() : m.start()].strip():
            runs[-1].append(m)
        else:
            runs.append([m])
    return [_Run(tuple(r)) for r in runs]


def _units(words: str) -> list[str]:
    """Header or label words, a case word ("시", "때") or a parenthesis kept with the word before it."""
    out: list[str] = []
    for w in words.split():
        unit = w.strip("()[]") in lx.UNIT_DIMENSION
        if out and (w in ("시", "때", "경우") or unit or w.startswith(("(", "[")) or out[-1].endswith("(")):
            out[-1] = f"{out[-1]} {w}"
        else:
            out.append(w)
    return out


def _unit_of(header: str) -> str:
    """The unit a column header writes after its name: "최저온도 ℃", "높이 (m)"."""
    last = header.split()[-1].strip("()[]") if header.split() else ""
    return last if last in lx.UNIT_DIMENSION else ""


def _is_label(text: str) -> bool:
    t = text.strip()
    return (
        bool(t) and len(t) <= MAX_LABEL_CHARS and len(t.split()) <= MAX_LABEL_WORDS
        and bool(re.search(r"[가-힣A-Za-z]", t)) and not _SENTENCE_END.search(t + " ")
    )  # fmt: skip


def flat_cells(text: str) -> list[FlatCell]:
    """Every value of every flattened table in ``text`` (see the module docstring)."""
    return list(_flat_cells(text))


@functools.lru_cache(maxsize=512)
def _flat_cells(text: str) -> tuple[FlatCell, ...]:
    # read once per chunk text: the facts, the verifier's readings and its citations all ask for the same chunks
    runs = _runs(text)
    out: list[FlatCell] = []
    i = 0
    while i < len(runs):
        k = len(runs[i].cells)
        j = i
        while (
            j + 1 < len(runs) and len(runs[j + 1].cells) == k
            and _is_label(text[runs[j].end : runs[j + 1].start])
        ):  # fmt: skip
            j += 1
        if (k >= 2 and j - i + 1 >= MIN_ROWS) or (k == 1 and j - i + 1 >= MIN_ROWS_ONE_VALUE):
            out.extend(_table(text, runs[i : j + 1], k))
            i = j + 1
        else:
            i += 1
    return tuple(out)


_PLAIN = re.compile(r"-?\d+(?:\.\d+)?")


def _numeric_header(header: str, rows: list[_Run], k: int) -> list[str]:
    """The numbers of a header row that heads the columns by a symbol's values ("계수 δ h/l 0.1 0.15 0.2 … 고정
    0.360 …", "f_ck (MPa) ≤ 40 50 60 …"): the first run, when a symbol stands right before it and its numbers are
    plain and all different; else []."""
    tail = header.split()[-3:]
    # two rows only: a quantity with its unit over the first ("본선설계속도 (km/h) 120 110 100 … 노즈 최소
    # 평면곡선반지름 (m) 250 230 200 …"), a table written across instead of down
    across = len(rows) == 2 and k >= 3 and bool(tail) and re.fullmatch(r"[(\[].+[)\]]", tail[-1]) is not None and (
        tail[-1].strip("()[]") in lx.UNIT_DIMENSION
    )
    if k < 2 or (len(rows) < 3 and not across) or not tail or re.search(r"[가-힣]", tail[-1]):
        return []
    if not any(re.search(r"[A-Za-zα-ωΑ-Ω]", t) and not re.search(r"[가-힣]", t) for t in tail):
        return []
    values = [c.group(1) for c in rows[0].cells]
    if any(c.group(2) or c.group(3) or not _PLAIN.fullmatch(c.group(1)) for c in rows[0].cells):
        return []
    return values if len(set(values)) == len(values) else []


def _table(text: str, rows: list[_Run], k: int) -> list[FlatCell]:
    labels = [text[a.end : b.start].strip() for a, b in itertools.pairwise(rows)]
    first = rows[0].start
    cut = max((m.end() for m in _SENTENCE_END.finditer(text, 0, first)), default=0)
    header = text[cut:first]
    numbers = _numeric_header(header, rows, k)
    if numbers:  # the first run heads the columns; every row after it has its own label
        head = f"{header.strip()} {text[rows[0].start : rows[0].end]}"
        return [
            _cell(text, cell, c, k, labels[r - 1], rows[r - 1].end, run.end, head, column_value=numbers[c])
            for r, run in enumerate(rows) if r > 0
            for c, cell in enumerate(run.cells)
        ]  # fmt: skip
    units = _units(re.sub(r"구\s+분", "구분", header))
    m = max(1, int(median(len(_units(x)) for x in labels))) if labels else 1
    first_label = " ".join(text[:first].split()[-m:])
    # the k headers right after the word over the row labels ("구분"); else the columns stay unread
    head_word = units[-(m + k + 1)] if len(units) >= m + k + 1 else ""
    columns = units[-(m + k) : -m] if head_word in lx.TABLE_ROW_HEADERS else []
    out: list[FlatCell] = []
    for r, run in enumerate(rows):
        label = first_label if r == 0 else labels[r - 1]
        row_start = max(0, first - len(first_label)) if r == 0 else rows[r - 1].end
        for c, cell in enumerate(run.cells):
            column = columns[c] if columns else ""
            out.append(_cell(text, cell, c, k, label, row_start, run.end, header.strip(), column=column))
    return out


def _cell(
    text: str, cell: re.Match[str], index: int, width: int, label: str, row_start: int, row_end: int, header: str,
    column: str = "", column_value: str = "",
) -> FlatCell:
    """One value of a row: the number, the unit written with it (else the one its column header writes) and its
    bound."""
    return FlatCell(
        start=cell.start(1), end=cell.end(1), value=text[cell.start(1) : cell.end(1)],
        unit=cell.group(2) or _unit_of(column), bound=lx.bound_of_word(cell.group(3)) if cell.group(3) else "",
        row_label=label, column=column, index=index, width=width, row_start=row_start, row_end=row_end,
        header=header, column_value=column_value,
    )  # fmt: skip


def _opens(text: str, cap: re.Match[str]) -> bool:
    """A caption that starts a table's text: it opens the text or follows a sentence's end, or the text writes it
    twice running ("표 1.6-2 첨가물 계수 표 1.6-2 첨가물 계수 …", right after another table's last row)."""
    b = text[max(0, cap.start() - 8) : cap.start()].rstrip()
    if not b or b[-1] in ".:：다":
        return True
    word = re.match(r"\S+", text[cap.end() :])
    again = f"{cap.group(0).strip()} {word.group(0)}" if word else ""
    return bool(again) and again in text[cap.end() : cap.end() + 120]


@functools.lru_cache(maxsize=512)
def _captions(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, text) of every caption in ``text`` that starts a table's text: one opens the text or follows a
    sentence's end; a mention inside a sentence ("… 길이는 표 4.2-11 길이의 1.2배 이상") is a reference. Read once per
    chunk text: the verifier asks for every number of the chunks it reads."""
    return tuple((m.start(), m.end(), m.group(0)) for m in lx.TABLE_CAPTION.finditer(text) if _opens(text, m))


def _caption_at(text: str, pos: int) -> tuple[int, int, str] | None:
    caps = [c for c in _captions(text) if c[1] <= pos]
    if not caps or lx.TABLE_TEXT_END.search(text, caps[-1][1], pos):
        return None
    return caps[-1]


def table_text_start(text: str, pos: int) -> int:
    """Where the table whose text holds ``pos`` starts (its caption: "표 1.8-1 압축부재의 안전율 지지형식 안전율 …
    단품 동바리 3 …"), with no sentence end, numbered item or heading between; -1 when ``pos`` is in no table's
    text. A number there is a cell whose row and column the text no longer shows (unless :func:`flat_cells` read
    them), not a value a sentence states."""
    cap = _caption_at(text, pos)
    return cap[0] if cap else -1


_ANY_NUMBER = re.compile(r"\d[\d,.]*(?::\d[\d,.]*)?")
_TABLE_NUMBER = re.compile(r"표\s*[A-Z]?\d+(?:\.\d+)*-\d+")


@functools.lru_cache(maxsize=512)
def _numbers_masked(text: str) -> str:
    """``text`` with codes, clause and table numbers masked (same length): what is left of its digits are values."""
    return _TABLE_NUMBER.sub(lambda m: "#" * len(m.group(0)), _CODE.sub(lambda m: "#" * len(m.group(0)), text))


@dataclass(frozen=True, slots=True)
class TextRow:
    """A number in a table's text, as far as the text still shows it: its own row's words before it (since the
    number before it; for the table's first number, whose row words run into the headers, as many words as the
    other rows' labels have), the table's head (caption and headers, up to its first number) and the rest of the
    table's text (the other rows)."""

    own: str
    head: str
    others: str


def row_words(text: str, pos: int) -> TextRow | None:
    """The row of the number at ``pos`` in a table's text (:class:`TextRow`); None outside a table's text."""
    cap = _caption_at(text, pos)
    if cap is None:
        return None
    cap_start, cap_end, caption = cap
    end_m = lx.TABLE_TEXT_END.search(text, pos)
    end = end_m.start() if end_m else len(text)
    masked = _numbers_masked(text)
    nums = list(_ANY_NUMBER.finditer(masked, cap_end, pos))
    if not nums:
        # the first number: its row's words run into the headers; as many words as the other rows' labels have
        after = list(_ANY_NUMBER.finditer(masked[:end], pos))
        labels = [text[a.end() : b.start()].split() for a, b in itertools.pairwise(after)]
        sizes = [len(w) for w in labels if w and any(re.search(r"[가-힣A-Za-z]", x) for x in w)]
        m = max(1, int(median(sizes))) if sizes else 3
        words = text[cap_end:pos].split()
        own = " ".join(words[-m:])
        return TextRow(own, " ".join([caption, *words[:-m]]), text[pos:end])
    own_from = nums[-1].end()
    head_to = nums[0].start()
    own_end = next((m.end() for m in _ANY_NUMBER.finditer(masked, pos, end)), pos)
    return TextRow(text[own_from:pos], text[cap_start:head_to], f"{text[head_to:own_from]} {text[own_end:end]}")
