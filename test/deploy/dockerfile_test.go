package deploy

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction with its arguments.
type instruction struct{ cmd, args string }

// parseDockerfile splits a Dockerfile into instructions, joining continued
// lines and dropping comments.
func parseDockerfile(t *testing.T, path string) []instruction {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []instruction
	var cur strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(line)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		out = append(out, instruction{strings.ToUpper(cmd), strings.Join(strings.Fields(args), " ")})
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDockerfiles: each platform's Dockerfile builds offline (one stage FROM
// scratch, no RUN), copies that platform's binary and the staged file tree
// with the data directories owned by UID/GID 2000, runs as 2000:2000,
// exposes 4438 and 5888, and has the healthcheck command, the entrypoint and
// OCI labels.
func TestDockerfiles(t *testing.T) {
	for platform, dir := range archDirs {
		t.Run(platform, func(t *testing.T) {
			ins := parseDockerfile(t, filepath.Join(root, "Dockerfile."+platform))
			want := map[string]string{
				"FROM":        "scratch",
				"USER":        "2000:2000",
				"EXPOSE":      "4438 5888",
				"HEALTHCHECK": `CMD ["/edgegrid", "healthcheck"]`,
				"ENTRYPOINT":  `["/edgegrid"]`,
			}
			counts := map[string]int{}
			var copies, labels []string
			for _, in := range ins {
				counts[in.cmd]++
				switch in.cmd {
				case "COPY":
					copies = append(copies, in.args)
				case "LABEL":
					labels = append(labels, in.args)
				case "FROM", "USER", "EXPOSE", "ENTRYPOINT":
					if in.args != want[in.cmd] {
						t.Errorf("%s %s, want %s", in.cmd, in.args, want[in.cmd])
					}
				case "HEALTHCHECK":
					if !strings.HasSuffix(in.args, want["HEALTHCHECK"]) {
						t.Errorf("HEALTHCHECK %s, want … %s", in.args, want["HEALTHCHECK"])
					}
				case "ARG":
				default:
					t.Errorf("instruction %s %s: only FROM scratch, ARG, LABEL, COPY, USER, EXPOSE, HEALTHCHECK, ENTRYPOINT belong here", in.cmd, in.args)
				}
			}
			for cmd := range want {
				if counts[cmd] != 1 {
					t.Errorf("%d %s instructions, want 1", counts[cmd], cmd)
				}
			}
			for _, c := range []string{dir + "/edgegrid /edgegrid", "build/rootfs/etc/ /etc/", "--chown=2000:2000 build/rootfs/app/ /app/"} {
				if !slices.Contains(copies, c) {
					t.Errorf("no COPY %s (copies: %q)", c, copies)
				}
			}
			if !strings.Contains(strings.Join(labels, " "), "org.opencontainers.image.source=") {
				t.Errorf("no OCI labels: %q", labels)
			}
			if _, err := os.Stat(filepath.Join(root, dir, "README.md")); err != nil {
				t.Errorf("the build folder's README: %v", err)
			}
		})
	}
}
