package explorer

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/boards"
)

// BoardParam is one board figure a platform cell may override in its `set`
// table; the board's struct tags say which (see boards.Param).
type BoardParam = boards.Param

// BoardParams lists the overridable figures in the board file's order.
var BoardParams = boards.Params

// BoardParamNamed finds a parameter by its `set` key.
func BoardParamNamed(name string) (BoardParam, bool) { return boards.ParamNamed(name) }

// applyBoardParams returns a copy of b with the overrides applied and
// validated again, so that an edit that breaks the board (a clock of 0)
// is reported as the board's own error.
func applyBoardParams(b *boards.Board, set map[string]float64) (*boards.Board, error) {
	c, err := boards.Override(b, set)
	if err != nil {
		return nil, fmt.Errorf("set: %w", err)
	}
	return c, nil
}
