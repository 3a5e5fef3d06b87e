// Package edgehub delivers events as module output messages through edgeHub
// (endpointType EdgeHub, property outputName).
//
// The package holds the destination side only: endpoint validation, the
// Factory and its Sender, which hand each message to a Publisher (the module's
// one edgeHub connection, package github.com/edgegrid/edgegrid/edgehub), and
// OfflineFactory for modules running outside IoT Edge.
package edgehub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/edgegrid/edgegrid/destination"
)

// MaxOutputName bounds an output name.
const MaxOutputName = 256

// Errors of the package.
var (
	// ErrNotConnected: no edgeHub connection (standalone mode, or edgeHub is away).
	ErrNotConnected = errors.New("edgehub: not connected to edgeHub")
	// ErrTooLarge: an event does not fit in one edgeHub message.
	ErrTooLarge = errors.New("edgehub: event larger than edgeHub's message size limit")
)

// ValidateEndpoint checks outputName: required, without characters that would
// break the MQTT topic or edgeHub's route grammar.
func ValidateEndpoint(ep *destination.Endpoint) error {
	name := ep.OutputName
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("OutputName must be specified for an EdgeHub destination.")
	case len(name) > MaxOutputName:
		return invalid(fmt.Sprintf("OutputName is %d characters long; at most %d are allowed.", len(name), MaxOutputName))
	case strings.ContainsAny(name, "/#+&=?%\"'"):
		return invalid(fmt.Sprintf("OutputName '%s' must not contain any of / # + & = ? %% \" '.", name))
	}
	for _, c := range name {
		if unicode.IsSpace(c) || unicode.IsControl(c) {
			return invalid(fmt.Sprintf("OutputName '%s' must not contain spaces or control characters.", name))
		}
	}
	return nil
}

func invalid(reason string) error {
	return fmt.Errorf("%w: %s", destination.ErrInvalidEndpoint, reason)
}

// OfflineFactory validates EdgeHub destinations when the module has no edgeHub
// connection (outside IoT Edge). Its senders report ErrNotConnected, which the
// broker retries like any transient failure.
type OfflineFactory struct{}

var _ destination.Factory = OfflineFactory{}

// Validate checks the endpoint.
func (OfflineFactory) Validate(ep *destination.Endpoint) error { return ValidateEndpoint(ep) }

// New returns a sender that cannot deliver.
func (f OfflineFactory) New(ep *destination.Endpoint) (destination.Sender, error) {
	if err := f.Validate(ep); err != nil {
		return nil, err
	}
	return offlineSender{}, nil
}

type offlineSender struct{}

func (offlineSender) Send(context.Context, *destination.Delivery) destination.Result {
	return notConnected()
}

func (offlineSender) Close() error { return nil }

func notConnected() destination.Result {
	return destination.Result{Outcome: destination.Retry, Reason: "EdgeHubUnavailable", Err: ErrNotConnected}
}
