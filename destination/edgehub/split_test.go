package edgehub

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/eventschema"
)

func TestSplit(t *testing.T) {
	ev := func(n int) *eventschema.Event {
		return &eventschema.Event{Raw: []byte(strings.Repeat("x", n)), ID: "e"}
	}
	tests := map[string]struct {
		sizes []int
		limit int
		want  []int // events per message
	}{
		"one fits":             {[]int{10}, 12, []int{1}},
		"exactly full":         {[]int{5, 4}, 2 + 5 + 1 + 4, []int{2}},
		"one byte over":        {[]int{5, 5}, 2 + 5 + 1 + 4, []int{1, 1}},
		"greedy in order":      {[]int{4, 4, 4, 20, 1}, 24, []int{3, 2}},
		"each alone":           {[]int{10, 10, 10}, 12, []int{1, 1, 1}},
		"no events, no output": {nil, 12, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var evs []*eventschema.Event
			for _, n := range tc.sizes {
				evs = append(evs, ev(n))
			}
			chunks, err := split(evs, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, c := range chunks {
				got = append(got, len(c))
				if size := eventschema.BatchSize(c); size > tc.limit {
					t.Fatalf("chunk of %d bytes exceeds %d", size, tc.limit)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("chunks %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := split([]*eventschema.Event{ev(3), ev(11)}, 12); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("an event larger than the limit: %v", err)
	}
}
