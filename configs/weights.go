package configs

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/suggest"
)

// LoadWeights returns a weight file given by an embedded baseline's name
// (one of WeightNames: "zhou2015", "qi2018-table3-1", …) or by a path to a
// weight file (JSON, see engine.ParseWeightFile). A baseline's name always
// means the embedded file; write "./zhou2015" for a file of that name.
//
// Errors (all *fileio.Error values, bad input): a nameOrPath that is
// neither a baseline nor an existing file is an error naming the path and
// the baselines; a file that is not a regular file or is larger than 1 MiB
// (fileio.Weights) is refused before it is read;
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
	data, err := fileio.ReadFile(nameOrPath, fileio.Weights)
	var fe *fileio.Error
	if errors.Is(err, fs.ErrNotExist) && errors.As(err, &fe) {
		return nil, fileio.Bad(fmt.Errorf("weights %q: not a baseline and not a readable file%s: %w; the baselines are %s",
			nameOrPath, suggest.DidYouMean(nameOrPath, names), &fs.PathError{Op: "open", Path: nameOrPath, Err: fe.Err}, strings.Join(names, ", ")))
	}
	if err != nil {
		return nil, err
	}
	return engine.ParseWeightFile(nameOrPath, data)
}
