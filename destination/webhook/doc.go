// Package webhook delivers events to HTTP(S) endpoints with the headers cloud
// Event Grid sends. One Factory holds the shared HTTP transport; each
// subscription gets a Sender bound to its endpoint.
package webhook
