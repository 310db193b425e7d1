package room

import (
	"net/http"
	"testing"

	"github.com/gorilla/websocket"
)

// dialPipe opens the room WebSocket over the room socket or named pipe
// (SeatDialer); status is a refused handshake's HTTP status (0 when it
// opened).
func dialPipe(t *testing.T, s *Server, token string) (*client, int) {
	t.Helper()
	d := websocket.Dialer{NetDialContext: SeatDialer(s.SocketPath())}
	ws, resp, err := d.Dial(s.URL(), http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		if resp == nil {
			t.Fatalf("dial the room socket: %v", err)
		}
		return nil, resp.StatusCode
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}, 0
}
