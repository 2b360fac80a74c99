#!/usr/bin/env bash
# Regenerates fuzz/corpus/ (deterministic) with the cuzk_fuzz_corpus tool that
# a -DCUZK_FUZZ=ON build makes (built here if scripts/test.sh, which builds
# the fuzz targets only, has not).
#   scripts/make_fuzz_corpus.sh build-fuzz
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$1" --target cuzk_fuzz_corpus
"$1/cuzk_fuzz_corpus" "$root/fuzz/corpus" "$root"
du -sh "$root/fuzz/corpus"
