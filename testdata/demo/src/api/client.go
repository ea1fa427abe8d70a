package api

// Client talks to the public API.
type Client struct{ BaseURL string }
