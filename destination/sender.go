package destination

import (
	"context"
	"errors"

	"github.com/edgegrid/edgegrid/eventschema"
)

// Delivery is one request to a destination: its events are delivered together,
// all or none.
type Delivery struct {
	// Subscription is the subscription's name (aeg-subscription-name).
	Subscription string
	// Topic is the topic the events were published to.
	Topic string
	// Schema is the delivery schema.
	Schema eventschema.Schema
	// Events are delivered in this order in one request body (a JSON array).
	Events []*eventschema.Event
	// PriorAttempts counts earlier attempts of this delivery (aeg-delivery-count).
	PriorAttempts int
}

// Sender delivers to one subscription's destination.
//
// Send must honour ctx (the broker cancels it after the delivery timeout and at
// shutdown), must not retain d or its events after returning, and must be safe
// for concurrent use: the broker runs several deliveries of one subscription at
// once. Close is called when the sender will get no new attempts (subscription
// updated or deleted); attempts already running may still finish and must not
// break because of it.
type Sender interface {
	Send(ctx context.Context, d *Delivery) Result
	Close() error
}

// Factory builds a Sender for an endpoint. It validates the endpoint first and
// returns an error wrapping ErrInvalidEndpoint with a message for the API caller
// when the endpoint is unacceptable (bad URL, http where https is required...).
type Factory interface {
	Validate(ep *Endpoint) error
	New(ep *Endpoint) (Sender, error)
}

// HandshakeInfo describes the subscription a handshake is for.
type HandshakeInfo struct {
	Subscription, Topic string
	Schema              eventschema.Schema
}

// Handshaker is implemented by factories whose destinations can prove they
// want the events (the webhook validation handshake).
type Handshaker interface {
	Handshake(ctx context.Context, ep *Endpoint, info HandshakeInfo) error
}

// Errors of the package.
var (
	// ErrInvalidEndpoint marks endpoint validation errors (HTTP 400 InvalidDestination).
	ErrInvalidEndpoint = errors.New("destination: invalid endpoint")
	// ErrUnsupportedType: no factory is registered for the endpoint type.
	ErrUnsupportedType = errors.New("destination: unsupported endpoint type")
)
