#pragma once
// cuzk.v1.ProvingEngine on top of an engine_t (synchronous gRPC API: each call
// runs on one of gRPC's server threads). Engine errors become gRPC codes:
//   invalid_request -> INVALID_ARGUMENT, unknown_job -> NOT_FOUND,
//   never_fits -> RESOURCE_EXHAUSTED, engine_stopped -> UNAVAILABLE,
//   anything else -> INTERNAL.
// A resubmitted request_id attaches to its job (engine_t::submit), so
// Curio's retry after its Prove deadline gets the running job's proof.
// A proof that fails is not an RPC error: OK with status FAILED and the
// reason in error_message, as Curio's client expects.
#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "service/address_range_t.hpp"

namespace cuzk::service {

class proving_service_t final : public cuzk::v1::ProvingEngine::Service {
 public:
  // allow: client ranges checked on every RPC from a TCP peer that gRPC
  // accepted itself (the TLS listener); empty = no check. Connections of the
  // plaintext TCP listener are checked earlier, by tcp_gate_t.
  explicit proving_service_t(engine::engine_t& engine, std::vector<address_range_t> allow = {})
      : engine_(engine), allow_(std::move(allow)) {}

  grpc::Status SubmitProof(grpc::ServerContext*, const cuzk::v1::SubmitProofRequest*,
                           cuzk::v1::SubmitProofResponse*) override;
  grpc::Status AwaitProof(grpc::ServerContext*, const cuzk::v1::AwaitProofRequest*,
                          cuzk::v1::AwaitProofResponse*) override;
  grpc::Status Prove(grpc::ServerContext*, const cuzk::v1::ProveRequest*, cuzk::v1::ProveResponse*) override;
  grpc::Status CancelProof(grpc::ServerContext*, const cuzk::v1::CancelProofRequest*,
                           cuzk::v1::CancelProofResponse*) override;
  grpc::Status GetStatus(grpc::ServerContext*, const cuzk::v1::GetStatusRequest*,
                         cuzk::v1::GetStatusResponse*) override;
  grpc::Status GetMetrics(grpc::ServerContext*, const cuzk::v1::GetMetricsRequest*,
                          cuzk::v1::GetMetricsResponse*) override;
  grpc::Status PreloadSRS(grpc::ServerContext*, const cuzk::v1::PreloadSrsRequest*,
                          cuzk::v1::PreloadSrsResponse*) override;
  grpc::Status EvictSRS(grpc::ServerContext*, const cuzk::v1::EvictSrsRequest*,
                        cuzk::v1::EvictSrsResponse*) override;
  grpc::Status GetTimeline(grpc::ServerContext*, const cuzk::v1::GetTimelineRequest*,
                           cuzk::v1::GetTimelineResponse*) override;

 private:
  // Waits for a job in slices so that a call whose client went away (or whose
  // deadline passed) frees its server thread; the job itself keeps running and
  // its result stays available to a later AwaitProof.
  grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& job_id, uint64_t timeout_ms,
                        cuzk::v1::AwaitProofResponse* out);

  // OK, or PERMISSION_DENIED (logged) for a TCP peer outside allow_.
  grpc::Status admit(grpc::ServerContext* ctx, std::string_view rpc) const;

  engine::engine_t& engine_;
  std::vector<address_range_t> allow_;
};

}  // namespace cuzk::service
