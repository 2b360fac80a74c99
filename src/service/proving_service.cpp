#include <spdlog/spdlog.h>

#include <chrono>

#include "service/proto_mapping.hpp"
#include "service/proving_service_t.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
using clock_t_ = std::chrono::steady_clock;

// Runs `body`, turning the engine's exceptions into the status codes of the
// class comment. `what` names the RPC and the job in the log line.
// A status message travels in a gRPC header, which clients cap (8 KiB in
// C++ by default): a longer one would reach the caller as RESOURCE_EXHAUSTED
// instead of the refusal. Messages are cut to this, with a mark.
constexpr std::size_t max_status_message = 2048;

std::string capped(std::string_view m) {
  if (m.size() <= max_status_message) return std::string(m);
  return std::string(m.substr(0, max_status_message)) + "... (message cut)";
}

template <class F>
grpc::Status guarded(std::string_view what, F&& body) {
  try {
    return body();
  } catch (const engine::invalid_request& e) {
    spdlog::warn("{}: invalid argument: {}", what, capped(e.what()));
    return {grpc::StatusCode::INVALID_ARGUMENT, capped(e.what())};
  } catch (const engine::unknown_job& e) {
    spdlog::debug("{}: not found: {}", what, e.what());
    return {grpc::StatusCode::NOT_FOUND, e.what()};
  } catch (const engine::never_fits& e) {
    spdlog::warn("{}: refused: {}", what, e.what());
    return {grpc::StatusCode::RESOURCE_EXHAUSTED, capped(e.what())};
  } catch (const engine::engine_stopped& e) {
    return {grpc::StatusCode::UNAVAILABLE, e.what()};
  } catch (const std::exception& e) {
    spdlog::error("{}: internal error: {}", what, capped(e.what()));
    return {grpc::StatusCode::INTERNAL, capped(e.what())};
  }
}

// How long one engine wait lasts before the handler checks its call again.
constexpr std::chrono::milliseconds poll_slice{250};

}  // namespace

grpc::Status proving_service_t::admit(grpc::ServerContext* ctx, std::string_view rpc) const {
  if (allow_.empty()) return grpc::Status::OK;
  const std::string peer = ctx->peer();
  // Only TCP peers are checked: "fd:" channels came through tcp_gate_t,
  // which checked them before gRPC saw a byte, and unix sockets rely on
  // their file permissions.
  const auto addr = grpc_peer_address(peer);
  if (!addr || allowed(allow_, reinterpret_cast<const sockaddr*>(&*addr))) return grpc::Status::OK;
  spdlog::warn("{} from {} refused: not in [daemon] allow", rpc, peer);
  return {grpc::StatusCode::PERMISSION_DENIED, "this client address is not in the daemon's [daemon] allow list"};
}

grpc::Status proving_service_t::wait_for(grpc::ServerContext* ctx, const std::string& job_id, uint64_t timeout_ms,
                                         v1::AwaitProofResponse* out) {
  const auto start = clock_t_::now();
  for (;;) {
    auto slice = poll_slice;
    if (timeout_ms > 0) {
      auto left = std::chrono::milliseconds(timeout_ms) -
                  std::chrono::duration_cast<std::chrono::milliseconds>(clock_t_::now() - start);
      slice = std::clamp(left, std::chrono::milliseconds(0), poll_slice);
    }
    engine::job_result_t r = engine_.await(job_id, slice);
    bool expired = timeout_ms > 0 && clock_t_::now() - start >= std::chrono::milliseconds(timeout_ms);
    if (r.status != engine::job_status_t::timeout || expired) {
      fill_await_response(r, *out);
      if (r.status == engine::job_status_t::failed) {
        spdlog::warn("job={} status=failed error=\"{}\"", job_id, r.error_message);
      }
      return grpc::Status::OK;
    }
    if (ctx->IsCancelled()) {
      spdlog::info("job={} caller went away; the job keeps running", job_id);
      return {grpc::StatusCode::CANCELLED, "the caller cancelled or its deadline passed; the job keeps running"};
    }
  }
}

grpc::Status proving_service_t::SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* req,
                                            v1::SubmitProofResponse* out) {
  if (auto st = admit(ctx, "SubmitProof"); !st.ok()) return st;
  return guarded("SubmitProof", [&] {
    auto s = engine_.submit(to_job_request(*req));
    spdlog::info("submit job={} kind={} queue_position={}{}", s.job_id, v1::ProofKind_Name(req->proof_kind()),
                 s.queue_position, s.attached ? " (attached to the job already under this request_id)" : "");
    out->set_job_id(s.job_id);
    out->set_queue_position(s.queue_position);
    return grpc::Status::OK;
  });
}

grpc::Status proving_service_t::AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                                           v1::AwaitProofResponse* out) {
  if (auto st = admit(ctx, "AwaitProof"); !st.ok()) return st;
  return guarded("AwaitProof", [&] {
    if (req->job_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "job_id: empty");
    return wait_for(ctx, req->job_id(), req->timeout_ms(), out);
  });
}

grpc::Status proving_service_t::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req, v1::ProveResponse* out) {
  if (auto st = admit(ctx, "Prove"); !st.ok()) return st;
  return guarded("Prove", [&] {
    if (!req->has_submit()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "submit: missing");
    auto s = engine_.submit(to_job_request(req->submit()));
    spdlog::info("prove job={} kind={} queue_position={}{}", s.job_id, v1::ProofKind_Name(req->submit().proof_kind()),
                 s.queue_position, s.attached ? " (attached to the job already under this request_id)" : "");
    return wait_for(ctx, s.job_id, 0, out->mutable_result());
  });
}

grpc::Status proving_service_t::CancelProof(grpc::ServerContext* ctx, const v1::CancelProofRequest* req,
                                            v1::CancelProofResponse* out) {
  if (auto st = admit(ctx, "CancelProof"); !st.ok()) return st;
  return guarded("CancelProof", [&] {
    if (req->job_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "job_id: empty");
    bool was_running = engine_.cancel(req->job_id());
    spdlog::info("cancel job={} was_running={}", req->job_id(), was_running);
    out->set_was_running(was_running);
    return grpc::Status::OK;
  });
}

grpc::Status proving_service_t::GetStatus(grpc::ServerContext* ctx, const v1::GetStatusRequest*,
                                          v1::GetStatusResponse* out) {
  if (auto st = admit(ctx, "GetStatus"); !st.ok()) return st;
  return guarded("GetStatus", [&] {
    fill_status_response(engine_.status(), *out);
    return grpc::Status::OK;
  });
}

grpc::Status proving_service_t::GetMetrics(grpc::ServerContext* ctx, const v1::GetMetricsRequest*,
                                           v1::GetMetricsResponse* out) {
  if (auto st = admit(ctx, "GetMetrics"); !st.ok()) return st;
  return guarded("GetMetrics", [&] {
    out->set_prometheus_text(engine_.metrics_text());
    return grpc::Status::OK;
  });
}

grpc::Status proving_service_t::PreloadSRS(grpc::ServerContext* ctx, const v1::PreloadSrsRequest* req,
                                           v1::PreloadSrsResponse* out) {
  if (auto st = admit(ctx, "PreloadSRS"); !st.ok()) return st;
  return guarded("PreloadSRS", [&] {
    if (req->circuit_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "circuit_id: empty");
    auto r = engine_.preload(req->circuit_id());
    spdlog::info("preload circuit={} already_loaded={} load_ms={}", req->circuit_id(), r.already_loaded,
                 r.load_time_ms);
    out->set_already_loaded(r.already_loaded);
    out->set_load_time_ms(r.load_time_ms);
    return grpc::Status::OK;
  });
}

grpc::Status proving_service_t::EvictSRS(grpc::ServerContext* ctx, const v1::EvictSrsRequest* req,
                                         v1::EvictSrsResponse* out) {
  if (auto st = admit(ctx, "EvictSRS"); !st.ok()) return st;
  return guarded("EvictSRS", [&] {
    if (req->circuit_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "circuit_id: empty");
    auto r = engine_.evict(req->circuit_id());
    spdlog::info("evict circuit={} was_loaded={} freed_bytes={}", req->circuit_id(), r.was_loaded, r.freed_bytes);
    out->set_was_loaded(r.was_loaded);
    out->set_freed_bytes(r.freed_bytes);
    return grpc::Status::OK;
  });
}

grpc::Status proving_service_t::GetTimeline(grpc::ServerContext* ctx, const v1::GetTimelineRequest* req,
                                            v1::GetTimelineResponse* out) {
  if (auto st = admit(ctx, "GetTimeline"); !st.ok()) return st;
  return guarded("GetTimeline", [&] {
    if (req->job_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "job_id: empty");
    out->set_timeline_json(engine_.timeline_json(req->job_id()));
    return grpc::Status::OK;
  });
}

}  // namespace cuzk::service
