"""Hostile cases end to end through ``kdsdesk`` (real parsers in their worker process, real Tantivy): each ends in
a clear Korean message or a correct result, with the exit code the CLI documents, and the library intact after.
Files are generated at test time (``tests.data.hostile``); the big cases live in ``bench/bench_hostile.py``."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from kdsdesk import app, cli
from kdsdesk.errors import KnownError
from kdsdesk.index import pack
from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.service import Library, drain
from tests.data import hostile
from tests.data.hwpx_builder import simple_doc
from tests.data.pdf_docs import standard_pdf
from tests.data.synthetic_docs import fake_parse, make_library_files

pytestmark = pytest.mark.slow


def _hostile_folder(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True)
    base = standard_pdf(folder / "good.pdf", n_pages=1)
    return {
        "good": base,
        "good_hwpx": simple_doc(folder / "good.hwpx"),
        "surrogate": hostile.surrogate_pdf(folder / "a-surrogate.pdf"),
        "loop": hostile.looping_pages_pdf(folder / "b-loop.pdf"),
        "trailing": hostile.trailing_bytes_pdf(folder / "c-trailing.pdf", base),
        "utf16": hostile.utf16_hwpx(folder / "d-utf16.hwpx"),
        "span": hostile.huge_span_hwpx(folder / "e-span.hwpx"),
        "fake": hostile.text_mentioning_pdf(folder / "f-memo.pdf"),
    }


def test_one_bad_file_never_stops_folder_indexing_and_json_stays_json(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    files = _hostile_folder(tmp_path / "in")
    lib = ["--library", str(tmp_path / "lib")]
    code = cli.main(["index", str(tmp_path / "in"), "--no-dense", "--json", *lib])
    out, err = capfd.readouterr()  # the workers' file descriptors too (MuPDF prints on its own)
    report = json.loads(out)  # stdout is JSON only
    assert "Traceback" not in err
    assert code == 1  # some files failed: said so, the run went on
    failed = {Path(f["file"]).name: f["message"] for f in report["failed"]}
    assert set(failed) == {"b-loop.pdf", "f-memo.pdf"}
    assert "구조가 손상" in failed["b-loop.pdf"]
    assert "지원하지 않는 파일 형식" in failed["f-memo.pdf"]
    assert {Path(f).name for f in report["added"]} == {p.name for k, p in files.items() if k not in ("loop", "fake")}

    again = cli.main(["index", str(tmp_path / "in"), "--no-dense", "--json", *lib])  # re-run: same, no crash
    report2 = json.loads(capfd.readouterr().out)
    assert again == 1
    assert {Path(f["file"]).name for f in report2["failed"]} == set(failed)
    assert cli.main(["list", "--json", *lib]) == 0
    docs = json.loads(capfd.readouterr().out)
    assert sum(d["status"] == "searchable" for d in docs) == 6

    code = cli.main(["ask", "--json", "--llm", "none", "시험 표의 값은?", *lib])  # the 3000×3000-span table
    answer = json.loads(capfd.readouterr().out)
    assert code in (0, 1)
    assert "status" in answer


def test_parse_json_of_a_lone_surrogate_is_valid_json(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["parse", "--json", str(hostile.surrogate_pdf(tmp_path / "s.pdf"))]) == 0
    out = capfd.readouterr().out
    data = json.loads(out)
    assert "\ufffd" in json.dumps(data, ensure_ascii=False)


def test_parse_of_an_impossible_table_ends_in_a_result(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["parse", "--json", str(hostile.far_address_hwpx(tmp_path / "far.hwpx", at=30000))]) == 0
    tables = json.loads(capfd.readouterr().out)["tables"]
    assert [(t["n_rows"], t["n_cols"]) for t in tables] == [(2, 1)]


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        app.main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for name in ("index", "search", "ask", "list", "remove", "doctor", "pack", "parse"):
        assert f"  {name} " in out


# -- the library: damage, read-only, stale sources, packs -----------------------------------------------------
def _synthetic_library(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    files = make_library_files(tmp_path / "docs")
    root = tmp_path / "lib"
    cat = Catalog(root)
    drain(add_files(cat, list(files.values()), parse=fake_parse))
    cat.close()
    return root, files


def test_doctor_finds_damage_and_repair_restores_search(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    root, _ = _synthetic_library(tmp_path)
    lib = ["--library", str(root)]
    (root / "lexical" / "meta.json").unlink()
    assert cli.main(["search", "--json", "--lexical", "고력볼트", *lib]) == 2
    err = capfd.readouterr().err
    assert "검색 색인" in err
    assert "doctor --repair" in err
    assert "Traceback" not in err
    assert cli.main(["doctor", "--json", *lib]) == 1
    report = json.loads(capfd.readouterr().out)
    assert [d["kind"] for d in report["damage"]] == ["lexical_missing"]
    cli.main(["doctor", "--repair", *lib])
    capfd.readouterr()
    assert cli.main(["search", "--json", "--lexical", "고력볼트", *lib]) == 0
    hits = json.loads(capfd.readouterr().out)["hits"]
    assert hits
    assert hits[0]["doc_code"] == "KDS 14 31 25"
    assert any((root / "backup").iterdir())


def test_a_blank_catalog_is_reported_not_emptied(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    root, _ = _synthetic_library(tmp_path)
    (root / "catalog.sqlite3").write_bytes(b"")
    assert cli.main(["list", "--library", str(root)]) == 2
    err = capfd.readouterr().err
    assert "비어 있거나 0바이트" in err
    assert (root / "lexical" / "meta.json").is_file()  # the search index was not thrown away


def test_a_read_only_library_still_lists_and_searches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, files = _synthetic_library(tmp_path)
    from kdsdesk import service

    def refuse(root: Path) -> None:
        raise KnownError("라이브러리 폴더에 쓸 수 없습니다(읽기 전용이거나 권한이 없음).", path=str(root))

    monkeypatch.setattr(service, "check_library_folder", refuse)  # as on a read-only share (root ignores modes)
    lib = Library(root)
    try:
        assert lib.read_only
        assert {d.status for d in lib.documents()} == {"searchable"}
        assert lib.search("고력볼트", dense=False)
        with pytest.raises(KnownError, match="쓸 수 없습니다"):
            drain(lib.add([files["steel_pdf"]]))
    finally:
        lib.close()


def test_a_catalog_sqlite_cannot_open_for_writing_is_read_as_immutable(tmp_path: Path) -> None:
    root, _ = _synthetic_library(tmp_path)
    cat = Catalog(root, read_only=True)
    try:
        assert len(cat.documents()) == 3
        assert cat.lexical.search(["고력볼트"])
        with pytest.raises(KnownError, match="쓸 수 없습니다"):
            cat.remove([root])
    finally:
        cat.close()


def test_changed_or_missing_sources_turn_the_answer_into_a_warning(tmp_path: Path) -> None:
    root, _ = _synthetic_library(tmp_path)
    question = "고력볼트 F10T의 설계볼트장력은?"
    lib = Library(root)
    try:
        fresh = lib.ask(question, llm="none")
        assert fresh.verdict.checks.get("source_fresh") is True
        cited = {c.chunk.doc.file for c in fresh.citations} or {h.chunk.doc.file for h in fresh.hits[:3]}
        target = Path(next(iter(cited)))
        original = target.read_bytes()
        target.write_bytes(original + b" ")  # edited after indexing
        changed = lib.ask(question, llm="none")
        assert changed.status != "confirmed"
        assert changed.verdict.checks["source_fresh"] is False
        assert "원문 파일이 색인 후 변경됨" in changed.verdict.reason
        assert "다시 색인" in changed.verdict.reason
        assert lib.stale_sources() == {str(target): "changed"}
        target.unlink()
        gone = lib.ask(question, llm="none")
        assert "없음" in gone.verdict.reason
        target.write_bytes(original)  # the same content back, a new modification time
        os.utime(target, (1_000_000_000, 1_000_000_000))
        lib.catalog.close()
        report = drain(add_files(lib.catalog, [target], parse=fake_parse))
        assert report.skipped == (str(target),)
        assert lib.stale_sources() == {}  # the unchanged content's new time is on record
        assert lib.ask(question, llm="none").verdict.checks["source_fresh"] is True
    finally:
        lib.close()


def _bad_pack(tmp_path: Path, root: Path, declared: int, inflated_mb: int) -> Path:
    good = pack.export_pack(root, tmp_path / "good.kdspack").path
    bad = tmp_path / "bad.kdspack"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as dst:
        manifest = json.loads(src.read(pack.PACK_MANIFEST))
        manifest["files"]["lexical/big.bin"] = {"size": declared, "sha256": "0" * 64}
        for info in src.infolist():
            if info.filename != pack.PACK_MANIFEST:
                dst.writestr(info, src.read(info))
        dst.writestr(pack.PACK_MANIFEST, json.dumps(manifest))
        dst.writestr("library/lexical/big.bin", b"\0" * (inflated_mb << 20))
    return bad


def _listing(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*") if p.is_file() and p.suffix != ".lock"}


def test_pack_import_refuses_an_inflating_member_before_writing(tmp_path: Path) -> None:
    root, _ = _synthetic_library(tmp_path)
    target, _ = _synthetic_library(tmp_path / "other")
    before = _listing(target)
    with pytest.raises(KnownError, match="크기가 목록과 다름"):
        pack.import_pack(_bad_pack(tmp_path, root, declared=10, inflated_mb=64), target)
    assert _listing(target) == before  # nothing written, nothing left behind
    assert not [p for p in target.iterdir() if p.name.startswith((pack.STAGING_PREFIX, pack.BACKUP_PREFIX))]


def test_pack_import_refuses_a_pack_too_big_for_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, _ = _synthetic_library(tmp_path)
    target = tmp_path / "target"
    monkeypatch.setattr(pack, "MAX_PACK_BYTES", 8 << 20)
    with pytest.raises(KnownError, match="너무 큽니다"):
        pack.import_pack(_bad_pack(tmp_path, root, declared=16 << 20, inflated_mb=16), target)
    assert not [p for p in target.rglob("*") if p.is_file() and p.suffix != ".lock"]
    shutil.rmtree(target, ignore_errors=True)
