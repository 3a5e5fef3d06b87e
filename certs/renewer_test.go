package certs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edgegrid/edgegrid/certs"
	"github.com/edgegrid/edgegrid/workload"
)

func TestRenewsBeforeExpiry(t *testing.T) {
	f := newFixture(t, 24*time.Hour)
	if err := f.r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := f.serial(t)
	if cn := f.r.Current().Leaf.Subject.CommonName; cn != "gw.local" {
		t.Fatalf("common name %q", cn)
	}
	f.clock.Advance(19 * time.Hour) // 80 % of 24 h is 19 h 12 min
	if f.serial(t) != first || f.wl.Issued() != 1 {
		t.Fatal("renewed before 80 % of the lifetime")
	}
	f.clock.Advance(13 * time.Minute)
	second := f.serial(t)
	if second == first || f.wl.Issued() != 2 || f.renewals != 1 {
		t.Fatalf("not renewed at 80 %%: issued %d, OnRenew %d", f.wl.Issued(), f.renewals)
	}
	f.clock.Advance(20 * time.Hour) // the new certificate's 80 % lies 19 h 12 min after its issue
	if f.serial(t) == second || f.wl.Issued() != 3 {
		t.Fatal("the renewed certificate was not renewed in turn")
	}
	if n := len(f.log.lines("info")); n != 3 {
		t.Fatalf("%d info lines, want one per certificate", n)
	}
}

func TestFailedRenewalKeepsCertificateAndRetries(t *testing.T) {
	f := newFixture(t, 10*time.Hour)
	if err := f.r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := f.serial(t)
	f.wl.FailNext(403, 403, 403) // not retried by the workload client
	f.clock.Advance(8 * time.Hour)
	if f.serial(t) != first {
		t.Fatal("certificate changed although renewal failed")
	}
	f.clock.Advance(5 * time.Second) // second attempt
	f.clock.Advance(10 * time.Second)
	if f.serial(t) != first || len(f.log.lines("warn")) != 3 {
		t.Fatalf("after three failures: %d warnings", len(f.log.lines("warn")))
	}
	f.clock.Advance(20 * time.Second) // the fourth attempt succeeds
	if f.serial(t) == first {
		t.Fatal("not renewed once the workload API answered again")
	}
	if len(f.log.lines("error")) != 0 {
		t.Fatal("error logged although the certificate never expired")
	}
	f.wl.FailNext(403)
	f.clock.Advance(8 * time.Hour)
	if w := f.log.lines("warn"); len(w) != 4 || w[3]["attempt"] != float64(1) {
		t.Fatalf("back-off did not restart after success: %v", w)
	}
}

func TestExpiredCertificateIsReportedOnce(t *testing.T) {
	f := newFixture(t, 4*time.Second)
	if err := f.r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := f.serial(t)
	f.wl.FailNext(403, 403, 403)
	f.clock.Advance(2 * time.Second) // renewal at half the lifetime fails; retry in 5 s, after expiry
	if len(f.log.lines("error")) != 0 {
		t.Fatal("error before expiry")
	}
	f.clock.Advance(5 * time.Second)  // expired: error
	f.clock.Advance(10 * time.Second) // still failing: warning
	errs, warns := f.log.lines("error"), f.log.lines("warn")
	if len(errs) != 1 || len(warns) != 2 || f.serial(t) != first {
		t.Fatalf("%d errors, %d warnings; want 1 error after expiry, warnings otherwise", len(errs), len(warns))
	}
	f.clock.Advance(40 * time.Second)
	if f.serial(t) == first {
		t.Fatal("not renewed after the workload API recovered")
	}
}

func TestStopEndsRenewal(t *testing.T) {
	f := newFixture(t, time.Hour)
	if err := f.r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.r.Stop()
	f.r.Stop() // idempotent
	if f.clock.Pending() != 0 {
		t.Fatal("a renewal is still scheduled after Stop")
	}
	f.clock.Advance(2 * time.Hour)
	if f.wl.Issued() != 1 || f.r.Current() == nil {
		t.Fatalf("issued %d after Stop; the current certificate must stay", f.wl.Issued())
	}
}

func TestStartFailsWithoutCertificate(t *testing.T) {
	f := newFixture(t, time.Hour)
	f.wl.FailNext(403)
	err := f.r.Start(context.Background())
	var se *workload.StatusError
	if !errors.As(err, &se) || se.Status != 403 {
		t.Fatalf("Start: %v", err)
	}
	if _, err := f.r.GetCertificate(nil); err == nil {
		t.Fatal("GetCertificate served something before a certificate was obtained")
	}
	if c, _ := f.r.GetClientCertificate(nil); c == nil || len(c.Certificate) != 0 {
		t.Fatal("GetClientCertificate must present an empty certificate when it has none")
	}
}

func TestNewRenewerValidates(t *testing.T) {
	if _, err := certs.NewRenewer(certs.RenewerOptions{}); err == nil {
		t.Fatal("accepted options without Issue")
	}
}
