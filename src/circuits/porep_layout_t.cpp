#include "circuits/porep_layout_t.hpp"

#include "circuits/porep_circuit.hpp"
#include "r1cs/shape_cs.hpp"

namespace cuzk::circuits {
namespace {

// Records the counts a step adds, relative to a block start.
class step_meter {
 public:
  step_meter(const r1cs::shape_cs& cs, const r1cs::shape_counts_t& base) : cs_(cs), base_(base) {}

  template <class F>
  porep_slot_t operator()(F&& step) {
    const r1cs::shape_counts_t before = cs_.counts();
    step();
    const r1cs::shape_counts_t after = cs_.counts();
    return {before.num_constraints - base_.num_constraints, after.num_constraints - base_.num_constraints,
            before.num_aux - base_.num_aux,                 after.num_aux - base_.num_aux,
            before.num_inputs - base_.num_inputs,           after.num_inputs - base_.num_inputs};
  }

 private:
  const r1cs::shape_cs& cs_;
  r1cs::shape_counts_t base_;
};

}  // namespace

porep_layout_t porep_layout_t::measure(const porep_circuit& circuit) {
  porep_layout_t l;
  l.challenges = circuit.shape().challenges;
  r1cs::shape_cs cs;
  porep_circuit::top_vars_t top;
  l.top = step_meter(cs, {0, 0, 0})([&] { top = circuit.synthesize_top(cs); });
  step_meter meter(cs, cs.counts());
  porep_circuit::challenge_vars_t v;
  l.leaf = meter([&] { v.data_leaf = circuit.step_leaf(cs, 0); });
  l.tree_d = meter([&] { circuit.step_tree_d(cs, 0, top, v.data_leaf); });
  l.parents = meter([&] { circuit.step_parents(cs, 0, top, v); });
  l.challenge = meter([&] { v.challenge_bits = circuit.step_challenge(cs, 0); });
  std::vector<porep_ops::num_t> labels;
  for (unsigned layer = 1; layer <= circuit.shape().layers; ++layer) {
    l.labels.push_back(meter([&] { labels.push_back(circuit.step_label(cs, 0, layer, top, v)); }));
  }
  l.tail = meter([&] { circuit.step_tail(cs, 0, top, v.data_leaf, labels); });
  l.block_rows = l.tail.row_end;
  l.block_aux = l.tail.aux_end;
  l.block_inputs = l.tail.input_end;
  return l;
}

}  // namespace cuzk::circuits
