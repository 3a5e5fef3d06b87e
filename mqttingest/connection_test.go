package mqttingest_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/broker"
	"github.com/edgegrid/edgegrid/eventschema"
	"github.com/edgegrid/edgegrid/internal/testenv"
	"github.com/edgegrid/edgegrid/mqttingest"
)

// TestReconnectAndResubscribe: after the MQTT broker restarts empty (no
// session), the ingest reconnects by itself and subscribes again.
func TestReconnectAndResubscribe(t *testing.T) {
	e := newEnv(t, broker.Config{})
	tele := e.topic("telemetry", eventschema.EventGrid)
	in := e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry"})
	e.mq.Publish("t/1", []byte(egEvent("before")), 1, false)
	waitEvents(t, tele, 1)

	e.mq.Restart() // a new, empty broker: only a new SUBSCRIBE brings messages
	testenv.Eventually(t, 15*time.Second, "resubscribed after the restart", func() bool {
		return in.Stats().Subscribed && e.mq.Subscribed(clientID, "t/#")
	})
	e.mq.Publish("t/2", []byte(egEvent("after")), 1, false)
	got, _ := ids(waitEvents(t, tele, 2))
	if !got["before"] || !got["after"] {
		t.Errorf("events %v", got)
	}
	e.acked()
	if n := e.logs.count("lost the connection to the MQTT broker"); n != 1 {
		t.Errorf("connection loss logged %d times, want once", n)
	}
	if n := e.logs.count("connected to the MQTT broker"); n != 2 {
		t.Errorf("connection logged %d times, want twice", n)
	}
}

// TestUnreachableBrokerDoesNotBlock: Start returns at once when the MQTT
// broker is down, the failed attempts are logged once (then summarised), and
// ingest begins when the broker comes up.
func TestUnreachableBrokerDoesNotBlock(t *testing.T) {
	e := newEnv(t, broker.Config{})
	tele := e.topic("telemetry", eventschema.EventGrid)
	e.mq.Stop()
	// Something that accepts and hangs up at the broker's address, so the
	// test can count paho's attempts.
	attempts := refuseConnections(t, e.mq.Addr)
	o := e.opts
	o.Routes = []mqttingest.Route{{Filter: "t/#", Topic: "telemetry"}}
	in, err := mqttingest.New(o, e.b)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	in.Start()
	if d := time.Since(began); d > 100*time.Millisecond {
		t.Errorf("Start took %v with the broker down", d)
	}
	testenv.Eventually(t, 15*time.Second, "three failed attempts", func() bool { return attempts.Load() >= 3 })
	if n := e.logs.count("cannot connect to the MQTT broker; retrying"); n != 1 {
		t.Errorf("failed attempts logged %d times, want once per period:\n%s", n, e.logs)
	}
	if s := in.Stats(); s.Connected || s.Subscribed {
		t.Errorf("stats %+v with the broker down", s)
	}
	attempts.close()
	e.mq.Restart()
	testenv.Eventually(t, 15*time.Second, "subscribed once the broker is up", func() bool { return in.Stats().Subscribed })
	e.mq.Publish("t/1", []byte(egEvent("late")), 1, false)
	waitEvents(t, tele, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := in.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestTLS connects over ssl:// to a broker whose certificate the test CA
// issued.
func TestTLS(t *testing.T) {
	e := newEnv(t, broker.Config{})
	ca := testenv.NewCA(t, "mqtt-ca")
	e.mq = testenv.StartMQTTBrokerTLS(t, ca.ServerCert(t))
	e.opts.URL = e.mq.URL()
	e.opts.TLS = testenv.ClientTLS(ca)
	tele := e.topic("telemetry", eventschema.EventGrid)
	e.start(mqttingest.Route{Filter: "t/#", Topic: "telemetry", EventType: "T"})
	e.mq.Publish("t/1", []byte("21.5"), 1, false)
	if got := waitEvents(t, tele, 1); got[0]["data"] != 21.5 {
		t.Errorf("event %v", got[0])
	}
	if got := waitEvents(t, tele, 1); got[0]["subject"] != "t/1" {
		t.Errorf("event %v", got[0])
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	good := mqttingest.Options{URL: "tcp://127.0.0.1:1883", ClientID: "c", Routes: []mqttingest.Route{{Filter: "a/#", Topic: "t"}}}
	cases := map[string]func(*mqttingest.Options){
		"no URL":           func(o *mqttingest.Options) { o.URL = "" },
		"http URL":         func(o *mqttingest.Options) { o.URL = "http://x:1" },
		"no client id":     func(o *mqttingest.Options) { o.ClientID = "" },
		"no routes":        func(o *mqttingest.Options) { o.Routes = nil },
		"bad filter":       func(o *mqttingest.Options) { o.Routes = []mqttingest.Route{{Filter: "a/#/b", Topic: "t"}} },
		"duplicate filter": func(o *mqttingest.Options) { o.Routes = append(o.Routes, o.Routes[0]) },
		"no topic":         func(o *mqttingest.Options) { o.Routes = []mqttingest.Route{{Filter: "a"}} },
		"retry bounds":     func(o *mqttingest.Options) { o.RetryMin, o.RetryMax = time.Minute, time.Second },
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			o := good
			o.Routes = append([]mqttingest.Route(nil), good.Routes...)
			mod(&o)
			if _, err := mqttingest.New(o, nil); !errors.Is(err, mqttingest.ErrInvalidOptions) {
				t.Errorf("New: %v, want ErrInvalidOptions", err)
			}
		})
	}
	o := good
	o.Logger = zerolog.Nop()
	if _, err := mqttingest.New(o, nil); err != nil {
		t.Errorf("New(good): %v", err)
	}
}

// refuser accepts TCP connections and closes them at once, counting them.
type refuser struct {
	atomic.Int64
	ln net.Listener
	wg sync.WaitGroup
}

func refuseConnections(t *testing.T, addr string) *refuser {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r := &refuser{ln: ln}
	r.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.Add(1)
			_ = c.Close()
		}
	})
	t.Cleanup(r.close)
	return r
}

func (r *refuser) close() {
	_ = r.ln.Close()
	r.wg.Wait()
}
