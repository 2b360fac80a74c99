#include "engine/process_memory_t.hpp"

#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace cuzk::engine
