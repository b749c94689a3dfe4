// This file holds reading and writing a Config as TOML: Load, LoadEmbedded
// and Parse (decode over the defaults, apply overrides, validate), the
// decoder's errors turned into ConfigErrors with the key's file and line
// (tomlError, keyLine, locate: package tomlkeys), and Encode, the
// config.toml of a run.

package tune

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/suggest"
	"github.com/roadtune/roadtune/internal/tomlkeys"
)

// Load reads a TOML config file over DefaultConfig, applies the overrides
// and validates it (Parse). The file must be a regular file of at most
// 1 MiB (fileio.Config); a file that is not is a *fileio.Error, refused
// before it is read.
func Load(path string, overrides ...Override) (Config, error) {
	data, err := fileio.ReadFile(path, fileio.Config)
	if err != nil {
		return Config{}, err
	}
	c, err := Parse(path, data, overrides...)
	c.Then = thenFrom(c.Then, path)
	return c, err
}

// LoadEmbedded parses the embedded config configs/<name>.toml.
func LoadEmbedded(name string, overrides ...Override) (Config, error) {
	data, err := configs.Config(name)
	if err != nil {
		return Config{}, err
	}
	c, err := Parse("configs/"+name+".toml (embedded)", data, overrides...)
	c.Then = thenFrom(c.Then, "")
	return c, err
}

// Parse decodes data (named name in errors) over DefaultConfig, applies the
// overrides in order and validates the result. Unknown keys, wrong types and
// out-of-range values are a *ConfigError naming the file and line of the key
// (or the override's Source).
func Parse(name string, data []byte, overrides ...Override) (Config, error) {
	c, err := decode(name, data)
	if err != nil {
		return Config{}, err
	}
	from := map[string]string{}
	steps := "" // the source of a step-budget override (-steps)
	for _, o := range overrides {
		key := o.Key
		if key == "@budget" {
			spec, err := c.Spec()
			if err != nil {
				return Config{}, locate(err, name, data, from)
			}
			if o.Unit != "" && o.Unit != spec.Unit {
				return Config{}, &ConfigError{File: o.Source, Msg: fmt.Sprintf("does not apply to method %q, whose steps are %ss (use -steps)", c.Method, spec.Unit)}
			}
			key = c.Method + "." + spec.BudgetKey
			steps = o.Source
			// A method's budget of 0 takes its default (zero means default);
			// a flag that asks for 0 steps is a mistake, not a default.
			if n, err := strconv.Atoi(strings.TrimSpace(o.Value)); err == nil && n < 1 {
				return Config{}, &ConfigError{File: o.Source, Msg: fmt.Sprintf("must be at least 1, not %d", n)}
			}
		}
		if err := c.Set(key, o.Value); err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) {
				ce.File = o.Source
			}
			return Config{}, err
		}
		from[key] = o.Source
	}
	c.External.AbsDir()
	if c.Budget != "" {
		c.budgetFrom = budgetSource{File: name, Line: keyLine(data, "budget")}
		if src, ok := from["budget"]; ok {
			c.budgetFrom = budgetSource{File: src}
		}
		if steps != "" {
			spec, _ := c.Spec() // the @budget override found it
			return Config{}, &ConfigError{File: steps, Msg: fmt.Sprintf("cannot be combined with %s: the budget sizes %s.%s by the clock; give one or the other",
				c.budgetFrom.describe(c.Budget), c.Method, spec.BudgetKey)}
		}
	}
	if err := c.Validate(); err != nil {
		return Config{}, locate(err, name, data, from)
	}
	return c, nil
}

// locate fills in where a *ConfigError's key was set: the override's
// source, or the file and line.
func locate(err error, name string, data []byte, from map[string]string) error {
	var ce *ConfigError
	if errors.As(err, &ce) {
		// A list set through its older single-valued key is named by it.
		for old, key := range validationAliases {
			if ce.Key == key && (from[old] != "" || keyLine(data, key) == 0 && keyLine(data, old) > 0) {
				ce.Key = old
			}
		}
		if src, ok := from[ce.Key]; ok {
			ce.File, ce.Line = src, 0
		} else {
			ce.File, ce.Line = name, keyLine(data, ce.Key)
		}
	}
	return err
}

// decode reads data over DefaultConfig without validating values.
func decode(name string, data []byte) (Config, error) {
	c := DefaultConfig()
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&c)
	if err != nil {
		ce := tomlError(name, err)
		if ce.Key == "budget" {
			ce.Msg = budgetForm + " (" + ce.Msg + ")"
		}
		return Config{}, ce
	}
	// The method tables, decoded into the registered methods' options.
	var raw map[string]toml.Primitive
	mdRaw, err := toml.Decode(string(data), &raw)
	if err != nil {
		return Config{}, tomlError(name, err)
	}
	for _, s := range Methods() {
		p, ok := raw[s.Name]
		if !ok {
			continue
		}
		if err := mdRaw.PrimitiveDecode(p, c.Options[s.Name]); err != nil {
			ce := tomlError(name, err)
			if ce.Key != "" && !strings.HasPrefix(ce.Key, s.Name+".") {
				ce.Key = s.Name + "." + ce.Key
			}
			if ce.Line == 0 {
				ce.Line = keyLine(data, ce.Key)
			}
			return Config{}, ce
		}
	}
	if err := c.Validation.foldAliases(func(k string) bool { return md.IsDefined("validation", k) }); err != nil {
		var ce *ConfigError
		errors.As(err, &ce)
		ce.File, ce.Line = name, keyLine(data, ce.Key)
		return Config{}, ce
	}
	var unknown []string
	for _, k := range md.Undecoded() {
		if _, isMethod := registry[k[0]]; !isMethod {
			unknown = append(unknown, k.String())
		}
	}
	for _, k := range mdRaw.Undecoded() {
		if _, isMethod := registry[k[0]]; isMethod && len(k) > 1 {
			unknown = append(unknown, k.String())
		}
	}
	if len(unknown) > 0 {
		slices.SortFunc(unknown, func(a, b string) int { return keyLine(data, a) - keyLine(data, b) })
		k := unknown[0]
		msg := "unknown key" + suggest.DidYouMean(k, knownKeys())
		if strings.HasSuffix(k, ".stall") {
			msg = "unknown key (the stall rule is the top-level key \"stall\" for every method)"
		}
		return Config{}, &ConfigError{File: name, Line: keyLine(data, k), Key: k, Msg: msg}
	}
	return c, nil
}

// knownKeys are the dotted keys of DefaultConfig, for "did you mean".
func knownKeys() []string {
	c := DefaultConfig()
	flat, err := c.Flat()
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tomlError turns a BurntSushi/toml error into a *ConfigError with the line
// and key where the decoder gives them (tomlkeys.Parse).
func tomlError(name string, err error) *ConfigError {
	line, key, msg := tomlkeys.Parse(err)
	return &ConfigError{File: name, Line: line, Key: key, Msg: msg}
}

// keyLine finds the line where a dotted key ("ga.population",
// "param[2].min") is set in a TOML document, or 0 (tomlkeys.Line).
var keyLine = tomlkeys.Line

// Encode writes the resolved config as TOML: every common key, then the
// chosen method's table with all its options. Parse reads it back to the
// same Config (other methods' options at their defaults).
func (c *Config) Encode() ([]byte, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(c); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "\n[%s]\n", c.Method)
	if err := toml.NewEncoder(&b).Encode(c.MethodOptions()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
