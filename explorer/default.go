package explorer

import "github.com/gravf-tui/gravf-tui/samples"

// Default returns the built-in notebook that opens when the user gives no
// file: the paper's four AC-510 boards with WCC on a degree-32 graph. It
// has no path; relative paths in it resolve against the working directory.
func Default() *Notebook {
	nb, err := Sample(samples.DefaultNotebook)
	if err != nil {
		panic(err) // embedded and tested
	}
	return nb
}

// Sample parses an embedded sample notebook (see samples.NotebookNames).
// Like Default, it has no path until saved.
func Sample(name string) (*Notebook, error) {
	file, data, err := samples.Notebook(name)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	return nb, nil
}
