package main

import (
	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/destination/eventgrid"
	"github.com/edgegrid/edgegrid/hostconfig"
)

// cloudFactory builds the EventGrid destination with the module's one Entra
// ID credential, when one is configured. The credential is built here, at
// start, so a bad certificate file or token file stops the module with a
// message naming the variable; tokens are requested at the first delivery.
func cloudFactory(cfg *hostconfig.Config, log zerolog.Logger) (*eventgrid.Factory, error) {
	opts := eventgrid.Options{
		HTTPSOnly:             cfg.Outbound.EventGridHTTPSOnly,
		AllowInvalidHostnames: cfg.Outbound.EventGridAllowInvalidHostnames,
		Logger:                log,
		UserAgent:             "edgegrid/" + version,
	}
	kind := cfg.EntraCredential()
	if kind == hostconfig.EntraNone {
		log.Info().Msg("no Entra ID credential: EventGrid subscriptions authenticate with their sasKey")
		return eventgrid.NewFactory(opts, nil), nil
	}
	cc := credentialConfig(cfg, kind)
	cred, err := eventgrid.NewCredential(cc)
	if err != nil {
		return nil, err
	}
	opts.Credential, opts.CredentialName = cred, cc.Describe()
	log.Info().Str("credential", cc.Describe()).Msg("EventGrid subscriptions without a sasKey authenticate with Entra ID")
	return eventgrid.NewFactory(opts, nil), nil
}

func credentialConfig(cfg *hostconfig.Config, kind hostconfig.EntraCredential) eventgrid.CredentialConfig {
	az := cfg.Azure
	return eventgrid.CredentialConfig{
		Kind:     eventgrid.CredentialKind(kind),
		TenantID: az.TenantID, ClientID: az.ClientID, ClientSecret: az.ClientSecret,
		CertificatePath: az.ClientCertificatePath, CertificatePassword: az.ClientCertificatePassword,
		SendCertificateChain: az.SendCertificateChain, FederatedTokenFile: az.FederatedTokenFile,
		AuthorityHost:            az.AuthorityHost,
		DisableInstanceDiscovery: cfg.Outbound.EventGridDisableInstanceDiscovery,
	}
}
