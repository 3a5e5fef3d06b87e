package hostconfig_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// FuzzLoad feeds a known variable with an arbitrary value plus an arbitrary
// key/value pair. Load must not panic; it returns either a valid Config or
// an error starting "invalid config", and leaves the process environment as
// it was.
func FuzzLoad(f *testing.F) {
	f.Add(uint8(0), "enabled", "brokers__defaultMaxDeliveryAttempts", "5")
	f.Add(uint8(18), "abc", "metrics:reportertype", "prometheus")
	f.Add(uint8(24), "-1", "inbound__clientAuth:clientCert__enabled", "TRUE")
	f.Add(uint8(33), "unix:///s.sock", "IOTEDGE_MODULEID", "m")
	f.Add(uint8(7), "k\x00ey", "=", "")
	f.Add(uint8(9), "0x10", "broker::x", "   ")
	f.Add(uint8(3), "99999999999999999999", "BROKERS:defaultMaxEventsPerBatch", "010")
	names := hostconfig.Names()
	f.Fuzz(func(t *testing.T, idx uint8, value, key, value2 string) {
		env := []string{names[int(idx)%len(names)] + "=" + value, key + "=" + value2}
		before := snapshotEnv()
		cfg, err := hostconfig.Load(env)
		if after := snapshotEnv(); !slices.Equal(before, after) {
			t.Fatalf("Load(%q) changed the process environment", env)
		}
		if err != nil {
			if cfg != nil || !strings.HasPrefix(err.Error(), "invalid config") {
				t.Fatalf("Load(%q) = %v, %v", env, cfg, err)
			}
			return
		}
		if cfg == nil {
			t.Fatalf("Load(%q) returned nil, nil", env)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("Load(%q) returned a Config that fails Validate: %v", env, err)
		}
	})
}
