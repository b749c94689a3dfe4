package crash

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// Panic is a recovered panic: its value and the stack of the goroutine
// that panicked. As an error it reads "internal error: VALUE".
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprintf("internal error: %v", p.Value) }

// Unwrap is the panic's value when it is an error (a runtime error, an
// error given to panic).
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// Recover, deferred at the top of a goroutine whose function returns an
// error into *err, turns a panic of the goroutine into a *Panic in *err
// (the goroutine then returns normally). A *Panic already in flight (one
// forwarded with Forward) is kept as it is.
func Recover(err *error) {
	if v := recover(); v != nil {
		*err = Of(v)
	}
}

// Of is v, a value recovered from a panic, as a *Panic with the current
// goroutine's stack (v itself when it is one).
func Of(v any) *Panic {
	if p, ok := v.(*Panic); ok {
		return p
	}
	return &Panic{Value: v, Stack: debug.Stack()}
}

// Catch calls f and returns its panic, if it panicked, as a *Panic; nil
// when f returned. For a goroutine whose waiter re-panics with Forward.
func Catch(f func()) (p *Panic) {
	defer func() {
		if v := recover(); v != nil {
			p = Of(v)
		}
	}()
	f()
	return nil
}

// Forward panics with p in the calling goroutine when p is not nil: the
// waiter of goroutines run with Catch passes their panic on to its own
// caller (and, up the chain, to the command's main goroutine).
func Forward(p *Panic) {
	if p != nil {
		panic(p)
	}
}

// As reports whether err carries a panic, and returns it.
func As(err error) (*Panic, bool) {
	var p *Panic
	ok := errors.As(err, &p)
	return p, ok
}
