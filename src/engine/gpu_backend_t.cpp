#include "engine/gpu_backend_t.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>
#include <string>

#include "engine/cpu_backend_t.hpp"
#include "engine/engine_config_t.hpp"
#include "gpu/device.hpp"

namespace cuzk::engine {
namespace {

std::vector<uint32_t> resolve_devices(std::vector<uint32_t> devices) {
  const int n = gpu::device_count();
  if (n == 0) {
#ifdef CUZK_HAVE_CUDA
    throw std::runtime_error("CUDA backend: no GPU of compute capability >= 9.0 found (or no CUDA driver)");
#else
    throw std::runtime_error("CUDA backend: this cuzk was built without CUDA");
#endif
  }
  if (devices.empty()) {
    for (int d = 0; d < n; ++d) devices.push_back(uint32_t(d));
  }
  for (uint32_t d : devices) {
    if (d >= uint32_t(n)) {
      throw std::invalid_argument("CUDA backend: GPU " + std::to_string(d) + " does not exist (" + std::to_string(n) +
                                  " usable GPUs)");
    }
  }
  return devices;
}

}  // namespace

gpu_backend_t::gpu_backend_t(std::vector<uint32_t> devices, groth16::gpu_prover_options_t options)
    : devices_(resolve_devices(std::move(devices))), options_(std::move(options)) {}

gpu_backend_t::identity_t gpu_backend_t::identity_of(const groth16::parameters_t& p) {
  return {p.h.data(), p.l.data(), p.a.data(), p.b_g1.data(), p.h.size() ^ (p.l.size() << 16) ^ (p.a.size() << 32)};
}

int gpu_backend_t::ordinal(uint32_t device) const {
  if (device >= devices_.size()) {
    throw std::invalid_argument("CUDA backend: device index " + std::to_string(device) + " out of range (" +
                                std::to_string(devices_.size()) + " devices)");
  }
  return int(devices_[device]);
}

std::shared_ptr<gpu_backend_t::slot_t> gpu_backend_t::slot_of(const groth16::parameters_t& params, uint32_t device) {
  std::lock_guard lk(mu_);
  auto& s = slots_[{&params, device}];
  if (!s) s = std::make_shared<slot_t>();
  return s;
}

void gpu_backend_t::built(uint32_t device, const groth16::parameters_t& params, slot_t& slot) {
  mark_built(device, params);
  const groth16::gpu_prover_t& prover = *slot.prover;
  slot.working = prover.working_reserve();
  const auto& plan = prover.residency();
  spdlog::info("GPU {}: parameters placed ({}): {}; {:.2f} GiB on the device, {:.2f} GiB streamed per proof; {}; "
               "{:.2f} GiB reserved for the proofs' working memory; H MSM window {}",
               ordinal(device), options_.residency.mode(), plan.describe(groth16::gpu_prover_t::query_names),
               double(plan.device_bytes) / double(gib), double(plan.streamed_bytes) / double(gib),
               prover.one_msm_at_a_time() ? "MSMs one at a time (scratch released after each)"
                                          : "MSMs at once (scratch kept per query)",
               double(prover.working_reserve()) / double(gib),
               prover.h_window_bits() ? std::to_string(prover.h_window_bits()) + " bits" : std::string("cost model's"));
  std::lock_guard count_lk(mu_);
  ++built_;
}

std::shared_ptr<const groth16::gpu_prover_t> gpu_backend_t::prover_for(uint32_t device,
                                                                     const groth16::parameters_t& params) {
  // CUDA's current device is per thread and workers are plain threads: set
  // it before the prover is built or used.
  gpu::set_device(ordinal(device));
  const auto slot = slot_of(params, device);
  // Other parameter sets and devices are not blocked while this one uploads.
  std::lock_guard lk(slot->mu);
  const identity_t id = identity_of(params);
  if (!slot->prover || !(slot->identity == id)) {
    {
      std::lock_guard map_lk(mu_);
      if (from_file_.contains(&params)) {
        throw std::runtime_error("GPU " + std::to_string(ordinal(device)) +
                                 ": no prover for parameters loaded from their file onto the devices (their queries "
                                 "are not in host memory to build one from)");
      }
    }
    slot->drop();  // free the old bases (unless in use) before uploading new ones
    const uint64_t free = gpu::device_info(ordinal(device)).memory_free;
    const auto [held, first] = held_for_others(device, params, free);
    if (held) {
      spdlog::info("GPU {}: {:.2f} GiB of {:.2f} GiB free left for parameters of higher priority not loaded yet ({})",
                   ordinal(device), double(held) / double(gib), double(free) / double(gib), first);
    }
    const auto o = options_for(device, &params);
    slot->prover = std::make_shared<const groth16::gpu_prover_t>(params, o, free - held);
    slot->identity = id;
    built(device, params, *slot);
    hint_fewer_workers(device, groth16::query_sizes_t::of(params), o, free - held);
  }
  return slot->prover;
}

void gpu_backend_t::claim_rows(const std::string& circuit_id, uint64_t bytes) {
  std::lock_guard lk(mu_);
  claims_[circuit_id].rows_bytes = bytes;
}

void gpu_backend_t::hint_fewer_workers(uint32_t device, const groth16::query_sizes_t& sizes,
                                       const groth16::gpu_prover_options_t& o, uint64_t free) const {
  const auto f = groth16::gpu_prover_t::fewer_workers(sizes, o, free);
  if (!f) return;
  spdlog::warn("GPU {}: with gpu_workers_per_device = {} instead of {}, this parameter set would keep {:.2f} GiB on the "
               "device and stream {:.2f} GiB per proof instead of {:.2f} (each worker's proof reserves working memory "
               "the queries could use; 32 GiB PoRep on an 80 GB H100: 20.0 against 28.9 s/proof)",
               ordinal(device), f->workers, o.proofs_in_flight, double(f->plan.residency.device_bytes) / double(gib),
               double(f->plan.residency.streamed_bytes) / double(gib),
               double(f->streamed_now) / double(gib));
}

groth16::gpu_prover_options_t gpu_backend_t::options_for(uint32_t device, const groth16::parameters_t* params,
                                                         const std::string& id) const {
  groth16::gpu_prover_options_t o = options_;
  std::lock_guard lk(mu_);
  for (const auto& [claim_id, c] : claims_) {
    if ((params && c.params == params) || (!id.empty() && claim_id == id)) {
      o.rows_bytes = c.rows_bytes;
      if (!params) params = c.params;
    }
  }
  for (const auto& [key, slot] : slots_) {
    if (key.second == device && (!params || key.first != params))
      o.reserve_floor = std::max(o.reserve_floor, slot->working.load());
  }
  return o;
}

uint32_t gpu_backend_t::device_queries_for(const std::string& circuit_id, const groth16::query_sizes_t& sizes) {
  uint32_t mask = 0x1f;
  for (uint32_t device = 0; device < devices_.size(); ++device) {
    gpu::set_device(ordinal(device));
    const uint64_t free = gpu::device_info(ordinal(device)).memory_free;
    const uint64_t held = held_for_claim(device, circuit_id, free).first;
    mask &= groth16::gpu_prover_t::device_queries(sizes, options_for(device, nullptr, circuit_id), free - held);
  }
  return mask;
}

void gpu_backend_t::prepare_from_file(const groth16::parameters_t& params, uint32_t unread,
                                      const groth16::parameter_file_t& file, ec::subgroup_check chk) {
  {
    std::lock_guard lk(mu_);
    from_file_.insert(&params);
  }
  for (uint32_t device = 0; device < devices_.size(); ++device) {
    gpu::set_device(ordinal(device));
    const auto slot = slot_of(params, device);
    std::lock_guard lk(slot->mu);
    slot->drop();
    const uint64_t free = gpu::device_info(ordinal(device)).memory_free;
    const uint64_t held = held_for_others(device, params, free).first;
    const auto o = options_for(device, &params);
    slot->prover = std::make_shared<const groth16::gpu_prover_t>(params, file, unread, chk, o, free - held);
    slot->identity = identity_of(params);
    built(device, params, *slot);
    hint_fewer_workers(device, file.layout().sizes, o, free - held);
  }
}

groth16::pending_proof_t gpu_backend_t::prove_start(uint32_t device, const groth16::parameters_t& params,
                                                    r1cs::witness_cs&& witness) {
  const auto prover = prover_for(device, params);
  return prover->prove_start(std::move(witness));
}

void gpu_backend_t::prepare_witness(r1cs::witness_cs& witness) noexcept {
  if (!options_.pin_witness) return;
  try {
    groth16::gpu_prover_t::pin_witness(witness);
  } catch (const std::exception& e) {
    if (!pin_warned_.exchange(true)) {
      spdlog::warn("cannot page-lock witness buffers ({}); their uploads go through staging buffers", e.what());
    }
  }
}

void gpu_backend_t::prepare(const groth16::parameters_t& params) {
  for (uint32_t device = 0; device < devices_.size(); ++device) (void)prover_for(device, params);
}

void gpu_backend_t::claim_residency(const std::string& circuit_id, uint32_t rank, uint64_t bytes,
                                    const groth16::parameters_t* params) {
  std::lock_guard lk(mu_);
  if (params) {
    for (auto& [other, c] : claims_) {
      if (c.params == params && other != circuit_id) c.drop_params();  // freed, address reused
    }
  }
  auto& c = claims_[circuit_id];
  c.rank = rank;
  c.bytes = bytes;
  if (params) c.params = params;
}

std::pair<uint64_t, std::string> gpu_backend_t::held_for_others(uint32_t device, const groth16::parameters_t& params,
                                                                uint64_t free) const {
  std::string self;
  {
    std::lock_guard lk(mu_);
    for (const auto& [id, c] : claims_) {
      if (c.params == &params) self = id;
    }
  }
  return held_for_claim(device, self, free);
}

std::pair<uint64_t, std::string> gpu_backend_t::held_for_claim(uint32_t device, const std::string& self,
                                                               uint64_t free) const {
  std::lock_guard lk(mu_);
  std::vector<gpu::residency_claim_t> claims;
  for (const auto& [id, c] : claims_) {
    claims.push_back({id, c.rank, c.bytes + c.rows_bytes, bool(c.built_on >> device & 1)});
  }
  const uint64_t held = gpu::held_for_higher_ranks(claims, self, free);
  std::string first;  // the highest-ranked set it is held for, for the log
  uint32_t first_rank = held ? claims_.at(self).rank : ~0u;
  for (const auto& c : claims) {
    if (c.rank > first_rank && !c.built) first = c.id, first_rank = c.rank;
  }
  return {held, first};
}

void gpu_backend_t::mark_built(uint32_t device, const groth16::parameters_t& params) {
  std::lock_guard lk(mu_);
  for (auto& [id, c] : claims_) {
    if (c.params == &params && device < 64) c.built_on |= uint64_t(1) << device;
  }
}

gpu::device_info_t gpu_backend_t::describe(uint32_t device) const {
  return gpu::device_info(ordinal(device));
}

groth16::proof_t gpu_backend_t::finalize(uint32_t, const groth16::parameters_t& params,
                                         groth16::pending_proof_t&& pending, const ff::fr_t& r, const ff::fr_t& s) {
  return groth16::finalize(params, std::move(pending), r, s);
}

uint64_t gpu_backend_t::release_host_copy(groth16::parameters_t& params) {
  prepare(params);
  std::vector<std::shared_ptr<slot_t>> slots;
  {
    std::lock_guard lk(mu_);
    for (uint32_t device = 0; device < devices_.size(); ++device) slots.push_back(slots_.at({&params, device}));
  }
  // Every slot locked (in device order; prover_for holds one at a time), so
  // no prover is built from, or checked against, vectors being freed.
  std::vector<std::unique_lock<std::mutex>> locks;
  uint32_t resident = ~0u;
  for (const auto& slot : slots) {
    locks.emplace_back(slot->mu);
    resident &= slot->prover ? slot->prover->device_queries() : 0u;
  }
  uint64_t freed = 0;
  auto drop = [&](auto& points, uint32_t query) {
    if (!(resident >> query & 1) || points.empty()) return;
    freed += points.size() * sizeof(points[0]);
    std::remove_reference_t<decltype(points)>().swap(points);
  };
  drop(params.h, 0);
  drop(params.l, 1);
  drop(params.a, 2);
  drop(params.b_g1, 3);
  drop(params.b_g2, 4);
  for (const auto& slot : slots) slot->identity = identity_of(params);
  return freed;
}

void gpu_backend_t::forget(const groth16::parameters_t& params) {
  std::vector<std::shared_ptr<slot_t>> dropped;
  {
    std::lock_guard lk(mu_);
    // The claim stays (the set may come back: a PoRep reload leaves it room);
    // its bases are going.
    for (auto& [id, c] : claims_) {
      if (c.params == &params) c.drop_params();
    }
    from_file_.erase(&params);
    for (auto it = slots_.begin(); it != slots_.end();) {
      if (it->first.first == &params) {
        dropped.push_back(std::move(it->second));
        it = slots_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // A worker building a prover holds its slot's lock; one proving holds its
  // own reference, so those bases go when that proof returns.
  for (const auto& slot : dropped) {
    std::lock_guard lk(slot->mu);
    slot->drop();
  }
}

std::optional<gpu::residency_plan_t> gpu_backend_t::placement(uint32_t device,
                                                             const groth16::parameters_t& params) const {
  std::shared_ptr<slot_t> slot;
  {
    std::lock_guard lk(mu_);
    const auto it = slots_.find({&params, device});
    if (it == slots_.end()) return std::nullopt;
    slot = it->second;
  }
  std::lock_guard lk(slot->mu);  // after mu_ is let go: prover_for takes them the other way round
  if (!slot->prover) return std::nullopt;
  return slot->prover->residency();
}

std::optional<uint64_t> gpu_backend_t::working_reserve(uint32_t device, const groth16::parameters_t& params) const {
  std::lock_guard lk(mu_);
  const auto it = slots_.find({&params, device});
  if (it == slots_.end() || it->second->working == 0) return std::nullopt;
  return it->second->working.load();
}

size_t gpu_backend_t::provers_built() const {
  std::lock_guard lk(mu_);
  return built_;
}

bool gpu_available() { return gpu::device_count() > 0; }

std::shared_ptr<prove_backend_t> make_gpu_backend(std::vector<uint32_t> devices, groth16::gpu_prover_options_t options) {
  return std::make_shared<gpu_backend_t>(std::move(devices), std::move(options));
}

std::shared_ptr<prove_backend_t> make_backend(std::string_view kind, groth16::gpu_prover_options_t gpu_options) {
  if (kind == "cpu") return make_cpu_backend();
  if (kind == "cuda") return make_gpu_backend({}, std::move(gpu_options));
  if (kind == "auto") return gpu_available() ? make_gpu_backend({}, std::move(gpu_options)) : make_cpu_backend();
  throw std::invalid_argument("unknown prove backend \"" + std::string(kind) + "\" (expected auto, cpu or cuda)");
}

}  // namespace cuzk::engine
