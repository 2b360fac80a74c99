#include "engine/priority_t.hpp"

namespace cuzk::engine {

priority_t effective_priority(priority_t requested, proof_kind_t kind) {
  const auto v = static_cast<uint32_t>(requested);
  if (v >= 1 && v <= 4) return requested;
  if (requested == priority_t::unspecified) {
    if (kind == proof_kind_t::winning_post) return priority_t::critical;
    if (kind == proof_kind_t::window_post_partition) return priority_t::high;
  }
  return priority_t::normal;
}

priority_t circuit_priority(std::string_view circuit_id) {
  if (circuit_id.starts_with("winning-")) return effective_priority(priority_t::unspecified, proof_kind_t::winning_post);
  if (circuit_id.starts_with("wpost-")) {
    return effective_priority(priority_t::unspecified, proof_kind_t::window_post_partition);
  }
  return priority_t::normal;
}

}  // namespace cuzk::engine
