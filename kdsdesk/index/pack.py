"""Index packs: a library's catalog, lexical index and dense vectors as one zip file, with versions checked on import.

Vectors computed once on a fast machine reach laptops as a pack instead of hours of CPU encoding.

Export works generically over the library folder, so it keeps working as the catalog's layout evolves: every file
is packed except the machine-local ones (:data:`LOCAL_NAMES`: settings, caches, logs, locks, temporaries).
SQLite files (recognised by their header) are copied with the SQLite backup API — a consistent snapshot even while
another connection has them open; WAL/SHM/journal side files are never packed. ``kdsdesk-pack.json`` inside the zip
records the format, the app version, the index versions (:func:`index_versions`: every ``*VERSION`` constant of the
index-building modules), the encoder identity and each file's size and SHA-256.

Import checks the pack manifest, the versions (a different schema, parser or tokenizer is refused with a Korean
message; a different encoder only costs re-encoding), every file's hash and the SQLite integrity, all in a staging
folder inside the library; then it swaps the library's entries for the pack's (rename by rename, rolled back on
failure). Settings, caches and logs of the receiving machine are kept.
"""

from __future__ import annotations

import importlib
import json
import logging
import shutil
import sqlite3
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from kdsdesk import __version__
from kdsdesk.errors import KnownError
from kdsdesk.hashing import sha256_of
from kdsdesk.models.manifest import HASH_CACHE_NAME

log = logging.getLogger(__name__)

PACK_FORMAT = 1
PACK_MANIFEST = "kdsdesk-pack.json"
PACK_SUFFIX = ".kdspack"
SQLITE_MAGIC = b"SQLite format 3\x00"
STAGING_PREFIX = ".pack-import-"
BACKUP_PREFIX = ".pack-old-"
# Machine-local entries (top level of the library folder) that are neither packed nor replaced on import.
LOCAL_NAMES = frozenset(
    {"settings.json", "cache", "logs", "log", "tmp", "temp", "unanswered.jsonl", "backup", HASH_CACHE_NAME}
)
LOCAL_SUFFIXES = (".lock", ".tmp", "-wal", "-shm", "-journal", ".pid")
MAX_PACK_MEMBERS = 100_000
MAX_PACK_BYTES = 32 * 2**30  # inflated, all members (a library of every KDS standard is a few GB)
DISK_MARGIN = 256 * 2**20  # left free after an import
# Modules whose ``*VERSION`` constants describe how the index was built (missing modules are skipped).
VERSION_MODULES = (
    "kdsdesk.index.library",
    "kdsdesk.index.lexical",
    "kdsdesk.index.dense",
    "kdsdesk.text.korean",
    "kdsdesk.text.chunk",
    "kdsdesk.ingest.pdf",
    "kdsdesk.ingest.hwpx",
)


@dataclass(frozen=True, slots=True)
class PackInfo:
    """What an export wrote or an import read."""

    path: Path
    n_files: int
    n_bytes: int  # uncompressed
    versions: dict[str, str]
    encoder: str  # encoder identity of the vectors ("" when none)
    warnings: tuple[str, ...] = ()  # Korean


# -- versions --------------------------------------------------------------------------------------------------
def index_versions() -> dict[str, str]:
    """``{"index.library.SCHEMA_VERSION": "3", …}``: every ``*VERSION`` constant of :data:`VERSION_MODULES`."""
    out: dict[str, str] = {}
    for name in VERSION_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        short = name.removeprefix("kdsdesk.")
        for attr, value in vars(mod).items():
            if (
                attr.isupper()
                and attr.endswith("VERSION")
                and isinstance(value, int | str)
                and not isinstance(value, bool)
            ):
                out[f"{short}.{attr}"] = str(value)
    try:  # the versions the indexer stores per file (they include the kiwipiepy release)
        from kdsdesk.index.indexer import parser_version, tokenizer_version
    except ImportError:
        return out
    out["indexer.tokenizer"] = tokenizer_version()
    for kind in ("pdf", "hwpx"):
        out[f"indexer.parser.{kind}"] = parser_version(kind)
    return out


def missing_sources(root: Path) -> list[str]:
    """Documents of the library at ``root`` whose source file is not where the catalog says (after an import)."""
    try:
        from kdsdesk.index.library import DB_NAME
    except ImportError:
        return []
    db = root / DB_NAME
    if not db.is_file():
        return []
    try:  # read only: opening a Catalog would repair and migrate, which is not this function's business
        con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT path FROM files WHERE status = 'searchable'").fetchall()
        finally:
            con.close()
    except sqlite3.Error as exc:
        log.info("source check skipped: %s", exc)
        return []
    return [str(r[0]) for r in rows if not Path(str(r[0])).is_file()]


def encoder_identity() -> str:
    """Identity of the encoder installed here ("" when none): vectors from another encoder are useless."""
    try:
        from kdsdesk.index.encoder import find_encoder
    except ImportError:
        return ""
    files = find_encoder()
    return files.identity if files is not None else ""


def _is_local(rel: PurePosixPath) -> bool:
    top = rel.parts[0]
    return top in LOCAL_NAMES or top.startswith((STAGING_PREFIX, BACKUP_PREFIX)) or rel.name.endswith(LOCAL_SUFFIXES)


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _copy_order(path: Path) -> tuple[str, bool, str]:
    """Per folder, JSON manifests first: a store whose manifest is its commit point (dense ``manifest.json``,
    tantivy ``meta.json``) is then never copied with a manifest newer than its data files."""
    return (str(path.parent), path.suffix != ".json", path.name)


def _library_files(root: Path) -> Iterator[tuple[PurePosixPath, Path]]:
    for path in sorted(root.rglob("*"), key=_copy_order):
        if path.is_file() and not path.is_symlink():
            rel = PurePosixPath(path.relative_to(root).as_posix())
            if not _is_local(rel):
                yield rel, path


def _sqlite_snapshot(src: Path, dst: Path) -> None:
    """A consistent copy of a live SQLite database (the backup API), compacted into one file."""
    source = sqlite3.connect(str(src))
    try:
        target = sqlite3.connect(str(dst))
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    finally:
        source.close()


# -- export ----------------------------------------------------------------------------------------------------
def export_pack(root: Path, out: Path) -> PackInfo:
    """Write the library at ``root`` as one pack file ``out`` (written to a temporary name, then renamed)."""
    root = Path(root)
    out = Path(out)
    if out.suffix == "":
        out = out.with_suffix(PACK_SUFFIX)
    files = list(_library_files(root)) if root.is_dir() else []
    if not files:
        raise KnownError("내보낼 색인이 없습니다. 먼저 문서를 라이브러리에 추가하세요.", path=str(root))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        part = out.with_name(out.name + ".part")
        entries: dict[str, dict[str, Any]] = {}
        total = 0
        with (
            tempfile.TemporaryDirectory(prefix="kdsdesk-pack-") as tmp,
            zipfile.ZipFile(part, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1, allowZip64=True) as zf,
        ):
            for rel, path in files:
                src = path
                if _is_sqlite(path):
                    src = Path(tmp) / f"snapshot-{len(entries)}.sqlite"
                    _sqlite_snapshot(path, src)
                size = src.stat().st_size
                entries[str(rel)] = {"size": size, "sha256": sha256_of(src)}
                total += size
                zf.write(src, f"library/{rel}")
            manifest = {
                "format": PACK_FORMAT,
                "app_version": __version__,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "versions": index_versions(),
                "encoder": encoder_identity(),
                "files": entries,
            }
            zf.writestr(PACK_MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
        part.replace(out)
    except PermissionError as exc:
        raise KnownError(
            "팩 파일을 쓸 수 없습니다. 쓰기 권한이 있는 폴더를 고르거나, 같은 이름의 파일을 연 프로그램을 닫으세요.",
            path=str(out),
        ) from exc
    except sqlite3.Error as exc:
        raise KnownError(f"카탈로그를 복사하지 못했습니다: {exc}", path=str(root)) from exc
    except OSError as exc:
        raise KnownError(f"팩 파일을 만들지 못했습니다: {exc.strerror or exc}", path=str(out)) from exc
    return PackInfo(out, len(entries), total, _versions_of(manifest), str(manifest["encoder"]))


# -- import ----------------------------------------------------------------------------------------------------
def read_manifest(pack: Path) -> dict[str, Any]:
    """The pack's manifest; ``KnownError`` when the file is not a KDS Desk pack."""
    try:
        with zipfile.ZipFile(pack) as zf:
            raw = json.loads(zf.read(PACK_MANIFEST).decode("utf-8"))
    except FileNotFoundError as exc:
        raise KnownError("팩 파일을 찾을 수 없습니다.", path=str(pack)) from exc
    except PermissionError as exc:
        raise KnownError("팩 파일을 읽을 수 없습니다(권한 없음 또는 다른 프로그램이 사용 중).", path=str(pack)) from exc
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise KnownError("KDS Desk 색인 팩이 아니거나 파일이 손상되었습니다.", path=str(pack)) from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("files"), dict):
        raise KnownError("색인 팩의 목록(kdsdesk-pack.json)이 올바르지 않습니다.", path=str(pack))
    return raw


def _versions_of(manifest: dict[str, Any]) -> dict[str, str]:
    raw = manifest.get("versions")
    return {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def check_versions(manifest: dict[str, Any], pack: Path) -> list[str]:
    """Refuse a pack from another format, schema, parser or tokenizer (Korean); return warnings (encoder)."""
    fmt = manifest.get("format")
    if fmt != PACK_FORMAT:
        raise KnownError(
            f"색인 팩 형식({fmt})을 이 프로그램(형식 {PACK_FORMAT})이 읽을 수 없습니다. "
            "같은 버전의 KDS Desk로 팩을 다시 만드세요.",
            path=str(pack),
        )
    theirs = _versions_of(manifest)
    ours = index_versions()
    diffs = [
        (k, theirs.get(k, "없음"), ours.get(k, "없음"))
        for k in sorted(set(ours) | set(theirs))
        if theirs.get(k, "없음") != ours.get(k, "없음")
    ]
    if diffs:
        schema = [d for d in diffs if "SCHEMA" in d[0].upper()]
        what = "카탈로그 형식(schema)" if schema else "색인 방식(분석기·토크나이저 버전)"
        detail = ", ".join(f"{k}: 팩 {a} / 이 프로그램 {b}" for k, a, b in (schema or diffs))
        raise KnownError(
            f"색인 팩의 {what}이 이 프로그램과 달라 가져올 수 없습니다({detail}). "
            f"팩을 만든 KDS Desk {manifest.get('app_version', '?')}와 같은 버전에서 가져오거나, 팩을 다시 만드세요.",
            path=str(pack),
        )
    warnings: list[str] = []
    theirs_enc, ours_enc = str(manifest.get("encoder") or ""), encoder_identity()
    if theirs_enc and theirs_enc != ours_enc:
        warnings.append(
            "팩의 의미 검색 벡터는 이 컴퓨터의 의미 검색 모델과 다른 모델로 계산되었습니다. "
            "벡터는 다시 계산해야 하며(kdsdesk encode), 그동안은 단어 검색을 사용합니다."
            if ours_enc
            else "이 컴퓨터에 의미 검색 모델이 없어 팩의 벡터를 쓰지 않고 단어 검색만 사용합니다."
        )
    return warnings


def _safe_member(name: str) -> PurePosixPath | None:
    """``library/<rel>`` → ``<rel>``; None for anything else or an unsafe path (absolute, ``..``, drive)."""
    p = PurePosixPath(name)
    if p.parts[:1] != ("library",) or len(p.parts) < 2:
        return None
    rel = PurePosixPath(*p.parts[1:])
    if any(part in ("..", "") or ":" in part or "\\" in part for part in rel.parts):
        return None
    return rel


def _member_sizes(zf: zipfile.ZipFile, manifest: dict[str, Any], pack: Path) -> dict[str, int]:
    """Every member checked from the archive directory before anything is written: count, name, and a size equal
    to the manifest's (the manifest's sizes bound what is inflated). Returns rel path → size."""
    expected: dict[str, Any] = manifest["files"]
    infos = zf.infolist()
    if len(infos) > MAX_PACK_MEMBERS or len(expected) > MAX_PACK_MEMBERS:
        raise KnownError(
            f"색인 팩의 항목 수가 너무 많습니다({len(infos):,}개). 올바른 팩인지 확인하세요.", path=str(pack)
        )
    sizes: dict[str, int] = {}
    for info in infos:
        if info.is_dir() or info.filename == PACK_MANIFEST:
            continue
        rel = _safe_member(info.filename)
        if rel is None or str(rel) not in expected or _is_local(rel):
            raise KnownError(f"색인 팩에 허용되지 않은 항목이 있습니다: {info.filename}", path=str(pack))
        want = expected[str(rel)]
        size = want.get("size") if isinstance(want, dict) else None
        if not isinstance(size, int) or size < 0 or info.file_size != size:
            raise KnownError(f"색인 팩이 손상되었습니다(크기가 목록과 다름): {rel}", path=str(pack))
        sizes[str(rel)] = size
    total = sum(sizes.values())
    if total > MAX_PACK_BYTES:
        raise KnownError(
            f"색인 팩의 내용이 너무 큽니다({total / 2**30:.1f} GB). 올바른 팩인지 확인하세요.", path=str(pack)
        )
    return sizes


def _copy_at_most(src: Any, dest: Path, limit: int) -> int:
    """Copy at most ``limit`` bytes (+1 to notice more); returns how many were read (the headers are not trusted)."""
    n = 0
    with dest.open("wb") as out:
        while n <= limit:
            block = src.read(min(1 << 20, limit + 1 - n))
            if not block:
                break
            out.write(block)
            n += len(block)
    return n


def _extract(pack: Path, manifest: dict[str, Any], staging: Path) -> tuple[int, int]:
    expected: dict[str, Any] = manifest["files"]
    seen: set[str] = set()
    total = 0
    with zipfile.ZipFile(pack) as zf:
        sizes = _member_sizes(zf, manifest, pack)
        free = shutil.disk_usage(staging).free
        if sum(sizes.values()) + DISK_MARGIN > free:
            raise KnownError(
                f"디스크 공간이 부족해 색인 팩을 가져올 수 없습니다(필요 {sum(sizes.values()) / 2**20:,.0f} MB, "
                f"남은 공간 {free / 2**20:,.0f} MB). 공간을 비운 뒤 다시 시도하세요.",
                path=str(pack),
            )
        for info in zf.infolist():
            if info.is_dir() or info.filename == PACK_MANIFEST:
                continue
            rel = _safe_member(info.filename)
            assert rel is not None  # checked by _member_sizes
            dest = staging.joinpath(*rel.parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src:
                got = _copy_at_most(src, dest, sizes[str(rel)])
            want = expected[str(rel)]
            if got != sizes[str(rel)] or sha256_of(dest) != want.get("sha256"):
                raise KnownError(f"색인 팩이 손상되었습니다(해시 불일치): {rel}", path=str(pack))
            seen.add(str(rel))
            total += dest.stat().st_size
    missing = sorted(set(expected) - seen)
    if missing:
        raise KnownError(f"색인 팩에 파일이 빠져 있습니다: {', '.join(missing[:5])}", path=str(pack))
    for path in staging.rglob("*"):
        if path.is_file() and _is_sqlite(path):
            _check_sqlite(path, pack)
    return len(seen), total


def _check_sqlite(path: Path, pack: Path) -> None:
    try:
        con = sqlite3.connect(str(path))
        try:
            row = con.execute("PRAGMA quick_check").fetchone()
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise KnownError(f"색인 팩의 카탈로그가 손상되었습니다: {exc}", path=str(pack)) from exc
    if not row or row[0] != "ok":
        raise KnownError("색인 팩의 카탈로그가 손상되었습니다(무결성 검사 실패).", path=str(pack))


def _swap(root: Path, staging: Path, backup: Path) -> None:
    """Move the library's index entries to ``backup`` and the staged ones in; undo everything on failure."""
    moved_out: list[str] = []
    moved_in: list[str] = []
    try:
        for entry in sorted(root.iterdir()):
            if not _is_local(PurePosixPath(entry.name)):
                entry.replace(backup / entry.name)
                moved_out.append(entry.name)
        for entry in sorted(staging.iterdir()):
            entry.replace(root / entry.name)
            moved_in.append(entry.name)
    except OSError as exc:
        for name in reversed(moved_in):
            try:
                (root / name).replace(staging / name)
            except OSError:
                log.exception("rollback: could not move %s back out", name)
        lost = []
        for name in reversed(moved_out):
            try:
                (backup / name).replace(root / name)
            except OSError:
                log.exception("rollback: could not restore %s", name)
                lost.append(name)
        if lost:
            raise KnownError(
                f"라이브러리 파일을 교체하다 실패했고 일부를 되돌리지 못했습니다. 이전 색인은 '{backup}'에 남아 "
                "있습니다: 프로그램을 모두 닫고 그 안의 항목을 라이브러리 폴더로 옮기세요.",
                path=str(root),
            ) from exc
        raise KnownError(
            "라이브러리 파일을 교체하지 못해 원래 상태로 되돌렸습니다. KDS Desk 창 등 라이브러리를 사용하는 "
            f"프로그램을 모두 닫은 뒤 다시 시도하세요 ({exc.strerror or exc}).",
            path=str(root),
        ) from exc


def import_pack(pack: Path, root: Path) -> PackInfo:
    """Replace the index of the library at ``root`` with the pack's (atomically per entry; settings kept)."""
    pack, root = Path(pack), Path(root)
    manifest = read_manifest(pack)
    warnings = check_versions(manifest, pack)
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=root))
    except OSError as exc:
        raise KnownError(
            "라이브러리 폴더에 쓸 수 없습니다(읽기 전용이거나 권한 없음). 쓰기 가능한 폴더를 --library로 지정하세요.",
            path=str(root),
        ) from exc
    backup = Path(str(staging).replace(STAGING_PREFIX, BACKUP_PREFIX, 1))
    swapped = False
    from kdsdesk.index.writer_lock import WriterLock

    writer = WriterLock(root)
    try:
        writer.acquire()  # no indexing run may write while the library's entries are swapped
        try:
            n_files, total = _extract(pack, manifest, staging)
            backup.mkdir()
        except (zipfile.BadZipFile, OSError) as exc:
            raise KnownError(f"색인 팩을 풀지 못했습니다: {exc}", path=str(pack)) from exc
        _swap(root, staging, backup)
        swapped = True
    finally:
        writer.release()
        shutil.rmtree(staging, ignore_errors=True)
        # after a failed rollback the backup holds the only copy of the old index: keep it
        if swapped or not backup.is_dir() or not any(backup.iterdir()):
            shutil.rmtree(backup, ignore_errors=True)
    missing = missing_sources(root)
    if missing:
        warnings.append(
            f"문서 {len(missing)}개의 원본 파일이 팩을 만든 컴퓨터의 경로에 있어 이 컴퓨터에서 찾을 수 없습니다"
            f"(예: {missing[0]}). 검색과 답변은 되지만 근거 쪽을 보려면 원본 파일을 같은 경로에 두세요."
        )
    return PackInfo(pack, n_files, total, _versions_of(manifest), str(manifest.get("encoder") or ""), tuple(warnings))
