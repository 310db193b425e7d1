package terminal

import (
	"testing"
)

// FuzzSnapshotMatchesRender: whatever the writes, resizes and Snapshots
// in between, a Snapshot's lines are the rows rendered afresh (the rows it
// keeps from the last one are not stale).
func FuzzSnapshotMatchesRender(f *testing.F) {
	for _, s := range []string{
		"abc\r\n\x1b[2;3rxy\x1bM\x1b[?1049hzz\x1b[?1049l", "日本\x1b[3;1H\x1b[2J\x1b[?69h\x1b[2;4sabcdef",
		"\x1b[31mred\x1b]8;;https://a.b\x07l\x1b]8;;\x07\x1b[4hxy\x1b[2@\x1b[P", "e\u0301\u0302\x1b[5b\x1b#8\x1bc",
	} {
		f.Add([]byte(s), []byte{3, 5, 7, 2}, []byte{1, 2, 0, 9})
	}
	f.Fuzz(func(t *testing.T, data, cuts, ops []byte) {
		s, err := newScreenLines(8, 4, 5, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = s.Close() }()
		for i, c := range cuts {
			n := int(c) % (len(data) + 1)
			_, _ = s.Write(data[:n])
			data = data[n:]
			if i < len(ops) {
				switch op := ops[i]; op % 4 {
				case 0, 1:
					s.Snapshot()
				case 2:
					_ = s.Resize(1+int(op>>2)%12, 1+int(op>>5)%6)
				case 3:
					s.Flush()
				}
			}
		}
		_, _ = s.Write(data)
		s.Flush()
		snap := s.Snapshot()
		s.mu.Lock()
		defer s.mu.Unlock()
		for y, got := range snap.Lines {
			if want := string(s.emu.RenderRow(y, nil)); got != want {
				t.Fatalf("row %d: snapshot %q, rendered afresh %q", y, got, want)
			}
		}
	})
}
