// Does a critical kernel queue behind another stream's work? (gpu/stream_slots.hpp)
// Each trial queues 50 ms of one-block spin kernels on a busy default-priority
// stream, then times (host clock, launch to completion) a one-block kernel on
// a greatest-priority stream: made for the trial (`fresh`, as stream_t did
// before the pool) or lent by the pool (`pooled`, stream_t now). The SMs stay
// free, so a trial is slow only when its stream shares the busy stream's
// hardware queue.
//   nvcc -std=c++20 -O2 -Isrc -gencode arch=compute_90,code=sm_90 \
//        bench/gpu/stream_queues.cu src/gpu/stream_pool.cu -o stream_queues
//   CUDA_DEVICE_MAX_CONNECTIONS=32 ./stream_queues fresh|pooled 96
//   ./stream_queues pairs    (the pool's check: every pooled stream has a queue of its own)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "gpu/stream.cuh"
#include "gpu/stream_pool.hpp"

using namespace cuzk::gpu;

__global__ void spin(long long cycles) {
  const long long t = clock64();
  while (clock64() - t < cycles) {
  }
}
__global__ void tiny() {}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "pairs") == 0) {  // the pool's own check (tests/gpu/test_stream_pool.cpp)
    const auto shape = stream_pool_shape();
    const auto in_turn = pooled_stream_pairs_run_in_turn(200.0);
    std::printf("pool: %d queues, %d streams (%d critical); %zu ordered pairs ran in turn\n", shape.connections,
                shape.streams, shape.high_streams, in_turn.size());
    return in_turn.empty() ? 0 : 1;
  }
  const bool fresh = argc > 1 && std::strcmp(argv[1], "fresh") == 0;
  const int trials = argc > 2 ? std::atoi(argv[2]) : 64;
  int khz = 0;
  CUDA_OK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  int least = 0, greatest = 0;
  CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  const stream_t busy;  // default priority, from the pool in both modes
  spin<<<1, 1, 0, busy>>>(1000);
  busy.sync();
  std::vector<double> ms;
  for (int i = 0; i < trials; ++i) {
    for (int k = 0; k < 10; ++k) spin<<<1, 1, 0, busy>>>(5LL * khz);  // 10 x 5 ms
    cudaStream_t s = nullptr;
    set_thread_stream_priority(true);
    std::optional<stream_t> lent;
    if (fresh) {
      CUDA_OK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
    } else {
      lent.emplace();
      s = *lent;
    }
    set_thread_stream_priority(false);
    const auto t0 = std::chrono::steady_clock::now();
    tiny<<<1, 32, 0, s>>>();
    CUDA_OK(cudaStreamSynchronize(s));
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    busy.sync();
    if (fresh) CUDA_OK(cudaStreamDestroy(s));
  }
  const char* env = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const auto slow = std::count_if(ms.begin(), ms.end(), [](double v) { return v > 5; });
  std::printf("%s streams, CUDA_DEVICE_MAX_CONNECTIONS=%s: %d trials, %ld waited for the busy stream (> 5 ms); "
              "median %.3f ms, max %.1f ms; trials that waited:",
              fresh ? "fresh" : "pooled", env ? env : "unset", trials, long(slow), sorted[sorted.size() / 2],
              sorted.back());
  for (int i = 0; i < trials; ++i)
    if (ms[size_t(i)] > 5) std::printf(" %d", i);
  std::printf("\n");
}
