"""Checking the model files against the manifest: presence, size, SHA-256 (cached by size and mtime in the library
folder; a deep check, ``kdsdesk doctor --verify``, ignores the cache), free memory for the LLM, and in Korean what
is missing or corrupt and what the app still does without it.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kdsdesk import paths
from kdsdesk.errors import KnownError
from kdsdesk.hashing import HashCache
from kdsdesk.models.manifest import (
    ENCODER_DIR,
    ENCODER_MODEL_FILES,
    ENCODER_TOKENIZER,
    HASH_CACHE_NAME,
    FileCheck,
    ModelEntry,
    ModelReport,
    find_manifest,
    load_manifest,
)

log = logging.getLogger(__name__)


def default_hash_cache_path() -> Path:
    return paths.library_dir() / "cache" / HASH_CACHE_NAME


# -- free memory -----------------------------------------------------------------------------------------------
def available_ram_mb() -> int | None:
    """Memory available to a new process (MB): /proc/meminfo on Linux, GlobalMemoryStatusEx on Windows."""
    try:
        if sys.platform == "win32":
            return _windows_available_mb()
        meminfo = Path("/proc/meminfo")
        if meminfo.is_file():
            return _parse_meminfo(meminfo.read_text(encoding="ascii", errors="replace"))
    except (OSError, ValueError, AttributeError) as exc:
        log.info("free memory unknown: %s", exc)
    return None


def _parse_meminfo(text: str) -> int | None:
    values: dict[str, int] = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            values[name.strip()] = int(parts[0])  # kB
    if "MemAvailable" in values:
        return values["MemAvailable"] // 1024
    if "MemFree" in values:  # kernels before 3.14
        return (values["MemFree"] + values.get("Cached", 0) + values.get("Buffers", 0)) // 1024
    return None


def _windows_available_mb() -> int | None:  # pragma: no cover - Windows only
    import ctypes
    from ctypes import wintypes

    class MEMORYSTATUSEX(ctypes.Structure):
        _fields_ = [
            ("dwLength", wintypes.DWORD),
            ("dwMemoryLoad", wintypes.DWORD),
            ("ullTotalPhys", ctypes.c_ulonglong),
            ("ullAvailPhys", ctypes.c_ulonglong),
            ("ullTotalPageFile", ctypes.c_ulonglong),
            ("ullAvailPageFile", ctypes.c_ulonglong),
            ("ullTotalVirtual", ctypes.c_ulonglong),
            ("ullAvailVirtual", ctypes.c_ulonglong),
            ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
        ]

    stat = MEMORYSTATUSEX()
    stat.dwLength = ctypes.sizeof(MEMORYSTATUSEX)
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(stat)):  # type: ignore[attr-defined]
        return None
    return int(stat.ullAvailPhys) // (1024 * 1024)


# -- checks ----------------------------------------------------------------------------------------------------
def _locate(rel: str, dirs: Sequence[Path]) -> Path | None:
    for d in dirs:
        if any(ch in rel for ch in "*?["):
            found = sorted(p for p in Path(d).glob(rel) if p.is_file())
            if found:
                return found[0]
        else:
            p = Path(d).joinpath(*rel.split("/"))
            if p.is_file():
                return p
    return None


def _mb(n: int) -> str:
    return f"{n / 1_000_000:,.1f} MB"


def check_entry(entry: ModelEntry, dirs: Sequence[Path], cache: HashCache, deep: bool = False) -> FileCheck:
    """Check one entry: present, expected size, expected SHA-256 (cached unless ``deep``)."""
    where = ", ".join(str(d) for d in dirs)
    path = _locate(entry.file, dirs)
    if path is None:
        for alt in entry.alternatives:
            sub = _locate(alt, dirs)
            if sub is not None:
                return FileCheck(
                    entry,
                    "substitute",
                    f"{entry.name}: '{entry.file}' 대신 '{sub.name}'을(를) 사용합니다"
                    "(목록에 없는 파일이라 검증하지 않음).",
                    sub,
                )
        return FileCheck(
            entry, "missing", f"{entry.name} 파일이 없습니다: '{entry.file}'. 배포본의 models 폴더를 설치 폴더나 "
            f"사용자 데이터 폴더에 복사하세요(찾아본 곳: {where})."
        )
    try:
        size = path.stat().st_size
        if entry.size is not None and size != entry.size:
            return FileCheck(
                entry,
                "wrong_size",
                f"{entry.name} 파일의 크기가 다릅니다(복사가 중단되었거나 손상됨): '{path}' — "
                f"기대 {entry.size:,} 바이트, 실제 {size:,} 바이트. 파일을 다시 복사하세요.",
                path,
                actual_size=size,
            )
        if entry.sha256 is None:
            return FileCheck(
                entry,
                "unverified",
                f"{entry.name}: 모델 목록에 해시가 없어 내용을 검증하지 않았습니다({_mb(size)}).",
                path,
                actual_size=size,
            )
        digest = cache.sha256(path, deep=deep)
    except PermissionError:
        return FileCheck(
            entry,
            "unreadable",
            f"{entry.name} 파일을 읽을 수 없습니다(권한이 없거나 다른 프로그램이 사용 중): '{path}'. "
            "백신 검사나 복사가 끝난 뒤 다시 실행하세요.",
            path,
        )
    except OSError as exc:
        return FileCheck(
            entry, "unreadable", f"{entry.name} 파일을 읽을 수 없습니다: '{path}' ({exc.strerror or exc}).", path
        )
    if digest != entry.sha256:
        return FileCheck(
            entry,
            "wrong_hash",
            f"{entry.name} 파일이 손상되었습니다(SHA-256 불일치): '{path}'. 배포본에서 파일을 다시 복사하세요.",
            path,
            actual_size=size,
            actual_sha256=digest,
        )
    return FileCheck(entry, "ok", "", path, actual_size=size, actual_sha256=digest)


@dataclass(slots=True)
class _RoleState:
    checks: list[FileCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.usable for c in self.checks)

    @property
    def corrupt(self) -> bool:
        return any(c.corrupt for c in self.checks)


def check_models(
    manifest: Path | None = None,
    dirs: Sequence[Path] | None = None,
    *,
    deep: bool = False,
    cache_path: Path | None = None,
    ram_mb: Callable[[], int | None] = available_ram_mb,
) -> ModelReport:
    """Check every manifest entry and free memory; say in Korean what is wrong and what still works.

    ``manifest``/``dirs`` default to the installed ones (``paths.model_dirs()``); ``deep`` re-hashes every file.
    """
    dirs = list(paths.model_dirs() if dirs is None else dirs)
    manifest = manifest or find_manifest(dirs)
    problems: list[str] = []
    entries: list[ModelEntry] = []
    if manifest is None:
        problems.append("모델 목록 파일(models/manifest.json)이 없어 모델 파일을 검증할 수 없습니다.")
    else:
        try:
            entries = load_manifest(manifest)
        except KnownError as exc:
            problems.append(str(exc))
    cache = HashCache(cache_path if cache_path is not None else default_hash_cache_path())
    roles: dict[str, _RoleState] = {"encoder": _RoleState(), "llm": _RoleState()}
    for entry in entries:
        check = check_entry(entry, dirs, cache, deep=deep)
        roles[entry.role].checks.append(check)
        if check.status not in ("ok", "unverified"):
            problems.append(check.message)
    cache.save()
    # files present but not listed (user-supplied GGUF): usable, unverified
    llm_path = next((c.path for c in roles["llm"].checks if c.usable and c.path), None)
    if not roles["llm"].checks:
        llm_path = _locate("llm/*.gguf", dirs)
    llm_files_ok = roles["llm"].ok or (not roles["llm"].checks and llm_path is not None)
    encoder_ok = roles["encoder"].ok
    if not roles["encoder"].checks:  # no manifest entry: the default layout, unverified
        encoder_ok = _locate(f"{ENCODER_DIR}/{ENCODER_TOKENIZER}", dirs) is not None and any(
            _locate(f"{ENCODER_DIR}/{f}", dirs) is not None for f in ENCODER_MODEL_FILES
        )
    ram_needed = max((c.entry.ram_mb for c in roles["llm"].checks), default=0)
    ram_free = ram_mb()
    capabilities: list[str] = []
    if not encoder_ok:
        why = "손상되어" if roles["encoder"].corrupt else "없어"
        capabilities.append(f"의미 검색 모델이 {why} 단어 검색만 사용합니다.")
    llm_ok = llm_files_ok
    if not llm_files_ok:
        why = "손상되어" if roles["llm"].corrupt else "없어"
        capabilities.append(f"LLM이 {why} 추출식 답변만 사용합니다.")
    elif ram_free is not None and ram_needed and ram_free < ram_needed:
        llm_ok = False
        problems.append(f"사용 가능한 메모리({ram_free:,} MB)가 LLM에 필요한 메모리({ram_needed:,} MB)보다 적습니다.")
        capabilities.append("메모리가 부족해 추출식 답변만 사용합니다. 다른 프로그램을 닫으면 LLM을 쓸 수 있습니다.")
    if encoder_ok and llm_ok:
        capabilities.append("모든 모델을 사용할 수 있습니다: 단어·의미 검색과 LLM 답변.")
    elif encoder_ok:
        capabilities.append("단어 검색과 의미 검색은 정상입니다.")
    elif llm_ok:
        capabilities.append("LLM 답변은 사용할 수 있습니다.")
    return ModelReport(
        files=tuple(c for r in roles.values() for c in r.checks),
        encoder_ok=encoder_ok,
        llm_ok=llm_ok,
        llm_path=llm_path if llm_files_ok else None,
        ram_available_mb=ram_free,
        ram_needed_mb=ram_needed,
        problems=tuple(problems),
        capabilities=tuple(capabilities),
    )
