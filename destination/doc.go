// Package destination is the contract between the broker and the places events
// are delivered to (webhooks, edgeHub outputs, cloud Event Grid, MQTT topics).
//
// A Sender delivers one Delivery (one or more events, all or none) and answers a
// Result that says whether the delivery succeeded, may be retried, or must be
// dropped. Classify holds the one table that maps HTTP outcomes to results.
package destination
