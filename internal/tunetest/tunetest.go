package tunetest

import "strings"

// tinyTOML is a run of well under a second for every method: depth 1,
// small populations and budgets, a 2-pair verification against zhou2015.
const tinyTOML = `
method = "METHOD"
seed = 5
[engine]
depth = 1
width = 4
[ga]
population = 6
groups = 2
generations = 3
[pso]
particles = 4
iterations = 3
[spsa]
iterations = 4
[texel]
rounds = 3
opponents = 8
min_positions = 200
explore_rounds = 1
explore_pairing = "perturbed"
pairing = "perturbed"
sigma = 3.0
window = 0
average = 2
[cmaes]
generations = 3
lambda = 4
race_budget = 60
[bayes]
iterations = 3
batch = 2
initial = 3
repeats = 1
pool = ["zhou2015"]
candidates = 50
[validation]
opponents = ["zhou2015"]
pairs = 2
`

// Tiny returns the tiny config of method as TOML, with the tables of
// extra (whole TOML tables such as "[output]\ngames = true") appended.
func Tiny(method string, extra ...string) string {
	return strings.Replace(tinyTOML, "METHOD", method, 1) + strings.Join(extra, "\n")
}
