#!/usr/bin/env bash
# Installs every dependency (Debian packages, npm references) and builds cuzk
# into build/ (Release). Safe to run again: installed packages and an existing
# build are reused. CUZK_BUILD_DIR and CUZK_CMAKE_ARGS override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  libtbb-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libtomlplusplus-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc libssl-dev libcpp-httplib-dev
  clang libclang-rt-14-dev nodejs npm
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from outside Debian (e.g. NodeSource); accept them if present.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<<"${missing[*]}"
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Independent references for tests: @noble/curves and snarkjs (versions pinned in package-lock.json).
if [[ ! -d tests/js/node_modules/snarkjs || ! -d tests/js/node_modules/@noble/curves ]]; then
  npm ci --prefix tests/js --no-audit --no-fund --loglevel=error
fi

build="${CUZK_BUILD_DIR:-build}"
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CUZK_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
echo "setup: built $build/cuzk"
