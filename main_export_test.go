package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestExportSubcommand: `pullcept export` is a subcommand and --help says so.
func TestExportSubcommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "pullcept export TOPIC") {
		t.Fatalf("--help: exit %d:\n%s", code, out.String())
	}
	out.Reset()
	if code := run([]string{"export", "nothing", "--data", t.TempDir()}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), `pullcept export: no topic "nothing"`) {
		t.Fatalf("export: exit %d: %q", code, errb.String())
	}
}
