package hostconfig

// validateKeyPair records a problem when only one of a certificate file and
// its key file is set: the pair is used together or not at all.
func validateKeyPair(certName, cert, keyName, key string) []Problem {
	switch {
	case cert != "" && key == "":
		return []Problem{{Name: keyName, Reason: "missing; " + certName + " is set, and a certificate needs its private key"}}
	case cert == "" && key != "":
		return []Problem{{Name: certName, Reason: "missing; " + keyName + " is set, and a private key needs its certificate"}}
	}
	return nil
}

// validateCertFiles checks the certificate file pairs of both directions.
func validateCertFiles(in Inbound, out Outbound) []Problem {
	var p problems
	p.add(validateKeyPair("inbound__serverAuth__serverCert__certFile", in.ServerCertFile,
		"inbound__serverAuth__serverCert__keyFile", in.ServerKeyFile))
	p.add(validateKeyPair("outbound__clientAuth__clientCert__certFile", out.ClientCertFile,
		"outbound__clientAuth__clientCert__keyFile", out.ClientKeyFile))
	return p
}

// lintSecurity warns about security settings that are accepted but have no
// effect, or that make every request fail.
func (c *Config) lintSecurity() []string {
	var out []string
	in, ob := c.Inbound, c.Outbound
	if in.ClientCertEnabled && in.ServeHTTP() && !in.SASKeysEnabled {
		out = append(out, "inbound__clientAuth__clientCert__enabled is true, but plain HTTP carries no client certificate: API calls over HTTP are refused with 401 (set it to false, as the tutorials that use port 5888 do, or enable SAS keys)")
	}
	if c.Mode() == ModeEdge {
		if in.ServerCertFile != "" {
			out = append(out, "inbound__serverAuth__serverCert__certFile/keyFile are ignored in IoT Edge mode; the server certificate comes from the IoT Edge workload API")
		}
		if ob.ClientCertFile != "" {
			out = append(out, "outbound__clientAuth__clientCert__certFile/keyFile are ignored in IoT Edge mode; the identity certificate comes from the IoT Edge workload API")
		}
		return out
	}
	if !ob.ClientCertEnabled && ob.ClientCertFile != "" {
		out = append(out, "outbound__clientAuth__clientCert__certFile/keyFile are set but outbound__clientAuth__clientCert__enabled is false; no certificate is presented")
	}
	if in.ClientCertEnabled && !in.ClientCertAllowUnknownCA && in.ServeHTTPS() {
		out = append(out, "inbound__clientAuth__clientCert__allowUnknownCA is false outside IoT Edge, where there is no trust bundle: every client certificate is refused (use SAS keys, or allowUnknownCA=true)")
	}
	return out
}
