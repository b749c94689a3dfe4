package crash

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestRecoverCarriesThePanic: a goroutine's panic reaches its waiter as
// a *Panic error with the goroutine's stack; a forwarded one reaches the
// next waiter unchanged; a goroutine that returns leaves no error.
func TestRecoverCarriesThePanic(t *testing.T) {
	run := func(f func()) (err error) {
		done := make(chan error)
		go func() {
			var err error
			defer func() { done <- err }()
			defer Recover(&err)
			f()
		}()
		return <-done
	}
	if err := run(func() {}); err != nil {
		t.Fatalf("no panic: %v", err)
	}
	err := run(func() { var m map[string]int; m["x"]++ })
	p, ok := As(fmt.Errorf("game 3: %w", err))
	if !ok || !strings.HasPrefix(p.Error(), "internal error: assignment to entry in nil map") || !strings.Contains(string(p.Stack), "crash_test.go") {
		t.Fatalf("nil map: %v, %v", err, ok)
	}
	var re interface{ RuntimeError() }
	if !errors.As(err, &re) {
		t.Error("the runtime error is not unwrapped")
	}
	// A chunk's panic caught, then forwarded by its waiter, arrives as the
	// same *Panic.
	var wg sync.WaitGroup
	var caught *Panic
	wg.Go(func() { caught = Catch(func() { panic("chunk 2") }) })
	wg.Wait()
	err = run(func() { Forward(caught) })
	if p, ok := As(err); !ok || p != caught || p.Value != "chunk 2" {
		t.Fatalf("forwarded: %v", err)
	}
	Forward(nil) // no panic
}
