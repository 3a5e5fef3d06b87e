package api

import "github.com/edgegrid/edgegrid/resource"

// sentence turns "broker: topic not found: topic 'x' does not exist" into
// "Topic 'x' does not exist."
func sentence(err error) string { return resource.Sentence(err) }
