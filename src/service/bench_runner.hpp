#pragma once
// The bench loop behind `cuzk bench`, shared by its in-process and daemon
// modes, plus the report text and the timeline file `cuzk plot` reads:
//   {"runs":[{"mode","label","circuit","size","partitions","proofs","concurrency",
//     "elapsed_ms","target","jobs":[{"job_id","submit_ms","done_ms","status",
//     "timeline":<engine timeline or null>}],
//     "samples":[{"t_ms","rss_bytes","synthesizing","queued","on_gpu","pending_finalize"}]}]}
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "service/bench_options_t.hpp"
#include "service/bench_report_t.hpp"
#include "service/proving_target_t.hpp"

namespace cuzk::service {

// progress: where a line goes every progress_interval (nullptr = silent).
// A request the target rejects (invalid_request, never_fits, or an rpc_error
// INVALID_ARGUMENT / NOT_FOUND) stops the run and is rethrown; other
// failures are recorded per proof.
bench_report_t run_bench(proving_target_t& target, const bench_options_t& options, std::ostream* progress);

// `post`'s proofs idle, then under `load`'s stream (bench_load_options_t);
// post.concurrency is ignored (one at a time in both phases). A rejected
// request, PoSt or stream, stops the run and is rethrown, as in run_bench.
bench_load_report_t run_bench_under_load(proving_target_t& target, const bench_options_t& post,
                                         const bench_load_options_t& load, std::ostream* progress);

std::string format_bench_report(const bench_report_t& report);
// "<label>: p50 X ms  min .. p90 .. max .. (n of N proofs)": one line a log can be grepped for.
std::string format_latency_line(const bench_report_t& report);
// The three reports in full, then the two labelled latency lines
// ("winning-post idle: ...", "winning-post under load: ...") and the stream's throughput.
std::string format_load_report(const bench_load_report_t& report);
nlohmann::json bench_timeline_json(const std::vector<bench_report_t>& runs);

}  // namespace cuzk::service
