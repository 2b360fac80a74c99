#pragma once
// submit after drain()/stop() began.
#include "engine/engine_error.hpp"

namespace cuzk::engine {

class engine_stopped : public engine_error {
 public:
  using engine_error::engine_error;
};

}  // namespace cuzk::engine
