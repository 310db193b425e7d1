package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestVersionAndHelp: --version and --help print once on stdout and exit
// 0; an unknown command exits 2 with the usage on stderr.
func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "pullcept ") {
		t.Fatalf("--version: code %d out %q err %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "pullcept sidecar") {
		t.Fatalf("--help: code %d out %q", code, out.String())
	}
	errb.Reset()
	if code := run([]string{"bogus"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "unknown command") {
		t.Fatalf("bogus: code %d err %q", code, errb.String())
	}
}
