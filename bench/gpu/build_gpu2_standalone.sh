#!/usr/bin/env bash
# Builds gpu2_tests (tests/engine/test_engine_gpu.cpp, tests/groth16/test_gpu_setup.cpp)
# and gpu2_bench (bench/groth16/bench_gpu_setup.cpp) for a device run without a
# full CUDA build here: the core objects come from BUILD_DIR (a -DCUZK_NATIVE=OFF
# build of cuzk_core, e.g. build-dev from bench/prepare_device.sh), the MSM/NTT
# objects from GPU_OBJ (build_standalone.sh's OUT_DIR/obj), and the files this
# script compiles itself override theirs. Gathers the binaries and their shared
# libraries in BIN_DIR, for `carry`; then run bench/gpu/device_run_gpu2.sh BIN_DIR.
#   bench/gpu/build_gpu2_standalone.sh BIN_DIR BUILD_DIR GPU_OBJ
set -euo pipefail
cd "$(dirname "$0")/../.."
B=$1 BUILD=$2 GPU_OBJ=$3
O="$B/obj"; mkdir -p "$O"
CXX="c++ -std=c++20 -O3 -DNDEBUG -mbmi2 -madx -pthread -DCUZK_HAVE_CUDA=1 -DFMT_SHARED -DSPDLOG_COMPILED_LIB
     -DSPDLOG_FMT_EXTERNAL -DSPDLOG_SHARED_LIB -DGTEST_HAS_PTHREAD=1 -DCUZK_SOURCE_DIR=\".\" -DCUZK_BINARY_DIR=\".\"
     -Isrc -Itests -isystem /usr/local/cuda/include"
NV="nvcc -std=c++20 --expt-relaxed-constexpr -lineinfo -O3 -DNDEBUG -Isrc -Xcompiler -mbmi2,-madx
    -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=compute_90"
for f in src/gpu/fixed_base.cu src/gpu/device.cu; do $NV -c "$f" -o "$O/$(basename "$f").o"; done
for f in src/engine/gpu_backend_t.cpp src/groth16/gpu_setup.cpp src/groth16/setup.cpp tests/engine/test_engine_gpu.cpp \
         tests/groth16/test_gpu_setup.cpp bench/groth16/bench_gpu_setup.cpp; do
  $CXX -c "$f" -o "$O/$(echo "$f" | tr / _).o"
done
ar rcs "$O/core.a" $(find "$BUILD/CMakeFiles/cuzk_core.dir" -name '*.o' | grep -v -E "groth16/setup.cpp.o|gpu/stubs.cpp.o")
OWN="$O/src_engine_gpu_backend_t.cpp.o $O/src_groth16_gpu_setup.cpp.o $O/src_groth16_setup.cpp.o $O/fixed_base.cu.o $O/device.cu.o"
LIBS="-Wl,--allow-multiple-definition $O/core.a $(ls "$GPU_OBJ"/*.cu.o | grep -v device.cu.o)
      -L/usr/local/cuda/lib64 -lcudart_static -ltbb -lspdlog -lfmt -lpthread -ldl -lrt"
g++ -o "$B/gpu2_tests" "$O"/tests_*.o $OWN $LIBS -lgtest_main -lgtest
g++ -o "$B/gpu2_bench" "$O"/bench_*.o $OWN $LIBS -lbenchmark_main -lbenchmark
skip='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libgcc_s|libcuda)\.so'
for exe in gpu2_tests gpu2_bench; do ldd "$B/$exe" | awk '$3 ~ /^\// {print $3}'; done | sort -u | while read -r lib; do
  name=$(basename "$lib"); [[ $name =~ $skip ]] || cp -L "$lib" "$B/$name"
done
rm -rf "$O"
strip "$B/gpu2_tests" "$B/gpu2_bench"
du -sh "$B"
