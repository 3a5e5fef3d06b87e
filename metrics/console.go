package metrics

import (
	"context"
	"time"

	"github.com/rs/zerolog"
)

// DefaultConsoleInterval is how often the console reporter logs.
const DefaultConsoleInterval = time.Minute

// Console logs a summary line per topic and subscription every interval until
// ctx ends (metrics__reporterType=console, for debugging). It blocks; run it in
// a goroutine the caller owns.
func Console(ctx context.Context, src Source, log zerolog.Logger, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			logOnce(src, log)
		}
	}
}

func logOnce(src Source, log zerolog.Logger) {
	topics, subs := src.Statuses()
	for _, t := range topics {
		s := t.Stats
		log.Info().Str("metrics", "topic").Str("topic", t.Name).Int64("EventsReceived", s.EventsReceived.Load()).
			Int64("UnmatchedEvents", s.UnmatchedEvents.Load()).Int64("SuccessRequests", s.SuccessRequests.Load()).
			Int64("UserErrorRequests", s.UserErrorRequests.Load()).Int64("SystemErrorRequests", s.SystemErrorRequests.Load()).Msg("metrics")
	}
	for _, s := range subs {
		st := s.Stats
		log.Info().Str("metrics", "subscription").Str("topic", s.Topic).Str("subscription", s.Name).
			Int64("deliverySuccessCounts", st.Delivered.Load()).Int64("deliveryFailureCounts", st.FailedAttempts.Load()).
			Int64("deliveryAttemptsCount", st.Attempts.Load()).Int("ready", s.Ready).Int("oneMinute", s.OneMinute).
			Int("tenMinutes", s.TenMinutes).Bool("delayed", s.Delayed).Msg("metrics")
	}
	log.Info().Str("metrics", "broker").Int64("bufferedBytes", src.BufferedBytes()).Msg("metrics")
}
