package edgehub

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/resource"
	"github.com/edgegrid/edgegrid/retry"
	"github.com/edgegrid/edgegrid/workload"
)

// Tunables, each with the reason for its value.
const (
	// DefaultPort is edgeHub's MQTT-over-TLS port inside the IoT Edge network.
	DefaultPort = "8883"
	// DefaultTokenTTL is the SAS token lifetime, the Azure IoT SDKs' default.
	DefaultTokenTTL = time.Hour
	// renewAt is the share of the token lifetime after which the connection is
	// renewed: well before edgeHub's 5-minute re-authentication sweep could
	// find the token expired.
	renewAt = 0.8
	// maxMessageBytes is edgeHub's MaxInboundMessageSize: a whole MQTT packet.
	maxMessageBytes = 262144
	// requestTimeout bounds edgeHub's answer to a twin request and a SUBACK.
	requestTimeout = 30 * time.Second
	// tickInterval paces timeouts, retries and the reported-properties refresh.
	tickInterval = 5 * time.Second
	// quiesce is how long a closing connection may flush in-flight packets.
	quiesce = 250 // milliseconds
)

// Broker is what the connection uses of the broker: input messages are
// published through the same path as HTTP publishes, and the module twin
// manages topics and subscriptions. *broker.Broker implements it.
type Broker interface {
	PublishJSON(topic string, body []byte, shape eventschema.Shape) (broker.PublishResult, error)
	Topic(name string) (broker.TopicConfig, error)
	Topics() []broker.TopicConfig
	PutTopic(cfg broker.TopicConfig) (broker.TopicConfig, bool, error)
	DeleteTopic(name string) error
	Subscription(topic, name string) (broker.SubscriptionConfig, error)
	Subscriptions(topic string) ([]broker.SubscriptionConfig, error)
	PutSubscription(cfg broker.SubscriptionConfig, opts ...broker.PutOption) (broker.SubscriptionConfig, bool, error)
}

var _ Broker = (*broker.Broker)(nil)

// Workload is what the connection needs of the IoT Edge workload API;
// *workload.Client implements it.
type Workload interface {
	Signer
	// TrustBundle returns the CAs the device trusts (PEM and pool); edgeHub's
	// certificate chains to them. It is asked before every new connection.
	TrustBundle(ctx context.Context) ([]byte, *x509.CertPool, error)
}

var _ Workload = (*workload.Client)(nil)

// Options configure a Client.
type Options struct {
	// Identity is the module's identity; every field is required.
	Identity Identity
	// Address is edgeHub's host:port; empty means Identity.Gateway:8883.
	Address string
	// Workload signs SAS tokens and gives the trust bundle (workload.Client).
	Workload Workload
	// InputRoutes maps input names to Event Grid topics; an input not listed
	// goes to the topic of the same name.
	InputRoutes map[string]string
	// Limits bound subscriptions created through the module twin
	// (zero: resource.DefaultLimits).
	Limits resource.Limits
	// ClientType is sent as DeviceClientType in the username (default "edgegrid").
	ClientType string
	// TokenTTL is the SAS token lifetime (default DefaultTokenTTL).
	TokenTTL time.Duration
	// Logger receives the connection's logs (default: discard).
	Logger *zerolog.Logger
	// Clock drives token renewal, twin timeouts and retries (default: wall clock).
	Clock retry.Clock
}

func (o *Options) setDefaults() {
	if o.Address == "" {
		o.Address = net.JoinHostPort(o.Identity.Gateway, DefaultPort)
	}
	if o.Limits == (resource.Limits{}) {
		o.Limits = resource.DefaultLimits()
	}
	if o.ClientType == "" {
		o.ClientType = "edgegrid"
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = DefaultTokenTTL
	}
	if o.Logger == nil {
		nop := zerolog.Nop()
		o.Logger = &nop
	}
	if o.Clock == nil {
		o.Clock = retry.RealClock{}
	}
}

// validate reports every missing or malformed option.
func (o *Options) validate() error {
	var errs []error
	id := o.Identity
	for _, f := range [...]struct{ name, v string }{{"HubHostname", id.HubHostname}, {"Gateway", id.Gateway},
		{"DeviceID", id.DeviceID}, {"ModuleID", id.ModuleID}} {
		if f.v == "" {
			errs = append(errs, errors.New("invalid config: edgehub: Identity."+f.name+" is required"))
		}
	}
	if strings.ContainsAny(id.DeviceID+id.ModuleID, "/#+") {
		errs = append(errs, errors.New("invalid config: edgehub: device and module ids must not contain / # +"))
	}
	if _, _, err := net.SplitHostPort(o.Address); err != nil {
		errs = append(errs, errors.New("invalid config: edgehub: address '"+o.Address+"' is not host:port"))
	}
	if o.Workload == nil {
		errs = append(errs, errors.New("invalid config: edgehub: Workload is required"))
	}
	return errors.Join(errs...)
}
