package hostconfig

import "strings"

// TLSPolicy is the value of inbound__serverAuth__tlsPolicy. Load stores it
// in lower case; Validate and the methods that use it ignore case.
type TLSPolicy string

// The TLS policies of the original module (edge-spec §6.1).
const (
	TLSPolicyStrict   TLSPolicy = "strict"   // HTTPS only
	TLSPolicyEnabled  TLSPolicy = "enabled"  // HTTPS and HTTP
	TLSPolicyDisabled TLSPolicy = "disabled" // HTTP only
)

var tlsPolicies = []TLSPolicy{TLSPolicyStrict, TLSPolicyEnabled, TLSPolicyDisabled}

// Decode implements envconfig.Decoder: it accepts any case and stores the
// canonical spelling.
func (p *TLSPolicy) Decode(v string) error { return decodeEnum(p, v, tlsPolicies) }

func (TLSPolicy) enumValues() []string { return enumStrings(tlsPolicies) }

// CertSource is where a certificate comes from. The original module
// documents a single source, IoTEdge: the IoT Edge workload API.
type CertSource string

// CertSourceIoTEdge is the IoT Edge workload API (the only documented source).
const CertSourceIoTEdge CertSource = "IoTEdge"

var certSources = []CertSource{CertSourceIoTEdge}

// Decode implements envconfig.Decoder: it accepts any case and stores the
// canonical spelling "IoTEdge".
func (s *CertSource) Decode(v string) error { return decodeEnum(s, v, certSources) }

func (CertSource) enumValues() []string { return enumStrings(certSources) }

// ReporterType is the value of metrics__reporterType.
type ReporterType string

// The metrics reporters of the original module (edge-spec §5.1, §7).
const (
	ReporterNone       ReporterType = "none"
	ReporterPrometheus ReporterType = "prometheus"
	ReporterConsole    ReporterType = "console"
)

var reporterTypes = []ReporterType{ReporterNone, ReporterPrometheus, ReporterConsole}

// Decode implements envconfig.Decoder: it accepts any case and stores the
// canonical spelling.
func (r *ReporterType) Decode(v string) error { return decodeEnum(r, v, reporterTypes) }

func (ReporterType) enumValues() []string { return enumStrings(reporterTypes) }

// Level is the value of log__level: a zerolog level name.
type Level string

// The levels log__level accepts.
const (
	LevelTrace Level = "trace"
	LevelDebug Level = "debug"
	LevelInfo  Level = "info"
	LevelWarn  Level = "warn"
	LevelError Level = "error"
)

var levels = []Level{LevelTrace, LevelDebug, LevelInfo, LevelWarn, LevelError}

// Decode implements envconfig.Decoder: it accepts any case and stores the
// canonical spelling.
func (l *Level) Decode(v string) error { return decodeEnum(l, v, levels) }

func (Level) enumValues() []string { return enumStrings(levels) }

// decodeEnum stores in dst the allowed value equal to v ignoring case.
func decodeEnum[T ~string](dst *T, v string, allowed []T) error {
	got, ok := matchEnum(T(v), allowed)
	if !ok {
		return enumError[T](allowed)
	}
	*dst = got
	return nil
}

// matchEnum returns the allowed value equal to v ignoring case.
func matchEnum[T ~string](v T, allowed []T) (T, bool) {
	for _, a := range allowed {
		if strings.EqualFold(string(v), string(a)) {
			return a, true
		}
	}
	return "", false
}

func enumStrings[T ~string](allowed []T) []string {
	out := make([]string, len(allowed))
	for i, a := range allowed {
		out[i] = string(a)
	}
	return out
}

// enumError is the reason given for a value outside allowed.
type enumError[T ~string] []T

func (e enumError[T]) Error() string {
	return "must be one of " + strings.Join(enumStrings([]T(e)), ", ") + " (any case)"
}
