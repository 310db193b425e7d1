package tui

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// attachFake is fakeBackend's Attachments: files and folders it knows, and
// the saves and opens the UI asked for. Paths use '/' on every OS.
type attachFake struct {
	dir     string                    // AttachmentsDir
	files   map[string]AttachmentFile // picked files by path
	refuse  map[string]error          // CheckAttachment / SaveAttachment refusals by path
	dirs    map[string][]DirEntry     // ListDir answers by folder
	lists   []string                  // ListDir calls
	checks  []string                  // CheckAttachment calls
	drops   []string                  // DroppedFiles calls
	saves   []string                  // "topic|path"
	opened  []string                  // OpenAttachment calls
	openErr error
	nSaved  int
}

// addFile makes a file the fake can attach, of size bytes.
func (f *fakeBackend) addFile(p string, size int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.att.files == nil {
		f.att.files = map[string]AttachmentFile{}
	}
	f.att.files[p] = AttachmentFile{Path: p, Name: path.Base(p), Size: size}
}

func (f *fakeBackend) AttachmentsDir() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.att.dir == "" {
		return nativeAbs("/data/logs/main/attachments")
	}
	return f.att.dir
}

// nativeAbs is the absolute path p on this OS: as written, or on Windows
// on drive C: with its separators.
func nativeAbs(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return p
}

func (f *fakeBackend) ListDir(dir string) ([]DirEntry, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.att.lists = append(f.att.lists, dir)
	des, ok := f.att.dirs[dir]
	if !ok {
		return nil, false, fmt.Errorf("list %s: no such folder", dir)
	}
	return des, false, nil
}

func (f *fakeBackend) CheckAttachment(p string) (AttachmentFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.att.checks = append(f.att.checks, p)
	p = strings.TrimSpace(p)
	if err := f.att.refuse[p]; err != nil {
		return AttachmentFile{}, err
	}
	if file, ok := f.att.files[p]; ok {
		return file, nil
	}
	return AttachmentFile{}, &AttachmentError{Path: p, Reason: AttachmentGone}
}

// dropWord is one word of a drop: '…' or a run of non-spaces.
var dropWord = regexp.MustCompile(`'[^']*'|\S+`)

// DroppedFiles: the paste's words, each a known file (or a refused one).
func (f *fakeBackend) DroppedFiles(paste string) ([]AttachmentFile, []error, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.att.drops = append(f.att.drops, paste)
	var files []AttachmentFile
	var refused []error
	for _, w := range dropWord.FindAllString(paste, -1) {
		w = strings.Trim(w, "'")
		if err := f.att.refuse[w]; err != nil {
			refused = append(refused, err)
			continue
		}
		file, ok := f.att.files[w]
		if !ok {
			return nil, nil, false
		}
		files = append(files, file)
	}
	return files, refused, true
}

func (f *fakeBackend) SaveAttachment(topic, p string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.att.saves = append(f.att.saves, topic+"|"+p)
	if err := f.att.refuse[p]; err != nil {
		return "", err
	}
	if _, ok := f.att.files[p]; !ok {
		return "", &AttachmentError{Path: p, Reason: AttachmentGone}
	}
	f.att.nSaved++
	return "/data/logs/main/attachments/" + topic + "/" + path.Base(p), nil
}

func (f *fakeBackend) OpenAttachment(p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.att.opened = append(f.att.opened, p)
	return f.att.openErr
}
