#include "porep/post_shape.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::porep {

unsigned window_post_sectors_per_partition(std::uint64_t sector_bytes) {
  constexpr std::uint64_t gib = std::uint64_t(1) << 30;
  sector_params_for(sector_bytes);  // rejects an unsupported size, naming it
  if (sector_bytes == 32 * gib) return 2349;
  if (sector_bytes == 64 * gib) return 2300;
  return 2;
}

post_shape_t post_shape_for(post_kind_t kind, std::uint64_t sector_bytes) {
  post_shape_t s;
  s.kind = kind;
  s.sector = sector_params_for(sector_bytes);
  if (kind == post_kind_t::winning) {
    s.sectors_per_partition = winning_post_sectors;
    s.challenges_per_sector = winning_post_challenges;
  } else {
    s.sectors_per_partition = window_post_sectors_per_partition(sector_bytes);
    s.challenges_per_sector = window_post_challenges;
  }
  return s;
}

const char* to_string(post_kind_t kind) { return kind == post_kind_t::winning ? "winning" : "window"; }

}  // namespace cuzk::porep
