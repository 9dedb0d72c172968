#!/usr/bin/env bash
# Smoke test of the frozen onedir bundle (make bundle; CI). Runs only the bundle's own executables.
#
#   bash packaging/smoke_test.sh [BUNDLE_DIR] [TEST_MODELS_DIR]
#
# 1. `kdsdesk --version` and `kdsdesk doctor` (models, encoder, LLM, font, library folder);
# 2. `kdsdesk --selftest` with the models the bundle carries (none in CI: word search, extractive answers);
# 3. with TEST_MODELS_DIR (packaging/smoke_models.py: tiny ONNX encoder + gemma-3-270m GGUF) the self-test again, so
#    onnxruntime, tokenizers and llama.cpp run inside the bundle;
# 4. with TEST_MODELS_DIR/outlined.pdf (a table whose Korean labels are vector outlines) `kdsdesk parse` reads the
#    labels by OCR inside the bundle (tesserocr's libraries and the bundled Korean model);
# 5. the windowed executable opens its window offscreen and saves a screenshot.
# The library lives under a folder whose name has Korean characters and spaces, like a Windows user profile.
set -euo pipefail
BUNDLE=${1:-dist/kdsdesk}
MODELS=${2:-}
EXE="$BUNDLE/kdsdesk"
GUI="$BUNDLE/KDS Desk"
work=$(mktemp -d "${TMPDIR:-/tmp}/kdsdesk smoke 사용자.XXXXXX")
trap 'rm -rf "$work"' EXIT
export KDSDESK_HOME="$work/내 라이브러리"
export QT_QPA_PLATFORM=offscreen
unset KDSDESK_MODELS

step() { printf '\n== %s\n' "$*"; }
started=$(date +%s)

step "version"
"$EXE" --version
step "doctor"
"$EXE" doctor
step "selftest (bundled models)"
"$EXE" --selftest
if [ -n "$MODELS" ]; then
  step "selftest (test models: $MODELS)"
  # the tiny test LLM rambles: stop it after 60 s of generation (the stage still proves llama.cpp runs)
  KDSDESK_SELFTEST_LLM_SECONDS=${KDSDESK_SELFTEST_LLM_SECONDS:-60} KDSDESK_MODELS="$MODELS" \
    KDSDESK_HOME="$work/모델 라이브러리" "$EXE" selftest
fi
if [ -n "$MODELS" ] && [ -f "$MODELS/outlined.pdf" ]; then
  step "OCR of outline lettering (parse)"
  "$EXE" parse "$MODELS/outlined.pdf" > "$work/outlined.txt"
  grep -q "구분 | 계수" "$work/outlined.txt" || { cat "$work/outlined.txt"; echo "OCR failed in the bundle" >&2; exit 1; }
  echo "outlined table read: $(grep -c ' | ' "$work/outlined.txt") rows"
fi
step "window (offscreen screenshot)"
"$GUI" --screenshot "$work/window.png"
test -s "$work/window.png"
echo "smoke test passed in $(( $(date +%s) - started )) s; bundle $(du -sh "$BUNDLE" | cut -f1)"
