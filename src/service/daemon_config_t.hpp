#pragma once
// The daemon's configuration, read from TOML (load_daemon_config). Sections
// and keys follow Curio's cuzk.toml (../shared/CUZK_API.md section 3) where
// they mean something here; config/cuzk.example.toml documents every key.
// Every key is optional; the defaults below are the documented defaults.
// Unknown keys and keys of the Rust daemon that have no effect here are
// reported in `warnings` (and logged by the daemon), never silently dropped.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine_config_t.hpp"
#include "groth16/gpu_prover.hpp"
#include "service/address_range_t.hpp"

namespace cuzk::service {

struct daemon_config_t {
  // [daemon]
  std::string listen;  // "" = default_listen_address(); always plaintext gRPC (Curio's client)
  // Client address ranges a TCP listener accepts (address_range_t syntax);
  // others are refused before any RPC. Unix sockets rely on file permissions.
  std::vector<std::string> allow = default_allow_list();
  // A second, TLS-only gRPC listener ("IP:port"; "" = none) with the server
  // certificate chain and key (PEM files); with tls_client_ca set, clients
  // must present a certificate that CA signed (mTLS). `allow` applies too.
  std::string tls_listen, tls_cert, tls_key, tls_client_ca;
  std::string status_listen;  // HTTP GET /status and /metrics on "IP:port"; "" = off

  // [memory]
  std::optional<uint64_t> total_budget;            // nullopt = "auto": MemTotal - safety_margin
  uint64_t safety_margin = uint64_t(5) << 30;      // 5 GiB, subtracted only in auto mode
  // Kept free for critical partitions (WinningPoSt); nullopt = "auto" (one
  // 64 GiB WinningPoSt partition); engine_config_t::critical_reserve.
  std::optional<uint64_t> critical_reserve;

  // [gpus]
  std::string backend = "auto";  // auto (cuda when a GPU exists) | cpu | cuda
  std::vector<uint32_t> devices;        // empty = every device found
  uint32_t gpu_workers_per_device = 2;  // prove workers sharing one device
  uint32_t critical_workers_per_device = 1;  // beside them, for critical (WinningPoSt) work only; 0 = none
  std::string param_residency = "auto";  // auto | device | pinned | pageable (gpu/residency.hpp)
  uint64_t device_reserve = 0;           // GPU bytes kept for the proofs' working memory; 0 = estimate
  bool pin_witness = true;               // page-lock witness buffers after synthesis (DMA uploads), pooled
  std::string msm_scratch = "auto";      // auto | per-query | one-at-a-time (gpu_prover_options_t::msm_scratch)
  uint32_t h_window_bits = 0;            // H MSM window width, 0 = automatic (gpu_prover_options_t::h_window_bits)
  uint32_t msm_threads = 0;              // accumulation threads per MSM, 0 = default (gpu_prover_options_t::msm_threads)

  // [synthesis]
  uint32_t synthesis_threads = 0;  // synthesis workers; 0 = hardware threads
  std::string compact_witness = "auto";  // auto | on | off (engine_config_t::compact_witness)

  // [pipeline]
  uint32_t gpu_queue_depth = 2;  // synthesized partitions waiting per prove worker
  uint32_t max_attempts = 3;     // prove attempts per partition before the job fails
  uint32_t finalizer_threads = 2;  // CPU threads running finalize (B_g2 join, assembly, verify)

  // [srs]
  std::string param_cache;               // "" = $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters
  std::vector<std::string> srs_preload;  // circuit ids loaded at start-up
  bool srs_release_host_copy = true;     // engine_config_t::release_host_params
  bool srs_subgroup_checks = true;       // engine_config_t::param_subgroup_checks

  // [logging]
  std::string log_level = "info";  // trace debug info warn error critical off
  std::string log_format = "text"; // text | json

  // [proofs]
  bool verify_proofs = true;  // self-check each proof with the verifier before returning it

  // [results]
  std::chrono::milliseconds result_retention{10 * 60 * 1000};  // finished results kept for AwaitProof

  std::vector<std::string> warnings;  // unknown or ineffective keys, one line each

  std::string resolved_listen() const;
  std::vector<address_range_t> allow_ranges() const;  // parse_allow_list(allow)
  std::string resolved_param_cache() const;
  engine::engine_config_t engine_config() const;
  // How the CUDA backend builds its provers (residency, proofs in flight).
  groth16::gpu_prover_options_t gpu_options() const;
};

// Reads a TOML file. Throws config_error naming the file, the key and the
// reason for a syntax error, a value of the wrong type or a malformed size /
// duration / address. A missing file is an error too (the caller decides
// whether a missing default path is fine).
daemon_config_t load_daemon_config(const std::string& path);
// The same on TOML text (tests, and `name` appears in messages).
daemon_config_t parse_daemon_config(std::string_view toml_text, const std::string& name);

}  // namespace cuzk::service
