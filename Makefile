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

# OCR (outline lettering, scans): the tesserocr wheel (pyproject) bundles libtesseract; its Korean model
# kor.traineddata (tessdata_fast, Apache-2.0, 1.6 MB) is in no PyPI package: it comes from Debian's tesseract-ocr-kor
# (installed here when missing and we are root; otherwise the command is printed) and is copied into .venv, where
# kdsdesk.ingest.ocr looks. KDSDESK_TESSDATA=DIR names another folder holding it (this step is then skipped).
TESSDATA := $(VENV)/share/tessdata
KOR_MODEL := $(TESSDATA)/kor.traineddata
$(KOR_MODEL): | $(STAMP)
	@mkdir -p $(TESSDATA); \
	if [ -n "$$KDSDESK_TESSDATA" ] && [ -f "$$KDSDESK_TESSDATA/kor.traineddata" ]; then \
	  cp "$$KDSDESK_TESSDATA/kor.traineddata" $@; exit 0; fi; \
	find_kor() { ls /usr/share/tesseract-ocr/*/tessdata/kor.traineddata /usr/share/tessdata/kor.traineddata 2>/dev/null | head -1; }; \
	src=$$(find_kor); \
	if [ -z "$$src" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian tesseract-ocr-kor (Korean OCR model)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get install -y -q --no-install-recommends tesseract-ocr-kor >/dev/null 2>&1 \
	    || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends tesseract-ocr-kor >/dev/null; }; \
	  src=$$(find_kor); fi; \
	if [ -z "$$src" ]; then \
	  echo "Korean OCR model missing: run 'sudo apt-get install tesseract-ocr-kor' (or set KDSDESK_TESSDATA)" >&2; exit 1; fi; \
	cp "$$src" $@

venv: $(STAMP) $(KOR_MODEL)

# the app runs without the OCR model too (outline lettering then stays unreadable): a failed model step warns only
run: $(STAMP)
	-@$(MAKE) --no-print-directory $(KOR_MODEL)
	$(VENV)/bin/kdsdesk

lint: $(STAMP)
	$(VENV)/bin/ruff check kdsdesk tests bench packaging
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: lint $(KOR_MODEL)
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/python -m pytest -q

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache

# Frozen Linux onedir bundle from build.spec (PyInstaller, the `packaging` extra), then its smoke test: version,
# doctor, --selftest with the bundled models and again with test models (tiny ONNX encoder + gemma-3-270m GGUF).
PACKAGING_STAMP := $(VENV)/.packaging
$(PACKAGING_STAMP): $(STAMP) $(KOR_MODEL)
	$(VENV)/bin/python -m pip install -q -e '.[packaging]'
	touch $(PACKAGING_STAMP)

bundle: $(PACKAGING_STAMP)
	rm -rf dist/kdsdesk
	$(VENV)/bin/pyinstaller --noconfirm --log-level WARN build.spec
	rm -rf build/smoke-models && $(VENV)/bin/python packaging/smoke_models.py build/smoke-models
	$(VENV)/bin/python -c 'import sys; sys.path.insert(0, "."); from pathlib import Path; \
	  from tests.data.outline_docs import outlined_table_pdf; outlined_table_pdf(Path("build/smoke-models/outlined.pdf"))'
	bash packaging/smoke_test.sh dist/kdsdesk build/smoke-models
