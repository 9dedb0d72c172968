"""Model files: ``models/manifest.json``, presence/size/SHA-256 checks, free RAM, and what still works.

The manifest lists one entry per file (``name``, ``role`` "encoder"/"llm", ``file`` relative to a models folder,
``size``, ``sha256``, ``licence``, ``source``, ``ram_mb``, optional ``alternatives`` — relative paths or globs that
may stand in, unverified, for a missing file). ``size``/``sha256`` may be ``null`` until a release machine fills them
in: such files are checked for presence only.

Hashing a 2 GB GGUF takes seconds, so hashes are cached by (path, size, mtime) in the library folder; a deep check
(``kdsdesk doctor --verify``) ignores the cache. The report says in Korean what is missing or corrupt and what the
app still does without it. Bottom layer: imports only records/errors/config/paths.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from kdsdesk import paths
from kdsdesk.errors import KnownError

log = logging.getLogger(__name__)

Role = Literal["encoder", "llm"]
FileStatus = Literal["ok", "unverified", "substitute", "missing", "wrong_size", "wrong_hash", "unreadable"]
GOOD: frozenset[str] = frozenset({"ok", "unverified", "substitute"})
CORRUPT: frozenset[str] = frozenset({"wrong_size", "wrong_hash", "unreadable"})
MANIFEST_NAME = "manifest.json"
HASH_CACHE_NAME = "model-hashes.json"
ENCODER_DIR = "bge-m3"  # the encoder's folder in a models folder (``kdsdesk.index.encoder`` reads the same layout)
ENCODER_MODEL_FILES = ("model_int8.onnx", "model.onnx")  # in order of preference
ENCODER_TOKENIZER = "tokenizer.json"


@dataclass(frozen=True, slots=True)
class ModelEntry:
    """One file the app may use, as the manifest describes it."""

    name: str
    role: Role
    file: str  # relative to a models folder, "/"-separated
    size: int | None = None  # None: fill on the release machine
    sha256: str | None = None
    licence: str = ""
    source: str = ""
    ram_mb: int = 0  # memory the model needs when loaded (LLM: weights + context)
    alternatives: tuple[str, ...] = ()  # relative paths or globs used (unverified) when ``file`` is absent


@dataclass(frozen=True, slots=True)
class FileCheck:
    """The outcome of checking one manifest entry."""

    entry: ModelEntry
    status: FileStatus
    message: str  # Korean; "" when status == "ok"
    path: Path | None = None  # the file found (or the substitute used)
    actual_size: int | None = None
    actual_sha256: str | None = None

    @property
    def usable(self) -> bool:
        return self.status in GOOD

    @property
    def corrupt(self) -> bool:
        return self.status in CORRUPT


@dataclass(frozen=True, slots=True)
class ModelReport:
    """All checks, and what the app can do with the models it has."""

    files: tuple[FileCheck, ...]
    encoder_ok: bool
    llm_ok: bool  # the LLM file is usable AND there is enough free memory for it
    llm_path: Path | None = None
    ram_available_mb: int | None = None
    ram_needed_mb: int = 0
    problems: tuple[str, ...] = ()  # Korean: what is missing, corrupt, too big for memory
    capabilities: tuple[str, ...] = ()  # Korean: what still works

    @property
    def all_ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [*self.problems, *self.capabilities]

    def as_json(self) -> dict[str, Any]:
        return {
            "encoder_ok": self.encoder_ok,
            "llm_ok": self.llm_ok,
            "llm_path": str(self.llm_path) if self.llm_path else None,
            "ram_available_mb": self.ram_available_mb,
            "ram_needed_mb": self.ram_needed_mb,
            "problems": list(self.problems),
            "capabilities": list(self.capabilities),
            "files": [
                {
                    "name": c.entry.name,
                    "role": c.entry.role,
                    "file": c.entry.file,
                    "status": c.status,
                    "path": str(c.path) if c.path else None,
                    "message": c.message,
                    "licence": c.entry.licence,
                }
                for c in self.files
            ],
        }


# -- manifest --------------------------------------------------------------------------------------------------
def find_manifest(dirs: Sequence[Path] | None = None) -> Path | None:
    """The first ``manifest.json`` among the model folders (``KDSDESK_MODELS``, bundled, user data)."""
    for d in paths.model_dirs() if dirs is None else dirs:
        p = Path(d) / MANIFEST_NAME
        if p.is_file():
            return p
    return None


def _opt_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


def _opt_sha(v: Any) -> str | None:
    if isinstance(v, str) and len(v) == 64 and all(ch in "0123456789abcdefABCDEF" for ch in v):
        return v.lower()
    return None


def load_manifest(path: Path) -> list[ModelEntry]:
    """Read a manifest; ``KnownError`` (Korean) when it is unreadable or malformed."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        why = exc.strerror or exc
        raise KnownError(f"모델 목록 파일(manifest.json)을 읽을 수 없습니다: {why}", path=str(path)) from exc
    except ValueError as exc:
        raise KnownError("모델 목록 파일(manifest.json)이 올바른 JSON이 아닙니다.", path=str(path)) from exc
    items = raw.get("models") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        raise KnownError("모델 목록 파일(manifest.json)에 'models' 목록이 없습니다.", path=str(path))
    entries: list[ModelEntry] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        role, file = item.get("role"), item.get("file")
        if role not in ("encoder", "llm") or not isinstance(file, str) or not file:
            log.warning("manifest entry skipped (role/file): %r", item)
            continue
        alts = item.get("alternatives", [])
        entries.append(
            ModelEntry(
                name=str(item.get("name") or file),
                role=role,
                file=file,
                size=_opt_int(item.get("size")),
                sha256=_opt_sha(item.get("sha256")),
                licence=str(item.get("licence") or ""),
                source=str(item.get("source") or ""),
                ram_mb=_opt_int(item.get("ram_mb")) or 0,
                alternatives=tuple(a for a in alts if isinstance(a, str)) if isinstance(alts, list) else (),
            )
        )
    return entries


# -- hashing with a (size, mtime) cache ------------------------------------------------------------------------
def sha256_of(path: Path, block: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        while chunk := f.read(block):
            h.update(chunk)
    return h.hexdigest()


class HashCache:
    """SHA-256 of files keyed by resolved path, valid while (size, mtime_ns) are unchanged. A JSON file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._data: dict[str, dict[str, Any]] = {}
        self._dirty = False
        if path is not None:
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(raw, dict):
                    self._data = {k: v for k, v in raw.items() if isinstance(v, dict)}
            except (OSError, ValueError):
                pass

    def sha256(self, file: Path, deep: bool = False) -> str:
        st = file.stat()
        key = str(file.resolve())
        hit = self._data.get(key)
        if not deep and hit and hit.get("size") == st.st_size and hit.get("mtime_ns") == st.st_mtime_ns:
            cached = hit.get("sha256")
            if isinstance(cached, str):
                return cached
        digest = sha256_of(file)
        self._data[key] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
        self._dirty = True
        return digest

    def save(self) -> None:
        """Write the cache if it changed; a read-only folder only costs speed next time."""
        if not self._dirty or self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(json.dumps(self._data, indent=1), encoding="utf-8")
            tmp.replace(self.path)
            self._dirty = False
        except OSError as exc:
            log.info("model hash cache not written: %s", exc)


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



# -- llama.cpp built with runtime CPU dispatch -------------------------------------------------------------------
def _variant_name() -> str:
    return "ggml-cpu-*.dll" if sys.platform == "win32" else "libggml-cpu-*.so"


def llama_backend_dirs() -> list[Path]:
    """Where CPU backend variants of a ``GGML_BACKEND_DL`` llama.cpp build may be: ``llama_cpp/lib`` (the frozen
    bundle puts them there) and ``<site-packages>/bin`` (where llama-cpp-python's wheel installs them)."""
    import sysconfig

    spec = importlib.util.find_spec("llama_cpp")
    dirs: list[Path] = []
    if spec is not None and spec.origin:
        dirs.append(Path(spec.origin).parent / "lib")
    dirs.append(Path(sysconfig.get_paths()["purelib"]) / "bin")
    return dirs


def load_llama_cpu_backends() -> int:
    """Load the CPU backend variants of a llama.cpp built with ``GGML_NATIVE=OFF GGML_BACKEND_DL=ON
    GGML_CPU_ALL_VARIANTS=ON`` (runtime CPU dispatch, for CPUs without AVX2); ggml picks the best for this CPU.

    llama-cpp-python 0.3.36 does not load them itself (abetlen/llama-cpp-python#2069: "no backends are loaded"), so
    the LLM adapter calls this once before the first ``Llama(...)``. The loader must run in the ggml library that
    libllama links (``libggml.so.0``, ``ggml.dll``). A normal build has no variant files: nothing is done.
    Returns the number of registered backends (0 when nothing was loaded). Safe to call repeatedly.
    """
    import ctypes

    where = next((d for d in llama_backend_dirs() if d.is_dir() and any(d.glob(_variant_name()))), None)
    spec = importlib.util.find_spec("llama_cpp")
    if where is None or spec is None or not spec.origin:
        return 0
    import llama_cpp  # noqa: F401 - loads libllama and, through it, the ggml library the loader must run in

    lib = Path(spec.origin).parent / "lib"
    ggml = ctypes.CDLL(str(lib / ("ggml.dll" if sys.platform == "win32" else "libggml.so.0")))
    ggml.ggml_backend_reg_count.restype = ctypes.c_size_t
    ggml.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]
    ggml.ggml_backend_load_all_from_path.restype = None
    if ggml.ggml_backend_reg_count() == 0:
        ggml.ggml_backend_load_all_from_path(str(where).encode(sys.getfilesystemencoding()))
        log.info("llama.cpp CPU backends loaded from %s", where)
    return int(ggml.ggml_backend_reg_count())
