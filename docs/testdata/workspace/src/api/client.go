package api

// Client calls the billing service.
type Client struct{ URL string }
