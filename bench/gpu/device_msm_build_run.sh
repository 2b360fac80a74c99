#!/usr/bin/env bash
# One device call for the GPU MSM when this machine is too loaded to build
# it: compiles the MSM .cu files there (16 cores), links gpu_tests and
# gpu_bench against the host objects that build_standalone.sh left in
# BIN_DIR/obj and the static gtest / benchmark libraries copied beside them,
# then runs device_run_msm.sh. The MSM objects come back under $OUT.
#   bench/gpu/device_msm_build_run.sh BIN_DIR [benchmark filter]
set -u
B=$1
OUT=${OUT:-/tmp/gpu_out}
mkdir -p "$OUT"
NV="nvcc -std=c++20 --expt-relaxed-constexpr -lineinfo -O3 -Isrc -Xptxas -v
    -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90,code=compute_90"
t0=$(date +%s)
for f in src/gpu/msm_g1.cu src/gpu/msm_g2.cu; do
  $NV -c "$f" -o "$B/obj/$(basename "$f").o" 2> "$OUT/$(basename "$f").log" &
done
wait
echo "[build] $(( $(date +%s) - t0 ))s nvcc done"; g++ --version | head -1
grep -h -A1 "Compiling entry.*msm_kernels" "$OUT"/msm_g*.cu.log | grep -E "Used|spill" | sort | uniq -c | head -20
LIB="$B/obj/src_*.o $B/obj/*.cu.o $B/libtbb.so.12 -L/usr/local/cuda/lib64 -lcudart_static -lpthread -ldl -lrt"
g++ -o "$B/gpu_tests" $B/obj/tests_gpu_*.o $LIB "$B/libgtest_main.a" "$B/libgtest.a" || exit 1
g++ -o "$B/gpu_bench" $B/obj/bench_gpu_*.o $LIB "$B/libbenchmark_main.a" "$B/libbenchmark.so.1debian" || exit 1
cp "$B"/obj/msm_g*.cu.o "$OUT/"
echo "[build] $(( $(date +%s) - t0 ))s linked"
bash bench/gpu/device_run_msm.sh "$B" "${2:-BM_gpu_msm}"
