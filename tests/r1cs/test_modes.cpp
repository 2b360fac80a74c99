// The four constraint-system modes on hand-built and random circuits: counts
// agree, laziness holds (no names or values where a mode does not need them),
// densities match hand-derived bitmaps, and the witness mode's a, b, c equal
// keygen's column matrices multiplied by the assignment (an independent path).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "r1cs/r1cs.hpp"
#include "r1cs/uninit_allocator.hpp"
#include "test_seed.hpp"

namespace {
// witness_cs keeps r1cs::fr_vector (another allocator); compare as std::vector.
template <class V>
std::vector<cuzk::ff::fr_t> as_std(const V& v) {
  return {v.begin(), v.end()};
}
}  // namespace

using namespace cuzk::r1cs;
using cuzk::ff::fr_t;
using lc_t = linear_combination_t;

namespace {

struct call_counts {
  int names = 0, values = 0, lcs = 0;
};

// Inputs ONE=0, p=1, q=2; aux x=0, y=1, z=2, u=3 (unconstrained), w=4 (zero coefficient only).
struct hand_circuit {
  fr_t xv = fr_t::from_u64(6), yv = fr_t::from_u64(7);
  call_counts* calls;

  template <constraint_system CS>
  void synthesize(CS& cs) const {
    auto name = [this](const char* s) { return [this, s] { ++calls->names; return std::string(s); }; };
    auto val = [this](fr_t v) { return [this, v] { ++calls->values; return v; }; };
    auto lc = [this](auto f) { return [this, f](lc_t l) { ++calls->lcs; return f(std::move(l)); }; };
    variable_t p = cs.alloc_input(name("p"), val(xv * yv));
    variable_t q = cs.alloc_input(name("q"), val(xv + yv));
    variable_t x = cs.alloc(name("x"), val(xv));
    variable_t y = cs.alloc(name("y"), val(yv));
    namespace_guard ns(cs, name("mul"));
    variable_t z = cs.alloc(name("z"), val(xv * yv));
    cs.alloc(name("u"), val(fr_t::from_u64(11)));
    variable_t w = cs.alloc(name("w"), val(fr_t::from_u64(9)));
    cs.enforce(name("x*y=p"), lc([=](lc_t l) { return l + x + fr_t::zero() * w; }),
               lc([=](lc_t l) { return l + y; }), lc([=](lc_t l) { return l + p; }));
    cs.enforce(name("x*y=z"), lc([=](lc_t l) { return l + x; }), lc([=](lc_t l) { return l + y; }),
               lc([=](lc_t l) { return l + z; }));
    cs.enforce(name("q=x+y"), lc([=](lc_t l) { return l + cs.one(); }), lc([=](lc_t l) { return l + x + y; }),
               lc([=](lc_t l) { return l + q; }));
    cs.enforce(name("z=p"), lc([=](lc_t l) { return l + z; }), lc([=](lc_t l) { return l + cs.one(); }),
               lc([=](lc_t l) { return l + p; }));
  }
};

std::vector<bool> bits(const density_tracker& d) {
  std::vector<bool> v(d.size());
  for (size_t i = 0; i < d.size(); ++i) v[i] = d.get(i);
  return v;
}

// A random system with random LCs (unit, zero and repeated terms included);
// not satisfiable, which the witness/keygen comparison does not need.
struct random_circuit {
  uint64_t seed;
  size_t n_inputs = 6, n_aux = 40, n_constraints = 60;

  template <constraint_system CS>
  void synthesize(CS& cs) const {
    std::mt19937_64 rng(seed);
    std::vector<variable_t> vars;
    for (size_t i = 0; i < n_inputs; ++i) vars.push_back(cs.alloc_input("in", [&] { return fr_t::random(rng); }));
    for (size_t i = 0; i < n_aux; ++i) vars.push_back(cs.alloc("aux", [&] { return fr_t::random(rng); }));
    // Value callables consume rng only in value modes, so draw the structure from a second stream.
    std::mt19937_64 srng(seed ^ 0x5eed);
    auto random_lc = [&] {
      lc_t lc;
      size_t len = srng() % 7;
      for (size_t k = 0; k < len; ++k) {
        variable_t v = srng() % 5 == 0 ? cs.one() : vars[srng() % vars.size()];
        uint64_t kind = srng() % 6;
        fr_t c = kind == 0 ? fr_t::zero() : kind == 1 ? fr_t::one() : fr_t::random(srng);
        lc = lc + c * v;
      }
      return lc;
    };
    for (size_t i = 0; i < n_constraints; ++i) {
      lc_t a = random_lc(), b = random_lc(), c = random_lc();
      cs.enforce("k", [&](lc_t) { return a; }, [&](lc_t) { return b; }, [&](lc_t) { return c; });
    }
  }
};

void expect_witness_matches_keygen(const witness_cs& w, const keygen_cs& k) {
  ASSERT_EQ(w.counts(), k.counts());
  column_matrix a = k.a_columns(), b = k.b_columns(), c = k.c_columns();
  EXPECT_EQ(a.multiply(w.input_assignment(), w.aux_assignment()), as_std(w.a()));
  EXPECT_EQ(b.multiply(w.input_assignment(), w.aux_assignment()), as_std(w.b()));
  EXPECT_EQ(c.multiply(w.input_assignment(), w.aux_assignment()), as_std(w.c()));
  EXPECT_EQ(bits(a.input_density()), bits(w.a_input_density()));
  EXPECT_EQ(bits(a.aux_density()), bits(w.a_aux_density()));
  EXPECT_EQ(bits(b.input_density()), bits(w.b_input_density()));
  EXPECT_EQ(bits(b.aux_density()), bits(w.b_aux_density()));
}

}  // namespace

TEST(r1cs_modes, counts_agree_and_laziness_holds) {
  call_counts shape_calls, keygen_calls, witness_calls, test_calls;
  shape_cs s;
  hand_circuit{.calls = &shape_calls}.synthesize(s);
  keygen_cs k;
  hand_circuit{.calls = &keygen_calls}.synthesize(k);
  witness_cs w;
  hand_circuit{.calls = &witness_calls}.synthesize(w);
  test_cs t;
  hand_circuit{.calls = &test_calls}.synthesize(t);

  shape_counts_t want{4, 3, 5};
  EXPECT_EQ(s.counts(), want);
  EXPECT_EQ(k.counts(), want);
  EXPECT_EQ(w.counts(), want);
  EXPECT_EQ(t.counts(), want);

  EXPECT_EQ(shape_calls.names + shape_calls.values + shape_calls.lcs, 0);
  EXPECT_EQ(keygen_calls.names + keygen_calls.values, 0);
  EXPECT_EQ(keygen_calls.lcs, 12);
  EXPECT_EQ(witness_calls.names, 0);
  EXPECT_EQ(witness_calls.values, 7);
  EXPECT_EQ(witness_calls.lcs, 12);
  EXPECT_EQ(test_calls.names, 7 + 4 + 1);
  EXPECT_EQ(test_calls.values, 7);
}

TEST(r1cs_modes, witness_evaluations_and_densities_by_hand) {
  call_counts calls;
  hand_circuit circuit{.calls = &calls};
  witness_cs w;
  circuit.synthesize(w);
  fr_t x = circuit.xv, y = circuit.yv, one = fr_t::one(), zero = fr_t::zero();
  EXPECT_EQ(as_std(w.a()), (std::vector<fr_t>{x, x, one, x * y}));
  EXPECT_EQ(as_std(w.b()), (std::vector<fr_t>{y, y, x + y, one}));
  EXPECT_EQ(as_std(w.c()), (std::vector<fr_t>{x * y, x * y, x + y, x * y}));
  EXPECT_EQ(bits(w.a_input_density()), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(bits(w.a_aux_density()), (std::vector<bool>{true, false, true, false, false}));
  EXPECT_EQ(bits(w.b_input_density()), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(bits(w.b_aux_density()), (std::vector<bool>{true, true, false, false, false}));
  EXPECT_EQ(w.b_aux_density().total_density(), 2u);

  w.add_input_constraints();
  EXPECT_EQ(w.num_constraints(), 7u);
  EXPECT_EQ(std::vector<fr_t>(w.a().begin() + 4, w.a().end()), (std::vector<fr_t>{one, x * y, x + y}));
  EXPECT_EQ(std::vector<fr_t>(w.b().begin() + 4, w.b().end()), (std::vector<fr_t>(3, zero)));
  EXPECT_EQ(std::vector<fr_t>(w.c().begin() + 4, w.c().end()), (std::vector<fr_t>(3, zero)));
  // Inputs have full density in the A query because of the x * 0 = 0 rows.
  EXPECT_EQ(w.a_input_density().total_density(), 3u);
  EXPECT_EQ(bits(w.b_input_density()), (std::vector<bool>{true, false, false}));

  keygen_cs k;
  circuit.synthesize(k);
  k.add_input_constraints();
  expect_witness_matches_keygen(w, k);
  column_matrix a = k.a_columns();
  EXPECT_EQ(a.input_column(1).size(), 1u);
  EXPECT_EQ(a.input_column(1)[0], (matrix_entry_t{5, one}));
  EXPECT_TRUE(a.aux_column(4).empty());  // only a zero coefficient
  EXPECT_EQ(a.aux_column(0).size(), 2u);

  shape_cs s;
  circuit.synthesize(s);
  s.add_input_constraints();
  EXPECT_EQ(s.counts(), w.counts());

  auto taken = w.take_a();
  EXPECT_EQ(taken.size(), 7u);
  EXPECT_TRUE(w.a().empty());
}

TEST(r1cs_modes, random_systems_witness_equals_keygen_matrices) {
  uint64_t seed = cuzk::test::seed("r1cs_random_systems");
  for (uint64_t i = 0; i < 20; ++i) {
    random_circuit circuit{.seed = seed + i};
    witness_cs w;
    keygen_cs k;
    shape_cs s;
    circuit.synthesize(w);
    circuit.synthesize(k);
    circuit.synthesize(s);
    w.add_input_constraints();
    k.add_input_constraints();
    s.add_input_constraints();
    EXPECT_EQ(s.counts(), w.counts());
    expect_witness_matches_keygen(w, k);
    EXPECT_EQ(w.a_input_density().total_density(), w.num_inputs());
  }
}

TEST(r1cs_modes, keygen_merges_repeats_within_a_constraint) {
  keygen_cs k;
  variable_t x = k.alloc("x", [] { return fr_t::one(); });
  variable_t y = k.alloc("y", [] { return fr_t::one(); });
  fr_t two = fr_t::from_u64(2);
  k.enforce("", [&](lc_t l) { return l + x + x + y - two * y + y; }, [&](lc_t l) { return l + x; },
            [&](lc_t l) { return l + x - x; });
  k.enforce("", [&](lc_t l) { return l + x; }, [&](lc_t l) { return l; }, [&](lc_t l) { return l; });
  column_matrix a = k.a_columns(), c = k.c_columns();
  ASSERT_EQ(a.aux_column(0).size(), 2u);
  EXPECT_EQ(a.aux_column(0)[0], (matrix_entry_t{0, two}));
  EXPECT_EQ(a.aux_column(0)[1], (matrix_entry_t{1, fr_t::one()}));
  EXPECT_TRUE(a.aux_column(1).empty());  // y + y - 2y = 0
  EXPECT_EQ(c.nnz(), 0u);
  EXPECT_FALSE(a.aux_density().get(1));
}

TEST(r1cs_modes, missing_witness_is_an_error_only_where_values_are_needed) {
  auto missing = [] { return std::optional<fr_t>{}; };
  auto build = [&](auto& cs) {
    namespace_guard ns(cs, "outer");
    variable_t v = cs.alloc("secret", missing);
    cs.enforce("use", [&](lc_t l) { return l + v; }, [&](lc_t l) { return l + v; }, [&](lc_t l) { return l; });
  };
  shape_cs s;
  keygen_cs k;
  EXPECT_NO_THROW(build(s));
  EXPECT_NO_THROW(build(k));
  witness_cs w;
  EXPECT_THROW(build(w), synthesis_error);
  test_cs t;
  try {
    build(t);
    FAIL() << "expected synthesis_error";
  } catch (const synthesis_error& e) {
    EXPECT_NE(std::string(e.what()).find("outer/secret"), std::string::npos) << e.what();
  }
}

TEST(test_cs, names_the_first_unsatisfied_constraint) {
  call_counts calls;
  test_cs t;
  hand_circuit{.calls = &calls}.synthesize(t);
  EXPECT_TRUE(t.is_satisfied());
  fr_t x = fr_t::from_u64(6), y = fr_t::from_u64(7);
  std::vector<fr_t> pub = {x * y, x + y};
  EXPECT_TRUE(t.verify(pub));
  EXPECT_FALSE(t.verify(std::vector<fr_t>{x * y, x}));

  EXPECT_EQ(t.constraint_name(1), "mul/x*y=z");
  auto z = t.find_variable("mul/z");
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(t.variable_name(*z), "mul/z");
  EXPECT_EQ(t.value(*z), x * y);
  t.set_value(*z, x);
  EXPECT_EQ(t.which_is_unsatisfied(), "mul/x*y=z");
  t.set_value(*z, x * y);
  t.set_value(*t.find_variable("q"), x);
  EXPECT_EQ(t.which_is_unsatisfied(), "mul/q=x+y");
  EXPECT_FALSE(t.find_variable("mul").has_value());  // a namespace, not a variable
}

TEST(test_cs, rejects_bad_names_and_scopes) {
  test_cs t;
  t.alloc("a", [] { return fr_t::one(); });
  EXPECT_THROW(t.alloc("a", [] { return fr_t::one(); }), synthesis_error);
  EXPECT_THROW(t.alloc("b/c", [] { return fr_t::one(); }), synthesis_error);
  EXPECT_THROW(t.push_namespace("a"), synthesis_error);  // paths are shared by all objects
  {
    namespace_guard ns(t, "n");
    t.alloc("a", [] { return fr_t::one(); });  // n/a is a new path
  }
  EXPECT_THROW(t.pop_namespace(), synthesis_error);
  EXPECT_THROW(t.enforce("bad", [](lc_t l) { return l + variable_t::aux(99); }, [](lc_t l) { return l; },
                         [](lc_t l) { return l; }),
               synthesis_error);
}

// The GPU layer unlocks page-locked witness buffers through this hook before
// their memory can be reused (gpu::pin_until_freed): every buffer of >= 2 MiB
// must pass through it with its start and rounded length, smaller ones never.
namespace {
std::vector<std::pair<void*, std::size_t>> freed_large;
void record_free(void* p, std::size_t bytes) noexcept { freed_large.emplace_back(p, bytes); }
}  // namespace

TEST(uninit_allocator, large_buffers_pass_the_free_hook) {
  const auto before = large_free_hook.exchange(&record_free);
  freed_large.clear();
  void* big_at = nullptr;
  {
    fr_vector small(1000), big;
    big.reserve((std::size_t(3) << 20) / sizeof(cuzk::ff::fr_t));  // 3 MiB: rounded to 4 MiB
    big_at = big.data();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big_at) % (std::size_t(2) << 20), 0u);
  }
  large_free_hook.store(before);
  ASSERT_EQ(freed_large.size(), 1u);
  EXPECT_EQ(freed_large[0].first, big_at);
  EXPECT_EQ(freed_large[0].second, std::size_t(4) << 20);
}
