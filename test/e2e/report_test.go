package e2e

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// reportMu serialises appends to the report file.
var reportMu sync.Mutex

// report logs what a fault test measured and, when EDGEGRID_TEST_REPORT names a
// file, appends it there too: go test shows nothing of passing tests, and CI
// prints that file so the counts each test asserts are visible.
func report(t *testing.T, format string, args ...any) {
	t.Helper()
	line := fmt.Sprintf("%s: %s", t.Name(), fmt.Sprintf(format, args...))
	t.Log(line)
	path := os.Getenv("EDGEGRID_TEST_REPORT")
	if path == "" {
		return
	}
	reportMu.Lock()
	defer reportMu.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Errorf("report file: %v", err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}
