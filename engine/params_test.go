package engine

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestParams: every Param names a field of Settings or Settings.Time of
// its kind, reads the defaults inside its range, sets both ends of its
// range to settings Validate accepts, and refuses values outside it.
func TestParams(t *testing.T) {
	seen := map[string]bool{}
	st, tt := reflect.TypeFor[Settings](), reflect.TypeFor[TimeSettings]()
	for _, p := range Params() {
		if seen[strings.ToLower(p.Name)] {
			t.Errorf("%s: two Params of one name", p.Name)
		}
		seen[strings.ToLower(p.Name)] = true
		f, ok := st.FieldByName(p.Name)
		if time := p.isTime(); time {
			f, ok = tt.FieldByName(p.Name)
		}
		if !ok {
			t.Errorf("%s: no such field of Settings or TimeSettings", p.Name)
			continue
		}
		if isFloat := f.Type.Kind() == reflect.Float64; isFloat != p.Float {
			t.Errorf("%s: Float %v for a %s field", p.Name, p.Float, f.Type)
		}
		if q, ok := ParamByName(strings.ToUpper(p.Name)); !ok || q.Name != p.Name {
			t.Errorf("ParamByName(%q) = %q, %v", strings.ToUpper(p.Name), q.Name, ok)
		}
		for _, s := range []Settings{DefaultSettings(), PlaySettings()} {
			if v := p.Get(s); v < p.Min || v > p.Max {
				t.Errorf("%s: reads %v, outside its range %v..%v", p.Name, v, p.Min, p.Max)
			}
		}
		for _, v := range []float64{p.Min, p.Max, (p.Min + p.Max) / 2} {
			if !p.Float {
				v = math.Round(v)
			}
			s := PlaySettings()
			if err := p.Set(&s, v); err != nil {
				t.Errorf("%s: Set(%v): %v", p.Name, v, err)
			}
			if got := p.Get(s); got != v {
				t.Errorf("%s: Set(%v) then Get = %v", p.Name, v, got)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("%s = %v: Validate: %v", p.Name, v, err)
			}
		}
		below, above := p.Min-1, p.Max+1
		if p.Float {
			below, above = p.Min-p.Min/2-1e-9, p.Max*1.5
		}
		for _, v := range []float64{below, above, math.NaN()} {
			s := PlaySettings()
			var se *SettingsError
			if err := p.Set(&s, v); !errors.As(err, &se) || !strings.HasSuffix(se.Field, p.Name) {
				t.Errorf("%s: Set(%v) = %v, want a SettingsError naming the field", p.Name, v, err)
			} else if !reflect.DeepEqual(s, PlaySettings()) {
				t.Errorf("%s: a refused Set(%v) changed the settings", p.Name, v)
			}
		}
		if !p.Float {
			s := PlaySettings()
			if err := p.Set(&s, p.Min+0.5); err == nil {
				t.Errorf("%s: Set(%v) of an integer setting: no error", p.Name, p.Min+0.5)
			}
		}
	}
	if _, ok := ParamByName("NoSuchKnob"); ok {
		t.Error("ParamByName found NoSuchKnob")
	}
	if len(ParamNames()) != len(Params()) || ParamNames()[0] != "Width" {
		t.Errorf("ParamNames %v", ParamNames())
	}
	if p, _ := ParamByName("DefendShare"); p.Set(&Settings{}, 2) == nil || !strings.Contains(p.Set(&Settings{}, 2).Error(), "Time.DefendShare") {
		t.Errorf("DefendShare's error does not name Time.DefendShare: %v", p.Set(&Settings{}, 2))
	}
}
