"""The web console: users, sessions, and server-rendered pages (docs/console.md)."""
