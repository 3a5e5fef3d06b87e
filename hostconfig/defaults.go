package hostconfig

// Defaults and ranges. The struct tags in config.go carry the same defaults
// for envconfig; TestDefaultsMatchLoad keeps the two in step.
const (
	// defaultMaxDeliveryAttempts is the original module's default
	// (edge-spec §4.4). The upper bound of 100 is ours: with the fixed
	// 1-minute/10-minute schedule, 100 attempts already take about 16 hours,
	// so more would hardly ever run before the event expires.
	defaultMaxDeliveryAttempts = 30
	maxMaxDeliveryAttempts     = 100

	// defaultEventTTLSeconds is the original default of two hours. The bound
	// of one day caps how long an undeliverable event can hold memory.
	defaultEventTTLSeconds = 7200
	maxEventTTLSeconds     = 86400

	// batchBytesLimit is the original's odd 1,048,576 + 10,000 bytes,
	// reproduced literally (edge-spec §4.5). It is the default and the maximum
	// of both byte-sized batch settings. minBatchBytes (1 KiB) keeps a batch
	// able to hold at least one small event.
	batchBytesLimit = 1058576
	minBatchBytes   = 1024

	// defaultEventsPerBatch is the original broker default (edge-spec §4.5).
	defaultEventsPerBatch = 10

	// defaultAPIMaxEventsPerBatch is the original API limit. maxAPIEventsPerBatch
	// is ours: 5000 events per request is already far past any webhook's
	// comfortable body size.
	defaultAPIMaxEventsPerBatch = 50
	maxAPIEventsPerBatch        = 5000

	// preferredBatchKBLimit is the original default and maximum of
	// api__deliveryPolicyLimits__maxpreferredBatchSizeInKilobytes.
	preferredBatchKBLimit = 1033

	// defaultHTTPSPort and defaultHTTPPort are the original module's ports
	// (edge-spec §1.1); deployment manifests map them.
	defaultHTTPSPort = 4438
	defaultHTTPPort  = 5888
	maxPort          = 65535

	// defaultMetadataDBPath is where the original kept topic and subscription
	// definitions; manifests bind a volume there (edge-spec §8).
	defaultMetadataDBPath = "/app/metadataDb"
	// metadataDisabled is the value that turns metadata persistence off
	// (envconfig treats an empty value as unset, so "" cannot).
	metadataDisabled = "none"

	// defaultMaxBufferedBytes (128 MiB) fits comfortably in a small edge
	// device while absorbing bursts. The range runs from 1 MiB, enough for one
	// maximal batch, to 1 TiB, which bounds only against typos.
	defaultMaxBufferedBytes = 128 << 20
	minMaxBufferedBytes     = 1 << 20
	maxMaxBufferedBytes     = 1 << 40

	// defaultDeliveryConcurrency allows some parallelism per subscription
	// without overwhelming a small subscriber; 256 bounds goroutines per
	// subscription.
	defaultDeliveryConcurrency = 8
	maxDeliveryConcurrency     = 256

	// defaultShutdownGraceSeconds stays below Docker's default 10-second stop
	// timeout, so the drain ends before SIGKILL arrives.
	defaultShutdownGraceSeconds = 8
	maxShutdownGraceSeconds     = 600
)

// Names a standalone module uses in resource ids, where IoT Edge would
// supply the hub, device and module names.
const (
	StandaloneHubName  = "local"
	StandaloneDeviceID = "local"
	StandaloneModuleID = "eventgridmodule"
)

// Defaults returns the configuration Load produces from an empty
// environment: standalone mode, every documented default. It does not touch
// the process environment, so other packages' tests can use it freely.
func Defaults() *Config {
	return &Config{
		Inbound: Inbound{
			TLSPolicy:                TLSPolicyStrict,
			ServerCertSource:         CertSourceIoTEdge,
			ClientCertEnabled:        true,
			ClientCertSource:         CertSourceIoTEdge,
			ClientCertAllowUnknownCA: true,
			HTTPSPort:                defaultHTTPSPort,
			HTTPPort:                 defaultHTTPPort,
		},
		Outbound: Outbound{
			ClientCertEnabled:     true,
			ClientCertSource:      CertSourceIoTEdge,
			WebhookHTTPSOnly:      true,
			WebhookAllowUnknownCA: true,
			EventGridHTTPSOnly:    true,
			EventGridCredential:   EntraAuto,
		},
		Broker:  defaultBroker(),
		API:     API{MaxEventsPerBatch: defaultAPIMaxEventsPerBatch, MaxPreferredBatchSizeInKilobytes: preferredBatchKBLimit, MaxBatchSizeInBytes: batchBytesLimit},
		Metrics: Metrics{ReporterType: ReporterNone},
		Edge:    Edge{DeviceID: StandaloneDeviceID, ModuleID: StandaloneModuleID},
	}
}

func defaultBroker() Broker {
	return Broker{
		DefaultMaxDeliveryAttempts:      defaultMaxDeliveryAttempts,
		DefaultEventTimeToLiveInSeconds: defaultEventTTLSeconds,
		DefaultMaxBatchSizeInBytes:      batchBytesLimit,
		DefaultMaxEventsPerBatch:        defaultEventsPerBatch,
		MetadataDBPath:                  defaultMetadataDBPath,
		MaxBufferedBytes:                defaultMaxBufferedBytes,
		DeliveryConcurrency:             defaultDeliveryConcurrency,
		ShutdownGracePeriodInSeconds:    defaultShutdownGraceSeconds,
	}
}
