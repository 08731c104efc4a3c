package explorer

import (
	"errors"
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
// is reported as the board's own error. The error names the override at
// fault (a FieldError with key set.NAME), so that a form shows it at that
// field.
func applyBoardParams(b *boards.Board, set map[string]float64) (*boards.Board, error) {
	c, err := boards.Override(b, set)
	if err != nil {
		key, msg := culprit(b, set)
		return nil, &FieldError{Kind: KindPlatform, Key: key, Msg: msg, Err: fmt.Errorf("set: %w", err)}
	}
	return c, nil
}

// culprit names the override that breaks the board, and the problem in
// that field's terms: the first that fails on its own, else the last one
// ("set" when none is known).
func culprit(b *boards.Board, set map[string]float64) (key, msg string) {
	names := sortedKeys(set)
	for _, name := range names {
		if _, err := boards.Override(b, map[string]float64{name: set[name]}); err != nil {
			if _, ok := boards.ParamNamed(name); !ok {
				return "set", err.Error()
			}
			return "set." + name, boardProblem(err)
		}
	}
	if len(names) == 0 {
		return "set", ""
	}
	return "set." + names[len(names)-1], ""
}

// boardProblem is a board validation error without the file and key it
// names, for display next to the field that set the value.
func boardProblem(err error) string {
	var l boards.ErrorList
	if errors.As(err, &l) && len(l) == 1 {
		return l[0].Msg
	}
	return err.Error()
}
