#pragma once
// await/cancel/timeline for a job id the engine does not know (never submitted, or its result expired
// after result_retention).
#include "engine/engine_error.hpp"

namespace cuzk::engine {

class unknown_job : public engine_error {
 public:
  using engine_error::engine_error;
};

}  // namespace cuzk::engine
