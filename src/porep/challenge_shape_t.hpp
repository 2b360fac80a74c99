#pragma once
// How many PoRep challenges a sector has and how they are drawn: enough to
// derive them without a full sector_params_t, which NonInteractivePoRep does
// not have (we refuse to prove it, but still derive its public inputs).
#include <cstdint>

#include "porep/api_version_t.hpp"

namespace cuzk::porep {

struct challenge_shape_t {
  std::uint64_t nodes = 0;                            // sector_bytes / 32
  unsigned partitions = 0;                            // upstream passes k as u8: at most 256
  unsigned challenges_per_partition = 0;
  porep_feature_t feature = porep_feature_t::none;    // interactive, synthetic or non-interactive
};

}  // namespace cuzk::porep
