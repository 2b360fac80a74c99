// Synthesis throughput of the r1cs modes on the hash chain (3 constraints per
// round, two field squarings and a product per round of witness work).
// Reported as constraints per second, input constraints included.
#include <benchmark/benchmark.h>

#include "circuits/hash_chain_circuit.hpp"
#include "r1cs/r1cs.hpp"

using namespace cuzk;

namespace {

void set_rate(benchmark::State& state, size_t constraints) {
  state.counters["constraints"] = double(constraints);
  state.counters["constraints/s"] =
      benchmark::Counter(double(constraints), benchmark::Counter::kIsIterationInvariantRate);
}

void witness_hash_chain(benchmark::State& state) {
  auto circuit = circuits::hash_chain_circuit::from_constraints(size_t(1) << state.range(0));
  r1cs::shape_cs shape;
  circuit.synthesize(shape);
  shape.add_input_constraints();
  for (auto _ : state) {
    r1cs::witness_cs cs;
    cs.reserve(shape.counts());
    circuit.synthesize(cs);
    cs.add_input_constraints();
    benchmark::DoNotOptimize(cs.c().data());
  }
  set_rate(state, shape.num_constraints());
}

void shape_hash_chain(benchmark::State& state) {
  auto circuit = circuits::hash_chain_circuit::from_constraints(size_t(1) << state.range(0), std::nullopt);
  size_t n = 0;
  for (auto _ : state) {
    r1cs::shape_cs cs;
    circuit.synthesize(cs);
    cs.add_input_constraints();
    n = cs.num_constraints();
    benchmark::DoNotOptimize(n);
  }
  set_rate(state, n);
}

void keygen_hash_chain(benchmark::State& state) {
  auto circuit = circuits::hash_chain_circuit::from_constraints(size_t(1) << state.range(0), std::nullopt);
  size_t n = 0;
  for (auto _ : state) {
    r1cs::keygen_cs cs;
    circuit.synthesize(cs);
    cs.add_input_constraints();
    auto a = cs.a_columns();
    n = cs.num_constraints();
    benchmark::DoNotOptimize(a.nnz());
  }
  set_rate(state, n);
}

}  // namespace

BENCHMARK(witness_hash_chain)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(shape_hash_chain)->Arg(16)->Arg(20)->Unit(benchmark::kMillisecond);
BENCHMARK(keygen_hash_chain)->Arg(16)->Unit(benchmark::kMillisecond);
