"""Index packs: export → import round trip, live SQLite snapshot, version refusal, corruption, atomic swap."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from kdsdesk.errors import KnownError
from kdsdesk.index import pack


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Path]:
    """A library folder shaped like the real one, with a catalog left open in WAL mode."""
    root = tmp_path / "내 라이브러리 (OneDrive)"
    root.mkdir()
    con = sqlite3.connect(str(root / "catalog.sqlite"))
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE files (path TEXT, sha256 TEXT)")
    con.execute("INSERT INTO files VALUES ('C:/문서/KDS 14 20 22.pdf', 'abc')")
    con.commit()  # committed into the WAL, not yet checkpointed into the main file
    (root / "lexical").mkdir()
    (root / "lexical" / "meta.json").write_text('{"segments": []}', encoding="utf-8")
    (root / "lexical" / "seg1.idx").write_bytes(bytes(range(256)) * 40)
    (root / "lexical" / ".tantivy-writer.lock").write_bytes(b"")
    (root / "vectors").mkdir()
    (root / "vectors" / "part-0000.f32").write_bytes(b"\x00\x01" * 5000)
    (root / "settings.json").write_text('{"threads": 3}', encoding="utf-8")
    (root / "cache").mkdir()
    (root / "cache" / "model-hashes.json").write_text("{}", encoding="utf-8")
    (root / "model-hashes.json").write_text("{}", encoding="utf-8")  # where the window keeps it
    yield root
    con.close()


def _rows(db: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(str(db))
    try:
        return list(con.execute("SELECT path, sha256 FROM files"))
    finally:
        con.close()


def test_round_trip_keeps_index_and_receiver_settings(library: Path, tmp_path: Path) -> None:
    out = tmp_path / "팩 폴더" / "kds"
    info = pack.export_pack(library, out)
    assert info.path.name == "kds.kdspack"
    assert info.path.is_file()
    with zipfile.ZipFile(info.path) as zf:
        names = set(zf.namelist())
        manifest = json.loads(zf.read(pack.PACK_MANIFEST))
    assert "library/catalog.sqlite" in names
    assert "library/lexical/seg1.idx" in names
    assert "library/vectors/part-0000.f32" in names
    # machine-local and side files never travel
    assert not {n for n in names if "settings" in n or "hashes" in n or n.endswith((".lock", "-wal", "-shm"))}
    assert manifest["format"] == pack.PACK_FORMAT
    assert manifest["versions"] == pack.index_versions()

    laptop = tmp_path / "사용자 김철수" / "library"
    laptop.mkdir(parents=True)
    (laptop / "settings.json").write_text('{"threads": 1}', encoding="utf-8")
    (laptop / "old-index").mkdir()
    (laptop / "old-index" / "stale.bin").write_bytes(b"stale")
    result = pack.import_pack(info.path, laptop)
    assert result.n_files == info.n_files
    assert _rows(laptop / "catalog.sqlite") == [("C:/문서/KDS 14 20 22.pdf", "abc")]  # the WAL data came along
    assert (laptop / "lexical" / "seg1.idx").read_bytes() == (library / "lexical" / "seg1.idx").read_bytes()
    assert (laptop / "vectors" / "part-0000.f32").stat().st_size == 10000
    assert (laptop / "settings.json").read_text(encoding="utf-8") == '{"threads": 1}'  # receiver's own settings
    assert not (laptop / "old-index").exists()  # the previous index is replaced, not mixed in
    assert not [p for p in laptop.iterdir() if p.name.startswith((pack.STAGING_PREFIX, pack.BACKUP_PREFIX))]


def test_other_schema_is_refused_in_korean(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = pack.export_pack(library, tmp_path / "a.kdspack")
    target = tmp_path / "target"
    target.mkdir()
    (target / "catalog.sqlite").write_bytes(b"keep me")
    theirs = json.loads(_manifest_text(info.path))["versions"]
    monkeypatch.setattr(pack, "index_versions", lambda: {**theirs, "index.library.SCHEMA_VERSION": "999"})
    with pytest.raises(KnownError, match=r"카탈로그 형식\(schema\)") as err:
        pack.import_pack(info.path, target)
    assert "999" in err.value.message
    assert (target / "catalog.sqlite").read_bytes() == b"keep me"  # untouched


def test_other_parser_version_is_refused(library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = pack.export_pack(library, tmp_path / "a.kdspack")
    theirs = json.loads(_manifest_text(info.path))["versions"]
    monkeypatch.setattr(pack, "index_versions", lambda: {**theirs, "ingest.pdf.PARSER_VERSION": "x"})
    with pytest.raises(KnownError, match="색인 방식"):
        pack.import_pack(info.path, tmp_path / "t")


def test_corrupted_member_is_refused(library: Path, tmp_path: Path) -> None:
    info = pack.export_pack(library, tmp_path / "a.kdspack")
    bad = tmp_path / "bad.kdspack"
    with zipfile.ZipFile(info.path) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("seg1.idx"):
                data = b"X" + data[1:]
            dst.writestr(item, data)
    target = tmp_path / "t"
    with pytest.raises(KnownError, match="손상"):
        pack.import_pack(bad, target)
    assert not [p for p in target.iterdir() if p.name.startswith(pack.STAGING_PREFIX)]


def test_path_traversal_member_is_refused(library: Path, tmp_path: Path) -> None:
    info = pack.export_pack(library, tmp_path / "a.kdspack")
    manifest = json.loads(_manifest_text(info.path))
    manifest["files"]["../evil.txt"] = {"size": 4, "sha256": "0" * 64}
    bad = tmp_path / "evil.kdspack"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr(pack.PACK_MANIFEST, json.dumps(manifest))
        zf.writestr("library/../evil.txt", b"evil")
    with pytest.raises(KnownError, match="허용되지 않은"):
        pack.import_pack(bad, tmp_path / "t")
    assert not (tmp_path / "evil.txt").exists()


def test_not_a_pack(tmp_path: Path) -> None:
    junk = tmp_path / "x.kdspack"
    junk.write_bytes(b"not a zip")
    with pytest.raises(KnownError, match="색인 팩이 아니거나"):
        pack.import_pack(junk, tmp_path / "t")
    with pytest.raises(KnownError, match="찾을 수 없습니다"):
        pack.import_pack(tmp_path / "missing.kdspack", tmp_path / "t")


def test_empty_library_cannot_be_exported(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "settings.json").write_text("{}", encoding="utf-8")
    with pytest.raises(KnownError, match="내보낼 색인이 없습니다"):
        pack.export_pack(tmp_path / "lib", tmp_path / "out.kdspack")


def test_failed_swap_rolls_back(library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = pack.export_pack(library, tmp_path / "a.kdspack")
    target = tmp_path / "t"
    target.mkdir()
    (target / "catalog.sqlite").write_bytes(b"old catalog")
    (target / "lexical").mkdir()
    (target / "lexical" / "old.idx").write_bytes(b"old lexical")
    real_replace = Path.replace
    calls = {"n": 0}

    def flaky(self: Path, dest: Path) -> Path:
        calls["n"] += 1
        if self.name == "vectors":  # the third entry moved in: as if another program held it open
            raise PermissionError(13, "The process cannot access the file")
        return real_replace(self, dest)

    monkeypatch.setattr(Path, "replace", flaky)
    with pytest.raises(KnownError, match="원래 상태로 되돌렸습니다"):
        pack.import_pack(info.path, target)
    monkeypatch.setattr(Path, "replace", real_replace)
    assert (target / "catalog.sqlite").read_bytes() == b"old catalog"
    assert (target / "lexical" / "old.idx").read_bytes() == b"old lexical"
    assert sorted(p.name for p in target.iterdir() if p.name != "writer.lock") == ["catalog.sqlite", "lexical"]


def test_unwritable_library_is_explained(library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = pack.export_pack(library, tmp_path / "a.kdspack")

    def denied(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(pack.tempfile, "mkdtemp", denied)
    with pytest.raises(KnownError, match="읽기 전용"):
        pack.import_pack(info.path, tmp_path / "t")


def test_locked_output_is_explained(library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_replace = Path.replace

    def locked(self: Path, dest: Path) -> Path:
        if str(dest).endswith(".kdspack"):
            raise PermissionError(13, "The process cannot access the file because it is being used")
        return real_replace(self, dest)

    monkeypatch.setattr(Path, "replace", locked)
    with pytest.raises(KnownError, match="팩 파일을 쓸 수 없습니다"):
        pack.export_pack(library, tmp_path / "a.kdspack")


def test_encoder_mismatch_is_a_warning(library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pack, "encoder_identity", lambda: "model_int8.onnx=1:aaaa")
    info = pack.export_pack(library, tmp_path / "a.kdspack")
    assert info.encoder == "model_int8.onnx=1:aaaa"
    monkeypatch.setattr(pack, "encoder_identity", lambda: "model_int8.onnx=1:bbbb")
    result = pack.import_pack(info.path, tmp_path / "t")
    assert any("다시 계산" in w for w in result.warnings)
    assert (tmp_path / "t" / "catalog.sqlite").is_file()


def _manifest_text(p: Path) -> str:
    with zipfile.ZipFile(p) as zf:
        return zf.read(pack.PACK_MANIFEST).decode("utf-8")
