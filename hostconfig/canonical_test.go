package hostconfig

import (
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalKey(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"documented":      {"broker__defaultMaxDeliveryAttempts", "BROKER__DEFAULTMAXDELIVERYATTEMPTS"},
		"colon":           {"inbound:serverAuth:tlsPolicy", "INBOUND__SERVERAUTH__TLSPOLICY"},
		"mixed":           {"inbound__clientAuth:clientCert__enabled", "INBOUND__CLIENTAUTH__CLIENTCERT__ENABLED"},
		"brokers alias":   {"brokers__defaultMaxDeliveryAttempts", "BROKER__DEFAULTMAXDELIVERYATTEMPTS"},
		"brokers colon":   {"Brokers:x", "BROKER__X"},
		"already upper":   {"IOTEDGE_MODULEID", "IOTEDGE_MODULEID"},
		"single _ stays":  {"iotedge_moduleid", "IOTEDGE_MODULEID"},
		"brokers inside":  {"x__brokers__y", "X__BROKERS__Y"},
		"brokerss prefix": {"brokerss__x", "BROKERSS__X"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := canonicalKey(tc.in); got != tc.want {
				t.Errorf("canonicalKey(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestRankOf(t *testing.T) {
	const doc = "broker__defaultMaxDeliveryAttempts"
	cases := map[string]struct {
		key  string
		want spelling
	}{
		"canonical":         {"BROKER__DEFAULTMAXDELIVERYATTEMPTS", spellCanonical},
		"documented":        {doc, spellDocumented},
		"other case":        {"Broker__DefaultMaxDeliveryAttempts", spellUnderscore},
		"colon":             {"broker:defaultMaxDeliveryAttempts", spellColon},
		"upper colon":       {"BROKER:DEFAULTMAXDELIVERYATTEMPTS", spellColon},
		"mixed":             {"broker__defaultMaxDeliveryAttempts:x", spellColon},
		"alias":             {"brokers__defaultMaxDeliveryAttempts", spellAlias},
		"alias upper":       {"BROKERS__DEFAULTMAXDELIVERYATTEMPTS", spellAlias},
		"alias colon":       {"brokers:defaultMaxDeliveryAttempts", spellAlias},
		"documented, upper": {"IOTEDGE_MODULEID", spellCanonical},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := rankOf(tc.key, doc); got != tc.want {
				t.Errorf("rankOf(%q) = %d, want %d", tc.key, got, tc.want)
			}
		})
	}
}

func TestDecimal(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"plain":       {"30", "30"},
		"zero":        {"0", "0"},
		"zeros":       {"000", "0"},
		"leading":     {"010", "10"},
		"signed":      {"-007", "-7"},
		"plus":        {"+08", "+8"},
		"hex":         {"0x1F", "0x1F"},
		"not a digit": {"0a", "0a"},
		"empty":       {"", ""},
		"sign only":   {"-", "-"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := decimal(tc.in); got != tc.want {
				t.Errorf("decimal(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"short":         {"abc", "abc"},
		"exactly 64":    {strings.Repeat("a", 64), strings.Repeat("a", 64)},
		"long":          {strings.Repeat("a", 65), strings.Repeat("a", 64) + "…"},
		"rune boundary": {strings.Repeat("a", 63) + "é" + "z", strings.Repeat("a", 63) + "…"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := truncate(tc.in); got != tc.want {
				t.Errorf("truncate = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCatalogIsSound guards the reflection every derived list relies on:
// every section field has a documented name and a description, canonical
// names are unique, and Config holds only sections and Warnings.
func TestCatalogIsSound(t *testing.T) {
	cat := theCatalog()
	seen := map[string]string{}
	for _, f := range cat.fields {
		if f.name == "" || f.desc == "" {
			t.Errorf("field %d.%d lacks an envconfig or desc tag", f.section, f.index)
		}
		if prev, dup := seen[f.canon]; dup {
			t.Errorf("%s and %s share the canonical name %s", prev, f.name, f.canon)
		}
		seen[f.canon] = f.name
	}
	ct := reflect.TypeFor[Config]()
	for i := range ct.NumField() {
		sf := ct.Field(i)
		if sf.Type.Kind() != reflect.Struct && sf.Name != "Warnings" {
			t.Errorf("Config.%s is neither a section nor Warnings", sf.Name)
		}
	}
	if len(sections(&Config{})) != 9 {
		t.Errorf("sections = %d, want 9", len(sections(&Config{})))
	}
}
