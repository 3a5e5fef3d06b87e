package api

import "net/http"

// routeTable lists every API route. Topic and subscription names are path
// parameters; literals match case-insensitively.
func (s *Server) routeTable(metrics http.Handler) []route {
	rs := []route{
		newRoute(http.MethodGet, "/topics", s.listTopics),
		newRoute(http.MethodPut, "/topics/{topic}", s.putTopic),
		newRoute(http.MethodGet, "/topics/{topic}", s.getTopic),
		newRoute(http.MethodDelete, "/topics/{topic}", s.deleteTopic),
		newRoute(http.MethodGet, "/topics/{topic}/eventSubscriptions", s.listSubscriptions),
		newRoute(http.MethodPut, "/topics/{topic}/eventSubscriptions/{sub}", s.putSubscription),
		newRoute(http.MethodGet, "/topics/{topic}/eventSubscriptions/{sub}", s.getSubscription),
		newRoute(http.MethodDelete, "/topics/{topic}/eventSubscriptions/{sub}", s.deleteSubscription),
	}
	publish := []route{
		newRoute(http.MethodPost, "/topics/{topic}/events", s.publish),
		newRoute(http.MethodPost, "/topics/{topic}/events/{eventId}", s.publishOne),
	}
	for i := range publish {
		publish[i].publish = true
	}
	health := []route{
		newRoute(http.MethodGet, "/api/health", s.health),
		newRoute(http.MethodGet, "/healthz", s.health),
		newRoute(http.MethodGet, "/readyz", s.readiness),
	}
	if metrics != nil {
		health = append(health, newRoute(http.MethodGet, "/metrics", func(w http.ResponseWriter, r *http.Request, _ params) error {
			metrics.ServeHTTP(w, r)
			return nil
		}))
	}
	for i := range health {
		health[i].noAuth = true
	}
	return append(append(rs, publish...), health...)
}
