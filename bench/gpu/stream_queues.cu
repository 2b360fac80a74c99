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
//   ./stream_queues live-fresh|live-pooled   (40 + 8 streams live at once, as the engine holds them)
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

// As the engine holds them: 40 default-priority streams live at once (stream 0
// busy), then 8 of the greatest priority; how many of each wait for stream 0.
int live(bool fresh) {
  int khz = 0, least = 0, greatest = 0;
  CUDA_OK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  std::vector<cudaStream_t> made;
  std::vector<stream_t> lent;
  std::vector<cudaStream_t> all;
  for (int i = 0; i < 48; ++i) {
    const bool high = i >= 40;
    if (fresh) {
      cudaStream_t s = nullptr;
      CUDA_OK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, high ? greatest : least));
      all.push_back(s);
    } else {
      set_thread_stream_priority(high);
      lent.emplace_back();
      all.push_back(lent.back());
      set_thread_stream_priority(false);
    }
  }
  for (cudaStream_t s : all) tiny<<<1, 32, 0, s>>>();  // first launches (module loading) out of the way
  CUDA_OK(cudaDeviceSynchronize());
  int waited_default = 0, waited_high = 0;
  for (size_t i = 1; i < all.size(); ++i) {
    for (int k = 0; k < 10; ++k) spin<<<1, 1, 0, all[0]>>>(5LL * khz);
    const auto t0 = std::chrono::steady_clock::now();
    tiny<<<1, 32, 0, all[i]>>>();
    CUDA_OK(cudaStreamSynchronize(all[i]));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (ms > 5) ++(i >= 40 ? waited_high : waited_default);
    CUDA_OK(cudaStreamSynchronize(all[0]));
  }
  const char* env = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  std::printf("%s, 40 default + 8 greatest-priority streams live, CUDA_DEVICE_MAX_CONNECTIONS=%s: %d of 39 default "
              "and %d of 8 greatest-priority streams waited for the busy one\n",
              fresh ? "made per use" : "pooled", env ? env : "unset", waited_default, waited_high);
  if (fresh)
    for (cudaStream_t s : all) CUDA_OK(cudaStreamDestroy(s));
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "pairs") == 0) {  // the pool's own check (tests/gpu/test_stream_pool.cpp)
    const auto shape = stream_pool_shape();
    const auto in_turn = pooled_stream_pairs_run_in_turn(200.0);
    std::printf("pool: %d queues, %d streams (%d critical); %zu ordered pairs ran in turn\n", shape.connections,
                shape.streams, shape.high_streams, in_turn.size());
    return in_turn.empty() ? 0 : 1;
  }
  if (argc > 1 && std::strncmp(argv[1], "live", 4) == 0) return live(std::strcmp(argv[1], "live-fresh") == 0);
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
