// Package retry owns Event Grid on IoT Edge's retry design and nothing else.
//
// A delivery is tried at once. When it fails it waits in the 1-minute queue and is
// tried again one minute later; when that fails too it moves to the 10-minute queue
// and is tried every 10 minutes, until it succeeds or a limit of the Policy is
// reached: the maximum number of attempts (checked after each failure) or the
// event's time to live (checked when the next attempt is due, as the cloud service
// documents).
//
// Because each queue has a single fixed delay, items leave a queue in the order
// they entered it: a queue is a FIFO, and a Scheduler needs one timer for both
// queues however many items wait (no heap, no timer or goroutine per item).
//
// Time comes from a Clock so tests can move it by hand.
package retry
