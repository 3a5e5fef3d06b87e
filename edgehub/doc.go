// Package edgehub is the module's connection to IoT Edge's edgeHub over MQTT
// 3.1.1, as the Azure IoT SDKs make it (no SDK is used):
//
//   - One paho client to tls://{IOTEDGE_GATEWAYHOSTNAME}:8883, trusting only
//     the workload API's trust bundle, client id {device}/{module}, the IoT
//     Hub username, and a SAS token signed by the workload API as password.
//     Tokens live an hour; the connection is renewed with a fresh token after
//     80 % of that, and every reconnect signs a new one.
//   - Module outputs: Client is the Publisher of the EdgeHub destination
//     (package destination/edgehub); messages go to
//     devices/{d}/modules/{m}/messages/events/$.on={output}&$.ct=application/json&$.ce=utf-8
//     with QoS 1, and edgeHub's PUBACK means delivered.
//   - Module inputs: messages routed to devices/{d}/modules/{m}/inputs/{input}
//     are published, in order, to the Event Grid topic the input maps to, and
//     acknowledged only once the broker accepted them or refused them for
//     good (a bad event: counted, logged once a minute per cause). While the
//     broker is over its memory cap the message is retried and not
//     acknowledged, which stops edgeHub after its small in-flight window.
//   - The module twin: desired "topics" and "eventSubscriptions" are applied
//     to the broker; the reported properties list everything the broker holds
//     and the errors, in the original module's form.
//
// The connection is made in the background: while edgeHub is away the module
// serves HTTP and delivers elsewhere as usual, EdgeHub deliveries fail fast
// into the retry queues and paho reconnects with backoff.
//
// Goroutines: Start runs two, the control loop (sessions, subscriptions,
// token renewal, twin) and the ingest worker; Close stops and waits for both.
// paho's callbacks only queue work for them.
package edgehub
