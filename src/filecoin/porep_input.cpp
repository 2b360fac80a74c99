#include "filecoin/porep_input.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "filecoin/c1_bincode.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/curio_envelope.hpp"
#include "filecoin/json_stream_t.hpp"
#include "porep/labeling.hpp"
#include "porep/vanilla_checker.hpp"
#include "porep/vanilla_json.hpp"

namespace cuzk::filecoin {

using porep::vanilla_format_error;

std::string_view to_string(porep_input_format_t f) {
  switch (f) {
    case porep_input_format_t::curio_envelope: return "Curio envelope";
    case porep_input_format_t::c1_json: return "C1 JSON";
    case porep_input_format_t::cuzk_vanilla: return "cuzk vanilla JSON";
    case porep_input_format_t::c1_bincode: return "bincode C1";
  }
  return "?";
}

namespace {

bool is_cuzk_vanilla(std::span<const std::uint8_t> b) {
  // Our writer puts "format" among the first keys (sorted); a C1 never has it.
  const std::string_view head(reinterpret_cast<const char*>(b.data()), std::min<std::size_t>(b.size(), 4096));
  return head.find(std::string("\"") + porep::vanilla_format_name + "\"") != std::string_view::npos;
}

}  // namespace

porep_input_t read_porep_input(std::span<const std::uint8_t> bytes, std::optional<std::uint64_t> bincode_proof) {
  porep_input_t in;
  if (looks_like_curio_envelope(bytes)) {
    in.format = porep_input_format_t::curio_envelope;
    auto env = read_curio_envelope(bytes);
    in.sector_num = env.sector_num;
    in.envelope_sector_size = env.sector_size;
    try {
      in.c1 = read_c1_json(env.phase1_out);
    } catch (const vanilla_format_error& e) {
      throw vanilla_format_error("Phase1Out: " + e.element(),
                                 std::string(e.what()).substr(e.element().size() + 2));
    }
    in.vanilla = in.c1->vanilla;
    return in;
  }
  if (is_cuzk_vanilla(bytes)) {
    in.format = porep_input_format_t::cuzk_vanilla;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(bytes.begin(), bytes.end());
    } catch (const nlohmann::json::exception& e) {
      throw vanilla_format_error("vanilla proof", "not valid JSON: " + json_error_text(e));
    }
    in.vanilla = porep::vanilla_from_json(j);
    if (auto bad = porep::check_vanilla(in.vanilla)) throw vanilla_format_error(bad->element, bad->reason);
    return in;
  }
  std::size_t i = 0;
  while (i < bytes.size() && std::isspace(bytes[i])) ++i;
  if (i == bytes.size()) throw vanilla_format_error("vanilla proof", "empty");
  if (bytes[i] != '{') {
    // supra_seal's bincode form (its first bytes are the partition count, u64 LE).
    if (!bincode_proof)
      throw vanilla_format_error("vanilla proof", "not JSON, so read as supra_seal's bincode C1, which needs the "
                                                  "registered seal proof (registered_proof / --registered)");
    in.format = porep_input_format_t::c1_bincode;
    try {
      in.c1 = read_c1_bincode(bytes, seal_proof_by_id(*bincode_proof));
    } catch (const vanilla_format_error&) {
      throw;
    } catch (const std::invalid_argument& e) {
      throw vanilla_format_error("registered_proof", e.what());
    }
    in.vanilla = in.c1->vanilla;
    return in;
  }
  in.format = porep_input_format_t::c1_json;
  in.c1 = read_c1_json(bytes);
  in.vanilla = in.c1->vanilla;
  return in;
}

void check_porep_request(const porep_input_t& in, const porep_request_facts_t& f) {
  const std::uint64_t bytes = in.vanilla.params.sector_bytes;
  if (f.sector_size && f.sector_size != bytes)
    throw std::invalid_argument(fmt::format("sector_size: the request says {} ({} bytes), but the vanilla proof is "
                                            "for a {} sector",
                                            sector_size_name(f.sector_size), f.sector_size, sector_size_name(bytes)));
  if (in.envelope_sector_size && *in.envelope_sector_size != bytes)
    throw std::invalid_argument(fmt::format("SectorSize: the envelope says {} bytes, but its C1 is for a {} sector",
                                            *in.envelope_sector_size, sector_size_name(bytes)));
  if (!in.c1) return;
  if (f.registered_proof) {
    // Curio sets the request's registered_proof from the sector's; the C1 decides (as Curio's daemon does),
    // but a different size is a mismatch worth refusing.
    const auto& rp = seal_proof_by_id(f.registered_proof);
    if (rp.sector_bytes != bytes)
      throw std::invalid_argument(fmt::format("registered_proof: {} ({}) is for {} sectors, but the C1 is {}",
                                              f.registered_proof, rp.name(), sector_size_name(rp.sector_bytes),
                                              in.c1->proof.name()));
  }
  const std::uint64_t sector = f.sector_number ? f.sector_number : in.sector_num.value_or(0);
  if (f.miner_id == 0 || sector == 0) return;
  const auto prover_id = prover_id_from_miner(f.miner_id);
  const auto expect = porep::compute_replica_id(prover_id, sector, in.c1->ticket, in.vanilla.comm_d,
                                                in.vanilla.params.porep_id());
  if (expect != in.vanilla.replica_id)
    throw std::invalid_argument(fmt::format(
        "replica_id: the C1's replica_id is not the one derived from miner_id {} and sector_number {} with the C1's "
        "ticket, comm_d and porep_id (got 0x{}, derived 0x{}): wrong sector or miner?",
        f.miner_id, sector, in.vanilla.replica_id.to_hex(), expect.to_hex()));
  if (in.sector_num && f.sector_number && *in.sector_num != f.sector_number)
    throw std::invalid_argument(fmt::format("sector_number: the request says {}, the envelope's SectorNum {}",
                                            f.sector_number, *in.sector_num));
}

}  // namespace cuzk::filecoin
