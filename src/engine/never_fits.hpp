#pragma once
// A job whose partition footprint (plus its parameters) exceeds the whole memory budget: it could
// never be admitted, so it is refused at submit instead of waiting forever.
#include "engine/engine_error.hpp"

namespace cuzk::engine {

class never_fits : public engine_error {
 public:
  using engine_error::engine_error;
};

}  // namespace cuzk::engine
