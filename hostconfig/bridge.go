package hostconfig

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/kelseyhightower/envconfig"
)

// envMu serialises the bridge's use of the process environment: only one
// Load at a time may set and restore the canonical names.
var envMu sync.Mutex

// decode fills cfg with envconfig from settings. It holds envMu while the
// process environment carries the canonical names (see the package
// documentation) and restores them before returning. A variable that fails
// to parse is reported and decoded again with its default, so one run
// reports every bad value.
func decode(cfg *Config, settings map[string]setting, cat *catalog) []Problem {
	envMu.Lock()
	defer envMu.Unlock()
	restore, probs := installEnv(settings, cat)
	defer restore()
	for _, sec := range sections(cfg) {
		probs = append(probs, processSection(sec, cat)...)
	}
	return probs
}

// savedVar is a process environment variable as it was before installEnv.
type savedVar struct {
	key, value string
	set        bool
}

// installEnv sets every canonical name cat declares to its value in
// settings, or unsets it, and returns the function that puts them all back.
func installEnv(settings map[string]setting, cat *catalog) (restore func(), probs []Problem) {
	saved := make([]savedVar, 0, len(cat.fields))
	for _, f := range cat.fields {
		old, wasSet := os.LookupEnv(f.canon)
		saved = append(saved, savedVar{key: f.canon, value: old, set: wasSet})
		s, ok := settings[f.canon]
		if !ok {
			_ = os.Unsetenv(f.canon) // fails only on names with '=' or NUL; ours have none
			continue
		}
		if err := setEnv(f.canon, f.envValue(s.value)); err != nil {
			_ = os.Unsetenv(f.canon)
			probs = append(probs, Problem{Name: f.name, Value: f.shown(s.value), Reason: err.Error()})
		}
	}
	return func() {
		for _, v := range saved {
			if v.set {
				_ = os.Setenv(v.key, v.value)
			} else {
				_ = os.Unsetenv(v.key)
			}
		}
	}, probs
}

// processSection runs envconfig on one section until it parses, unsetting
// each variable that fails so the next run falls back to its default.
func processSection(sec any, cat *catalog) []Problem {
	var probs []Problem
	v := reflect.ValueOf(sec).Elem()
	for range len(cat.fields) + 1 {
		v.SetZero()
		err := envconfig.Process("", sec)
		if err == nil {
			return probs
		}
		var pe *envconfig.ParseError
		if !errors.As(err, &pe) {
			return append(probs, Problem{Name: "hostconfig", Reason: "decoding failed: " + err.Error()})
		}
		probs = append(probs, parseProblem(pe, cat))
		_ = os.Unsetenv(pe.KeyName) // a name installEnv saved; restore puts it back
	}
	return probs
}

// parseProblem translates envconfig's error into the documented name and a
// plain reason.
func parseProblem(pe *envconfig.ParseError, cat *catalog) Problem {
	f, ok := cat.lookup(pe.KeyName)
	if !ok {
		return Problem{Name: pe.KeyName, Reason: pe.Err.Error()}
	}
	return Problem{Name: f.name, Value: f.shown(pe.Value), Reason: f.parseReason(pe.Err)}
}

// parseReason words a decoding failure for this field's type.
func (f field) parseReason(err error) string {
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return err.Error() // from a Decode method: already plain
	}
	switch {
	case f.typ.Kind() == reflect.Bool:
		return "not a boolean (use true or false)"
	case errors.Is(ne.Err, strconv.ErrRange):
		return "whole number out of range"
	}
	return "not a whole number"
}

// envValue is the text handed to envconfig for a user's value.
func (f field) envValue(v string) string {
	switch f.typ.Kind() {
	case reflect.Int, reflect.Int64:
		return decimal(v)
	}
	return v
}

// shown is v as errors may show it: masked for secrets.
func (f field) shown(v string) string {
	if f.secret && v != "" {
		return "***"
	}
	return v
}

// setEnv is os.Setenv with a readable error for the one value the
// environment cannot hold.
func setEnv(key, value string) error {
	if strings.ContainsRune(value, 0) {
		return errors.New("contains a NUL byte")
	}
	if err := os.Setenv(key, value); err != nil {
		return errors.New("cannot be passed to the decoder: " + err.Error())
	}
	return nil
}
