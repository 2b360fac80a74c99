#include "circuits/snap_synthesis.hpp"

#include <tbb/parallel_for.h>

#include <array>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "circuits/porep_assign_cs.hpp"
#include "circuits/porep_record_cs.hpp"
#include "circuits/porep_synthesis.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::circuits {

porep_layout_t snap_layout(const porep::snap_shape_t& shape) {
  const snap_circuit c(shape);
  r1cs::shape_cs top_cs;
  const snap_circuit::top_vars_t top = c.synthesize_top(top_cs);
  r1cs::shape_cs block_cs;
  c.synthesize_challenge(block_cs, 0, top);

  porep_layout_t l;
  l.top = {0, top_cs.num_constraints(), 0, top_cs.num_aux(), 1, top_cs.num_inputs()};
  l.block_rows = block_cs.num_constraints();
  l.block_aux = block_cs.num_aux();
  l.block_inputs = block_cs.num_inputs() - 1;  // shape_cs counts ONE
  l.challenges = shape.challenges;
  l.window_len = shape.random_bits_per_challenge();
  for (unsigned ci = 0; ci < shape.challenges; ++ci) {
    const auto& bits = top.random_bits[ci];
    if (bits.size() != l.window_len) throw std::logic_error("snap layout: challenge " + std::to_string(ci) + " bits");
    const std::size_t first = bits[0].bit().var.index();
    for (std::size_t k = 0; k < bits.size(); ++k) {
      const r1cs::variable_t v = bits[k].bit().var;
      if (bits[k].kind() != gadgets::boolean_t::kind_t::is || !v.is_aux() || v.index() != first + k) {
        throw std::logic_error("snap layout: challenge " + std::to_string(ci) +
                               "'s random bits are not consecutive aux variables");
      }
    }
    l.windows.push_back(first);
  }
  return l;
}

porep_compiled_t compile_snap(const porep::snap_shape_t& shape) {
  const snap_circuit c(shape);
  snap_circuit::top_vars_t top;
  return porep_compiled_t::compile_blocks(
      snap_layout(shape), [&](porep_record_cs& cs) { top = c.synthesize_top(cs); },
      [&](porep_record_cs& cs) { c.synthesize_challenge(cs, 0, top); });
}

namespace {

// Every field of the shape (tests build shapes beside the 11 upstream sizes).
using shape_key_t = std::tuple<std::uint64_t, std::uint64_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, unsigned, std::array<unsigned, 6>>;

shape_key_t key_of(const porep::snap_shape_t& s) {
  return {s.sector_bytes,      s.nodes,      s.challenge_bit_len, s.partitions, s.partition_bit_len, s.challenges,
          s.apex_leaves,       s.apex_leaf_bit_len, s.base_arity, s.sub_arity,  s.top_arity,         s.hs};
}

}  // namespace

std::shared_ptr<const porep_compiled_t> compiled_snap_for(const porep::snap_shape_t& shape) {
  static std::mutex m;
  static std::map<shape_key_t, std::shared_ptr<const porep_compiled_t>> cache;
  std::lock_guard lock(m);
  auto& slot = cache[key_of(shape)];
  if (!slot) slot = std::make_shared<const porep_compiled_t>(compile_snap(shape));
  return slot;
}

porep_witness_t assign_snap_compiled(const snap_circuit& circuit, const porep_compiled_t& compiled, bool compact_aux) {
  if (!circuit.has_witness()) throw std::invalid_argument("snap synthesis: the circuit has no witness");
  const porep_layout_t& l = compiled.layout();
  // A compiled form of another size differs in these (a full shape pass to
  // compare counts would cost a second at 32 GiB); a slot that does not fill
  // below catches the rest.
  const porep::snap_shape_t& s = circuit.shape();
  if (l.challenges != s.challenges || l.window_len != s.random_bits_per_challenge() || l.num_inputs() != 5) {
    throw std::invalid_argument("snap synthesis: compiled form of another shape (" + std::to_string(l.challenges) +
                                " challenges of " + std::to_string(l.window_len) + " random bits, the circuit has " +
                                std::to_string(s.challenges) + " of " + std::to_string(s.random_bits_per_challenge()) +
                                ")");
  }
  porep_witness_t w = allocate_values_witness(compiled, compact_aux);
  porep_assign_cs top_cs(w, l.top);
  const snap_circuit::top_vars_t top = circuit.synthesize_top(top_cs);
  if (!top_cs.done()) throw std::logic_error("snap synthesis: the top block did not fill its slot");
  const porep_slot_t block{0, l.block_rows, 0, l.block_aux, 0, l.block_inputs};
  tbb::parallel_for(0u, l.challenges, [&](unsigned ci) {
    porep_assign_cs cs(w, l.at(ci, block));
    circuit.synthesize_challenge(cs, ci, top);
    if (!cs.done()) {
      throw std::logic_error("snap synthesis: challenge " + std::to_string(ci) +
                             " did not fill its slot (the layout does not match the circuit)");
    }
  });
  return w;
}

porep_witness_t synthesize_snap_compiled(const snap_circuit& circuit, const porep_compiled_t& compiled) {
  porep_witness_t w = assign_snap_compiled(circuit, compiled);
  form_rows(w, compiled);
  return w;
}

}  // namespace cuzk::circuits
