package vitis

import (
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/model"
)

// kernelXMLFile is the part of kernel.xml the checks read.
type kernelXMLFile struct {
	Kernel struct {
		Name  string    `xml:"name,attr"`
		Ports []xmlPort `xml:"ports>port"`
		Args  []struct {
			Name   string `xml:"name,attr"`
			ID     int    `xml:"id,attr"`
			Port   string `xml:"port,attr"`
			Offset string `xml:"offset,attr"`
			Size   string `xml:"size,attr"`
		} `xml:"args>arg"`
	} `xml:"kernel"`
}

type xmlPort struct {
	Name  string `xml:"name,attr"`
	Mode  string `xml:"mode,attr"`
	Type  string `xml:"portType,attr"`
	Width int    `xml:"dataWidth,attr"`
}

func readKernelXML(t *testing.T, path string) kernelXMLFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var k kernelXMLFile
	if err := xml.Unmarshal(b, &k); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return k
}

// packageStub stands in for Vivado's commands: every file a script adds
// must exist, and it reports what was added, which bus interfaces were put
// on ap_clk and what package_xo packaged.
const packageStub = `namespace eval ipx {}
set files {}
set busses {}
set xo {}
proc create_project {args} { if {[lsearch $args -part] < 0} { puts "NO PART"; exit 1 } }
proc add_files {args} {
    global files constrs
    foreach f [lindex $args end] {
        if {![file exists $f]} { puts "MISSING $f"; exit 1 }
        if {[lsearch $args constrs_1] >= 0} { lappend constrs $f } else { lappend files $f }
    }
}
set constrs {}
set ips {}
proc create_ip {args} {
    global ips
    foreach flag {-name -vendor -library -module_name} {
        if {[lsearch $args $flag] < 0} { puts "create_ip without $flag"; exit 1 }
    }
    lappend ips [lindex $args [expr {[lsearch $args -module_name] + 1}]]
}
proc get_ips {name} {
    global ips
    if {[lsearch $ips $name] < 0} { puts "NO IP $name"; exit 1 }
    return $name
}
proc generate_target {args} {}
foreach p {infer_bus_interface remove_bus_interface add_bus_interface add_port_map get_port_maps update_source_project_archive} { proc ipx::$p {args} { return x } }
proc current_fileset {args} { return sources_1 }
foreach p {set_property update_compile_order close_project} { proc $p {args} {} }
foreach p {package_project unload_core edit_ip_in_project create_xgui_files update_checksums check_integrity save_core} { proc ipx::$p {args} {} }
proc ipx::current_core {args} { return core }
proc ipx::get_bus_interfaces {args} { return bus }
proc ipx::add_bus_parameter {args} { return param }
proc ipx::associate_bus_interfaces {args} {
    global busses
    set i [lsearch $args -busif]
    if {$i >= 0} { lappend busses [lindex $args [expr {$i + 1}]] }
}
proc package_xo {args} {
    global xo
    set x {}
    if {[lsearch $args -kernel_xml] >= 0} {
        set x [lindex $args [expr {[lsearch $args -kernel_xml] + 1}]]
        if {![file exists $x]} { puts "MISSING $x"; exit 1 }
    } elseif {[lsearch $args ap_ctrl_none] < 0} {
        puts "package_xo of a kernel without kernel.xml that is not free running"; exit 1
    }
    set xo [list [lindex $args [expr {[lsearch $args -kernel_name] + 1}]] $x]
}
source [lindex $argv 0]
puts "FILES $files"
puts "BUSSES $busses"
puts "XO $xo"
puts "IPS $ips"
puts "CONSTRS $constrs"
`

// TestPackageScripts runs every package_<kernel>.tcl under tclsh with
// stub Vivado commands: the files it adds exist and are the shared RTL
// and the kernel's own top; every interface of kernel.xml is put on
// ap_clk; package_xo packages that kernel with its kernel.xml.
func TestPackageScripts(t *testing.T) {
	tclsh := testenv.NeedTool(t, "tclsh")
	d := design{board: "u280", kernel: "pr", graph: "uniform:v=40,d=3,seed=1", fpgas: 2, pes: 3, mem: model.OffChip}
	dir, m := d.export(t)
	if err := os.WriteFile(filepath.Join(dir, "stub.tcl"), []byte(packageStub), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range m.Vitis.Kernels {
		cmd := exec.Command(tclsh, "stub.tcl", "scripts/package_"+k.Name+".tcl")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tclsh package_%s.tcl: %v\n%s", k.Name, err, out)
		}
		got := map[string][]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(l)
			got[f[0]] = f[1:]
		}
		files := got["FILES"]
		for _, o := range m.Vitis.Kernels {
			if has := slices.Contains(files, "rtl/"+o.Name+".v"); has != (o.Name == k.Name) {
				t.Errorf("package_%s.tcl adds rtl/%s.v: %v", k.Name, o.Name, has)
			}
		}
		for _, f := range []string{"rtl/gravf_axil_ctrl.v", "rtl/gravf_vitis_loader.v", "rtl/gravf_pe.v", "rtl/gravf_crossbar.v"} {
			if !slices.Contains(files, f) {
				t.Errorf("package_%s.tcl does not add %s", k.Name, f)
			}
		}
		kx := readKernelXML(t, filepath.Join(dir, "kernels", k.Name, "kernel.xml"))
		var ports []string
		for _, p := range kx.Kernel.Ports {
			ports = append(ports, p.Name)
		}
		slices.Sort(ports)
		busses := slices.Sorted(slices.Values(got["BUSSES"]))
		if !slices.Equal(ports, busses) {
			t.Errorf("package_%s.tcl puts %v on ap_clk, kernel.xml has %v", k.Name, busses, ports)
		}
		if want := []string{k.Name, "kernels/" + k.Name + "/kernel.xml"}; !slices.Equal(got["XO"], want) {
			t.Errorf("package_%s.tcl: package_xo %v, want %v", k.Name, got["XO"], want)
		}
	}
	// The link kernel: the Aurora core generated in the project, the core's
	// RTL, the constraints, and package_xo of the kernel.
	cmd := exec.Command(tclsh, "stub.tcl", "scripts/package_gravf_aurora_link.tcl")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tclsh package_gravf_aurora_link.tcl: %v\n%s", err, out)
	}
	want := "FILES rtl/gravf_async_fifo.v rtl/gravf_axil_ctrl.v rtl/gravf_gray_sync.v rtl/gravf_aurora_core.v rtl/gravf_aurora_link.v\n" +
		"BUSSES s_axi_control tx_axis rx_axis\nXO gravf_aurora_link {}\nIPS gravf_aurora_64b66b\nCONSTRS constraints/gravf_aurora_link.xdc\n"
	if string(out) != want {
		t.Errorf("package_gravf_aurora_link.tcl:\n%s\nwant\n%s", out, want)
	}
}

// TestLinkConfigs holds every v++ configuration to the kernels' kernel.xml
// and the platform: nk names a kernel, sp a master port of it and a bank
// the card has, slr an SLR it has, stream_connect joins an output stream
// to an input stream of the same width, every stream is connected once,
// and connect= uses the platform's GT and clock interfaces.
func TestLinkConfigs(t *testing.T) {
	for _, d := range []design{
		{board: "u280", kernel: "wcc", graph: "uniform:v=40,d=3,seed=1", fpgas: 2, pes: 3, mem: model.OffChip},
		{board: "u250", kernel: "bfs", graph: "uniform:v=40,d=3,seed=1", fpgas: 2, pes: 5, mem: model.OffChip},
		{board: "u55c", kernel: "sssp", graph: "uniform:v=40,d=3,seed=1", fpgas: 3, pes: 2, mem: model.OffChip},
	} {
		t.Run(d.board+"_"+d.kernel, func(t *testing.T) {
			dir, m := d.export(t)
			pl := platforms[d.board]
			xmls := map[string]kernelXMLFile{}
			for _, k := range m.Vitis.Kernels {
				xmls[k.Name] = readKernelXML(t, filepath.Join(dir, "kernels", k.Name, "kernel.xml"))
			}
			cfgs := []string{"link_emu.cfg"}
			for f := 0; f < d.fpgas; f++ {
				cfgs = append(cfgs, fmt.Sprintf("link_fpga%d.cfg", f))
			}
			for _, c := range cfgs {
				b, err := os.ReadFile(filepath.Join(dir, "scripts", c))
				if err != nil {
					t.Fatal(err)
				}
				if err := checkLinkConfig(string(b), xmls, pl, c == "link_emu.cfg"); err != nil {
					t.Errorf("%s: %v", c, err)
				}
			}
		})
	}
}

// checkLinkConfig checks one v++ configuration; see TestLinkConfigs.
func checkLinkConfig(cfg string, xmls map[string]kernelXMLFile, pl Platform, emu bool) error {
	cus := map[string]string{} // compute unit -> kernel
	streams := map[string]int{}
	port := func(ref string) (kernelXMLFile, string, error) {
		cu, p, ok := strings.Cut(ref, ".")
		k, known := cus[cu]
		if !ok || !known {
			return kernelXMLFile{}, "", fmt.Errorf("%q: no such compute unit", ref)
		}
		return xmls[k], p, nil
	}
	link := "gravf_aurora_link"
	for _, line := range strings.Split(cfg, "\n") {
		key, val, ok := strings.Cut(line, "=")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		switch key {
		case "nk":
			f := strings.Split(val, ":")
			if _, ok := xmls[f[0]]; !ok && f[0] != link || len(f) != 3 || f[1] != "1" {
				return fmt.Errorf("nk=%s", val)
			}
			if emu && f[0] == link {
				return fmt.Errorf("nk=%s: no link kernel in emulation", val)
			}
			cus[f[2]] = f[0]
			if f[0] != link {
				for _, p := range xmls[f[0]].Kernel.Ports {
					if p.Type == "stream" {
						streams[f[2]+"."+p.Name] = 0
					}
				}
			}
		case "sp":
			ref, bank, _ := strings.Cut(val, ":")
			k, p, err := port(ref)
			if err != nil {
				return err
			}
			if !slices.ContainsFunc(k.Kernel.Ports, func(x xmlPort) bool {
				return x.Name == p && x.Mode == "master"
			}) {
				return fmt.Errorf("sp=%s: %s is no master port", val, p)
			}
			var i int
			if _, err := fmt.Sscanf(bank, pl.Bank+"[%d]", &i); err != nil || i < 0 || i >= pl.Banks {
				return fmt.Errorf("sp=%s: %s has banks %s[0..%d]", val, pl.Name, pl.Bank, pl.Banks-1)
			}
		case "slr":
			var i int
			_, s, _ := strings.Cut(val, ":")
			if _, err := fmt.Sscanf(s, "SLR%d", &i); err != nil || i >= pl.SLRs {
				return fmt.Errorf("slr=%s", val)
			}
		case "stream_connect":
			from, to, _ := strings.Cut(val, ":")
			for i, ref := range []string{from, to} {
				cu, p, _ := strings.Cut(ref, ".")
				if cus[cu] == link {
					if want := []string{"tx_axis", "rx_axis"}[1-i]; p != want {
						return fmt.Errorf("stream_connect=%s: the link kernel's %s", val, p)
					}
					continue
				}
				k, p, err := port(ref)
				if err != nil {
					return err
				}
				mode := []string{"write_only", "read_only"}[i]
				if !slices.ContainsFunc(k.Kernel.Ports, func(x xmlPort) bool {
					return x.Name == p && x.Mode == mode && x.Type == "stream"
				}) {
					return fmt.Errorf("stream_connect=%s: %s is no %s stream", val, ref, mode)
				}
				streams[ref]++
			}
		case "connect":
			a, b, _ := strings.Cut(val, ":")
			known := []string{pl.InitClock}
			for _, q := range pl.QSFP {
				known = append(known, q.GT, q.RefClock)
			}
			if !slices.Contains(known, a) && !slices.Contains(known, b) {
				return fmt.Errorf("connect=%s: no interface of %s", val, pl.Name)
			}
		default:
			return fmt.Errorf("unknown key %s", key)
		}
	}
	for s, n := range streams {
		if n != 1 {
			return fmt.Errorf("stream %s connected %d times", s, n)
		}
	}
	return nil
}
