#!/usr/bin/env bash
# Links tests/gpu and bench/gpu into two standalone binaries, gpu_tests and
# gpu_bench, with the few sources they need (ff, poly, gpu), plus the shared
# libraries the GPU machine lacks (it has no libtbb-dev), so that a device run
# needs no configure step and no build time:
#   bench/gpu/build_standalone.sh OUT_DIR [extra nvcc flags...]
#   then, on the GPU machine: bench/gpu/device_run.sh OUT_DIR
# Flags match CMakeLists.txt (sm_90a SASS + compute_90 PTX).
set -euo pipefail
O=$(mkdir -p "$1" && cd "$1" && pwd); shift
cd "$(dirname "$0")/../.."
mkdir -p "$O/obj"
NV="nvcc -std=c++20 --expt-relaxed-constexpr -lineinfo -O3 -Isrc -Xptxas -v $*
    -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=compute_90"
CXX="g++ -std=c++20 -O3 -DNDEBUG -march=x86-64-v3 -Isrc -Itests -I/usr/local/cuda/include -DCUZK_HAVE_CUDA=1"
pids=()
# A .cu object newer than every device source is kept (the MSM files take
# minutes each on a shared 2-core machine).
newest=$(ls -t src/gpu/* src/ff/* src/ec/* | head -1)
for f in src/gpu/*.cu; do
  o="$O/obj/$(basename "$f").o"
  [ "$o" -nt "$newest" ] && continue
  $NV -c "$f" -o "$o" 2> "$O/obj/$(basename "$f").log" & pids+=($!)
done
for f in src/ff/fields.cpp src/poly/domain.cpp src/poly/ntt.cpp src/poly/compute_h.cpp src/gpu/stubs.cpp src/gpu/cuda_threads.cpp src/msm/msm.cpp \
         tests/gpu/*.cpp bench/gpu/*.cpp; do
  $CXX '-DCUZK_SOURCE_DIR="."' '-DCUZK_BINARY_DIR="."' -c "$f" -o "$O/obj/$(echo "$f" | tr / _).o" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { grep -h -i error "$O"/obj/*.log; exit 1; }; done
LIB="$O/obj/src_ff_fields.cpp.o $O/obj/src_poly_domain.cpp.o $O/obj/src_poly_ntt.cpp.o $O/obj/src_poly_compute_h.cpp.o
     $O/obj/src_gpu_stubs.cpp.o $O/obj/src_gpu_cuda_threads.cpp.o $O/obj/src_msm_msm.cpp.o $O/obj/*.cu.o -L/usr/local/cuda/lib64 -lcudart_static -ltbb -lpthread -ldl -lrt"
g++ -o "$O/gpu_tests" "$O"/obj/tests_gpu_*.o $LIB -lgtest_main -lgtest
g++ -o "$O/gpu_bench" "$O"/obj/bench_gpu_*.o $LIB -lbenchmark_main -lbenchmark
cp -L /lib/x86_64-linux-gnu/libtbb.so.12 /lib/x86_64-linux-gnu/libbenchmark.so.1debian "$O/"
grep -h "Used" "$O"/obj/ntt_pass_*.log | sort | uniq -c
echo "built $O/gpu_tests $O/gpu_bench"
