package boards

import (
	"fmt"
	"regexp"
)

// partPattern is a Xilinx part name as Vivado's -part takes it: "xc" (or
// "xa" automotive, "xq" defence) and the device, then up to five
// dash-separated fields for package, speed grade, temperature and
// revision: xcku060-ffva1156-2-e, xcu250-figd2104-2L-e, xc7z020clg400-1,
// xcvc1902-vsva2197-2MP-e-S. The part goes into the exported Vivado and
// yosys scripts, so nothing but letters, digits and single dashes passes.
var partPattern = regexp.MustCompile(`^x[acq][a-z0-9]+(-[A-Za-z0-9]+){0,5}$`)

// maxPartLen bounds a part name (real ones are under 30 characters).
const maxPartLen = 48

// CheckPart says why s is not a Xilinx part name, or returns nil.
func CheckPart(s string) error {
	if len(s) > maxPartLen || !partPattern.MatchString(s) {
		return fmt.Errorf("must be a Xilinx part name such as xcku060-ffva1156-2-e (lower-case device starting with xc, xa or xq, then dash-separated fields of letters and digits), got %q", s)
	}
	return nil
}
