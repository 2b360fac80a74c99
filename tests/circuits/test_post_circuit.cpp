// The fallback PoSt circuit (WindowPoSt, WinningPoSt) against rust-fil-proofs:
//  - storage-proofs-post/tests/fallback_circuit.rs: every (inputs,
//    constraints) pair its six circuit tests assert, on real witnesses in the
//    test system, public inputs compared with generate_public_inputs' layout
//    (short partitions included), and the ignored BenchCS test's 266,665
//    constraints for 5 sectors x 10 challenges of a base-only 8-ary 32 GiB tree;
//  - filecoin-proofs constants.rs: 125,279,217 and 129,887,900 constraints
//    for the 32 GiB and 64 GiB Window partitions;
//  - the official verifying keys' IC counts (FILECOIN_FORMATS.md §5): 23 at
//    2 KiB Window, 133 at 2 KiB Winning;
//  - the derived production counts of post_counts.md;
//  - a satisfied 2 KiB witness, and a flipped sibling, leaf or comm_c caught
//    by the constraint that should catch it;
//  - the compiled path (post_synthesis.hpp: one block's matrices, values per
//    block in parallel) bit-identical to plain witness synthesis, and its
//    setup columns to a key-generation pass;
//  - a Groth16 prove + verify of the 2 KiB Window and Winning partitions.
// Counts here are circuit rows as bellperson's TestConstraintSystem and
// BenchCS report them (no x * 0 = 0 input rows); inputs include ONE.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>

#include "circuits/circuit_model.hpp"
#include "circuits/circuit_registry.hpp"
#include "circuits/post_circuit.hpp"
#include "circuits/post_partition_circuit_t.hpp"
#include "circuits/post_public_inputs.hpp"
#include "circuits/post_synthesis.hpp"
#include "gpu/device.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/prover_checks.hpp"
#include "gpu/rows_emulation.hpp"
#include "porep/post_shape.hpp"
#include "gadgets/poseidon_native.hpp"
#include "groth16/groth16.hpp"
#include "porep/merkle.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using circuits::post_circuit;
using ff::fr_t;
using porep::post_kind_t;
using porep::post_sector_proof_t;
using porep::post_shape_t;

namespace {

constexpr std::uint64_t kib = 1024, mib = kib * kib, gib = mib * kib;

// The tree shape of upstream's tests, which production sizes do not have:
// base trees of `base_leaves` leaves (arity 8), `base_trees` of them under a
// sub level (and a top level). sector_params_t is a plain struct, so a test
// sets the shape directly.
porep::sector_params_t test_tree(std::uint64_t base_leaves, unsigned sub_arity, unsigned top_arity) {
  porep::sector_params_t p;
  p.base_arity = 8;
  p.sub_arity = sub_arity;
  p.top_arity = top_arity;
  p.base_tree_leaves = base_leaves;
  p.base_tree_count = (sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1);
  p.nodes = base_leaves * p.base_tree_count;
  p.sector_bytes = p.nodes * porep::node_bytes;
  return p;
}

post_shape_t window_shape(porep::sector_params_t tree, unsigned sectors, unsigned challenges) {
  return {post_kind_t::window, tree, sectors, challenges};
}

// One sector with random leaves and comm_c, its Tree R built natively, and
// `challenges` random leaf indices opened.
struct test_sector_t {
  std::vector<unsigned> arities;
  std::unique_ptr<porep::merkle_tree_t> tree;
  fr_t comm_c;
};

test_sector_t make_sector(const porep::sector_params_t& p, std::mt19937_64& rng) {
  test_sector_t s{p.tree_cr_arities(), nullptr, fr_t::random(rng)};
  std::vector<fr_t> leaves(p.nodes);
  for (auto& l : leaves) l = fr_t::random(rng);
  s.tree = std::make_unique<porep::merkle_tree_t>(porep::tree_hash_t::poseidon, s.arities, std::move(leaves));
  return s;
}

post_sector_proof_t open_sector(const test_sector_t& s, std::uint64_t id, const porep::sector_params_t& p,
                                unsigned challenges, std::mt19937_64& rng) {
  post_sector_proof_t out;
  out.sector_id = id;
  out.comm_c = s.comm_c;
  out.comm_r_last = s.tree->root();
  const fr_t pre[2] = {s.comm_c, s.tree->root()};
  out.comm_r = gadgets::poseidon_hash(std::span<const fr_t>(pre));
  for (unsigned n = 0; n < challenges; ++n) {
    const std::uint64_t leaf = rng() % p.nodes;
    out.challenges.push_back({leaf, s.tree->leaf(leaf), s.tree->path(leaf)});
  }
  return out;
}

r1cs::test_cs synthesize_test(const post_circuit& c) {
  r1cs::test_cs cs;
  c.synthesize(cs);
  return cs;
}

r1cs::shape_counts_t full_shape(const post_circuit& c) {
  r1cs::shape_cs cs;
  c.synthesize(cs);
  return cs.counts();
}

// The circuit's input assignment equals post_public_inputs.
void expect_inputs_match(const r1cs::test_cs& cs, const post_circuit& c) {
  const auto expected = c.public_inputs();
  const auto& got = cs.input_values();
  ASSERT_EQ(got.size(), expected.size() + 1);
  EXPECT_TRUE(got[0] == fr_t::one());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_TRUE(got[i + 1] == expected[i]) << "input " << i + 1;
  EXPECT_TRUE(cs.verify(expected));
}

// tests/fallback_circuit.rs test_fallback_post: total_sector_count sectors of
// 64 * base_tree_count leaves, challenge_count 5, sector_count per
// partition, one circuit per partition (the last one padded).
void upstream_fallback_test(porep::sector_params_t tree, unsigned total_sectors, unsigned sector_count,
                            unsigned partitions, std::size_t expected_inputs, std::size_t expected_constraints) {
  std::mt19937_64 rng(test::seed("PostCircuit upstream " + std::to_string(tree.nodes) + " leaves, " +
                                 std::to_string(total_sectors) + " sectors"));
  const post_shape_t shape = window_shape(tree, sector_count, 5);
  std::vector<post_sector_proof_t> all;
  for (unsigned i = 0; i < total_sectors; ++i) all.push_back(open_sector(make_sector(tree, rng), i, tree, 5, rng));
  ASSERT_LE(total_sectors, partitions * sector_count);
  for (unsigned j = 0; j < partitions; ++j) {
    auto w = std::make_shared<post_circuit::witness_t>(
        all.begin() + j * sector_count, all.begin() + std::min<std::size_t>(all.size(), (j + 1) * sector_count));
    const post_circuit c(shape, w);
    const auto cs = synthesize_test(c);
    const auto bad = cs.which_is_unsatisfied();
    EXPECT_FALSE(bad) << *bad;
    EXPECT_EQ(cs.num_inputs(), expected_inputs) << "partition " << j;
    EXPECT_EQ(cs.num_constraints(), expected_constraints) << "partition " << j;
    EXPECT_EQ(c.counts(), cs.counts()) << "partition " << j;
    expect_inputs_match(cs, c);
  }
}

struct fixture_2k_t {
  porep::sector_params_t params = porep::sector_params_for(2 * kib);
  std::vector<test_sector_t> sectors;
  std::vector<post_sector_proof_t> window;   // 2 sectors x 10 challenges
  std::vector<post_sector_proof_t> winning;  // 1 sector x 66 challenges
};

const fixture_2k_t& two_kib() {
  static const fixture_2k_t f = [] {
    fixture_2k_t f;
    std::mt19937_64 rng(test::seed("PostCircuit 2KiB sectors"));
    for (int i = 0; i < 2; ++i) f.sectors.push_back(make_sector(f.params, rng));
    for (int i = 0; i < 2; ++i) f.window.push_back(open_sector(f.sectors[i], 10 + i, f.params, 10, rng));
    f.winning.push_back(open_sector(f.sectors[0], 10, f.params, 66, rng));
    return f;
  }();
  return f;
}

post_circuit window_2k(std::vector<post_sector_proof_t> w) {
  return post_circuit(porep::post_shape_for(post_kind_t::window, 2 * kib),
                      std::make_shared<const post_circuit::witness_t>(std::move(w)));
}

std::string first_failure(const post_circuit& c) {
  const auto bad = synthesize_test(c).which_is_unsatisfied();
  return bad ? *bad : "";
}

}  // namespace

// constants.rs: WINDOW_POST_SECTOR_COUNT, WINDOW_POST_CHALLENGE_COUNT,
// WINNING_POST_CHALLENGE_COUNT / _SECTOR_COUNT; parameters.rs: the circuit
// geometry (Winning 66 sector blocks x 1 challenge).
TEST(PostShape, ProductionShapesFollowConstantsRs) {
  for (std::uint64_t b : {2 * kib, 8 * mib, 512 * mib, 32 * gib, 64 * gib}) {
    const auto w = porep::post_shape_for(post_kind_t::window, b);
    EXPECT_EQ(w.sectors_per_partition, b == 32 * gib ? 2349u : b == 64 * gib ? 2300u : 2u) << b;
    EXPECT_EQ(w.challenges_per_sector, 10u);
    EXPECT_EQ(circuits::post_circuit_params(w).sector_count, w.sectors_per_partition);
    EXPECT_EQ(circuits::post_circuit_params(w).challenge_count, 10u);
    const auto g = porep::post_shape_for(post_kind_t::winning, b);
    EXPECT_EQ(g.sectors_per_partition, 1u);
    EXPECT_EQ(g.challenges_per_sector, 66u);
    EXPECT_EQ(circuits::post_circuit_params(g).sector_count, 66u);
    EXPECT_EQ(circuits::post_circuit_params(g).challenge_count, 1u);
  }
  EXPECT_THROW(porep::post_shape_for(post_kind_t::window, 4 * kib), std::invalid_argument);
}

TEST(PostCircuitUpstream, SinglePartitionBase8) {
  upstream_fallback_test(test_tree(64, 0, 0), 3, 3, 1, 19, 16'869);
}
TEST(PostCircuitUpstream, SinglePartitionSub8x4) {
  upstream_fallback_test(test_tree(64, 4, 0), 3, 3, 1, 19, 22'674);
}
TEST(PostCircuitUpstream, SinglePartitionTop8x4x2) {
  upstream_fallback_test(test_tree(64, 4, 2), 3, 3, 1, 19, 27'384);
}
TEST(PostCircuitUpstream, TwoPartitionsBase8) {
  upstream_fallback_test(test_tree(64, 0, 0), 4, 2, 2, 13, 11'246);
}
TEST(PostCircuitUpstream, SinglePartitionSmallerBase8) {
  upstream_fallback_test(test_tree(64, 0, 0), 2, 3, 1, 19, 16'869);
}
TEST(PostCircuitUpstream, TwoPartitionsSmallerBase8) {
  upstream_fallback_test(test_tree(64, 0, 0), 5, 3, 2, 19, 16'869);
}

// test_fallback_post_circuit_poseidon_base_8_bench_cs: blank circuit,
// DiskTree<Poseidon, U8, U0, U0> of a 32 GiB sector, 5 sectors x 10 challenges.
TEST(PostCircuitUpstream, BenchCsBase8ThirtyTwoGiB) {
  const post_circuit c(window_shape(test_tree(std::uint64_t(1) << 30, 0, 0), 5, 10));
  ASSERT_EQ(c.tree_arities().size(), 10u);
  const auto full = full_shape(c);
  EXPECT_EQ(full.num_constraints, 266'665u);
  EXPECT_EQ(full.num_inputs, 1u + 5 * 11);
  EXPECT_EQ(c.counts(), full);
}

// constants.rs: "this gives 125,279,217 constraints" (32 GiB, 2349 sectors),
// "129,887,900" (64 GiB, 2300); then post_counts.md for every size and kind.
TEST(PostCircuitCounts, ProductionTotals) {
  struct row_t {
    post_kind_t kind;
    std::uint64_t bytes;
    r1cs::shape_counts_t counts;  // rows (no input rows), inputs with ONE, aux
  };
  const row_t rows[] = {
      {post_kind_t::window, 2 * kib, {21'866, 23, 22'128}},
      {post_kind_t::window, 8 * mib, {64'266, 23, 65'088}},
      {post_kind_t::window, 512 * mib, {85'466, 23, 86'568}},
      {post_kind_t::window, 32 * gib, {125'279'217, 25'840, 126'902'376}},
      {post_kind_t::window, 64 * gib, {129'887'900, 25'301, 131'500'200}},
      {post_kind_t::winning, 2 * kib, {90'750, 133, 91'674}},
      {post_kind_t::winning, 8 * mib, {230'670, 133, 233'442}},
      {post_kind_t::winning, 512 * mib, {300'630, 133, 304'326}},
      {post_kind_t::winning, 32 * gib, {370'590, 133, 375'210}},
      {post_kind_t::winning, 64 * gib, {391'314, 133, 396'000}},
  };
  for (const auto& r : rows) {
    const post_circuit c(porep::post_shape_for(r.kind, r.bytes));
    const auto got = c.counts();
    EXPECT_EQ(got.num_constraints, r.counts.num_constraints) << c.description();
    EXPECT_EQ(got.num_inputs, r.counts.num_inputs) << c.description();
    EXPECT_EQ(got.num_aux, r.counts.num_aux) << c.description();
    // The registry's any_circuit adds the input rows, as the prover does.
    const auto any = circuits::make_circuit(circuits::post_kind_name(r.kind), r.bytes);
    EXPECT_EQ(any->prove_shape().num_constraints, got.num_constraints + got.num_inputs);
  }
}

// counts() multiplies one block; a full pass over every block agrees (the
// 32 / 64 GiB Window partitions, 2349 / 2300 blocks, are counted per block only).
TEST(PostCircuitCounts, BlockTimesCountEqualsFullShapeSynthesis) {
  const std::pair<post_kind_t, std::uint64_t> cases[] = {{post_kind_t::window, 2 * kib},
                                                         {post_kind_t::window, 512 * mib},
                                                         {post_kind_t::winning, 2 * kib},
                                                         {post_kind_t::winning, 64 * gib}};
  for (const auto& [k, b] : cases) {
    const post_circuit c(porep::post_shape_for(k, b));
    EXPECT_EQ(c.counts(), full_shape(c)) << c.description();
  }
}

TEST(PostCircuit, TwoKiBWindowSatisfiedAndInputsMatch) {
  const post_circuit c = window_2k(two_kib().window);
  const auto cs = synthesize_test(c);
  const auto bad = cs.which_is_unsatisfied();
  EXPECT_FALSE(bad) << *bad;
  EXPECT_EQ(cs.counts(), c.counts());
  expect_inputs_match(cs, c);
  // Inputs in upstream order: comm_r of sector 0, its 10 leaves, sector 1's.
  const auto in = c.public_inputs();
  ASSERT_EQ(in.size(), 22u);
  EXPECT_TRUE(in[0] == two_kib().window[0].comm_r);
  EXPECT_TRUE(in[1] == fr_t::from_u64(two_kib().window[0].challenges[0].leaf_index));
  EXPECT_TRUE(in[11] == two_kib().window[1].comm_r);
  EXPECT_TRUE(in[21] == fr_t::from_u64(two_kib().window[1].challenges[9].leaf_index));
}

TEST(PostCircuit, ShortWindowPartitionRepeatsLastSector) {
  const post_circuit c = window_2k({two_kib().window[1]});
  const auto cs = synthesize_test(c);
  EXPECT_TRUE(cs.is_satisfied());
  expect_inputs_match(cs, c);
  const auto in = c.public_inputs();
  ASSERT_EQ(in.size(), 22u);
  for (std::size_t i = 0; i < 11; ++i) EXPECT_TRUE(in[i] == in[11 + i]) << i;
}

TEST(PostCircuit, TwoKiBWinningUnrollsSixtySixChallenges) {
  const auto shape = porep::post_shape_for(post_kind_t::winning, 2 * kib);
  const post_circuit c(shape, std::make_shared<const post_circuit::witness_t>(two_kib().winning));
  const auto cs = synthesize_test(c);
  const auto bad = cs.which_is_unsatisfied();
  EXPECT_FALSE(bad) << *bad;
  EXPECT_EQ(cs.num_inputs(), 133u);
  EXPECT_EQ(cs.counts(), c.counts());
  expect_inputs_match(cs, c);
  const auto in = c.public_inputs();
  const auto& s = two_kib().winning[0];
  for (std::size_t n = 0; n < 66; ++n) {
    EXPECT_TRUE(in[2 * n] == s.comm_r) << n;
    EXPECT_TRUE(in[2 * n + 1] == fr_t::from_u64(s.challenges[n].leaf_index)) << n;
  }
}

TEST(PostCircuit, FlippedSiblingLeafOrCommCIsNamed) {
  auto w = two_kib().window;
  w[1].challenges[3].path.siblings[1][2] += fr_t::one();
  EXPECT_EQ(first_failure(window_2k(w)), "outer namespace/sector_1/challenge_inclusion_3/enforce root is correct");

  w = two_kib().window;
  w[0].challenges[7].leaf += fr_t::one();
  EXPECT_EQ(first_failure(window_2k(w)), "outer namespace/sector_0/challenge_inclusion_7/enforce root is correct");

  w = two_kib().window;
  w[1].comm_c += fr_t::one();
  EXPECT_EQ(first_failure(window_2k(w)),
            "outer namespace/sector_1/enforce_comm_c_comm_r_last_hash_comm_r/equal");

  // A leaf index that does not match the path's slots: the packed input is
  // the claimed index, so the path hashes to another root.
  w = two_kib().window;
  w[0].challenges[0].leaf_index ^= 1;
  EXPECT_EQ(first_failure(window_2k(w)), "outer namespace/sector_0/challenge_inclusion_0/enforce root is correct");
}

TEST(PostCircuit, MalformedWitnessIsRejected) {
  const auto shape = porep::post_shape_for(post_kind_t::window, 2 * kib);
  auto make = [&](std::vector<post_sector_proof_t> w) {
    return post_circuit(shape, std::make_shared<const post_circuit::witness_t>(std::move(w)));
  };
  EXPECT_THROW(make({}), std::invalid_argument);
  auto w = two_kib().window;
  w.push_back(w[0]);
  EXPECT_THROW(make(w), std::invalid_argument);  // 3 sectors > 2
  w = two_kib().window;
  w[0].challenges.pop_back();
  EXPECT_THROW(make(w), std::invalid_argument);
  w = two_kib().window;
  w[0].challenges[0].leaf_index = 64;
  EXPECT_THROW(make(w), std::invalid_argument);
  w = two_kib().window;
  w[0].challenges[0].path.siblings[0].pop_back();
  EXPECT_THROW(make(w), std::invalid_argument);
  EXPECT_THROW(circuits::post_public_inputs(shape, {}), std::invalid_argument);
}

// The PoSt inclusion gadget (which adds 4-ary levels for upstream's test
// trees) emits the same matrices as gadgets::merkle_inclusion_gadget, the
// Tree R inclusion of the PoRep circuit, on the production arities.
TEST(PostCircuit, InclusionMatchesPorepMerkleGadgetMatrices) {
  for (const std::vector<unsigned>& arities :
       {std::vector<unsigned>{8, 8}, std::vector<unsigned>(10, 8), std::vector<unsigned>{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 2}}) {
    const std::size_t base = arities.back() == 2 ? arities.size() - 2 : arities.size();
    auto run = [&](bool post) {
      r1cs::keygen_cs cs;
      const auto leaf = gadgets::allocated_num_t::alloc(cs, std::nullopt);
      const auto root = gadgets::allocated_num_t::alloc(cs, std::nullopt);
      if (post) {
        circuits::post_ops::tree_r_inclusion(cs, leaf, root, arities, base, nullptr, std::nullopt);
      } else {
        std::vector<std::size_t> a(arities.begin(), arities.end());
        gadgets::merkle_inclusion_gadget(cs, gadgets::merkle_hasher_t::poseidon, leaf, gadgets::empty_merkle_path(a),
                                         root);
      }
      return cs;
    };
    const auto p = run(true), q = run(false);
    ASSERT_EQ(p.counts(), q.counts());
    for (const auto& [mp, mq] : {std::pair{p.a_columns(), q.a_columns()}, std::pair{p.b_columns(), q.b_columns()},
                                 std::pair{p.c_columns(), q.c_columns()}}) {
      ASSERT_EQ(mp.num_columns(), mq.num_columns());
      for (std::size_t j = 0; j < mp.num_columns(); ++j) {
        const auto cp = mp.column(j), cq = mq.column(j);
        ASSERT_TRUE(std::equal(cp.begin(), cp.end(), cq.begin(), cq.end())) << "column " << j;
      }
    }
  }
}

// The compiled path against plain witness mode (r1cs::witness_cs, input
// rows added): inputs, aux, every row of a, b, c and the four density
// bitmaps, for the 2 KiB Window partition (full and short), the 2 KiB
// Winning partition (66 blocks) and upstream's 8-4-2 test tree (4-ary and
// 2-ary levels).
namespace {
std::vector<std::uint64_t> words(const r1cs::density_tracker& d) { return {d.words().begin(), d.words().end()}; }

void expect_compiled_matches_plain(const post_circuit& c) {
  const circuits::post_partition_circuit_t compiled(c);
  r1cs::witness_cs plain;
  c.synthesize(plain);
  plain.add_input_constraints();
  ASSERT_EQ(compiled.prove_shape(), plain.counts()) << c.description();
  const circuits::porep_witness_t w = circuits::synthesize_post_compiled(c, compiled.compiled());
  ASSERT_EQ(w.a.size(), plain.num_constraints());
  EXPECT_TRUE(std::ranges::equal(w.inputs, plain.input_assignment())) << c.description();
  EXPECT_TRUE(std::ranges::equal(w.aux, plain.aux_assignment())) << c.description();
  for (std::size_t i = 0; i < w.a.size(); ++i) {
    if (!(w.a[i] == plain.a()[i] && w.b[i] == plain.b()[i] && w.c[i] == plain.c()[i])) {
      FAIL() << c.description() << ": row " << i << " differs";
    }
  }
  EXPECT_EQ(w.a_aux_density, words(plain.a_aux_density()));
  EXPECT_EQ(w.b_aux_density, words(plain.b_aux_density()));
  EXPECT_EQ(w.a_input_density, words(plain.a_input_density()));
  EXPECT_EQ(w.b_input_density, words(plain.b_input_density()));
  // What the engine proves: the compiled witness, handed over whole.
  r1cs::witness_cs handed = compiled.prove_witness(compiled.prove_shape());
  EXPECT_EQ(handed.counts(), plain.counts());
  EXPECT_TRUE(std::ranges::equal(handed.c(), plain.c()));
  EXPECT_NO_THROW(groth16::check_witness_rows(handed));
  // The compact path: the assignment packed, no rows until materialize(),
  // then the same witness.
  r1cs::witness_cs compact = compiled.prove_witness_compact(compiled.prove_shape());
  ASSERT_TRUE(compact.is_deferred());
  EXPECT_EQ(compact.counts(), plain.counts());
  EXPECT_TRUE(compact.a().empty());
  // The rows' bound on values other than 0 and 1 holds for a satisfying witness.
  EXPECT_LE(compact.compact_aux().wide_count(), compiled.compiled().wide_aux_bound()) << c.description();
  EXPECT_LT(compact.bytes(), handed.bytes() / 4) << c.description();
  EXPECT_TRUE(std::ranges::equal(compact.compact_aux().unpack(), plain.aux_assignment()));
  groth16::check_witness_rows(compact);  // nothing to check yet
  EXPECT_FALSE(compact.rows_checked());
  // The device's row code, emulated on the host: the same rows, a satisfied witness.
  ASSERT_NE(compact.row_evaluator()->view(), nullptr);
  const test::emulated_rows_t emulated =
      test::emulate_form_rows(*compact.row_evaluator()->view(), compact.input_assignment(), compact.compact_aux());
  EXPECT_TRUE(std::ranges::equal(emulated.a, plain.a())) << c.description();
  EXPECT_TRUE(std::ranges::equal(emulated.b, plain.b())) << c.description();
  EXPECT_TRUE(std::ranges::equal(emulated.c, plain.c())) << c.description();
  EXPECT_TRUE(std::ranges::equal(emulated.aux, plain.aux_assignment())) << c.description();
  EXPECT_EQ(emulated.first_unsatisfied, SIZE_MAX) << c.description();
  compact.materialize();
  ASSERT_FALSE(compact.is_deferred());
  EXPECT_TRUE(std::ranges::equal(compact.input_assignment(), plain.input_assignment()));
  EXPECT_TRUE(std::ranges::equal(compact.aux_assignment(), plain.aux_assignment()));
  EXPECT_TRUE(std::ranges::equal(compact.a(), plain.a()));
  EXPECT_TRUE(std::ranges::equal(compact.b(), plain.b()));
  EXPECT_TRUE(std::ranges::equal(compact.c(), plain.c()));
  EXPECT_EQ(words(compact.a_aux_density()), words(plain.a_aux_density()));
  EXPECT_EQ(words(compact.b_aux_density()), words(plain.b_aux_density()));
  EXPECT_EQ(words(compact.a_input_density()), words(plain.a_input_density()));
  EXPECT_EQ(words(compact.b_input_density()), words(plain.b_input_density()));
}
}  // namespace

TEST(PostSynthesis, CompiledWitnessMatchesPlainWitnessMode) {
  expect_compiled_matches_plain(window_2k(two_kib().window));
  expect_compiled_matches_plain(window_2k({two_kib().window[1]}));
  expect_compiled_matches_plain(post_circuit(porep::post_shape_for(post_kind_t::winning, 2 * kib),
                                             std::make_shared<const post_circuit::witness_t>(two_kib().winning)));
  const std::uint64_t seed = test::seed("PostSynthesis 8-4-2");
  std::mt19937_64 rng(seed);
  const auto tree = test_tree(64, 4, 2);
  auto w = std::make_shared<post_circuit::witness_t>();
  for (unsigned i = 0; i < 3; ++i) w->push_back(open_sector(make_sector(tree, rng), i, tree, 5, rng));
  expect_compiled_matches_plain(post_circuit(window_shape(tree, 3, 5), w));
}

// A corrupted opening still gives an unsatisfied compiled witness: the rows
// come from the matrices, not from the values, so the engine's row check
// (check_witness_rows, before any MSM) refuses it, naming a row of the
// corrupted sector's block.
// The compact witness is refused the same way when the prover forms its
// rows (take_checked_evaluations), before any MSM.
TEST(PostSynthesis, CorruptedOpeningFailsTheRowCheck) {
  auto sectors = two_kib().window;
  sectors[1].challenges[3].path.siblings[1][2] += fr_t::one();
  const circuits::post_partition_circuit_t c(window_2k(sectors));
  const auto& l = c.compiled().layout();
  auto expect_block_1 = [&](const std::string& what) {
    // "... constraint N ...": a row of sector block 1, whose opening is bad.
    const auto at = what.find("constraint ");
    ASSERT_NE(at, std::string::npos) << what;
    const std::size_t row = std::stoull(what.substr(at + 11));
    EXPECT_GE(row, l.block_rows) << what;
    EXPECT_LT(row, 2 * l.block_rows) << what;
  };
  r1cs::witness_cs w = c.prove_witness(c.prove_shape());
  try {
    groth16::check_witness_rows(w);
    FAIL() << "the corrupted sibling was not caught";
  } catch (const std::invalid_argument& e) {
    expect_block_1(e.what());
  }
  r1cs::witness_cs compact = c.prove_witness_compact(c.prove_shape());
  try {
    compact.materialize();
    groth16::check_witness_rows(compact);
    FAIL() << "the corrupted sibling was not caught in the compact witness";
  } catch (const std::invalid_argument& e) {
    expect_block_1(e.what());
  }
}

// The setup's columns from the compiled matrices equal a key-generation
// pass's, at random row values (the map is linear; random values make every
// row count), and one changed row value changes them.
TEST(PostSynthesis, CompiledQapColumnsMatchKeygenPass) {
  const auto shape = porep::post_shape_for(post_kind_t::window, 2 * kib);
  const circuits::post_partition_circuit_t compiled{post_circuit(shape)};
  const circuits::circuit_model<post_circuit> generic("window-post", post_circuit(shape));
  const r1cs::shape_counts_t counts = compiled.prove_shape();
  ASSERT_EQ(counts, generic.prove_shape());
  const std::uint64_t seed = test::seed("PostQapColumns");
  groth16::seeded_rng rng(seed);
  std::vector<fr_t> rows(counts.num_constraints);
  for (auto& v : rows) v = fr_t::random(rng);
  const r1cs::qap_columns_t want = generic.qap_columns(rows), got = compiled.qap_columns(rows);
  ASSERT_EQ(got.a.size(), counts.num_inputs + counts.num_aux);
  ASSERT_EQ(want.a.size(), got.a.size());
  for (std::size_t j = 0; j < got.a.size(); ++j) {
    if (!(got.a[j] == want.a[j] && got.b[j] == want.b[j] && got.c[j] == want.c[j])) {
      FAIL() << "column " << j << " differs (seed " << seed << ")";
    }
  }
  rows[counts.num_constraints / 3] += fr_t::one();
  EXPECT_NE(compiled.qap_columns(rows), got);
}

// The compiled form is one block's rows: 32 GiB Window (2349 blocks of
// 53,333 rows) compiles in milliseconds, sized as constants.rs counts it.
TEST(PostSynthesis, ThirtyTwoGiBWindowCompilesToOneBlock) {
  const circuits::post_partition_circuit_t c{post_circuit(porep::post_shape_for(post_kind_t::window, 32 * gib))};
  const auto& l = c.compiled().layout();
  EXPECT_EQ(l.block_rows, 53'333u);
  EXPECT_EQ(l.challenges, 2349u);
  EXPECT_EQ(l.circuit_rows(), 125'279'217u);
  EXPECT_EQ(c.prove_shape().num_constraints, 125'279'217u + l.num_inputs());
  EXPECT_LT(c.compiled().bytes(), std::size_t(64) << 20);
}

// Groth16 on the CPU: setup from the registry's blank circuit, prove from
// the witness, verify with the inputs derived from comm_r and the leaves;
// another sector's inputs fail.
namespace {
void prove_and_verify(post_kind_t kind, const std::vector<post_sector_proof_t>& witness, std::uint64_t seed) {
  const auto t0 = std::chrono::steady_clock::now();
  groth16::seeded_rng rng(seed);
  const auto blank = circuits::make_circuit(circuits::post_kind_name(kind), 2 * kib);
  const auto params = groth16::generate_parameters(*blank, groth16::toxic_waste_t::random(rng));
  const auto shape = porep::post_shape_for(kind, 2 * kib);
  ASSERT_EQ(params.vk.ic.size(), post_circuit(shape).counts().num_inputs);
  const circuits::post_partition_circuit_t circuit(
      post_circuit(shape, std::make_shared<const post_circuit::witness_t>(witness)));
  const auto t1 = std::chrono::steady_clock::now();
  const auto proof = groth16::prove(params, circuit, rng);
  const auto t2 = std::chrono::steady_clock::now();
  // The compact witness proves to the same bytes for the same r and s.
  {
    const fr_t r = fr_t::random(rng), s = fr_t::random(rng);
    auto eager = groth16::prove_start(params, circuit.prove_witness(circuit.prove_shape()));
    r1cs::witness_cs compact = circuit.prove_witness_compact(circuit.prove_shape());
    ASSERT_TRUE(compact.is_deferred());
    auto deferred = groth16::prove_start(params, std::move(compact));
    EXPECT_EQ(deferred.stage_ms.front().first, "rows");
    EXPECT_EQ(groth16::finalize(params, std::move(deferred), r, s).encode(),
              groth16::finalize(params, std::move(eager), r, s).encode());
    // One aux value changed in the compact form: prove_start refuses it as
    // unsatisfied (what the engine fails a job on without retrying).
    r1cs::witness_cs good = circuit.prove_witness_compact(circuit.prove_shape());
    r1cs::fr_vector aux = good.compact_aux().unpack();
    aux[aux.size() / 2] += fr_t::one();
    r1cs::witness_cs bad = r1cs::witness_cs::deferred(good.input_assignment(), r1cs::compact_assignment_t::pack(aux),
                                                      good.row_evaluator());
    EXPECT_THROW(groth16::prove_start(params, std::move(bad)), groth16::unsatisfied_witness);
    // On a GPU the compact witness's rows are formed and checked there: the
    // same bytes, and the same refusal before any MSM.
    if (gpu::device_count() > 0) {
      const groth16::gpu_prover_t gpu(params);
      auto on_gpu = gpu.prove_start(circuit.prove_witness_compact(circuit.prove_shape()));
      std::vector<std::string> steps;
      for (const auto& [name, ms] : on_gpu.stage_ms) steps.push_back(name);
      EXPECT_NE(std::ranges::find(steps, "rows.form"), steps.end());
      EXPECT_GT(gpu.device_rows_bytes(), 0u);
      auto eager2 = groth16::prove_start(params, circuit.prove_witness(circuit.prove_shape()));
      EXPECT_EQ(groth16::finalize(params, std::move(on_gpu), r, s).encode(),
                groth16::finalize(params, std::move(eager2), r, s).encode());
      r1cs::witness_cs bad2 = r1cs::witness_cs::deferred(good.input_assignment(),
                                                         r1cs::compact_assignment_t::pack(aux), good.row_evaluator());
      EXPECT_THROW(gpu.prove_start(std::move(bad2)), groth16::unsatisfied_witness);
    } else {
      std::cout << "[post prove] no GPU: the device-rows proof was not checked\n";
    }
  }
  auto inputs = circuits::post_public_inputs(shape, circuits::post_public_sectors(witness));
  EXPECT_TRUE(groth16::verify(params.vk, proof, inputs));
  inputs[0] += fr_t::one();  // another comm_r
  EXPECT_FALSE(groth16::verify(params.vk, proof, inputs));
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::cout << "[post prove] " << circuit.description() << ": setup " << ms(t0, t1) << " ms, prove " << ms(t1, t2)
            << " ms\n";
}
}  // namespace

TEST(PostProve, TwoKiBWindowProvesAndVerifies) {
  prove_and_verify(post_kind_t::window, two_kib().window, test::seed("PostProve window"));
}

// 90,883 rows (domain 2^17): about 18 s of setup and 9 s of proving on 2
// shared cores, so not in the default run; --gtest_also_run_disabled_tests.
TEST(PostProve, DISABLED_TwoKiBWinningProvesAndVerifies) {
  prove_and_verify(post_kind_t::winning, two_kib().winning, test::seed("PostProve winning"));
}
