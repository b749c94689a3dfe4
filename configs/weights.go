package configs

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
)

// LoadWeights returns a weight file given by an embedded baseline's name
// (one of WeightNames: "zhou2015", "qi2018-table3-1", …) or by a path to a
// weight file (JSON, see engine.ParseWeightFile). A baseline's name always
// means the embedded file; write "./zhou2015" for a file of that name.
//
// Errors: a nameOrPath that is neither a baseline nor a readable file is an
// error naming the path, the reason it could not be read and the baselines;
// a file that does not parse is engine.ParseWeightFile's error, naming the
// file ("configs/weights/<name>.json" for a baseline), the line and the
// field.
func LoadWeights(nameOrPath string) (*engine.WeightFile, error) {
	names := WeightNames()
	if slices.Contains(names, nameOrPath) {
		data, err := Weights(nameOrPath)
		if err != nil {
			return nil, err
		}
		return engine.ParseWeightFile("configs/weights/"+nameOrPath+".json", data)
	}
	if nameOrPath == "" {
		return nil, fmt.Errorf("weights: empty name: want a baseline (%s) or a weight file path", strings.Join(names, ", "))
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		return nil, fmt.Errorf("weights %q: not a baseline and not a readable file%s: %w; the baselines are %s",
			nameOrPath, cmdline.DidYouMean(nameOrPath, names), err, strings.Join(names, ", "))
	}
	return engine.ParseWeightFile(nameOrPath, data)
}
