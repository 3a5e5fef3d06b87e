// Package mqtt delivers events to a topic on an MQTT broker (endpointType
// Mqtt, property topic), an addition of edgegrid: the request body a webhook
// would get (a JSON array of events) is published with QoS 1, and the
// broker's PUBACK within the deadline means delivered. Without a connection
// an attempt answers Retry at once, so the broker's retry queues (1 minute,
// then 10 minutes) apply as for any destination.
package mqtt

import (
	"errors"
	"fmt"

	"github.com/edgegrid/edgegrid/destination"
	"github.com/edgegrid/edgegrid/mqtttopic"
)

// Errors of the package.
var (
	// ErrNotConnected: there is no connection to the MQTT broker now.
	ErrNotConnected = errors.New("mqtt: not connected to the MQTT broker")
	// ErrNoAck: the MQTT broker did not acknowledge within the deadline.
	ErrNoAck = errors.New("mqtt: no PUBACK within the publish timeout")
	// ErrReconnected: the connection was replaced while waiting; whether the
	// message arrived is unknown, so it is sent again (at least once).
	ErrReconnected = errors.New("mqtt: the connection was re-established during the attempt")
	// ErrDisabled: no MQTT broker is configured.
	ErrDisabled = errors.New("mqtt: no MQTT broker is configured")
)

// ValidateEndpoint checks a Mqtt destination's topic: required, a valid MQTT
// topic name without wildcards, not starting with '$'.
func ValidateEndpoint(ep *destination.Endpoint) error {
	if ep.MqttTopic == "" {
		return invalid("Topic must be specified for an Mqtt destination (the MQTT topic to publish to).")
	}
	if err := mqtttopic.ValidatePublishName(ep.MqttTopic); err != nil {
		return invalid(fmt.Sprintf("Topic '%.100s' is not a valid MQTT topic to publish to: %v.", ep.MqttTopic, err))
	}
	return nil
}

func invalid(reason string) error {
	return fmt.Errorf("%w: %s", destination.ErrInvalidEndpoint, reason)
}

// Disabled is the factory when no MQTT broker is configured: it refuses
// every Mqtt subscription with a message saying how to enable them.
type Disabled struct{}

var _ destination.Factory = Disabled{}

// Validate always fails with an error matching both
// destination.ErrInvalidEndpoint and ErrDisabled.
func (Disabled) Validate(*destination.Endpoint) error { return disabledError{} }

// New always fails.
func (d Disabled) New(ep *destination.Endpoint) (destination.Sender, error) {
	return nil, d.Validate(ep)
}

// disabledError reads as an invalid endpoint (the API shows the text after
// that prefix) and also matches ErrDisabled.
type disabledError struct{}

func (disabledError) Error() string {
	return destination.ErrInvalidEndpoint.Error() +
		": EndpointType 'Mqtt' needs an MQTT broker; set mqtt__url (for example tcp://mosquitto:1883) and restart the module"
}

func (disabledError) Unwrap() []error { return []error{destination.ErrInvalidEndpoint, ErrDisabled} }
