// Whole Groth16 proofs of the hash-chain circuit at 2^16 and 2^20 rows, on one
// thread and on all of them. Parameters are generated once per size (seeded).
// The B_g2 MSM runs on its own std::async thread in the global TBB arena, so
// the one-thread figure still overlaps that MSM with the G1 work.
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <map>
#include <memory>

#include "circuits/circuits.hpp"
#include "groth16/groth16.hpp"

using namespace cuzk;

namespace {

struct setup_t {
  std::unique_ptr<circuits::any_circuit> circuit;
  groth16::parameters_t params;
};

const setup_t& setup_for(size_t rows) {
  static std::map<size_t, setup_t> cache;
  auto it = cache.find(rows);
  if (it == cache.end()) {
    setup_t s{circuits::make_circuit("hash-chain", rows), {}};
    groth16::seeded_rng rng(rows);
    s.params = groth16::generate_parameters(*s.circuit, groth16::toxic_waste_t::random(rng));
    it = cache.emplace(rows, std::move(s)).first;
  }
  return it->second;
}

void bm_prove(benchmark::State& st) {
  const size_t rows = size_t(1) << st.range(0);
  const int threads = int(st.range(1));
  const auto& s = setup_for(rows);
  groth16::seeded_rng rng(7);
  tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : threads);
  for (auto _ : st) {
    arena.execute([&] { benchmark::DoNotOptimize(groth16::prove(s.params, *s.circuit, rng)); });
  }
  st.counters["constraints"] = double(rows);
}

void bm_verify(benchmark::State& st) {
  const auto& s = setup_for(size_t(1) << 16);
  groth16::seeded_rng rng(8);
  auto proof = groth16::prove(s.params, *s.circuit, rng);
  groth16::prepared_vk_t pvk(s.params.vk);
  auto inputs = s.circuit->public_inputs();
  for (auto _ : st) benchmark::DoNotOptimize(pvk.verify(proof, inputs));
}

// Verification with n public inputs, where the input sum dominates: a 32 GiB
// WindowPoSt partition has 25,839 (one comm_r and ten challenge indices per
// sector). The key's points are multiples of the generator and the proof is
// not valid for them: verify costs the same either way.
void bm_verify_inputs(benchmark::State& st) {
  const size_t n = size_t(st.range(0));
  const int threads = int(st.range(1));
  groth16::verifying_key_t vk{ec::g1_generator(), ec::g1_generator(), ec::g2_generator(), ec::g2_generator(),
                              ec::g1_generator(), ec::g2_generator(), {}};
  ec::g1_jacobian_t p = ec::g1_jacobian_t::from_affine(ec::g1_generator());
  for (size_t i = 0; i <= n; ++i, p += ec::g1_jacobian_t::from_affine(ec::g1_generator())) vk.ic.push_back(p.to_affine());
  groth16::seeded_rng rng(9);
  std::vector<ff::fr_t> inputs(n);
  for (auto& x : inputs) x = ff::fr_t::random(rng);
  const groth16::proof_t proof{ec::g1_generator(), ec::g2_generator(), ec::g1_generator()};
  const groth16::prepared_vk_t pvk(vk);
  tbb::task_arena arena(threads == 0 ? tbb::task_arena::automatic : threads);
  for (auto _ : st) arena.execute([&] { benchmark::DoNotOptimize(pvk.verify(proof, inputs)); });
  st.counters["inputs"] = double(n);
}

}  // namespace

// Args: log2 rows, threads (0 = all).
BENCHMARK(bm_prove)->ArgsProduct({{16, 20}, {1, 0}})->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
BENCHMARK(bm_verify)->Unit(benchmark::kMillisecond);
// Args: public inputs, threads (0 = all).
BENCHMARK(bm_verify_inputs)->ArgsProduct({{16, 25839}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();
