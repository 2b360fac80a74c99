#!/usr/bin/env bash
# Regenerates fuzz/corpus/ (deterministic) with the cuzk_fuzz_corpus tool that
# a -DCUZK_FUZZ=ON build makes.
#   scripts/make_fuzz_corpus.sh build-fuzz
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
"$1/cuzk_fuzz_corpus" "$root/fuzz/corpus" "$root"
du -sh "$root/fuzz/corpus"
