// Package mqttingest takes events in from a local MQTT broker (mosquitto, a
// broker module on the gateway): it subscribes to the configured topic
// filters and publishes every message to its Event Grid topic through the
// broker's shared ingest path, broker.PublishJSON.
//
// # Routes
//
// A Route maps an MQTT topic filter to an Event Grid topic. On a JSON route
// the payload must be a JSON event, or a JSON array of events, in the
// topic's input schema, exactly as a REST publish would send them. On a raw
// route (Route.EventType set) each payload becomes one event in the topic's
// input schema:
//
//   - Event Grid schema: id (a new UUID), subject (the MQTT topic),
//     eventType (the route's), eventTime (when the message arrived, RFC 3339
//     UTC), dataVersion "1.0" and data. data is the payload itself when it is
//     UTF-8 JSON; otherwise it is a JSON string holding the payload in
//     standard base64 (the Event Grid schema has no other way to carry
//     bytes, so subscribers of a route with binary payloads decode data).
//   - CloudEvents 1.0: specversion "1.0", id, source (Options.Source,
//     "mqtt://host:port" by default), type, subject (the MQTT topic), time,
//     and either data with datacontenttype application/json, or data_base64
//     with datacontenttype application/octet-stream.
//   - Custom schema: the same object as the Event Grid schema.
//
// A message goes once to every distinct Event Grid topic whose route filter
// matches its MQTT topic; when several matching routes name the same topic,
// the first route in Options.Routes decides raw or JSON. Retained messages
// the MQTT broker replays because a subscription was (re)made are skipped:
// they were published before, and every reconnect would replay them again.
//
// # At least once
//
// The client subscribes with QoS 1 on a persistent session (clean session
// off, a stable client id) and acknowledges a message only when its fate is
// settled:
//
//   - every target topic accepted it: acknowledged;
//   - a topic refused it for good (not valid JSON, not a valid event, larger
//     than the size limit, unknown topic, no route): acknowledged and dropped,
//     so the MQTT broker does not redeliver it forever; counted by cause and
//     logged once per cause, then in summaries (package ratelog);
//   - the broker is busy (broker.ErrBusy, its memory cap): not acknowledged;
//     the message stays in a bounded in-memory queue and is offered again
//     with exponential back-off until accepted or the ingest stops. The MQTT
//     broker keeps it meanwhile and sends it again after a reconnect;
//   - the ingest is closing: not acknowledged, left to the MQTT broker.
//
// Message handlers never block: they only push to that queue, which owned
// worker goroutines drain. When the queue is full, a QoS 0 message is
// dropped (counted); a QoS 1 message is left unacknowledged, and once the
// queue has drained the ingest drops its connection so that the MQTT broker
// sends every unacknowledged message again on the new one (MQTT 3.1.1
// brokers resend only on reconnect). Retries after a reconnect may deliver a
// message twice; subscribers must tolerate duplicates, as with every
// at-least-once path.
//
// # Lifecycle
//
// New checks the options and builds the client; Start connects in the
// background (an unreachable MQTT broker never blocks the caller) and
// resubscribes after every reconnect; Close stops taking messages, lets the
// workers finish what is queued until its context ends, then disconnects.
package mqttingest
