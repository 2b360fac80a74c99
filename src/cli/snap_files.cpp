#include "cli/snap_files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/file_io.hpp"
#include "ec/encoding.hpp"
#include "filecoin/snap_bincode.hpp"
#include "porep/domain.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/snap_vanilla.hpp"

namespace cuzk::cli {
namespace {

std::vector<std::uint8_t> parse_comm(const std::string& text, const char* option) {
  if (text.empty())
    throw std::invalid_argument(fmt::format("{}: required (64 hex digits, the raw commitment)", option));
  std::vector<std::uint8_t> v;
  if (!ec::from_hex(text, v)) throw std::invalid_argument(fmt::format("{}: not hex: '{}'", option, text));
  if (v.size() != 32) throw std::invalid_argument(fmt::format("{}: {} bytes, expected 32", option, v.size()));
  return v;
}

}  // namespace

int run_gen_snap_vanilla(const gen_snap_args_t& a) {
  stopwatch sw;
  const std::uint64_t bytes = porep::parse_byte_size(a.sector_size);
  const filecoin::registered_update_proof_t* rp = nullptr;
  for (const auto& p : filecoin::registered_update_proofs())
    if (p.sector_bytes == bytes) rp = &p;
  if (!rp)
    return report_error(fmt::format("--sector-size: {} has no registered update proof (2KiB, 8MiB, 512MiB, 32GiB, "
                                    "64GiB)",
                                    a.sector_size));
  const auto shape = rp->shape();
  const bool blocks = a.repeated_blocks || shape.nodes > (std::uint64_t(1) << 24);
  const porep::snap_sector_t sector(shape, a.seed, std::nullopt,
                                    blocks ? porep::snap_sector_model_t::repeated_blocks
                                           : porep::snap_sector_model_t::random);
  const char* model = blocks ? "repeated-blocks" : "random";
  const double build_ms = sw.lap();
  std::filesystem::create_directories(a.out_dir);
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (unsigned k = 0; k < shape.partitions; ++k) {
    const std::string name = fmt::format("partition-{}.vproof", k);
    write_text_file((std::filesystem::path(a.out_dir) / name).string(),
                    filecoin::write_snap_partition_bincode(sector.partition_proof(k), shape));
    files.push_back(name);
  }
  const auto pub = sector.public_inputs(0);
  auto hex = [](const ff::fr_t& x) { return ec::to_hex(porep::to_le_bytes(x)); };
  const nlohmann::ordered_json inputs = {{"kind", "snap"},
                                         {"registered_proof", rp->id},
                                         {"registered_name", rp->name()},
                                         {"comm_r_old", hex(pub.comm_r_old)},
                                         {"comm_r_new", hex(pub.comm_r_new)},
                                         {"comm_d_new", hex(pub.comm_d_new)},
                                         {"partitions", shape.partitions},
                                         {"model", model},
                                         {"files", files}};
  write_text_file((std::filesystem::path(a.out_dir) / "inputs.json").string(), inputs.dump(2) + "\n");
  fmt::print("{}: snap {} ({}), {} partition(s) x {} challenges, h {}, {} model, seed {}\n", a.out_dir, rp->name(),
             rp->id, shape.partitions, shape.challenges, pub.h, model, a.seed);
  fmt::print("comm_r_old {} comm_r_new {} comm_d_new {}\n", hex(pub.comm_r_old), hex(pub.comm_r_new),
             hex(pub.comm_d_new));
  print_timing("sector model", build_ms);
  print_timing("write", sw.lap());
  return exit_ok;
}

filecoin::snap_input_t read_snap_files(const snap_files_request_t& r) {
  const auto id = filecoin::parse_registered_update_proof(r.registered);
  if (!id) throw std::invalid_argument("--registered: required (0-4 or a name, e.g. 0 or StackedDrg2KiBV1)");
  const auto old_r = parse_comm(r.comm_r_old, "--comm-r-old"), new_r = parse_comm(r.comm_r_new, "--comm-r-new"),
             new_d = parse_comm(r.comm_d_new, "--comm-d-new");
  std::vector<std::vector<std::uint8_t>> blobs;
  for (const auto& f : r.files) {
    const std::string text = read_text_file(f);
    blobs.emplace_back(text.begin(), text.end());
  }
  try {
    return filecoin::read_snap_request({.registered_proof = *id,
                                        .vanilla_proofs = blobs,
                                        .comm_r_old = old_r,
                                        .comm_r_new = new_r,
                                        .comm_d_new = new_d});
  } catch (const std::invalid_argument& e) {
    std::string msg = e.what();
    for (std::size_t i = 0; i < r.files.size(); ++i)
      if (msg.rfind(fmt::format("vanilla_proofs[{}]", i), 0) == 0) {
        msg = r.files[i] + ": " + msg;
        break;
      }
    throw std::invalid_argument(msg);
  }
}

}  // namespace cuzk::cli
