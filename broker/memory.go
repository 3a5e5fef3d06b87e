package broker

import "sync/atomic"

// memory accounts the bytes of buffered events against a cap.
type memory struct {
	limit int64
	used  atomic.Int64
}

// reserve takes n bytes if they fit under the limit, all or nothing.
func (m *memory) reserve(n int64) bool {
	for {
		cur := m.used.Load()
		if cur+n > m.limit {
			return false
		}
		if m.used.CompareAndSwap(cur, cur+n) {
			return true
		}
	}
}

func (m *memory) release(n int64) { m.used.Add(-n) }
