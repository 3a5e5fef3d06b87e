package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// moduleJSON mirrors module.json as iotedgedev and the VS Code IoT Edge
// extension read it (iotedge-platform §3.4).
type moduleJSON struct {
	SchemaVersion string `json:"$schema-version"`
	Description   string `json:"description"`
	Image         struct {
		Repository string `json:"repository"`
		Tag        struct {
			Version   string            `json:"version"`
			Platforms map[string]string `json:"platforms"`
		} `json:"tag"`
		BuildOptions []string `json:"buildOptions"`
		ContextPath  string   `json:"contextPath"`
	} `json:"image"`
	Language string `json:"language"`
}

// archDirs maps each IoT Edge platform to the folder its binary is built in.
var archDirs = map[string]string{"amd64": "amd64", "arm64v8": "arm64", "arm32v7": "arm32v7"}

func loadModuleJSON(t *testing.T) (moduleJSON, string) {
	t.Helper()
	dir := filepath.Join(root, "module")
	raw, err := os.ReadFile(filepath.Join(dir, "module.json"))
	if err != nil {
		t.Fatal(err)
	}
	var mj moduleJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&mj); err != nil {
		t.Fatalf("module.json: %v", err)
	}
	return mj, dir
}

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$`)

// TestModuleJSON: module.json names a repository and version, and maps every
// platform to a Dockerfile that exists, with a build context at the
// repository root (paths relative to module.json).
func TestModuleJSON(t *testing.T) {
	mj, dir := loadModuleJSON(t)
	if mj.SchemaVersion != "0.0.1" || mj.Image.Repository == "" || !versionRE.MatchString(mj.Image.Tag.Version) {
		t.Errorf("module.json: $schema-version %q repository %q version %q", mj.SchemaVersion, mj.Image.Repository, mj.Image.Tag.Version)
	}
	if _, err := os.Stat(filepath.Join(dir, mj.Image.ContextPath, "go.mod")); err != nil {
		t.Errorf("contextPath %q is not the repository root: %v", mj.Image.ContextPath, err)
	}
	for platform := range archDirs {
		df, ok := mj.Image.Tag.Platforms[platform]
		if !ok {
			t.Errorf("module.json has no platform %s", platform)
			continue
		}
		if filepath.Base(df) != "Dockerfile."+platform {
			t.Errorf("platform %s builds %s, want Dockerfile.%s", platform, df, platform)
		}
		if _, err := os.Stat(filepath.Join(dir, df)); err != nil {
			t.Errorf("platform %s: %v", platform, err)
		}
	}
	for platform := range mj.Image.Tag.Platforms {
		if _, ok := archDirs[platform]; !ok {
			t.Errorf("module.json platform %q is not one the build produces", platform)
		}
	}
}
