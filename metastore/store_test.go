package metastore_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/filter"
	"github.com/edgegrid/edgegrid/metastore"
	"github.com/edgegrid/edgegrid/resource"
)

func ptr[T any](v T) *T { return &v }

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s, err := metastore.Open(filepath.Join(dir, "meta"), resource.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	snap := broker.Snapshot{
		Topics: []broker.TopicConfig{{Name: "a", Schema: eventschema.Custom}, {Name: "b", Schema: eventschema.EventGrid}},
		Subscriptions: []broker.SubscriptionConfig{
			{Name: "s1", Topic: "a", DeliverySchema: eventschema.Custom,
				Destination: destination.Endpoint{Type: destination.WebHook, URL: "https://x/y",
					Headers: []destination.Header{{Name: "X-K", Value: "secret", Secret: true}}},
				RetryPolicy: &broker.RetryPolicy{MaxDeliveryAttempts: ptr(3)}, MaxEventsPerBatch: ptr(5)},
			{Name: "s2", Topic: "b", DeliverySchema: eventschema.EventGrid,
				Destination: destination.Endpoint{Type: destination.EventGrid, URL: "https://t.eventgrid.azure.net/api/events?api-version=2018-01-01", SASKey: "KEY"},
				Filter:      &filter.Spec{SubjectBeginsWith: "x", IncludedEventTypes: []string{"a"}}, Persisted: ptr(true)},
		},
	}
	if err := s.Save(snap); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(s.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v %v", info.Mode(), err)
	}
	got, err := s.Load()
	if err != nil || len(got.Problems) != 0 {
		t.Fatalf("load: %v %v", err, got.Problems)
	}
	if !reflect.DeepEqual(got.Topics, snap.Topics) || !reflect.DeepEqual(got.Subscriptions, snap.Subscriptions) {
		t.Fatalf("round trip differs:\n%+v\n%+v", got, snap)
	}
}

func TestLoadMissingFileIsEmpty(t *testing.T) {
	s, err := metastore.Open(t.TempDir(), resource.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Load()
	if err != nil || len(got.Topics) != 0 {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestLoadSkipsBadEntries(t *testing.T) {
	dir := t.TempDir()
	s, _ := metastore.Open(dir, resource.DefaultLimits())
	content := `{"version":1,"topics":[{"name":"ok","properties":{"inputSchema":"EventGridSchema"}},{"name":"bad name","properties":{}}],
	"eventSubscriptions":[{"name":"s","properties":{"topicName":"gone","destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}}}},
	{"name":"s2","properties":{"topicName":"ok","destination":{"endpointType":"WebHook","properties":{"endpointUrl":"https://x"}}}}]}`
	if err := os.WriteFile(filepath.Join(dir, metastore.FileName), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load()
	if err != nil || len(got.Topics) != 1 || len(got.Subscriptions) != 1 || len(got.Problems) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestCorruptAndUnwritable(t *testing.T) {
	dir := t.TempDir()
	s, _ := metastore.Open(dir, resource.DefaultLimits())
	_ = os.WriteFile(filepath.Join(dir, metastore.FileName), []byte(`{"version":`), 0o600)
	if _, err := s.Load(); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("corrupt file: %v", err)
	}
	if runtime.GOOS != "linux" || os.Geteuid() == 0 {
		t.Log("running as root: permission checks cannot fail; only the corrupt-file case is checked")
		return
	}
	ro := filepath.Join(t.TempDir(), "ro")
	_ = os.Mkdir(ro, 0o500)
	if _, err := metastore.Open(ro, resource.DefaultLimits()); err == nil || !strings.Contains(err.Error(), "not writable") {
		t.Fatalf("unwritable dir: %v", err)
	}
}

func TestOpenOnAFileFails(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(f, nil, 0o600)
	if _, err := metastore.Open(f, resource.DefaultLimits()); err == nil {
		t.Fatal("a regular file was accepted as the metadata directory")
	}
}
