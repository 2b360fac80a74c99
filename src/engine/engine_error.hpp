#pragma once
// Base of the engine's own errors, so the service can map each to a gRPC code
// (invalid_request -> INVALID_ARGUMENT, unknown_job -> NOT_FOUND,
// never_fits -> RESOURCE_EXHAUSTED, engine_stopped -> UNAVAILABLE).
#include <stdexcept>
#include <string>

namespace cuzk::engine {

class engine_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cuzk::engine
