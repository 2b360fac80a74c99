#include "engine/job_status_t.hpp"

namespace cuzk::engine {

std::string_view job_status_name(job_status_t s) {
  switch (s) {
    case job_status_t::completed: return "completed";
    case job_status_t::failed: return "failed";
    case job_status_t::cancelled: return "cancelled";
    case job_status_t::timeout: return "timeout";
    case job_status_t::unknown: break;
  }
  return "unknown";
}

}  // namespace cuzk::engine
