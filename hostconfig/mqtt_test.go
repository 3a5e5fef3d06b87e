package hostconfig_test

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgegrid/edgegrid/internal/testenv"
)

func TestMQTTFromEnvironment(t *testing.T) {
	cfg := mustLoad(t, "mqtt__url=tcp://broker", "MQTT:ROUTES=sensors/+/t=telemetry;a/#=alarms:raw:X",
		"Mqtt__ClientId=gw-1", "mqtt:username=u", "mqtt__password=p", "mqtt__maxMessageSizeInBytes=2048")
	m := cfg.MQTT
	if !m.Enabled() || m.UsesTLS() || m.BrokerURL() != "tcp://broker:1883" {
		t.Errorf("Enabled %v, UsesTLS %v, BrokerURL %q", m.Enabled(), m.UsesTLS(), m.BrokerURL())
	}
	want := "sensors/+/t=telemetry;a/#=alarms:raw:X"
	if m.Routes.String() != want || len(m.Routes) != 2 || !m.Routes[1].Raw() || m.Routes[0].Raw() {
		t.Errorf("Routes = %+v", m.Routes)
	}
	if cfg.MQTTClientID() != "gw-1" || m.Username != "u" || m.Password != "p" || m.MaxMessageSizeInBytes != 2048 {
		t.Errorf("MQTT = %+v", m)
	}
	if s := cfg.Summary(); s["mqtt__password"] != "***" || s["mqtt__routes"] != want {
		t.Errorf("Summary: password %q, routes %q", s["mqtt__password"], s["mqtt__routes"])
	}
	if off := mustLoad(t); off.MQTT.Enabled() || off.MQTT.BrokerURL() != "" || off.MQTT.MaxMessageSizeInBytes != 1<<20 {
		t.Errorf("defaults: %+v", off.MQTT)
	}
}

func TestMQTTBrokerURL(t *testing.T) {
	cases := map[string]string{
		"tcp://localhost:1883": "tcp://localhost:1883",
		"TCP://localhost":      "tcp://localhost:1883",
		"mqtt://10.0.0.1":      "tcp://10.0.0.1:1883",
		"ssl://broker":         "ssl://broker:8883",
		"tls://broker:8884/":   "ssl://broker:8884",
		"mqtts://[::1]":        "ssl://[::1]:8883",
	}
	for in, want := range cases {
		cfg := mustLoad(t, "mqtt__url="+in)
		if got := cfg.MQTT.BrokerURL(); got != want {
			t.Errorf("mqtt__url=%s: BrokerURL %q, want %q", in, got, want)
		}
	}
}

func TestMQTTClientIDDerived(t *testing.T) {
	if id := mustLoad(t, "mqtt__url=tcp://b").MQTTClientID(); id != "edgegrid" {
		t.Errorf("standalone: %q", id)
	}
	edge := []string{"mqtt__url=tcp://b", "IOTEDGE_WORKLOADURI=unix:///var/run/iotedge/workload.sock", "IOTEDGE_MODULEID=eventgridmodule",
		"IOTEDGE_DEVICEID=gw1", "IOTEDGE_IOTHUBHOSTNAME=hub.azure-devices.net", "IOTEDGE_MODULEGENERATIONID=g"}
	if id := mustLoad(t, edge...).MQTTClientID(); id != "edgegrid-gw1-eventgridmodule" {
		t.Errorf("edge: %q", id)
	}
}

func TestMQTTInvalidSettings(t *testing.T) {
	cases := map[string]struct {
		env  []string
		name string
		want string
	}{
		"bad scheme":         {[]string{"mqtt__url=http://b"}, "mqtt__url", "scheme must be tcp, mqtt, ssl, tls or mqtts"},
		"credentials in url": {[]string{"mqtt__url=tcp://u:p@b"}, "mqtt__url", "must not contain credentials"},
		"no host":            {[]string{"mqtt__url=tcp://:1883"}, "mqtt__url", "no host"},
		"path":               {[]string{"mqtt__url=tcp://b/x"}, "mqtt__url", "path"},
		"port 0":             {[]string{"mqtt__url=tcp://b:0"}, "mqtt__url", "port must be between 1 and 65535"},
		"bare host":          {[]string{"mqtt__url=broker:1883"}, "mqtt__url", "scheme"},
		"routes":             {[]string{"mqtt__url=tcp://b", "mqtt__routes=a/#/b=t"}, "mqtt__routes", "'#' must be the last level"},
		"message size":       {[]string{"mqtt__maxMessageSizeInBytes=10"}, "mqtt__maxMessageSizeInBytes", "must be between 1024 and 268435455"},
		"client id":          {[]string{"mqtt__clientId=a\x01b"}, "mqtt__clientId", "control character"},
		"long client id":     {[]string{"mqtt__clientId=" + strings.Repeat("c", 257)}, "mqtt__clientId", "longer than 256"},
		"password alone":     {[]string{"mqtt__url=tcp://b", "mqtt__password=p"}, "mqtt__username", "mqtt__password is set"},
		"cert without key":   {[]string{"mqtt__url=ssl://b", "mqtt__certFile=/c"}, "mqtt__certFile, mqtt__keyFile", "set both or neither"},
		"tls file on tcp":    {[]string{"mqtt__url=tcp://b", "mqtt__caFile=/ca.pem"}, "mqtt__caFile", "applies only to MQTT over TLS"},
		"missing ca file":    {[]string{"mqtt__url=ssl://b", "mqtt__caFile=/nonexistent/ca.pem"}, "mqtt__caFile", "cannot be read"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := loadErr(t, tc.env...)
			for _, p := range e.Problems {
				if p.Name == tc.name && strings.Contains(p.Reason, tc.want) {
					return
				}
			}
			t.Errorf("Load(%q) = %v\nwant a problem for %s saying %q", tc.env, e, tc.name, tc.want)
		})
	}
}

func TestMQTTWarningWithoutURL(t *testing.T) {
	cfg := mustLoad(t, "mqtt__routes=a=t", "mqtt__password=secret-value", "mqtt__username=u")
	if !warningsMention(cfg.Warnings, "mqtt__routes", "mqtt__password", "mqtt__url is not") {
		t.Errorf("warnings %q", cfg.Warnings)
	}
	if strings.Contains(strings.Join(cfg.Warnings, " "), "secret-value") {
		t.Errorf("a warning shows the password: %q", cfg.Warnings)
	}
}

func TestTLSConfig(t *testing.T) {
	ca := testenv.NewCA(t, "mqtt-ca")
	_, certPEM, keyPEM := ca.Issue(t, testenv.LeafOptions{CommonName: "edgegrid", Client: true})
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	caFile, certFile, keyFile := write("ca.pem", ca.CertPEM), write("c.pem", certPEM), write("k.pem", keyPEM)
	cfg := mustLoad(t, "mqtt__url=ssl://broker.local", "mqtt__caFile="+caFile, "mqtt__certFile="+certFile, "mqtt__keyFile="+keyFile)
	tc, err := cfg.MQTT.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	if tc.ServerName != "broker.local" || len(tc.Certificates) != 1 || tc.RootCAs == nil {
		t.Fatalf("TLS config %+v", tc)
	}
	if _, err := ca.Cert.Verify(x509.VerifyOptions{Roots: tc.RootCAs}); err != nil {
		t.Errorf("RootCAs do not trust the CA: %v", err)
	}
	if plain, err := mustLoad(t, "mqtt__url=tcp://b").MQTT.TLSConfig(); plain != nil || err != nil {
		t.Errorf("tcp:// gives %v, %v; want nil, nil", plain, err)
	}
	e := loadErr(t, "mqtt__url=ssl://b", "mqtt__caFile="+keyFile, "mqtt__certFile="+caFile, "mqtt__keyFile="+keyFile)
	if got := problemNames(e); len(got) != 2 || got[0] != "mqtt__caFile" || got[1] != "mqtt__certFile, mqtt__keyFile" {
		t.Errorf("problems %v", e)
	}
}
