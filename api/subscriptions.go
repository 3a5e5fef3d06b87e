package api

import (
	"io"
	"net/http"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/resource"
)

func (s *Server) putSubscription(w http.ResponseWriter, r *http.Request, p params) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	buf := s.bufs.get()
	defer s.bufs.put(buf)
	if err := s.readBody(w, r, buf); err != nil {
		return err
	}
	topic, err := s.b.Topic(p["topic"])
	if err != nil {
		return err
	}
	cfg, err := resource.DecodeSubscription(topic.Name, topic.Schema, p["sub"], buf.Bytes(), s.limits)
	if err != nil {
		return err
	}
	got, _, err := s.b.PutSubscription(cfg, broker.WithHandshake(r.Context()))
	if err != nil {
		return err
	}
	return writeJSON(w, resource.RenderSubscription(got, s.id, resource.ForAPI))
}

func (s *Server) getSubscription(w http.ResponseWriter, _ *http.Request, p params) error {
	cfg, err := s.b.Subscription(p["topic"], p["sub"])
	if err != nil {
		return err
	}
	return writeJSON(w, resource.RenderSubscription(cfg, s.id, resource.ForAPI))
}

func (s *Server) listSubscriptions(w http.ResponseWriter, _ *http.Request, p params) error {
	subs, err := s.b.Subscriptions(p["topic"])
	if err != nil {
		return err
	}
	out := make([]resource.Subscription, 0, len(subs))
	for _, c := range subs {
		out = append(out, resource.RenderSubscription(c, s.id, resource.ForAPI))
	}
	return writeJSON(w, out)
}

func (s *Server) deleteSubscription(w http.ResponseWriter, r *http.Request, p params) error {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, s.max))
	if err := s.b.DeleteSubscription(p["topic"], p["sub"]); err != nil {
		return err
	}
	writeEmpty(w)
	return nil
}
