"""What the lexical index stores of each chunk: its terms per field, from one Kiwi pass over the chunk text.

Kiwi is the cost of indexing, so every chunk text is analysed once and the other fields are cut out of that
analysis by character offsets (``Analysis.slice``): the definition lines of a text chunk (``(3) 측압: …``,
``여기서, A_{v,min} : …``) become short sub-documents of their chunk, and a table's row records (title + column
headers + the row's cells, merged cells resolved) are assembled from its cells' terms. Only short, repeated
strings are analysed on their own: clause paths, table titles and the doc code/title (once each per file). The
``path`` field holds the terms of the whole clause path and those of the chunk's own heading once more (a short
clause — "4.2 운행을 위한 한계조건: KDS 24 10 10 (4.2)를 따른다." — is found by what its heading names, not by
its chapter's "4 설계").
A table whose text is not the usual "caption line, then one ``|``-joined line per row" has its cells analysed
one by one instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kdsdesk.index.lexical import LexDoc, LexLine
from kdsdesk.records import Chunk, Table
from kdsdesk.text.korean import Analysis, analyze_many
from kdsdesk.text.symbols import normalize

# "(3) 측압: …", "여기서, A_{v,min} : …", "- f_ck : …": the head of a definition line
DEFINITION_RE = re.compile(
    r"^[ \t]*(?:여기서[ \t]*,?[ \t]*)?(?:\(\d+\)|[①-⑳]|[가-하]\.|[-·•∙])?[ \t]*([^:：\n.。]{1,40}?)"
    r"(?:[ \t]*[:：](?=\s|$)|[ \t]+[:：])",  # "X : …", "X: …" and "X :…" (not "1:2", "12:30")
    re.MULTILINE,
)
SEP = " | "
TERMS_VERSION = "3"  # bump when the terms given to a field for the same chunk may change (the library re-indexes)


def definition_lines(text: str) -> list[tuple[int, int, int, int]]:
    """(head start, head end, line start, line end) of the definition lines of ``text``."""
    out = []
    for m in DEFINITION_RE.finditer(text):
        head = m.group(1).strip()
        if not head or head.endswith("다"):  # "…은 다음과 같다:" introduces, does not define
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        out.append((m.start(1), m.end(1), line_start, len(text) if line_end < 0 else line_end))
    return out


def cell_offsets(text: str, table: Table) -> dict[tuple[int, int], tuple[int, int]] | None:
    """Where each cell's (normalised) text sits in the normalised table chunk text; None if the layout differs."""
    lines = text.split("\n")
    grid = table.origin_grid()
    if len(lines) != len(grid) + 1 or lines[0] != normalize(table.caption):
        return None
    out: dict[tuple[int, int], tuple[int, int]] = {}
    pos = len(lines[0]) + 1
    for r, row in enumerate(grid):
        line = lines[r + 1]
        col_pos = pos
        parts: list[str] = []
        for k, cell_text in enumerate(row):
            if cell_text is None:
                continue
            if parts:
                col_pos += len(SEP)
            t = normalize(cell_text)
            out[(r, k)] = (col_pos, col_pos + len(t))
            parts.append(t)
            col_pos += len(t)
        if SEP.join(parts) != line:
            return None
        pos += len(line) + 1
    return out


def _row_terms(table: Table, cell_terms: dict[tuple[int, int], list[str]], title: list[str]) -> list[list[str]]:
    """Per body row: title terms + (column header terms + cell terms) per distinct cell, like ``row_records``."""
    grid = table.grid()
    header: dict[int, list[str]] = {}
    for k in range(table.n_cols):
        terms: list[str] = []
        last = None
        for r in range(min(table.header_rows, table.n_rows)):
            c = grid[r][k]
            if c is not None and c is not last:
                terms += cell_terms.get((c.row, c.col), [])
                last = c
        header[k] = terms
    rows = []
    for r in range(table.header_rows, table.n_rows):
        terms = list(title)
        last = None
        for k in range(table.n_cols):
            c = grid[r][k]
            if c is None or c is last:
                continue
            last = c
            terms += header[k] + cell_terms.get((c.row, c.col), [])
        rows.append(terms)
    return rows


_CLAUSE_NUMBER = re.compile(r"^\s*(?:[A-Z]|\d+)(?:\.\d+)*\.?\s*")


def own_heading(clause_path: Sequence[str]) -> str:
    """The chunk's own clause heading without its number: ``("4 설계", "4.3.2 원형철근")`` → ``"원형철근"``."""
    return _CLAUSE_NUMBER.sub("", clause_path[-1]) if clause_path else ""


PROFILE_PREFIX = "profile:"
SCOPE_CLAUSES = ("1.1", "1.2")  # 목적, 적용범위 in the KDS layout
SCOPE_CHUNKS = 3  # at most this many chunks of those clauses go into the profile


def profile_doc(chunks: Sequence[Chunk], title: Analysis, path_terms: Sequence[Sequence[str]],
                body_terms: Sequence[Sequence[str]]) -> LexDoc | None:
    """The file's profile: its code and title (terms and bigrams), each heading term once and the 1.1/1.2 text."""
    if not chunks:
        return None
    c0 = chunks[0]
    terms = list(dict.fromkeys(t for p in path_terms for t in p))
    scope = [i for i, c in enumerate(chunks) if c.clause.split(".")[:2] in (["1", "1"], ["1", "2"])][:SCOPE_CHUNKS]
    for i in scope:
        terms += body_terms[i]
    return LexDoc(chunk_id=PROFILE_PREFIX + c0.doc.file, file=c0.doc.file, doc_code=c0.doc.doc_code, body=(),
                  ptitle=[*title.terms, *title.grams], prof=terms)


def lexdocs(chunks: Sequence[Chunk]) -> list[LexDoc]:
    """The lexical documents of a file's chunks (one batched Kiwi call, plus one for odd tables' cells), and the
    file's profile last."""
    texts: list[str] = [c.text for c in chunks]
    extra: dict[str, int] = {}

    def slot(s: str) -> int:
        if s not in extra:
            extra[s] = len(texts)
            texts.append(s)
        return extra[s]

    for c in chunks:
        slot(" ".join(c.clause_path))
        slot(own_heading(c.clause_path))
        slot(f"{c.doc.doc_code} {c.doc.title}")
        if c.table is not None:
            slot(c.table.title if c.table.number else c.table.caption)  # the number has its own route
    res = analyze_many(texts)

    # tables: terms per cell, by offsets into the chunk's analysis, else each cell analysed on its own
    cells: dict[int, dict[tuple[int, int], list[str]]] = {}
    odd: list[tuple[int, tuple[int, int], str]] = []
    for i, c in enumerate(chunks):
        if c.table is None:
            continue
        offsets = cell_offsets(res[i].text, c.table)
        if offsets is not None:
            cells[i] = {rc: res[i].slice(a, b).terms for rc, (a, b) in offsets.items()}
        else:
            cells[i] = {}
            odd += [(i, (cell.row, cell.col), cell.text) for cell in c.table.cells]
    for (i, rc, _), a in zip(odd, analyze_many(t for *_, t in odd), strict=True):
        cells[i][rc] = a.terms

    out = []
    for i, c in enumerate(chunks):
        a = res[i]
        title: list[str] = []
        rows: list[list[str]] = []
        lines: list[LexLine] = []
        if c.table is not None:
            title = res[extra[c.table.title if c.table.number else c.table.caption]].terms
            rows = _row_terms(c.table, cells[i], title)
        else:
            for hs, he, ls, le in definition_lines(a.text):
                head, line = a.slice(hs, he), a.slice(ls, le)
                lines.append(LexLine(body=line.terms, grams=line.grams, defs=[*head.terms, *head.grams]))
        out.append(
            LexDoc(
                chunk_id=c.chunk_id,
                file=c.doc.file,
                doc_code=c.doc.doc_code,
                body=a.terms,
                grams=a.grams,
                title=title,
                rows=rows,
                path=[*res[extra[" ".join(c.clause_path)]].terms, *res[extra[own_heading(c.clause_path)]].terms],
                doc=res[extra[f"{c.doc.doc_code} {c.doc.title}"]].terms,
                table_no=c.table_number,
                lines=lines,
            )
        )
    title_analysis = res[extra[f"{chunks[0].doc.doc_code} {chunks[0].doc.title}"]] if chunks else None
    prof = profile_doc(chunks, title_analysis, [d.path for d in out], [d.body for d in out]) if title_analysis else None
    return [*out, prof] if prof is not None else out
