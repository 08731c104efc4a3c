package explorer

import (
	"github.com/gravf-tui/gravf-tui/boards"
)

// BoardParam is one board figure a platform cell may override in its `set`
// table; the board's struct tags say which (see boards.Param). An override
// that breaks the board is blamed on its field (design.Options.LoadBoard).
type BoardParam = boards.Param

// BoardParams lists the overridable figures in the board file's order.
var BoardParams = boards.Params

// BoardParamNamed finds a parameter by its `set` key.
func BoardParamNamed(name string) (BoardParam, bool) { return boards.ParamNamed(name) }
