"""Windows realities without Windows: Korean user names and OneDrive folders with spaces, a document locked by
another program, a read-only library folder, and an index pack carried between two such machines.

Tests run as root here, where ``chmod 000`` does not stop reads: a lock or a read-only folder is simulated by
raising ``PermissionError`` (what Windows raises for both) at the point the real one would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kdsdesk.cli import main as cli_main
from kdsdesk.errors import KnownError
from kdsdesk.index import pack
from kdsdesk.service import Library, drain

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "resources" / "samples"


@pytest.fixture
def onedrive(tmp_path: Path) -> Path:
    """The bundled samples copied into a OneDrive folder under a Korean user name (spaces and parentheses)."""
    folder = tmp_path / "Users" / "김 철수" / "OneDrive - 한국건설(주)" / "설계 기준 문서"
    folder.mkdir(parents=True)
    for f in sorted(SAMPLES.iterdir()):
        if f.suffix in (".pdf", ".hwpx"):
            shutil.copy2(f, folder / f"예시 기준 {f.stem[-8:]} (사본){f.suffix}")
    return folder


def _table_title(lib: Library) -> tuple[str, str]:
    for d in lib.documents():
        for c in lib.catalog.iter_chunks(d.file):
            if c.table is not None and c.table.title:
                return c.table.title, c.table.number
    raise AssertionError("no titled table in the samples")


@pytest.mark.slow
def test_korean_paths_with_spaces_index_search_and_pack(onedrive: Path, tmp_path: Path) -> None:
    home = tmp_path / "Users" / "김 철수" / "AppData" / "Local" / "KDSDesk" / "내 라이브러리"
    lib = Library(home)
    try:
        report = drain(lib.add([onedrive]))
        assert not report.failed, report.failed
        assert len(report.added) == 2
        files = {d.file for d in lib.documents()}
        assert files == {str(p) for p in onedrive.iterdir()}  # Korean paths stored intact
        title, number = _table_title(lib)
        hits = lib.search(title, k=5)
        assert any(h.chunk.table_number == number for h in hits)
        assert any(Path(h.chunk.doc.file).parent == onedrive for h in hits)
    finally:
        lib.close()

    packed = pack.export_pack(home, tmp_path / "USB 드라이브" / "기준 색인")
    laptop = tmp_path / "Users" / "이 영희" / "AppData" / "Local" / "KDSDesk" / "library"
    info = pack.import_pack(packed.path, laptop)
    assert not info.warnings  # same machine here: sources found, same encoder
    lib2 = Library(laptop)
    try:
        assert {d.file for d in lib2.documents()} == files
        assert any(h.chunk.table_number == number for h in lib2.search(title, k=5))
    finally:
        lib2.close()


@pytest.mark.slow
def test_document_locked_by_another_program(onedrive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = next(p for p in onedrive.iterdir() if p.suffix == ".pdf")
    real_open = Path.open

    def open_locked(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self == locked:
            raise PermissionError(13, "The process cannot access the file because it is being used by another process")
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_locked)
    lib = Library()
    try:
        report = drain(lib.add([onedrive]))
        assert len(report.added) == 1  # the other file still goes in
        assert len(report.failed) == 1
        failed_file, message = report.failed[0]
        assert failed_file == str(locked)
        assert "다른 프로그램이 파일을 잠그고" in message
        shown = {d.file: d for d in lib.documents()}
        assert shown[str(locked)].status == "failed"
        assert "잠그고" in shown[str(locked)].message
    finally:
        lib.close()


def _deny_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Path.write_bytes

    def write_bytes(self: Path, data: bytes) -> int:  # type: ignore[override]
        if self.name.startswith(".write-test-"):
            raise PermissionError(13, "Access is denied")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


def test_read_only_library_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "공유 폴더 (읽기 전용)"
    folder.mkdir()
    _deny_probe(monkeypatch)
    with pytest.raises(KnownError, match="라이브러리 폴더에 쓸 수 없습니다") as err:
        Library(folder)
    assert err.value.path == str(folder)
    assert "--library" in err.value.message


def test_read_only_library_folder_via_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "읽기 전용 라이브러리"
    folder.mkdir()
    _deny_probe(monkeypatch)
    assert cli_main(["list", "--library", str(folder)]) == 2  # EXIT_KNOWN: a Korean message, no traceback
    err = capsys.readouterr().err
    assert "라이브러리 폴더에 쓸 수 없습니다" in err
    assert "Traceback" not in err
    assert cli_main(["doctor", "--library", str(folder)]) == 1
    assert "[주의] 라이브러리 폴더에 쓸 수 없습니다" in capsys.readouterr().out


def test_library_folder_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "파일"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(KnownError, match="라이브러리 폴더를 만들거나 쓸 수 없습니다"):
        Library(blocker / "library")
