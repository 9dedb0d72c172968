# Two commands for a fresh machine (README): `make run` and `make test`. Both create .venv here.
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
# Portable llama.cpp build (no -march=native); pip caches the wheel so the second install takes seconds.
export CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAMA_OPENSSL=OFF
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: run test lint venv clean bundle

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PY) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/kdsdesk

lint: $(STAMP)
	$(VENV)/bin/ruff check kdsdesk tests bench packaging
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: lint
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/python -m pytest -q

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache

# Frozen Linux onedir bundle from build.spec (PyInstaller, the `packaging` extra), then its smoke test: version,
# doctor, --selftest with the bundled models and again with test models (tiny ONNX encoder + gemma-3-270m GGUF).
PACKAGING_STAMP := $(VENV)/.packaging
$(PACKAGING_STAMP): $(STAMP)
	$(VENV)/bin/python -m pip install -q -e '.[packaging]'
	touch $(PACKAGING_STAMP)

bundle: $(PACKAGING_STAMP)
	rm -rf dist/kdsdesk
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN build.spec
	rm -rf build/smoke-models && $(VENV)/bin/python packaging/smoke_models.py build/smoke-models
	bash packaging/smoke_test.sh dist/kdsdesk build/smoke-models
