#pragma once
// Test hook: a backend decorator that throws on chosen calls, so tests (and a
// bench that wants to see retry cost) can inject prover faults. The rule gets
// the 0-based call number of that stage and the device, and says whether to throw.
#include <atomic>
#include <functional>
#include <stdexcept>

#include "engine/prove_backend_t.hpp"

namespace cuzk::engine {

class injected_fault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class fault_injecting_backend_t final : public prove_backend_t {
 public:
  using rule_t = std::function<bool(uint64_t call, uint32_t device)>;

  fault_injecting_backend_t(std::shared_ptr<prove_backend_t> inner, rule_t fail_prove_start, rule_t fail_finalize = {})
      : inner_(std::move(inner)), fail_start_(std::move(fail_prove_start)), fail_finalize_(std::move(fail_finalize)) {}

  std::string name() const override { return inner_->name() + "+faults"; }
  void prepare(const groth16::parameters_t& p) override { inner_->prepare(p); }
  uint64_t release_host_copy(groth16::parameters_t& p) override { return inner_->release_host_copy(p); }
  void claim_residency(const std::string& id, uint32_t rank, uint64_t bytes, const groth16::parameters_t* p) override {
    inner_->claim_residency(id, rank, bytes, p);
  }
  void claim_rows(const std::string& id, uint64_t bytes) override { inner_->claim_rows(id, bytes); }
  uint32_t device_queries_for(const std::string& id, const groth16::query_sizes_t& sizes) override {
    return inner_->device_queries_for(id, sizes);
  }
  void prepare_from_file(const groth16::parameters_t& p, uint32_t unread, const groth16::parameter_file_t& file,
                         ec::subgroup_check chk) override {
    inner_->prepare_from_file(p, unread, file, chk);
  }
  void forget(const groth16::parameters_t& p) override { inner_->forget(p); }
  void prepare_witness(r1cs::witness_cs& w) noexcept override { inner_->prepare_witness(w); }
  bool compact_witness() const override { return inner_->compact_witness(); }
  bool pools_witness() const override { return inner_->pools_witness(); }
  partition_footprint_t footprint(const r1cs::shape_counts_t& s, const witness_form_t& form) const override {
    return inner_->footprint(s, form);
  }
  std::optional<uint64_t> witness_held_bytes(const r1cs::witness_cs& w) const override {
    return inner_->witness_held_bytes(w);
  }
  uint32_t device_count() const override { return inner_->device_count(); }

  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    const uint64_t n = start_calls_++;
    if (fail_start_ && fail_start_(n, device)) {
      ++faults_;
      throw injected_fault("injected prove_start fault (call " + std::to_string(n) + ", device " +
                           std::to_string(device) + ")");
    }
    return inner_->prove_start(device, params, std::move(witness));
  }

  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    const uint64_t n = finalize_calls_++;
    if (fail_finalize_ && fail_finalize_(n, device)) {
      ++faults_;
      throw injected_fault("injected finalize fault (call " + std::to_string(n) + ", device " +
                           std::to_string(device) + ")");
    }
    return inner_->finalize(device, params, std::move(pending), r, s);
  }

  uint64_t faults() const { return faults_; }
  uint64_t prove_start_calls() const { return start_calls_; }

 private:
  std::shared_ptr<prove_backend_t> inner_;
  rule_t fail_start_, fail_finalize_;
  std::atomic<uint64_t> start_calls_{0}, finalize_calls_{0}, faults_{0};
};

}  // namespace cuzk::engine
