#pragma once
// A malformed or unsupported request; what() names the field and the reason.
#include "engine/engine_error.hpp"

namespace cuzk::engine {

class invalid_request : public engine_error {
 public:
  using engine_error::engine_error;
};

}  // namespace cuzk::engine
