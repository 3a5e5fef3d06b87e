package hostconfig

import (
	"net/netip"
	"strconv"
)

// Validate checks ranges, allowed values and the rules between settings. It
// returns an *Error listing every problem (sorted by variable name), or nil.
// Load calls it; call it again after changing a Config by hand.
func (c *Config) Validate() error {
	return newError(c.problems())
}

// problems runs one check per area.
func (c *Config) problems() []Problem {
	var p problems
	p.add(validateListeners(c.Inbound))
	p.add(validateClientAuth(c.Inbound))
	p.add(validateOutbound(c.Outbound))
	p.add(validateCertFiles(c.Inbound, c.Outbound))
	p.add(validateBroker(c.Broker))
	p.add(validateAPI(c.API))
	p.add(validateBatching(c.Broker, c.API))
	p.add(validateMetrics(c.Metrics))
	p.add(validateLog(c.Log))
	p.add(validateEdge(c.Edge))
	p.add(validateEntra(c.Outbound, c.Azure))
	p.add(validateEdgeHub(c.EdgeHub))
	return p
}

// problems collects Problems.
type problems []Problem

func (p *problems) add(more []Problem) { *p = append(*p, more...) }

// inRange records a problem when v is outside lo..hi. note, if not empty,
// says where a bound comes from.
func (p *problems) inRange(name string, v, lo, hi int64, note string) {
	if v >= lo && v <= hi {
		return
	}
	r := "must be between " + strconv.FormatInt(lo, 10) + " and " + strconv.FormatInt(hi, 10)
	if note != "" {
		r += " (" + note + ")"
	}
	*p = append(*p, Problem{Name: name, Value: strconv.FormatInt(v, 10), Reason: r})
}

// checkEnum records a problem when v is not an allowed value in any case.
func checkEnum[T ~string](p *problems, name string, v T, allowed []T) {
	if _, ok := matchEnum(v, allowed); !ok {
		*p = append(*p, Problem{Name: name, Value: string(v), Reason: enumError[T](allowed).Error()})
	}
}

// validateListeners checks the TLS policy, ports and bind address.
func validateListeners(in Inbound) []Problem {
	var p problems
	checkEnum(&p, "inbound__serverAuth__tlsPolicy", in.TLSPolicy, tlsPolicies)
	checkEnum(&p, "inbound__serverAuth__serverCert__source", in.ServerCertSource, certSources)
	p.inRange("inbound__httpsPort", int64(in.HTTPSPort), 0, maxPort, "0 picks a free port")
	p.inRange("inbound__httpPort", int64(in.HTTPPort), 0, maxPort, "0 picks a free port")
	if in.ServeHTTP() && in.ServeHTTPS() && in.HTTPPort == in.HTTPSPort && in.HTTPPort != 0 {
		p = append(p, Problem{Name: "inbound__httpPort", Value: strconv.Itoa(in.HTTPPort),
			Reason: "equals inbound__httpsPort; with inbound__serverAuth__tlsPolicy=enabled the HTTP and HTTPS listeners need different ports"})
	}
	if in.BindAddress != "" {
		if _, err := netip.ParseAddr(in.BindAddress); err != nil {
			p = append(p, Problem{Name: "inbound__bindAddress", Value: in.BindAddress,
				Reason: "not an IP address (e.g. 0.0.0.0, 127.0.0.1, ::1)"})
		}
	}
	return p
}

// validateClientAuth checks the client certificate source and SAS keys.
func validateClientAuth(in Inbound) []Problem {
	var p problems
	checkEnum(&p, "inbound__clientAuth__clientCert__source", in.ClientCertSource, certSources)
	if in.SASKeysEnabled && in.SASKey1 == "" && in.SASKey2 == "" {
		p = append(p, Problem{Name: "inbound__clientAuth__sasKeys__key1, inbound__clientAuth__sasKeys__key2",
			Reason: "both missing; inbound__clientAuth__sasKeys__enabled is true, so at least one key is needed"})
	}
	return p
}

func validateOutbound(out Outbound) []Problem {
	var p problems
	checkEnum(&p, "outbound__clientAuth__clientCert__source", out.ClientCertSource, certSources)
	return p
}

func validateBroker(b Broker) []Problem {
	var p problems
	p.inRange("broker__defaultMaxDeliveryAttempts", int64(b.DefaultMaxDeliveryAttempts), 1, maxMaxDeliveryAttempts, "")
	p.inRange("broker__defaultEventTimeToLiveInSeconds", int64(b.DefaultEventTimeToLiveInSeconds), 1, maxEventTTLSeconds, "")
	p.inRange("broker__defaultMaxBatchSizeInBytes", int64(b.DefaultMaxBatchSizeInBytes), minBatchBytes, batchBytesLimit, "")
	p.inRange("broker__maxBufferedBytes", b.MaxBufferedBytes, minMaxBufferedBytes, maxMaxBufferedBytes, "")
	p.inRange("broker__deliveryConcurrency", int64(b.DeliveryConcurrency), 1, maxDeliveryConcurrency, "")
	p.inRange("broker__shutdownGracePeriodInSeconds", int64(b.ShutdownGracePeriodInSeconds), 0, maxShutdownGraceSeconds, "")
	return p
}

func validateAPI(a API) []Problem {
	var p problems
	p.inRange("api__deliveryPolicyLimits__maxEventsPerBatch", int64(a.MaxEventsPerBatch), 1, maxAPIEventsPerBatch, "")
	p.inRange("api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes", int64(a.MaxPreferredBatchSizeInKilobytes), 1, preferredBatchKBLimit, "")
	p.inRange("api__deliveryPolicyLimits__maxBatchSizeInBytes", int64(a.MaxBatchSizeInBytes), minBatchBytes, batchBytesLimit, "")
	return p
}

// validateBatching checks the broker's default batch count against the
// API's limit. When that limit is itself invalid (reported by validateAPI),
// the absolute maximum stands in for it.
func validateBatching(b Broker, a API) []Problem {
	var p problems
	hi, note := int64(a.MaxEventsPerBatch), "api__deliveryPolicyLimits__maxEventsPerBatch"
	if hi < 1 || hi > maxAPIEventsPerBatch {
		hi = maxAPIEventsPerBatch
	}
	p.inRange("broker__defaultMaxEventsPerBatch", int64(b.DefaultMaxEventsPerBatch), 1, hi, "at most "+note)
	return p
}

func validateMetrics(m Metrics) []Problem {
	var p problems
	checkEnum(&p, "metrics__reporterType", m.ReporterType, reporterTypes)
	return p
}
