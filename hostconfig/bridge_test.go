package hostconfig_test

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// TestLoadRestoresProcessEnv proves Load leaves the process environment
// exactly as it found it: canonical names that were set keep their values,
// those that were unset stay unset, on success and on error alike.
func TestLoadRestoresProcessEnv(t *testing.T) {
	cases := map[string]struct {
		env     []string // passed to Load (in addition to os.Environ() when fromOS)
		fromOS  bool
		wantErr bool
	}{
		"explicit slice":             {env: []string{"broker__defaultMaxDeliveryAttempts=4", "metrics:reporterType=console"}},
		"process env":                {fromOS: true},
		"invalid values":             {env: []string{"broker__defaultMaxDeliveryAttempts=abc", "inbound__httpPort=x"}, wantErr: true},
		"empty slice":                {},
		"value with a NUL byte":      {env: []string{"broker__metadataDbPath=/a\x00b"}, wantErr: true},
		"every known name, all junk": {env: junkForEveryName(), wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("BROKER__DEFAULTMAXDELIVERYATTEMPTS", "77")      // canonical, set before Load
			t.Setenv("broker__defaultEventTimeToLiveInSeconds", "60") // mixed case, as IoT Edge sets it
			t.Setenv("INBOUND__HTTPPORT", "")                         // set but empty
			t.Setenv("METRICS__REPORTERTYPE", "")                     // registers the restore of the original
			if err := os.Unsetenv("METRICS__REPORTERTYPE"); err != nil {
				t.Fatal(err)
			}
			env := tc.env
			if tc.fromOS {
				env = append(os.Environ(), env...)
			}
			before := snapshotEnv()
			_, err := hostconfig.Load(env)
			if (err != nil) != tc.wantErr {
				t.Errorf("Load error = %v, want error: %v", err, tc.wantErr)
			}
			if after := snapshotEnv(); !slices.Equal(before, after) {
				t.Errorf("process environment changed:\nbefore %q\nafter  %q", before, after)
			}
			if v, ok := os.LookupEnv("INBOUND__HTTPPORT"); !ok || v != "" {
				t.Errorf("INBOUND__HTTPPORT = %q, %v; want set and empty", v, ok)
			}
		})
	}
}

func junkForEveryName() []string {
	var env []string
	for _, n := range hostconfig.Names() {
		env = append(env, n+"=junk!")
	}
	return env
}

// TestLoadConcurrent runs Loads with different inputs at once; each must see
// only its own slice (run with -race).
func TestLoadConcurrent(t *testing.T) {
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			want := i%100 + 1
			cfg, err := hostconfig.Load([]string{fmt.Sprintf("broker__defaultMaxDeliveryAttempts=%d", want)})
			switch {
			case err != nil:
				errs <- err
			case cfg.Broker.DefaultMaxDeliveryAttempts != want:
				errs <- fmt.Errorf("load %d: got %d attempts, want %d", i, cfg.Broker.DefaultMaxDeliveryAttempts, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
