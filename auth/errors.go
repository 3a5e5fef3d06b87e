package auth

import (
	"errors"
	"strings"
)

// ErrUnauthorized matches every refusal (errors.Is).
var ErrUnauthorized = errors.New("unauthorized")

// Error is a refusal. Reasons holds, for each mechanism tried, why it did not
// authenticate the caller, in the order tried.
type Error struct {
	Reasons []string
}

// Error joins the reasons into one clause list, e.g. "the aeg-sas-key header
// matches no configured key, and no client certificate was presented".
func (e *Error) Error() string { return strings.Join(e.Reasons, ", and ") }

// Unwrap returns ErrUnauthorized.
func (e *Error) Unwrap() error { return ErrUnauthorized }

// Reasons given to callers; none contains what the caller sent.
const (
	reasonNoSAS         = "no SAS key (aeg-sas-key header) or SAS token (aeg-sas-token or Authorization: SharedAccessSignature header) was presented"
	reasonKeyMismatch   = "the aeg-sas-key header matches no configured key"
	reasonNoCertHTTP    = "no client certificate can be presented over plain HTTP (use HTTPS, or a SAS key if enabled)"
	reasonNoCert        = "no client certificate was presented"
	reasonUnknownCA     = "the client certificate is not issued by a CA in the IoT Edge trust bundle (inbound__clientAuth__clientCert__allowUnknownCA is false)"
	reasonNoBundle      = "the client certificate cannot be checked: there is no trust bundle outside IoT Edge (inbound__clientAuth__clientCert__allowUnknownCA is false)"
	reasonUsage         = "the client certificate is not valid for client authentication (extended key usage)"
	reasonBadChain      = "the client certificate's chain to the IoT Edge trust bundle is not valid"
	reasonTokenSig      = "the SAS token's signature matches no configured key"
	reasonTokenTooLong  = "the SAS token is longer than 4096 bytes"
	reasonTokenMalform  = "the SAS token is malformed: "
	reasonTokenExpired  = "the SAS token expired at "
	reasonTokenResource = "the SAS token's resource does not cover this path"
)
