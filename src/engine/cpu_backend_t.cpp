#include "engine/cpu_backend_t.hpp"

namespace cuzk::engine {

std::shared_ptr<prove_backend_t> make_cpu_backend(uint32_t devices) {
  return std::make_shared<cpu_backend_t>(devices);
}

}  // namespace cuzk::engine
