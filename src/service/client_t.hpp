#pragma once
// A client of a cuzk daemon (or of Curio's Rust one: the same wire API).
// Every method throws rpc_error for a status other than OK; its message names
// the address, the RPC and the server's reason.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::service {

class client_t {
 public:
  // "unix:///path", "IP:port", or "host:port" (resolved by DNS, as Curio dials it).
  explicit client_t(std::string address);

  cuzk::v1::SubmitProofResponse submit(const cuzk::v1::SubmitProofRequest& request);
  // timeout_ms 0 waits until the job ends.
  cuzk::v1::AwaitProofResponse await(const std::string& job_id, uint64_t timeout_ms = 0);
  cuzk::v1::ProveResponse prove(const cuzk::v1::SubmitProofRequest& request);
  bool cancel(const std::string& job_id);
  cuzk::v1::GetStatusResponse status();
  std::string metrics();
  std::string timeline(const std::string& job_id);
  cuzk::v1::PreloadSrsResponse preload(const std::string& circuit_id);
  cuzk::v1::EvictSrsResponse evict(const std::string& circuit_id);

  const std::string& address() const { return address_; }

 private:
  void check(const grpc::Status& status, const char* rpc) const;

  std::string address_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<cuzk::v1::ProvingEngine::Stub> stub_;
};

}  // namespace cuzk::service
