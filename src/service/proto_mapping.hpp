#pragma once
// Conversions between the wire messages (cuzk.v1) and the engine's types.
// Requests are checked here only for what the wire adds (enum ranges, the
// extension fields); the engine checks the rest and names the field it rejects.
#include "cuzk/v1/proving.pb.h"
#include "engine/engine.hpp"

namespace cuzk::service {

// Throws engine::invalid_request naming the field (proof_kind 0 or unknown,
// partitions above the limit).
engine::job_request_t to_job_request(const cuzk::v1::SubmitProofRequest& request);

void fill_await_response(const engine::job_result_t& result, cuzk::v1::AwaitProofResponse& out);
engine::job_result_t from_await_response(const cuzk::v1::AwaitProofResponse& response);

void fill_status_response(const engine::engine_status_t& status, cuzk::v1::GetStatusResponse& out);

// The client side of the same mapping (`cuzk bench --daemon`).
cuzk::v1::SubmitProofRequest to_submit_request(const engine::job_request_t& request);
engine::engine_status_t from_status_response(const cuzk::v1::GetStatusResponse& status);

}  // namespace cuzk::service
