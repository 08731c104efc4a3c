// gravf_host: runs an exported GraVF-M design on Alveo cards through XRT's
// native API and checks the result.
//
//   gravf_host [--xclbin FILE]... [--device N]... [--timeout SECONDS] [--dir DIR]
//   gravf_host --self-check [--dir DIR]
//
// It reads the buffers the export wrote (DIR/buffers/*.hex) and the
// expected state hashes (DIR/manifest.json), opens one device per xclbin
// (device i for the i-th xclbin unless --device says otherwise; a single
// xclbin holding every FPGA's kernel, as in hardware emulation, runs them
// all on one device), allocates every buffer in the bank its argument is
// connected to, writes the arguments, starts every kernel, waits for each,
// reads the status registers and the state buffers back, and compares the
// states with the expected ones. With one xclbin per card and more than
// one FPGA, every link kernel must report its Aurora channel up before any
// kernel starts (the message names the cable of cluster.json), and none
// may have dropped a word. It compares the states: every byte and the SHA-256 for integer
// kernels, every field within 1e-4 relative for f32 ones (their sums
// follow message arrival order). It prints one line per FPGA, then
//   RESULT PASS cycles=<n> messages=<m> state_sha256=<h0>[,<h1>...]
// or RESULT FAIL <reason>. --self-check checks the project's files
// without a device: every buffer is read and every expected state
// buffer's SHA-256 must be the one in manifest.json.
//
// Exit status: 0 pass, 1 fail, 2 bad usage or project files, 3 no device
// (no card, or XRT's runtime missing).
//
// Written for gravf-tui; the design's constants are in design.h.

#include <experimental/xrt_ip.h>
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_kernel.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "design.h"
#include "sha256.hpp"

namespace {

// Exit statuses.
constexpr int kPass = 0, kFail = 1, kUsage = 2, kNoDevice = 3;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  std::vector<std::string> xclbins;
  std::vector<int> devices;
  int timeout_s = 600;
  std::string dir = ".";
  bool self_check = false;
};

const char* kUsageText =
    "usage: gravf_host [--xclbin FILE]... [--device N]... [--timeout SECONDS] [--dir DIR]\n"
    "       gravf_host --self-check [--dir DIR]\n"
    "  --xclbin FILE     an xclbin: one per card (FPGA i's kernel in the i-th), or one with every kernel\n"
    "  --device N        the device of the next xclbin (default: 0, 1, ... in order)\n"
    "  --timeout SECONDS how long to wait for every kernel (default 600)\n"
    "  --dir DIR         the exported project (default: the current folder)\n"
    "  --self-check      check the project's files against manifest.json, without a device\n";

int parse_int(const std::string& flag, const std::string& v, int lo) {
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < lo || n > 1000000)
    throw UsageError(flag + " " + v + ": not a whole number of at least " + std::to_string(lo));
  return int(n);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsageText, stdout);
      std::exit(kPass);
    }
    if (a == "--self-check") {
      o.self_check = true;
      continue;
    }
    if (i + 1 >= argc) throw UsageError(a + ": a flag with a value, or an unknown argument");
    std::string v = argv[++i];
    if (a == "--xclbin")
      o.xclbins.push_back(v);
    else if (a == "--device")
      o.devices.push_back(parse_int(a, v, 0));
    else if (a == "--timeout")
      o.timeout_s = parse_int(a, v, 1);
    else if (a == "--dir")
      o.dir = v;
    else
      throw UsageError("unknown flag " + a);
  }
  if (o.self_check) {
    if (!o.xclbins.empty()) throw UsageError("--self-check takes no --xclbin");
    return o;
  }
  if (o.xclbins.empty()) throw UsageError("no --xclbin");
  if (o.xclbins.size() != 1 && int(o.xclbins.size()) != design::kFPGAs)
    throw UsageError(std::to_string(o.xclbins.size()) + " xclbins for " + std::to_string(design::kFPGAs) +
                     " FPGAs: give one per card, or one holding every kernel");
  if (!o.devices.empty() && o.devices.size() != o.xclbins.size())
    throw UsageError("give a --device for every --xclbin, or none");
  return o;
}

// read_hex reads a buffer image: one word of kWordBytes per line, most
// significant digit first; the buffer holds word 0 at byte 0.
std::vector<uint8_t> read_hex(const std::string& path, size_t want) {
  std::ifstream in(path);
  if (!in) throw UsageError(path + ": cannot open: " + std::strerror(errno));
  std::vector<uint8_t> out;
  std::string line;
  int n = 0;
  const size_t digits = 2 * design::kWordBytes;
  while (std::getline(in, line)) {
    n++;
    if (line.size() != digits)
      throw UsageError(path + ":" + std::to_string(n) + ": a word of " + std::to_string(line.size()) +
                       " hex digits, want " + std::to_string(digits));
    for (size_t j = 0; j < size_t(design::kWordBytes); j++) {
      size_t at = digits - 2 * (j + 1);
      char* end = nullptr;
      std::string byte = line.substr(at, 2);
      unsigned long v = std::strtoul(byte.c_str(), &end, 16);
      if (*end != '\0' || !std::isxdigit(byte[0]) || !std::isxdigit(byte[1]))
        throw UsageError(path + ":" + std::to_string(n) + ": not a hex word");
      out.push_back(uint8_t(v));
    }
  }
  if (out.size() != want)
    throw UsageError(path + ": " + std::to_string(out.size()) + " bytes, the design's buffer has " +
                     std::to_string(want) + " (the file does not belong to this export)");
  return out;
}

// manifest_hash finds a kernel's expected_state_sha256 in manifest.json.
std::string manifest_hash(const std::string& dir, const std::string& kernel) {
  std::string path = dir + "/manifest.json";
  std::ifstream in(path);
  if (!in) throw UsageError(path + ": cannot open: " + std::strerror(errno));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t at = text.find("\"name\": \"" + kernel + "\"");
  const std::string key = "\"expected_state_sha256\": \"";
  size_t k = at == std::string::npos ? at : text.find(key, at);
  if (k == std::string::npos) throw UsageError(path + ": no expected_state_sha256 for kernel " + kernel);
  k += key.size();
  std::string h = text.substr(k, 64);
  if (h.size() != 64 || text.compare(k + 64, 1, "\"") != 0)
    throw UsageError(path + ": a malformed expected_state_sha256 for kernel " + kernel);
  return h;
}

// A state entry's bits, as an unsigned integer of up to 64 bits.
uint64_t bits_at(const std::vector<uint8_t>& buf, uint64_t bit, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; i++) {
    uint64_t b = bit + uint64_t(i);
    if (buf[b / 8] >> (b % 8) & 1) v |= uint64_t(1) << i;
  }
  return v;
}

float as_f32(uint64_t bits) {
  uint32_t u = uint32_t(bits);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// compare_states checks every vertex state of a kernel's state buffer
// against the expected buffer and returns the number that differ.
int compare_states(const design::Kernel& k, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  int errors = 0;
  for (size_t s = 0; s < k.states.size(); s++) {
    const design::Segment& seg = k.states[s];
    for (uint64_t i = 0; i < seg.count; i++) {
      uint64_t base = seg.beat * design::kWordBytes * 8 + i * uint64_t(seg.slot_bits);
      for (const design::Field& f : design::kFields) {
        uint64_t g = bits_at(got, base + uint64_t(f.offset), f.width);
        uint64_t w = bits_at(want, base + uint64_t(f.offset), f.width);
        bool ok = g == w;
        if (f.f32) {
          double a = as_f32(g), b = as_f32(w), d = std::fabs(a - b);
          ok = !(d > 1e-4 * std::fabs(b) && d > 1e-30);
        }
        if (!ok) {
          if (errors < 10)
            std::printf("vertex state mismatch: %s PE %zu local %llu field %s: %llx, want %llx\n", k.name, s,
                        (unsigned long long)i, f.name, (unsigned long long)g, (unsigned long long)w);
          errors++;
        }
      }
    }
  }
  return errors;
}

// A link kernel of an FPGA, on its card.
struct Link {
  const design::Link* spec;
  xrt::ip ip;
};

// An FPGA's kernel on its device.
struct Fpga {
  const design::Kernel* spec;
  std::vector<Link> links;
  std::vector<std::vector<uint8_t>> data;  // by buffer
  std::vector<uint8_t> expected;
  std::string expected_hash;
  xrt::kernel kernel;
  std::vector<xrt::bo> bos;
  xrt::run run;
};

uint32_t status_reg(Fpga& f, const char* name) {
  for (const design::Status& s : design::kStatus)
    if (std::strcmp(s.name, name) == 0) return f.kernel.read_register(s.offset);
  throw std::logic_error(std::string("no status register ") + name);
}

void print_status(Fpga& f) {
  for (const design::Status& s : design::kStatus)
    std::printf("  %s %s = %u\n", f.spec->name, s.name, f.kernel.read_register(s.offset));
}

// self_check holds the expected state buffers to manifest.json.
int self_check(const std::vector<Fpga>& fpgas) {
  std::string hashes;
  for (const Fpga& f : fpgas) {
    std::string h = gravf::sha256(f.expected);
    if (h != f.expected_hash) {
      std::printf("RESULT FAIL %s: %s has sha256 %s, manifest.json says %s\n", f.spec->name, f.spec->expected_file,
                  h.c_str(), f.expected_hash.c_str());
      return kFail;
    }
    if (compare_states(*f.spec, f.expected, f.expected) != 0) return kFail;
    hashes += (hashes.empty() ? "" : ",") + h;
  }
  std::printf("RESULT PASS self-check: every buffer read, state_sha256=%s\n", hashes.c_str());
  return kPass;
}

// wait_links waits until every link kernel's channel is up.
bool wait_links(std::vector<Fpga>& fpgas, int timeout_s) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  for (Fpga& f : fpgas) {
    for (Link& l : f.links) {
      l.ip.write_register(design::kLinkLoopback, 0);
      uint32_t st = l.ip.read_register(design::kLinkStatus);
      while ((st & 1) == 0 && std::chrono::steady_clock::now() < deadline) st = l.ip.read_register(design::kLinkStatus);
      if ((st & 1) == 0) {
        std::printf("RESULT FAIL %s %s: the Aurora channel on QSFP%d is down (status %x: lanes %x, PLL %s); it needs a cable to QSFP%d of FPGA %d's card (cluster.json)\n",
                    f.spec->name, l.spec->instance, l.spec->qsfp, st, st >> 1 & 0xf, (st >> 5 & 1) ? "locked" : "not locked",
                    l.spec->peer_qsfp, l.spec->peer_fpga);
        return false;
      }
    }
  }
  return true;
}

// check_links reports every link kernel's counters after the run.
bool check_links(std::vector<Fpga>& fpgas) {
  bool ok = true;
  for (Fpga& f : fpgas) {
    for (Link& l : f.links) {
      uint32_t soft = l.ip.read_register(design::kLinkSoftErrors), hard = l.ip.read_register(design::kLinkHardErrors);
      uint32_t dropped = l.ip.read_register(design::kLinkDropped), downs = l.ip.read_register(design::kLinkDowns);
      std::printf("%s %s (QSFP%d): %u words sent, %u received, %u soft and %u hard errors, %u dropped, down %u times\n",
                  f.spec->name, l.spec->instance, l.spec->qsfp, l.ip.read_register(design::kLinkTxWords),
                  l.ip.read_register(design::kLinkRxWords), soft, hard, dropped, downs);
      if (dropped != 0 || hard != 0 || downs != 0) {
        std::printf("RESULT FAIL %s %s: the link lost words or went down\n", f.spec->name, l.spec->instance);
        ok = false;
      }
    }
  }
  return ok;
}

int run(const Options& o) {
  // Everything from the project first, so that a bad file is reported
  // before any device is touched.
  std::vector<Fpga> fpgas(design::kKernels.size());
  for (size_t i = 0; i < fpgas.size(); i++) {
    Fpga& f = fpgas[i];
    f.spec = &design::kKernels[i];
    for (const design::Buffer& b : f.spec->buffers) f.data.push_back(read_hex(o.dir + "/" + b.file, b.bytes));
    f.expected = read_hex(o.dir + "/" + f.spec->expected_file, f.spec->buffers[1].bytes);
    f.expected_hash = manifest_hash(o.dir, f.spec->name);
  }
  if (o.self_check) return self_check(fpgas);

  std::vector<xrt::device> devices;
  std::vector<xrt::uuid> uuids;
  for (size_t i = 0; i < o.xclbins.size(); i++) {
    int index = o.devices.empty() ? int(i) : o.devices[i];
    try {
      devices.emplace_back(unsigned(index));
    } catch (const std::exception& e) {
      throw DeviceError("cannot open Alveo device " + std::to_string(index) + " (" + e.what() +
                        "): run this on a machine with the card(s) and XRT, or in emulation (make run TARGET=hw_emu)");
    }
    try {
      uuids.push_back(devices.back().load_xclbin(o.xclbins[i]));
    } catch (const std::exception& e) {
      throw DeviceError(o.xclbins[i] + ": cannot load on device " + std::to_string(index) + ": " + e.what());
    }
  }

  for (size_t i = 0; i < fpgas.size(); i++) {
    Fpga& f = fpgas[i];
    size_t d = o.xclbins.size() == 1 ? 0 : i;
    // Exclusive access: the status registers are read after the run.
    f.kernel = xrt::kernel(devices[d], uuids[d], f.spec->name, xrt::kernel::cu_access_mode::exclusive);
    // One xclbin per card: the links are link kernels on the cards' cages.
    // One xclbin for every FPGA (emulation): the kernels are joined directly.
    if (o.xclbins.size() > 1) {
      for (const design::Link& l : f.spec->links)
        f.links.push_back(Link{&l, xrt::ip(devices[d], uuids[d], std::string(design::kLinkKernel) + ":{" + l.instance + "}")});
    }
    f.run = xrt::run(f.kernel);
    for (size_t b = 0; b < f.spec->buffers.size(); b++) {
      const design::Buffer& spec = f.spec->buffers[b];
      xrt::bo bo(devices[d], f.data[b].size(), f.kernel.group_id(spec.index));
      bo.write(f.data[b].data());
      bo.sync(XCL_BO_SYNC_BO_TO_DEVICE);
      f.run.set_arg(spec.index, bo);
      f.bos.push_back(bo);
    }
    for (const design::Scalar& s : f.spec->scalars) {
      if (s.bytes == 4)
        f.run.set_arg(s.index, uint32_t(s.value));
      else
        f.run.set_arg(s.index, uint64_t(s.value));
    }
  }
  if (!wait_links(fpgas, 30)) return kFail;
  // Start every kernel before waiting for any: they exchange updates.
  for (Fpga& f : fpgas) f.run.start();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.timeout_s);
  for (Fpga& f : fpgas) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    ert_cmd_state st = f.run.wait(std::max(left, std::chrono::milliseconds(1)));
    if (st != ERT_CMD_STATE_COMPLETED) {
      std::printf("RESULT FAIL %s did not complete within %d s (state %d); its status:\n", f.spec->name, o.timeout_s, int(st));
      print_status(f);
      return kFail;
    }
  }

  if (!check_links(fpgas)) return kFail;
  uint64_t longest = 0, messages = 0;
  int errors = 0;
  std::string hashes;
  for (Fpga& f : fpgas) {
    uint32_t flags = status_reg(f, "flags");
    uint64_t cycles = uint64_t(status_reg(f, "run_cycles_hi")) << 32 | status_reg(f, "run_cycles_lo");
    uint32_t msgs = status_reg(f, "messages");
    xrt::bo& state = f.bos[1];
    state.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    std::vector<uint8_t> got(state.size());
    state.read(got.data());
    std::string h = gravf::sha256(got);
    std::printf("%s: %llu cycles, %u messages, load %u cycles, write-back %u cycles, state sha256 %s\n", f.spec->name,
                (unsigned long long)cycles, msgs, status_reg(f, "load_cycles"), status_reg(f, "wb_cycles"), h.c_str());
    if (flags != 0) {
      std::printf("RESULT FAIL %s: status flags %x (bit 0 arguments, 1 AXI load or write-back, 2 edge reads, 3 link overflow)\n",
                  f.spec->name, flags);
      return kFail;
    }
    errors += compare_states(*f.spec, got, f.expected);
    if (design::kExact && h != f.expected_hash) {
      std::printf("RESULT FAIL %s: state buffer sha256 %s, manifest.json expects %s\n", f.spec->name, h.c_str(),
                  f.expected_hash.c_str());
      return kFail;
    }
    longest = std::max(longest, cycles);
    messages += msgs;
    hashes += (hashes.empty() ? "" : ",") + h;
  }
  if (errors != 0) {
    std::printf("RESULT FAIL %d vertex states differ from the reference\n", errors);
    return kFail;
  }
  if (messages != design::kMessages) {
    std::printf("RESULT FAIL messages=%llu, the reference traversed %llu edges\n", (unsigned long long)messages,
                (unsigned long long)design::kMessages);
    return kFail;
  }
  std::printf("RESULT PASS cycles=%llu messages=%llu state_sha256=%s\n", (unsigned long long)longest,
              (unsigned long long)messages, hashes.c_str());
  return kPass;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_args(argc, argv));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "gravf_host: %s\n", e.what());
    if (std::strstr(e.what(), "xclbin") != nullptr) std::fputs(kUsageText, stderr);
    return kUsage;
  } catch (const DeviceError& e) {
    std::fprintf(stderr, "gravf_host: %s\n", e.what());
    return kNoDevice;
  } catch (const std::exception& e) {
    std::printf("RESULT FAIL XRT: %s\n", e.what());
    return kFail;
  }
}
