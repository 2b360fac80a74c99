#include "filecoin/seal_record_t.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cuzk::filecoin {

namespace detail {
extern const std::string_view seal_records_v16_json, seal_records_v18_json;
}

namespace {

porep::bytes32_t bytes32(const nlohmann::json& j, const char* what) {
  const auto v = j.get<std::vector<std::uint8_t>>();
  if (v.size() != 32) throw std::invalid_argument(std::string(what) + ": expected 32 bytes");
  porep::bytes32_t b;
  std::copy(v.begin(), v.end(), b.begin());
  return b;
}

}  // namespace

std::vector<seal_record_t> read_seal_records(std::string_view text, const std::string& name) {
  std::vector<seal_record_t> out;
  std::size_t lineno = 0, at = 0;
  while (at < text.size()) {
    const auto nl = text.find('\n', at);
    const auto line = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    ++lineno;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    seal_record_t r;
    r.origin = name + ":" + std::to_string(lineno);
    try {
      const auto j = nlohmann::json::parse(line);
      const auto& cfg = j.at("porep_config");
      r.config.sector_bytes = cfg.at("sector_size").get<std::uint64_t>();
      r.config.partitions = cfg.at("partitions").get<unsigned>();
      r.config.porep_id = bytes32(cfg.at("porep_id"), "porep_id");
      r.config.api_version = porep::parse_api_version(cfg.at("api_version").get<std::string>());
      const auto feats = cfg.at("api_features").get<std::vector<std::string>>();
      if (feats.size() > 1) throw std::invalid_argument("api_features: more than one feature");
      r.config.feature = porep::parse_porep_feature(feats.empty() ? "" : feats[0]);
      r.comm_r = bytes32(j.at("comm_r"), "comm_r");
      r.comm_d = bytes32(j.at("comm_d"), "comm_d");
      r.prover_id = bytes32(j.at("prover_id"), "prover_id");
      r.ticket = bytes32(j.at("ticket"), "ticket");
      r.seed = bytes32(j.at("seed"), "seed");
      r.sector_id = j.at("sector_id").get<std::uint64_t>();
      r.proof = j.at("proof").get<std::vector<std::uint8_t>>();
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(r.origin + ": " + e.what());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(r.origin + ": " + e.what());
    }
    out.push_back(std::move(r));
  }
  return out;
}

const std::vector<seal_record_t>& upstream_seal_records() {
  static const std::vector<seal_record_t> all = [] {
    auto v = read_seal_records(detail::seal_records_v16_json, "seal_regression_records-v16.json");
    auto w = read_seal_records(detail::seal_records_v18_json, "seal_regression_records-v18.json");
    v.insert(v.end(), std::make_move_iterator(w.begin()), std::make_move_iterator(w.end()));
    return v;
  }();
  return all;
}

}  // namespace cuzk::filecoin
