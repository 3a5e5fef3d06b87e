// Package auth authenticates callers of the REST API as the original module
// did (edge-spec §6.2): by SAS key, and by client certificate.
//
// # Order
//
// When SAS keys are enabled they are checked first: the aeg-sas-key header,
// then a SAS token in aeg-sas-token or in "Authorization:
// SharedAccessSignature …". If none succeeds and client certificates are
// enabled, the certificate the client presented in the TLS handshake is
// checked. One success suffices. With both mechanisms disabled every request
// is allowed. A refusal is an *Error that says, per mechanism, what was
// missing or wrong; it never contains a key, a token or a signature.
//
// # SAS keys
//
// aeg-sas-key must equal inbound__clientAuth__sasKeys__key1 or key2. Both
// are compared, in constant time, through their SHA-256 digests so that
// neither the content nor the length of a key leaks through timing.
//
// # SAS tokens
//
// A token has cloud Event Grid's form r={resource}&e={expiry}&s={signature},
// each part URL-encoded, where the signature is the standard base64 of
// HMAC-SHA256 over the literal text "r={resource}&e={expiry}" as it appears
// in the token (encoded, so upper- and lower-case percent escapes both
// verify). The HMAC key is the configured key decoded from base64, as the
// Azure SDKs decode it; a key that is not valid base64 is used as its
// UTF-8 bytes. The expiry must lie in the future; the formats of the Azure
// SDKs and docs are accepted (see parseExpiry). The resource's path must be
// a prefix, segment by segment and in any case, of the request's path: a
// token for https://gw:4438/topics/t covers /topics/t, its subscriptions and
// its events, and a token for https://gw:4438/ covers every route. Scheme,
// host, port and query of the resource are ignored, since clients reach the
// gateway by many names (module name, host name, IP address, localhost).
//
// # Client certificates
//
// The listener requests but does not verify a certificate (see
// certs.ServerConfig); here the leaf must be within its validity period and
// usable for client authentication, and must chain to the IoT Edge trust
// bundle, unless inbound__clientAuth__clientCert__allowUnknownCA is true, in
// which case any such certificate is accepted. The TLS handshake has already
// proved that the client holds the certificate's private key. Plain HTTP
// carries no certificate, so with client certificates enabled a request over
// HTTP needs a SAS key.
package auth
