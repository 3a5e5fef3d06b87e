// Package eventschema decodes, validates and encodes the three event schemas of
// Event Grid on IoT Edge: the Event Grid schema, CloudEvents 1.0 (structured JSON,
// batched JSON and binary HTTP mode) and custom events.
//
// A publish request is accepted or rejected as a whole: Parse returns either every
// event of the body or a *ParseError naming the first bad event and field.
//
// Accepted events are immutable *Event values holding the JSON object that
// subscribers receive. The rules, decided from the original module's documentation:
//
//   - Event Grid schema: the body is a JSON array of objects. id (non-empty),
//     subject, eventType, eventTime and dataVersion are required strings (empty
//     strings allowed except for id); eventTime is not validated beyond being a
//     string; topic, if present, must equal the topic of the URL; metadataVersion,
//     if present, must be "1"; data is any JSON value and stays absent when absent.
//     Property names are matched case-insensitively (the .NET SDK sends PascalCase).
//     The delivered object is re-encoded with camelCase names, topic set to the
//     topic name and metadataVersion "1"; unknown properties are not delivered.
//   - CloudEvents 1.0: id, source, type and specversion are required; specversion
//     must be "1.0" ("1.0-rc1" is accepted because the module's own documentation
//     publishes it); time, when present, must be RFC 3339; data and data_base64 are
//     mutually exclusive and data_base64 must be valid base64. The event is
//     delivered byte for byte as published: source is never rewritten and no
//     attribute is added.
//   - Custom schema: the body is a JSON array of JSON objects, delivered exactly as
//     received.
//
// No schema conversion happens: a subscription's delivery schema equals its
// topic's input schema, as in the original module.
package eventschema
