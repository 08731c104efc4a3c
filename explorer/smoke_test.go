package explorer

import (
	"context"
	"fmt"
	"testing"
)

func TestSmoke(t *testing.T) {
	nb := Default()
	nb.Path = t.TempDir() + "/x.gravf.toml"
	for i, c := range nb.Cells {
		if c.In.Kind() == KindExport {
			continue
		}
		out, err := nb.Eval(context.Background(), i, nil)
		if err != nil {
			t.Fatalf("cell %d: %v", i, err)
		}
		fmt.Println(out.Text())
	}
}
