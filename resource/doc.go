// Package resource is the Event Grid on IoT Edge resource model: the JSON bodies
// of topics and event subscriptions as the REST API (api-version
// 2019-01-01-preview) and the module twin carry them.
//
// Decoding is as lenient as the original .NET module: property names match
// case-insensitively (the SDK sends PascalCase), enum values too, numbers may come
// as numeric strings and booleans as "true"/"false", array-valued filter parts may
// come JSON-encoded in a string (the module twin's form), topic/Topic/topicName
// all name the topic, CustomSchema is CustomEventSchema, persistencePolicy has
// three accepted shapes and deliveryPolicy is the older batching shape. Unknown
// properties are ignored. Everything else is validated with messages that name
// the property.
//
// Rendering produces the documented camelCase responses. Secrets (sasKey, secret
// delivery headers) are never rendered; ForStore renders them for the metadata
// store only.
package resource
