#include "circuits/post_circuit_params.hpp"

#include <stdexcept>

namespace cuzk::circuits {

post_circuit_params_t post_circuit_params(const porep::post_shape_t& shape) {
  if (shape.sectors_per_partition == 0 || shape.challenges_per_sector == 0)
    throw std::invalid_argument("post shape: no sectors or no challenges");
  if (shape.kind == porep::post_kind_t::window) return {shape.sectors_per_partition, shape.challenges_per_sector};
  // winning_post_setup_params: param_sector_count = challenges / sectors,
  // param_challenge_count = challenges / param_sector_count.
  if (shape.challenges_per_sector % shape.sectors_per_partition != 0)
    throw std::invalid_argument("winning post shape: sector count " + std::to_string(shape.sectors_per_partition) +
                                " does not divide challenge count " + std::to_string(shape.challenges_per_sector));
  const unsigned sectors = shape.challenges_per_sector / shape.sectors_per_partition;
  return {sectors, shape.challenges_per_sector / sectors};
}

std::string post_kind_name(porep::post_kind_t kind) {
  return kind == porep::post_kind_t::winning ? "winning-post" : "window-post";
}

}  // namespace cuzk::circuits
