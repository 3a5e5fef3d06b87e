// Command edgegrid is the Event Grid on IoT Edge replacement module.
//
//	edgegrid              run the module (configuration from the environment)
//	edgegrid healthcheck  exit 0 if the local API answers /api/health, else 1
//	edgegrid version      print the version
//	edgegrid help         print the environment variables
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Environ(), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "edgegrid:", err)
	}
	os.Exit(code)
}
