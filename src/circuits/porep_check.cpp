#include "circuits/porep_check.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <limits>

#include "circuits/porep_layout_t.hpp"
#include "circuits/porep_name_cs.hpp"
#include "circuits/porep_synthesis.hpp"

namespace cuzk::circuits {

std::optional<porep_unsatisfied_t> porep_which_is_unsatisfied(const porep_circuit& circuit) {
  const porep_layout_t layout = porep_layout_t::measure(circuit);
  const porep_witness_t w = synthesize_porep_witness(circuit, layout);
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  const std::size_t first = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, w.a.size()), none,
      [&](const tbb::blocked_range<std::size_t>& r, std::size_t best) {
        for (std::size_t i = r.begin(); i < r.end() && i < best; ++i) {
          if (!(w.a[i] * w.b[i] == w.c[i])) return i;
        }
        return best;
      },
      [](std::size_t x, std::size_t y) { return std::min(x, y); });
  if (first == none) return std::nullopt;
  porep_name_cs names(first);
  circuit.synthesize(names);
  return porep_unsatisfied_t{first, names.found().value_or("input constraint " + std::to_string(first))};
}

}  // namespace cuzk::circuits
