"""Synthetic standards for library/retrieval tests: small JSON specs written as files, and a fake parser for them.

A spec file starts with ``%PDF-1.7`` (so ``sniff`` takes it for a PDF) or ``PK\x03\x04`` (HWPX) followed by a JSON
object ``{"code", "title", "year", "sleep", "fail", "headings": {clause: title}, "blocks": [[clause, kind,
text_or_table], …]}``; a table is
``{"no", "title", "header": [[…]], "rows": [[…]]}``. ``fake_parse`` turns such a file into a ``ParsedDoc`` (in the
test process or, for the kill test, in a subprocess) — no real parser involved.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from kdsdesk.errors import KnownError
from kdsdesk.records import Block, DocRef, ParsedDoc, Span, Table, TableCell

PDF_HEAD = b"%PDF-1.7\n"
HWPX_HEAD = b"PK\x03\x04\n"


def table_from_spec(t: dict[str, Any]) -> Table:
    header: list[list[str]] = t.get("header", [])
    rows: list[list[str]] = t.get("rows", [])
    cells = []
    for i, row in enumerate([*header, *rows]):
        for j, text in enumerate(row):
            cells.append(TableCell(i, j, text, is_header=i < len(header)))
    n_cols = max((len(r) for r in [*header, *rows]), default=0)
    return Table(
        number=t["no"],
        caption=f"표 {t['no']} {t['title']}",
        n_rows=len(header) + len(rows),
        n_cols=n_cols,
        cells=tuple(cells),
        header_rows=len(header),
    )


def write_spec(path: Path, spec: dict[str, Any]) -> Path:
    head = HWPX_HEAD if path.suffix == ".hwpx" else PDF_HEAD
    path.write_bytes(head + json.dumps(spec, ensure_ascii=False).encode("utf-8"))
    return path


def parsed_from_spec(path: Path, spec: dict[str, Any], sha: str) -> ParsedDoc:
    kind = "hwpx" if path.suffix == ".hwpx" else "pdf"
    doc = DocRef(str(path.resolve()), sha, kind, spec.get("code", ""), spec.get("title", ""), spec.get("year", ""))  # type: ignore[arg-type]
    blocks: list[Block] = []
    seen: list[str] = []
    titles: dict[str, str] = spec.get("headings", {})  # clause → heading title (default "조항")
    for n, (clause, kind_b, content) in enumerate(spec["blocks"]):
        path_t = tuple(f"{c} {titles.get(c, '조항')}" for c in _ancestors(clause))
        if clause not in seen:
            seen.append(clause)
            blocks.append(Block("heading", path_t[-1], clause, path_t, heading_level=clause.count(".") + 1))
        page = n // 3
        if kind_b == "table":
            table = table_from_spec(content)
            text = "\n".join([table.caption, *table.rows_text()])
            blocks.append(
                Block(
                    "table",
                    text,
                    clause,
                    path_t,
                    pages=(page,),
                    spans=(Span(0, len(text), page, (0, 0, 1, 1)),),
                    table=table,
                )
            )
        else:
            blocks.append(
                Block(
                    kind_b, content, clause, path_t, pages=(page,), spans=(Span(0, len(content), page, (0, 0, 1, 1)),)
                )
            )
    return ParsedDoc(doc=doc, blocks=tuple(blocks), n_pages=len(spec["blocks"]) // 3 + 1)


def _ancestors(clause: str) -> list[str]:
    parts = clause.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def read_spec(path: Path) -> tuple[dict[str, Any], str]:
    raw = Path(path).read_bytes()
    body = raw.split(b"\n", 1)[1]
    return json.loads(body.decode("utf-8")), hashlib.sha256(raw).hexdigest()


def fake_parse(path: Path) -> ParsedDoc:
    """The ``parse`` function for ``add_files`` over spec files (``sleep`` seconds first; ``fail`` → KnownError)."""
    spec, sha = read_spec(path)
    if spec.get("sleep"):
        time.sleep(float(spec["sleep"]))
    if spec.get("fail"):
        raise KnownError(str(spec["fail"]), path=str(path))
    return parsed_from_spec(Path(path), spec, sha)


def make_library_files(folder: Path) -> dict[str, Path]:
    """Three small standards (two editions of one code, as PDF and HWPX) for the library tests."""
    folder.mkdir(parents=True, exist_ok=True)
    shear = {
        "code": "KDS 14 20 22",
        "title": "콘크리트구조 전단 설계기준",
        "year": "2022",
        "blocks": [
            ["1.4", "text", "(1) 깊은 보: 순경간이 부재 깊이의 4배 이하인 보"],
            ["3.1", "text", "(1) 전단강도 계산에 사용하는 √f_ck의 값은 8.4 MPa를 초과하지 않도록 하여야 한다."],
            ["4.2.4", "text", "(1) 최소 전단철근량은 다음과 같다.\nA_{v,min} = 0.0625√f_ck b_w s/f_yt\n"
                              "여기서, A_{v,min} : 최소 전단철근 단면적(mm²)"],
            ["4.2.3", "table", {"no": "4.2-1", "title": "전단철근의 최대 간격",
                                "header": [["부재 구분", "간격"]],
                                "rows": [["철근콘크리트 부재", "d/2 이하"],
                                         ["프리스트레스트콘크리트 부재", "0.75h 이하"]]}],
        ],
    }  # fmt: skip
    steel = {
        "code": "KDS 14 31 25",
        "title": "강구조 연결 설계기준",
        "year": "2022",
        "blocks": [
            ["4.3.1", "text", "(1) 고력볼트 구멍은 표준구멍을 원칙으로 한다."],
            ["4.3.4", "table", {"no": "4.3-4", "title": "고력볼트의 설계볼트장력",
                                "header": [["볼트 등급", "장력(kN)"]], "rows": [["F10T", "200"], ["F13T", "260"]]}],
        ],
    }  # fmt: skip
    return {
        "shear_pdf": write_spec(folder / "shear.pdf", shear),
        "shear_hwpx": write_spec(folder / "shear.hwpx", shear),
        "steel_pdf": write_spec(folder / "steel.pdf", steel),
    }
