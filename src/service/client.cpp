#include <fmt/core.h>

#include "service/client_t.hpp"
#include "service/daemon_t.hpp"
#include "service/rpc_error.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;

// Short calls (status, metrics, cancel) fail after this instead of hanging
// on a daemon that accepted the connection but does not answer.
constexpr std::chrono::seconds short_call_deadline{30};

std::unique_ptr<grpc::ClientContext> short_context() {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + short_call_deadline);
  return ctx;
}

}  // namespace

client_t::client_t(std::string address) : address_(std::move(address)) {
  grpc::ChannelArguments args;
  // Curio's Go client allows 256 MiB each way; the server caps at 128 MiB.
  args.SetMaxReceiveMessageSize(2 * max_message_bytes);
  args.SetMaxSendMessageSize(2 * max_message_bytes);
  channel_ = grpc::CreateCustomChannel(address_, grpc::InsecureChannelCredentials(), args);
  stub_ = v1::ProvingEngine::NewStub(channel_);
}

void client_t::check(const grpc::Status& status, const char* rpc) const {
  if (status.ok()) return;
  std::string why = status.error_message();
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE) {
    why = fmt::format("cannot reach a cuzk daemon ({}); is `cuzk daemon` running there?", why);
  }
  throw rpc_error(fmt::format("{} {}: {}", address_, rpc, why), status.error_code());
}

v1::SubmitProofResponse client_t::submit(const v1::SubmitProofRequest& request) {
  auto ctx = short_context();
  v1::SubmitProofResponse out;
  check(stub_->SubmitProof(ctx.get(), request, &out), "SubmitProof");
  return out;
}

v1::AwaitProofResponse client_t::await(const std::string& job_id, uint64_t timeout_ms) {
  grpc::ClientContext ctx;
  v1::AwaitProofRequest req;
  req.set_job_id(job_id);
  req.set_timeout_ms(timeout_ms);
  v1::AwaitProofResponse out;
  check(stub_->AwaitProof(&ctx, req, &out), "AwaitProof");
  return out;
}

v1::ProveResponse client_t::prove(const v1::SubmitProofRequest& request) {
  grpc::ClientContext ctx;
  v1::ProveRequest req;
  *req.mutable_submit() = request;
  v1::ProveResponse out;
  check(stub_->Prove(&ctx, req, &out), "Prove");
  return out;
}

bool client_t::cancel(const std::string& job_id) {
  auto ctx = short_context();
  v1::CancelProofRequest req;
  req.set_job_id(job_id);
  v1::CancelProofResponse out;
  check(stub_->CancelProof(ctx.get(), req, &out), "CancelProof");
  return out.was_running();
}

v1::GetStatusResponse client_t::status() {
  auto ctx = short_context();
  v1::GetStatusResponse out;
  check(stub_->GetStatus(ctx.get(), v1::GetStatusRequest{}, &out), "GetStatus");
  return out;
}

std::string client_t::metrics() {
  auto ctx = short_context();
  v1::GetMetricsResponse out;
  check(stub_->GetMetrics(ctx.get(), v1::GetMetricsRequest{}, &out), "GetMetrics");
  return out.prometheus_text();
}

std::string client_t::timeline(const std::string& job_id) {
  auto ctx = short_context();
  v1::GetTimelineRequest req;
  req.set_job_id(job_id);
  v1::GetTimelineResponse out;
  check(stub_->GetTimeline(ctx.get(), req, &out), "GetTimeline");
  return out.timeline_json();
}

v1::PreloadSrsResponse client_t::preload(const std::string& circuit_id) {
  grpc::ClientContext ctx;  // loading a large parameter file may take minutes
  v1::PreloadSrsRequest req;
  req.set_circuit_id(circuit_id);
  v1::PreloadSrsResponse out;
  check(stub_->PreloadSRS(&ctx, req, &out), "PreloadSRS");
  return out;
}

v1::EvictSrsResponse client_t::evict(const std::string& circuit_id) {
  auto ctx = short_context();
  v1::EvictSrsRequest req;
  req.set_circuit_id(circuit_id);
  v1::EvictSrsResponse out;
  check(stub_->EvictSRS(ctx.get(), req, &out), "EvictSRS");
  return out;
}

}  // namespace cuzk::service
