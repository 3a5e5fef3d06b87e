package testenv

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// jwtBearer is the client_assertion_type of certificate and federated
// credentials.
const jwtBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// token answers a client credentials request: the client must be the
// configured application, ask for the Event Grid scope, and prove itself with
// the secret, a client assertion signed by the certificate, or the federated
// token.
func (e *Entra) token(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "AADSTS900144: The request body must be form encoded.")
		return
	}
	e.mu.Lock()
	e.requests = append(e.requests, r.PostForm)
	status := 0
	if len(e.script) > 0 {
		status, e.script = e.script[0], e.script[1:]
	}
	e.mu.Unlock()
	f := r.PostForm
	switch {
	case status != 0:
		oauthError(w, status, "temporarily_unavailable", "AADSTS90033: A transient error has occurred. Please try again.")
	case f.Get("grant_type") != "client_credentials":
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "AADSTS70003: The app requested an unsupported grant type '"+f.Get("grant_type")+"'.")
	case f.Get("client_id") != e.ClientID:
		oauthError(w, http.StatusBadRequest, "unauthorized_client", "AADSTS700016: Application with identifier '"+f.Get("client_id")+"' was not found in the directory '"+e.Tenant+"'.")
	case !hasScope(f.Get("scope"), EventGridAudience+"/.default"):
		oauthError(w, http.StatusBadRequest, "invalid_scope", "AADSTS70011: The provided value for the input parameter 'scope' is not valid.")
	default:
		via, err := e.authenticate(f)
		if err != nil {
			oauthError(w, http.StatusUnauthorized, "invalid_client", err.Error())
			return
		}
		e.mu.Lock()
		lifetime, refreshIn := e.lifetime, e.refreshIn
		e.mu.Unlock()
		it := e.Tokens.issue(e.ClientID, EventGridAudience, via, lifetime)
		secs := int(lifetime / time.Second)
		resp := map[string]any{"token_type": "Bearer", "expires_in": secs, "ext_expires_in": secs, "access_token": it.Token}
		if refreshIn != nil {
			resp["refresh_in"] = int(*refreshIn / time.Second)
		}
		writeJSON(w, http.StatusOK, resp)
	}
}

// authenticate checks the client's proof and says which kind it was.
func (e *Entra) authenticate(f map[string][]string) (string, error) {
	get := func(k string) string {
		if v := f[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	e.mu.Lock()
	secret, cert, federated := e.secret, e.cert, e.federated
	e.mu.Unlock()
	if s := get("client_secret"); s != "" {
		if secret == "" || subtle.ConstantTimeCompare([]byte(s), []byte(secret)) != 1 {
			return "", errors.New("AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.")
		}
		return "secret", nil
	}
	if get("client_assertion_type") != jwtBearer || get("client_assertion") == "" {
		return "", errors.New("AADSTS7000218: The request body must contain the following parameter: 'client_assertion' or 'client_secret'.")
	}
	a := get("client_assertion")
	if federated != "" && subtle.ConstantTimeCompare([]byte(a), []byte(federated)) == 1 {
		return "federated", nil
	}
	if cert == nil {
		return "", errors.New("AADSTS700027: The certificate with identifier used to sign the client assertion is not registered on application.")
	}
	if err := verifyAssertion(a, cert, e.tokenEndpoint(), e.ClientID); err != nil {
		return "", fmt.Errorf("AADSTS700027: Client assertion failed signature validation: %w", err)
	}
	return "certificate", nil
}

// verifyAssertion checks a client assertion JWT as Entra ID does: signed
// (PS256 or RS256) by cert's key, naming cert by thumbprint, for the token
// endpoint, issued by and about the client, and currently valid.
func verifyAssertion(jwt string, cert *x509.Certificate, audience, clientID string) error {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return errors.New("not a JWT")
	}
	var hdr struct {
		Alg     string `json:"alg"`
		X5tS256 string `json:"x5t#S256"`
	}
	var claims struct {
		Aud, Iss, Sub string
		Exp, Nbf      int64
	}
	if err := decodeSegment(parts[0], &hdr); err != nil {
		return err
	}
	if err := decodeSegment(parts[1], &claims); err != nil {
		return err
	}
	if err := verifySignature(hdr.Alg, parts[0]+"."+parts[1], parts[2], cert); err != nil {
		return err
	}
	sum := sha256.Sum256(cert.Raw)
	now := time.Now().Unix()
	switch {
	case hdr.Alg == "PS256" && hdr.X5tS256 != base64.StdEncoding.EncodeToString(sum[:]) && hdr.X5tS256 != base64.RawURLEncoding.EncodeToString(sum[:]):
		return errors.New("x5t#S256 does not name the registered certificate")
	case claims.Aud != audience:
		return fmt.Errorf("audience %q is not the token endpoint", claims.Aud)
	case claims.Iss != clientID || claims.Sub != clientID:
		return errors.New("iss and sub must be the client id")
	case claims.Exp < now || claims.Nbf > now+300:
		return errors.New("the assertion is not within its valid time range")
	}
	return nil
}

func decodeSegment(seg string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return fmt.Errorf("bad JWT segment: %w", err)
	}
	return json.Unmarshal(raw, v)
}

func verifySignature(alg, signed, sig string, cert *x509.Certificate) error {
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return errors.New("the registered certificate has no RSA key")
	}
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("bad signature encoding: %w", err)
	}
	h := sha256.Sum256([]byte(signed))
	switch alg {
	case "PS256":
		return rsa.VerifyPSS(pub, crypto.SHA256, h[:], raw, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto})
	case "RS256":
		return rsa.VerifyPKCS1v15(pub, crypto.SHA256, h[:], raw)
	}
	return fmt.Errorf("unsupported alg %q", alg)
}
