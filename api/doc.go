// Package api serves the Event Grid on IoT Edge REST API (api-version
// 2019-01-01-preview): topics, event subscriptions and publishing, plus health
// routes. Handlers return errors; writeError is the only place that writes an
// error response, always in the original module's shape:
//
//	{"error":{"code":"BadRequest","details":{"code":"InvalidDestination","message":"..."}}}
//
// error.code is the name of the HTTP status (as the module twin's error report
// spells it: 'BadRequest'); details.code is a stable detailed code.
package api
