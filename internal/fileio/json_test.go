package fileio

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeJSONIsStrict(t *testing.T) {
	type rec struct {
		A int `json:"a"`
	}
	var r rec
	if err := DecodeJSON([]byte(" {\"a\": 3}\n"), &r); err != nil || r.A != 3 {
		t.Fatalf("a good value: %v, %+v", err, r)
	}
	if err := DecodeJSON([]byte(`{"a": 1, "b": 2}`), &rec{}); err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("an unknown field: %v", err)
	}
	var tr *TrailingDataError
	if err := DecodeJSON([]byte("{\"a\": 1}\n  {\"a\": 2}"), &rec{}); !errors.As(err, &tr) || tr.Offset != 11 {
		t.Errorf("a second value: %v (%+v)", err, tr)
	}
	if err := DecodeJSON([]byte(" \n"), &rec{}); err == nil || err.Error() != "no JSON value" {
		t.Errorf("no value: %v", err)
	}
}
