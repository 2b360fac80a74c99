#pragma once
// Random job ids for requests without request_id: UUIDv4 text, as the Rust daemon.
#include <string>

namespace cuzk::engine {

std::string make_job_id();

}  // namespace cuzk::engine
