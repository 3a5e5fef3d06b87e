package testenv

import (
	"errors"
	"net"
	"testing"
	"time"
)

// TestSocketListenerCloseAll: closeAll ends the accepted connections and the
// listener, and a connection still waiting in the backlog is refused, so no
// client is left waiting on a socket nobody serves.
func TestSocketListenerCloseAll(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newSocketListener(raw)
	accepted, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer accepted.Close()
	server, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	backlog, err := net.Dial("tcp", raw.Addr().String()) // never accepted
	if err != nil {
		t.Fatal(err)
	}
	defer backlog.Close()

	l.closeAll()

	for name, c := range map[string]net.Conn{"accepted": accepted, "backlog": backlog} {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := c.Read(make([]byte, 1))
		var ne net.Error
		if err == nil || (errors.As(err, &ne) && ne.Timeout()) {
			t.Errorf("%s connection: read after closeAll = %v; want EOF or reset", name, err)
		}
	}
	if _, err := server.Write([]byte("x")); err == nil {
		t.Error("the server side of an accepted connection is still open after closeAll")
	}
	if _, err := l.Accept(); err == nil {
		t.Error("Accept succeeded after closeAll")
	}
	if n := len(l.open); n != 0 {
		t.Errorf("%d connections still tracked after closeAll", n)
	}
}

// TestSocketListenerForgetsClosed: a connection closed by its server is no
// longer tracked.
func TestSocketListenerForgetsClosed(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newSocketListener(raw)
	defer l.closeAll()
	c, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	before := len(l.open)
	l.mu.Unlock()
	_ = s.Close()
	l.mu.Lock()
	after := len(l.open)
	l.mu.Unlock()
	if before != 1 || after != 0 {
		t.Errorf("tracked connections: %d before Close, %d after; want 1 and 0", before, after)
	}
}
