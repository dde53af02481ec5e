package loop

// fdSet is the loop's table of watched file descriptors (see fd
// registration); refs counts the watches that keep a run-until-idle loop
// alive.
type fdSet struct {
	refs int
}

// closeFDs drops every fd watch of a closing loop. On the loop.
func (l *Loop) closeFDs() {
	l.fds = nil
}
