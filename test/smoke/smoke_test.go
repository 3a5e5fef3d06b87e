package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildModule compiles the module for this machine, as CI's image build does.
func buildModule(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "edgegrid")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/edgegrid/edgegrid/module")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the module: %v\n%s", err, out)
	}
	return bin
}

// TestSmokePasses: against the real binary the check sees the event
// delivered, both healthchecks pass and the module drains cleanly.
func TestSmokePasses(t *testing.T) {
	bin := buildModule(t)
	var log bytes.Buffer
	if err := run(context.Background(), []string{"-exec", bin, "-timeout", "30s"}, &log); err != nil {
		t.Fatalf("smoke failed: %v\n%s", err, log.String())
	}
	for _, want := range []string{"delivered to http://127.0.0.1:", "healthcheck: healthy: http://", "healthcheck: healthy: https://"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestSmokeFailsWithoutDelivery: when the module cannot reach the subscriber
// (the callback host is a loopback address nothing listens on), the check
// fails with the reason instead of passing.
func TestSmokeFailsWithoutDelivery(t *testing.T) {
	bin := buildModule(t)
	var log bytes.Buffer
	err := run(context.Background(), []string{"-exec", bin, "-timeout", "3s", "-callback-host", "127.0.0.2"}, &log)
	if err == nil || !strings.Contains(err.Error(), "was not delivered") {
		t.Fatalf("smoke returned %v, want a delivery failure\n%s", err, log.String())
	}
}

// TestSmokeRequiresExisting: -existing fails when the module has no such topic.
func TestSmokeRequiresExisting(t *testing.T) {
	bin := buildModule(t)
	var log bytes.Buffer
	err := run(context.Background(), []string{"-exec", bin, "-timeout", "10s", "-existing"}, &log)
	if err == nil || !strings.Contains(err.Error(), "expected to exist already") {
		t.Fatalf("smoke returned %v, want a missing-topic failure\n%s", err, log.String())
	}
}

func TestSmokeFlags(t *testing.T) {
	for name, args := range map[string][]string{
		"neither api nor exec": {},
		"both api and exec":    {"-api", "https://127.0.0.1:4438", "-exec", "edgegrid"},
		"unknown flag":         {"-api", "https://127.0.0.1:4438", "-bogus"},
	} {
		if err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
