#include "cli/post_files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "cli/cli_support.hpp"
#include "cli/file_io.hpp"
#include "ec/encoding.hpp"
#include "filecoin/post_bincode.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/domain.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_shape.hpp"
#include "porep/post_vanilla.hpp"

namespace cuzk::cli {
namespace {

std::string kind_name(porep::post_kind_t k) {
  return k == porep::post_kind_t::winning ? "winning-post" : "window-post";
}

const filecoin::registered_post_proof_t& registered_for(porep::post_kind_t kind, std::uint64_t sector_bytes,
                                                        const std::string& text) {
  const auto id = filecoin::parse_registered_post_proof(text);
  if (!id) {
    // The proof a new miner registers: Winning V1, Window V1_1 (proofs-api V1_2).
    return filecoin::post_proof_for(kind, sector_bytes,
                                    kind == porep::post_kind_t::winning ? porep::api_version_t::v1_0
                                                                        : porep::api_version_t::v1_2);
  }
  const auto& p = filecoin::post_proof_by_id(*id);
  if (p.kind != kind || p.sector_bytes != sector_bytes)
    throw std::invalid_argument(fmt::format("--registered: {} ({}) is not a {} proof of {} sectors", p.id,
                                            p.ffi_name(), kind_name(kind), filecoin::sector_size_name(sector_bytes)));
  return p;
}

porep::bytes32_t randomness_of_seed(std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x706f7374ull);  // "post"
  porep::bytes32_t r;
  for (auto& b : r) b = std::uint8_t(rng());
  r[31] &= 0x3f;  // reduced, as the chain's randomness reaches the prover
  return r;
}

std::string hex32(const porep::bytes32_t& b) { return ec::to_hex(b); }

porep::bytes32_t parse_randomness(const std::string& text) {
  std::vector<std::uint8_t> v;
  if (!ec::from_hex(text, v)) throw std::invalid_argument("--randomness: not hex: '" + text + "'");
  if (v.size() != 32) throw std::invalid_argument(fmt::format("--randomness: {} bytes, expected 32", v.size()));
  porep::bytes32_t out;
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

}  // namespace

porep::post_kind_t parse_post_kind(const std::string& t) {
  if (t == "window-post" || t == "window" || t == "wpost") return porep::post_kind_t::window;
  if (t == "winning-post" || t == "winning") return porep::post_kind_t::winning;
  throw std::invalid_argument("unknown PoSt kind '" + t + "' (window-post or winning-post)");
}

int run_gen_post_vanilla(const gen_post_args_t& a) {
  stopwatch sw;
  const auto& rp = registered_for(a.kind, porep::parse_sector_size(a.sector_size), a.registered);
  const auto shape = rp.shape();
  if (a.sectors == 0) return report_error("--sectors: at least 1");
  const auto rnd = randomness_of_seed(a.seed);
  const auto prover_id = filecoin::prover_id_from_miner(a.miner_id);
  // The miner's sectors are 1..N. Winning proves the one the randomness picks
  // (generate_winning_post_sector_challenge); Window every one, in partitions.
  std::vector<std::vector<std::uint64_t>> partitions;
  if (a.kind == porep::post_kind_t::winning) {
    const auto pick = porep::winning_sector_challenges(rnd, prover_id, a.sectors);
    partitions.push_back({pick.at(0) + 1});
  } else {
    for (unsigned i = 0; i < a.sectors; ++i) {
      if (i % shape.sectors_per_partition == 0) partitions.emplace_back();
      partitions.back().push_back(i + 1);
    }
  }
  std::filesystem::create_directories(a.out_dir);
  nlohmann::ordered_json sectors = nlohmann::ordered_json::array();
  for (unsigned k = 0; k < partitions.size(); ++k) {
    const auto proofs = porep::generate_post_partition(shape, rp.api_version, rnd, k, partitions[k], a.seed);
    for (const auto& s : proofs) {
      const std::string name = fmt::format("sector-{}.vproof", s.sector_id);
      write_text_file((std::filesystem::path(a.out_dir) / name).string(), filecoin::write_post_sector_bincode(s, rp));
      sectors.push_back({{"sector_id", s.sector_id},
                         {"comm_r", hex32(porep::to_le_bytes(s.comm_r))},
                         {"partition", k},
                         {"file", name}});
    }
  }
  const nlohmann::ordered_json inputs = {{"kind", kind_name(a.kind)},
                                         {"registered_proof", rp.id},
                                         {"registered_name", rp.ffi_name()},
                                         {"randomness", hex32(rnd)},
                                         {"miner_id", a.miner_id},
                                         {"sectors_per_partition", shape.sectors_per_partition},
                                         {"partitions", partitions.size()},
                                         {"sectors", sectors}};
  write_text_file((std::filesystem::path(a.out_dir) / "inputs.json").string(), inputs.dump(2) + "\n");
  fmt::print("{}: {} {} ({}), {} of {} sector(s) in {} partition(s) of {} x {} challenges, seed {}\n", a.out_dir,
             kind_name(a.kind), rp.ffi_name(), rp.id, sectors.size(), a.sectors, partitions.size(),
             shape.sectors_per_partition, shape.challenges_per_sector, a.seed);
  fmt::print("randomness {} miner_id {}\n", hex32(rnd), a.miner_id);
  print_timing("generate", sw.lap());
  return exit_ok;
}

filecoin::post_input_t read_post_files(const post_files_request_t& r, unsigned partition) {
  const auto id = filecoin::parse_registered_post_proof(r.registered);
  if (!id) throw std::invalid_argument("--registered: required (0-14 or a name, e.g. 10 or StackedDrgWindow2KiBV1_1)");
  if (r.randomness.empty()) throw std::invalid_argument("--randomness: required (64 hex digits)");
  const auto rnd = parse_randomness(r.randomness);
  std::vector<std::vector<std::uint8_t>> blobs;
  for (const auto& f : r.files) {
    const std::string text = read_text_file(f);
    blobs.emplace_back(text.begin(), text.end());
  }
  try {
    return filecoin::read_post_request({.kind = r.kind,
                                        .registered_proof = *id,
                                        .vanilla_proofs = blobs,
                                        .randomness = rnd,
                                        .miner_id = r.miner_id,
                                        .partition_index = partition});
  } catch (const std::invalid_argument& e) {
    // Name the file a vanilla_proofs[i] error is about.
    std::string msg = e.what();
    for (std::size_t i = 0; i < r.files.size(); ++i) {
      const std::string tag = fmt::format("vanilla_proofs[{}]", i);
      if (msg.rfind(tag, 0) == 0) {
        msg = r.files[i] + ": " + msg;
        break;
      }
    }
    throw std::invalid_argument(msg);
  }
}

}  // namespace cuzk::cli
