package hostconfig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

func TestPrecedence(t *testing.T) {
	cases := map[string]struct {
		env      []string
		want     int
		warnKeys []string // keys a warning must name; nil: no warning
	}{
		"canonical beats documented": {
			[]string{"broker__defaultMaxDeliveryAttempts=17", "BROKER__DEFAULTMAXDELIVERYATTEMPTS=23"}, 23,
			[]string{"BROKER__DEFAULTMAXDELIVERYATTEMPTS", "broker__defaultMaxDeliveryAttempts"}},
		"documented beats other double-underscore case": {
			[]string{"Broker__DefaultMaxDeliveryAttempts=23", "broker__defaultMaxDeliveryAttempts=17"}, 17,
			[]string{"Broker__DefaultMaxDeliveryAttempts", "broker__defaultMaxDeliveryAttempts"}},
		"double underscore beats colon, whatever the order": {
			[]string{"broker__defaultMaxDeliveryAttempts=17", "broker:defaultMaxDeliveryAttempts=23"}, 17,
			[]string{"broker:defaultMaxDeliveryAttempts", "broker__defaultMaxDeliveryAttempts"}},
		"colon beats brokers alias": {
			[]string{"brokers__defaultMaxDeliveryAttempts=23", "broker:defaultMaxDeliveryAttempts=17"}, 17,
			[]string{"brokers__defaultMaxDeliveryAttempts", "broker:defaultMaxDeliveryAttempts"}},
		"mixed separators count as colon": {
			[]string{"broker:defaultMaxDeliveryAttempts=23", "broker__defaultMaxDeliveryAttempts=17"}, 17,
			[]string{"broker:defaultMaxDeliveryAttempts"}},
		"equal values do not warn": {
			[]string{"broker__defaultMaxDeliveryAttempts=17", "broker:defaultMaxDeliveryAttempts=17", "brokers__defaultMaxDeliveryAttempts=17"}, 17,
			nil},
		"later duplicate of the same key wins": {
			[]string{"broker__defaultMaxDeliveryAttempts=23", "broker__defaultMaxDeliveryAttempts=17"}, 17,
			[]string{"broker__defaultMaxDeliveryAttempts"}},
		"empty value does not shadow another spelling": {
			[]string{"BROKER__DEFAULTMAXDELIVERYATTEMPTS=", "broker:defaultMaxDeliveryAttempts=17"}, 17,
			nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.env...)
			if got := cfg.Broker.DefaultMaxDeliveryAttempts; got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
			if tc.warnKeys == nil && len(cfg.Warnings) != 0 {
				t.Errorf("unexpected warnings %q", cfg.Warnings)
			}
			if tc.warnKeys != nil && !warningsMention(cfg.Warnings, tc.warnKeys...) {
				t.Errorf("warnings %q do not name %q", cfg.Warnings, tc.warnKeys)
			}
			for _, w := range cfg.Warnings {
				if strings.Contains(w, "17") || strings.Contains(w, "23") {
					t.Errorf("warning %q shows a value", w)
				}
			}
		})
	}
}

func TestConflictWarningHidesSecrets(t *testing.T) {
	cfg := mustLoad(t,
		"inbound__clientAuth__sasKeys__enabled=true",
		"inbound__clientAuth__sasKeys__key1=first-secret",
		"inbound:clientAuth:sasKeys:key1=second-secret")
	if cfg.Inbound.SASKey1 != "first-secret" {
		t.Errorf("key1 = %q, want the __ spelling's value", cfg.Inbound.SASKey1)
	}
	if !warningsMention(cfg.Warnings, "inbound:clientAuth:sasKeys:key1") {
		t.Errorf("no conflict warning in %q", cfg.Warnings)
	}
	for _, w := range cfg.Warnings {
		if strings.Contains(w, "secret") {
			t.Errorf("warning %q shows a secret", w)
		}
	}
}

func TestEmptyValueIsUnset(t *testing.T) {
	cases := map[string]struct {
		key  string
		get  func(*hostconfig.Config) any
		want any
	}{
		"int":    {"broker__defaultMaxDeliveryAttempts", func(c *hostconfig.Config) any { return c.Broker.DefaultMaxDeliveryAttempts }, 30},
		"int64":  {"broker__maxBufferedBytes", func(c *hostconfig.Config) any { return c.Broker.MaxBufferedBytes }, int64(134217728)},
		"bool":   {"inbound__clientAuth__clientCert__enabled", func(c *hostconfig.Config) any { return c.Inbound.ClientCertEnabled }, true},
		"enum":   {"inbound:serverAuth:tlsPolicy", func(c *hostconfig.Config) any { return string(c.Inbound.TLSPolicy) }, "strict"},
		"string": {"broker__metadataDbPath", func(c *hostconfig.Config) any { return c.Broker.MetadataDBPath }, "/app/metadataDb"},
		"mode":   {"IOTEDGE_WORKLOADURI", func(c *hostconfig.Config) any { return c.Mode().String() }, "standalone"},
	}
	for name, tc := range cases {
		for _, value := range []string{"", "   ", "\t"} {
			t.Run(name+"/"+strings.ReplaceAll(value, "\t", `\t`), func(t *testing.T) {
				t.Setenv(tc.key, value)
				cfg := mustLoad(t, snapshotEnv()...)
				if got := tc.get(cfg); got != tc.want {
					t.Errorf("%s=%q: got %v, want the default %v", tc.key, value, got, tc.want)
				}
			})
		}
	}
}

func TestUnknownVariableWarnings(t *testing.T) {
	cases := map[string]struct {
		key  string
		warn bool
	}{
		"typo in broker name":       {"broker__defaultMaxDeliveryAttempt", true},
		"typo in colon form":        {"inbound:serverAuth:tlsPolcy", true},
		"typo behind brokers alias": {"brokers__defaultTTL", true},
		"unknown mqtt setting":      {"mqtt__route", true},
		"unknown log setting":       {"LOG__FORMAT", true},
		"unknown api setting":       {"api__somethingElse", true},
		"unrelated variable":        {"PATH", false},
		"prefix without separator":  {"brokerage", false},
		"known name in odd case":    {"Broker__DefaultMaxDeliveryAttempts", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := mustLoad(t, tc.key+"=9")
			got := warningsMention(cfg.Warnings, tc.key)
			if got != tc.warn {
				t.Errorf("warning about %s: got %v, want %v (warnings %q)", tc.key, got, tc.warn, cfg.Warnings)
			}
			if !slices.IsSorted(cfg.Warnings) {
				t.Errorf("warnings not sorted: %q", cfg.Warnings)
			}
		})
	}
}
