package testenv

import (
	"bytes"
	"crypto/hmac"
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// edgeHubHook makes mochi behave as edgeHub toward one module.
type edgeHubHook struct {
	mqtt.HookBase
	h *EdgeHub
}

func (k *edgeHubHook) ID() string { return "edgehub-double" }

func (k *edgeHubHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnSubscribe,
		mqtt.OnPacketRead, mqtt.OnPublished}, []byte{b})
}

// OnConnectAuthenticate checks what edgeHub checks: the client id is
// {device}/{module}; the username is {hub}/{device}/{module}/?api-version=…;
// the password is a SAS token for the module, not expired, signed with the
// module key over the url-encoded resource as sent, a newline and the expiry.
func (k *edgeHubHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	h := k.h
	c := EdgeHubConnect{ClientID: cl.ID, Username: string(pk.Connect.Username), Password: string(pk.Connect.Password)}
	h.mu.Lock()
	now := h.now()
	h.mu.Unlock()
	err := h.checkIdentity(c.ClientID, c.Username)
	if err == nil {
		c.Expiry, err = h.checkSAS(c.Password, now)
	}
	if err != nil {
		c.Refused = err.Error()
	}
	h.mu.Lock()
	h.connects = append(h.connects, c)
	h.mu.Unlock()
	return err == nil
}

func (h *EdgeHub) checkIdentity(clientID, username string) error {
	id := h.WL.Device + "/" + h.WL.ModuleID
	if clientID != id {
		return errors.New("client id " + clientID + " is not " + id)
	}
	parts := strings.Split(username, "/")
	if len(parts) != 4 || parts[1] != h.WL.Device || parts[2] != h.WL.ModuleID || !strings.HasPrefix(parts[3], "?") {
		return errors.New("username " + username + " is not {hub}/{device}/{module}/?{query}")
	}
	q, err := url.ParseQuery(parts[3][1:])
	if err != nil || q.Get("api-version") == "" {
		return errors.New("username has no api-version")
	}
	return nil
}

// checkSAS verifies "SharedAccessSignature sr=…&sig=…&se=…" and returns its expiry.
func (h *EdgeHub) checkSAS(password string, now time.Time) (time.Time, error) {
	rest, ok := strings.CutPrefix(password, "SharedAccessSignature ")
	if !ok {
		return time.Time{}, errors.New("password is not a SharedAccessSignature")
	}
	f := map[string]string{}
	for _, part := range strings.Split(rest, "&") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return time.Time{}, errors.New("malformed token field " + part)
		}
		f[k] = v
	}
	secs, err := strconv.ParseInt(f["se"], 10, 64)
	if err != nil {
		return time.Time{}, errors.New("token has no valid se")
	}
	exp := time.Unix(secs, 0)
	resource, err := url.QueryUnescape(f["sr"])
	want := "/devices/" + h.WL.Device + "/modules/" + h.WL.ModuleID
	hub := h.WL.Hub + ".azure-devices.net"
	if err != nil || !(strings.EqualFold(resource, hub+want) || strings.EqualFold(resource, "localhost"+want)) {
		return exp, errors.New("token audience " + resource + " is not this module")
	}
	sig, err := url.QueryUnescape(f["sig"])
	if err != nil {
		return exp, errors.New("token signature does not decode")
	}
	mac, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(mac, h.WL.Sign([]byte(f["sr"]+"\n"+f["se"]))) {
		return exp, errors.New("token signature does not match the module key")
	}
	if !exp.After(now) {
		return exp, errors.New("token expired at " + exp.UTC().Format(time.RFC3339))
	}
	return exp, nil
}

// OnACLCheck allows publishes only to the module's events (outputs) and the
// twin request topics, and deliveries only of the module's inputs and twin
// answers. A refused QoS 1 publish disconnects the client, as edgeHub does.
func (k *edgeHubHook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	h := k.h
	events := h.base() + "messages/events"
	ok := topic == h.base()+"#" || hasAnyPrefix(topic, h.base()+"inputs/", "$iothub/twin/res/", "$iothub/twin/PATCH/properties/desired/", "$iothub/methods/POST/")
	if write {
		ok = topic == events || topic == events+"/" || strings.HasPrefix(topic, events+"/") ||
			hasAnyPrefix(topic, "$iothub/twin/GET/?$rid=", "$iothub/twin/PATCH/properties/reported/?$rid=")
	}
	if !ok && !cl.Net.Inline {
		h.deny(map[bool]string{true: "publish ", false: "deliver "}[write] + topic)
	}
	return ok
}

// OnSubscribe refuses the filters edgeHub does not recognise (its
// SessionStateParser): module messages only as {...}/modules/{m}/# or
// {...}/inputs/#, and the twin and method topics. A refused filter is
// made invalid so the SUBACK reports failure (0x80).
func (k *edgeHubHook) OnSubscribe(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	h := k.h
	allowed := map[string]bool{h.base() + "#": true, h.base() + "inputs/#": true, "$iothub/twin/res/#": true,
		"$iothub/twin/PATCH/properties/desired/#": true, "$iothub/methods/POST/#": true}
	for i, f := range pk.Filters {
		if !allowed[f.Filter] && !cl.Net.Inline {
			h.deny("subscribe " + f.Filter)
			pk.Filters[i].Filter = "#/refused"
		}
	}
	return pk
}

// OnPacketRead counts the module's PUBACKs: only inputs are sent with QoS 1.
func (k *edgeHubHook) OnPacketRead(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if pk.FixedHeader.Type == packets.Puback {
		k.h.mu.Lock()
		k.h.acked++
		k.h.mu.Unlock()
		select {
		case k.h.ackCh <- struct{}{}:
		default:
		}
	}
	return pk, nil
}

// OnPublished records outputs and answers twin requests.
func (k *edgeHubHook) OnPublished(cl *mqtt.Client, pk packets.Packet) {
	h := k.h
	if cl.Net.Inline {
		return
	}
	if rest, ok := strings.CutPrefix(pk.TopicName, h.base()+"messages/events"); ok {
		out := EdgeHubOutput{Topic: pk.TopicName, Properties: parseBag(strings.Trim(rest, "/")), Payload: bytes.Clone(pk.Payload)}
		h.mu.Lock()
		h.outputs = append(h.outputs, out)
		h.mu.Unlock()
		return
	}
	h.twinRequest(pk.TopicName, pk.Payload)
}

func parseBag(bag string) map[string]string {
	props := map[string]string{}
	for _, part := range strings.Split(bag, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		kk, _ := url.PathUnescape(k)
		vv, _ := url.PathUnescape(v)
		props[kk] = vv
	}
	return props
}
