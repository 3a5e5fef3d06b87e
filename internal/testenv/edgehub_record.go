package testenv

import (
	"testing"
	"time"
)

// AckedInputs counts the module's PUBACKs for input messages.
func (h *EdgeHub) AckedInputs() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.acked
}

// Connects returns every connection attempt so far.
func (h *EdgeHub) Connects() []EdgeHubConnect {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]EdgeHubConnect(nil), h.connects...)
}

// Denied returns the publishes and subscriptions edgeHub would refuse.
func (h *EdgeHub) Denied() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.denied...)
}

// Outputs returns the output messages received so far.
func (h *EdgeHub) Outputs() []EdgeHubOutput {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]EdgeHubOutput(nil), h.outputs...)
}

// WaitOutputs waits until at least n output messages arrived.
func (h *EdgeHub) WaitOutputs(tb testing.TB, n int, timeout time.Duration) []EdgeHubOutput {
	tb.Helper()
	Eventually(tb, timeout, "edgeHub output messages", func() bool { return len(h.Outputs()) >= n })
	return h.Outputs()
}
