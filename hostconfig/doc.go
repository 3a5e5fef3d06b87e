// Package hostconfig reads edgegrid's configuration from the container
// environment. The variable names are those of Microsoft's retired
// "Azure Event Grid on IoT Edge" module (edge-spec §5.1). A few additions of
// this project are marked as such on their fields. The IOTEDGE_* variables
// that IoT Edge's edgeAgent sets for every module are read as well.
//
// # Spellings
//
// Deployment manifests spell one setting several ways:
// broker__defaultMaxDeliveryAttempts, broker:defaultMaxDeliveryAttempts,
// inbound__clientAuth:clientCert__enabled, metrics:reportertype in any case,
// and, in one document, brokers__defaultMaxDeliveryAttempts. Load accepts all
// of them. It canonicalises every key: ":" becomes "__", letters are
// upper-cased, and a BROKERS__ prefix becomes BROKER__. When several spellings
// name one setting, the one with the highest precedence wins:
//
//  1. the canonical upper-case spelling itself;
//  2. a "__" spelling (the documented spelling first, then others in byte
//     order);
//  3. a ":" spelling;
//  4. the brokers__ alias.
//
// If the competing entries carry different values, Load records a warning
// that names the keys, never the values, because values may be secrets. A
// variable set to the empty string (or only blanks) counts as unset, so its
// default applies. Surrounding blanks are trimmed from every value.
//
// # The envconfig bridge
//
// Values are decoded by github.com/kelseyhightower/envconfig v1.4.0. That
// library upper-cases every name and reads the process environment with
// os.LookupEnv, and Linux environment names are case-sensitive, so on its own
// it would never see broker__defaultMaxDeliveryAttempts. Load bridges this,
// and it is the only code in edgegrid that does. Under a package mutex it
// does three things:
//
//   - For every variable Config declares, it sets the canonical upper-case
//     name in the process environment to the value resolved from the environ
//     slice it was given, or unsets the name when that slice has no value.
//   - It runs envconfig.Process.
//   - It restores every name it touched exactly as it was.
//
// Only those canonical names are touched, and only during the call. A
// goroutine reading them concurrently with Load could see the temporary
// values; nothing outside this package has reason to read them. The result
// depends on the environ argument alone, never on the process environment, so
// tests can pass their own slices.
//
// # Errors and warnings
//
// Load reports every invalid variable in a single *Error. The problems are
// sorted by variable name, and the error text starts with "invalid config:".
// Each problem names the variable as documented and, when it differs, as the
// user spelled it:
//
//	invalid config: broker__defaultMaxDeliveryAttempts="abc" (set as brokers__defaultMaxDeliveryAttempts): not a whole number
//
// Secret values (the SAS keys) never appear in errors, warnings or Summary.
// Problems that do not stop the module land in Config.Warnings for main to
// log: conflicting spellings, unknown variables that carry one of our
// prefixes (likely typos), and settings that have no effect.
//
// # Modes
//
// When IOTEDGE_WORKLOADURI is set, the module runs under IoT Edge
// (ModeEdge), and the IoT Edge variables it needs must all be present.
// Otherwise it runs standalone (ModeStandalone). For resource ids, the
// standalone module then calls itself module "eventgridmodule" on device
// "local" of hub "local".
package hostconfig
