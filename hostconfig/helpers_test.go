package hostconfig_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// mustLoad loads env and fails the test on error.
func mustLoad(t *testing.T, env ...string) *hostconfig.Config {
	t.Helper()
	cfg, err := hostconfig.Load(env)
	if err != nil {
		t.Fatalf("Load(%q): %v", env, err)
	}
	if cfg == nil {
		t.Fatalf("Load(%q) returned nil Config and nil error", env)
	}
	return cfg
}

// loadErr loads env, which must be invalid, and returns the *Error.
func loadErr(t *testing.T, env ...string) *hostconfig.Error {
	t.Helper()
	cfg, err := hostconfig.Load(env)
	if err == nil {
		t.Fatalf("Load(%q) succeeded, want an error", env)
	}
	if cfg != nil {
		t.Errorf("Load(%q) returned a Config with its error", env)
	}
	if !errors.Is(err, hostconfig.ErrInvalidConfig) {
		t.Errorf("error %v does not match ErrInvalidConfig", err)
	}
	if !strings.HasPrefix(err.Error(), "invalid config: ") {
		t.Errorf("error text %q does not start with \"invalid config: \"", err)
	}
	var ce *hostconfig.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %T is not *hostconfig.Error", err)
	}
	return ce
}

// problemNames returns the names of the problems, in order.
func problemNames(e *hostconfig.Error) []string {
	var out []string
	for _, p := range e.Problems {
		out = append(out, p.Name)
	}
	return out
}

// snapshotEnv returns the process environment, sorted.
func snapshotEnv() []string {
	env := os.Environ()
	slices.Sort(env)
	return env
}

// warningsMention reports whether some warning contains every one of subs.
func warningsMention(warnings []string, subs ...string) bool {
	for _, w := range warnings {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(w, s)
		}
		if all {
			return true
		}
	}
	return false
}
