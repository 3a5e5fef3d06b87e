package broker

import (
	"fmt"
	"time"
)

// Defaults, each the original module's documented value unless noted.
const (
	// DefaultMaxDeliveryAttempts: broker__defaultMaxDeliveryAttempts.
	DefaultMaxDeliveryAttempts = 30
	// DefaultEventTTL: broker__defaultEventTimeToLiveInSeconds (7200 s).
	DefaultEventTTL = 2 * time.Hour
	// DefaultMaxEventsPerBatch: broker__defaultMaxEventsPerBatch, the count cap when a
	// subscription sets only a size.
	DefaultMaxEventsPerBatch = 10
	// DefaultMaxBatchBytes: broker__defaultMaxBatchSizeInBytes, the size cap when a
	// subscription sets only a count (1,058,576 as documented, odd as it is).
	DefaultMaxBatchBytes = 1_058_576
	// DefaultMaxBufferedBytes caps event bytes held in memory (an addition: 128 MiB
	// keeps a small gateway safe while allowing ~100k typical events of backlog).
	DefaultMaxBufferedBytes = 128 << 20
	// DefaultDeliveryConcurrency bounds concurrent deliveries per subscription (an
	// addition: enough to keep a loopback subscriber busy, small enough for a Pi).
	DefaultDeliveryConcurrency = 8
	// delayAfterFailures failed attempts in a row start delayed delivery (the
	// cloud service documents the same threshold: "the first 10 events").
	delayAfterFailures = 10
	// messageOverhead approximates the bookkeeping bytes of one buffered event, so
	// the cap bounds real memory and not only payload bytes.
	messageOverhead = 128
)

// Config holds the broker-wide settings.
type Config struct {
	DefaultMaxDeliveryAttempts int
	DefaultEventTTL            time.Duration
	DefaultMaxEventsPerBatch   int
	DefaultMaxBatchBytes       int
	MaxBufferedBytes           int64
	DeliveryConcurrency        int
	// LogDeliverySuccess logs every successful delivery (broker__logDeliverySuccess).
	LogDeliverySuccess bool
}

func (c *Config) setDefaults() {
	if c.DefaultMaxDeliveryAttempts == 0 {
		c.DefaultMaxDeliveryAttempts = DefaultMaxDeliveryAttempts
	}
	if c.DefaultEventTTL == 0 {
		c.DefaultEventTTL = DefaultEventTTL
	}
	if c.DefaultMaxEventsPerBatch == 0 {
		c.DefaultMaxEventsPerBatch = DefaultMaxEventsPerBatch
	}
	if c.DefaultMaxBatchBytes == 0 {
		c.DefaultMaxBatchBytes = DefaultMaxBatchBytes
	}
	if c.MaxBufferedBytes == 0 {
		c.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	if c.DeliveryConcurrency == 0 {
		c.DeliveryConcurrency = DefaultDeliveryConcurrency
	}
}

// Validate reports every out-of-range value.
func (c *Config) Validate() error {
	switch {
	case c.DefaultMaxDeliveryAttempts < 1:
		return fmt.Errorf("invalid config: DefaultMaxDeliveryAttempts %d < 1", c.DefaultMaxDeliveryAttempts)
	case c.DefaultEventTTL <= 0:
		return fmt.Errorf("invalid config: DefaultEventTTL %v <= 0", c.DefaultEventTTL)
	case c.DefaultMaxEventsPerBatch < 1 || c.DefaultMaxBatchBytes < 1:
		return fmt.Errorf("invalid config: batch defaults must be positive")
	case c.MaxBufferedBytes < 1 || c.DeliveryConcurrency < 1:
		return fmt.Errorf("invalid config: MaxBufferedBytes and DeliveryConcurrency must be positive")
	}
	return nil
}
