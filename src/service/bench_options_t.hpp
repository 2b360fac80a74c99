#pragma once
// What `cuzk bench` runs: `proofs` jobs of one built-in circuit, at most
// `concurrency` in flight (each in-flight slot submits the next job as soon as
// its previous one returns). sequential = one job at a time, so nothing
// overlaps except the partitions of one job (use partitions = 1 for none).
// With vanilla_proof set, every job is a PoRep C2 of that vanilla proof
// (circuit "porep", size = its sector bytes, partitions = its partitions).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cuzk::service {

struct bench_options_t {
  std::string circuit = "hash-chain";
  uint64_t size = 0;        // 0 = the circuit's default
  uint32_t partitions = 1;  // partitions per job
  uint32_t proofs = 4;
  uint32_t concurrency = 2;
  bool sequential = false;
  bool timeline = false;    // ask the engine for per-partition stage times
  // Shared: 50 MB at 32 GiB, and the options are copied into each report.
  std::shared_ptr<const std::vector<uint8_t>> vanilla_proof;
  // Sent with it as Curio sends them (0 = not sent): the FFI registered seal
  // proof, and the sector's miner and number, which the daemon checks the
  // C1's replica_id against.
  uint64_t registered_proof = 0, miner_id = 0, sector_number = 0;
  std::chrono::milliseconds sample_interval{100};    // RSS and gauge samples
  std::chrono::milliseconds progress_interval{1000};  // progress lines, when a stream is given
};

}  // namespace cuzk::service
