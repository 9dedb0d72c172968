"""Loading the local LLM's engine at run time: the CPU backend variants of a llama.cpp built with runtime CPU
dispatch (the LLM adapter calls ``load_llama_cpu_backends`` once before the first model). Nothing here is imported
by the checks of ``kdsdesk.models.check``.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from pathlib import Path

log = logging.getLogger(__name__)


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
