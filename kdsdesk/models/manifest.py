"""The model manifest (``models/manifest.json``) and the records of checking it.

The manifest lists one entry per file (``name``, ``role`` "encoder"/"llm", ``file`` relative to a models folder,
``size``, ``sha256``, ``licence``, ``source``, ``ram_mb``, optional ``alternatives`` — relative paths or globs that
may stand in, unverified, for a missing file). ``size``/``sha256`` may be ``null`` until a release machine fills them
in: such files are checked for presence only.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
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
