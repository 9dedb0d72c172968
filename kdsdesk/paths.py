"""Where things live: the library folder, resources and models (frozen-aware).

One override for the library: ``KDSDESK_HOME`` (environment) or ``--library DIR`` (command line), in that order of
precedence: the command line wins. Resources and models are looked up beside the code, or inside a PyInstaller
bundle (``sys._MEIPASS``), and models also in the user data folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "KDSDesk"


def _frozen_root() -> Path | None:
    base = getattr(sys, "_MEIPASS", None)
    return Path(base) if base else None


def project_root() -> Path:
    """The folder that holds ``resources/`` and ``models/``: the bundle root when frozen, else the repo root."""
    frozen = _frozen_root()
    if frozen is not None:
        return frozen
    return Path(__file__).resolve().parent.parent


def user_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def library_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The library folder: ``override`` (``--library``), else ``KDSDESK_HOME``, else the user data folder."""
    if override:
        return Path(override).expanduser().resolve()
    env = os.environ.get("KDSDESK_HOME")
    if env:
        return Path(env).expanduser().resolve()
    return user_data_dir() / "library"


def resource(*parts: str) -> Path:
    return project_root().joinpath("resources", *parts)


def model_dirs() -> list[Path]:
    """Folders searched for model files, in order: ``KDSDESK_MODELS``, bundled ``models/``, user data ``models/``."""
    dirs: list[Path] = []
    env = os.environ.get("KDSDESK_MODELS")
    if env:
        dirs.append(Path(env))
    dirs.append(project_root() / "models")
    dirs.append(user_data_dir() / "models")
    return dirs


def model(*parts: str) -> Path | None:
    """The first existing ``models/<parts>`` path, or None."""
    for d in model_dirs():
        p = d.joinpath(*parts)
        if p.exists():
            return p
    return None
