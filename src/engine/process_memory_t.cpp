#include "engine/process_memory_t.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace cuzk::engine {
namespace {

// Lines look like "VmHWM:	  123456 kB".
uint64_t field_kib(const char* path, const std::string& key) {
  std::ifstream in(path);
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
  return {field_kib("/proc/self/status", "VmHWM"), field_kib("/proc/self/status", "VmRSS")};
}

uint64_t read_mem_total() { return field_kib("/proc/meminfo", "MemTotal"); }

}  // namespace cuzk::engine
