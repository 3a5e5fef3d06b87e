package edgehub

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// Signer computes HMAC-SHA256 with the module's key. workload.Client is one:
// the IoT Edge runtime holds the key and signs on the module's behalf.
type Signer interface {
	Sign(ctx context.Context, data []byte) ([]byte, error)
}

// Token returns a SAS token for resource valid until expiry, in the form IoT
// Hub and edgeHub accept for modules:
//
//	SharedAccessSignature sr={url-encoded resource}&sig={url-encoded base64 HMAC}&se={unix seconds}
//
// The string signed is the encoded resource, a newline and the expiry; edgeHub
// recomputes the HMAC over sr exactly as sent.
func Token(ctx context.Context, s Signer, resource string, expiry time.Time) (string, error) {
	sr := url.QueryEscape(resource)
	se := strconv.FormatInt(expiry.Unix(), 10)
	sig, err := s.Sign(ctx, []byte(sr+"\n"+se))
	if err != nil {
		return "", fmt.Errorf("edgehub: signing the SAS token: %w", err)
	}
	return "SharedAccessSignature sr=" + sr + "&sig=" + url.QueryEscape(base64.StdEncoding.EncodeToString(sig)) + "&se=" + se, nil
}
