package broker

import "errors"

// Errors returned by the broker. The API layer maps them to status codes.
var (
	// ErrTopicNotFound: no topic of that name.
	ErrTopicNotFound = errors.New("broker: topic not found")
	// ErrSubscriptionNotFound: no subscription of that name on the topic.
	ErrSubscriptionNotFound = errors.New("broker: event subscription not found")
	// ErrBusy: accepting the events would exceed the buffered-bytes cap.
	ErrBusy = errors.New("broker: too many undelivered events buffered")
	// ErrShuttingDown: the broker is draining and accepts no more events.
	ErrShuttingDown = errors.New("broker: shutting down")
	// ErrSchemaChange: an existing topic's input schema cannot change.
	ErrSchemaChange = errors.New("broker: topic input schema cannot be changed")
	// ErrSchemaMismatch: a subscription's delivery schema differs from its topic's input schema.
	ErrSchemaMismatch = errors.New("broker: delivery schema must match the topic input schema")
	// ErrPersistenceChange: persistencePolicy cannot change on an existing subscription.
	ErrPersistenceChange = errors.New("broker: persistencePolicy cannot be changed")
	// ErrInvalidFilter wraps a filter compilation error.
	ErrInvalidFilter = errors.New("broker: invalid filter")
	// ErrInvalidDestination wraps a destination validation error.
	ErrInvalidDestination = errors.New("broker: invalid destination")
)
