package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"

	"github.com/edgegrid/edgegrid/hostconfig"
)

// run executes a command line; it returns the exit code. Being a function of
// its inputs, it can be called from tests.
func run(ctx context.Context, args, environ []string, stdout io.Writer) (int, error) {
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "":
	case "version", "--version":
		fmt.Fprintln(stdout, "edgegrid", version)
		return 0, nil
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, "edgegrid: Event Grid on IoT Edge replacement. Configuration comes from these environment variables:")
		return 0, hostconfig.Usage(stdout)
	case "healthcheck":
		return healthcheck(ctx, environ, stdout)
	default:
		return 2, fmt.Errorf("unknown command %q (want: healthcheck, version, help)", cmd)
	}
	cfg, err := hostconfig.Load(environ)
	if err != nil {
		return 1, err
	}
	log := newLogger(stdout, cfg.LogLevel())
	if err := serve(ctx, cfg, log); err != nil {
		log.Error().Err(err).Msg("edgegrid stopped with an error")
		return 1, err
	}
	return 0, nil
}

func newLogger(w io.Writer, level string) zerolog.Logger {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil {
		lvl = zerolog.InfoLevel
	}
	zerolog.TimeFieldFormat = time.RFC3339Nano
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}
