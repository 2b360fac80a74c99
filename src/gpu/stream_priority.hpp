#pragma once
// Which CUDA stream priority the calling thread's new streams get (stream_t).
// Plain C++, no CUDA types, so engine code sets it in every build: a thread
// that proves only critical work (the engine's critical prove workers) asks
// for the device's greatest priority, and the block scheduler then starts
// the blocks of its kernels ahead of those of default-priority streams as
// SMs free up (nothing running is preempted). Header-only: the flag is one
// inline thread_local, shared by the nvcc- and the g++-compiled objects.
namespace cuzk::gpu {

namespace stream_priority_detail {
inline thread_local bool high = false;
}  // namespace stream_priority_detail

// Streams this thread creates from now on: greatest priority (high) or the default.
inline void set_thread_stream_priority(bool high) { stream_priority_detail::high = high; }
inline bool thread_stream_priority_high() { return stream_priority_detail::high; }

}  // namespace cuzk::gpu
