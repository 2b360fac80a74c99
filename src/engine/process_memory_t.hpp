#pragma once
// The kernel's own accounting of this process's memory (/proc/self/status):
// VmHWM is the peak resident set, kept by the kernel, so no spike between
// samples is missed (CUZK_API.md 7: peak RSS sampled every 5 s missed spikes).
#include <cstdint>

namespace cuzk::engine {

struct process_memory_t {
  uint64_t peak_rss_bytes = 0;  // VmHWM
  uint64_t rss_bytes = 0;       // VmRSS
};

// Zeros where /proc is unavailable.
process_memory_t read_process_memory();

// Resets the kernel's peak-RSS mark (VmHWM) of this process to the current
// resident set (Linux >= 4.0), so a run that follows reports its own peak; a
// no-op where not permitted.
void reset_peak_rss();

// MemTotal from /proc/meminfo in bytes, 0 if unreadable.
uint64_t read_mem_total();

// User + system CPU seconds this process has used, every thread (getrusage);
// 0 where unavailable.
double read_process_cpu_seconds();
// Cores this process may run on (its affinity mask), at least 1.
uint32_t usable_cpu_cores();

}  // namespace cuzk::engine
