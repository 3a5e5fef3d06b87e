package mqttingest

// Resync and ErrResync let the external tests force a resync.
func (in *Ingest) Resync() { in.resync() }

var ErrResync = errResync
