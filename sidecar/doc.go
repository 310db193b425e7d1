// Package sidecar is `pullcept sidecar`: an MCP stdio server (mark3labs/mcp-go)
// that a CLI starts from .mcp.json, and a room client (gorilla/websocket) that
// joins the topic's room over the authenticated loopback WebSocket
// (DESIGN §7; spec «サイドカーの起動形», «部屋の作法», «床»).
//
// stdout is the MCP protocol; logs go to stderr only.
package sidecar
