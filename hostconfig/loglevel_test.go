package hostconfig_test

import (
	"testing"
)

func TestLogLevel(t *testing.T) {
	cases := map[string]struct {
		logLevel, runtime string // "" leaves the variable unset
		want              string
		warns             bool
	}{
		"both unset":                         {"", "", "info", false},
		"runtime Verbose":                    {"", "Verbose", "trace", false},
		"runtime debug":                      {"", "debug", "debug", false},
		"runtime info":                       {"", "info", "info", false},
		"runtime Information (edge default)": {"", "Information", "info", false},
		"runtime WARNING":                    {"", "WARNING", "warn", false},
		"runtime error":                      {"", "error", "error", false},
		"runtime Fatal":                      {"", "Fatal", "fatal", false},
		"runtime unknown":                    {"", "chatty", "info", true},
		"runtime zerolog name":               {"", "warn", "info", true},
		"log__level wins":                    {"debug", "Fatal", "debug", false},
		"log__level any case":                {"TRACE", "", "trace", false},
		"log__level hides bad runtime":       {"error", "chatty", "error", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var env []string
			if tc.logLevel != "" {
				env = append(env, "log__level="+tc.logLevel)
			}
			if tc.runtime != "" {
				env = append(env, "RuntimeLogLevel="+tc.runtime)
			}
			cfg := mustLoad(t, env...)
			if got := cfg.LogLevel(); got != tc.want {
				t.Errorf("LogLevel() = %q, want %q", got, tc.want)
			}
			if got := warningsMention(cfg.Warnings, "RuntimeLogLevel"); got != tc.warns {
				t.Errorf("warning about RuntimeLogLevel: %v, want %v (%q)", got, tc.warns, cfg.Warnings)
			}
			if got := cfg.Summary()["log__level"]; got != tc.want {
				t.Errorf("Summary log__level = %q, want %q", got, tc.want)
			}
		})
	}
}
