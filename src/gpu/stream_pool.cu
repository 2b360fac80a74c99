#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "gpu/stream.cuh"
#include "gpu/stream_pool.hpp"
#include "gpu/stream_slots.hpp"

namespace cuzk::gpu {

namespace {

struct device_pool {
  std::mutex mu;
  stream_slots slots;
  std::vector<cudaStream_t> streams;  // by slot; never destroyed
  int connections = 0;

  explicit device_pool(int c) : slots(c), connections(c) {
    int least = 0, greatest = 0;  // numerically: greatest <= least
    CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    // Made one after another, so each takes the next hardware queue.
    for (int s = 0; s < slots.size(); ++s) {
      cudaStream_t h = nullptr;
      CUDA_OK(cudaStreamCreateWithPriority(&h, cudaStreamNonBlocking, slots.is_high(s) ? greatest : least));
      streams.push_back(h);
    }
  }
};

// Never destroyed: a stream_t may be released by a thread that outlives static
// destruction (gpu/cuda_threads.hpp: CUDA threads never exit).
struct pools_t {
  std::mutex mu;
  std::map<int, std::unique_ptr<device_pool>> by_device;
};
pools_t& pools() {
  static pools_t* const p = new pools_t;
  return *p;
}

device_pool& pool_of(int device) {
  pools_t& all = pools();
  std::lock_guard lk(all.mu);  // one pool's streams are made in a row
  auto& p = all.by_device[device];
  if (!p) p = std::make_unique<device_pool>(stream_slots::connections_from(std::getenv("CUDA_DEVICE_MAX_CONNECTIONS")));
  return *p;
}

device_pool& current_pool() {
  int device = 0;
  CUDA_OK(cudaGetDevice(&device));
  return pool_of(device);
}

__global__ void wait_for_flag(volatile unsigned* flag, unsigned value, long long cycles, unsigned* gave_up) {
  const long long t0 = clock64();
  while (*flag != value) {
    if (clock64() - t0 > cycles) {
      *gave_up = 1;
      return;
    }
  }
}
__global__ void set_flag(volatile unsigned* flag, unsigned value) {
  __threadfence_system();
  *flag = value;
}

}  // namespace

stream_lease_t lease_stream(bool high) {
  int device = 0;
  CUDA_OK(cudaGetDevice(&device));
  device_pool& p = pool_of(device);
  std::lock_guard lk(p.mu);
  const int slot = p.slots.lease(high);
  return {p.streams[size_t(slot)], device, slot};
}

void release_stream(const stream_lease_t& l) {
  try {
    device_pool& p = pool_of(l.device);
    std::lock_guard lk(p.mu);
    p.slots.release(l.slot);
  } catch (...) {  // called from destructors; a slot not held is the lease's bug, caught by stream_slots' tests
  }
}

stream_pool_shape_t stream_pool_shape() {
  device_pool& p = current_pool();
  return {p.connections, p.slots.size(), p.slots.high_slots()};
}

std::vector<std::pair<int, int>> pooled_stream_pairs_run_in_turn(double timeout_ms) {
  device_pool& p = current_pool();
  int khz = 0, device = 0;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  const long long cycles = (long long)(timeout_ms * khz);
  unsigned* d = nullptr;  // flag, gave_up
  CUDA_OK(cudaMalloc(&d, 2 * sizeof(unsigned)));
  CUDA_OK(cudaMemset(d, 0, 2 * sizeof(unsigned)));
  CUDA_OK(cudaDeviceSynchronize());
  // Both kernels launched once first: a kernel's first launch loads its module
  // (lazy loading), which waits for the kernels running then, as a waiter would.
  set_flag<<<1, 1, 0, p.streams[0]>>>(d, 0);
  CUDA_LAUNCH_OK();
  wait_for_flag<<<1, 1, 0, p.streams[0]>>>(d, 0, cycles, d + 1);
  CUDA_LAUNCH_OK();
  CUDA_OK(cudaStreamSynchronize(p.streams[0]));
  std::vector<std::pair<int, int>> in_turn;
  unsigned value = 0;
  const int n = int(p.streams.size());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      ++value;  // a fresh value per pair: no reset that a setter could overtake
      wait_for_flag<<<1, 1, 0, p.streams[size_t(i)]>>>(d, value, cycles, d + 1);
      CUDA_LAUNCH_OK();
      set_flag<<<1, 1, 0, p.streams[size_t(j)]>>>(d, value);
      CUDA_LAUNCH_OK();
      CUDA_OK(cudaStreamSynchronize(p.streams[size_t(i)]));
      CUDA_OK(cudaStreamSynchronize(p.streams[size_t(j)]));
      unsigned gave_up = 0;
      CUDA_OK(cudaMemcpy(&gave_up, d + 1, sizeof gave_up, cudaMemcpyDeviceToHost));
      if (gave_up) {
        in_turn.emplace_back(i, j);
        CUDA_OK(cudaMemset(d + 1, 0, sizeof(unsigned)));
      }
    }
  }
  CUDA_OK(cudaFree(d));
  return in_turn;
}

}  // namespace cuzk::gpu
