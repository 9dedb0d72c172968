"""Build, at test time, a tiny encoder that meets the BGE-M3 contract of ``kdsdesk.index.encoder``.

- ``tokenizer.json``: a small Unigram model trained with ``tokenizers`` on Korean sentences, with XLM-R's special
  tokens in XLM-R's order (``<s>`` 0, ``<pad>`` 1, ``</s>`` 2, ``<unk>`` 3) and a ``<s> $A </s>`` post-processor.
- ``model.onnx`` built with the ``onnx`` helper API: inputs ``input_ids``/``attention_mask`` (int64 ``[batch, seq]``),
  output ``last_hidden_state`` ``[batch, seq, dim]``. One embedding table and one mixing layer: every position gets
  ``tanh((E[token] + masked_mean(E)) @ W)``, so the first (CLS) position summarises the whole text and texts that
  share tokens get similar vectors — enough for ranking tests on the real code path.
- ``model_int8.onnx`` (optional): the same model through ``onnxruntime.quantization.quantize_dynamic``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

SENTENCES = [
    "콘크리트의 설계기준압축강도는 28일 강도를 기준으로 한다.",
    "전단철근의 간격은 부재 유효깊이의 절반 이하로 하여야 한다.",
    "비틀림 보강철근은 폐쇄스터럽으로 배치하여야 한다.",
    "강구조 연결부의 고장력볼트는 마찰접합으로 설계한다.",
    "용접부의 유효목두께는 모살치수의 0.7배로 한다.",
    "거푸집 및 동바리는 시공 중의 하중에 안전하도록 설계한다.",
    "동바리의 설치 간격은 구조 계산에 따라 정한다.",
    "차로 수에 따라 활하중을 줄이는 다차로 재하계수를 적용한다.",
    "교량의 설계하중은 고정하중과 활하중의 조합으로 정한다.",
    "철근의 피복두께는 노출 조건에 따라 달리 정한다.",
    "표 4.2-1 전단강도 감소계수 | 부재 | 계수",
    "풍하중은 설계풍속과 지형 조건을 고려하여 산정한다.",
    "기초의 지지력은 지반조사 결과를 바탕으로 검토한다.",
    "강재의 항복강도와 인장강도는 재료 시험으로 확인한다.",
    "프리스트레스트 콘크리트의 긴장재는 부착 조건을 확인한다.",
    "내진설계에서 응답수정계수는 구조 형식에 따라 다르다.",
]
SPECIAL = ["<s>", "<pad>", "</s>", "<unk>"]


def build_tokenizer(path: Path, vocab_size: int = 400, sentences: Sequence[str] = SENTENCES) -> int:
    """Train and save a Unigram ``tokenizer.json`` on ``sentences``; returns the vocabulary size."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=vocab_size, special_tokens=SPECIAL, unk_token="<unk>")
    tok.train_from_iterator(list(sentences) * 4, trainer=trainer)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", tok.token_to_id("<s>")), ("</s>", tok.token_to_id("</s>"))],
    )
    assert [tok.token_to_id(t) for t in SPECIAL] == [0, 1, 2, 3]
    path.parent.mkdir(parents=True, exist_ok=True)
    tok.save(str(path))
    return int(tok.get_vocab_size())


def build_model(path: Path, vocab: int, dim: int = 32, seed: int = 0) -> None:
    """Write the tiny ONNX encoder (embedding + masked-mean mixing + dense layer + tanh)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    emb = rng.normal(0.0, 1.0, (vocab, dim)).astype(np.float32)
    emb[: len(SPECIAL)] = 0.0  # special tokens carry no meaning: CLS = the (mixed) mean of the text's tokens
    weight = (rng.normal(0.0, 1.0, (dim, dim)) / np.sqrt(dim) + np.eye(dim)).astype(np.float32)
    inits = [
        numpy_helper.from_array(emb, "emb"),
        numpy_helper.from_array(weight, "w"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "axis_last"),
        numpy_helper.from_array(np.array(1e-6, dtype=np.float32), "eps"),
    ]
    nodes = [
        helper.make_node("Gather", ["emb", "input_ids"], ["e"]),  # [B,S,D]
        helper.make_node("Cast", ["attention_mask"], ["m"], to=TensorProto.FLOAT),  # [B,S]
        helper.make_node("Unsqueeze", ["m", "axis_last"], ["m3"]),  # [B,S,1]
        helper.make_node("Mul", ["e", "m3"], ["em"]),
        helper.make_node("ReduceSum", ["em", "axis1"], ["s"], keepdims=1),  # [B,1,D]
        helper.make_node("ReduceSum", ["m3", "axis1"], ["cnt"], keepdims=1),  # [B,1,1]
        helper.make_node("Add", ["cnt", "eps"], ["cnt1"]),
        helper.make_node("Div", ["s", "cnt1"], ["mean"]),
        helper.make_node("Add", ["e", "mean"], ["mixed"]),  # [B,S,D]
        helper.make_node("MatMul", ["mixed", "w"], ["h"]),
        helper.make_node("Tanh", ["h"], ["last_hidden_state"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_xlmr",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", dim])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="kdsdesk-tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def quantize(src: Path, dest: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(src), str(dest), weight_type=QuantType.QInt8)


def build_tiny_encoder(
    folder: Path,
    dim: int = 32,
    int8: bool = False,
    seed: int = 0,
    sentences: Sequence[str] = SENTENCES,
    vocab_size: int = 400,
) -> Path:
    """``folder`` (e.g. ``<models>/bge-m3``) with ``tokenizer.json`` and ``model.onnx`` (+ ``model_int8.onnx``).

    ``sentences`` train the tokenizer (e.g. the texts of the documents a test indexes).
    """
    vocab = build_tokenizer(folder / "tokenizer.json", vocab_size, sentences)
    build_model(folder / "model.onnx", vocab, dim=dim, seed=seed)
    if int8:
        quantize(folder / "model.onnx", folder / "model_int8.onnx")
    return folder
