package fakecli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pullcept/pullcept/room"
)

// LoadResult is what a -load CLI writes to its -out file when its run ends:
// the posts the room delivered, in the order it delivered them, and what it
// cost (docs/design.md §13, the real-app soak).
type LoadResult struct {
	Account    string   `json:"account"`
	Delivered  []string `json:"delivered"` // message ids, in delivery order
	Attempts   int      `json:"attempts"`
	Rejections int      `json:"rejections"`
	Errors     []string `json:"errors,omitempty"`
}

// loadOptions are the flags of the load and hostile modes.
type loadOptions struct {
	rate    int           // -load: say_to_room calls a second
	start   string        // -start: wait for this file before the run
	dur     time.Duration // -for: how long the run lasts
	out     string        // -out: where the LoadResult or HostileReport goes
	hostile bool          // -hostile: run the floods instead of posting
	to      string        // -to: address every post to this name (@name)
}

// newest is the newest message id this CLI has seen: the last tag typed
// into its terminal, or the last post of a rejection's missed list.
type newest struct{ id atomic.Pointer[string] }

func (n *newest) get() string {
	if p := n.id.Load(); p != nil {
		return *p
	}
	return ""
}

func (n *newest) set(id string) { n.id.Store(&id) }

// learn is the terminal-line hook of the load modes: a typed tag is seen.
func (n *newest) learn(line string) {
	if id, ok := taggedID(line); ok {
		n.set(id)
	}
}

// waitStart waits for the start file (the harness writes it once every
// seat is running), or ctx's end.
func waitStart(ctx context.Context, path string) bool {
	for path != "" {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return true
}

// runLoad posts "load <account> <n>" with say_to_room at o.rate for o.dur,
// passing the newest post it knows as last_seen; a floor rejection teaches
// it the missed posts and the same text goes again at once. It writes the
// LoadResult to o.out.
func runLoad(ctx context.Context, c *client.Client, o loadOptions, seen *newest, out io.Writer) {
	res := LoadResult{Account: os.Getenv(room.EnvLaunchedAs)}
	defer func() {
		if err := writeJSONAtomic(o.out, res); err != nil {
			fmt.Fprintf(out, "load: %v\n", err)
		}
	}()
	if !waitStart(ctx, o.start) {
		return
	}
	interval := time.Second / time.Duration(max(o.rate, 1))
	next, end := time.Now(), time.Now().Add(o.dur)
	n := 0
	for time.Now().Before(end) && ctx.Err() == nil {
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		}
		next = next.Add(interval)
		// A rejected post goes again at once with the missed posts read, as
		// a seat does; a slot ends with a delivery or after 50 tries.
		content := fmt.Sprintf("load %s %d", res.Account, n)
		if o.to != "" {
			content += " @" + o.to
		}
		for try := 0; try < 50 && ctx.Err() == nil; try++ {
			res.Attempts++
			text, err := say(ctx, c, content, seen.get())
			if err != nil {
				res.Errors = append(res.Errors, err.Error())
				break
			}
			if strings.HasPrefix(text, "Delivered") {
				id := strings.Fields(strings.SplitN(text, "message_id:", 2)[1] + " ?")[0]
				res.Delivered = append(res.Delivered, id)
				seen.set(id)
				n++
				break
			}
			res.Rejections++
			id := lastTag(text)
			if id == "" {
				res.Errors = append(res.Errors, "neither delivered nor missed: "+firstLine(text))
				break
			}
			seen.set(id)
		}
	}
}

// say calls say_to_room once and returns its text; a tool error is an error.
func say(ctx context.Context, c *client.Client, content, lastSeen string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, sayWait)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = room.ToolSayToRoom
	args := map[string]any{"content": content}
	if lastSeen != "" {
		args["last_seen"] = lastSeen
	}
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	var text strings.Builder
	for _, part := range res.Content {
		if tc, ok := mcp.AsTextContent(part); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("say_to_room: %s", firstLine(text.String()))
	}
	return text.String(), nil
}

// lastTag is the message id of the last tag line in a tool result.
func lastTag(text string) string {
	last := ""
	for _, line := range strings.Split(text, "\n") {
		if id, ok := taggedID(line); ok {
			last = id
		}
	}
	return last
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// ReadResult reads the -out file of a -load CLI (a LoadResult) or of a
// -hostile one (a HostileReport).
func ReadResult[T LoadResult | HostileReport](path string) (T, error) {
	var r T
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	return r, err
}

// startLoad starts the -load or -hostile run in a goroutine of its own; the
// CLI keeps reading its terminal meanwhile (what is typed is what it saw).
func startLoad(ctx context.Context, c *client.Client, o loadOptions, seen *newest, out io.Writer) error {
	if o.out == "" {
		return fmt.Errorf("-out is needed")
	}
	_, e, err := roomServer(".mcp.json", os.Getenv(room.EnvLaunchedAs), os.Getenv(room.EnvRoomID))
	if err != nil {
		return err
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(out, "load panicked: %v\n", r)
			}
		}()
		if o.hostile {
			if err := runHostile(ctx, o, seen, e.Env[room.EnvRoomURL]); err != nil {
				fmt.Fprintf(out, "hostile: %v\n", err)
			}
			return
		}
		runLoad(ctx, c, o, seen, out)
	}()
	return nil
}
