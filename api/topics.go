package api

import (
	"io"
	"net/http"

	"github.com/edgegrid/edgegrid/resource"
)

func (s *Server) putTopic(w http.ResponseWriter, r *http.Request, p params) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	buf := s.bufs.get()
	defer s.bufs.put(buf)
	if err := s.readBody(w, r, buf); err != nil {
		return err
	}
	cfg, err := resource.DecodeTopic(p["topic"], buf.Bytes())
	if err != nil {
		return err
	}
	got, _, err := s.b.PutTopic(cfg)
	if err != nil {
		return err
	}
	return writeJSON(w, resource.RenderTopic(got, s.id, baseURL(r)))
}

func (s *Server) getTopic(w http.ResponseWriter, r *http.Request, p params) error {
	cfg, err := s.b.Topic(p["topic"])
	if err != nil {
		return err
	}
	return writeJSON(w, resource.RenderTopic(cfg, s.id, baseURL(r)))
}

func (s *Server) listTopics(w http.ResponseWriter, r *http.Request, _ params) error {
	topics := s.b.Topics()
	out := make([]resource.Topic, 0, len(topics))
	for _, t := range topics {
		out = append(out, resource.RenderTopic(t, s.id, baseURL(r)))
	}
	return writeJSON(w, out)
}

func (s *Server) deleteTopic(w http.ResponseWriter, r *http.Request, p params) error {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, s.max))
	if err := s.b.DeleteTopic(p["topic"]); err != nil {
		return err
	}
	writeEmpty(w)
	return nil
}
