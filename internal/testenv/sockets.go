package testenv

import (
	"net"
	"sync"
)

// The MQTT doubles stop as a process exit stops a broker: every socket
// closed at once. mochi's own Close disconnects the clients it knows before
// it closes the listener, so a client that reconnects at once can land on a
// connection accepted in between that nobody serves or closes, and wait out
// its whole connect timeout.

// socketListener remembers the connections it accepts so they can all be
// closed at once; once closed, it closes whatever Accept still returns.
type socketListener struct {
	net.Listener
	mu     sync.Mutex
	open   map[net.Conn]struct{}
	closed bool
}

func newSocketListener(l net.Listener) *socketListener {
	return &socketListener{Listener: l, open: map[net.Conn]struct{}{}}
}

func (l *socketListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		_ = c.Close()
		return nil, net.ErrClosed
	}
	l.open[c] = struct{}{}
	return &trackedConn{Conn: c, l: l}, nil
}

func (l *socketListener) closeAll() {
	_ = l.Listener.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for c := range l.open {
		_ = c.Close()
	}
	clear(l.open)
}

// trackedConn forgets itself when closed, so long runs do not pile up
// closed sockets.
type trackedConn struct {
	net.Conn
	l    *socketListener
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.open, c.Conn)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
