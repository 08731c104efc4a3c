package kernel

import (
	"errors"
	"strings"
	"testing"
)

// TestNoFollowUpErrors is issue 16 item 9: an expression with an error is
// reported once; the statement still counts as written, so no "must
// assign" follows, and a local whose definition failed is not reported
// again where it is used.
func TestNoFollowUpErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"type error in send", func(s string) string {
			return strings.Replace(s, "send         = state.active", "send         = state.active < 1.5", 1)
		}, "k.toml:16:29: mismatched types u1 and f32 in '<'"},
		{"bad field in an update", func(s string) string {
			return strings.Replace(s, "update.label = state.label", "update.label = state.lable", 1)
		}, "k.toml:17:16: state has no field lable"},
		{"failed local used twice", func(s string) string {
			return strings.Replace(s, "send         = state.active\nupdate.label = state.label",
				"let x = state.lable\nsend         = x\nupdate.label = x", 1)
		}, "k.toml:16:9: state has no field lable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.toml", []byte(tc.edit(wccSpec)))
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("error %v (%T), want an ErrorList", err, err)
			}
			if len(l) != 1 || !strings.Contains(l[0].Error(), tc.want) {
				t.Fatalf("errors:\n%v\nwant exactly one: %s", err, tc.want)
			}
		})
	}
}
