package login

// Form is the login form.
type Form struct{ User, Password string }
