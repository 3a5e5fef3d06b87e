package hostconfig

import (
	"net/url"
	"strings"
)

// entraRequired lists, per credential, the variables it cannot do without.
func entraRequired(kind EntraCredential, az Azure) []struct{ name, value string } {
	type v = struct{ name, value string }
	switch kind {
	case EntraSecret:
		return []v{{"AZURE_TENANT_ID", az.TenantID}, {"AZURE_CLIENT_ID", az.ClientID}, {"AZURE_CLIENT_SECRET", az.ClientSecret}}
	case EntraCertificate:
		return []v{{"AZURE_TENANT_ID", az.TenantID}, {"AZURE_CLIENT_ID", az.ClientID}, {"AZURE_CLIENT_CERTIFICATE_PATH", az.ClientCertificatePath}}
	case EntraWorkloadIdentity:
		return []v{{"AZURE_TENANT_ID", az.TenantID}, {"AZURE_CLIENT_ID", az.ClientID}, {"AZURE_FEDERATED_TOKEN_FILE", az.FederatedTokenFile}}
	}
	return nil // managed identity: the host provides everything; none: nothing
}

// validateEntra checks that the chosen Entra ID credential has its
// variables, and the authority host.
func validateEntra(out Outbound, az Azure) []Problem {
	var p problems
	checkEnum(&p, "outbound__eventgrid__credential", out.EventGridCredential, entraCredentials)
	kind, why := entraChoice(out.EventGridCredential, az)
	var missing, all []string
	for _, r := range entraRequired(kind, az) {
		all = append(all, r.name)
		if r.value == "" {
			missing = append(missing, r.name)
		}
	}
	if len(missing) > 0 {
		p = append(p, Problem{Name: strings.Join(missing, ", "),
			Reason: "missing; " + why + " which needs " + strings.Join(all, ", ")})
	}
	if az.AuthorityHost != "" && !validAuthority(az.AuthorityHost) {
		p = append(p, Problem{Name: "AZURE_AUTHORITY_HOST", Value: az.AuthorityHost,
			Reason: "must be an https:// URL such as https://login.microsoftonline.com/"})
	}
	return p
}

func validAuthority(s string) bool {
	u, err := url.Parse(s)
	return err == nil && strings.EqualFold(u.Scheme, "https") && u.Host != "" && u.RawQuery == "" && u.Fragment == ""
}

// lintEntra warns about credential variables that are set but not used.
func lintEntra(out Outbound, az Azure) []string {
	kind, _ := entraChoice(out.EventGridCredential, az)
	var ignored []string
	for _, o := range autoOrder {
		if o.kind != kind && o.get(az) != "" {
			ignored = append(ignored, o.name)
		}
	}
	if len(ignored) == 0 {
		return nil
	}
	if kind == EntraNone {
		return []string{strings.Join(ignored, ", ") + " ignored: outbound__eventgrid__credential=none turns Entra ID off"}
	}
	return []string{strings.Join(ignored, ", ") + " ignored: EventGrid deliveries use the Entra ID credential " +
		string(kind) + " (outbound__eventgrid__credential picks one; auto prefers secret, certificate, workloadIdentity, managedIdentity in that order)"}
}
