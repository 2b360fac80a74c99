#include "groth16/gpu_prover.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "gpu/compiled_rows.hpp"
#include "gpu/cuda_threads.hpp"
#include "gpu/device.hpp"
#include "gpu/msm_plan.hpp"
#include "gpu/ntt.hpp"
#include "groth16/prover_checks.hpp"
#include "groth16/step_timer_t.hpp"
#include "msm/msm.hpp"
#include "gpu/stream_priority.hpp"
#include "poly/poly.hpp"
#include "r1cs/buffer_pool_t.hpp"

namespace cuzk::groth16 {

namespace {

// The streamed tiers' window shrinks (halving, down to min_window) until
// the plan fits the room, and on while a smaller window leaves room for more
// of the queries on the device (every byte not there crosses PCIe once per
// proof; the largest window of the fewest streamed bytes is kept). Below
// min_window the plan streams everything with the smallest windows and says
// so: the reserve is a worst-case estimate (every scalar of every query
// other than 0 and 1), so the proofs may still fit.
constexpr size_t min_window = size_t(1) << 20;

// The placement for one reserve.
std::pair<gpu::residency_plan_t, size_t> place(const query_sizes_t& p, const gpu_prover_options_t& o, uint64_t reserve,
                                               uint64_t free, bool warn) {
  size_t window = o.window_points ? o.window_points : gpu::msm_bases<ec::g1_curve>::default_window_points;
  std::optional<std::pair<gpu::residency_plan_t, size_t>> best;  // the fitting plan of most device bytes so far
  for (;;) {
    auto set = [window](size_t n, size_t point_bytes) {
      return gpu::residency_set_t{n * point_bytes, 2 * std::min(window, n) * point_bytes};
    };
    const gpu::residency_set_t sets[5] = {set(p.h, sizeof(g1_affine_t)), set(p.l, sizeof(g1_affine_t)),
                                          set(p.a, sizeof(g1_affine_t)), set(p.b_g1, sizeof(g1_affine_t)),
                                          set(p.b_g2, sizeof(g2_affine_t))};
    auto plan = gpu::plan_residency(sets, free, reserve, o.residency);
    const bool last = window <= min_window || o.window_points;
    if (plan.fits && (!best || plan.device_bytes > best->first.device_bytes)) best.emplace(std::move(plan), window);
    if (best && (last || best->first.streamed_bytes == 0)) return std::move(*best);
    if (last) {
      if (warn) {
        spdlog::warn("GPU: the parameters' windows need {:.2f} GiB but only {:.2f} GiB are free beyond the {:.2f} "
                     "GiB estimated for the proofs' working memory; streaming with windows of {} points",
                     double(plan.device_need) / double(1ull << 30),
                     double(plan.room) / double(1ull << 30), double(reserve) / double(1ull << 30), window);
      }
      return {std::move(plan), window};
    }
    window /= 2;
  }
}

bool all_on_device(const gpu::residency_plan_t& plan) {
  return std::all_of(plan.tiers.begin(), plan.tiers.end(),
                     [](gpu::residency_t t) { return t == gpu::residency_t::device; });
}

// The placement for one H window width (h_bits, 0: the cost model's);
// quiet: no warning when it does not fit (a candidate only).
gpu_prover_t::plan_t plan_with(const query_sizes_t& p, const gpu_prover_options_t& o, uint64_t free, uint32_t h_bits,
                               bool quiet = false) {
  using scratch = gpu_prover_options_t::msm_scratch_t;
  const uint64_t given = o.residency.device_reserve;
  auto working = [&](bool one) {
    return given ? given
                 : std::max(gpu_prover_t::working_bytes(p, o.proofs_in_flight, one, o.msm_threads, h_bits),
                            o.reserve_floor);
  };
  auto reserve = [&](bool one) { return given ? given : working(one) + o.rows_bytes; };
  auto done = [&](std::pair<gpu::residency_plan_t, size_t>&& placed, bool one) {
    return gpu_prover_t::plan_t{std::move(placed.first), placed.second, one, h_bits, working(one)};
  };
  if (o.msm_scratch == scratch::one_at_a_time) return done(place(p, o, reserve(true), free, !quiet), true);
  auto placed = place(p, o, reserve(false), free, !quiet && o.msm_scratch == scratch::per_query);
  if (o.msm_scratch == scratch::automatic && !all_on_device(placed.first)) {
    // One MSM's scratch per proof instead of five gives up the MSMs' overlap
    // for room: worth it when that room sends fewer bytes over PCIe per
    // proof (every query on the device: 1.12x at 32 GiB PoRep on an H200,
    // against L and A streamed; on an 80 GB card with one 32 GiB PoRep proof
    // in flight, most of the points against none). Also when only it fits:
    // a per-query reserve larger than the device (32 GiB PoRep, two workers,
    // 80 GB card) streams every query either way, and its working memory
    // cannot exist (H100: 28.9 against 32.1 s/proof). Per query otherwise.
    auto lean = place(p, o, reserve(true), free, false);
    if (lean.first.fits && (!placed.first.fits || lean.first.streamed_bytes < placed.first.streamed_bytes))
      return done(std::move(lean), true);
    if (!placed.first.fits && !quiet) (void)place(p, o, reserve(false), free, true);  // the warning
  }
  return done(std::move(placed), false);
}

// gpu_prover_t::plan; quiet: no warning when it does not fit.
gpu_prover_t::plan_t plan_of(const query_sizes_t& p, const gpu_prover_options_t& o, uint64_t free, bool quiet) {
  gpu_prover_t::plan_t base = plan_with(p, o, free, o.h_window_bits, quiet);
  if (o.h_window_bits != 0 || o.residency.device_reserve != 0 || p.h + 1 < gpu_prover_options_t::wide_h_min_points)
    return base;
  // Automatic: the wider H window only where its scratch changes nothing else.
  gpu_prover_t::plan_t wide = plan_with(p, o, free, gpu_prover_options_t::wide_h_window_bits, true);
  const bool same = wide.residency.fits && wide.residency.tiers == base.residency.tiers && wide.window == base.window &&
                    wide.one_at_a_time == base.one_at_a_time;
  return same ? wide : base;
}

}  // namespace

gpu_prover_t::plan_t gpu_prover_t::plan(const query_sizes_t& p, const gpu_prover_options_t& o, uint64_t free) {
  return plan_of(p, o, free, false);
}

std::optional<gpu_prover_t::fewer_workers_t> gpu_prover_t::fewer_workers(const query_sizes_t& p,
                                                                        const gpu_prover_options_t& o,
                                                                        uint64_t free) {
  if (o.proofs_in_flight <= 1 || o.residency.device_reserve != 0 || o.residency.forced) return std::nullopt;
  const auto quiet = [&](uint32_t workers) {  // the candidates' warnings are not the engine's
    gpu_prover_options_t w = o;
    w.proofs_in_flight = workers;
    return plan_of(p, w, free, true);
  };
  const plan_t now = quiet(o.proofs_in_flight);
  std::optional<fewer_workers_t> best;
  for (uint32_t k = o.proofs_in_flight - 1; k >= 1; --k) {
    plan_t c = quiet(k);
    const uint64_t than = best ? best->plan.residency.streamed_bytes : now.residency.streamed_bytes;
    if (c.residency.fits && c.residency.streamed_bytes < than)
      best = fewer_workers_t{k, std::move(c), now.residency.streamed_bytes};
  }
  return best;
}

namespace {

gpu_prover_t::plan_t plan_for(const parameters_t& p, const gpu_prover_options_t& o) {
  return gpu_prover_t::plan(query_sizes_t::of(p), o, gpu::device_info(gpu::current_device()).memory_free);
}

}  // namespace

void check_msm_threads(uint64_t threads) {
  if (threads == 0 || (std::has_single_bit(threads) && threads >= (uint64_t(1) << 12) && threads <= (uint64_t(1) << 22)))
    return;
  throw std::invalid_argument("msm_threads " + std::to_string(threads) +
                              ": expected 0 (the default, 131072) or a power of two from 4096 to 4194304");
}

void check_h_window_bits(uint64_t bits) {
  if (bits == 0 || (bits >= gpu::msm_plan::min_bits && bits <= gpu::msm_plan::max_bits)) return;
  throw std::invalid_argument("h_window_bits " + std::to_string(bits) + ": expected 0 (automatic) or " +
                              std::to_string(gpu::msm_plan::min_bits) + " to " +
                              std::to_string(gpu::msm_plan::max_bits));
}

uint64_t gpu_prover_t::working_bytes(const query_sizes_t& p, uint32_t proofs_in_flight, bool one_at_a_time,
                                     size_t msm_threads, uint32_t h_window_bits) {
  constexpr size_t g1_xyzz = 4 * sizeof(ff::fp_t), g2_xyzz = 8 * sizeof(ff::fp_t);
  const uint64_t n = p.h + 1, aux = p.l;
  const uint64_t per_proof = (3 * n + 3 * aux) * sizeof(fr_t);
  auto scratch = [&](size_t m, size_t xyzz, uint32_t c = 0) {
    return gpu::msm_plan::scratch_bytes(m, xyzz, msm_threads, c);
  };
  const uint64_t each[5] = {scratch(p.h, g1_xyzz, h_window_bits), scratch(p.l, g1_xyzz), scratch(p.a, g1_xyzz),
                            scratch(p.b_g1, g1_xyzz), scratch(p.b_g2, g2_xyzz)};
  constexpr uint64_t tables_and_temp = uint64_t(256) << 20;  // NTT tables (<= 64 MiB), CUB temporaries
  const uint64_t proofs = std::max<uint32_t>(proofs_in_flight, 1);
  if (one_at_a_time) return proofs * (per_proof + *std::max_element(each, each + 5)) + tables_and_temp;
  return proofs * per_proof + (each[0] + each[1] + each[2] + each[3] + each[4]) + tables_and_temp;
}

gpu_prover_options_t::msm_scratch_t parse_msm_scratch(std::string_view s) {
  using m = gpu_prover_options_t::msm_scratch_t;
  if (s == "auto") return m::automatic;
  if (s == "per-query") return m::per_query;
  if (s == "one-at-a-time") return m::one_at_a_time;
  throw std::invalid_argument("msm_scratch \"" + std::string(s) + "\" unknown (expected auto, per-query, one-at-a-time)");
}

gpu_prover_t::gpu_prover_t(const parameters_t& params, gpu_prover_options_t options)
    : gpu_prover_t(params, nullptr, 0, ec::subgroup_check::check, options, plan_for(params, options)) {}

gpu_prover_t::gpu_prover_t(const parameters_t& params, gpu_prover_options_t options, uint64_t device_free)
    : gpu_prover_t(params, nullptr, 0, ec::subgroup_check::check, options,
                   plan(query_sizes_t::of(params), options, device_free)) {}

namespace {

uint32_t device_mask(const gpu::residency_plan_t& plan) {
  uint32_t mask = 0;
  for (size_t q = 0; q < plan.tiers.size(); ++q) {
    if (plan.tiers[q] == gpu::residency_t::device) mask |= 1u << q;
  }
  return mask;
}

// The plan for a file's queries, refused unless it puts every unread one on the device.
gpu_prover_t::plan_t plan_holding(const parameter_file_t& file, uint32_t unread, const gpu_prover_options_t& o,
                                  uint64_t device_free) {
  auto p = gpu_prover_t::plan(file.layout().sizes, o, device_free);
  const uint32_t missing = unread & ~device_mask(p.residency);
  if (missing) {
    std::string names;
    for (uint32_t q = 0; q < 5; ++q) {
      if (missing >> q & 1) names += (names.empty() ? "" : ", ") + std::string(gpu_prover_t::query_names[q]);
    }
    throw std::runtime_error("GPU: " + file.path() + ": the device's " + std::to_string(device_free >> 20) +
                             " MiB free no longer hold " + names + " (not read into host memory)");
  }
  return p;
}

// One query's bases: from the host points, or, unread, from the file in pieces.
template <class C>
gpu::msm_bases<C> bases_for(const std::vector<ec::affine_t<C>>& host, const parameter_file_t* file, uint32_t q,
                            uint32_t unread, ec::subgroup_check chk, gpu::residency_t tier, size_t window) {
  if (!file || !(unread >> q & 1)) return gpu::msm_bases<C>(host, tier, window);
  const size_t n = file->layout().count(q);
  return gpu::msm_bases<C>(
      n,
      [&](size_t at, std::span<ec::affine_t<C>> out) {
        if constexpr (std::is_same_v<C, ec::g2_curve>) {
          file->read(at, out, chk);
        } else {
          file->read(q, at, out, chk);
        }
      },
      gpu_prover_t::load_chunk_points);
}

}  // namespace

gpu_prover_t::gpu_prover_t(const parameters_t& params, const parameter_file_t& file, uint32_t unread,
                           ec::subgroup_check chk, gpu_prover_options_t options, uint64_t device_free)
    : gpu_prover_t(params, &file, unread, chk, options, plan_holding(file, unread, options, device_free)) {}

uint32_t gpu_prover_t::device_queries(const query_sizes_t& sizes, const gpu_prover_options_t& options,
                                      uint64_t device_free) {
  return device_mask(plan(sizes, options, device_free).residency);
}

gpu_prover_t::gpu_prover_t(const parameters_t& params, const parameter_file_t* file, uint32_t unread,
                           ec::subgroup_check chk, gpu_prover_options_t o, plan_t plan)
    : sizes_(file ? file->layout().sizes : query_sizes_t::of(params)),
      overlap_(o.overlap && !plan.one_at_a_time),
      one_at_a_time_(plan.one_at_a_time),
      msm_threads_((check_msm_threads(o.msm_threads), o.msm_threads)),
      h_window_bits_((check_h_window_bits(o.h_window_bits), plan.h_window_bits)),
      working_(plan.working),
      plan_(std::move(plan.residency)),
      window_(plan.window),
      h_(bases_for(params.h, file, 0, unread, chk, plan_.tiers[0], window_)),
      l_(bases_for(params.l, file, 1, unread, chk, plan_.tiers[1], window_)),
      a_(bases_for(params.a, file, 2, unread, chk, plan_.tiers[2], window_)),
      b_g1_(bases_for(params.b_g1, file, 3, unread, chk, plan_.tiers[3], window_)),
      b_g2_(bases_for(params.b_g2, file, 4, unread, chk, plan_.tiers[4], window_)) {
  // The domain's twiddle tables too, so concurrent first proofs find them built.
  const size_t n = sizes_.h + 1;
  if (n >= 2 && std::has_single_bit(n) && std::countr_zero(n) <= int(gpu::ntt_max_log_n)) {
    gpu::prepare_ntt(uint32_t(std::countr_zero(n)));
  }
}

uint32_t gpu_prover_t::device_queries() const { return device_mask(plan_); }

void gpu_prover_t::pin_witness(const r1cs::witness_cs& w) {
  // Only buffers the allocator frees through its hook: a smaller one comes
  // from malloc, whose free would leave the pages locked under new owners.
  using alloc = r1cs::fr_vector::allocator_type;
  for (const r1cs::fr_vector* v : {&w.a(), &w.b(), &w.c(), &w.aux_assignment()}) {
    const size_t bytes = v->capacity() * sizeof(fr_t);
    if (bytes >= alloc::huge_page) gpu::pin_until_freed(v->data(), bytes);
  }
}

const gpu::device_rows_t& gpu_prover_t::device_rows(const r1cs::compiled_rows_view_t& view) const {
  // One circuit per parameter set: its matrices go up once and stay, unless
  // a witness of another shape (which check_parameters_fit refused first) or
  // of other matrices arrives.
  std::lock_guard lock(rows_mutex_);
  if (!rows_ || rows_coeffs_ != view.coeffs.data() || rows_->num_constraints() != view.num_constraints() ||
      rows_->num_inputs() != view.num_inputs || rows_->num_aux() != view.num_aux) {
    rows_.reset();
    rows_ = std::make_unique<gpu::device_rows_t>(view);
    rows_coeffs_ = view.coeffs.data();
    spdlog::debug("gpu prover: compiled rows on the device, {:.1f} MiB", double(rows_->bytes()) / (1 << 20));
  }
  return *rows_;
}

std::size_t gpu_prover_t::device_rows_bytes() const {
  std::lock_guard lock(rows_mutex_);
  return rows_ ? rows_->bytes() : 0;
}

pending_proof_t gpu_prover_t::prove_start(r1cs::witness_cs&& w) const {
  pending_proof_t out;
  step_timer_t steps(out.stage_ms);
  const r1cs::compiled_rows_view_t* view = w.is_deferred() ? w.row_evaluator()->view() : nullptr;
  if (view) {
    // a, b, c formed on the device from the compact witness (issue 18).
    w.form_densities();
    poly::domain_t d = poly::domain_t::for_size(w.num_constraints());
    if (d.n < 2) d = poly::domain_t(1);
    check_parameters_fit(sizes_, w, d.n);
    const gpu::device_rows_t& rows = device_rows(*view);
    steps.lap("checks");
    gpu::device_witness_t dw = gpu::form_rows(rows, w.input_assignment(), w.compact_aux(), d.n);
    // rows.wait: what the events do not account for, i.e. the wait for our
    // kernels to start (a device busy with other workers' kernels).
    steps.lap_parts({{"rows.upload", dw.upload_ms}, {"rows.form", dw.rows_ms}, {"rows.check", dw.check_ms}},
                    "rows.wait");
    if (dw.first_unsatisfied != SIZE_MAX) throw_unsatisfied(dw.first_unsatisfied);
    out.public_inputs.assign(w.input_assignment().begin() + 1, w.input_assignment().end());
    return msms_and_h(w, std::move(dw.aux), d, steps, std::move(out), [&](gpu::compute_h_times* times) {
      return gpu::compute_h_resident(std::move(dw.a), std::move(dw.b), std::move(dw.c), {}, times);
    });
  }
  if (w.is_deferred()) {  // no device form: rows formed on the host
    w.materialize();
    steps.lap("rows");
  }
  // Named members, not a structured binding: the lambda below captures them
  // (clang 14, the fuzz build's compiler, refuses captured bindings).
  qap_evaluations_t ev = take_checked_evaluations(sizes_, w);
  const poly::domain_t& d = ev.domain;
  out.public_inputs.assign(w.input_assignment().begin() + 1, w.input_assignment().end());
  steps.lap("checks");
  gpu::device_scalars aux_d = gpu::device_scalars::upload(w.aux_assignment());
  if (!overlap_) steps.lap("upload_aux");
  // a, b, c and the aux assignment are on the device once compute_h has
  // queued the uploads (both uploads synchronize). They are freed on a
  // helper thread, joined before this returns (the engine's budget counts
  // them until then): page-locked buffers (pin_witness) are unlocked first,
  // ~66 ms per 4 GiB, time the H MSM need not wait for. Where the engine
  // pools witness buffers (r1cs::buffer_pool_t) they are kept instead,
  // still locked, for the next partition.
  std::future<void> freed;
  out = msms_and_h(w, std::move(aux_d), d, steps, std::move(out),
                   [&](gpu::compute_h_times* times) {
                     gpu::device_scalars h = gpu::compute_h_resident(ev.a, ev.b, ev.c, {}, times);
                     freed = gpu::cuda_async([a = std::move(ev.a), b = std::move(ev.b), c = std::move(ev.c),
                                              aux = w.take_aux_assignment()]() mutable {
                       r1cs::buffer_pool_t::keep_scope keep;
                       for (r1cs::fr_vector* v : {&a, &b, &c, &aux}) r1cs::fr_vector().swap(*v);
                     });
                     return h;
                   });
  freed.get();
  return out;
}

pending_proof_t gpu_prover_t::msms_and_h(const r1cs::witness_cs& w, gpu::device_scalars&& aux_scalars,
                                         const poly::domain_t& d, step_timer_t& steps, pending_proof_t&& out,
                                         const std::function<gpu::device_scalars(gpu::compute_h_times*)>& h_of) const {
  const size_t n_inputs = w.num_inputs();
  const size_t b_inputs = w.b_input_density().total_density();
  const std::span<const fr_t> in_s = w.input_assignment();
  const gpu::device_scalars aux_d = std::move(aux_scalars);
  // The witness MSMs do not need H: each runs on its own thread (every base
  // set has its own stream and scratch) while this thread computes H, so
  // their sorts and bucket sums overlap on the GPU with each other and with
  // the uploads of a, b, c. Threads take this thread's device; they are
  // gpu::cuda_async's, which never exit (see there: a deadlock in the driver).
  const int device = gpu::current_device();
  // Pool threads take this thread's stream priority (a critical worker's
  // WinningPoSt keeps its priority in the MSM tasks it hands off).
  auto on_device = [device, this, high = gpu::thread_stream_priority_high()](auto f) {
    auto task = [device, f, high] {
      gpu::set_device(device);
      gpu::set_thread_stream_priority(high);
      return f();
    };
    return overlap_ ? gpu::cuda_async(task) : std::async(std::launch::deferred, task);
  };
  // The aux assignment is on the device once; L reads it as it is, A and B
  // read it compacted to their densities on the device (no host
  // compaction, no second upload). The inputs are a handful: compacted on
  // the host. One MSM at a time (the lean placement): each frees its
  // scratch for the next.
  gpu::msm_config cfg;
  cfg.release_scratch = one_at_a_time_;
  cfg.threads = msm_threads_;
  auto on_aux = [&](const r1cs::density_tracker& dens) {
    return gpu::compact_by_bits(aux_d, dens.words(), dens.total_density());
  };
  auto l = on_device([&] { return l_.msm(aux_d, aux_d.size(), 0, cfg); });
  auto a_q = on_device([&] {
    const auto a_aux = on_aux(w.a_aux_density());
    return a_.msm(in_s, 0, cfg) + a_.msm(a_aux, a_aux.size(), n_inputs, cfg);
  });
  const auto b_in = compact_dense(in_s, w.b_input_density());
  const auto b_aux = on_aux(w.b_aux_density());
  if (!overlap_) steps.lap("compact_b");
  auto b_g1 = on_device([&] { return b_g1_.msm(b_in, 0, cfg) + b_g1_.msm(b_aux, b_aux.size(), b_inputs, cfg); });
  // B_g2 on the GPU too: measured on the H200 a 2^22 G2 MSM takes 0.2 s there
  // against ~10 s on 16 CPU threads, and with several proofs in flight the
  // CPU B_g2 MSMs became the pipeline's bottleneck (finalize waited on them).
  auto b_g2 = on_device([&] { return b_g2_.msm(b_in, 0, cfg) + b_g2_.msm(b_aux, b_aux.size(), b_inputs, cfg); });
  {
    gpu::compute_h_times times;
    const gpu::device_scalars h = h_of(&times);
    // compute_h in three parts: queueing the uploads (host), the uploads
    // still in flight after that, the transforms after the last upload.
    steps.lap_parts({{"compute_h.queue", times.queued_ms}, {"compute_h.upload", times.uploaded_ms - times.queued_ms}},
                    "compute_h.transforms");
    gpu::msm_config cfg_h = cfg;
    cfg_h.window_bits = h_window_bits_;
    out.h = h_.msm(h, d.n - 1, 0, cfg_h);
  }
  steps.lap("msm_h");
  // From here each step is the wait for a result computed concurrently
  // (with overlap off: the step itself, run when its result is asked for).
  out.l = l.get();
  steps.lap("msm_l");
  out.a = a_q.get();
  steps.lap("msm_a");
  out.b_g1 = b_g1.get();
  steps.lap("msm_b_g1");
  std::promise<ec::jacobian_t<ec::g2_curve>> b_g2_done;
  b_g2_done.set_value(b_g2.get());
  out.b_g2 = b_g2_done.get_future();
  steps.lap("msm_b_g2");
  return std::move(out);
}

}  // namespace cuzk::groth16
