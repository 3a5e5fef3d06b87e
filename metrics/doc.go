// Package metrics renders the broker's counters in the Prometheus text
// exposition format (version 0.0.4) for /metrics, and logs them periodically
// for metrics__reporterType=console.
//
// Names: the original module's topic metrics (EventsReceived, UnmatchedEvents,
// SuccessRequests, SystemErrorRequests, UserErrorRequests,
// SuccessRequestLatencyMs; label topic) and subscription metrics
// (deliverySuccessCounts, deliveryFailureCounts, deliverySuccessLatencyMs,
// deliveryFailureLatencyMs, systemDelayForFirstAttemptMs,
// deliveryAttemptsCount, expiredCounts; labels topic and subscription), then
// edgegrid's own edgegrid_* metrics and process_*/go_* process metrics.
//
// The format is written here rather than with client_golang: it is a few
// dozen lines, and the library would add about 2.9 MB to a binary whose
// image should stay under 12 MB.
package metrics
