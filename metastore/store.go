// Package metastore keeps topic and event subscription definitions (metadata,
// never events) in a directory, so they survive a restart as the original
// module's /app/metadataDb did. The file is written atomically (temporary file,
// fsync, rename) with mode 0600 because it holds destination secrets.
package metastore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/resource"
)

// FileName is the definitions file inside the directory.
const FileName = "edgegrid-metadata.json"

// formatVersion is bumped when the file's shape changes incompatibly.
const formatVersion = 1

// Store reads and writes the definitions file. Save is serialised by the broker.
type Store struct {
	path   string
	limits resource.Limits
}

// file is the on-disk shape: the REST representations, secrets included.
type file struct {
	Version       int                     `json:"version"`
	Topics        []resource.Topic        `json:"topics"`
	Subscriptions []resource.Subscription `json:"eventSubscriptions"`
}

// Open prepares dir (creating it if needed) and checks that it is writable, so
// a read-only or wrongly owned volume is reported at start, not at the first save.
func Open(dir string, limits resource.Limits) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("metadata directory %s cannot be created: %w", dir, err)
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return nil, fmt.Errorf("metadata directory %s is not writable (the module runs as UID 2000; chown the volume): %w", dir, err)
	}
	name := probe.Name()
	_ = probe.Close()
	_ = os.Remove(name)
	return &Store{path: filepath.Join(dir, FileName), limits: limits}, nil
}

// Path is the definitions file's path.
func (s *Store) Path() string { return s.path }

// Save writes the snapshot atomically.
func (s *Store) Save(snap broker.Snapshot) error {
	f := file{Version: formatVersion, Topics: []resource.Topic{}, Subscriptions: []resource.Subscription{}}
	for _, t := range snap.Topics {
		f.Topics = append(f.Topics, resource.RenderTopic(t, resource.Identity{}, ""))
	}
	for _, c := range snap.Subscriptions {
		f.Subscriptions = append(f.Subscriptions, resource.RenderSubscription(c, resource.Identity{}, resource.ForStore))
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(s.path, data)
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".metadata-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Loaded is what Load found. Problems describe entries that could not be
// restored (they are skipped, not fatal).
type Loaded struct {
	Topics        []broker.TopicConfig
	Subscriptions []broker.SubscriptionConfig
	Problems      []string
}

// Load reads the definitions; a missing file is an empty result.
func (s *Store) Load() (Loaded, error) {
	var out Loaded
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	var f struct {
		Version       int               `json:"version"`
		Topics        []json.RawMessage `json:"topics"`
		Subscriptions []json.RawMessage `json:"eventSubscriptions"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return out, fmt.Errorf("metadata file %s is corrupt: %w", s.path, err)
	}
	if f.Version != formatVersion {
		return out, fmt.Errorf("metadata file %s has format version %d; this build reads %d", s.path, f.Version, formatVersion)
	}
	schemas := map[string]broker.TopicConfig{}
	for _, raw := range f.Topics {
		s.loadTopic(raw, &out, schemas)
	}
	for _, raw := range f.Subscriptions {
		s.loadSubscription(raw, &out, schemas)
	}
	return out, nil
}

func (s *Store) loadTopic(raw json.RawMessage, out *Loaded, schemas map[string]broker.TopicConfig) {
	var head struct{ Name string }
	_ = json.Unmarshal(raw, &head)
	cfg, err := resource.DecodeTopic(head.Name, raw)
	if err != nil {
		out.Problems = append(out.Problems, fmt.Sprintf("topic %q: %v", head.Name, err))
		return
	}
	out.Topics = append(out.Topics, cfg)
	schemas[head.Name] = cfg
}

func (s *Store) loadSubscription(raw json.RawMessage, out *Loaded, schemas map[string]broker.TopicConfig) {
	var head struct {
		Name       string
		Properties struct{ TopicName string }
	}
	_ = json.Unmarshal(raw, &head)
	t, ok := schemas[head.Properties.TopicName]
	if !ok {
		out.Problems = append(out.Problems, fmt.Sprintf("event subscription %q: topic %q is missing", head.Name, head.Properties.TopicName))
		return
	}
	cfg, err := resource.DecodeSubscription(t.Name, t.Schema, head.Name, raw, s.limits)
	if err != nil {
		out.Problems = append(out.Problems, fmt.Sprintf("event subscription %q: %v", head.Name, err))
		return
	}
	out.Subscriptions = append(out.Subscriptions, cfg)
}
