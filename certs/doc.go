// Package certs provides the module's certificates: the HTTPS server
// certificate and the outbound identity (client) certificate, either issued
// and renewed by the IoT Edge workload API (Renewer) or fixed for the life of
// the process (Static: files or a generated self-signed certificate), plus
// the IoT Edge trust bundle (Bundle) and the listener's TLS policy
// (ServerConfig).
//
// Certificates are served through tls.Config.GetCertificate and
// GetClientCertificate from an atomic pointer: a renewal swaps the pointer,
// so new handshakes get the new certificate while established connections
// carry on with the one they negotiated.
package certs
