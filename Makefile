# Two commands for a fresh machine (README): `make run` and `make test`. Both create .venv here.
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
# Portable llama.cpp build (no -march=native); pip caches the wheel so the second install takes seconds.
export CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAMA_OPENSSL=OFF
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: run test lint venv clean

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
