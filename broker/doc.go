// Package broker is edgegrid's in-memory core: topics, event subscriptions,
// filtering, fan-out and at-least-once delivery with the 1-minute / 10-minute
// retry queues of package retry.
//
// The model:
//   - A topic has an input schema and any number of subscriptions.
//   - Publish accepts a request's events all or none. Each accepted event becomes
//     one immutable message shared by every subscription whose filter matches it;
//     the bytes it occupies are reserved against Config.MaxBufferedBytes before it
//     is accepted (ErrBusy beyond the cap) and released when the last subscription
//     is done with it. Nothing accepted is ever dropped to make room.
//   - Each subscription has a ready queue and up to Config.DeliveryConcurrency
//     delivery goroutines, started when work arrives and ended when the queue is
//     empty. A hanging destination therefore stalls only its own subscription.
//     Delivery order is not guaranteed.
//   - A failed attempt goes to the subscription's retry.Scheduler; a delivery that
//     reaches a policy limit, or that the destination refuses for good, is dropped
//     and logged once per event with its reason.
//   - There is no event persistence: a restart loses undelivered events. Topic and
//     subscription definitions are handed to a Store after every change.
//
// The package speaks no HTTP, MQTT or JSON wire format; destinations are reached
// through destination.Sender.
package broker
