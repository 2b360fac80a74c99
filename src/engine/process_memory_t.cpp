#include "engine/process_memory_t.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace cuzk::engine {
namespace {

std::string read_whole(const char* path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Lines look like "VmHWM:	  123456 kB".
uint64_t field_kib(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0 || line.size() <= key.size() || line[key.size()] != ':') continue;
    std::istringstream s(line.substr(key.size() + 1));
    uint64_t v = 0;
    s >> v;
    return v * 1024;
  }
  return 0;
}

}  // namespace

process_memory_t read_process_memory() {
  // One read of the file: the kernel fills VmHWM and VmRSS from the same
  // snapshot, so the peak is never below the current value. Two opens would
  // let the resident set grow in between.
  const std::string status = read_whole("/proc/self/status");
  return {field_kib(status, "VmHWM"), field_kib(status, "VmRSS")};
}

void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

uint64_t read_mem_total() { return field_kib(read_whole("/proc/meminfo"), "MemTotal"); }

double read_process_cpu_seconds() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

uint32_t usable_cpu_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max<uint32_t>(1, uint32_t(CPU_COUNT(&set)));
  return std::max<uint32_t>(1, std::thread::hardware_concurrency());
}

}  // namespace cuzk::engine
