package deps
import (
 _ "gonum.org/v1/gonum/stat/distuv"
 _ "gonum.org/v1/plot"
 _ "github.com/schollz/progressbar/v3"
 _ "github.com/BurntSushi/toml"
 _ "golang.org/x/sync/errgroup"
)
