"""Model files against the manifest: missing, wrong size, wrong hash, unreadable → Korean; RAM; hash cache."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from kdsdesk import hashing
from kdsdesk.errors import KnownError
from kdsdesk.models import check, manifest

ENC = b"tiny onnx bytes"
TOK = b'{"model": "tiny"}'
LLM = b"GGUF tiny llm bytes"


def _entry(name: str, role: str, file: str, data: bytes | None, ram_mb: int = 0, **extra: object) -> dict[str, object]:
    return {
        "name": name,
        "role": role,
        "file": file,
        "size": len(data) if data is not None else None,
        "sha256": hashlib.sha256(data).hexdigest() if data is not None else None,
        "licence": "test",
        "source": "test",
        "ram_mb": ram_mb,
        **extra,
    }


@pytest.fixture
def fixture_models(tmp_path: Path) -> tuple[Path, Path]:
    """A models folder with tiny files and a manifest that describes them exactly."""
    root = tmp_path / "모델 폴더"  # Korean and a space, as under a Windows user name
    (root / "bge-m3").mkdir(parents=True)
    (root / "llm").mkdir()
    (root / "bge-m3" / "model_int8.onnx").write_bytes(ENC)
    (root / "bge-m3" / "tokenizer.json").write_bytes(TOK)
    (root / "llm" / "tiny.gguf").write_bytes(LLM)
    manifest = root / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "models": [
                    _entry("인코더", "encoder", "bge-m3/model_int8.onnx", ENC, alternatives=["bge-m3/model.onnx"]),
                    _entry("토크나이저", "encoder", "bge-m3/tokenizer.json", TOK),
                    _entry("LLM", "llm", "llm/tiny.gguf", LLM, ram_mb=3000),
                ]
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    return root, manifest


def _check(root: Path, tmp_path: Path, **kw: object) -> manifest.ModelReport:
    kw.setdefault("ram_mb", lambda: 16000)
    return check.check_models(dirs=[root], cache_path=tmp_path / "cache.json", **kw)  # type: ignore[arg-type]


def test_all_present_and_correct(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    report = _check(root, tmp_path)
    assert report.all_ok, report.problems
    assert report.encoder_ok
    assert report.llm_ok
    assert report.llm_path == root / "llm" / "tiny.gguf"
    assert [c.status for c in report.files] == ["ok", "ok", "ok"]
    assert "모든 모델" in " ".join(report.capabilities)


def test_missing_llm_says_extractive_only(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    (root / "llm" / "tiny.gguf").unlink()
    report = _check(root, tmp_path)
    assert not report.llm_ok
    assert report.encoder_ok
    assert report.llm_path is None
    assert any("LLM 파일이 없습니다" in p and "llm/tiny.gguf" in p for p in report.problems)
    assert "LLM이 없어 추출식 답변만 사용합니다." in report.capabilities


def test_missing_encoder_says_lexical_only(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    (root / "bge-m3" / "tokenizer.json").unlink()
    report = _check(root, tmp_path)
    assert not report.encoder_ok
    assert report.llm_ok
    assert "의미 검색 모델이 없어 단어 검색만 사용합니다." in report.capabilities


def test_wrong_size_is_explained(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    (root / "bge-m3" / "model_int8.onnx").write_bytes(ENC[:5])  # interrupted copy
    report = _check(root, tmp_path)
    check = report.files[0]
    assert check.status == "wrong_size"
    assert "크기가 다릅니다" in check.message
    assert f"{len(ENC):,}" in check.message
    assert "5 바이트" in check.message
    assert "의미 검색 모델이 손상되어 단어 검색만 사용합니다." in report.capabilities


def test_wrong_hash_is_explained(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    bad = bytearray(LLM)
    bad[0] ^= 0xFF  # same size, one flipped byte
    (root / "llm" / "tiny.gguf").write_bytes(bytes(bad))
    report = _check(root, tmp_path)
    llm = next(c for c in report.files if c.entry.role == "llm")
    assert llm.status == "wrong_hash"
    assert "손상되었습니다(SHA-256 불일치)" in llm.message
    assert not report.llm_ok
    assert "LLM이 손상되어 추출식 답변만 사용합니다." in report.capabilities


def test_locked_file_is_explained(
    fixture_models: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = fixture_models
    real = hashing.sha256_of

    def locked(path: Path, block: int = 1 << 20) -> str:
        if path.suffix == ".gguf":
            raise PermissionError(13, "Permission denied")  # what Windows gives for a file another program locks
        return real(path, block)

    monkeypatch.setattr(hashing, "sha256_of", locked)
    report = _check(root, tmp_path)
    llm = next(c for c in report.files if c.entry.role == "llm")
    assert llm.status == "unreadable"
    assert "다른 프로그램이 사용 중" in llm.message
    assert not report.llm_ok


def test_low_memory_disables_llm(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    report = _check(root, tmp_path, ram_mb=lambda: 1500)
    assert not report.llm_ok
    assert report.encoder_ok
    assert report.ram_needed_mb == 3000
    assert any("1,500 MB" in p and "3,000 MB" in p for p in report.problems)
    assert any("메모리가 부족해 추출식 답변만" in c for c in report.capabilities)


def test_unknown_memory_does_not_block_llm(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    assert _check(root, tmp_path, ram_mb=lambda: None).llm_ok


def test_alternative_file_is_used_unverified(fixture_models: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = fixture_models
    (root / "bge-m3" / "model_int8.onnx").rename(root / "bge-m3" / "model.onnx")
    report = _check(root, tmp_path)
    assert report.encoder_ok
    assert report.files[0].status == "substitute"
    assert "model.onnx" in report.files[0].message


def test_null_hash_checks_presence_only(tmp_path: Path) -> None:
    root = tmp_path / "m"
    (root / "llm").mkdir(parents=True)
    (root / "llm" / "x.gguf").write_bytes(b"abc")
    manifest = root / "manifest.json"
    manifest.write_text(json.dumps({"models": [_entry("LLM", "llm", "llm/x.gguf", None)]}), encoding="utf-8")
    report = _check(root, tmp_path)
    assert report.files[0].status == "unverified"
    assert report.llm_ok
    assert not report.problems  # unverified is not a problem, only a note in the file list


def test_hash_cache_reused_until_file_changes(
    fixture_models: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = fixture_models
    calls: list[str] = []
    real = hashing.sha256_of

    def counting(path: Path, block: int = 1 << 20) -> str:
        calls.append(path.name)
        return real(path, block)

    monkeypatch.setattr(hashing, "sha256_of", counting)
    _check(root, tmp_path)
    assert len(calls) == 3
    _check(root, tmp_path)
    assert len(calls) == 3  # all from the (size, mtime) cache
    _check(root, tmp_path, deep=True)
    assert len(calls) == 6  # --verify re-hashes
    gguf = root / "llm" / "tiny.gguf"
    bad = bytearray(LLM)
    bad[-1] ^= 0x01
    gguf.write_bytes(bytes(bad))
    st = gguf.stat()
    import os

    os.utime(gguf, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    report = _check(root, tmp_path)
    assert calls[-1] == "tiny.gguf"
    assert len(calls) == 7
    assert report.files[2].status == "wrong_hash"


def test_missing_manifest_is_explained(tmp_path: Path) -> None:
    report = _check(tmp_path / "empty", tmp_path)
    assert any("manifest.json" in p for p in report.problems)
    assert not report.encoder_ok
    assert not report.llm_ok


def test_malformed_manifest_raises_korean(tmp_path: Path) -> None:
    bad = tmp_path / "manifest.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(KnownError, match="JSON"):
        manifest.load_manifest(bad)


def test_repo_manifest_is_well_formed() -> None:
    repo_manifest = Path(__file__).resolve().parents[3] / "models" / "manifest.json"
    entries = manifest.load_manifest(repo_manifest)
    roles = {e.role for e in entries}
    assert roles == {"encoder", "llm"}
    for e in entries:
        assert e.licence
        assert e.source
    llm = next(e for e in entries if e.role == "llm")
    assert llm.ram_mb > 0
    assert llm.file.endswith(".gguf")


def test_meminfo_parsing() -> None:
    text = "MemTotal:       16000000 kB\nMemFree:         1000000 kB\nMemAvailable:    8192000 kB\n"
    assert check._parse_meminfo(text) == 8000
    assert check._parse_meminfo("MemFree: 1024 kB\nCached: 1024 kB\n") == 2
    assert check.available_ram_mb() is None or check.available_ram_mb() > 0  # type: ignore[operator]


def test_release_fill_then_verify(tmp_path: Path) -> None:
    """packaging/fill_manifest.py turns "fill on release machine" nulls into values that --verify then checks."""
    import importlib.util

    root = tmp_path / "models"
    (root / "llm").mkdir(parents=True)
    (root / "llm" / "x.gguf").write_bytes(LLM)
    (root / "manifest.json").write_text(
        json.dumps({"models": [{**_entry("LLM", "llm", "llm/x.gguf", None), "release": "fill on release machine"}]}),
        encoding="utf-8",
    )
    spec = importlib.util.spec_from_file_location(
        "fill_manifest", Path(__file__).resolve().parents[3] / "packaging" / "fill_manifest.py"
    )
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert len(mod.fill(root)) == 1
    entry = manifest.load_manifest(root / "manifest.json")[0]
    assert entry.size == len(LLM)
    assert entry.sha256 == hashlib.sha256(LLM).hexdigest()
    report = _check(root, tmp_path, deep=True)
    assert [c.status for c in report.files] == ["ok"]
