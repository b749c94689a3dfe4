// This file holds setting one config key after the file is read: Set (as a
// flag does), the Override a flag or a caller gives, and the folding of the
// older single-valued validation keys into their lists.

package tune

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// validationAliases maps each older validation key to the list it stands
// for.
var validationAliases = map[string]string{"validation.opponent": "validation.opponents", "validation.depth": "validation.depths"}

// foldAliases turns the older keys opponent and depth into the lists they
// stand for; defined tells which validation keys ("opponent", …) the
// document sets.
func (v *ValidationConfig) foldAliases(defined func(key string) bool) error {
	if defined("opponent") {
		if defined("opponents") {
			return bad("validation.opponent", "give validation.opponents or the older validation.opponent, not both")
		}
		v.Opponents = []string{}
		if v.Opponent != "" {
			v.Opponents = []string{v.Opponent}
		}
		v.Opponent = ""
	}
	if defined("depth") {
		if defined("depths") {
			return bad("validation.depth", "give validation.depths or the older validation.depth, not both")
		}
		v.Depths, v.Depth = []int{v.Depth}, 0
	}
	return nil
}

// Override sets one key after the file is read, as a flag does: Value is
// TOML ("3", `"pso"`), Source names where it came from in errors ("flag
// -depth"). Key "@budget" is the chosen method's step budget
// (Spec.BudgetKey in its table); with Unit set, the override applies only
// to a method whose steps are of that unit ("generation").
type Override struct {
	Key, Value, Source string
	Unit               string
}

// FlagOverride is the override a command-line flag gives: key set to
// value (quoted as a TOML string when str), its source "flag -NAME", and
// for the flags named after a method's step unit (generations,
// iterations, rounds) that unit, so a flag for another method's budget is
// refused naming it.
func FlagOverride(flag, key, value string, str bool) Override {
	if str {
		value = strconv.Quote(value)
	}
	o := Override{Key: key, Value: value, Source: "flag -" + flag}
	if flag == "generations" || flag == "iterations" || flag == "rounds" {
		o.Unit = strings.TrimSuffix(flag, "s")
	}
	return o
}

// Set sets one key to a TOML value, as a flag does: Set("engine.depth",
// "3"), Set("ga.generations", "5"), Set("method", `"pso"`). The value is
// decoded like the same key in a file (wrong types are errors); call
// Validate afterwards. Errors are *ConfigError naming the key.
func (c *Config) Set(key, value string) error {
	err := c.set(key, value)
	var ce *ConfigError
	if errors.As(err, &ce) && !strings.HasPrefix(value, `"`) {
		// A value that is not TOML ("x" for a depth): say what the key
		// takes, learnt from the type a quoted value is refused for.
		d := DefaultConfig()
		if m := destType.FindStringSubmatch(fmt.Sprint(d.set(key, strconv.Quote(value)))); m != nil {
			if want, ok := typeWords[m[1]]; ok {
				ce.Msg = fmt.Sprintf("must be %s, not %q", want, value)
			}
		}
	}
	return err
}

// destType finds the Go type named by a BurntSushi/toml type mismatch,
// and typeWords says what a value of it is.
var (
	destType  = regexp.MustCompile(`destination has type ([a-z0-9]+)`)
	typeWords = map[string]string{"integer": "an integer", "float": "a number", "bool": "true or false"}
)

func (c *Config) set(key, value string) error {
	parts := strings.Split(key, ".")
	var doc string
	switch len(parts) {
	case 1:
		doc = fmt.Sprintf("%s = %s\n", parts[0], value)
	case 2:
		doc = fmt.Sprintf("[%s]\n%s = %s\n", parts[0], parts[1], value)
	default:
		return &ConfigError{Key: key, Msg: "not a config key"}
	}
	if opts, ok := c.Options[parts[0]]; ok && len(parts) == 2 {
		var raw map[string]toml.Primitive
		md, err := toml.Decode(doc, &raw)
		if err == nil {
			err = md.PrimitiveDecode(raw[parts[0]], opts)
		}
		if err != nil {
			return &ConfigError{Key: key, Msg: tomlError("", err).Msg}
		}
		if und := md.Undecoded(); len(und) > 1 {
			return &ConfigError{Key: key, Msg: "unknown key"}
		}
		return nil
	}
	md, err := toml.Decode(doc, c)
	if err != nil {
		return &ConfigError{Key: key, Msg: tomlError("", err).Msg}
	}
	if len(md.Undecoded()) > 0 {
		return &ConfigError{Key: key, Msg: "unknown key"}
	}
	return c.Validation.foldAliases(func(k string) bool { return key == "validation."+k })
}
