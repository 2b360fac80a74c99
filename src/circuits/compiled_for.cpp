#include "circuits/compiled_for.hpp"

#include <bit>
#include <vector>

#include "circuits/porep_synthesizer_t.hpp"
#include "circuits/post_circuit.hpp"
#include "circuits/post_synthesis.hpp"
#include "circuits/snap_synthesis.hpp"
#include "porep/post_shape.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/snap_shape.hpp"

namespace cuzk::circuits {

std::shared_ptr<const porep_compiled_t> compiled_for(filecoin::parameter_kind_t kind, std::uint64_t sector_bytes) {
  using k = filecoin::parameter_kind_t;
  switch (kind) {
    case k::porep: {
      auto synthesizer = porep_synthesizer_t::for_sector(porep::sector_params_for(sector_bytes));
      return std::shared_ptr<const porep_compiled_t>(synthesizer, &synthesizer->compiled());  // shares its owner
    }
    case k::window_post:
    case k::winning_post: {
      const auto post = kind == k::window_post ? porep::post_kind_t::window : porep::post_kind_t::winning;
      return compiled_post_for(post_circuit(porep::post_shape_for(post, sector_bytes)));
    }
    case k::snap_deals:
    case k::snap_deals_poseidon:
      return compiled_snap_for(porep::snap_shape_for(sector_bytes));
  }
  throw std::invalid_argument("compiled_for: unknown parameter kind");
}

groth16::query_sizes_t parameter_query_sizes(const porep_compiled_t& compiled) {
  const auto& l = compiled.layout();
  const std::size_t inputs = l.num_inputs(), aux = l.num_aux();
  std::vector<std::uint64_t> a_in((inputs + 63) / 64), b_in((inputs + 63) / 64), a_aux((aux + 63) / 64),
      b_aux((aux + 63) / 64);
  compiled.densities(a_in, b_in, a_aux, b_aux);
  auto ones = [](const std::vector<std::uint64_t>& v) {
    std::size_t n = 0;
    for (std::uint64_t w : v) n += std::size_t(std::popcount(w));
    return n;
  };
  const std::size_t b = ones(b_in) + ones(b_aux);
  return {inputs, std::bit_ceil(l.num_constraints()) - 1, aux, inputs + ones(a_aux), b, b};
}

}  // namespace cuzk::circuits
