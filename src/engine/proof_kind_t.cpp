#include "engine/proof_kind_t.hpp"

namespace cuzk::engine {

std::string_view proof_kind_name(proof_kind_t kind) {
  switch (kind) {
    case proof_kind_t::porep_seal_commit: return "porep-c2";
    case proof_kind_t::snap_deals_update: return "snap-update";
    case proof_kind_t::window_post_partition: return "window-post";
    case proof_kind_t::winning_post: return "winning-post";
    case proof_kind_t::circuit: return "circuit";
    case proof_kind_t::unspecified: break;
  }
  return "unspecified";
}

std::string_view proof_kind_metric_label(proof_kind_t kind) {
  switch (kind) {
    case proof_kind_t::porep_seal_commit: return "porep_c2";
    case proof_kind_t::snap_deals_update: return "snap_update";
    case proof_kind_t::window_post_partition: return "window_post";
    case proof_kind_t::winning_post: return "winning_post";
    case proof_kind_t::circuit: return "circuit";
    case proof_kind_t::unspecified: break;
  }
  return "unspecified";
}

}  // namespace cuzk::engine
