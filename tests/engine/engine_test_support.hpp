#pragma once
// Shared by the engine tests: parameters generated once per process for the
// tiny and a small hash-chain circuit, a backend decorator that can hold
// prove_start or finalize closed (a gate) and records the order of
// prove_start calls, and a proof checker that verifies each partition against
// the circuit's own public inputs.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "circuits/circuits.hpp"
#include "circuits/circuit_input.hpp"
#include "engine/engine.hpp"
#include "groth16/groth16.hpp"
#include "test_seed.hpp"

namespace cuzk::engine::test_support {

inline constexpr size_t small_chain = 256;  // hash-chain rows; domain 2^8

inline std::shared_ptr<const groth16::parameters_t> params_for(const std::string& name, size_t size = 0) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const groth16::parameters_t>> cache;
  static const uint64_t seed = cuzk::test::seed("engine parameters");
  std::lock_guard lk(mu);
  auto& p = cache[name + "/" + std::to_string(size)];
  if (!p) {
    groth16::seeded_rng rng(seed + cache.size());
    auto c = circuits::make_circuit(name, size);
    p = std::make_shared<const groth16::parameters_t>(
        groth16::generate_parameters(*c, groth16::toxic_waste_t::random(rng)));
  }
  return p;
}

inline job_request_t tiny_job(std::vector<uint64_t> xs, priority_t prio = priority_t::unspecified) {
  job_request_t r;
  r.proof_kind = proof_kind_t::circuit;
  r.circuit = "tiny";
  r.priority = prio;
  auto arr = nlohmann::json::array();
  for (auto x : xs) arr.push_back({{"x", std::to_string(x)}});
  r.circuit_input = arr.dump();
  return r;
}

inline job_request_t chain_job(uint32_t partitions, uint64_t x0 = 1) {
  job_request_t r;
  r.proof_kind = proof_kind_t::circuit;
  r.circuit = "hash-chain";
  r.circuit_size = small_chain;
  r.partitions = partitions;
  r.circuit_input = nlohmann::json{{"x0", std::to_string(x0)}}.dump();
  return r;
}

// Tests that size the budget to a number of partitions register only the
// circuit they use: the engine evicts idle parameters to make room, which
// would add room the test did not plan for.
inline void register_all(engine_t& e, bool with_chain = true) {
  e.register_parameters("tiny", params_for("tiny"));
  if (with_chain) e.register_parameters("hash-chain-" + std::to_string(small_chain), params_for("hash-chain", small_chain));
}

// The public inputs each partition of a request must verify against, built
// independently of the engine from the same JSON.
inline std::vector<std::vector<ff::fr_t>> expected_inputs(const job_request_t& r) {
  auto input = nlohmann::json::parse(r.circuit_input);
  std::vector<std::vector<ff::fr_t>> out;
  if (input.is_array()) {
    for (const auto& w : input) out.push_back(circuits::make_circuit_with_input(r.circuit, r.circuit_size, w)->public_inputs());
  } else {
    auto c = circuits::make_circuit_with_input(r.circuit, r.circuit_size, input);
    out.assign(r.partitions, c->public_inputs());
  }
  return out;
}

// Every 192-byte proof verifies against its own partition's inputs.
inline void expect_verifies(const job_result_t& res, const job_request_t& req) {
  ASSERT_EQ(res.status, job_status_t::completed) << res.error_message;
  auto inputs = expected_inputs(req);
  ASSERT_EQ(res.proof.size(), groth16::proof_size * inputs.size());
  auto params = req.circuit == "tiny" ? params_for("tiny") : params_for("hash-chain", small_chain);
  groth16::prepared_vk_t pvk(params->vk);
  for (size_t i = 0; i < inputs.size(); ++i) {
    groth16::proof_t p;
    ASSERT_TRUE(groth16::decode_proof(std::span(res.proof).subspan(i * groth16::proof_size, groth16::proof_size), p).ok());
    EXPECT_TRUE(pvk.verify(p, inputs[i])) << "partition " << i;
  }
}

// Polls a condition the engine exposes only through status(); fails the test
// after 20 s instead of hanging.
template <class Pred>
bool wait_until(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A stage that waits while closed.
class gate_t {
 public:
  explicit gate_t(bool open = true) : open_(open) {}
  void pass() {
    std::unique_lock lk(mu_);
    ++waiting_;
    cv_.wait(lk, [&] { return open_; });
    --waiting_;
  }
  void open() {
    { std::lock_guard lk(mu_); open_ = true; }
    cv_.notify_all();
  }
  void close() {
    std::lock_guard lk(mu_);
    open_ = false;
  }
  int waiting() const {
    std::lock_guard lk(mu_);
    return waiting_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool open_;
  int waiting_ = 0;
};

// One device of the CPU backend's prove_start and finalize, for test
// backends that only watch or hold the other calls.
class cpu_forwarding_backend_t : public prove_backend_t {
 public:
  uint32_t device_count() const override { return 1; }
  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    return cpu_->prove_start(device, params, std::move(witness));
  }
  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    return cpu_->finalize(device, params, std::move(pending), r, s);
  }

 private:
  std::shared_ptr<prove_backend_t> cpu_ = make_cpu_backend();
};

class gated_backend_t final : public prove_backend_t {
 public:
  explicit gated_backend_t(std::shared_ptr<prove_backend_t> inner) : inner_(std::move(inner)) {}
  gate_t start_gate, finalize_gate;

  std::string name() const override { return inner_->name() + "+gated"; }
  uint32_t device_count() const override { return inner_->device_count(); }
  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    {
      std::lock_guard lk(mu_);
      first_inputs_.push_back(witness.input_assignment().at(1));
    }
    start_gate.pass();
    return inner_->prove_start(device, params, std::move(witness));
  }
  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    finalize_gate.pass();
    return inner_->finalize(device, params, std::move(pending), r, s);
  }
  // The first public input of each witness, in prove_start order.
  std::vector<ff::fr_t> first_inputs() const {
    std::lock_guard lk(mu_);
    return first_inputs_;
  }

 private:
  std::shared_ptr<prove_backend_t> inner_;
  mutable std::mutex mu_;
  std::vector<ff::fr_t> first_inputs_;
};

// Declared after the engine, so it runs first: a test that fails while a gate
// is closed must not hang in the engine's drain.
struct open_gates_on_exit {
  gated_backend_t& g;
  ~open_gates_on_exit() {
    g.start_gate.open();
    g.finalize_gate.open();
  }
};

inline engine_config_t small_config(uint64_t budget) {
  engine_config_t c;
  c.total_budget = budget;
  c.synthesis_threads = 2;
  c.gpu_workers_per_device = 1;
  c.finalizer_threads = 1;
  return c;
}

// Budget bytes the tiny and small-chain parameters take once registered.
inline uint64_t registered_params_bytes(bool with_chain = true) {
  engine_t probe(small_config(uint64_t(1) << 30));
  register_all(probe, with_chain);
  return probe.status().gauges.params_bytes;
}

inline partition_footprint_t footprint_of(const job_request_t& r) { return engine_t::partition_footprint_for(r); }

}  // namespace cuzk::engine::test_support
