#include "circuits/post_synthesis.hpp"

#include <tbb/parallel_for.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "circuits/porep_assign_cs.hpp"
#include "circuits/porep_record_cs.hpp"
#include "circuits/porep_synthesis.hpp"

namespace cuzk::circuits {
namespace {

// What fixes a compiled PoSt partition: Tree R's levels, the challenges per
// block and the block count.
using shape_key_t = std::tuple<std::vector<unsigned>, std::size_t, unsigned, unsigned>;

shape_key_t key_of(const post_circuit& c) {
  return {c.tree_arities(), c.base_levels(), c.params().challenge_count, c.params().sector_count};
}

}  // namespace

porep_layout_t post_layout(const post_circuit& circuit) {
  const r1cs::shape_counts_t b = circuit.block_counts();
  porep_layout_t l;
  l.top = {0, 0, 0, 0, 1, 1};  // ONE only
  l.block_rows = b.num_constraints;
  l.block_aux = b.num_aux;
  l.block_inputs = b.num_inputs;
  l.challenges = circuit.params().sector_count;
  return l;
}

porep_compiled_t compile_post(const post_circuit& circuit) {
  // Block 0 without a witness: the rows do not depend on values.
  const post_circuit shape_only(circuit.shape());
  return porep_compiled_t::compile_blocks(
      post_layout(shape_only), [](porep_record_cs&) {},
      [&](porep_record_cs& cs) { shape_only.synthesize_block(cs, 0); });
}

std::shared_ptr<const porep_compiled_t> compiled_post_for(const post_circuit& circuit) {
  static std::mutex m;
  static std::map<shape_key_t, std::shared_ptr<const porep_compiled_t>> cache;
  std::lock_guard lock(m);
  auto& slot = cache[key_of(circuit)];
  if (!slot) slot = std::make_shared<const porep_compiled_t>(compile_post(circuit));
  return slot;
}

porep_witness_t assign_post_compiled(const post_circuit& circuit, const porep_compiled_t& compiled, bool compact_aux) {
  if (!circuit.has_witness()) throw std::invalid_argument("post synthesis: the circuit has no witness");
  const porep_layout_t& l = compiled.layout();
  const r1cs::shape_counts_t expect = circuit.counts();
  if (l.challenges != circuit.params().sector_count || l.circuit_rows() != expect.num_constraints ||
      l.num_aux() != expect.num_aux || l.num_inputs() != expect.num_inputs) {
    throw std::invalid_argument("post synthesis: compiled form of another shape (" + std::to_string(l.circuit_rows()) +
                                " rows, the circuit has " + std::to_string(expect.num_constraints) + ")");
  }
  porep_witness_t w = allocate_values_witness(compiled, compact_aux);
  const porep_slot_t block{0, l.block_rows, 0, l.block_aux, 0, l.block_inputs};
  tbb::parallel_for(0u, l.challenges, [&](unsigned b) {
    porep_assign_cs cs(w, l.at(b, block));
    circuit.synthesize_block(cs, b);
    if (!cs.done()) {
      throw std::logic_error("post synthesis: sector block " + std::to_string(b) +
                             " did not fill its slot (the layout does not match the circuit)");
    }
  });
  return w;
}

porep_witness_t synthesize_post_compiled(const post_circuit& circuit, const porep_compiled_t& compiled) {
  porep_witness_t w = assign_post_compiled(circuit, compiled);
  form_rows(w, compiled);
  return w;
}

}  // namespace cuzk::circuits
