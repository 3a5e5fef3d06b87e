package mqtttopic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/mqtttopic"
)

func TestValidateFilter(t *testing.T) {
	cases := map[string]struct {
		filter string
		want   error
	}{
		"plain":               {"sensors/a/telemetry", nil},
		"plus level":          {"sensors/+/telemetry", nil},
		"hash last":           {"alarms/#", nil},
		"hash alone":          {"#", nil},
		"plus alone":          {"+", nil},
		"empty levels":        {"/a//b/", nil},
		"dollar topic":        {"$SYS/broker/#", nil},
		"spaces":              {"my sensors/+", nil},
		"empty":               {"", mqtttopic.ErrEmpty},
		"hash not last":       {"a/#/b", mqtttopic.ErrWildcard},
		"hash inside level":   {"a/b#", mqtttopic.ErrWildcard},
		"plus inside level":   {"a/b+/c", mqtttopic.ErrWildcard},
		"plus before text":    {"+a", mqtttopic.ErrWildcard},
		"nul":                 {"a/\x00", mqtttopic.ErrEncoding},
		"bad utf8":            {"a/\xff", mqtttopic.ErrEncoding},
		"too long":            {strings.Repeat("a", mqtttopic.MaxLength+1), mqtttopic.ErrTooLong},
		"longest":             {strings.Repeat("a", mqtttopic.MaxLength), nil},
		"shared subscription": {"$share/g/a/#", mqtttopic.ErrReserved},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := mqtttopic.ValidateFilter(tc.filter)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Errorf("ValidateFilter(%.40q) = %v, want %v", tc.filter, err, tc.want)
			}
		})
	}
}

func TestValidateNames(t *testing.T) {
	type tc struct {
		topic   string
		name    error // ValidateName
		publish error // ValidatePublishName
	}
	for _, c := range []tc{
		{"events/out", nil, nil},
		{"a b/ü", nil, nil},
		{"/", nil, nil},
		{"", mqtttopic.ErrEmpty, mqtttopic.ErrEmpty},
		{"a/+", mqtttopic.ErrWildcard, mqtttopic.ErrWildcard},
		{"a/#", mqtttopic.ErrWildcard, mqtttopic.ErrWildcard},
		{"a#b", mqtttopic.ErrWildcard, mqtttopic.ErrWildcard},
		{"$SYS/x", nil, mqtttopic.ErrReserved},
		{"\x00", mqtttopic.ErrEncoding, mqtttopic.ErrEncoding},
	} {
		if err := mqtttopic.ValidateName(c.topic); !errors.Is(err, c.name) || (c.name == nil) != (err == nil) {
			t.Errorf("ValidateName(%q) = %v, want %v", c.topic, err, c.name)
		}
		if err := mqtttopic.ValidatePublishName(c.topic); !errors.Is(err, c.publish) || (c.publish == nil) != (err == nil) {
			t.Errorf("ValidatePublishName(%q) = %v, want %v", c.topic, err, c.publish)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		filter, topic string
		want          bool
	}{
		{"a/b", "a/b", true},
		{"a/b", "a/c", false},
		{"a/b", "a/b/c", false},
		{"a/b/c", "a/b", false},
		{"a/+", "a/b", true},
		{"a/+", "a/", true},
		{"a/+", "a", false},
		{"a/+", "a/b/c", false},
		{"+/+", "/x", true},
		{"+", "/x", false},
		{"a/#", "a", true},
		{"a/#", "a/b/c", true},
		{"a/#", "ab", false},
		{"#", "a/b", true},
		{"#", "/", true},
		{"+/#", "a", true},
		{"#", "$SYS/x", false},
		{"+/x", "$SYS/x", false},
		{"$SYS/#", "$SYS/x", true},
		{"$SYS/+", "$SYS/x", true},
		{"sensors/+/telemetry", "sensors/s1/telemetry", true},
		{"sensors/+/telemetry", "sensors/s1/status", false},
		{"A/b", "a/b", false},
	}
	for _, c := range cases {
		if got := mqtttopic.Match(c.filter, c.topic); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.filter, c.topic, got, c.want)
		}
	}
}

func TestMatchAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { mqtttopic.Match("sensors/+/x/#", "sensors/a/x/y/z") }); n != 0 {
		t.Errorf("Match allocates %v times per call", n)
	}
}
