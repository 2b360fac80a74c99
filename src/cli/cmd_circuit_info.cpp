// cuzk circuit-info --kind porep|window-post|winning-post|snap --sector-size S [--full-shape]
//                   [--gpu-memory SIZE [--workers N]]
// Counts of one partition circuit in shape mode (no witness values), what one
// in-flight partition costs, and with --gpu-memory the GPU plan of its
// parameters on a device with that much free memory.
#include <bit>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/ranges.h>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_layout_t.hpp"
#include "circuits/compiled_for.hpp"
#include "circuits/post_circuit.hpp"
#include "circuits/snap_circuit.hpp"
#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "engine/partition_footprint_t.hpp"
#include "groth16/gpu_prover.hpp"
#include "porep/post_shape.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/snap_shape.hpp"
#include "r1cs/shape_cs.hpp"
#include "service/config_values.hpp"

namespace cuzk::cli {
namespace {

struct circuit_info_options {
  std::string kind = "porep", sector_size;
  bool full_shape = false;
  bool no_wide_bound = false;
  std::string gpu_memory;  // empty: no plan printed
  uint32_t workers = 2;    // [gpus] gpu_workers_per_device's default
};

void print_step(const char* what, const circuits::porep_slot_t& s) {
  fmt::print("    {:<12} row {:>11}  aux {:>11}  rows {:>10}  aux {:>10}  inputs {}\n", what, s.row, s.aux,
             s.row_end - s.row, s.aux_end - s.aux, s.input_end - s.input);
}

// GiB, or MiB below one GiB (a compact partition's few MiB would read 0.00 GiB), or KiB below one MiB.
std::string gib(uint64_t bytes) {
  if (bytes > 0 && bytes < (uint64_t(1) << 20)) return fmt::format("{:.1f} KiB", double(bytes) / 1024.0);
  if (bytes < (uint64_t(1) << 30)) return fmt::format("{:.1f} MiB", double(bytes) / double(uint64_t(1) << 20));
  return fmt::format("{:.2f} GiB", double(bytes) / double(uint64_t(1) << 30));
}

// What the circuit's compiled form tells (unless --no-wide-bound): the bound
// on aux values other than 0 and 1 and the parameters' query counts.
struct compiled_info_t {
  std::optional<uint64_t> wide_bound;
  std::optional<groth16::query_sizes_t> queries;
  uint64_t rows_bytes = 0;  // the compiled rows' device copy, as the engine plans it
};

// The automatic GPU plan of the parameters (gpu_prover_t::plan, what the
// engine does when the set is registered) on a device with `free` bytes free
// and `workers` prove workers, the compiled rows planned beside them as the
// compact witness (the CUDA default) needs them.
void print_gpu_plan(const compiled_info_t& info, uint64_t free, uint32_t workers) {
  groth16::gpu_prover_options_t o;
  o.proofs_in_flight = workers;
  o.rows_bytes = info.rows_bytes;
  const auto p = groth16::gpu_prover_t::plan(*info.queries, o, free);
  fmt::print("GPU plan for {} free and {} worker{} (msm_scratch and h_window_bits automatic, this set alone):\n",
             gib(free), workers, workers == 1 ? "" : "s");
  fmt::print("  placement:                       {}\n", p.residency.describe(groth16::gpu_prover_t::query_names));
  fmt::print("  on the device:                   {} of points; {} streamed over PCIe per proof\n",
             gib(p.residency.device_bytes), gib(p.residency.streamed_bytes));
  fmt::print("  working memory:                  {} planned ({}), compiled rows {}, H MSM window {}\n",
             gib(p.working), p.one_at_a_time ? "MSMs one at a time" : "MSMs at once", gib(info.rows_bytes),
             p.h_window_bits ? std::to_string(p.h_window_bits) + " bits" : std::string("the cost model's"));
  if (const auto f = groth16::gpu_prover_t::fewer_workers(*info.queries, o, free)) {
    fmt::print("  fewer workers:                   with {} worker{} per GPU, {} on the device and {} streamed per proof\n"
               "                                   (each worker's proof reserves working memory the queries could use)\n",
               f->workers, f->workers == 1 ? "" : "s", gib(f->plan.residency.device_bytes),
               gib(f->plan.residency.streamed_bytes));
  }
  if (!p.residency.fits)
    fmt::print("  the planned working memory leaves no room even for the streamed windows: every query streams\n");
}

// What one in-flight partition costs (issue 18 part 5), from the footprint
// code the engine admits with (engine/partition_footprint_t.hpp) and the GPU
// prover's device plan (gpu_prover_t::working_bytes), so a machine can be
// sized before it is bought. `counts` include the input constraints.
// info.wide_bound: the compiled rows' bound on aux values other than 0 and 1
// (any_circuit::compact_wide_bound, what the engine passes with a compact
// witness); nullopt when it was not computed (every aux counted wide).
// info.queries: the parameters' counts, for their sizes and the GPU's plan
// (without them the A and B queries count every variable).
// o.gpu_memory, o.workers: the device to plan the parameters for (none: no plan).
void print_capacity(const r1cs::shape_counts_t& counts, const compiled_info_t& info, const circuit_info_options& o) {
  const auto& wide_bound = info.wide_bound;
  const auto cpu = engine::partition_footprint(counts);
  const auto cuda = engine::gpu_compact_partition_footprint(counts, wide_bound);
  const uint64_t held = engine::compact_assignment_max_bytes(counts.num_aux, wide_bound) + 32 * counts.num_inputs +
                        engine::density_bytes(counts) + cuda.pending;
  fmt::print("capacity per in-flight partition (what the engine reserves):\n");
  if (wide_bound) {
    fmt::print("  aux values other than 0 and 1:   at most {} of {} ({:.4f} %; the compiled rows force the rest\n"
               "                                   to be bits)\n",
               *wide_bound, counts.num_aux, 100.0 * double(*wide_bound) / double(counts.num_aux));
  } else {
    fmt::print("  aux values other than 0 and 1:   not bounded here (--no-wide-bound): every aux counted\n");
  }
  fmt::print("  host bytes per partition (cuda): {} while it is synthesized, then at most {} until\n"
             "                                   prove_start ends (compact witness, a, b, c formed on the GPU),\n"
             "                                   then {} until finalize\n",
             gib(cuda.full()), gib(held), gib(cuda.pending));
  fmt::print("  host bytes per partition (cpu):  {} ({} until prove_start ends, {} until finalize)\n", gib(cpu.full()),
             gib(cpu.working), gib(cpu.pending));
  const uint64_t vars = counts.num_inputs + counts.num_aux;
  const groth16::query_sizes_t q =
      info.queries.value_or(groth16::query_sizes_t{counts.num_inputs, cuda.domain - 1, counts.num_aux, vars, vars, vars});
  const uint64_t one = groth16::gpu_prover_t::working_bytes(q, 1), two = groth16::gpu_prover_t::working_bytes(q, 2);
  const uint64_t lean_one = groth16::gpu_prover_t::working_bytes(q, 1, true);
  const uint64_t lean_two = groth16::gpu_prover_t::working_bytes(q, 2, true);
  fmt::print("  GPU bytes per worker:            {}{} per proof in flight, plus {} per device for the\n"
             "                                   MSMs' scratch and NTT tables (MSMs one at a time: {} per proof,\n"
             "                                   {} per device), beside the parameters' resident queries\n",
             info.queries ? "" : "at most ", gib(two - one), gib(2 * one - two), gib(lean_two - lean_one),
             gib(2 * lean_one - lean_two));
  if (q.h + 1 >= groth16::gpu_prover_options_t::wide_h_min_points) {
    const uint32_t bits = groth16::gpu_prover_options_t::wide_h_window_bits;
    fmt::print("  H MSM window:                    {} bits where the device has room for their buckets ([gpus]\n"
               "                                   h_window_bits = 0): {} more scratch, per device (per proof with\n"
               "                                   the MSMs one at a time); else the cost model's\n",
               bits, gib(groth16::gpu_prover_t::working_bytes(q, 1, false, 0, bits) - one));
  }
  if (!info.queries) return;
  // The parameter set (issue 18): where it lives on each backend.
  const uint64_t file = groth16::parameter_file_bytes(*info.queries);
  const uint64_t vk = 3 * 96 + 3 * 192 + 96 * q.ic;
  fmt::print("parameters (the layout a setup of this circuit writes, as the official file):\n");
  fmt::print("  queries:                         h {}, l {}, a {}, b_g1 {}, b_g2 {}, ic {}\n", q.h, q.l, q.a, q.b_g1,
             q.b_g2, q.ic);
  fmt::print("  file:                            {}\n", gib(file));
  fmt::print("  host bytes (cpu):                {} (the whole set, read once)\n", gib(file));
  fmt::print("  host bytes (cuda, every query on the GPU): {} (the verifying key; the queries are read from the\n"
             "                                   file onto the GPU, at most 768 MiB at a time while loading)\n",
             gib(vk));
  fmt::print("  GPU bytes for every query on the device: {} with 2 workers and the MSMs one at a time\n"
             "                                   ({} of points + {} working memory)\n",
             gib(file + lean_two), gib(file), gib(lean_two));
  if (!o.gpu_memory.empty()) print_gpu_plan(info, service::parse_size(o.gpu_memory), o.workers);
}

// The circuit's compiled form (the engine's), timed, unless --no-wide-bound.
compiled_info_t compiled_of(const circuit_info_options& o, filecoin::parameter_kind_t kind, uint64_t sector_bytes) {
  if (o.no_wide_bound) return {};
  stopwatch sw;
  const auto compiled = circuits::compiled_for(kind, sector_bytes);
  const double compile_ms = sw.lap();
  const uint64_t bound = compiled->wide_aux_bound();
  fmt::print("compiled rows: {:.1f} ms; bound on values other than 0 and 1: {:.1f} ms\n", compile_ms, sw.lap());
  return {bound, circuits::parameter_query_sizes(*compiled), compiled->view().planned_device_bytes()};
}

// One partition's counts: `c` in circuit rows (no input rows), ONE included in inputs.
void print_partition_counts(const r1cs::shape_counts_t& c) {
  const size_t constraints = c.num_constraints + c.num_inputs;
  fmt::print("per partition:\n");
  fmt::print("  constraints {:>12}  (circuit rows {} + {} input rows)\n", constraints, c.num_constraints,
             c.num_inputs);
  fmt::print("  inputs      {:>12}  (ONE included)\n", c.num_inputs);
  fmt::print("  aux         {:>12}\n", c.num_aux);
  fmt::print("  domain      {:>12}  (2^{})\n", std::bit_ceil(constraints), std::countr_zero(std::bit_ceil(constraints)));
}

// A PoSt partition: every sector block has one shape, so one block in shape
// mode times the block count gives the totals (post_circuit::counts).
int run_post_circuit_info(const circuit_info_options& o) {
  const auto kind = o.kind == "window-post" ? porep::post_kind_t::window : porep::post_kind_t::winning;
  const uint64_t sector_bytes = porep::parse_sector_size(o.sector_size);
  const circuits::post_circuit circuit(porep::post_shape_for(kind, sector_bytes));
  stopwatch sw;
  const auto c = circuit.counts();
  const auto b = circuit.block_counts();
  const double ms = sw.lap();
  const size_t constraints = c.num_constraints + c.num_inputs;
  fmt::print("{}\n", circuit.description());
  print_partition_counts(c);
  fmt::print("  sector block: {} rows, {} aux, {} inputs; {} blocks\n", b.num_constraints, b.num_aux, b.num_inputs,
             circuit.params().sector_count);
  fmt::print("shape mode (one block): {:.1f} ms\n", ms);
  print_capacity({constraints, c.num_inputs, c.num_aux},
                 compiled_of(o,
                               kind == porep::post_kind_t::window ? filecoin::parameter_kind_t::window_post
                                                                  : filecoin::parameter_kind_t::winning_post,
                               sector_bytes),
                 o);
  if (o.full_shape) {
    r1cs::shape_cs cs;
    circuit.synthesize(cs);
    const double full_ms = sw.lap();
    fmt::print("full shape synthesis: {} rows, {} inputs, {} aux ({:.1f} ms)\n", cs.num_constraints(), cs.num_inputs(),
               cs.num_aux(), full_ms);
    if (cs.counts() != c) return report_error("full shape synthesis disagrees with the per-block counts", exit_internal);
  }
  return exit_ok;
}

// A SnapDeals partition: one full shape pass (81 M rows at 32 GiB, a few
// seconds). Every size upstream allows, the 1 KiB … 32 KiB test shapes too.
int run_snap_circuit_info(const circuit_info_options& o) {
  const uint64_t sector_bytes = porep::parse_byte_size(o.sector_size);
  const circuits::snap_circuit circuit(porep::snap_shape_for(sector_bytes));
  stopwatch sw;
  const auto c = circuit.counts();
  const double ms = sw.lap();
  const size_t constraints = c.num_constraints + c.num_inputs;
  const auto& s = circuit.shape();
  fmt::print("{}\n", circuit.description());
  fmt::print("partitions:   {}\n", s.partitions);
  print_partition_counts(c);
  fmt::print("  challenges {}, apex leaves {}, h {} (of {}), Tree D height {}, apex row {}\n", s.challenges,
             s.apex_leaves, s.h_default(), fmt::join(s.hs, ","), s.challenge_bit_len, s.apex_height());
  fmt::print("shape mode: {:.1f} ms\n", ms);
  print_capacity({constraints, c.num_inputs, c.num_aux},
                 compiled_of(o, filecoin::parameter_kind_t::snap_deals, sector_bytes), o);
  return exit_ok;
}

int run_circuit_info(const circuit_info_options& o) {
  if (!o.gpu_memory.empty()) {
    try {
      if (service::parse_size(o.gpu_memory) == 0) throw std::invalid_argument("zero bytes");
    } catch (const std::exception& e) {
      return report_error("circuit-info: --gpu-memory '" + o.gpu_memory + "': " + e.what() +
                          " (expected a size such as 78GiB)");
    }
    if (o.no_wide_bound)
      return report_error("circuit-info: --gpu-memory plans the parameters' counts from the compiled rows, "
                          "which --no-wide-bound skips");
  }
  if (o.kind == "window-post" || o.kind == "winning-post") return run_post_circuit_info(o);
  if (o.kind == "snap") return run_snap_circuit_info(o);
  if (o.kind != "porep")
    return report_error("circuit-info: unknown --kind '" + o.kind + "' (known: porep, window-post, winning-post, snap)");
  const auto params = porep::sector_params_for(porep::parse_sector_size(o.sector_size));
  const circuits::porep_circuit circuit(circuits::porep_circuit_shape_t::for_sector(params));
  stopwatch sw;
  const auto l = circuits::porep_layout_t::measure(circuit);
  const double ms = sw.lap();
  fmt::print("{}\n", circuit.description());
  fmt::print("partitions:   {}\n", params.partitions);
  fmt::print("per partition:\n");
  fmt::print("  constraints {:>12}  (circuit rows {} + {} input rows)\n", l.num_constraints(), l.circuit_rows(),
             l.num_inputs());
  fmt::print("  inputs      {:>12}  (ONE included)\n", l.num_inputs());
  fmt::print("  aux         {:>12}\n", l.num_aux());
  fmt::print("  domain      {:>12}  (2^{})\n", std::bit_ceil(l.num_constraints()),
             std::countr_zero(std::bit_ceil(l.num_constraints())));
  fmt::print("  top block: {} rows, {} aux; challenge block: {} rows, {} aux, {} inputs\n", l.top.row_end,
             l.top.aux_end, l.block_rows, l.block_aux, l.block_inputs);
  fmt::print("  challenge block steps (offsets relative to the block):\n");
  print_step("leaf", l.leaf);
  print_step("tree_d", l.tree_d);
  print_step("parents", l.parents);
  print_step("challenge", l.challenge);
  for (size_t i = 0; i < l.labels.size(); ++i) print_step(i == 0 ? "labels" : "", l.labels[i]);
  print_step("tail", l.tail);
  fmt::print("shape mode (top + one challenge block): {:.1f} ms\n", ms);
  print_capacity({l.num_constraints(), l.num_inputs(), l.num_aux()},
                 compiled_of(o, filecoin::parameter_kind_t::porep, params.sector_bytes), o);
  if (o.full_shape) {
    r1cs::shape_cs cs;
    circuit.synthesize(cs);
    cs.add_input_constraints();
    const double full_ms = sw.lap();
    fmt::print("full shape synthesis: {} constraints, {} inputs, {} aux ({:.1f} ms)\n", cs.num_constraints(),
               cs.num_inputs(), cs.num_aux(), full_ms);
    if (cs.num_constraints() != l.num_constraints() || cs.num_aux() != l.num_aux() ||
        cs.num_inputs() != l.num_inputs()) {
      return report_error("full shape synthesis disagrees with the per-block layout", exit_internal);
    }
  }
  return exit_ok;
}

}  // namespace

command_t add_circuit_info_command(CLI::App& root) {
  auto o = std::make_shared<circuit_info_options>();
  auto* app = root.add_subcommand("circuit-info", "Constraint, input and aux counts of a circuit (shape mode)");
  app->add_option("--kind", o->kind, "Circuit kind (porep, window-post, winning-post, snap)")->capture_default_str();
  app->add_option("--sector-size", o->sector_size, "Sector size: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (snap also 1KiB … 32KiB, 16MiB)")->required();
  app->add_flag("--full-shape", o->full_shape,
                "Also synthesize every challenge (PoSt: sector) block in shape mode and check the totals agree");
  app->add_option("--gpu-memory", o->gpu_memory,
                  "Also print the automatic GPU plan of the parameters for this much free device memory "
                  "(e.g. 139GiB for an H200, 78GiB for an H100 80GB)");
  app->add_option("--workers", o->workers, "Prove workers per GPU for --gpu-memory ([gpus] gpu_workers_per_device)")
      ->capture_default_str()
      ->check(CLI::Range(1, 16));
  app->add_flag("--no-wide-bound", o->no_wide_bound,
                "Skip compiling the rows and bounding the aux values other than 0 and 1 (seconds at 32 GiB): "
                "the CUDA figures then count every aux value as wide");
  return {app, [o] { return run_circuit_info(*o); }};
}

}  // namespace cuzk::cli
