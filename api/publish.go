package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
)

// Content types of the CloudEvents JSON format.
const (
	ctCloudEvent      = "application/cloudevents+json"
	ctCloudEventBatch = "application/cloudevents-batch+json"
)

// publish handles POST /topics/{topic}/events: a JSON array of events in the
// topic's input schema (or, for CloudEvents topics, any CloudEvents mode).
func (s *Server) publish(w http.ResponseWriter, r *http.Request, p params) error {
	return s.doPublish(w, r, p["topic"], false)
}

// publishOne handles the SDK's POST /topics/{topic}/events/{eventId}: one event
// object (or a binary-mode CloudEvent).
func (s *Server) publishOne(w http.ResponseWriter, r *http.Request, p params) error {
	return s.doPublish(w, r, p["topic"], true)
}

func (s *Server) doPublish(w http.ResponseWriter, r *http.Request, name string, single bool) error {
	start := time.Now()
	topic, err := s.b.Topic(name)
	if err != nil {
		return err
	}
	err = s.publishTo(w, r, topic, single)
	if stats, serr := s.b.TopicStats(topic.Name); serr == nil {
		recordRequest(stats, err, time.Since(start))
	}
	if err != nil {
		return err
	}
	writeEmpty(w)
	return nil
}

func (s *Server) publishTo(w http.ResponseWriter, r *http.Request, topic broker.TopicConfig, single bool) error {
	buf := s.bufs.get()
	defer s.bufs.put(buf)
	if err := s.readBody(w, r, buf); err != nil {
		return err
	}
	events, err := parseEvents(r, topic, buf.Bytes(), single)
	if err != nil {
		return err
	}
	_, err = s.b.Publish(topic.Name, events)
	return err
}

// parseEvents picks the parse mode from the topic's schema and the content type.
func parseEvents(r *http.Request, topic broker.TopicConfig, body []byte, single bool) ([]*eventschema.Event, error) {
	o := eventschema.Options{Topic: topic.Name, Shape: eventschema.ShapeArray}
	mt := mediaType(r)
	if topic.Schema == eventschema.CloudEvents {
		if eventschema.IsBinaryCloudEvent(r.Header) {
			ev, err := eventschema.ParseBinaryCloudEvent(r.Header, body, o)
			if err != nil {
				return nil, err
			}
			return []*eventschema.Event{ev}, nil
		}
		switch mt {
		case ctCloudEvent:
			o.Shape = eventschema.ShapeObject
		case ctCloudEventBatch:
			o.Shape = eventschema.ShapeArray
		case "", "application/json", "text/json":
			o.Shape = eventschema.ShapeAny
		default:
			return nil, unsupportedMedia(r, ctCloudEvent+", "+ctCloudEventBatch+", application/json or the CloudEvents binary mode (ce-* headers)")
		}
	} else if mt == ctCloudEvent || mt == ctCloudEventBatch {
		return nil, apiError(415, "UnsupportedMediaType", "Topic '"+topic.Name+"' has input schema "+topic.Schema.String()+
			"; CloudEvents content types are accepted only by CloudEventSchemaV1_0 topics. Use application/json.")
	} else if err := requireJSON(r); err != nil {
		return nil, err
	}
	if single {
		o.Shape = eventschema.ShapeObject
	}
	return eventschema.Parse(topic.Schema, body, o)
}

// recordRequest counts a publish request in the topic's metrics.
func recordRequest(st *broker.TopicStats, err error, d time.Duration) {
	if err == nil {
		st.SuccessRequests.Add(1)
		st.PublishLatency.Observe(d)
		return
	}
	var ae *Error
	if status := toAPIError(err).Status; status >= 500 && !errors.As(err, &ae) {
		st.SystemErrorRequests.Add(1)
		return
	}
	st.UserErrorRequests.Add(1)
}
