package hostconfig

import "strings"

// Log configures logging.
type Log struct {
	// Level is log__level, an addition of this project: trace, debug, info,
	// warn or error, any case. Optional, no default: when unset the level
	// follows RuntimeLogLevel, and info when that is unset too. See
	// Config.LogLevel.
	Level Level `envconfig:"log__level" desc:"trace, debug, info, warn or error (unset: from RuntimeLogLevel) [edgegrid addition]"`

	// RuntimeLogLevel is IoT Edge's RuntimeLogLevel, which edgeAgent adds to
	// every module (default Information). Serilog names, any case: verbose,
	// debug, info, information, warning, error, fatal. An unrecognised value
	// is not an error (the variable is shared with other modules): Load adds
	// a warning and the level is info.
	RuntimeLogLevel string `envconfig:"RuntimeLogLevel" desc:"IoT Edge log level: verbose, debug, info(rmation), warning, error, fatal"`
}

// runtimeLevels maps IoT Edge's RuntimeLogLevel values (lower case) to
// zerolog level names (iotedge-platform §1.4).
var runtimeLevels = map[string]string{
	"verbose":     "trace",
	"debug":       "debug",
	"info":        "info",
	"information": "info",
	"warning":     "warn",
	"error":       "error",
	"fatal":       "fatal",
}

// LogLevel returns the zerolog level name to log at: log__level when set,
// else RuntimeLogLevel mapped to zerolog (verbose→trace, debug→debug,
// info/information→info, warning→warn, error→error, fatal→fatal), else info.
func (c *Config) LogLevel() string {
	if l, ok := matchEnum(c.Log.Level, levels); ok {
		return string(l)
	}
	if l, ok := runtimeLevel(c.Log.RuntimeLogLevel); ok {
		return l
	}
	return string(LevelInfo)
}

func runtimeLevel(v string) (string, bool) {
	l, ok := runtimeLevels[strings.ToLower(strings.TrimSpace(v))]
	return l, ok
}

// validateLog checks log__level; RuntimeLogLevel only earns a warning.
func validateLog(l Log) []Problem {
	if l.Level == "" {
		return nil
	}
	if _, ok := matchEnum(l.Level, levels); !ok {
		return []Problem{{Name: "log__level", Value: string(l.Level), Reason: enumError[Level](levels).Error()}}
	}
	return nil
}

// lintLog warns about a RuntimeLogLevel that would silently become info.
func lintLog(l Log) []string {
	if l.Level != "" || l.RuntimeLogLevel == "" {
		return nil
	}
	if _, ok := runtimeLevel(l.RuntimeLogLevel); ok {
		return nil
	}
	return []string{"RuntimeLogLevel is not one of verbose, debug, info, information, warning, error, fatal; logging at info"}
}
