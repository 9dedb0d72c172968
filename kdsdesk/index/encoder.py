"""The BGE-M3 text encoder: finding the model files, loading them, and turning texts into unit vectors.

Contract (any model that meets it works, the real BGE-M3 and the tiny test model alike):

- ``tokenizer.json``: a Hugging Face ``tokenizers`` file (XLM-R Unigram for BGE-M3) whose post-processor adds the
  ``<s>`` … ``</s>`` tokens; read with the ``tokenizers`` package.
- ``model_int8.onnx`` (preferred) or ``model.onnx`` (+ optional ``model.onnx_data``): inputs ``input_ids`` and
  ``attention_mask`` (int64, ``[batch, seq]``); the output named ``last_hidden_state`` (else the first output)
  ``[batch, seq, dim]``. The vector is the hidden state of the first token (CLS pooling), L2-normalised. ``dim`` is
  read from the output (1,024 for BGE-M3).

Location: the settings' ``encoder_dir`` when set, else ``paths.model("bge-m3")`` (``KDSDESK_MODELS``, the bundled
``models/``, the user data ``models/``).

Length cap: :data:`MAX_TOKENS` = 512 tokens per text (``<s>``/``</s>`` included). BGE-M3 accepts 8,192, but attention
cost grows with the square of the length and a 2-core CPU encodes ~1,300 tokens/s: one 8,192-token table would take
minutes. Body chunks are cut near 700 characters (``text.chunk.MAX_CHARS``) which is at most ~500 XLM-R tokens of
Korean, so only long tables are truncated; their tail stays findable by the lexical index.

Batches: texts are tokenised, sorted by length and grouped so a batch holds at most :data:`BATCH_TOKENS` padded
tokens (and :data:`MAX_BATCH` texts), padded only to the longest text of the batch (dynamic padding).

``onnxruntime`` and ``tokenizers`` are imported only inside the functions that need them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kdsdesk import paths
from kdsdesk.errors import KnownError
from kdsdesk.models import manifest

MODEL_NAME = manifest.ENCODER_DIR
MODEL_FILES = manifest.ENCODER_MODEL_FILES  # in order of preference
TOKENIZER_FILE = manifest.ENCODER_TOKENIZER
MAX_TOKENS = 512
BATCH_TOKENS = 4096  # padded tokens per ONNX run
MAX_BATCH = 32

F32Array = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class EncoderFiles:
    """The files of one encoder and its identity (changes when any file's content changes, not when moved)."""

    folder: Path
    model: Path
    tokenizer: Path
    identity: str


def _file_fingerprint(path: Path, sample: int = 1 << 20) -> str:
    """Size + sha256 of the first and last ``sample`` bytes: cheap for a 2 GB model, changes with its content."""
    size = path.stat().st_size
    h = hashlib.sha256()
    with path.open("rb") as f:
        h.update(f.read(sample))
        if size > 2 * sample:
            f.seek(size - sample)
        h.update(f.read(sample))
    return f"{size}:{h.hexdigest()[:16]}"


_identity_cache: dict[tuple[str, int, int, int, int], str] = {}


def _identity(model: Path, tokenizer: Path) -> str:
    data = model.with_name("model.onnx_data") if model.name == "model.onnx" else None
    stats = [p.stat() for p in (model, tokenizer)]
    key = (str(model), stats[0].st_size, stats[0].st_mtime_ns, stats[1].st_size, stats[1].st_mtime_ns)
    if key not in _identity_cache:
        parts = [f"{model.name}={_file_fingerprint(model)}", f"tokenizer={_file_fingerprint(tokenizer)}"]
        if data is not None and data.is_file():
            parts.append(f"data={_file_fingerprint(data)}")
        parts.append(f"max_tokens={MAX_TOKENS}")
        _identity_cache[key] = ";".join(parts)
    return _identity_cache[key]


def encoder_folder(encoder_dir: str = "") -> Path | None:
    """The folder to look in: ``encoder_dir`` (settings) when given, else the first ``models/bge-m3`` found."""
    if encoder_dir:
        return Path(encoder_dir).expanduser()
    return paths.model(MODEL_NAME)


def find_encoder(encoder_dir: str = "") -> EncoderFiles | None:
    """The encoder's files, or None when the folder, the model or the tokenizer is missing."""
    folder = encoder_folder(encoder_dir)
    if folder is None or not folder.is_dir():
        return None
    tokenizer = folder / TOKENIZER_FILE
    model = next((folder / n for n in MODEL_FILES if (folder / n).is_file()), None)
    if model is None or not tokenizer.is_file():
        return None
    return EncoderFiles(folder, model, tokenizer, _identity(model, tokenizer))


def encoder_status(encoder_dir: str = "") -> tuple[bool, str]:
    """(ready?, Korean explanation) for the status line and ``kdsdesk doctor``. Loads nothing heavy."""
    missing = [m for m in ("onnxruntime", "tokenizers") if importlib.util.find_spec(m) is None]
    if missing:
        return False, f"의미 검색에 필요한 모듈({', '.join(missing)})이 없어 단어 검색만 사용합니다."
    folder = encoder_folder(encoder_dir)
    if folder is None or not folder.is_dir():
        where = encoder_dir or " 또는 ".join(str(d / MODEL_NAME) for d in paths.model_dirs())
        return False, f"의미 검색 모델(BGE-M3)이 없어 단어 검색만 사용합니다. 모델 폴더: {where}"
    files = find_encoder(encoder_dir)
    if files is None:
        return False, (
            f"의미 검색 모델 폴더({folder})에 {MODEL_FILES[0]} 또는 {MODEL_FILES[1]}와 {TOKENIZER_FILE}이 "
            "모두 있어야 합니다. 단어 검색만 사용합니다."
        )
    kind = "int8" if files.model.name == MODEL_FILES[0] else "fp32"
    return True, f"의미 검색 모델(BGE-M3, {kind}) 사용: {files.folder}"


class Encoder:
    """A loaded tokenizer + ONNX session. Thread-safe: ``encode`` may run from several threads at once."""

    def __init__(self, files: EncoderFiles, threads: int = 2) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.files = files
        self.identity = files.identity
        try:
            tok = Tokenizer.from_file(str(files.tokenizer))
        except Exception as exc:  # the Rust side raises plain Exception
            raise KnownError("의미 검색 토크나이저 파일을 읽을 수 없습니다.", path=str(files.tokenizer)) from exc
        tok.no_padding()
        tok.enable_truncation(max_length=MAX_TOKENS)
        self._tok = tok
        pad = tok.token_to_id("<pad>")
        self.pad_id = pad if pad is not None else 1  # XLM-R's <pad>
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, threads)
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # no busy-waiting between operators: encoding runs in the background beside the UI and lexical search
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = ort.InferenceSession(str(files.model), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped errors for bad files
            msg = "의미 검색 모델 파일을 열 수 없습니다(손상되었거나 형식이 다름)."
            raise KnownError(msg, path=str(files.model)) from exc
        inputs = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= inputs:
            raise KnownError("의미 검색 모델의 입력이 input_ids, attention_mask가 아닙니다.", path=str(files.model))
        self._extra_inputs = sorted(inputs - {"input_ids", "attention_mask"})  # e.g. token_type_ids: zeros
        outputs = [o.name for o in self._session.get_outputs()]
        self._output = "last_hidden_state" if "last_hidden_state" in outputs else outputs[0]
        self.dim = int(self.encode(["."]).shape[1])

    # -- tokenising and batching ------------------------------------------------------------------------------
    def tokenise(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids per text, truncated to :data:`MAX_TOKENS` (with the end token kept)."""
        return [list(e.ids) for e in self._tok.encode_batch(list(texts))]

    def n_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(ids) for ids in self.tokenise(texts)]

    @staticmethod
    def batches(lengths: Sequence[int]) -> Iterator[list[int]]:
        """Indexes grouped for ONNX runs: sorted by length, ≤ BATCH_TOKENS padded tokens and ≤ MAX_BATCH each."""
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        batch: list[int] = []
        for i in order:
            longest = max(lengths[i], 1)  # sorted ascending: the newcomer is the longest
            if batch and ((len(batch) + 1) * longest > BATCH_TOKENS or len(batch) >= MAX_BATCH):
                yield batch
                batch = []
            batch.append(i)
        if batch:
            yield batch

    def pad(self, seqs: Sequence[Sequence[int]]) -> dict[str, npt.NDArray[np.int64]]:
        """ONNX feeds for sequences padded to the longest of them."""
        width = max(1, max(len(s) for s in seqs))
        ids = np.full((len(seqs), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(seqs), width), dtype=np.int64)
        for r, s in enumerate(seqs):
            ids[r, : len(s)] = s
            mask[r, : len(s)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        for name in self._extra_inputs:
            feeds[name] = np.zeros_like(ids)
        return feeds

    def run(self, feeds: dict[str, npt.NDArray[np.int64]]) -> F32Array:
        """One ONNX run → CLS-pooled, L2-normalised float32 vectors ``[batch, dim]``."""
        out: Any = self._session.run([self._output], feeds)[0]
        arr = np.asarray(out, dtype=np.float32)
        pooled = arr[:, 0, :] if arr.ndim == 3 else arr
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.ascontiguousarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)

    # -- the public operation ---------------------------------------------------------------------------------
    def encode(self, texts: Sequence[str]) -> F32Array:
        """Unit vectors ``[len(texts), dim]`` in the order of ``texts`` (length-sorted batches inside)."""
        seqs = self.tokenise(texts)
        result: F32Array | None = None
        for batch in self.batches([len(s) for s in seqs]):
            vecs = self.run(self.pad([seqs[i] for i in batch]))
            if result is None:
                result = np.empty((len(seqs), vecs.shape[1]), dtype=np.float32)
            result[batch] = vecs
        if result is None:
            return np.empty((0, getattr(self, "dim", 0)), dtype=np.float32)
        return result


_cache: dict[tuple[str, str], Encoder] = {}
_cache_lock = threading.Lock()


def load_encoder(encoder_dir: str = "", threads: int = 2) -> Encoder | None:
    """The encoder for the current files (loaded once per process and reused); None when the model is missing.

    One session per model file is shared by the background encoder and the searches (``threads`` applies when it is
    first loaded). The lock is held only while loading, never while encoding.
    """
    if any(importlib.util.find_spec(m) is None for m in ("onnxruntime", "tokenizers")):
        return None
    files = find_encoder(encoder_dir)
    if files is None:
        return None
    key = (str(files.model.resolve()), files.identity)
    with _cache_lock:
        enc = _cache.get(key)
        if enc is None:
            for old in [k for k in _cache if k[0] == key[0]]:  # the same file changed: forget the old session
                del _cache[old]
            enc = Encoder(files, threads)
            _cache[key] = enc
    return enc
