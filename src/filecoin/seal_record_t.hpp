#pragma once
// rust-fil-proofs' seal regression records (filecoin-proofs
// tests/seal_regression_records-v16.json and -v18.json; FILECOIN_FORMATS.md
// §7): real seal proofs, each saved after verify_seal accepted it with the
// official v28 keys, one JSON object per line. Both files are compiled into
// the binary (`cuzk compat-check` verifies them with a user's official keys).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/porep_config_t.hpp"

namespace cuzk::filecoin {

struct seal_record_t {
  std::string origin;  // "seal_regression_records-v16.json:443"
  porep_config_t config;
  porep::bytes32_t comm_r{}, comm_d{}, prover_id{}, ticket{}, seed{};
  std::uint64_t sector_id = 0;
  std::vector<std::uint8_t> proof;  // 192 bytes per partition (an aggregate for NonInteractivePoRep)
};

// Parses JSON lines; blank lines are skipped. Throws std::invalid_argument
// naming "<name>:<line>" and the field.
std::vector<seal_record_t> read_seal_records(std::string_view text, const std::string& name);

// The v16 and v18 files, as compiled in.
const std::vector<seal_record_t>& upstream_seal_records();

}  // namespace cuzk::filecoin
