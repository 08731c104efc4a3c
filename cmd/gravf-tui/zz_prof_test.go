package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZProf(t *testing.T) {
	a := os.Getenv("ZZARGS")
	if a == "" {
		t.Skip()
	}
	execute(context.Background(), strings.Fields(a), io.Discard, os.Stderr)
}
