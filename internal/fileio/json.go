package fileio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// DecodeJSON decodes exactly one JSON value from data into v, strictly:
// a field v does not have is an error (DisallowUnknownFields), and so is
// anything but white space after the value (a *TrailingDataError) or no
// value at all. It is the one strict JSON decoder of roadtune's files:
// results' ReadJSON and JSON Lines, the methods' checkpoint states and
// tune's records.
func DecodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("no JSON value")
		}
		return err
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		trimmed := bytes.TrimLeft(data[end:], " \t\r\n")
		return &TrailingDataError{Offset: int64(len(data) - len(trimmed))}
	}
	return nil
}

// TrailingDataError reports bytes after the one JSON value DecodeJSON
// expects; Offset is the 0-based index of the first of them.
type TrailingDataError struct{ Offset int64 }

func (e *TrailingDataError) Error() string { return "data after the JSON value" }
