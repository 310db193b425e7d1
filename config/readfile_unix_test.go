//go:build !windows

package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestReadRegularFile: planted files are refused at once — a FIFO without
// waiting for a writer, /dev/zero, a 64 GB sparse file, a directory — and
// a symbolic link when we would write back; a regular file under the cap
// is read.
func TestReadRegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(plain, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 30); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(plain, link); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		path   string
		follow bool
		want   error
	}{
		{"regular", plain, false, nil},
		{"link followed", link, true, nil},
		{"link refused", link, false, ErrSymlink},
		{"fifo", fifo, true, ErrNotRegular},
		{"dev zero", zero, true, ErrNotRegular},
		{"sparse 64 GB", sparse, true, ErrTooBig},
		{"directory", dir, true, ErrNotRegular},
		{"missing", filepath.Join(dir, "none"), true, fs.ErrNotExist},
	} {
		b, err := ReadRegularFile(tc.path, 1<<20, tc.follow)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if tc.want == nil && string(b) != `{"a":1}` {
			t.Errorf("%s: read %q", tc.name, b)
		}
	}
	if _, err := ReadRegularFile(plain, 3, false); !errors.Is(err, ErrTooBig) {
		t.Errorf("over the cap: %v", err)
	}
}

// TestDataDirFilesPlantedAsFIFOs: a FIFO planted as config.json or
// server.json is refused at once (ErrNotRegular) rather than hanging the
// start or every client's dial.
func TestDataDirFilesPlantedAsFIFOs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{FileName, ServerInfoFile} {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		// A failed run leaves a read blocked: give it its writer.
		t.Cleanup(func() {
			if f, err := os.OpenFile(p, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
				_ = f.Close()
			}
		})
	}
	done := make(chan [2]error, 1)
	go func() {
		_, _, lerr := Load(dir)
		_, serr := ReadServerInfo(dir)
		done <- [2]error{lerr, serr}
	}()
	select {
	case errs := <-done:
		for i, err := range errs {
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("read %d: %v, want %v", i, err, ErrNotRegular)
			}
		}
	case <-time.After(testkit.Slow(10 * time.Second)):
		t.Fatal("a FIFO in the data directory blocked a read")
	}
}

// TestServeKeyPlantedAsAFIFO: a FIFO (mode 0600, so the private-file
// check passes) planted as the served mode's host key is refused at once
// rather than hanging `pullcept server` and every attach (breaker review
// of issue 32).
func TestServeKeyPlantedAsAFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, HostKeyFile)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(p, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close()
		}
	})
	done := make(chan error, 1)
	go func() {
		_, _, err := LoadServeKeys(dir)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%v, want %v", err, ErrNotRegular)
		}
	case <-time.After(testkit.Slow(5 * time.Second)):
		t.Fatal("LoadServeKeys blocked on a FIFO")
	}
}
